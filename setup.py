"""Build hook: compile Qt translations (.ts -> .qm) into the wheel, so installed builds ship them.

All metadata lives in pyproject.toml; this file only extends ``build_py``.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithTranslations(build_py):
    def run(self):
        super().run()
        try:
            import sys

            sys.path.insert(0, str(Path(__file__).parent))
            from gpuplanner.i18n import compile_ts
        except Exception:  # PySide6 may not be importable in an isolated build env
            return
        src = Path(__file__).parent / "gpuplanner" / "resources" / "i18n"
        dst = Path(self.build_lib) / "gpuplanner" / "resources" / "i18n"
        for ts in src.glob("*.ts"):
            compile_ts(ts, dst / ts.with_suffix(".qm").name)


setup(cmdclass={"build_py": BuildWithTranslations})

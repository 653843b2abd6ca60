"""What the hostile-input probe tests (``tests/test_probe_r13.py`` … ``r17.py``) share: the CLI run in this process
and the one-line refusal rule of ``bench/probe_lib.py`` (one ``gpuplanner: error:`` line, printable, at most 400
characters, no traceback)."""

from __future__ import annotations

import contextlib
import io

from gpuplanner.cli import run_cli


def cli(argv: list[str]) -> tuple[int, str, str]:
    """``gpuplanner ARGV`` in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = run_cli(argv)
        except SystemExit as e:
            rc = e.code
    return rc, out.getvalue(), err.getvalue()


def one_line(err: str) -> str:
    """The one error line ``err`` must be (asserted), returned."""
    lines = err.strip().splitlines()
    # "gpuplanner: 错误：" under --lang zh_CN (helpzh18: argparse's error prefix in the CLI's language)
    assert len(lines) == 1 and lines[0].startswith(("gpuplanner: error: ", "gpuplanner: 错误：")), err[:500]
    assert lines[0].isprintable() and len(lines[0]) <= 400, lines[0][:200]
    assert "Traceback" not in err
    return lines[0]

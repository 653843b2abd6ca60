"""Screenshots for the document controller and the typed UI state (issue 15) at 1280x800, EN + ZH.

Opens tests/data/plans/v4-app-ui.gpuplan (schema 4, data as samples × length × epochs in results.app_ui) and a copy
whose app_ui holds hostile values: the Data page shows the migrated input state, the status bar the one-line warning.

Usage: QT_QPA_PLATFORM=offscreen PYTHONPATH=. python scripts/screenshots_document.py docs/screenshots/issue15-document
"""
import json
import os
import sys
import tempfile
from pathlib import Path

tmp = Path(tempfile.mkdtemp(prefix="doc_h15_"))
for key, sub in (("XDG_CONFIG_HOME", "cfg"), ("GPUPLANNER_CONFIG_DIR", "gcfg"), ("GPUPLANNER_DATA_DIR", "gdata"),
                 ("GPUPLANNER_CACHE_DIR", "gcache")):  # the .qm compiled from this tree's .ts
    os.environ[key] = str(tmp / sub)
sys.path.insert(0, os.getcwd())

from PySide6.QtWidgets import QApplication  # noqa: E402

app = QApplication([])
from gpuplanner.i18n import ensure_cjk_font  # noqa: E402

ensure_cjk_font()

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
fixture = Path("tests/data/plans/v4-app-ui.gpuplan")
data = json.loads(fixture.read_text(encoding="utf-8"))
data["results"]["app_ui"].update({"epochs": {"deep": [[["3"]]]}, "tokens_text": "9" * 100000, "work_mode": "sometimes"})
hostile = tmp / "hostile.gpuplan"
hostile.write_text(json.dumps(data), encoding="utf-8")


sys.path.insert(0, str(Path(__file__).resolve().parent))
from _screens import open_window, spin  # noqa: E402


def settle(ms=600):
    spin(app, ms / 1000)


w = open_window(app, search=False, settle_s=0.8)
for lang in ("en", "zh_CN"):
    w.set_language(lang)
    settle(300)
    for name, path in (("v4-app-ui", fixture), ("hostile-app-ui", hostile)):
        assert w.open_path(path), w.statusBar().currentMessage()
        settle(600)
        shot = out / f"{lang}-{name}.png"
        w.grab().save(str(shot))
        print(shot, "|", w.statusBar().currentMessage())
w.model.set_dirty(False)
w.search.shutdown()
w.estimator.shutdown()

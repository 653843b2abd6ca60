"""Screenshots for issue 20 ("Fast at any size"): the plan search's process killed in the middle of a search —
the status bar's one-line notice and the Plans page's failed search — in English and Simplified Chinese at
1280×800 (offscreen); then the next edit's search in a new process.

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue20.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue20; Linux/macOS: the process is killed with SIGKILL.)
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("GPUPLANNER_CONFIG_DIR", tempfile.mkdtemp(prefix="gpuplanner-shots-"))
os.environ.setdefault("GPUPLANNER_CACHE_DIR", tempfile.mkdtemp(prefix="gpuplanner-shots-cache-"))

ROOT = Path(__file__).resolve().parents[1]


def _spin_until(app, cond, seconds: float) -> bool:
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        app.processEvents()
        if cond():
            return True
        time.sleep(0.01)
    return False


def main(out: Path) -> int:
    from gpuplanner.ui.main_window import MainWindow

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _screens import each_language, qt_app

    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    d = json.loads((ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json").read_text(encoding="utf-8"))
    d["training"].pop("framework", None)
    d["training"].pop("global_batch_size", None)
    d["constraints"]["max_gpus"] = 4096
    for lang in each_language(app):
        w = MainWindow(autosave=False)
        w.resize(1280, 800)
        w.show()
        worker = w.search.worker
        assert _spin_until(app, lambda: w.search.state == "done", 60)
        big = Path(tempfile.mkdtemp(prefix="gpuplanner-shots-")) / "mixtral-4096-gpus.json"
        big.write_text(json.dumps(d), encoding="utf-8")
        assert w.open_path(big)                       # File > Open: a new document, a long search
        w.go_to(5)                                    # the Plans page
        assert _spin_until(app, lambda: worker.running_generation == w.search.generation and worker.ready, 30)
        os.kill(worker.pid, signal.SIGKILL)
        assert _spin_until(app, lambda: w.search.state == "failed", 30)
        _spin_until(app, lambda: False, 0.3)
        suffix = "" if lang == "en" else f"-{lang}"
        p = out / f"search-process-stopped{suffix}.png"
        w.grab().save(str(p))
        print(p, "|", w.statusBar().currentMessage())
        w.model.set_dirty(False)
        w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "issue20"))

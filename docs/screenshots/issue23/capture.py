"""Capture the Verify step's Network / Health sections and the multi-node kit result (issue 23) at 1280×800.

Run: QT_QPA_PLATFORM=offscreen python docs/screenshots/issue23/capture.py [en|zh_CN ...]
The panel is given the two-node H100 plan of tests/data/net/plan-16x-h100.json, the constructed 8 × RoCE ibstat
(RoCE where InfiniBand was promised), the constructed throttled/ECC nvidia-smi -q and the socket-fallback
multi-node result.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("GPUPLANNER_CONFIG_DIR", tempfile.mkdtemp(prefix="gpuplanner-shots-"))

OUT = Path(__file__).resolve().parent
ROOT = OUT.parents[2]


def main(*langs: str) -> int:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    from gpuplanner.i18n import LanguageManager
    from gpuplanner.io.scenario_files import load_scenario
    from gpuplanner.ui.main_window import PAGE_KEYS, MainWindow

    lm = LanguageManager(app)
    for lang in langs or ("en", "zh_CN"):
        lm.install(lang)
        w = MainWindow(autosave=False)
        w.resize(1280, 800)
        w.show()
        t0 = time.monotonic()
        while w.search.state == "running" and time.monotonic() - t0 < 60:
            app.processEvents()
            time.sleep(0.01)
        w.go_to(PAGE_KEYS.index("verify"))
        page = w.stack.currentWidget()
        panel = page.panel
        s, base = load_scenario(ROOT / "tests" / "data" / "net" / "plan-16x-h100.json")
        panel.set_scenario(s, base)
        panel.load_network_text((ROOT / "tests" / "data" / "net" / "constructed-8x-roce-400-ibstat.txt").read_text())
        panel.load_health_text(
            (ROOT / "tests" / "data" / "health" / "constructed-nvidia-smi-q-h100-throttled-ecc.txt").read_text())
        panel.import_result_file(ROOT / "tests" / "data" / "kit" / "multinode-socket-fallback-constructed.json")
        for _ in range(10):
            app.processEvents()
            time.sleep(0.02)
        scroll = getattr(page, "scroll", None)
        shots = [("network-health", panel.net_box), ("multinode-kit", panel.kit_box)]
        for name, widget in shots:
            if scroll is not None:
                scroll.verticalScrollBar().setValue(widget.mapTo(scroll.widget(), widget.rect().topLeft()).y() - 8)
            for _ in range(5):
                app.processEvents()
                time.sleep(0.02)
            path = OUT / f"verify-{name}-{lang}.png"
            w.grab().save(str(path))
            print(path)
        w.search.shutdown()
        w.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:]))

"""Screenshots for issue 36 ("a clean first hour"): at 1280×800, in English and Simplified Chinese (offscreen):
the Plans page of the starting document (every column readable), the same page after selecting plan #3 (the
summary and the memory chart follow it), and the Hardware page's memory-by-GPU-count chart of Llama-3-70B on
256 GPUs (TP 8 × PP 4), whose "least memory" curve never rises above "your layout", and that plan's Plans page.

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_first_hour.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/first-hour.)
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import each_language, open_window, qt_app, spin, wait_search  # noqa: E402


def _70b_on_256() -> Path:
    d = json.loads((ROOT / "examples" / "llama3-70b-pretrain-64xh800-tp8pp4.json").read_text(encoding="utf-8"))
    d["hardware"]["num_gpus"] = 256
    f = Path(tempfile.mkdtemp(prefix="gpuplanner-shots-")) / "llama3-70b-256-gpus.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    return f


def main(out: Path) -> int:
    from gpuplanner.ui.app import install_message_filter

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        suffix = "" if lang == "en" else f"-{lang}"
        w = open_window(app)
        w.go_to(5)
        spin(app, 0.5)
        w.grab().save(str(out / f"plans{suffix}.png"))
        page = w.page("plans")
        page.select_rank(3)
        spin(app, 1.0)
        w.grab().save(str(out / f"plans-selected-3{suffix}.png"))
        assert w.open_path(_70b_on_256(), show_errors=False)
        wait_search(app, w)
        w.go_to(4)
        hw = w.page("hardware")
        spin(app, 1.0)
        area = hw.findChild(__import__("PySide6.QtWidgets", fromlist=["QScrollArea"]).QScrollArea)
        if area is not None:
            area.ensureWidgetVisible(hw.count_chart, 0, 0)
            spin(app, 0.3)
        w.grab().save(str(out / f"memory-by-count-70b{suffix}.png"))
        w.go_to(5)  # the 70B's Plans page: GPUs left out ("Not ranked — …", one line, its tooltip the whole list)
        spin(app, 0.5)
        w.grab().save(str(out / f"plans-70b{suffix}.png"))
        w.model.set_dirty(False)
        w.close()
        print(lang, "ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "first-hour"))

"""Screenshots of issue 35 round 7's last UI fields at 1280×800 in English and Simplified Chinese (offscreen): the
Training page's AdamW implementation (``training.optimizer_implementation``, torchtitan FSDP2) and the Plans table's
rental-mode column on the Llama 3 70B example at 256 GPUs (modes differ), then with the mode set on the Time and
budget page (marked "(as set)").

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue35_r7_uifields8.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue35-r7-uifields8.)
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import each_language, open_window, qt_app, spin, wait_search  # noqa: E402


def _training(app, w, out: Path, suffix: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    w.model.set_many({"model.preset": "llama-3.1-8b", "training.framework": "fsdp", "training.method": "full",
                      "parallel.auto": True, "hardware.gpu": "h100-sxm-80gb", "hardware.num_gpus": 8,
                      "training.optimizer_implementation": "foreach"})
    w.go_to(PAGE_KEYS.index("training"))
    page = w.page("training")
    combo = page.advanced.fields["optimizer_implementation"]
    spin(app, 0.5)
    page.scroll.ensureWidgetVisible(combo, 0, 200)
    page.scroll.horizontalScrollBar().setValue(0)
    spin(app, 0.3)
    combo.showPopup()
    spin(app, 0.4)
    w.grab().save(str(out / f"training-adamw-implementation{suffix}.png"))
    combo.hidePopup()


def main(out: Path) -> int:
    from gpuplanner.ui.app import install_message_filter
    from gpuplanner.ui.main_window import PAGE_KEYS

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    d = json.loads((ROOT / "examples" / "llama3-70b-pretrain-64xh800-tp8pp4.json").read_text(encoding="utf-8"))
    d["hardware"]["num_gpus"] = 256
    f = Path(tempfile.mkdtemp(prefix="uif8-")) / "llama3-70b-256.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    for lang in each_language(app):
        suffix = "" if lang == "en" else f"-{lang}"
        w = open_window(app, search=True)
        w.open_path(f, show_errors=False)
        wait_search(app, w)
        w.go_to(PAGE_KEYS.index("plans"))
        spin(app, 0.5)
        w.grab().save(str(out / f"plans-rental-column{suffix}.png"))
        w.model.set("constraints.rental_mode", "month")
        wait_search(app, w)
        spin(app, 0.5)
        w.grab().save(str(out / f"plans-rental-as-set{suffix}.png"))
        _training(app, w, out, suffix)
        w.model.set_dirty(False)
        w.close()
        print(lang, "ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "issue35-r7-uifields8"))

"""Screenshots of issue 35 round 4's product gaps, 1280×800, English and Simplified Chinese (offscreen): the Data
page's samples × length (its length is the scenario's mean sample length) and the Training page showing the same
value; the Training page's Advanced box (one shot with a refused LoRA dropout), its Parallel layout rows (VPP,
parameter offload) and its Estimate assumptions box; the Hardware page's server box (link inside a server, CPU
memory per server); the Plans details' step-time table with the communication run under compute.

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue35_r4.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue35-r4.)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import each_language, open_window, qt_app, spin  # noqa: E402


def _scroll_to(app, page, widget) -> None:
    """Scroll the page so ``widget`` (a group box) starts at the top of the view."""
    bar = page.scroll.verticalScrollBar()
    bar.setValue(widget.mapTo(page.scroll.widget(), widget.rect().topLeft()).y())
    spin(app, 0.4)


def _type(edit, text: str) -> None:
    edit.setText(text)
    edit.textEdited.emit(text)


def _data_and_training(app, w, out: Path, lang: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    assert w.open_path(ROOT / "examples" / "7b-lora-1x4090.json", show_errors=False)
    w.go_to(PAGE_KEYS.index("data"))
    data = w.page("data")
    data.mode_buttons["samples"].setChecked(True)
    _type(data.samples, "50k")
    _type(data.avg_len, "500")
    spin(app, 0.8)
    w.grab().save(str(out / f"data-samples-{lang}.png"))
    w.go_to(PAGE_KEYS.index("training"))
    page = w.page("training")
    spin(app, 0.8)
    _scroll_to(app, page, page.setup_box)
    w.grab().save(str(out / f"training-sample-length-{lang}.png"))
    _scroll_to(app, page, page.advanced.box)
    w.grab().save(str(out / f"training-advanced-{lang}.png"))
    _type(page.advanced.fields["lora_dropout"], "1.5")  # refused: a one-line message at the field
    spin(app, 0.4)
    _scroll_to(app, page, page.advanced.box)
    w.grab().save(str(out / f"training-advanced-refused-{lang}.png"))
    _type(page.advanced.fields["lora_dropout"], "0.05")
    _scroll_to(app, page, page.advanced.assume_box)
    w.grab().save(str(out / f"training-assumptions-{lang}.png"))
    _scroll_to(app, page, page.par_box)
    w.grab().save(str(out / f"training-parallel-{lang}.png"))
    w.go_to(PAGE_KEYS.index("hardware"))
    hw = w.page("hardware")
    spin(app, 0.8)
    _scroll_to(app, hw, hw.net_box)
    w.grab().save(str(out / f"hardware-servers-{lang}.png"))
    w.model.set_dirty(False)


def _plans(app, out: Path, lang: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    w = open_window(app, search=True)
    assert w.open_path(ROOT / "examples" / "llama3-70b-pretrain-64xh800-tp8pp4.json", show_errors=False)
    spin(app, 1.0)
    while w.search.state not in ("done", "failed"):
        spin(app, 0.2)
    w.go_to(PAGE_KEYS.index("plans"))
    page = w.page("plans")
    page.view.selectRow(0)
    spin(app, 1.0)
    bar = page.details.verticalScrollBar()
    text = page.details.toPlainText()
    at = text.find("Step time breakdown") if lang == "en" else text.find("步骤时间")
    if at > 0:
        bar.setValue(int(bar.maximum() * at / max(1, len(text))))
    spin(app, 0.4)
    w.grab().save(str(out / f"plans-hidden-{lang}.png"))
    w.model.set_dirty(False)
    w.close()


def main(out: Path) -> int:
    from gpuplanner.ui.app import install_message_filter

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        w = open_window(app, search=False)
        _data_and_training(app, w, out, lang)
        w.close()
        _plans(app, out, lang)
        print(lang, "ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "issue35-r4"))

"""Before/after crops of the round-18 ux28 fixes (docs/notes/2026-12-08/issue-35-r18-ux28/) at 1280×800 in English
and Chinese: the Training page of the Megatron example (its setup and advanced boxes) and of the GRPO one (its objective box):
the fields on one right edge.
Run from a tree (the base tree for "before", the branch for "after"):
PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/shots_issue35_r18_ux28_fixes.py OUT_DIR PREFIX"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _screens import qt_app, spin  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def save(widget, out: Path, name: str, scale: float = 1.0) -> None:
    """An 8-bit PNG (small) of a widget."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage

    img = widget.grab().toImage()
    if scale != 1.0:
        img = img.scaledToWidth(int(img.width() * scale), Qt.TransformationMode.SmoothTransformation)
    img.convertToFormat(QImage.Format.Format_Indexed8).save(str(out / f"{name}.png"))


def window(app, lang_mgr, lang):
    from gpuplanner.ui.main_window import MainWindow

    lang_mgr.install(lang)
    w = MainWindow(autosave=False, search_enabled=False)
    w.resize(1280, 800)
    w.show()
    spin(app, 0.5)
    return w


def training(app, w, out, prefix, sfx) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    w.open_path(ROOT / "examples" / "70b-cpt-64xh100.gpuplan", show_errors=False)
    w.go_to(PAGE_KEYS.index("training"))
    spin(app, 0.5)
    tp = w.page("training")
    save(tp.setup_box, out, f"{prefix}-training-setup{sfx}", 0.6)
    save(tp.advanced.box, out, f"{prefix}-training-advanced{sfx}", 0.6)
    w.open_path(ROOT / "examples" / "7b-grpo-lora-vllm.json", show_errors=False)
    spin(app, 0.5)
    save(tp.obj_box, out, f"{prefix}-training-objective{sfx}", 0.6)


def budget(app, w, out, prefix, sfx) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    w.go_to(PAGE_KEYS.index("budget"))
    spin(app, 0.5)
    page = w.page("budget")
    save(page.time_box, out, f"{prefix}-budget-time{sfx}", 0.6)
    save(page.money_box, out, f"{prefix}-budget-money{sfx}", 0.6)


def plans_same_cost(app, w, out, prefix, sfx) -> None:
    """examples/7b-lora-1x4090.json: #1 and #2 cost ¥62 each ("it costs ¥0 more" before)."""
    from gpuplanner.app import engine
    from gpuplanner.io.planfile import load
    from gpuplanner.ui.main_window import PAGE_KEYS

    w.model.load(load(ROOT / "examples" / "7b-lora-1x4090.json")[0].scenario)
    res = engine.search_plans(w.model.scenario, top=3)
    w.go_to(PAGE_KEYS.index("plans"))
    page = w.page("plans")
    page.table_model.set_plans(res.plans)
    spin(app, 0.3)
    page.show_details(res.plans[0])
    spin(app, 0.3)
    page.details.verticalScrollBar().setValue(0)
    save(page.details.viewport(), out, f"{prefix}-plans-same-cost{sfx}", 0.7)


def main(out: Path, prefix: str, parts: str = "training,budget,plans") -> None:
    from gpuplanner.i18n import LanguageManager, ensure_cjk_font

    app = qt_app()
    ensure_cjk_font()
    lm = LanguageManager(app)
    out.mkdir(parents=True, exist_ok=True)
    for lang in ("en", "zh_CN"):
        sfx = "" if lang == "en" else "-zh_CN"
        for part, fn in (("training", training), ("budget", budget), ("plans", plans_same_cost)):
            if part in parts:
                w = window(app, lm, lang)
                fn(app, w, out, prefix, sfx)
                w.model.set_dirty(False)
                w.hide()


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2], *sys.argv[3:])

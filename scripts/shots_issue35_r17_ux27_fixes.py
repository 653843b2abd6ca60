"""Before/after crops of the round-17 ux27 fixes (docs/notes/2026-12-07/issue-35-r17-ux27/): the Plans page's memory
line, the Training page's setup and objective boxes, the Project page's what-if table and the scaling chart with an
unknown preset, at 1280×800 in English and Chinese. Run from a tree (the base tree for "before", the branch for
"after"): PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/shots_issue35_r17_ux27_fixes.py OUT_DIR PREFIX"""

from __future__ import annotations

import sys
import time
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


def main(out: Path, prefix: str) -> None:
    from gpuplanner.app import engine
    from gpuplanner.i18n import LanguageManager, ensure_cjk_font
    from gpuplanner.io.planfile import load
    from gpuplanner.ui.main_window import PAGE_KEYS

    app = qt_app()
    ensure_cjk_font()
    lm = LanguageManager(app)
    out.mkdir(parents=True, exist_ok=True)
    for lang in ("en", "zh_CN"):
        sfx = "" if lang == "en" else "-zh_CN"
        # 1. the Plans page's memory line (examples/llama3-8b-full.json, its first plan)
        w = window(app, lm, lang)
        w.model.load(load(ROOT / "examples" / "llama3-8b-full.json")[0].scenario)
        res = engine.search_plans(w.model.scenario, top=3)
        w.go_to(PAGE_KEYS.index("plans"))
        page = w.page("plans")
        page.table_model.set_plans(res.plans)
        spin(app, 0.3)
        page.show_details(res.plans[0])
        spin(app, 0.3)
        doc = page.details.document()
        cur = doc.find("GiB)")  # the memory heading's paragraph ("Memory per GPU (GiB)")
        block = cur.block() if not cur.isNull() else doc.begin()
        r = doc.documentLayout().blockBoundingRect(block)
        page.details.verticalScrollBar().setValue(max(0, int(r.top()) - 10))
        spin(app, 0.2)
        save(page.details.viewport(), out, f"{prefix}-plans-memory{sfx}", 0.8)
        # 3. the Training page's boxes (GRPO: the objective box's units)
        w.model.set("training.objective", "grpo")
        w.go_to(PAGE_KEYS.index("training"))
        spin(app, 0.5)
        tp = w.page("training")
        save(tp.setup_box, out, f"{prefix}-training-setup{sfx}", 0.6)
        save(tp.obj_box, out, f"{prefix}-training-objective{sfx}", 0.6)
        w.hide()  # close() would ask to save the changes (a modal box)
        # 4. the Project page's what-if table (the default document: one 7.9-hour phase)
        w = window(app, lm, lang)
        w.go_to(PAGE_KEYS.index("project"))
        pp = w.page("project")
        t0 = time.monotonic()
        while (pp.busy() or pp.result is None or pp.whatif.rowCount() == 0) and time.monotonic() - t0 < 120:
            spin(app, 0.2)
        spin(app, 0.3)
        save(pp.table, out, f"{prefix}-project-phases{sfx}", 0.7)
        save(pp.whatif_box, out, f"{prefix}-project-whatif{sfx}", 0.7)
        # 7. the scaling chart with an unknown preset
        w.model.set("model.preset", "llama-9b")
        w.estimator.run_now()
        spin(app, 1.5)
        save(w.live.scaling_chart, out, f"{prefix}-scaling-unknown-preset{sfx}", 0.7)
        w.hide()  # close() would ask to save the changes (a modal box)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])

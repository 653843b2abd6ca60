"""Screenshots of the issue 35 round-6 ux7 pass (a new user's first hour), at 1280×800 offscreen: the Training page's
parallel box on a fresh start (a dense model on HF Trainer: the MoE and Megatron-Core rows greyed) and on the MoE
example (Megatron-LM: enabled; "all layers" in the layers-recomputed field), the Project page's phase list on a fresh
start and the Shenzhen project's timeline in Chinese (every label inside the chart), and its scaling chart, which sets
no deadline (no deadline in the legend).

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue35_r6_ux7.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue35-r6-ux7.) The "before" images beside them were taken the same way on
main 823f01e.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import each_language, open_window, qt_app, spin  # noqa: E402
from screenshots_issue35_r5_ux import _wait_search  # noqa: E402


def _scroll_to(page, widget, margin: int = 200) -> None:
    from PySide6.QtWidgets import QScrollArea

    scroll = page.findChild(QScrollArea)
    if scroll is not None:
        scroll.ensureWidgetVisible(widget, 0, margin)


def _training(app, w, out: Path, suffix: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    w.go_to(PAGE_KEYS.index("training"))
    page = w.page("training")
    _scroll_to(page, page.advanced.fields["moe_dispatcher"])
    spin(app, 0.6)
    w.grab().save(str(out / f"after-training-dense-hf{suffix}.png"))
    assert w.open_path(ROOT / "examples" / "qwen3-moe-full-16xh100.gpuplan", show_errors=False)
    _wait_search(app, w)
    w.go_to(PAGE_KEYS.index("training"))
    _scroll_to(page, page.recompute_num_layers, 120)
    spin(app, 0.6)
    w.grab().save(str(out / f"after-training-moe-megatron{suffix}.png"))
    w.model.set_dirty(False)


def _project(app, w, out: Path, suffix: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    w.go_to(PAGE_KEYS.index("project"))
    spin(app, 1.5)
    w.grab().save(str(out / f"after-project-fresh{suffix}.png"))
    assert w.open_path(ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan", show_errors=False)
    _wait_search(app, w)
    if not suffix:  # the scaling chart without a deadline: no deadline in its legend
        w.go_to(PAGE_KEYS.index("data"))
        spin(app, 1.0)
        w.grab().save(str(out / "after-scaling-no-deadline.png"))
    w.go_to(PAGE_KEYS.index("project"))
    page = w.page("project")
    spin(app, 2.0)
    _scroll_to(page, page.timeline, 40)
    spin(app, 0.6)
    w.grab().save(str(out / f"after-project-timeline{suffix}.png"))
    w.model.set_dirty(False)


def main(out: Path) -> int:
    from gpuplanner.ui.app import install_message_filter

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        suffix = "" if lang == "en" else f"-{lang}"
        w = open_window(app)
        if lang == "en":
            _training(app, w, out, suffix)
            w.close()
            w = open_window(app)
        _project(app, w, out, suffix)
        w.model.set_dirty(False)
        w.close()
        print(lang, "ok")
    return 0


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    sys.exit(main(Path(args[0]) if args else ROOT / "docs" / "screenshots" / "issue35-r6-ux7"))

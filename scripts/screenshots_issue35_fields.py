"""Screenshots of the fields issue 35 added to the desktop app: the Training page's sample-length, packing and
paged-optimizer rows, its RL rows (GRPO example, vLLM on separate GPUs; one shot with a refused value showing its
one-line message), the expert tensor-parallel row (MoE example), and the Project page's serving phase with its
engine and memory share; 1280×800, English and Simplified Chinese (offscreen).

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue35_fields.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue35-fields.)
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


def _training(app, w, out: Path, lang: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    assert w.open_path(ROOT / "tests" / "data" / "examples_fixed" / "7b-grpo-lora-8xh100-vllm.json", show_errors=False)
    w.go_to(PAGE_KEYS.index("training"))
    page = w.page("training")
    spin(app, 0.8)
    _scroll_to(app, page, page.setup_box)
    w.grab().save(str(out / f"training-setup-{lang}.png"))
    _scroll_to(app, page, page.obj_box)
    w.grab().save(str(out / f"training-rl-{lang}.png"))
    page.mean_response_fraction.setText("1.5")
    page.mean_response_fraction.textEdited.emit("1.5")  # refused: a one-line message at the field
    spin(app, 0.4)
    _scroll_to(app, page, page.obj_box)
    w.grab().save(str(out / f"training-rl-refused-{lang}.png"))
    page.mean_response_fraction.setText("1")
    page.mean_response_fraction.textEdited.emit("1")
    w.model.set_dirty(False)
    assert w.open_path(ROOT / "examples" / "qwen3-moe-full-16xh100.gpuplan", show_errors=False)
    w.go_to(PAGE_KEYS.index("training"))  # a plan file opens on its first page
    spin(app, 0.8)
    _scroll_to(app, page, page.par_box)
    w.grab().save(str(out / f"training-parallel-{lang}.png"))
    w.model.set_dirty(False)


def _project(app, w, out: Path, lang: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    assert w.open_path(ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan", show_errors=False)
    w.go_to(PAGE_KEYS.index("project"))
    page = w.page("project")
    i = next(k for k, p in enumerate(page.project_data()["phases"]) if p["kind"] == "inference")
    page.list.setCurrentRow(i)
    spin(app, 1.5)
    _scroll_to(app, page, page.edit_box)
    w.grab().save(str(out / f"project-serving-{lang}.png"))
    w.model.set_dirty(False)


def main(out: Path) -> int:
    from gpuplanner.ui.app import install_message_filter

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        w = open_window(app, search=False)
        _training(app, w, out, lang)
        _project(app, w, out, lang)
        w.close()
        print(lang, "ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "issue35-fields"))

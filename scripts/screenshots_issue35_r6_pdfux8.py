"""Screenshots of issue 35 round 6's pdfux8 Training-page rows at 1280×800 (offscreen): the parallel-layout box of
a dense model on HF Trainer (interleaved pipeline greyed, no Megatron-Core rows) and of an MoE model on
Megatron-LM (interleaved pipeline, token dispatcher and pipeline split live).

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue35_r6_pdfux8.py [OUT_DIR] [PREFIX]
(OUT_DIR defaults to docs/screenshots/issue35-r6-pdfux8, PREFIX to "after"). The PDF images in that folder are
pages of ``gpuplanner report`` rendered with ``pdftoppm -png -r 70``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import each_language, open_window, qt_app, spin  # noqa: E402


def _shot(app, w, page, widget, path: Path) -> None:
    from PySide6.QtWidgets import QScrollArea

    spin(app, 0.4)
    scroll = page.findChild(QScrollArea)
    if scroll is not None:
        scroll.ensureWidgetVisible(widget, 0, 250)
    spin(app, 0.6)
    w.grab().save(str(path))


def main(out: Path, prefix: str) -> int:
    from gpuplanner.ui.app import install_message_filter
    from gpuplanner.ui.main_window import PAGE_KEYS

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        suffix = "" if lang == "en" else f"-{lang}"
        w = open_window(app, search=False)
        w.model.set("parallel.auto", False)
        w.go_to(PAGE_KEYS.index("training"))
        page = w.page("training")
        _shot(app, w, page, page.advanced.fields["vpp"], out / f"{prefix}-training-dense-hf{suffix}.png")
        w.model.set_many({"model.preset": "qwen3-30b-a3b", "training.framework": "megatron",
                          "hardware.gpu": "h100-sxm-80gb", "hardware.num_gpus": 8, "parallel.ep": 8,
                          "parallel.zero": 1})
        _shot(app, w, page, page.advanced.fields["vpp"], out / f"{prefix}-training-moe-megatron{suffix}.png")
        w.model.set_dirty(False)
        w.close()
        print(lang, "ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "issue35-r6-pdfux8",
                  sys.argv[2] if len(sys.argv) > 2 else "after"))

"""Screenshots of issue 35 round 9's "Empty the cache every" row (training.empty_cache_steps) in the Training page's
Advanced box, 1280×800, English and Simplified Chinese (offscreen): Llama 3.1 8B LoRA under the HF Trainer, samples
of 512 tokens on average below a 2,048-token cut-off, the cache emptied every 10 steps.

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue35_r9_ftoos9.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue35-r9-ftoos9; the integrator regenerates screenshots.)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import each_language, open_window, qt_app, spin  # noqa: E402


def main(out: Path) -> int:
    from gpuplanner.ui.app import install_message_filter
    from gpuplanner.ui.main_window import PAGE_KEYS

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        suffix = "" if lang == "en" else f"-{lang}"
        w = open_window(app, search=False)
        w.model.set_many({"model.preset": "llama-3.1-8b", "training.framework": "hf", "training.method": "lora",
                          "training.seq_len": 2048, "data.mean_sample_len": 512, "training.empty_cache_steps": 10,
                          "hardware.gpu": "h100-sxm-80gb", "hardware.num_gpus": 1})
        w.go_to(PAGE_KEYS.index("training"))
        page = w.page("training")
        spin(app, 0.5)
        page.scroll.ensureWidgetVisible(page.advanced.fields["empty_cache_steps"], 0, 200)
        spin(app, 0.3)
        w.grab().save(str(out / f"training-empty-cache{suffix}.png"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs/screenshots/issue35-r9-ftoos9"))

"""Screenshots of issue 35 round 10's "DeepSpeed auto sizes" row (training.ds_config_auto) in the Training page's
Advanced box, 1280×800, English and Simplified Chinese (offscreen): Llama 3.1 8B full fine-tuning under DeepSpeed
ZeRO-3 on 32 H100, the config's bucket sizes written "auto" (open-instruct's DPO config).

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue35_r10_z3pair10.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue35-r10-z3pair10; the integrator regenerates screenshots.)
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
        w.model.set_many({"model.preset": "llama-3.1-8b", "training.framework": "deepspeed", "training.method": "full",
                          "training.seq_len": 2048, "parallel.auto": False, "parallel.zero": 3,
                          "training.ds_config_auto": True, "hardware.gpu": "h100-sxm-80gb", "hardware.num_gpus": 32})
        w.go_to(PAGE_KEYS.index("training"))
        page = w.page("training")
        spin(app, 0.5)
        page.scroll.ensureWidgetVisible(page.advanced.fields["ds_config_auto"], 0, 200)
        spin(app, 0.3)
        w.grab().save(str(out / f"training-ds-config-auto{suffix}.png"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs/screenshots/issue35-r10-z3pair10"))

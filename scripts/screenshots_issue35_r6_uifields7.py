"""Screenshots of issue 35 round 6's uifields7 controls at 1280×800 in English and Simplified Chinese (offscreen):
the Training page's attention implementation (``training.attn_implementation``) on a padded LoRA batch, its
Megatron-Core CUDA graph and token-dropping rows on an MoE model, the Hardware page's spot price field
(``constraints.prices[].spot_card_hour``) and the custom GPU dialog with its FP8 row
(``hardware.custom_gpus[].fp8_tflops``).

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue35_r6_uifields7.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue35-r6-uifields7.)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import each_language, open_window, qt_app, spin  # noqa: E402

PADDED = {"model.preset": "llama-2-7b", "parallel.auto": False, "training.framework": "hf",
          "training.method": "lora", "hardware.gpu": "a100-sxm-80gb", "hardware.num_gpus": 1, "parallel.tp": 1,
          "parallel.pp": 1, "training.seq_len": 2048, "training.micro_batch_size": 4,
          "training.global_batch_size": 32, "training.recompute": "full", "data.mean_sample_len": 1024}


def _scroll_to(app, page, widget, margin: int = 200) -> None:
    from PySide6.QtWidgets import QScrollArea

    spin(app, 0.4)
    scroll = page.findChild(QScrollArea)
    if scroll is not None:
        scroll.ensureWidgetVisible(widget, 0, margin)
    spin(app, 0.6)


def _training(app, w, out: Path, suffix: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    for path, value in PADDED.items():
        w.model.set(path, value)
    w.go_to(PAGE_KEYS.index("training"))
    page = w.page("training")
    _scroll_to(app, page, page.attn_implementation, 300)
    w.grab().save(str(out / f"training-attn-implementation{suffix}.png"))
    w.model.set_many({"model.preset": "qwen3-30b-a3b", "training.framework": "megatron", "training.method": "full",
                      "hardware.gpu": "h100-sxm-80gb", "hardware.num_gpus": 8, "parallel.ep": 8,
                      "parallel.zero": 1, "data.mean_sample_len": None, "training.recompute": "megatron_selective"})
    f = page.advanced.fields
    w.model.set("parallel.moe_capacity_factor", 1.0)
    _scroll_to(app, page, f["moe_pad_to_capacity"], 150)
    w.grab().save(str(out / f"training-megatron-moe-rows{suffix}.png"))
    w.model.set_dirty(False)


def _hardware(app, w, out: Path, suffix: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS
    from gpuplanner.ui.pages.hardware_page import CustomGpuDialog

    w.model.set_many({"hardware.gpu": "h100-sxm-80gb", "constraints.prices": {"h100-sxm-80gb": {
        "card_hour": 2.5 if w.model.scenario.constraints.currency == "USD" else 18.0}}})
    w.go_to(PAGE_KEYS.index("hardware"))
    page = w.page("hardware")
    page.table.clearSelection()
    page.spot.edit.setText("1.2" if w.model.scenario.constraints.currency == "USD" else "9")
    page.spot.edit.editingFinished.emit()
    _scroll_to(app, page, page.spot.edit, 50)
    w.grab().save(str(out / f"hardware-spot-price{suffix}.png"))
    dlg = CustomGpuDialog(page)
    for edit, text in ((dlg.name, "My accelerator"), (dlg.memory, "96"), (dlg.tflops, "400"), (dlg.fp8, "800"),
                       (dlg.membw, "3.2")):
        edit.setText(text)
    dlg.show()
    spin(app, 0.4)
    dlg.grab().save(str(out / f"hardware-custom-gpu-fp8{suffix}.png"))
    dlg.close()
    w.model.set_dirty(False)


def main(out: Path) -> int:
    from gpuplanner.ui.app import install_message_filter

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        suffix = "" if lang == "en" else f"-{lang}"
        w = open_window(app, search=False)
        _training(app, w, out, suffix)
        _hardware(app, w, out, suffix)
        w.close()
        print(lang, "ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "issue35-r6-uifields7"))

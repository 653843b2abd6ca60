"""Screenshots of the Training page (step 2) at 1280x800 with the recompute policy and FP8 recipe fields, English
and Chinese: python scripts/screenshot_training.py OUT_DIR (run from the repository root with
QT_QPA_PLATFORM=offscreen)."""
import os, sys, time
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtWidgets import QApplication
app = QApplication.instance() or QApplication(sys.argv)
from gpuplanner.i18n import LanguageManager, ensure_cjk_font
ensure_cjk_font()
from gpuplanner.ui.main_window import MainWindow
lm = LanguageManager(app)
out = sys.argv[1]
w = MainWindow(autosave=False, search_enabled=False)
w.resize(1280, 800); w.show()
SCENES = {
    # torchtitan: torchao FP8 with FP8 all-gather, every-2nd-layer checkpointing
    "fsdp": (("training.framework", "fsdp"), ("training.precision", "fp8"),
             ("training.fp8_recipe", "torchao_tensorwise"), ("training.fp8_all_gather", True),
             ("training.recompute", "layer_sac"), ("training.recompute_every_n", 2), ("parallel.auto", False)),
    # Megatron-Core: Transformer Engine delayed scaling, full recompute of 4 layers per stage (block)
    "megatron": (("training.framework", "megatron"), ("training.fp8_recipe", "te_delayed"),
                 ("training.fp8_all_gather", None), ("training.recompute", "full"),
                 ("training.recompute_num_layers", 4), ("training.recompute_method", "block")),
}
w.go_to(1)
for name, sets in SCENES.items():
    for path, value in sets:
        err = w.model.set(path, value)
        assert err is None, (path, err)
    for lang in ("en", "zh_CN"):
        lm.install(lang)
        for _ in range(30):
            app.processEvents(); time.sleep(0.03)
        w.grab().save(f"{out}/training-{name}-recompute-fp8-{lang}.png")
w.model.set_dirty(False)
lm.install("en")

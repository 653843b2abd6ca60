"""Screenshots of the Model page with model ids from a hand-made local HF cache at 1280x800, EN + ZH (issue 21).

Usage: QT_QPA_PLATFORM=offscreen PYTHONPATH=. python scripts/screenshots_model_intake.py docs/screenshots/issue21
"""
import json, os, sys, tempfile
from pathlib import Path

tmp = Path(tempfile.mkdtemp(prefix="intake_h21_"))
os.environ["HF_HUB_CACHE"] = str(tmp / "hub")
os.environ["XDG_CONFIG_HOME"] = str(tmp / "cfg")
os.environ["GPUPLANNER_CONFIG_DIR"] = str(tmp / "gcfg")
os.environ["GPUPLANNER_DATA_DIR"] = str(tmp / "gdata")
os.environ["GPUPLANNER_CACHE_DIR"] = str(tmp / "gcache")  # the .qm compiled from this tree's .ts
sys.path.insert(0, os.getcwd())
from gpuplanner.core.architecture import get_preset
COMMIT = "4f1c6ce3a9b2d7e8f0a1b2c3d4e5f60718293a4b"
def lay(mid, cfg):
    repo = tmp / "hub" / ("models--" + mid.replace("/", "--"))
    snap = repo / "snapshots" / COMMIT
    snap.mkdir(parents=True)
    (repo / "refs").mkdir(); (repo / "refs" / "main").write_text(COMMIT)
    (snap / "config.json").write_text(json.dumps(cfg))
lay("Qwen/Qwen2-VL-7B-Instruct", get_preset("qwen2-vl-7b").config)
lay("Qwen/Qwen2.5-7B-Instruct", get_preset("qwen2.5-7b").config)
cfg4 = {"model_type": "llama4", "text_config": {"model_type": "llama4_text", "hidden_size": 5120, "intermediate_size": 8192,
        "intermediate_size_mlp": 16384, "num_hidden_layers": 48, "num_attention_heads": 40, "num_key_value_heads": 8,
        "head_dim": 128, "num_local_experts": 16, "num_experts_per_tok": 1, "vocab_size": 202048,
        "max_position_embeddings": 10485760, "interleave_moe_layer_step": 1},
        "vision_config": {"model_type": "llama4_vision_model", "hidden_size": 1408}}
lay("meta-llama/Llama-4-Scout-17B-16E", cfg4)
lay("acme/brand-new-arch-7b", {"model_type": "brand_new_arch", "hidden_size": 4096, "num_hidden_layers": 32,
    "num_attention_heads": 32, "intermediate_size": 11008, "vocab_size": 32000, "max_position_embeddings": 4096})

from PySide6.QtWidgets import QApplication
app = QApplication([])
from gpuplanner.i18n import ensure_cjk_font
ensure_cjk_font()
out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _screens import open_window, spin  # noqa: E402


def settle(ms=600):
    spin(app, ms / 1000)


w = open_window(app, search=False, settle_s=0.8)
for lang in ("en", "zh_CN"):
    w.set_language(lang)
    settle(400)
    page = w.page("model")
    w.go_to(0)
    page.refresh_cached_models()
    page.import_id("Qwen/Qwen2-VL-7B-Instruct")
    w.model.set("training.seq_len", 65536)
    settle(1500)
    suffix = "" if lang == "en" else "-zh_CN"
    w.grab().save(str(out / f"model-hf-cache-qwen2-vl{suffix}.png"))
    w.model.set("data.images_per_sample", 2)
    w.model.set("training.freeze_vision", False)
    w.model.set("training.seq_len", 4096)
    settle(1200)
    page.scroll.ensureWidgetVisible(page.vision_box, 0, 0)
    page.scroll.verticalScrollBar().setValue(page.vision_box.y() - 150)
    settle(400)
    w.grab().save(str(out / f"model-vision-images{suffix}.png"))
    page.scroll.verticalScrollBar().setValue(0)
    w.model.set("training.freeze_vision", True)
    w.model.set("data.images_per_sample", 1)
    page.import_id("acme/brand-new-arch-7b")
    w.model.set("training.seq_len", 4096)
    settle(1500)
    w.grab().save(str(out / f"model-unrecognised-architecture{suffix}.png"))
w.set_language("en")
w.model.set_dirty(False)
print("ok", sorted(p.name for p in out.iterdir()))

"""The Training page's control for ``training.bnb_fp16_storage`` (a 4-bit model loaded without torch_dtype keeps its
unquantised layers in fp16 under bf16 training, core/memory.bnb_fp16_storage_kept_bytes): it writes the field, the
estimate reads it, and its row is shown for QLoRA only. ZeRO 0: under ZeRO, DeepSpeed casts the whole module to bf16,
so storage and compute agree."""

from __future__ import annotations

from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.memory import GIB


def test_fp16_storage_switch_writes_the_field_and_raises_the_peak(make_window):
    win = make_window(search_enabled=False)
    win.go_to(1)
    adv = win.page("training").advanced
    f = adv.fields["bnb_fp16_storage"]
    for path, value in (("model.preset", "llama-3.1-8b"), ("parallel.auto", False), ("training.method", "lora"),
                        ("training.framework", "ms-swift"), ("hardware.gpu", "a100-sxm-80gb"),
                        ("hardware.num_gpus", 1), ("training.seq_len", 2048), ("training.micro_batch_size", 1),
                        ("training.recompute", "full"), ("parallel.zero", 0)):
        win.model.set(path, value)
    assert not adv.box.layout().isRowVisible(f.box)  # LoRA: no 4-bit layers
    win.model.set("training.method", "qlora")
    assert adv.box.layout().isRowVisible(f.box) and not f.isChecked()
    before = evaluate(win.model.user_scenario()).memory.reserved
    f.setChecked(True)
    s = win.model.user_scenario()
    assert s.training.bnb_fp16_storage is True
    # the fp16 LM head's bf16 copy under autocast: 2 x 128256 x 4096 bytes = 0.98 GiB (plus the fragmentation share)
    assert (evaluate(s).memory.reserved - before) * GIB > 0.95 * GIB
    f.setChecked(False)
    win.model.set("training.method", "lora")
    assert not adv.box.layout().isRowVisible(f.box)

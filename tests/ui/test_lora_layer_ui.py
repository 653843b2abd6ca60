"""The Training page's control for ``training.lora_layer`` (issue 35 round 14, nemoauto14): PEFT's LoRA layer by
default, NeMo AutoModel's ``LinearLoRA`` or ``TritonLinearLoRA`` on choice; it writes its field, the estimate reads it
(the adapters' memory traffic, flops.AUTOMODEL_LORA_FWD_OUT: fewer bytes, a shorter step), and it is enabled only for
LoRA/QLoRA on the Hugging Face engines (core/scenario.py refuses it elsewhere)."""

from __future__ import annotations

from gpuplanner.core import flops as F
from gpuplanner.core.evaluate import evaluate


def _lora_8b(win) -> None:
    for path, value in (("model.preset", "llama-3.1-8b"), ("parallel.auto", False), ("training.method", "lora"),
                        ("training.framework", "fsdp"), ("hardware.gpu", "h100-sxm-80gb"),
                        ("hardware.num_gpus", 1), ("training.seq_len", 4096), ("training.micro_batch_size", 2)):
        assert win.model.set(path, value) is None, path


def test_combo_writes_the_field_and_shortens_the_step(make_window):
    win = make_window(search_enabled=False)
    win.go_to(1)
    adv = win.page("training").advanced
    combo = adv.fields["lora_layer"]
    _lora_8b(win)
    assert combo.isEnabled() and adv.labels["lora_layer"].isEnabled()
    assert combo.currentData() == "peft" and combo.currentText() == "PEFT / torchtune (default)"
    assert [combo.itemData(i) for i in range(combo.count())] == list(F.LORA_LAYERS)  # the scenario's list (review14)
    assert adv.labels["lora_layer"].text() == "LoRA layer"
    peft = evaluate(win.model.user_scenario())
    combo.activated.emit(combo.findData("automodel"))
    s = win.model.user_scenario()
    assert s.training.lora_layer == "automodel"
    am = evaluate(s)
    assert am.time_modelled.step_time_s < peft.time_modelled.step_time_s
    assert am.time_modelled.parts["lora_adapters"] < peft.time_modelled.parts["lora_adapters"]
    combo.activated.emit(combo.findData("peft"))
    assert win.model.user_scenario().training.lora_layer == "peft"


def test_enabled_for_lora_on_hugging_face_engines_only(make_window):
    win = make_window(search_enabled=False)
    win.go_to(1)
    adv = win.page("training").advanced
    combo = adv.fields["lora_layer"]
    _lora_8b(win)
    for path, value in (("training.method", "full"), ("training.framework", "megatron-bridge")):
        win.model.set(path, value)
        assert not combo.isEnabled() and not adv.labels["lora_layer"].isEnabled(), value
        _lora_8b(win)
        assert combo.isEnabled()
    # a value left set where the scenario refuses it stays reachable, so it can be put back
    combo.activated.emit(combo.findData("automodel_triton"))
    win.model.set("training.method", "full")
    assert combo.isEnabled() and combo.currentData() == "automodel_triton"
    combo.activated.emit(combo.findData("peft"))
    assert not combo.isEnabled()

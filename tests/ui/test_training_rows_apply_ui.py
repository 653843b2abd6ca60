"""A new user's Training page offers only the controls that apply to the chosen tool and model: the MoE rows
(expert parallel, expert tensor parallel, the MoE token dispatcher) for a model with routed experts, the Megatron-Core
settings (token dispatcher, pipeline split) for a Megatron-Core tool, the reentrant-checkpoint switch where the tool
has one, the Liger switch for tools that run Hugging Face models. Each is disabled, never hidden, and a row holding a value that is not the default stays enabled, so a value
the scenario refuses can be put back. The layers-recomputed field says what empty means."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _ready(qtbot, w, moe: bool) -> None:
    qtbot.waitUntil(lambda: getattr(w.estimator.result, "evaluation", None) is not None
                    and w.estimator.result.evaluation.arch.is_moe == moe, timeout=30000)


def _on(page, key: str) -> bool:
    adv = page.advanced
    if key in adv.fields:
        assert adv.fields[key].isEnabled() == adv.labels[key].isEnabled()
        return adv.fields[key].isEnabled()
    assert getattr(page, key).isEnabled() == page.labels[key].isEnabled()
    return getattr(page, key).isEnabled()


def test_dense_model_on_hf_trainer_greys_the_moe_and_megatron_rows(make_window, qtbot):
    w = make_window(search_enabled=False)  # the fresh start: Llama 3.1 8B, HF Trainer
    w.go_to(1)
    page = w.page("training")
    _ready(qtbot, w, moe=False)
    w.model.set("parallel.auto", False)
    for key in ("expert_tp", "ep", "moe_dispatcher", "pp_account_embedding_loss"):
        assert not _on(page, key), key
    assert _on(page, "checkpoint_reentrant") and _on(page, "tp") and _on(page, "vpp")
    assert page.model.user_scenario().parallel.zero == 3 and _on(page, "offload_params")
    assert page.recompute_num_layers.placeholderText() == "all layers"
    # Megatron-LM: the pipeline split applies; the MoE dispatcher still not (no experts); no reentrant choice
    w.model.set("training.framework", "megatron")
    assert _on(page, "pp_account_embedding_loss") and not _on(page, "moe_dispatcher")
    assert not _on(page, "checkpoint_reentrant")
    # a value that is not the default keeps its row enabled: reentrant set under HF Trainer refuses Megatron-LM, and
    # the switch stays there to be put back
    w.model.set("training.framework", "hf")
    w.model.set("training.checkpoint_reentrant", True)
    w.model.set("training.framework", "megatron")
    assert page.model.user_scenario().training.checkpoint_reentrant is True
    assert _on(page, "checkpoint_reentrant") and _on(page, "liger_kernel")


def test_moe_model_on_megatron_enables_the_moe_rows(make_window, qtbot):
    w = make_window(search_enabled=False)
    assert w.open_path(ROOT / "examples" / "qwen3-moe-full-16xh100.gpuplan", show_errors=False)
    w.go_to(1)
    page = w.page("training")
    _ready(qtbot, w, moe=True)
    assert page.model.user_scenario().training.framework == "megatron"
    for key in ("expert_tp", "ep", "moe_dispatcher", "pp_account_embedding_loss"):
        assert _on(page, key), key
    assert not _on(page, "checkpoint_reentrant")
    assert not _on(page, "liger_kernel")  # Liger patches Hugging Face models: refused for Megatron-LM
    assert page.model.user_scenario().parallel.zero == 1 and not _on(page, "offload_params")  # needs ZeRO-3
    # the same model on HF Trainer: the experts' rows stay, Megatron's own settings are greyed
    w.model.set("training.framework", "hf")
    assert _on(page, "expert_tp") and not _on(page, "moe_dispatcher") and not _on(page, "pp_account_embedding_loss")
    assert _on(page, "checkpoint_reentrant") and _on(page, "liger_kernel")

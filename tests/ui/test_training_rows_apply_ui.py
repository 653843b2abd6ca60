"""A new user's Training page offers only the controls that apply to the chosen tool and model: the MoE rows
(expert parallel, expert tensor parallel, the MoE token dispatcher) for a model with routed experts, the Megatron-Core
settings (token dispatcher, pipeline split) for a Megatron-Core tool (hidden elsewhere, as moe8's rows), the
interleaved pipeline for a tool with an interleaved schedule, the reentrant-checkpoint switch where the tool
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


def _shown(page, key: str) -> bool:
    return page.par_box.layout().isRowVisible(page.advanced.fields[key].box)


def test_dense_model_on_hf_trainer_greys_the_moe_and_megatron_rows(make_window, qtbot):
    w = make_window(search_enabled=False)  # the fresh start: Llama 3.1 8B, HF Trainer
    w.go_to(1)
    page = w.page("training")
    _ready(qtbot, w, moe=False)
    w.model.set("parallel.auto", False)
    for key in ("expert_tp", "ep"):
        assert not _on(page, key), key
    assert not _shown(page, "moe_dispatcher") and not _shown(page, "pp_account_embedding_loss")
    assert _on(page, "checkpoint_reentrant") and _on(page, "tp") and not _on(page, "vpp")
    assert page.model.user_scenario().parallel.zero == 3 and _on(page, "offload_params")
    assert page.recompute_num_layers.placeholderText() == "all layers"
    # Megatron-LM: the pipeline split applies; the MoE dispatcher still not (no experts); no reentrant choice
    w.model.set("training.framework", "megatron")
    assert _shown(page, "pp_account_embedding_loss") and not _shown(page, "moe_dispatcher")
    assert not _on(page, "checkpoint_reentrant") and _on(page, "vpp")
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
    for key in ("expert_tp", "ep"):
        assert _on(page, key), key
    assert _shown(page, "moe_dispatcher") and _shown(page, "pp_account_embedding_loss")
    assert not _on(page, "checkpoint_reentrant")
    assert not _on(page, "liger_kernel")  # Liger patches Hugging Face models: refused for Megatron-LM
    assert page.model.user_scenario().parallel.zero == 1 and not _on(page, "offload_params")  # needs ZeRO-3
    # the same model on HF Trainer: the experts' rows stay, Megatron's own settings are greyed
    w.model.set("training.framework", "hf")
    assert _on(page, "expert_tp") and not _shown(page, "moe_dispatcher")
    assert not _shown(page, "pp_account_embedding_loss")
    assert _on(page, "checkpoint_reentrant") and _on(page, "liger_kernel")


def test_interleaved_pipeline_only_where_the_tool_interleaves(make_window, qtbot):
    """Virtual stages (``parallel.vpp``) apply to the frameworks with an interleaved schedule
    (core/frameworks.py ``interleaved_pipeline``); a value set elsewhere keeps the row enabled."""
    from gpuplanner.core.frameworks import FRAMEWORKS

    w = make_window(search_enabled=False)
    w.go_to(1)
    page = w.page("training")
    w.model.set("parallel.auto", False)
    for fw, sup in FRAMEWORKS.items():
        w.model.set("training.framework", fw)
        if page.model.user_scenario().training.framework == fw:
            assert _on(page, "vpp") == sup.interleaved_pipeline, fw
    w.model.set("training.framework", "megatron")
    w.model.set("parallel.vpp", 2)
    w.model.set("training.framework", "hf")
    assert page.model.user_scenario().parallel.vpp == 2 and _on(page, "vpp")


def test_older_megatron_rows_hidden_elsewhere_unless_set(make_window, qtbot):
    """The MoE dispatcher (Megatron-Core and an MoE model) and the pipeline split (Megatron-Core) are shown only
    there, as moe8's rows; a value set elsewhere stays in sight to be cleared."""
    w = make_window(search_enabled=False)
    w.go_to(1)
    page = w.page("training")
    w.model.set_many({"model.preset": "qwen3-30b-a3b", "parallel.auto": False, "hardware.num_gpus": 8,
                      "training.framework": "megatron"})
    assert _shown(page, "moe_dispatcher") and _shown(page, "pp_account_embedding_loss")
    w.model.set("parallel.moe_dispatcher", "alltoall")
    w.model.set("parallel.pp_account_embedding_loss", True)
    w.model.set("training.framework", "hf")
    assert _shown(page, "moe_dispatcher") and _shown(page, "pp_account_embedding_loss")
    w.model.set("parallel.moe_dispatcher", None)
    w.model.set("parallel.pp_account_embedding_loss", False)
    assert not _shown(page, "moe_dispatcher") and not _shown(page, "pp_account_embedding_loss")

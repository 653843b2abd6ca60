"""Issue 35 round 18, review18: the senior review of the round's merged code (docs/notes/2026-12-08/
issue-35-r18-review18.md says which test failed on main before its fix)."""

from __future__ import annotations

import pytest

from gpuplanner.core import frameworks
from gpuplanner.core import timing as T
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.core.search import searched_frameworks


def _titan_moe(method: str) -> dict:
    return {"model": {"preset": "qwen3-30b-a3b"},
            "training": {"method": method, "framework": "fsdp", "seq_len": 4096, "micro_batch_size": 1,
                         "global_batch_size": 8, "recompute": "full", "precision": "bf16"},
            "parallel": {"zero": 3, "tp": 1, "pp": 1, "cp": 1},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8, "gpus_per_node": 8}}


@pytest.mark.parametrize("method", ["full", "lora"])
def test_fsdp_moe_index_passes_on_torchtitan_and_torchtune_plans(method):
    """The question the review was asked: torchtitan's MoE passes (TITAN_MOE_ELEMS_PER_COPY) on the fsdp row's other
    program, torchtune (LoRA/QLoRA: frameworks.PEFT_NAMES). torchtune's MoE.forward (bd2a0fc7c) was ported from
    torchtitan's and runs the same eager gather / padded gather / scatter, so the count stands there, as a floor:
    the dispatch is hand-derived as 8 (permute) + 29 + 16 (full recompute) passes a routed copy on both."""
    r = resolve(scenario_from_dict(_titan_moe(method)))
    m = r.facts
    kw, _ = T.time_kwargs(r)
    out = T.time_arrays(m, **kw, tp=1, pp=1, cp=1, ep=1, dp=8, zero=3, recompute=T.rc.CODES["full"], mbs=1,
                        sp=False, grad_accum=1, vpp=1, num_gpus=8, gpus_per_node=8, offload=False)
    k, h, E = m.k_active, m.h, m.n_experts
    per_tok = 2.0 * ((8 + 29 + 16) * k * h + h + 6 * E) * m.moe_frac * m.L
    mem_bw = kw["mem_bw_tbs"] * 1e12 * T.MEM_BW_EFFICIENCY
    assert float(out["moe_dispatch"]) == pytest.approx(per_tok * 4096 / mem_bw, rel=1e-9)


def _qlora(framework: str, **training):
    t = {"framework": framework, "method": "qlora", "seq_len": 2048, "micro_batch_size": 2, "global_batch_size": 2,
         "recompute": "full", "precision": "bf16", "master_weights": True, "lora_rank": 16,
         "lora_targets": "all_linear"}
    t.update(training)
    return scenario_from_dict({"model": {"preset": "llama-3.1-8b"}, "training": t, "parallel": {"zero": 0},
                               "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 1}})


def test_axolotl_qlora_runs_in_16_bits():
    """Axolotl calls prepare_model_for_kbit_training and then converts every ``norm`` module and the embedding / LM
    head back to cfg.torch_dtype (src/axolotl/loaders/model.py ``_configure_embedding_dtypes`` at ae7395e9:
    ``should_convert`` for every LoRA/QLoRA adapter outside FSDP-QLoRA), so none of PEFT's fp32 casts is left: no
    kbit_fp32 terms, the same step and memory as the HF Trainer's QLoRA with training.qlora_no_upcast. Main
    charged Axolotl the fp32 norms, residual stream and casts (KBIT_PREP_TOOLS held "axolotl")."""
    assert not frameworks.kbit_upcast_applies("axolotl", "qlora")
    assert frameworks.kbit_upcast_applies("hf", "qlora") and frameworks.kbit_upcast_applies("trl", "qlora")
    ax = resolve(_qlora("axolotl"))
    assert T.time_kwargs(ax)[0]["kbit_fp32"] is False
    hf_cast, hf_bare = resolve(_qlora("hf")), resolve(_qlora("hf", qlora_no_upcast=True))
    assert memory_breakdown(ax).metric("allocated") == pytest.approx(memory_breakdown(hf_bare).metric("allocated"),
                                                                     rel=1e-9)
    assert memory_breakdown(ax).metric("allocated") < memory_breakdown(hf_cast).metric("allocated")


def test_qlora_no_upcast_refused_on_axolotl_and_search_stays_on_the_casting_tools():
    """Nothing is left for the switch to skip on Axolotl: it is refused there, as on LLaMA-Factory and Unsloth, and
    the search keeps to the HF Trainer and TRL."""
    with pytest.raises(ScenarioError, match="qlora_no_upcast"):
        _qlora("axolotl", qlora_no_upcast=True)
    fws, _ = searched_frameworks(_qlora("trl", qlora_no_upcast=True))
    assert fws and set(fws) <= {"hf", "trl"}


@pytest.mark.parametrize("fw", ["megatron", "megatron-swift", "nanotron"])
def test_use_cache_refused_where_no_hf_model_runs(fw):
    """memoos18's training.use_cache is priced on Hugging Face modelling code only (memory's ``hf_style``); the
    search kept to those engines and the Training page hid the row on Megatron, but a scenario that set it on a
    Megatron tool was accepted and the field ignored. Now refused in one line, as logits_held is."""
    sc = {"model": {"preset": "llama-3.1-8b"},
          "training": {"framework": fw, "method": "full", "seq_len": 2048, "micro_batch_size": 1,
                       "global_batch_size": 8, "use_cache": True},
          "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}
    with pytest.raises(ScenarioError, match="use_cache"):
        scenario_from_dict(sc)
    for ok in ("hf", "trl", "fsdp", "deepspeed"):
        assert frameworks.use_cache_applies(ok)
        assert scenario_from_dict({**sc, "training": {**sc["training"], "framework": ok}}).training.use_cache

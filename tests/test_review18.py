"""Issue 35 round 18, review18: the senior review of the round's merged code. Each test here failed on main before
its fix (the note docs/notes/2026-12-08/issue-35-r18-review18.md says which)."""

from __future__ import annotations

import pytest

from gpuplanner.core import frameworks
from gpuplanner.core import timing as T
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import scenario_from_dict


def _titan_moe(method: str, recompute: str = "full") -> dict:
    return {"model": {"preset": "qwen3-30b-a3b"},
            "training": {"method": method, "framework": "fsdp", "seq_len": 4096, "micro_batch_size": 1,
                         "global_batch_size": 8, "recompute": recompute, "precision": "bf16"},
            "parallel": {"zero": 3, "tp": 1, "pp": 1, "cp": 1},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8, "gpus_per_node": 8}}


def _dispatch(sc: dict) -> tuple[float, object, dict]:
    r = resolve(scenario_from_dict(sc))
    kw, _ = T.time_kwargs(r)
    out = T.time_arrays(r.facts, **kw, tp=1, pp=1, cp=1, ep=1, dp=8, zero=3, recompute=T.rc.CODES["full"], mbs=1,
                        sp=False, grad_accum=1, vpp=1, num_gpus=8, gpus_per_node=8, offload=False)
    return float(out["moe_dispatch"]), r.facts, kw


@pytest.mark.parametrize("method", ["lora", "qlora"])
def test_torchtitan_moe_passes_not_charged_on_torchtune_peft_plans(method):
    """The ``fsdp`` row's LoRA/QLoRA plans run torchtune (frameworks.PEFT_NAMES), whose MoE is a gather, the score
    product and a scatter_add_ (torchtune/modules/moe/moe.py), not torchtitan's eager index passes
    (TITAN_MOE_ELEMS_PER_COPY, read in torchtitan only): the dispatch is the permute's 8 passes a copy, as before
    round 18. Main charged torchtitan's 16 + 21 − 8 (+16 under full recompute) on them."""
    assert frameworks.name_for("fsdp", method) == "PyTorch FSDP2 (torchtune)"
    got, m, kw = _dispatch(_titan_moe(method))
    k, h, E = m.k_active, m.h, m.n_experts
    per_tok = 2.0 * (T.MOE_PERMUTE_ELEMS_PER_COPY * k * h + h + 6 * E) * m.moe_frac * m.L
    mem_bw = kw["mem_bw_tbs"] * 1e12 * T.MEM_BW_EFFICIENCY
    assert got == pytest.approx(per_tok * 4096 / mem_bw, rel=1e-9)
    assert T.moe_copy_elems(m, "fsdp", "bf16", 1.0, method) == 0.0


def test_torchtitan_moe_passes_still_on_full_training():
    """torchtitan's own plans (full, pretrain) keep the count ptoos20 read: 8 + 29 + 16 under full recompute."""
    got, m, kw = _dispatch(_titan_moe("full"))
    k, h, E = m.k_active, m.h, m.n_experts
    per_tok = 2.0 * ((8 + 29 + 16) * k * h + h + 6 * E) * m.moe_frac * m.L
    mem_bw = kw["mem_bw_tbs"] * 1e12 * T.MEM_BW_EFFICIENCY
    assert got == pytest.approx(per_tok * 4096 / mem_bw, rel=1e-9)
    assert T.moe_copy_elems(m, "fsdp", "bf16", 1.0, "pretrain") == 45.0

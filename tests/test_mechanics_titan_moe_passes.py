"""torchtitan's eager MoE index passes (issue 35 round 18, ptoos20): timing.TITAN_MOE_ELEMS_PER_COPY, counted in
pytorch/torchtitan ad9f188ab ``models/moe/moe.py`` ``MoE.forward`` and ``models/moe/utils.py`` ``_permute`` /
``_unpermute``, and the rows of bench/validate_pt_oos20.py it was read against."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_pt_oos20 as v  # noqa: E402


def test_forward_and_backward_counts_hand_derived():
    # forward: gather 2, vstack 2, padded gather 2, unpermute index_put 2, zeros 1, scatter 2, .float() 3 + bmm read 2
    fwd = 2 + 2 + 2 + 2 + 1 + 2 + (1 + 2) + 2
    # backward: bmm fp32 grad 2 + saved fp32 read 2 + cast back 3; two index_put grads 2 + 2; slice grad 1 + 2;
    # padded gather grad 1 + 1 + 2; first gather grad 1 + 2
    bwd = (2 + 2 + 3) + (2 + 2) + (1 + 2) + (1 + 1 + 2) + (1 + 2)
    assert T.TITAN_MOE_ELEMS_PER_COPY == (fwd, bwd) == (16.0, 21.0)


def test_copy_elems_by_framework_and_recompute():
    m = resolve(scenario_from_dict(v.scenario(v.ROWS[0]))).facts
    # fsdp: 16 + 21 less the permute already counted (8); the forward again per re-run share
    assert T.moe_copy_elems(m, "fsdp", "bf16") == 29.0
    assert T.moe_copy_elems(m, "fsdp", "bf16", 1.0) == 45.0
    # Megatron-Core and the HF stack are unchanged
    assert T.moe_copy_elems(m, "megatron", "bf16", 1.0) == 0.0 and T.moe_copy_elems(m, "hf", "bf16") == 0.0
    dense = resolve(scenario_from_dict({**v.scenario(v.ROWS[-1]), "model": {"preset": "llama-3.1-8b"},
                                        "parallel": {"zero": 3}})).facts
    assert T.moe_copy_elems(dense, "fsdp", "bf16", 1.0) == 0.0


def test_dispatch_seconds_hand_derived_for_the_full_ac_row():
    sc = v.scenario(v.ROWS[0])  # 8 × 4,096 tokens a GPU, full AC: the forward's passes run twice
    r = resolve(scenario_from_dict(sc))
    m = r.facts
    kw, _ = T.time_kwargs(r)
    out = T.time_arrays(m, **kw, tp=1, pp=1, cp=1, ep=8, dp=8, zero=3, recompute=T.rc.CODES["full"], mbs=8, sp=False,
                        grad_accum=1, vpp=1, num_gpus=8, gpus_per_node=8, offload=False)
    k, h, E = m.k_active, m.h, m.n_experts
    per_tok = 2.0 * ((8 + 29 + 16) * k * h + h + 6 * E) * m.moe_frac * m.L
    mem_bw = kw["mem_bw_tbs"] * 1e12 * T.MEM_BW_EFFICIENCY
    assert out["moe_dispatch"] == pytest.approx(per_tok * 8 * 4096 / mem_bw, rel=1e-9)


def test_rows_move_toward_the_published_figures():
    res = v.results()
    for r in res:
        before, now = r["before"] / r["pub"] - 1, r["pred"] / r["pub"] - 1
        assert 0 <= now < before, r["label"]  # still fast where DeepEP is entered as the all-to-all
    by = {r["label"]: r for r in res}
    assert abs(by[v.REPRESENTABLE[1]]["pred"] / by[v.REPRESENTABLE[1]]["pub"] - 1) < 0.10


def test_fragment_is_wired_after_ptoos19():
    src = (ROOT / "bench" / "validate_time.py").read_text()
    assert src.index('_fragments("ptoos19.md")') < src.index('_fragments("ptoos20.md")')
    assert (ROOT / "bench" / "data" / "ptoos20.md").is_file()

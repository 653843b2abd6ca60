"""Issue 35 round 9 (helper fsdp9): torchtitan's tensor parallelism with torchao float8.

Hand-derived from the code named in gpuplanner/core/fp8.py and timing.py:
- torchtitan ``parallelize_llama.apply_tp`` (9dec370 … 2c8b594): tensorwise scaling takes torchao's
  ``Float8ColwiseParallel`` / ``Float8RowwiseParallel``, which cast on the shard before the all-gathers; rowwise
  scaling keeps plain ``ColwiseParallel`` / ``RowwiseParallel`` (16-bit gathers, casts of the gathered tensors);
- torch's ``_micro_pipeline_tp`` pass fuses an all-gather only with matmuls that consume the gathered tensor.
Checked against torchtitan's June-2025 AsyncTP benchmark (``benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md``).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from gpuplanner.core import fp8 as fp8mod
from gpuplanner.core import search as S
from gpuplanner.core import timing as T
from gpuplanner.core.estimate import resolve
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict


def _tt(model="llama-3.1-8b", gpus=64, lbs=12, tp=8, precision="bf16", rec="op_sac", **t):
    """torchtitan's AsyncTP benchmark layout: FSDP over the rest, TP 8 with sequence parallelism, compile."""
    return {"model": {"preset": model},
            "training": {"framework": "fsdp", "seq_len": 8192, "micro_batch_size": lbs, "recompute": rec,
                         "precision": precision, "torch_compile": True, "global_batch_size": lbs * gpus // tp, **t},
            "parallel": {"zero": 3, "tp": tp, "pp": 1, "cp": 1, "sequence_parallel": True},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": gpus}}


def _tm(**kw):
    return evaluate(scenario_from_dict(_tt(**kw))).time_modelled


def test_recipe_reading():
    assert fp8mod.torchtitan_tp_float8("fsdp", "fp8", "torchao_tensorwise") == "tensorwise"
    assert fp8mod.torchtitan_tp_float8("fsdp", "fp8", None) == "tensorwise"  # torchao's default recipe
    assert fp8mod.torchtitan_tp_float8("fsdp", "fp8", "torchao_rowwise") == "rowwise"
    assert fp8mod.torchtitan_tp_float8("fsdp", "bf16", None) is None
    assert fp8mod.torchtitan_tp_float8("megatron", "fp8", "te_delayed") is None


def test_gather_scale_hand_derived():
    """Per layer 4 + 2·rec_whole + rec_op all-reduce units; the gathers are 2 + rec_whole + rec_op of them and move
    1 byte instead of 2 under tensorwise float8."""
    f = T.tp_fp8_gather_scale
    assert f("fsdp", "fp8", "torchao_tensorwise", 0.0, 1.0) == pytest.approx(1.0 - 0.5 * 3.0 / 5.0)  # per-op SAC
    assert f("fsdp", "fp8", "torchao_tensorwise", 1.0, 0.0) == pytest.approx(1.0 - 0.5 * 3.0 / 6.0)  # full AC
    assert f("fsdp", "fp8", "torchao_tensorwise", 0.0, 0.0) == pytest.approx(0.75)  # no recompute
    assert f("fsdp", "fp8", "torchao_rowwise", 0.0, 1.0) == 1.0
    assert f("fsdp", "bf16", None, 0.0, 1.0) == 1.0
    assert f("megatron", "fp8", "te_current", 0.0, 1.0) == 1.0


def test_replicated_casts_hand_derived():
    """Rowwise under plain TP: the attention and MLP inputs and the output/down projections' output gradients
    (4·h elements per token and layer for a dense model) are cast on every TP rank, not on 1/tp of them."""
    m = resolve(scenario_from_dict(_tt())).facts
    h, L = float(m.h), float(m.L)
    got = T.tp_replicated_cast_bytes(m, "fsdp", "fp8", "torchao_rowwise", 6.0, 6.0, 8.0, 1.0, 1.0)
    assert got == pytest.approx((2.0 * h * 6.0 + 2.0 * h * 6.0) * (1.0 - 1.0 / 8.0) * L)
    assert T.tp_replicated_cast_bytes(m, "fsdp", "fp8", "torchao_tensorwise", 6.0, 6.0, 8.0, 1.0, 1.0) == 0.0
    assert T.tp_replicated_cast_bytes(m, "fsdp", "fp8", "torchao_rowwise", 6.0, 6.0, 1.0, 1.0, 1.0) == 0.0
    assert T.tp_async_unfused_share("fsdp", "fp8", "torchao_rowwise", 0.0, 1.0) == pytest.approx(3.0 / 5.0)
    assert T.tp_async_unfused_share("fsdp", "fp8", "torchao_tensorwise", 0.0, 1.0) == 0.0


def test_tensorwise_tp_time_hand_derived():
    """8B, TP 8, per-op SAC, no AsyncTP: the 32 layers' 5 all-reduce units go to 0.7 of their bytes, the embedding's
    and loss's 2 stay 16-bit. With the latency term small, tensorwise / BF16 TP time ≈ (0.7·160 + 2) / 162."""
    bf16, f8 = _tm(), _tm(precision="fp8_tensorwise")
    ratio = f8.seconds["tp_comm"] / bf16.seconds["tp_comm"]
    assert ratio == pytest.approx((0.7 * 160.0 + 2.0) / 162.0, abs=0.01)


def test_rowwise_async_tp_keeps_the_gathers_exposed():
    """Rowwise + AsyncTP: 3 of 5 units (the gathers) exposed, the reduce-scatters pipelined down to 1/tp (the layers'
    GEMMs cover the rest): (0.6 + 0.4/8)·160 + 2 of the vanilla 162 units."""
    van = _tm(precision="fp8_rowwise")
    asy = _tm(precision="fp8_rowwise", tp_comm_overlap=True)
    assert asy.seconds["tp_comm"] / van.seconds["tp_comm"] == pytest.approx((0.65 * 160.0 + 2.0) / 162.0, abs=0.02)
    # BF16 + AsyncTP pipelines every unit
    bf = _tm(tp_comm_overlap=True)
    assert bf.seconds["tp_comm"] < 0.5 * asy.seconds["tp_comm"]


@pytest.mark.parametrize("model,gpus,lbs,rec,published", [
    ("llama-3.1-70b", 256, 16, "full", 624.8 / 599.6),
    ("llama-3.1-8b", 64, 12, "op_sac", 3914.9 / 3708.5),
])
def test_rowwise_async_tp_speedup_against_the_benchmark(model, gpus, lbs, rec, published):
    """torchtitan's June-2025 AsyncTP benchmark: rowwise AsyncTP speed-ups 1.04 (70B) and 1.06 (8B). Before this
    round the model gave 1.27 and 1.37; the unfused gathers bring it within 0.1."""
    van = _tm(model=model, gpus=gpus, lbs=lbs, rec=rec, precision="fp8_rowwise")
    asy = _tm(model=model, gpus=gpus, lbs=lbs, rec=rec, precision="fp8_rowwise", tp_comm_overlap=True)
    speedup = asy.tokens_per_s_per_gpu / van.tokens_per_s_per_gpu
    assert abs(speedup - published) < 0.1, speedup


def test_tensorwise_70b_vanilla_tp_within_ten_percent():
    """70B on 256 H100, FSDP 32 TP 8, full AC, lbs 16, tensorwise, no AsyncTP: published 809.8 tok/s/GPU (on
    500 W HBM2e cards; the catalogue card here). −13% before this round."""
    tm = _tm(model="llama-3.1-70b", gpus=256, lbs=16, rec="full", precision="fp8_tensorwise")
    assert abs(tm.tokens_per_s_per_gpu / 809.8 - 1.0) < 0.10, tm.tokens_per_s_per_gpu


def _same(a, b, rel=1e-9) -> bool:
    return a == b or math.isclose(float(a), float(b), rel_tol=rel, abs_tol=1e-12)


def test_search_equals_evaluate_on_float8_tp():
    """The vectorised search and evaluate() agree on torchtitan float8 scenarios that search TP degrees."""
    rng = np.random.default_rng(9)
    checked, bad = 0, []
    for prec, extra in (("fp8_tensorwise", {}), ("fp8_rowwise", {"tp_comm_overlap": True})):
        d = _tt(gpus=16, lbs=2, precision=prec, **extra)
        d["training"]["global_batch_size"] = 64
        d["parallel"] = {"zero": 3, "auto": True}
        d["constraints"] = {"max_gpus": 16}
        s = scenario_from_dict(d)
        for ctx in S.iter_contexts(s):
            c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
            if not len(c["tp"]):
                continue
            vec = S.evaluate_candidates(ctx, c)
            idx = [i for i in range(len(c["tp"])) if vec["fits"][i]]
            tp_idx = [i for i in idx if int(c["tp"][i]) > 1]
            pick = list(rng.choice(tp_idx, size=min(8, len(tp_idx)), replace=False)) if tp_idx else []
            pick += list(rng.choice(idx, size=min(4, len(idx)), replace=False)) if idx else []
            for i in pick:
                sc = S.candidate_scenario(ctx, c, int(i))
                ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                              overheads=ctx.overheads, rent_vs_build=False)
                checked += 1
                if not _same(vec["train_hours"][i] / 24.0, ev.compute_days):
                    bad.append((ctx.gpu.id, sc.parallel, vec["train_hours"][i] / 24.0, ev.compute_days))
    assert checked >= 10, checked
    assert not bad, bad[:3]

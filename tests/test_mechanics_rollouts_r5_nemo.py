"""RL rollouts, issue 35 round 5 (helper rl6): NeMo RL's Megatron policy worker swaps state through CPU memory every
generation batch — the optimizer and the 16-bit weights around colocated generation, and the CPU-held KL reference
for its log-probs (timing.nemo_rl_swap_bytes)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from gpuplanner.core import methods as M
from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate, resolve
from gpuplanner.core.scenario import scenario_from_dict

P_LLAMA = 8.03e9  # Llama-3.1-8B parameters (the preset's total; checked below against the resolved model)


def nemo(engine="vllm_colocated", fw="megatron", beta=0.01, ref_offload=True, k=4, gpus=16):
    """NeMo RL's grpo-llama3.1-8b-instruct-2n8g recipe as bench/rl_step_times.py writes it: PP 2, 16× H100."""
    rl = {"group_size": 32, "rollout_len": 3946, "prompt_len": 150, "generation_engine": engine,
          "generation_gpu_fraction": 0.6 if engine == "vllm_colocated" else 0.5, "engine_sleep": engine == "vllm_colocated",
          "sleep_level": 1, "mean_response_fraction": (1019 - 150) / 3946, "reward": "function",
          "updates_per_generation": k, "rollout_tp": 1}
    return scenario_from_dict({
        "model": {"preset": "llama-3.1-8b"},
        "training": {"objective": "grpo", "method": "full", "framework": fw, "padding_free": True, "seq_len": 4096,
                     "micro_batch_size": 1, "global_batch_size": 512, "recompute": "full",
                     "preference": {"beta": beta, "reference_offload": ref_offload}, "rl": rl},
        "parallel": {"tp": 1, "pp": 2, "zero": 1},
        "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": gpus, "gpus_per_node": 8}})


def _prof(**kw):
    return M.method_profile(nemo(**kw).training)


def test_swap_bytes_by_hand():
    # PP 2, DP 8: a GPU holds P/2 weights, its distributed-optimizer shard is P/16 elements.
    w, opt = P_LLAMA / 2, P_LLAMA / 16
    # colocated: 16-bit weights out and back (2 × P) at the pinned rate; the reference swap: policy out, reference
    # in, policy back (3 × P); one generation batch feeds 4 steps. (The optimizer's moves out and back are pageable
    # and timed apart since round 6: timing.nemo_rl_optimizer_move_seconds, tests/test_mechanics_rollouts_r6_nemo.py.)
    got = T.nemo_rl_swap_bytes("megatron", _prof(), weight_gpu=w, opt_params=opt)
    assert got == pytest.approx((2.0 + 3.0) * P_LLAMA / 4, rel=1e-12)
    # 1-step off (vLLM on its own GPUs): the optimizer and the weights stay; the reference swap remains
    off = T.nemo_rl_swap_bytes("megatron", _prof(engine="vllm_separate"), weight_gpu=w, opt_params=opt)
    assert off == pytest.approx(3.0 * P_LLAMA / 4, rel=1e-12)
    # no KL reference (beta 0): only the colocated swaps
    noref = T.nemo_rl_swap_bytes("megatron", _prof(beta=0.0), weight_gpu=w, opt_params=opt)
    assert noref == pytest.approx(2.0 * P_LLAMA / 4, rel=1e-12)
    # not NeMo RL: verl's FSDP workers (their own copies, VERL_*_BYTES) and non-RL objectives move nothing here
    assert T.nemo_rl_swap_bytes("fsdp", _prof(), weight_gpu=w, opt_params=opt) == 0.0
    sft = SimpleNamespace(rl=False, engine="training", ref_forwards=0.0, updates_per_generation=1)
    assert T.nemo_rl_swap_bytes("megatron", sft, weight_gpu=w, opt_params=opt) == 0.0


def test_swap_seconds_in_the_step():
    """Through estimate(): 5 P bytes per generation batch at Gen5's 64 GB/s × 0.8 (H100 SXM host link), plus the
    optimizer's 12 B × P/16 out at 1.8 GB/s and back at 16.1 GB/s (pageable, round 6), a quarter per step, inside
    the "nemo_rl_host_copies" part (named apart from "optimizer_offload" since breakdown6; no other offload here)."""
    assert float(resolve(nemo()).params.total) == pytest.approx(P_LLAMA, rel=0.001)
    part = estimate(nemo()).time.parts["nemo_rl_host_copies"]
    assert estimate(nemo()).time.parts.get("optimizer_offload", 0.0) == pytest.approx(0.0, abs=1e-12)
    opt_s = 12.0 * P_LLAMA / 16 * (1 / 1.8e9 + 1 / 16.1e9)
    assert part == pytest.approx((5.0 * P_LLAMA / (64e9 * 0.8) + opt_s) / 4, rel=0.01)
    # the same recipe on FSDP (verl's workers without offload) has none of it
    assert estimate(nemo(fw="fsdp")).time.parts.get("nemo_rl_host_copies", 0.0) == pytest.approx(0.0, abs=1e-12)
    # the swaps add to the step, colocated or not
    assert estimate(nemo(engine="vllm_separate")).time.parts["nemo_rl_host_copies"] == pytest.approx(
        3.0 * P_LLAMA / (64e9 * 0.8) / 4, rel=0.01)


def test_vectorised_search_equals_evaluate_for_nemo_rl():
    from dataclasses import replace

    import numpy as np

    from gpuplanner.core import search as S
    from gpuplanner.core.evaluate import evaluate
    d = nemo().model_dump()
    d["hardware"] = None
    d["parallel"] = None
    d["data"] = {"tokens": 1e8}
    d["constraints"] = {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb"]}
    s = scenario_from_dict({k: v for k, v in d.items() if v is not None})
    checked = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        if not len(c["tp"]):
            continue
        vec = S.evaluate_candidates(ctx, c)
        for i in [int(j) for j in np.flatnonzero(vec["fits"])[::7]]:
            sc = S.candidate_scenario(ctx, c, i)
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert vec["mfu"][i] == pytest.approx(ev.mfu_modelled, rel=1e-9)
            checked += 1
    assert checked >= 3


def test_packed_rows_by_hand():
    from gpuplanner.core.arrayops import ScalarOps
    ops = ScalarOps
    # NeMo RL's bins hold seq_len × train_micro_batch_size tokens: 4,096 / 1,019-token rollouts = 4.02 rows a bin
    assert T.packed_rows(4096.0, 1019.0, 64.0, ops) == pytest.approx(4096 / 1019, rel=1e-12)
    assert T.packed_rows(4096.0, 5000.0, 64.0, ops) == 1.0  # a row longer than the bin is a bin of its own
    assert T.packed_rows(4096.0, 100.0, 8.0, ops) == 8.0  # never more rows than the step holds
    assert T.packed_rows(None, 1019.0, 64.0, ops) == 1.0  # nothing packed
    # only RL on the Megatron engine with packing (NeMo RL's sequence_packing); seq_len 4096
    s = nemo()
    assert T.nemo_rl_pack_len(s.training, M.method_profile(s.training), "megatron") == 4096.0
    assert T.nemo_rl_pack_len(s.training, M.method_profile(s.training), "fsdp") is None


def test_packed_bubble_in_the_step():
    """The pipeline bubble grows with the rows a bin holds; p2p and the work do not change: pp(f) = p2p + f × b."""
    r = resolve(nemo())
    kw, _ = T.time_kwargs(r)
    s, t = r.scenario, r.scenario.training
    row = float(kw["seq_len"])
    assert row == pytest.approx(1019.0, rel=1e-6)  # prompt 150 + the mean completion (1019 − 150)

    def pp_time(pack):
        out = T.time_arrays(r.facts, **{**kw, "pack_len": pack}, tp=1, pp=2, cp=1, ep=1, dp=8, zero=1,
                            recompute=T.RECOMPUTE_CODES[t.recompute], mbs=1, sp=False, grad_accum=s.grad_accum,
                            vpp=1, num_gpus=16, gpus_per_node=8, mfu=None)
        return out["pp_bubble"], out["compute"]
    one, c1 = pp_time(None)
    two, c2 = pp_time(2.0 * row)
    packed, c4 = pp_time(4096.0)
    b = two - one
    assert b > 0
    assert packed - one == pytest.approx((4096.0 / row - 1.0) * b, rel=1e-9)
    assert c1 == c2 == c4  # the same tokens are trained
    assert kw["pack_len"] == 4096.0

"""Recompute as a policy (core/recompute.py): hand-derived saved bytes and recompute FLOPs, orderings
between policies, the alias of old files, and what the search enumerates per framework."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from gpuplanner.core import recompute as rc
from gpuplanner.core import search as S
from gpuplanner.core.estimate import memory_kwargs, resolve
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.frameworks import FRAMEWORKS
from gpuplanner.core.memory import RECOMPUTE_CODES, activation_parts_per_layer, memory_arrays
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.io import planfile


def _sc(training=None, parallel=None, preset="llama-3.1-8b", gpu="h100-sxm-80gb", n=8):
    t = {"framework": "fsdp", "seq_len": 8192, "micro_batch_size": 2, **(training or {})}
    # Megatron-Core's distributed optimizer shards optimizer states only (ZeRO-1); the others shard everything
    zero = 1 if t["framework"] == "megatron" else 3
    return scenario_from_dict({"model": {"preset": preset}, "training": t,
                               "parallel": {"zero": zero, **(parallel or {})},
                               "hardware": {"gpu": gpu, "num_gpus": n}})


def test_op_sac_plan_llama_hand_derived():
    """Llama 3.1 8B (h 4096, 8 KV heads × 128, f 14336, no biases): the matmuls run q, k, v, o, gate, up,
    down; torchtitan saves the odd ones (q, v, gate, down) and recomputes k, o, up."""
    arch = resolve(_sc()).arch
    plan = rc.op_sac_plan(arch)
    assert plan["saved_split"] == 4096 + 1024 + 14336  # q, v, gate outputs
    assert plan["saved_rep"] == 4096  # down_proj output (hidden wide)
    total = 4096 + 1024 + 1024 + 4096 + 3 * 14336  # fan_out × fan_in / h per linear, all × h
    assert plan["recompute_linear"] == pytest.approx((1024 + 4096 + 14336) / total)


def test_op_sac_plan_biased_qkv_shifts_the_count():
    """Qwen2's q/k/v have biases (``aten.addmm``, not in the save list, not counted): o is the 1st mm
    (saved), gate 2nd (recomputed), up 3rd (saved), down 4th (recomputed)."""
    arch = resolve(_sc(preset="qwen2.5-7b")).arch
    assert arch.attention_bias
    plan = rc.op_sac_plan(arch)
    assert plan["saved_rep"] == arch.hidden_size  # o_proj
    assert plan["saved_split"] == arch.intermediate_size  # up_proj


def test_op_sac_saved_bytes_hand_derived():
    """One bf16 Llama-8B layer, 8192 tokens, flash: input 2h + q 2·4096 + v 2·1024 + gate 2·14336 + down 2h
    + SDPA output 2·4096 + fp32 LSE 4·32, per token."""
    m = resolve(_sc()).facts
    keep, ckpt, op, full = activation_parts_per_layer(m, 8192, 1, 1, False, True, rc.OP_SAC, "fsdp")
    per_tok = 2 * 4096 + 2 * (4096 + 1024 + 14336) + 2 * 4096 + 2 * 4096 + 4 * 32
    assert op == pytest.approx(8192 * per_tok)
    assert ckpt == pytest.approx(8192 * 2 * 4096)
    assert ckpt < op < full


@pytest.mark.parametrize("preset", ["llama-3.1-8b", "qwen2.5-7b", "mixtral-8x7b"])
@pytest.mark.parametrize("framework", ["fsdp", "megatron"])
def test_op_sac_memory_between_none_and_full_time_the_other_way(preset, framework):
    """Property: per-op SAC holds less than no recompute and more than full; its step is slower than none
    and faster than full. Over layouts (TP, SP, PP, micro-batch) in one vectorised call."""
    base = _sc({"framework": framework}, preset=preset)
    r = resolve(base)
    kw = memory_kwargs(r)
    tp = np.array([1, 2, 4, 1, 2])
    pp = np.array([1, 1, 2, 4, 2])
    mbs = np.array([1, 2, 1, 4, 2])
    sp = np.array([False, True, False, False, True])
    acts = {}
    for name in ("none", "op_sac", "full"):
        out = memory_arrays(r.facts, **kw, tp=tp, pp=pp, cp=1, ep=1, dp=2, zero=1,
                            recompute=np.full(5, RECOMPUTE_CODES[name]), mbs=mbs, sp=sp, grad_accum=8, vpp=1,
                            offload=False)
        acts[name] = out["activations"]
    assert np.all(acts["full"] < acts["op_sac"]) and np.all(acts["op_sac"] < acts["none"])
    steps = {name: evaluate(_sc({"framework": framework, "recompute": name}, preset=preset)).time.step_time_s
             for name in ("none", "op_sac", "full")}
    assert steps["none"] < steps["op_sac"] < steps["full"]


def test_layer_sac_monotone_in_n_and_between_none_and_full():
    """Every N-th layer: 32 layers, N = 2 → 16 checkpointed; N = 4 → 8; larger N keeps more."""
    mems = [evaluate(_sc({"recompute": "layer_sac", "recompute_every_n": n})).memory.activations
            for n in (1, 2, 4, 8, 64)]
    none = evaluate(_sc({"recompute": "none"})).memory.activations
    full = evaluate(_sc({"recompute": "full"})).memory.activations
    assert mems[0] == pytest.approx(full)  # N = 1: every layer
    assert all(a < b for a, b in zip(mems, mems[1:-1]))
    assert mems[-1] == pytest.approx(none)  # N > layers: nothing checkpointed, nothing recomputed
    n_ck, n_groups, group = rc.layer_counts(rc.LAYER_SAC, 32, 3)
    assert (n_ck, n_groups, group) == (10, 10, 1.0)  # layers 3, 6, …, 30


def test_megatron_recompute_num_layers_block_and_uniform():
    """Megatron --recompute-num-layers k: block keeps the input of the first k layers of the stage and the
    rest whole; uniform keeps one input per group of k and re-runs a whole group (k layers at once)."""
    m = resolve(_sc({"framework": "megatron"})).facts
    keep, ckpt, _op, full = activation_parts_per_layer(m, 8192, 2, 1, False, True, rc.FULL, "megatron")
    L = 32

    def acts(**t):
        r = resolve(_sc({"framework": "megatron", "recompute": "full", **t}))
        out = memory_arrays(r.facts, **memory_kwargs(r), tp=1, pp=1, cp=1, ep=1, dp=8, zero=1,
                            recompute=rc.FULL, mbs=2, sp=False, grad_accum=1, vpp=1, offload=False)
        return out["activations_saved"], out["activations"]

    saved_block, _ = acts(recompute_num_layers=8, recompute_method="block")
    saved_uni, act_uni = acts(recompute_num_layers=4, recompute_method="uniform")
    saved_all, act_all = acts()
    out_saved = saved_all - L * ckpt
    assert saved_block - out_saved == pytest.approx(8 * ckpt + 24 * keep)
    assert saved_uni - out_saved == pytest.approx(math.ceil(L / 4) * ckpt)
    # uniform's working set: a group of 4 layers rematerialised instead of one; it and the loss's transient never
    # coexist (the loss's are freed before backward reaches the blocks), so the larger counts: acts − saved is
    # max(loss transient, working) − the loss's saved output (Megatron: fp32 logits 4sbV and the head input 4sbh)
    out_saved_head = 4.0 * 8192 * 2 * m.V + 4.0 * 8192 * 2 * m.h
    loss_tail = (act_all - saved_all) + out_saved_head  # max(out_layer, one layer) = out_layer here
    assert loss_tail > full
    assert act_uni - saved_uni == pytest.approx(max(loss_tail, 4 * full) - out_saved_head, rel=1e-6)
    # time: block re-runs 8 of 32 layers' forward
    t_none = evaluate(_sc({"framework": "megatron", "recompute": "none"})).time
    t_block = evaluate(_sc({"framework": "megatron", "recompute": "full", "recompute_num_layers": 8,
                            "recompute_method": "block"})).time
    t_full = evaluate(_sc({"framework": "megatron", "recompute": "full"})).time
    extra_block = t_block.hardware_flops_per_token - t_none.hardware_flops_per_token
    extra_full = t_full.hardware_flops_per_token - t_none.hardware_flops_per_token
    assert extra_block == pytest.approx(extra_full * 8 / 32)


def test_selective_is_an_alias_of_megatron_selective():
    a = _sc({"framework": "megatron", "recompute": "selective"})
    b = _sc({"framework": "megatron", "recompute": "megatron_selective"})
    assert a.training.recompute == "megatron_selective"
    ea, eb = evaluate(a), evaluate(b)
    assert ea.memory.total == eb.memory.total and ea.time.step_time_s == eb.time.step_time_s


def test_old_plan_file_with_selective_opens(tmp_path):
    doc = planfile.new_document(_sc({"framework": "megatron", "recompute": "megatron_selective"}))
    path = tmp_path / "old.gpuplan"
    planfile.save(doc, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["scenario"]["training"]["recompute"] = "selective"  # as files written before the policies split
    path.write_text(json.dumps(data), encoding="utf-8")
    loaded, _warnings = planfile.load(path)
    assert loaded.scenario.training.recompute == "megatron_selective"


def test_search_enumerates_each_frameworks_policies():
    # no layer_sac: torchtitan 114151ad4 (2026-03-23) removed every-N-th-layer AC (issue 35 round 16, titanadv16)
    assert FRAMEWORKS["fsdp"].recompute == ("none", "op_sac", "full")
    assert FRAMEWORKS["megatron"].recompute == ("none", "megatron_selective", "full")
    for fw in ("fsdp", "megatron", "hf"):
        s = scenario_from_dict({"model": {"preset": "llama-2-7b"}, "training": {"framework": fw},
                                "constraints": {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb"]}})
        ctx = next(S.iter_contexts(s))
        got = {S.RECOMPUTE_NAMES[int(c)] for c in np.unique(S.enumerate_candidates(ctx, 16)["recompute"])}
        assert got == set(FRAMEWORKS[fw].recompute)

"""Communication overlap per framework: defaults, hand-derived exposure, and the two properties the time
model must keep — overlap never makes a step slower, and more overlap never exposes more communication."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate, resolve
from gpuplanner.core.scenario import scenario_from_dict

FLAGS = T.OVERLAP_FIELDS
COMM = ("tp_comm", "dp_comm", "cp_comm", "pp_p2p", "ep_comm")  # ep_comm: the EP all-to-all overlap (round 12)


def scn(**sections):
    base = {"model": {"preset": "llama-2-7b"}, "training": {"seq_len": 4096, "micro_batch_size": 1},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 64}, "data": {"tokens": 1e9}}
    for k, v in sections.items():
        base[k] = {**base.get(k, {}), **v}
    return scenario_from_dict(base)


def layouts(rng: np.random.Generator, n: int, num_gpus: int = 256, L: int = 32):
    """Random valid layouts (arrays) on ``num_gpus`` H100s for a 32-layer model."""
    tp = rng.choice([1, 2, 4, 8], n)
    pp = rng.choice([1, 2, 4, 8], n)
    cp = rng.choice([1, 1, 2, 4], n)
    dp = num_gpus // (tp * pp * cp)
    vpp = np.where(pp > 1, rng.choice([1, 2, 4], n), 1)
    return dict(tp=tp, pp=pp, cp=cp, ep=1, dp=dp, zero=rng.choice([0, 1, 2, 3], n), recompute=rng.choice([0, 1, 2], n),
                mbs=rng.choice([1, 2, 4], n), sp=tp > 1, grad_accum=rng.choice([1, 2, 4, 8, 16, 32], n), vpp=vpp,
                num_gpus=num_gpus, gpus_per_node=8)


def run(r, lay, **flags):
    kw, _ = T.time_kwargs(r)
    kw.update({k: None for k in FLAGS})
    kw.update(flags)
    return T.time_arrays(r.facts, **kw, **lay)


def exposed(out):
    return out["tp_comm"] + out["dp_comm"] + out["cp_comm"] + out["pp_p2p"]


# ------------------------------------------------------------------------------------------ defaults


def test_framework_defaults_follow_each_framework():
    f = T.overlap_flags
    # Megatron: DP overlap on; param gather needs the distributed optimizer; TP overlap needs SP; p2p needs
    # the interleaved schedule
    assert f("megatron", 1, 2, 4, True) == (True, True, True, True)
    assert f("megatron", 0, 1, 4, False) == (True, False, False, False)
    # FSDP2: grad reduce and prefetch on when weights are sharded; no TP/p2p overlap
    assert f("fsdp", 3, 1, 1, True) == (True, True, False, False)
    assert f("fsdp", 0, 1, 1, False) == (True, False, False, False)
    # DeepSpeed: overlap_comm only for ZeRO-3, and the same switch puts ZeRO-3's prefetching all-gathers on a side
    # stream (parameter_offload.py __allgather_stream): the param gather follows the gradient switch in force
    assert f("deepspeed", 3, 1, 1, False) == (True, True, False, False)
    assert f("deepspeed", 2, 1, 1, False) == (False, False, False, False)
    assert f("deepspeed", 3, 1, 1, False, overlap_grad_reduce=False)[:2] == (False, False)
    assert f("hf", 3, 1, 1, False)[:2] == (True, True) and f("hf", 2, 1, 1, False)[1] is False
    assert f("deepspeed", 3, 1, 1, False, overlap_param_gather=False)[:2] == (True, False)
    # HF Trainer: DDP overlaps; its DeepSpeed config templates set overlap_comm
    assert f("hf", 0, 1, 1, False)[0] is True and f("hf", 1, 1, 1, False)[0] is True
    # the scenario's value wins, but TP overlap without SP and p2p overlap without PP stay off
    assert f("deepspeed", 2, 1, 1, False, overlap_grad_reduce=True)[0] is True
    assert f("megatron", 1, 1, 1, False, tp_comm_overlap=True, overlap_p2p_comm=True)[2:] == (False, False)


def test_estimate_reports_flags_and_hidden_parts():
    t = estimate(scn(training={"framework": "megatron", "global_batch_size": 256},
                     parallel={"tp": 8, "pp": 2, "vpp": 2, "zero": 1, "sequence_parallel": True})).time
    assert t.overlap == {"overlap_grad_reduce": True, "overlap_param_gather": True, "tp_comm_overlap": True,
                         "overlap_p2p_comm": True}
    comm = t.communication
    assert set(comm) == set(COMM)
    assert comm["tp_comm"]["hidden"] > comm["tp_comm"]["exposed"] > 0
    j = t.to_json()
    assert j["time_overlap"] == t.overlap and j["time_communication"] == comm
    off = estimate(scn(training={"framework": "megatron", "global_batch_size": 256, **{k: False for k in FLAGS}},
                       parallel={"tp": 8, "pp": 2, "vpp": 2, "zero": 1, "sequence_parallel": True})).time
    assert all(v["hidden"] == 0.0 for v in off.communication.values())
    for k in COMM:  # the same traffic, only split differently
        assert comm[k]["exposed"] + comm[k]["hidden"] == pytest.approx(off.communication[k]["exposed"], rel=1e-9)


# ------------------------------------------------------------------------------------------ hand-derived


def test_megatron_distributed_optimizer_exposure_hand_derived():
    """32B, TP 8 on 384 H100s (the Megatron README row): fp32 reduce-scatter and bf16 all-gather over one
    NDR rail per GPU; with the overlap flags, only what exceeds the last backward / first forward shows."""
    model = {"name": "GPT 32B", "hidden_size": 7168, "num_hidden_layers": 48, "num_attention_heads": 56,
             "num_key_value_heads": 56, "intermediate_size": 28672, "vocab_size": 131072, "gated_mlp": False,
             "tie_word_embeddings": False}
    base = dict(model=model, hardware={"num_gpus": 384},
                parallel={"tp": 8, "zero": 1, "sequence_parallel": True},
                training={"framework": "megatron", "global_batch_size": 192, "method": "pretrain"})
    on = estimate(scn(**base)).time
    base["training"] = {**base["training"], "overlap_grad_reduce": False, "overlap_param_gather": False}
    off = estimate(scn(**base)).time
    r = resolve(scn(**base))
    kw, gf = T.time_kwargs(r)
    n = 48
    params_gpu = r.params.total / 8
    bw = gf.nic_gbs_per_gpu * 1e9  # one rail: TP 8 fills the node
    buckets = np.ceil(params_gpu / 4.8e7)  # max(40M, 1M × 48)
    rs = params_gpu * 4 * (n - 1) / n / bw + buckets * T._ring_latency(n, 8, "all_gather", T._ScalarOps)
    ag = params_gpu * 2 * (n - 1) / n / bw + buckets * T._ring_latency(n, 8, "all_gather", T._ScalarOps)
    assert off.seconds["dp_comm"] == pytest.approx(rs + ag, rel=1e-9)
    # (the compute under the hidden collectives runs slower: timing.OVERLAP_COMPUTE_SLOWDOWN, added to compute, at
    # the collectives' own rate: one NIC a GPU against the NVLink bus bandwidth it was measured at,
    # timing.contention_rate_share, issue 35 round 15)
    share = min(bw / (gf.intra_busbw_gbs * 1e9), 1.0)
    assert 0.05 < share < 0.5
    slowed = T.OVERLAP_COMPUTE_SLOWDOWN * on.hidden["dp_comm"] * share
    assert on.seconds["compute"] - off.seconds["compute"] == pytest.approx(slowed, rel=1e-9)
    t_mb = (on.seconds["compute"] - slowed) / 4  # 4 micro-batches
    t_f = t_mb / 3  # no recomputation: the forward is a third of the hardware FLOPs
    last = 4.8e7 / params_gpu
    expected = max(rs - (t_mb - t_f), rs * last) + max(ag - t_f, ag * last)
    assert on.seconds["dp_comm"] == pytest.approx(expected, rel=1e-6)
    assert on.seconds["dp_comm"] < 0.7 * off.seconds["dp_comm"]


def test_tp_overlap_hand_derived():
    s = scn(training={"framework": "megatron", "micro_batch_size": 2}, parallel={"tp": 8, "sequence_parallel": True},
            hardware={"num_gpus": 8})
    on = estimate(s).time
    off = estimate(scn(training={"framework": "megatron", "micro_batch_size": 2, "tp_comm_overlap": False},
                       parallel={"tp": 8, "sequence_parallel": True}, hardware={"num_gpus": 8})).time
    total = off.seconds["tp_comm"]
    per = total / (4 * 32 + 2)  # 4 collectives per layer + embedding and loss
    layers = per * 4 * 32
    # the layers' GEMMs dwarf the NVLink transfers: only the first of 8 chunks stays exposed
    assert on.seconds["tp_comm"] == pytest.approx(layers / 8 + 2 * per, rel=1e-9)


# ------------------------------------------------------------------------------------------ properties


@pytest.mark.parametrize("framework,model", [("megatron", "llama-2-7b"), ("fsdp", "llama-2-7b"),
                                             ("deepspeed", "llama-2-7b"), ("hf", "qwen2.5-1.5b"),
                                             ("megatron", "mixtral-8x7b")])
def test_overlap_never_makes_a_step_slower(framework, model):
    r = resolve(scn(model={"preset": model}, training={"framework": framework}))
    lay = layouts(np.random.default_rng(3), 4000)
    if framework in ("deepspeed", "hf"):
        lay.update(tp=1, cp=1, sp=False, dp=256 // lay["pp"])
    off = run(r, lay, **{k: False for k in FLAGS})
    for combo in itertools.product([False, True], repeat=len(FLAGS)):
        out = run(r, lay, **dict(zip(FLAGS, combo)))
        assert np.all(out["step"] <= off["step"] * (1 + 1e-12)), combo
        assert np.all(out["tokens_per_s_per_gpu"] >= off["tokens_per_s_per_gpu"] * (1 - 1e-12)), combo
    default = run(r, lay)
    assert np.all(default["step"] <= off["step"] * (1 + 1e-12))


@pytest.mark.parametrize("framework", ["megatron", "fsdp", "deepspeed"])
def test_more_overlap_flags_never_increase_exposed_communication(framework):
    r = resolve(scn(training={"framework": framework}))
    lay = layouts(np.random.default_rng(5), 3000)
    results = {combo: run(r, lay, **dict(zip(FLAGS, combo)))
               for combo in itertools.product([False, True], repeat=len(FLAGS))}
    for a, b in itertools.product(results, repeat=2):
        if all(x <= y for x, y in zip(a, b)):  # b switches on a superset of a's flags
            ea, eb = exposed(results[a]), exposed(results[b])
            assert np.all(eb <= ea * (1 + 1e-12) + 1e-15), (a, b)
            for part in ("tp_comm", "dp_comm", "pp_p2p"):
                assert np.all(results[b][part] <= results[a][part] * (1 + 1e-12) + 1e-15), (a, b, part)


def test_overlap_moves_time_from_exposed_to_hidden_only():
    """Overlap changes what is exposed, never the traffic: exposed + hidden is the same with any flags."""
    r = resolve(scn(training={"framework": "megatron"}))
    lay = layouts(np.random.default_rng(9), 2000)
    off = run(r, lay, **{k: False for k in FLAGS})
    on = run(r, lay, **{k: True for k in FLAGS})
    for part, hidden in (("tp_comm", "tp_hidden"), ("dp_comm", "dp_hidden"), ("pp_p2p", "pp_hidden")):
        assert np.allclose(on[part] + on[hidden], off[part], rtol=1e-9, atol=1e-12), part
        assert np.allclose(off[hidden], 0.0, atol=1e-12)
    # the compute under the hidden data-parallel collectives runs slower (timing.OVERLAP_COMPUTE_SLOWDOWN), each
    # hidden second at its collective's rate (timing.contention_rate_share, round 15): between the one-NIC-a-GPU
    # share (every layout here spans servers) and the whole slowdown
    kw, _ = T.time_kwargs(r)
    floor = min(kw["nic_gbs_per_gpu"] / kw["intra_busbw_gbs"], 1.0)
    slowed = on["compute"] - off["compute"]
    full = T.OVERLAP_COMPUTE_SLOWDOWN * on["dp_hidden"]
    assert np.all(slowed <= full * (1 + 1e-9) + 1e-12)
    assert np.all(slowed >= floor * full * (1 - 1e-9) - 1e-12)
    assert np.any(slowed < 0.9 * full)


def test_larger_micro_batches_hide_more_of_the_data_parallel_traffic():
    """Megatron syncs in the last micro-batch only: at a fixed global batch, fewer, larger micro-batches give
    the reduce-scatter a longer backward to hide under."""
    shares = []
    for mbs in (1, 2, 4):
        t = estimate(scn(training={"framework": "megatron", "micro_batch_size": mbs, "global_batch_size": 256},
                         parallel={"tp": 8, "zero": 1, "sequence_parallel": True},
                         hardware={"num_gpus": 512})).time
        shares.append(t.seconds["dp_comm"] / t.step_time_s)
    assert shares[0] > shares[1] > shares[2]


def test_fine_tuning_tools_overlap_as_their_shipped_deepspeed_configs():
    """overlap.DS_TOOL_OVERLAP: LLaMA-Factory's and ms-swift's ds_z2/ds_z3 configs set overlap_comm false; TRL's Accelerate configs
    leave DeepSpeed's default (ZeRO-3 only); Axolotl's ZeRO-3 configs overlap but set stage3_max_live_parameters 0
    (no prefetch); DDP (ZeRO 0) always overlaps its bucketed all-reduce."""
    from gpuplanner.core.frameworks import overlap_defaults

    def two(tool, zero):
        d = overlap_defaults(tool, zero, 1, 1, False)
        return d["overlap_grad_reduce"], d["overlap_param_gather"]

    assert [two("llamafactory", z) for z in (0, 2, 3)] == [(True, False), (False, False), (False, False)]
    assert [two("trl", z) for z in (0, 2, 3)] == [(True, False), (False, False), (True, True)]
    assert [two("axolotl", z) for z in (2, 3)] == [(True, False), (True, False)]
    # ms-swift's shipped zero2/zero3.json say overlap_comm false since 3.3 (e5c4c39ec, 2025-03-24); ZeRO-3's
    # all-gathers then run on the default stream: no prefetch overlap either
    assert [two("ms-swift", z) for z in (2, 3)] == [(False, False), (False, False)]
    assert [two("hf", z) for z in (2, 3)] == [(True, False), (True, True)]

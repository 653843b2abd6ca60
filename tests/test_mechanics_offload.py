"""CPU offload of the optimizer (timing.offload_layout / offload_seconds): the CPU step, the PCIe copies and where
they hide, checked by hand and against published offload step times (bench/offload_step_times.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]


def scn(framework="deepspeed", zero=2, offload=True, gpu="a100-sxm-80gb", n=4, mbs=1, opt="adamw", model="llama-2-7b",
        accum=None, **training):
    t = {"method": "full", "framework": framework, "seq_len": 2048, "micro_batch_size": mbs, "optimizer": opt,
         "recompute": "full", **training}
    if accum:
        t["global_batch_size"] = mbs * n * accum
    return scenario_from_dict({"model": {"preset": model}, "training": t,
                               "parallel": {"zero": zero, "offload_optimizer": offload,
                                            "offload_params": offload and zero == 3},
                               "hardware": {"gpu": gpu, "num_gpus": n}})


def time_of(s):
    return estimate(s).time


def test_zero_offload_by_hand():
    # ZeRO-2 offload, Llama-2-7B on 4× A100 (one host): each rank steps a quarter of the model on a CPU shared
    # by four ranks, then uploads its 16-bit quarter over PCIe Gen4 (32 GB/s × 0.8)
    t = time_of(scn())
    p = 6.738e9
    cpu = p / 4 * 4 / T.CPU_ADAM_HOST_PARAMS_PER_S
    h2d = 2.0 * p / 4 / (32e9 * T.PCIE_HOST_EFFICIENCY)
    d2h = h2d  # the 16-bit gradients down, under the backward: at least the last layer's share is exposed
    assert t.parts["optimizer_offload"] >= cpu + h2d + d2h / 32 - 0.01
    assert t.parts["optimizer_offload"] <= cpu + h2d + d2h + 0.01
    # published: DeepSpeed's ZenFlow blog, ZeRO-Offload on Llama-2-7B with 4× A100: the CPU path "longer than 4s"
    assert t.parts["optimizer_offload"] > 4.0
    # the GPU optimizer step is gone; nothing else of the step changes
    on = time_of(scn(offload=False))
    assert t.seconds["compute"] == pytest.approx(on.seconds["compute"])
    assert t.seconds["other"] == pytest.approx(t.parts["optimizer_offload"])
    assert "optimizer_offload" not in on.parts and on.seconds["other"] > 0


def test_gradient_copies_hide_under_the_backward():
    # longer backward passes (more micro-batches of more tokens) hide more of the gradients' download; the
    # CPU step and the upload stay
    short = time_of(scn(mbs=1, seq_len=64)).parts["optimizer_offload"]
    long = time_of(scn(mbs=8, seq_len=4096)).parts["optimizer_offload"]
    assert long < short
    cpu_h2d = 6.738e9 / T.CPU_ADAM_HOST_PARAMS_PER_S + 2.0 * 6.738e9 / 4 / (32e9 * 0.8)
    assert long == pytest.approx(cpu_h2d, rel=0.05)


def test_host_shared_by_ranks_and_pcie_generation():
    # 8 ranks on one host each step an eighth: the host's rate is shared, the per-rank CPU time is the same
    four = time_of(scn(n=4)).parts["optimizer_offload"]
    eight = time_of(scn(n=8)).parts["optimizer_offload"]
    assert eight == pytest.approx(four, rel=0.1)
    # 16 ranks over two hosts: half the per-rank CPU time
    sixteen = time_of(scn(n=16)).parts["optimizer_offload"]
    assert sixteen < 0.6 * eight
    # H100 SXM: Gen5 host link (HOST_PCIE_GEN), twice A100's
    assert T.gpu_time_facts("h100-sxm-80gb").host_link_gbs == 64.0
    assert T.gpu_time_facts("a100-sxm-80gb").host_link_gbs == 32.0
    assert T.gpu_time_facts("rtx-4090-24gb").host_link_gbs == 32.0


def test_fsdp_cpu_offload_runs_torch_adamw():
    # FSDP CPUOffload: torch's AdamW on the CPU shards, 5.1× slower than DeepSpeed's CPU Adam (DeepSpeed docs)
    ds = time_of(scn(zero=3, n=8, mbs=8)).parts["optimizer_offload"]
    fs = time_of(scn(framework="fsdp", zero=3, n=8, mbs=8)).parts["optimizer_offload"]
    cpu_ds = 6.738e9 / T.CPU_ADAM_HOST_PARAMS_PER_S
    assert fs >= T.TORCH_CPU_ADAM_SLOWDOWN * cpu_ds
    assert fs > 4 * ds


def test_paged_8bit_optimizer_steps_on_the_gpu():
    # bitsandbytes' PagedAdamW8bit (the torchtune 4090 row): the step runs on the GPU; no CPU step
    s = scn(framework="hf", zero=0, n=1, gpu="rtx-4090-24gb", opt="adamw_8bit", model="llama-3.1-8b", mbs=2)
    t = time_of(s)
    assert "optimizer_offload" not in t.parts
    on = time_of(scn(framework="hf", zero=0, n=1, gpu="rtx-4090-24gb", opt="adamw_8bit", model="llama-3.1-8b",
                     mbs=2, offload=False))
    assert t.seconds["other"] == pytest.approx(on.seconds["other"])


def test_single_device_offload_like_zero_offload():
    # torchtune + torchao CPUOffloadOptimizer: fused CPU AdamW over the whole model, 16-bit upload after
    t = time_of(scn(framework="hf", zero=0, n=1, gpu="rtx-4090-24gb", model="llama-3.1-8b", mbs=2))
    p = 8.03e9
    assert t.parts["optimizer_offload"] >= p / T.CPU_ADAM_HOST_PARAMS_PER_S + 2 * p / (32e9 * 0.8) - 0.01


def _rl_bench():
    spec = importlib.util.spec_from_file_location("rl_step_times", ROOT / "bench" / "rl_step_times.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_verl_offload_copies_per_phase_and_gpu_step():
    rl = _rl_bench()
    row = next(r for r in rl.ROWS if r[0] == "play-verl qwen2-7b ppo min")
    s = scenario_from_dict(row[2])
    t = estimate(s).time
    k = row[2]["training"]["rl"]["updates_per_generation"]
    # verl: actor update (params + moments both ways, 24 B per shard element), old-log-prob forward and refit
    # (params both ways, 8 + 8); critic update (24) and values forward (8): 72 B per element of the fp32 shard
    # (1/8 of the model), over H100's Gen5 link, once per generation batch of k updates
    per_gen = t.parts["optimizer_offload"] * k
    shard = estimate(s).facts.params.total / 8 if hasattr(estimate(s), "facts") else 7.616e9 / 8
    expect = 72.0 * shard / (64e9 * T.PCIE_HOST_EFFICIENCY)
    assert per_gen == pytest.approx(expect, rel=0.02)
    # the GPU optimizer step (verl loads the moments to the GPU) is counted every update
    assert t.seconds["other"] > t.parts["optimizer_offload"]


def test_offload_sanity_rows():
    spec = importlib.util.spec_from_file_location("offload_step_times", ROOT / "bench" / "offload_step_times.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rows = mod.table()
    assert sum(r["counted"] for r in rows) >= 2
    for r in (r for r in rows if r["counted"]):
        lo, hi = r["band"]
        assert lo <= r["pred"] <= hi, r["id"]


def test_zero3_param_offload_uploads_each_fetch():
    # DeepSpeed ZeRO-3 offload_param: the 16-bit partition comes up before every gather (forward and backward of
    # each micro-batch), hidden under the compute except the last layer's share; at tiny micro-batches it shows
    def run(params, seq):
        s = scn(zero=3, n=8, seq_len=seq)
        d = s.model_dump()
        d["parallel"]["offload_params"] = params
        return time_of(scenario_from_dict(d)).parts["optimizer_offload"]

    gather = 2 * 2.0 * 6.738e9 / 8 / (32e9 * 0.8)  # two fetches of the 1/8 partition
    # at 32 tokens the micro-batch's compute window is the eager host floor (HF model under DeepSpeed, full
    # recompute): 32 layers × (41 forward kernels × 2 passes × 24 µs + 82 backward kernels × 10 µs) = 89 ms, plus
    # ZeRO-3's per-module hooks (core/zero3.py: (3 × 114 + 18) ops × 24 µs = 8.64 ms per layer) = 365 ms: the
    # 132 ms upload hides under it but for the last layer's share
    host = 32 * (41 * 2 * 24e-6 + 82 * 10e-6 + 360 * 24e-6)
    assert host > gather
    assert run(True, 32) - run(False, 32) == pytest.approx(max(gather - host, gather / 32), rel=0.05)
    assert run(True, 4096) - run(False, 4096) == pytest.approx(gather / 32, rel=0.05)


def test_optimizer_in_backward_has_no_clipping_pass():
    # torchtune's recipes raise "Gradient clipping is not supported with optimizer in bwd": the step's clipping
    # pass (CLIP_BYTES per parameter) goes; the update itself stays
    def other(in_bwd):
        s = scn(framework="hf", zero=0, n=1, gpu="a100-sxm-80gb", offload=False, model="llama-3.1-8b",
                optimizer_in_backward=in_bwd)
        return time_of(s).seconds["other"]

    bw = T.gpu_time_facts("a100-sxm-80gb").mem_bw_tbs * 1e12 * T.MEM_BW_EFFICIENCY
    assert other(False) - other(True) == pytest.approx(8.03e9 * T.CLIP_BYTES / bw, rel=0.01)
    assert other(True) == pytest.approx(8.03e9 * T.OPT_BYTES["adamw"] / bw, rel=0.01)

"""FSDP2 / torchtitan throughput mechanics (core/timing.py): the attention kernel's ceiling, FSDP2's copy-in /
copy-out passes around its collectives, the gradient-clipping pass; hand-derived, plus properties and the
scalar/array parity of the new terms."""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.core import flops as F
from gpuplanner.core import timing as T
from gpuplanner.core.estimate import resolve
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.memory import RECOMPUTE_CODES
from gpuplanner.core.scenario import scenario_from_dict

H100_BF16 = 989e12
H100_BW = 3.35e12 * T.MEM_BW_EFFICIENCY


def _sc(gpu="h100-sxm-80gb", n=8, framework="fsdp", zero=3, **t):
    training = {"framework": framework, "seq_len": 8192, "micro_batch_size": 1, "recompute": "none",
                "torch_compile": True, **t}
    return scenario_from_dict({"model": {"preset": "llama-3.1-8b"}, "training": training,
                               "parallel": {"zero": zero}, "hardware": {"gpu": gpu, "num_gpus": n}})


def test_attention_kernel_defaults_per_framework_and_generation():
    """Megatron: TE's cuDNN fused attention; torchtitan: SDPA flash below sm100, cuDNN on Blackwell (PR #1196);
    HF / DeepSpeed: SDPA's flash backend; the scenario's choice wins."""
    assert T.attention_kernel("megatron", "hopper") == "cudnn"
    assert T.attention_kernel("fsdp", "hopper") == "flash2"
    assert T.attention_kernel("fsdp", "blackwell") == "cudnn"
    assert T.attention_kernel("hf", "hopper") == "flash2"
    assert T.attention_kernel("deepspeed", "ampere") == "flash2"
    assert T.attention_kernel("megatron", "hopper", "flash2") == "flash2"
    assert T.attention_kernel("fsdp", "hopper", "cudnn") == "cudnn"
    assert evaluate(_sc()).to_json()["time_attention_kernel"] == "flash2"
    assert evaluate(_sc(flash_attention=False)).to_json()["time_attention_kernel"] == "eager"


def test_flash2_ceiling_on_hopper_hand_derived():
    """One GPU (no communication): FlashAttention-2 runs the attention FLOPs at 0.33 of the BF16 peak instead of
    the matmul efficiency 0.55, its backward 2.5 × the forward's FLOPs at 322/370 of that rate; the difference in
    compute is exactly the attention time of the two kernels."""
    s_fa2, s_cud = _sc(n=1, zero=0, attention_kernel="flash2"), _sc(n=1, zero=0, attention_kernel="cudnn")
    m = resolve(s_fa2).facts
    fwd = F.forward_flops_per_token(m, 8192)
    size = 1.0 / (1.0 + T.D0 / m.h) / (1.0 + T.T0 / 8192)
    # forward + backward, one micro-batch of 8192 tokens; FlashAttention-2's backward runs 2.5 × the forward's FLOPs
    # at 322/370 of its forward rate (FlashAttention-3 paper, forward/backward speed figures): 2 × (2.5/2) × (370/322) forward times
    fa2 = (1.0 + 2.0 * 1.25 * 370.0 / 322.0) * fwd.attention * 8192
    cud = 3.0 * fwd.attention * 8192
    want = fa2 / (H100_BF16 * 0.33 * size) - cud / (H100_BF16 * 0.55 * size)
    a, b = evaluate(s_fa2).time.seconds["compute"], evaluate(s_cud).time.seconds["compute"]
    assert a - b == pytest.approx(want, rel=1e-9)


def test_no_ceiling_on_ampere_nor_for_eager_attention():
    """FlashAttention-2 reaches 50–73% of the A100 peak (Dao 2023): no slower than the matmuls there. Eager
    attention (flash off) runs as GEMMs, the kernel choice does not apply."""
    for k in ("flash2", "cudnn"):
        assert T.attention_ceiling("fsdp", "a100-sxm-80gb", k) is None
    a100 = [evaluate(_sc("a100-sxm-80gb", attention_kernel=k)).time.step_time_s for k in ("flash2", "cudnn")]
    assert a100[0] == a100[1]
    eager = [evaluate(_sc(flash_attention=False, attention_kernel=k)).time.step_time_s for k in ("flash2", "cudnn")]
    assert eager[0] == eager[1]


def test_fsdp2_copy_in_copy_out_hand_derived():
    """FSDP2 vs FSDP1, 8 GPUs ZeRO-3, bf16 gathers, fp32 reduce-scatter, one micro-batch. Per gather (2: forward
    and backward) FSDP2 copies the gathered weights out (read + write 2 bytes) and copies the shard in (cast
    4 → 2, copy 2 → 2: 10 bytes per shard element); before its reduce-scatter it copies the bf16 gradients
    into the fp32 input (2 + 4). FSDP1 casts the shard (4 + 2) on the compute stream; its cast of each unit's
    gradient to fp32 (2 + 4) and its pre/post division (4 + 4, and 4 + 4 on the 1/8 shard) run on the post-backward
    stream with the reduce-scatter (issue 35 r13, fsdpstream13): the 8,192-token backward hides all but the last of
    the 32 units' passes (in "other"), and the hidden rest slows the compute beside it (OVERLAP_COMPUTE_SLOWDOWN).
    Everything else is equal."""
    v2, v1 = evaluate(_sc(fsdp_version=2)).time, evaluate(_sc(fsdp_version=1)).time
    P = float(resolve(_sc()).params.total)
    fsdp2 = 2 * P * (2 * 2 + (4 + 3 * 2) / 8) + P * (2 + 4)
    fsdp1 = 2 * P * (4 + 2) / 8
    passes = P * (6 + 8 + 8 / 8) / H100_BW
    assert v1.parts["fsdp1_grad_passes"] == pytest.approx(passes / 32, rel=1e-9)
    assert v2.seconds["other"] - v1.seconds["other"] == pytest.approx((fsdp2 - fsdp1) / H100_BW - passes / 32,
                                                                      rel=1e-9)
    assert v2.seconds["tp_comm"] == v1.seconds["tp_comm"]
    # compute differs only by the contention of their different hidden collectives (OVERLAP_COMPUTE_SLOWDOWN) and of
    # FSDP1's hidden gradient passes
    slow = T.OVERLAP_COMPUTE_SLOWDOWN * (v2.hidden["dp_comm"] - v1.hidden["dp_comm"] - passes * 31 / 32)
    assert v2.seconds["compute"] - v1.seconds["compute"] == pytest.approx(slow, rel=1e-9, abs=1e-12)
    # FSDP2's outer units (the embedding's first gather and last reduce-scatter, timing.fsdp2_edge_unit_bytes;
    # tests/test_mechanics_fsdp2_edges.py) are exposed beyond one block's share; FSDP1 keeps one block's share
    assert v2.seconds["dp_comm"] > v1.seconds["dp_comm"]


def test_fsdp2_copies_per_micro_batch_without_pp_once_per_step_with_pp():
    """Without PP each micro-batch gathers and reduce-scatters again (reshard_after_forward); with PP torchtitan
    keeps the gathered weights and reduces once after the last micro-batch."""
    def copy_s(**kw):
        a = evaluate(_sc(fsdp_version=2, **kw)).time.seconds["other"]
        b = evaluate(_sc(fsdp_version=1, **kw)).time.seconds["other"]
        return a - b
    one, four = copy_s(), copy_s(global_batch_size=32)  # 8 GPUs × 4 micro-batches
    assert four == pytest.approx(4 * one, rel=1e-9)


def test_no_fsdp_copies_without_sharding_or_outside_fsdp():
    """One GPU (nothing to gather) and DeepSpeed: the FSDP2 copy term is zero. The HF stack at ZeRO 2/3 reads
    fsdp_version as its sharding (round 15, consist15: frameworks.hf_sharded_by_fsdp): FSDP1 through Accelerate
    pays FSDP1's gradient passes, DeepSpeed (2) none."""
    one = [evaluate(_sc(n=1, zero=3, fsdp_version=v)).time.seconds["other"] for v in (1, 2)]
    assert one[0] == one[1]
    a = [evaluate(_sc(framework="deepspeed", fsdp_version=v)).time.seconds["other"] for v in (1, 2)]
    assert a[0] == a[1]
    hf = [evaluate(_sc(framework="hf", fsdp_version=v)).time for v in (1, 2)]
    assert hf[0].seconds["other"] > hf[1].seconds["other"]


def test_gradient_clipping_pass_hand_derived():
    """DeepSpeed does not clip by default (gradient_clipping 0); the HF Trainer clips at max_grad_norm 1.0:
    12 more bytes per parameter on one GPU (norm read 4, scale read + write 8)."""
    base = dict(n=1, zero=0, attention_kernel="cudnn")
    hf, ds = evaluate(_sc(framework="hf", **base)).time, evaluate(_sc(framework="deepspeed", **base)).time
    P = float(resolve(_sc()).params.total)
    assert hf.seconds["other"] - ds.seconds["other"] == pytest.approx(P * T.CLIP_BYTES / H100_BW, rel=1e-9)


def test_new_terms_never_speed_a_step_up():
    """Each mechanism adds work: FlashAttention-2 ≥ cuDNN, FSDP2 ≥ FSDP1, on several layouts."""
    for n, zero in ((8, 3), (8, 2), (64, 3), (1, 0)):
        fa2 = evaluate(_sc(n=n, zero=zero, attention_kernel="flash2")).time.step_time_s
        cud = evaluate(_sc(n=n, zero=zero, attention_kernel="cudnn")).time.step_time_s
        v2 = evaluate(_sc(n=n, zero=zero, fsdp_version=2)).time.step_time_s
        v1 = evaluate(_sc(n=n, zero=zero, fsdp_version=1)).time.step_time_s
        assert fa2 >= cud and v2 >= v1


@pytest.mark.parametrize("fsdp_version", [1, 2])
@pytest.mark.parametrize("attn", [None, 0.33])
def test_array_and_scalar_paths_agree(fsdp_version, attn):
    """The search evaluates candidate arrays with the same formulas: element i of the array call equals the
    scalar call with element i's values (the new terms included)."""
    r = resolve(_sc())
    kw, _ = T.time_kwargs(r)
    kw = {**kw, "attn_efficiency": attn, "fsdp_version": fsdp_version}
    lay = dict(tp=np.array([1, 2, 1, 1]), pp=np.array([1, 1, 2, 1]), cp=np.array([1, 1, 1, 2]),
               ep=np.ones(4, int), dp=np.array([8, 4, 4, 4]), zero=np.array([3, 3, 3, 2]),
               recompute=np.array([RECOMPUTE_CODES["none"], RECOMPUTE_CODES["op_sac"],
                                   RECOMPUTE_CODES["full"], RECOMPUTE_CODES["none"]]),
               mbs=np.array([1, 2, 1, 1]), sp=np.array([False, True, False, False]),
               grad_accum=np.array([1, 2, 4, 1]), vpp=np.ones(4, int), num_gpus=np.full(4, 8),
               gpus_per_node=8, offload=np.zeros(4, bool))
    arr = T.time_arrays(r.facts, **kw, **lay)
    for i in range(4):
        one = {k: (v[i].item() if isinstance(v, np.ndarray) else v) for k, v in lay.items()}
        sc = T.time_arrays(r.facts, **kw, **one)
        for k in ("step", "other", "compute", "dp_comm", "cp_comm"):
            assert float(arr[k][i]) == pytest.approx(float(sc[k]), rel=1e-12)


def test_torchtitan_runs_tp_with_sequence_parallel_and_looped_pipeline_schedules():
    """torchtitan: ``parallelism.enable_sequence_parallel = True`` by default and looped schedules
    (Interleaved1F1B) through ``parallelism.pipeline_parallel_schedule``: the search may use both for fsdp."""
    from gpuplanner.core.frameworks import FRAMEWORKS

    assert FRAMEWORKS["fsdp"].sequence_parallel and FRAMEWORKS["fsdp"].interleaved_pipeline
    # the interleaved schedule shrinks the bubble in the estimate too (Table 5: 1F1B 100, interleaved 128)
    def tps(vpp):
        s = scenario_from_dict({"model": {"preset": "llama-3.1-405b"},
                                "training": {"framework": "fsdp", "seq_len": 8192, "micro_batch_size": 1,
                                             "global_batch_size": 256, "recompute": "full"},
                                "parallel": {"zero": 3, "tp": 8, "pp": 8, "vpp": vpp, "sequence_parallel": True},
                                "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 512}})
        return evaluate(s).time.tokens_per_s_per_gpu
    assert tps(2) > tps(1)

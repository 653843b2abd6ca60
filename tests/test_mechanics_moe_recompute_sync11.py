"""A full recompute's re-run MoE forward syncs the host inside the backward (issue 35 round 11, swiftlora11).

Megatron-Core's ``CheckpointFunction.backward`` runs each checkpointed layer's forward again, and that forward's
all-to-all dispatcher copies the token counts to the host and synchronises (``cuda_sync_point``), so in every
recomputed MoE layer the host's per-expert work of the backward (the re-issued forward's per-expert kernels, the
gradients' per-expert kernels, each trainable expert weight's bookkeeping) can only hide under the experts' own GPU
time (``timing.moe_recompute_sync_exposure``). Counts by hand for Qwen3-30B-A3B (48 MoE layers, 128 experts) on
EP 2: 64 local experts."""

from __future__ import annotations

import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import resolve
from gpuplanner.core.methods import EAGER_OP_S
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.core.timing import time_estimate


def scn(recompute="full", method="lora", mean=465):
    t = {"framework": "megatron-swift", "method": method, "seq_len": 2048, "micro_batch_size": 8,
         "global_batch_size": 16, "padding_free": True, "packing": False, "recompute": recompute}
    if method == "lora":
        t.update(lora_rank=8, lora_targets="all_linear")
    return scenario_from_dict({"model": {"preset": "qwen3-30b-a3b"}, "training": t,
                               "parallel": {"ep": 2, "zero": 1},
                               "hardware": {"gpu": "a800-sxm-80gb", "num_gpus": 2},
                               "data": {"mean_sample_len": mean}})


def test_per_expert_backward_host_work_by_hand():
    m = resolve(scn()).facts
    # LoRA on the experts: 16 host-issued GEMMs per expert (6 forward, re-issued by the recompute, + 10 backward)
    # and 4 trainable adapters' bookkeeping: 20 ops x 64 local experts x 48 layers x 10 us
    lora = T.moe_host_exp_bwd(m, "megatron", "bf16", 2, 1, lora_experts=True, trainable_weights=4.0)
    assert lora == pytest.approx(20 * 64 * 48 * EAGER_OP_S)
    assert lora == pytest.approx(0.6144)
    # full training, BF16: 6 GEMMs (2 forward + 4 backward) and fc1 / fc2's bookkeeping: 8 ops
    assert T.moe_host_exp_bwd(m, "megatron", "bf16", 2, 1, trainable_weights=2.0) == pytest.approx(
        8 * 64 * 48 * EAGER_OP_S)
    # FP8 current scaling: + 3 quantisation kernels per slice, 4 slices (moe_host_parts' count): 18 + 2 = 20
    assert T.moe_host_exp_bwd(m, "megatron", "fp8", 2, 1, "te_current", trainable_weights=2.0) == pytest.approx(
        20 * 64 * 48 * EAGER_OP_S)
    # the same per-expert counts as moe_host_parts (one helper)
    assert T.moe_expert_host_ops("megatron", "bf16", None, True) == (6.0, 16.0)
    # nothing for another framework, a whole-layer graph (drop-and-pad replays the experts) or a dense model
    assert T.moe_host_exp_bwd(m, "fsdp", "bf16", 2, 1, trainable_weights=2.0) == 0.0
    assert T.moe_host_exp_bwd(m, "megatron", "bf16", 2, 1, "layer", trainable_weights=2.0) == 0.0
    dense = resolve(scenario_from_dict({"model": {"preset": "qwen2.5-7b"}, "training": {
        "framework": "megatron-swift", "method": "lora", "seq_len": 2048, "micro_batch_size": 1,
        "global_batch_size": 2}, "hardware": {"gpu": "a800-sxm-80gb", "num_gpus": 2}})).facts
    assert T.moe_host_exp_bwd(dense, "megatron", "bf16", 1, 1, trainable_weights=2.0) == 0.0


def test_exposure_by_hand():
    # host 0.6 s of per-expert work in the backward, experts' GPU 0.25 s there, dispatch half 0.08 s: 0.6 - 0.25 - 0.04
    assert T.moe_recompute_sync_exposure(0.6, 1.0, 0.25, 0.08) == pytest.approx(0.31)
    assert T.moe_recompute_sync_exposure(0.6, 0.5, 0.25, 0.08) == pytest.approx(0.155)  # half the layers recomputed
    assert T.moe_recompute_sync_exposure(0.6, 0.0, 0.25, 0.08) == 0.0  # no recompute: no sync in the backward
    assert T.moe_recompute_sync_exposure(0.2, 1.0, 0.25, 0.08) == 0.0  # the GPU's experts hide the host
    # moe_sync_exposure: the backward takes the larger of the whole-pass excess and the recomputed experts' excess
    parts = (0.2, 0.1, 0.5)
    base = T.moe_sync_exposure(parts, 3.0, 0.4, 0.9, 1.0 / 3.0, 1.0)
    assert T.moe_sync_exposure(parts, 3.0, 0.4, 0.9, 1.0 / 3.0, 1.0, exp_b=0.0, rec_whole=1.0) == base
    # forward: max(0.3 - 1.0 - 0.2, 0.2 - 0.3 - 0.1, 0) = 0; backward: max(0.5 - 2.0 - 0.2, 1.5 - 0.6 - 0.1, 0) = 0.8
    assert T.moe_sync_exposure(parts, 3.0, 0.4, 0.9, 1.0 / 3.0, 1.0, exp_b=1.5, rec_whole=1.0) == pytest.approx(0.8)


def test_the_loss_scale_row_waits_for_the_recomputed_experts(monkeypatch):
    # ms-swift examples/megatron/lora/loss_scale.sh (3f0969760): full recompute, EP 2, 8 x 465 tokens per GPU
    with_sync = time_estimate(resolve(scn()))
    monkeypatch.setattr(T, "moe_recompute_sync_exposure", lambda *a, **k: 0.0)
    without = time_estimate(resolve(scn()))
    added = with_sync.step_time_s - without.step_time_s
    # the recomputed backward's per-expert host work (0.6144 s) is partly hidden under the experts' GPU time
    assert 0.1 < added < 0.6144
    assert with_sync.parts["moe_host_sync"] - without.parts.get("moe_host_sync", 0.0) == pytest.approx(added, rel=1e-6)
    # selective recompute re-runs no MoE forward: no such wait
    sel = time_estimate(resolve(scn(recompute="megatron_selective")))
    monkeypatch.undo()
    assert time_estimate(resolve(scn(recompute="megatron_selective"))).step_time_s == pytest.approx(sel.step_time_s)

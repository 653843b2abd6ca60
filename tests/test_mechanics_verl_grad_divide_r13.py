"""Issue 35 round 13 (verl13): what verl's FSDP1 actor update pays per optimizer step that the model did not price.

* FSDP1's default reduce path divides each unit's unsharded gradient in place before the reduce-scatter and the new
  shard after it (``torch/distributed/fsdp/_runtime_utils.py`` ``_reduce_grad`` → ``_div_if_needed``; the factors of
  ``algorithms/_comm_hooks/default_hooks.py`` ``DefaultState._get_gradient_predivide_factor``), in the reduce dtype
  (fp32 under verl's ``MixedPrecision``): ``timing.fsdp1_grad_divide_bytes``. With verl12's fp32 cast it runs on
  the post-backward stream, queued with the reduce-scatter (fsdpstream13: every FSDP1 plan, hidden under the
  backward but for the last unit's and what outlasts it); the named part ``fsdp1_grad_passes`` (inside "other")
  is its exposed share (tests/test_mechanics_fsdp1_post_backward_r13.py).
* The rollout sharding manager's load and offload of the actor's parameters run inside ``generate_sequences``, so
  verl times them in ``gen``, not ``update_actor`` (``verl/workers/sharding_manager/fsdp_vllm.py`` ``__enter__``
  at db84a4007): ``bench/rl_step_times.py`` ``key_split``."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate, resolve_arch
from gpuplanner.core.methods import method_profile
from gpuplanner.core.params import count_params
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import rl_step_times as R  # noqa: E402

ROWS = {r[0]: r for r in R.ROWS}
MIN = "play-verl qwen2-7b ppo min"
REC = "play-verl qwen2-7b ppo recommended"
VERL_DATA = "verl-data qwen2-7b grpo gsm8k"


def _torch_factors(world: int) -> tuple[float, float]:
    """torch's DefaultState._get_gradient_predivide_factor and FSDP1's post-divide (world / pre), re-typed here."""
    factor = 1
    while world % factor == 0 and world / factor > factor:
        factor *= 2
    return float(factor), world / float(factor)


@pytest.mark.parametrize("world", [1, 2, 3, 4, 6, 8, 16, 24, 32, 64, 128, 512])
def test_divide_bytes_follow_torchs_factors(world):
    pre, post = _torch_factors(world)
    want = (8.0 if pre > 1 else 0.0) + (8.0 if post > 1 else 0.0) / world  # fp32: read + write, 4 + 4 bytes
    assert T.fsdp1_grad_divide_bytes("fsdp", world, 4.0) == pytest.approx(want, rel=1e-12)


def test_divide_bytes_vectorised_like_the_scalar():
    import numpy as np

    worlds = [1, 2, 3, 8, 64]
    arr = T.fsdp1_grad_divide_bytes("fsdp", np.array(worlds, dtype=float), 4.0, T._ArrayOps)
    assert list(np.asarray(arr)) == pytest.approx([T.fsdp1_grad_divide_bytes("fsdp", w, 4.0) for w in worlds])


def test_every_fsdp1_stack_pays_the_divide():
    """The same torch code runs for llm-foundry, Accelerate, torchtune's FSDP1 and verl: not gated on RL."""
    assert T.fsdp1_grad_divide_bytes("fsdp", 8, 4.0) == pytest.approx(9.0)
    assert T.fsdp1_grad_divide_bytes("megatron", 8, 4.0) == 0.0


def _part(scn):
    return estimate(scenario_from_dict(copy.deepcopy(scn))).time.parts.get("fsdp1_grad_passes", 0.0)


#: Qwen2.5-7B's decoder layers, FSDP1's units (verl wraps each decoder layer)
LAYERS = 28


def test_the_part_by_hand_on_min():
    """The 7B "min" row as GRPO (the actor alone): one micro-batch per optimizer step, one reduce-scatter of every
    unit's gradient; 8 GPUs, no TP. The passes per micro-batch: verl12's cast (read bf16, write fp32: 6 bytes) and
    the divide (8 bytes on the unsharded gradient, 8 on the 1/8 shard) at the model's HBM rate. They run on the
    post-backward stream behind each unit's backward; the backward (recompute included) outlasts the queue, so what
    shows is the last unit's passes: 1/28 of them. The PPO row pays it twice (the critic has the same size and
    wrapper)."""
    scn = R._variant(ROWS[MIN][2], objective="grpo")
    n = float(count_params(resolve_arch(scenario_from_dict(scn).model)).total)
    bw = 3.35e12 * T.MEM_BW_EFFICIENCY  # H100 SXM: 3.35 TB/s
    assert _part(scn) == pytest.approx(n * (6.0 + 8.0 + 8.0 / 8.0) / bw / LAYERS, rel=0.02)
    assert _part(ROWS[MIN][2]) == pytest.approx(2.0 * _part(scn), rel=1e-9)


def test_the_part_goes_with_its_mechanism():
    assert _part(ROWS[VERL_DATA][2]) == 0.0  # FSDP2: NCCL's own averaging, no divide kernel, no cast pass
    sft = copy.deepcopy(ROWS[MIN][2])
    sft["training"]["objective"] = "sft"
    sft["training"].pop("rl")
    sft["training"].pop("preference")
    assert _part(sft) > 0.0  # FSDP1 SFT runs the same torch code (fsdpstream13)


def test_divide_adds_to_the_step_by_its_stream(monkeypatch):
    """The divide, patched to 0, takes off the "min" GRPO step its exposed share (1/28, the last unit's) and the
    contention of the rest with the compute: div × (1/28 + OVERLAP_COMPUTE_SLOWDOWN × 27/28) per micro-batch (one an
    optimizer step), far less than the compute-stream charge of round 13 (div itself)."""
    grpo = R._variant(ROWS[MIN][2], objective="grpo")
    n = float(count_params(resolve_arch(scenario_from_dict(grpo).model)).total)
    div_s = n * (8.0 + 1.0) / (3.35e12 * T.MEM_BW_EFFICIENCY)
    now = estimate(scenario_from_dict(copy.deepcopy(grpo))).time.step_time_s
    monkeypatch.setattr(T, "fsdp1_grad_divide_bytes", lambda *a, **k: 0.0)
    before = estimate(scenario_from_dict(copy.deepcopy(grpo))).time.step_time_s
    want = div_s * (1.0 / LAYERS + T.OVERLAP_COMPUTE_SLOWDOWN * (1.0 - 1.0 / LAYERS))
    assert now - before == pytest.approx(want, rel=0.02)


def test_the_refit_copies_are_timed_in_gen():
    """key_split: the sharding manager's load/offload of the actor's fp32 shard (8 bytes a parameter of the
    model's verl copies) moves from update_actor to gen; the keys still add up to the modelled step."""
    scn = ROWS[MIN][2]
    base = R.predict(copy.deepcopy(scn))
    k = R.key_split(copy.deepcopy(scn))
    ph = T.verl_phase_bytes(method_profile(scenario_from_dict(copy.deepcopy(scn)).training), 1.0, 1.0)
    refit = base["offload"] * ph["refit"] / sum(ph.values())
    assert k["gen"] - base["gen"] == pytest.approx(refit, rel=1e-6)
    assert refit > 0.1  # 8 B × ~0.95 G shard parameters at ≤ 51 GB/s
    assert sum(k.values()) == pytest.approx(base["step"], rel=1e-9)
    rec = ROWS[REC][2]  # no offload: nothing moves
    assert R.key_split(copy.deepcopy(rec))["gen"] == pytest.approx(R.predict(copy.deepcopy(rec))["gen"], rel=1e-12)

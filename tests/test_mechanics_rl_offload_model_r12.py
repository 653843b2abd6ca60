"""Issue 35 round 12 (savers12): ``training.rl.offload_model``, Megatron-SWIFT's ``--offload_model true
--offload_optimizer true`` around colocated generation (modelscope/ms-swift 3602360a5,
``swift/megatron/trainers/rollout_mixin.py`` ``offload_context``, ``swift/megatron/trainers/utils.py``), and what the
savers line makes of it.

Memory: vLLM wakes its weights, the training weights are loaded into them, *then* the training model leaves the GPU
(16-bit parameter buffer to pinned CPU memory, gradient buffer freed, optimizer shard to CPU memory), vLLM takes its
KV cache and generates. The engine therefore adds, beyond training's own peak, max(pool − states − activations,
vLLM weights − activations, 0). Time: the 16-bit weights out and back, plus the optimizer shard (12 bytes a
parameter: fp32 master, two Adam moments) unless Megatron's CPU optimizer keeps it on the host, at the pinned host
link rate (PCIe × 0.8), once per generation batch.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from gpuplanner.core import advisor_savers as sv
from gpuplanner.core import search
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.estimate import estimate
from gpuplanner.core.scenario import Scenario

GIB = 2.0 ** 30
DATA = Path(__file__).resolve().parent / "data" / "expert_review_r11"
N_QWEN3_30B = 30_532_122_624          # Qwen3-30B-A3B parameters (the estimate's own count is checked below)
N_EXPERT = 48 * 128 * 3 * 2048 * 768  # routed experts: layers × experts × (gate, up, down) × hidden × moe_ffn


def _recipe(**rl) -> dict:
    """ms-swift's moe_colocate_full.sh layout (TP 4 × EP 4 × PP 2, 8 GPUs, vLLM colocated asleep) on 8 × H20
    (Hopper: PCIe Gen5, 64 GB/s one way), at the planner's default vLLM share and the request's batch."""
    d = {"model": {"preset": "qwen3-30b-a3b"},
         "training": {"method": "full", "objective": "grpo", "framework": "megatron-swift", "seq_len": 3072,
                      "micro_batch_size": 1, "global_batch_size": 256, "recompute": "megatron_selective",
                      "rl": {"group_size": 8, "prompt_len": 1024, "rollout_len": 2048,
                             "generation_engine": "vllm_colocated", "engine_sleep": True, "beta": 0.0}},
         "parallel": {"tp": 4, "pp": 2, "ep": 4, "sequence_parallel": True},
         "hardware": {"gpu": "h20-96gb", "num_gpus": 8},
         "data": {"tokens": "50M"}}
    d["training"]["rl"].pop("beta")
    d["training"]["preference"] = {"reference": "none"}
    d["training"]["rl"].update(rl)
    return d


def _est(d: dict):
    return estimate(Scenario.model_validate(d))


def _shard_params() -> float:
    """Parameters one GPU holds: the dense part split by TP × PP, whole experts split by EP × PP (ETP 1)."""
    return (N_QWEN3_30B - N_EXPERT) / (4 * 2) + N_EXPERT / (4 * 2)


def test_parameter_counts_are_the_hand_ones():
    e = _est(_recipe())
    assert e.params.total == N_QWEN3_30B
    assert e.params.expert_params == pytest.approx(N_EXPERT, rel=1e-9)


def test_offload_frees_the_training_state_during_generation():
    """With vLLM asleep, the pool reuses the activations' memory; with the training model offloaded it reuses the
    weights', gradients' and optimizer's too, but not below the refit's moment (training state + vLLM's weights)."""
    on, off = _est(_recipe(offload_model=True)), _est(_recipe())
    m_on, m_off = on.memory, off.memory
    pool = 0.3 * 96 * GIB                      # generation_gpu_fraction (TRL colocate default) × the card
    w16_vllm = 2.0 * N_QWEN3_30B / 4           # vLLM's weights at the training TP (rollout_tp null)
    acts = m_off.activations * GIB
    held = (m_off.weights + m_off.gradients + m_off.optimizer) * GIB
    assert m_off.extra["kv_cache"] * GIB == pytest.approx(max(pool - acts, 0.0), rel=1e-6)
    want = max(pool - held - acts, w16_vllm - acts, 0.0)
    assert m_on.extra["kv_cache"] * GIB == pytest.approx(want, rel=1e-6)
    # here the refit moment binds: 21.3 GiB of training state + 14.2 GiB of vLLM weights > the 28.8 GiB pool
    assert want == pytest.approx(w16_vllm - acts, rel=1e-9)
    # the weights are the hand shard in 16-bit; training's own peak does not move
    assert m_off.weights * GIB == pytest.approx(2.0 * _shard_params(), rel=1e-6)
    for k in ("weights", "gradients", "optimizer", "activations"):
        assert getattr(m_on, k) == pytest.approx(getattr(m_off, k), rel=1e-12)
    assert m_on.total < m_off.total - 10.0


def test_without_sleep_nothing_is_freed():
    """vLLM awake keeps its whole pool while the model trains: the offload frees nothing at the peak."""
    on, off = _est(_recipe(engine_sleep=False, offload_model=True)), _est(_recipe(engine_sleep=False))
    assert on.memory.total == pytest.approx(off.memory.total, rel=1e-9)


@pytest.mark.parametrize("cpu_optimizer", [False, True])
def test_the_copies_are_a_named_part_at_the_pinned_host_rate(cpu_optimizer):
    """Bytes by hand: 2 B × shard out and back; with the optimizer on the GPU, 12 B × shard out and back too
    (ZeRO 0, one data-parallel rank: the optimizer shard is the whole GPU shard). H20: PCIe Gen5 64 GB/s × 0.8."""
    d_on, d_off = _recipe(offload_model=True), _recipe()
    for d in (d_on, d_off):
        d["parallel"]["offload_optimizer"] = cpu_optimizer
    on, off = _est(d_on), _est(d_off)
    per_param = 2.0 + (0.0 if cpu_optimizer else 12.0)
    want = 2.0 * per_param * _shard_params() / (64e9 * 0.8)
    assert on.time.parts["rl_model_offload"] == pytest.approx(want, rel=1e-6)
    assert off.time.parts.get("rl_model_offload", 0.0) == pytest.approx(0.0, abs=1e-12)
    # the step grows by exactly the part (vLLM's own pool, and so the generation, do not move)
    assert on.time.step_time_s - off.time.step_time_s == pytest.approx(want, rel=1e-6)
    # and it is not counted twice inside the optimizer's offload part
    assert on.time.parts.get("optimizer_offload", 0.0) == pytest.approx(off.time.parts.get("optimizer_offload", 0.0),
                                                                         rel=1e-9, abs=1e-12)


def test_a_reference_model_moves_too_and_updates_share_the_moves():
    ref = _recipe(offload_model=True)
    ref["training"]["preference"] = {"reference": "separate", "beta": 0.04}
    ref["parallel"]["offload_optimizer"] = True
    base = _recipe(offload_model=True)
    base["parallel"]["offload_optimizer"] = True
    bw = 64e9 * 0.8
    assert _est(ref).time.parts["rl_model_offload"] == pytest.approx(2.0 * 4.0 * _shard_params() / bw, rel=1e-6)
    two = copy.deepcopy(base)
    two["training"]["rl"]["updates_per_generation"] = 2
    two["training"]["global_batch_size"] = 128
    assert _est(two).time.parts["rl_model_offload"] == pytest.approx(2.0 * 2.0 * _shard_params() / bw / 2, rel=1e-6)


def test_the_part_is_labelled_and_sits_in_other():
    from gpuplanner.core.timing import PART_LABELS, PART_PARENT
    assert PART_PARENT["rl_model_offload"] == "other"
    assert "offload_model" in PART_LABELS["rl_model_offload"]


@pytest.mark.parametrize("change, words", [
    ({"training": {"framework": "trl"}}, "Megatron-SWIFT setting"),
    ({"training": {"rl": {"generation_engine": "vllm_separate"}}}, "needs generation_engine vllm_colocated"),
])
def test_refused_where_no_tool_runs_it(change, words):
    d = _recipe(offload_model=True)
    for sect, vals in change.items():
        for k, v in vals.items():
            if isinstance(v, dict):
                d[sect][k].update(v)
            else:
                d[sect][k] = v
    if change["training"].get("framework") == "trl":
        d["parallel"] = {}
    with pytest.raises((ScenarioError, ValueError)) as e:
        Scenario.model_validate(d)
    assert words in str(e.value)


def test_the_search_keeps_the_tools_that_run_it():
    d = json.loads((DATA / "grpo-qwen3-30b-a3b.json").read_text(encoding="utf-8"))
    d["training"]["rl"]["offload_model"] = True
    s = Scenario.model_validate(d)
    fws, choose = search.searched_frameworks(s)
    assert choose and fws == ("megatron-swift",)


def test_megatron_swift_layouts_may_spread_experts_over_tensor_ranks():
    """Megatron-Core's expert grid is ETP × EP × expert-DP × PP over the world (parallel_state.py): with whole
    experts per GPU (Megatron-SWIFT's default ETP 1) EP 4 fits in TP 4 × DP 1, the layout of ms-swift's own
    colocated GRPO example; plain Megatron (ETP = TP) keeps EP inside the data-parallel ranks."""
    d = _recipe(offload_model=True)
    d.pop("parallel")
    d["hardware"] = {}
    d["constraints"] = {"gpu_candidates": ["h20-96gb"], "max_gpus": 8, "currency": "CNY", "deadline_days": 10}
    res = search.search(Scenario.model_validate(d), top=20, savers=False)
    lays = {(p.evaluation.layout.tp, p.evaluation.layout.ep, p.evaluation.layout.dp) for p in res.plans}
    assert any(ep > dp for _, ep, dp in lays), lays
    d["training"]["framework"] = "megatron"
    d["training"]["rl"].pop("offload_model")
    res = search.search(Scenario.model_validate(d), top=20, savers=False)
    assert all(p.evaluation.layout.ep <= p.evaluation.layout.dp for p in res.plans)


def test_saver_options_fewest_savers_first():
    s = Scenario.model_validate(json.loads((DATA / "grpo-qwen3-30b-a3b.json").read_text(encoding="utf-8")))
    opts = sv.saver_options(s, ("megatron-swift", "trl"))
    assert [k for k, _ in opts] == [("sleep", "model"), ("sleep", "offload"), ("sleep", "model", "offload")]
    assert opts[0][1] == {"training": {"rl": {"offload_model": True, "engine_sleep": True}},
                          "constraints": {"framework_candidates": ["megatron-swift"]}}
    assert opts[1] == sv.saver_change(s, ("megatron-swift", "trl"))
    assert opts[2][1]["parallel"] == {"offload_optimizer": True}
    assert opts[2][1]["training"]["rl"] == {"offload_model": True, "engine_sleep": True}
    # LoRA: no optimizer states to offload: vLLM asleep alone, then with the model's offload
    d = json.loads((DATA / "grpo-qwen3-30b-a3b.json").read_text(encoding="utf-8"))
    d["training"]["method"] = "lora"
    lora = Scenario.model_validate(d)
    assert [k for k, _ in sv.saver_options(lora, ("megatron-swift",))] == [("sleep",), ("sleep", "model")]
    # no Megatron-SWIFT among the frameworks: the round-11 savers alone
    assert sv.saver_options(s, ("trl",)) == [sv.saver_change(s, ("trl",))]

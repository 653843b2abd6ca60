"""Megatron-FSDP (framework ``megatron`` with ``parallel.zero = 3``): memory and time derived by hand from the
mechanics in ``core/megatron_fsdp.py`` (Megatron-LM ``docs/user-guide/features/megatron_fsdp.md``,
``megatron/core/distributed/fsdp/``), and the framework × feature refusals that remain, each with its reason."""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.core import frameworks as F
from gpuplanner.core import megatron_fsdp as MF
from gpuplanner.core import search as S
from gpuplanner.core import timing as T
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.estimate import resolve
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.memory import GIB
from gpuplanner.core.scenario import scenario_from_dict

# Llama 3 8B (config.json): h 4096, 32 layers, FFN 14336, 8 KV heads of 128, vocabulary 128256, untied head
H, L, FFN, KV, V = 4096, 32, 14336, 1024, 128256
LAYER = 2 * H * H + 2 * H * KV + 3 * H * FFN + 2 * H  # q, o; k, v; gate, up, down; two RMSNorms
NON_UNIT = 2 * V * H + H  # embedding, output layer, final norm: outside every FSDP unit
P = L * LAYER + NON_UNIT


def _sc(**over):
    sc = {"model": {"preset": "llama-3-8b"},
          "training": {"framework": "megatron", "precision": "bf16", "seq_len": 4096, "micro_batch_size": 1,
                       "global_batch_size": 32},
          "parallel": {"tp": 1, "pp": 1, "zero": 3},
          "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8},
          "assumptions": {"cuda_context_gib": 0.0, "fragmentation": 0.0}}
    for k, v in over.items():
        sc[k] = {**sc[k], **v}
    return sc


def test_parameter_count_is_the_hand_count():
    r = resolve(scenario_from_dict(_sc()))
    assert r.facts.params.total == P
    assert r.facts.layer_non_expert == LAYER


def test_memory_by_hand():
    """dp 8: compute weights 2/8, main gradients 2/8 (``megatron_fsdp_main_grads_dtype`` None = BF16), fp32 main
    weights + Adam 12/8 bytes per parameter; buffers: two units' gathered weights and un-sharded gradients
    (2 × layer × (2 + 2)) and the non-unit modules held whole in BF16."""
    ev = evaluate(scenario_from_dict(_sc()))
    m = ev.memory
    assert m.weights * GIB == pytest.approx(P * 2 / 8, rel=1e-9)
    assert m.gradients * GIB == pytest.approx(P * 2 / 8, rel=1e-9)
    assert m.optimizer * GIB == pytest.approx(P * 12 / 8, rel=1e-9)
    assert m.other * GIB == pytest.approx(2 * LAYER * (2 + 2) + NON_UNIT * 2, rel=1e-9)
    # against the distributed optimizer (ZeRO-1): 16-bit weights and fp32 gradients whole
    z1 = evaluate(scenario_from_dict(_sc(parallel={"zero": 1}))).memory
    assert z1.weights * GIB == pytest.approx(P * 2, rel=1e-9) and z1.gradients * GIB == pytest.approx(P * 4, rel=1e-9)


def test_fp8_param_gather_shards_the_quantised_weights():
    """``--fp8-param-gather``: the sharded compute weights are TE FP8 (1 byte), the gathered units FP8 too."""
    sc = _sc(training={"precision": "fp8", "fp8_recipe": "te_current", "fp8_all_gather": True})
    m = evaluate(scenario_from_dict(sc)).memory
    assert m.weights * GIB == pytest.approx(P * 1 / 8, rel=1e-9)
    assert m.other * GIB == pytest.approx(2 * LAYER * (1 + 2) + NON_UNIT * 2, rel=1e-9)


def test_time_by_hand_without_overlap():
    """Per micro-batch each unit is gathered twice (forward, backward) and reduce-scattered once in BF16; the non-unit
    modules are gathered once per step. With both overlaps off all of it is exposed: ring all-gather/reduce-scatter
    moves (n − 1)/n of the bytes over the node's NCCL bus bandwidth, plus one latency per unit and collective."""
    sc = _sc(training={"overlap_param_gather": False, "overlap_grad_reduce": False})
    r = resolve(scenario_from_dict(sc))
    t = T.time_estimate(r)
    kw, gf = T.time_kwargs(r)
    lay = T.time_layout(r.facts, **{k: v for k, v in kw.items() if k not in T.GPU_TIME_ARGS}, tp=1, pp=1, cp=1, ep=1,
                        dp=8, zero=3, recompute=0, mbs=1, sp=False, grad_accum=4, vpp=1, num_gpus=8, gpus_per_node=8)
    ring = 7 / 8
    assert lay["gather_bytes"] == pytest.approx((P - NON_UNIT) * 2 * ring, rel=1e-9)
    assert lay["gather_once_bytes"] == pytest.approx(NON_UNIT * 2 * ring, rel=1e-9)
    assert lay["rs_bytes"] == pytest.approx(P * 2 * ring, rel=1e-9)
    assert lay["fsdp_copy_on"] is False or not np.any(lay["fsdp_copy_on"])  # zero-copy flat buffers
    bw = gf.intra_busbw_gbs * 1e9
    lat = lay["lat_ag"]
    gather = lay["gather_bytes"] / bw + lat
    expect = 4 * (2 * gather + lay["rs_bytes"] / bw + lat) + lay["gather_once_bytes"] / bw
    assert t.seconds["dp_comm"] == pytest.approx(expect, rel=1e-9)


def test_overlap_hides_all_but_the_first_and_last_unit():
    """Defaults (overlap_param_gather and overlap_grad_reduce on under optim_grads_params): with compute far longer
    than the collectives, one unit's gather and one unit's reduce-scatter per pass stay exposed."""
    r = resolve(scenario_from_dict(_sc()))
    t = T.time_estimate(r)
    off = T.time_estimate(resolve(scenario_from_dict(_sc(training={"overlap_param_gather": False,
                                                                   "overlap_grad_reduce": False}))))
    assert 0 < t.seconds["dp_comm"] < off.seconds["dp_comm"] / 10


def test_megatron_fsdp_is_entered_and_searched():
    """No longer refused: with TP/PP (Megatron-Bridge docs: "intended to work with tensor parallelism, pipeline
    parallelism, context parallelism, expert parallelism")."""
    assert F.unsupported("megatron", "pretrain", tp=2, pp=2, zero=3) is None
    ev = evaluate(scenario_from_dict(_sc(parallel={"tp": 2, "pp": 2, "zero": 3})))
    assert ev.memory.total > 0
    assert 3 in S.ZERO_BY_FRAMEWORK["megatron"]


def test_search_leaves_out_tp_with_megatron_fsdp_before_blackwell():
    """Megatron-LM warns against TP/CP with Megatron-FSDP where ``get_device_arch_version() < 10``."""
    z, tp, cp = np.array([3, 3, 1, 3]), np.array([2, 1, 2, 1]), np.array([1, 1, 1, 2])
    assert MF.search_excludes("megatron", "hopper", z, tp, cp).tolist() == [True, False, False, True]
    assert not MF.search_excludes("megatron", "blackwell", z, tp, cp).any()
    assert not MF.search_excludes("fsdp", "hopper", z, tp, cp).any()


def test_megatron_lora_with_pipeline_is_entered():
    """Megatron-Bridge trains LoRA on Megatron-Core with TP/PP (its 26.06 table: Llama 3 70B LoRA TP 2 PP 4 VP 20 on
    H100): entered as framework megatron-bridge; Megatron-LM (framework megatron) refuses it."""
    assert F.unsupported("megatron-bridge", "lora", tp=2, pp=4, vpp=20, zero=1) is None
    # Megatron-LM itself has no LoRA: the refusal names the framework that runs it on the same engine
    msg = F.unsupported("megatron", "lora", tp=2, pp=4, vpp=20, zero=1)
    assert msg is not None and "NeMo / Megatron-Bridge" in msg.render()
    assert "megatron" not in F.frameworks_for("lora")


# the refusals that stay, each with the tool's own statement
REFUSALS = [
    # DeepSpeed pipeline docs: "ZeRO stages 2 and 3 are not compatible with pipeline parallelism"
    ("deepspeed", "pretrain", {"pp": 2, "zero": 2}, "ZeRO-2 with PP"),
    # Megatron-FSDP has no parameter CPU offload (megatron_fsdp/: no offload path; Bridge's cpu_offloading is
    # activation offload)
    ("megatron", "pretrain", {"zero": 3, "offload_params": True}, "offload_params"),
    # Megatron-Bridge PEFT offers LoRA, canonical LoRA and DoRA (src/megatron/bridge/peft/): no 4-bit base
    ("megatron", "qlora", {}, "qlora"),
    # torchtitan/FSDP2 has no optimizer-only sharding (fully_shard shards parameters; HSDP replicates)
    ("fsdp", "pretrain", {"zero": 1}, "ZeRO-1"),
    # Unsloth: one GPU or DDP (README); no ZeRO/FSDP in its trainer
    ("unsloth", "lora", {"zero": 3}, "ZeRO-3"),
    # torchtune's lora_finetune_distributed shards with FSDP2 alone (no tensor-parallel LoRA recipe)
    ("fsdp", "lora", {"tp": 2}, "TP 2"),
]


@pytest.mark.parametrize("fw,method,layout,what", REFUSALS)
def test_refusals_that_remain(fw, method, layout, what):
    why = F.unsupported(fw, method, **layout)
    assert why is not None and what.lower() in why.render().lower()  # the refusal names it


def test_offload_params_refused_for_megatron_through_evaluate():
    with pytest.raises(ScenarioError, match="offload_params"):
        evaluate(scenario_from_dict(_sc(parallel={"zero": 3, "offload_params": True})))


def test_llamafactory_runs_a_zero1_config():
    """LLaMA-Factory passes ``deepspeed:`` to the Trainer, which takes any DeepSpeed config: ZeRO-1 is not refused
    (its shipped files are ZeRO-0/2/3); DeepSpeed's default ``overlap_comm`` (off below ZeRO-3) applies."""
    assert F.unsupported("llamafactory", "lora", zero=1) is None
    assert F.overlap_defaults("llamafactory", 1, 1, 1, False)["overlap_grad_reduce"] is False


def test_entered_tp_with_megatron_fsdp_on_hopper_is_told():
    ev = evaluate(scenario_from_dict(_sc(parallel={"tp": 2, "zero": 3})))
    assert any("advises against" in m.render() for m in ev.messages)
    ev = evaluate(scenario_from_dict(_sc(parallel={"tp": 2, "zero": 3}, hardware={"gpu": "b200-180gb"})))
    assert not any("advises against" in m.render() for m in ev.messages)


def test_routed_experts_gather_over_the_expert_data_parallel_group():
    """Megatron-FSDP shards the routed experts over their own DeviceMesh (expert data parallel, "Mixing FSDP & Model
    Parallelism"): with EP 8 on 8 GPUs that group has one rank, so the experts are neither gathered nor
    reduce-scattered; the dense rest goes over the 8 data-parallel ranks."""
    sc = {"model": {"preset": "mixtral-8x7b"},
          "training": {"framework": "megatron", "precision": "bf16", "seq_len": 4096, "micro_batch_size": 1,
                       "global_batch_size": 8},
          "parallel": {"ep": 8, "zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}
    r = resolve(scenario_from_dict(sc))
    kw, _ = T.time_kwargs(r)
    lay = T.time_layout(r.facts, **{k: v for k, v in kw.items() if k not in T.GPU_TIME_ARGS}, tp=1, pp=1, cp=1, ep=8,
                        dp=8, zero=3, recompute=0, mbs=1, sp=False, grad_accum=1, vpp=1, num_gpus=8, gpus_per_node=8)
    p = r.facts.params
    dense_units = p.total - p.expert_params - (r.facts.first_extra + r.facts.last_extra)
    assert lay["gather_exp_bytes"] == 0.0 and lay["rs_exp_bytes"] == 0.0
    assert lay["gather_bytes"] == pytest.approx(dense_units * 2 * 7 / 8, rel=1e-9)


def test_optim_grads_zero2_by_hand():
    """``optim_grads`` (ZeRO-2): weights whole (2 bytes), BF16 main gradients and fp32 main weights + Adam sharded,
    two units' un-sharded gradients; the gradients reduce-scattered on each of the 4 micro-batches, the weights
    all-gathered once after the step. Entered, not searched."""
    ev = evaluate(scenario_from_dict(_sc(parallel={"zero": 2})))
    m = ev.memory
    assert m.weights * GIB == pytest.approx(P * 2, rel=1e-9)
    assert m.gradients * GIB == pytest.approx(P * 2 / 8, rel=1e-9)
    assert m.optimizer * GIB == pytest.approx(P * 12 / 8, rel=1e-9)
    assert m.other * GIB == pytest.approx(2 * LAYER * 2, rel=1e-9)
    sc = _sc(parallel={"zero": 2}, training={"overlap_param_gather": False, "overlap_grad_reduce": False})
    r = resolve(scenario_from_dict(sc))
    t = T.time_estimate(r)
    kw, gf = T.time_kwargs(r)
    lay = T.time_layout(r.facts, **{k: v for k, v in kw.items() if k not in T.GPU_TIME_ARGS}, tp=1, pp=1, cp=1, ep=1,
                        dp=8, zero=2, recompute=0, mbs=1, sp=False, grad_accum=4, vpp=1, num_gpus=8, gpus_per_node=8)
    assert lay["grad_sync_bytes"] == pytest.approx(4 * P * 2 * 7 / 8, rel=1e-9)
    assert lay["param_sync_bytes"] == pytest.approx(P * 2 * 7 / 8, rel=1e-9)
    bw = gf.intra_busbw_gbs * 1e9
    expect = (lay["grad_sync_bytes"] / bw + lay["grad_sync_lat"]) + (lay["param_sync_bytes"] / bw
                                                                       + lay["param_sync_lat"])
    assert t.seconds["dp_comm"] == pytest.approx(expect, rel=1e-9)
    assert 2 in F.FRAMEWORKS["megatron"].zero_stages and 2 not in S.SEARCHED_ZERO["megatron"]


def test_deepspeed_autotp_is_entered_not_searched():
    """DeepSpeed AutoTP training (deepspeed.ai "Automatic Tensor Parallelism (Training)": TP with ZeRO 0, 1 or 2, no
    sequence parallelism): entered TP runs, with the per-block all-reduces priced; ZeRO-3, PP or SP with TP refused;
    the plan search does not try it."""
    assert F.unsupported("deepspeed", "full", tp=2, zero=2) is None
    for layout, what in (({"tp": 2, "zero": 3}, "ZeRO-3 with TP"), ({"tp": 2, "pp": 2, "zero": 1}, "TP with PP"),
                         ({"tp": 2, "zero": 1, "sp": True}, "sequence_parallel"), ({"tp": 2}, "TP 2")):
        why = F.unsupported("deepspeed", "lora" if what == "TP 2" else "full", **layout)
        assert why is not None and what.lower() in why.render().lower()  # the refusal names it
    sc = _sc(training={"framework": "deepspeed"}, parallel={"tp": 2, "zero": 1})
    ev = evaluate(scenario_from_dict(sc))
    assert ev.time.seconds["tp_comm"] > 0
    assert "deepspeed" not in S.TP_FRAMEWORKS
    scn = scenario_from_dict({**sc, "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}})
    c = S.enumerate_candidates(next(S.iter_contexts(scn)), 8)
    assert set(np.unique(c["tp"])) == {1}

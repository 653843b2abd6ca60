"""Megatron-Core's unfused vocab-parallel cross-entropy (issue 35 r8 xent8: ``timing.MEGATRON_UNFUSED_CE_BYTES``,
``training.fused_cross_entropy``, ``frameworks.fused_cross_entropy_of``).

Megatron-LM's ``--cross-entropy-loss-fusion`` is off by default (a store_true flag); Megatron-Bridge's
``GPTModelProvider`` and Megatron-SWIFT turn it on. Off, ``tensor_parallel.vocab_parallel_cross_entropy`` makes an
fp32 copy of the local logits and runs max, subtract, exp, sum and divide over it in eager kernels, and in backward
a multiply and the cast back: 38 + 14 = 52 bytes per local vocabulary entry per token, against the fused 8."""

import pytest

from gpuplanner.core import timing
from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.frameworks import fused_cross_entropy_of, tool_mechanics
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.scenario import scenario_from_dict

V = 128256  # Llama 3.1 8B


def _sc(framework="megatron", tp=1, cp=1, objective=None, **t):
    tr = {"framework": framework, "precision": "bf16", "seq_len": 4096, "micro_batch_size": 1,
          "global_batch_size": 64, **t}
    if objective:
        tr["objective"] = objective
    return scenario_from_dict({"model": {"preset": "llama-3.1-8b"}, "training": tr,
                               "parallel": {"tp": tp, "cp": cp, "zero": 1, "sequence_parallel": tp > 1},
                               "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}})


def _layout(s, tp):
    r = resolve(s)
    kw, _ = timing.time_kwargs(r)
    kw = {k: v for k, v in kw.items() if k not in timing.GPU_TIME_ARGS}
    return timing.time_layout(r.facts, **kw, tp=tp, pp=1, cp=1, ep=1, dp=8 // tp, zero=1, recompute=0, mbs=1,
                              sp=tp > 1, grad_accum=8, vpp=1, num_gpus=8, gpus_per_node=8, offload=False)


def test_byte_count_from_the_code():
    # forward: .float() 2+4, max 4, -= 4+4, exp 4+4, sum 4, div_ 4+4; backward: mul_ 4+4, cast back 4+2
    assert timing.MEGATRON_UNFUSED_CE_BYTES == (6 + 4 + 8 + 8 + 4 + 8) + (8 + 6) == 52.0


def test_tool_defaults():
    assert fused_cross_entropy_of("megatron") is False
    assert fused_cross_entropy_of("megatron-bridge") is True
    assert fused_cross_entropy_of("megatron-swift") is True
    assert fused_cross_entropy_of("megatron", True) is True
    assert fused_cross_entropy_of("megatron-bridge", False) is False
    assert fused_cross_entropy_of("hf", True) is False


def test_only_megatron_lm_default_is_unfused():
    assert timing.time_kwargs(resolve(_sc()))[0]["unfused_ce"] is True
    assert timing.time_kwargs(resolve(_sc(fused_cross_entropy=True)))[0]["unfused_ce"] is False
    # RL trainers on Megatron take log-probabilities with their own code: not this loss
    assert timing.time_kwargs(resolve(_sc(method="full", objective="grpo")))[0]["unfused_ce"] is False


@pytest.mark.parametrize("tp", [1, 4])
def test_memory_traffic_difference_is_44_bytes_per_local_entry(tp):
    """Hand-derived: the unfused loss adds (52 − 8)·V/(tp·cp) bytes per token to the memory-bound work."""
    lay = {fce: _layout(_sc(tp=tp, fused_cross_entropy=fce), tp) for fce in (True, False)}
    d = lay[False]["mem_tok_bytes"] - lay[True]["mem_tok_bytes"]
    assert d == pytest.approx(44.0 * V / tp, rel=1e-9)


def test_step_slower_unfused_and_memory_unchanged():
    fused, unfused = evaluate(_sc(fused_cross_entropy=True)), evaluate(_sc())
    r = unfused.time_modelled.tokens_per_s_per_gpu / fused.time_modelled.tokens_per_s_per_gpu
    # 44 B × 128k entries ≈ 5.6 MB per token at ~2.7 TB/s ≈ 2 µs, against ~100 µs of compute: about 2% slower
    assert 0.96 < r < 0.995
    # peak memory: the unfused loss works in place on its fp32 copy (memory.logits_bytes holds 6 bytes either way)
    assert memory_breakdown(resolve(_sc())) == memory_breakdown(resolve(_sc(fused_cross_entropy=True)))


def test_megatron_swift_switch_reaches_its_memory_kernel():
    assert tool_mechanics("megatron-swift")["loss_kernel"] == "megatron_fused"
    assert tool_mechanics("megatron-swift", fused_cross_entropy=False)["loss_kernel"] == "standard"


def test_refused_off_megatron():
    with pytest.raises(ScenarioError, match="framework hf has no such choice"):
        _sc(framework="hf", method="full", fused_cross_entropy=True)

"""Memory per GPU against hand-derived values from the cited formulas, and the ZeRO paper's rows."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.core.architecture import arch_from_hf_config
from gpuplanner.core.estimate import estimate
from gpuplanner.core.memory import (
    GIB,
    QLORA_NF4_BYTES,
    activation_bytes_per_layer,
    model_facts,
    model_state_arrays,
    state_bytes,
)
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.scenario import scenario_from_dict

CALIBRATION = Path(__file__).resolve().parents[2] / "shared" / "reference" / "calibration-runs.jsonl"

GPT = dict(model_type="gpt2", n_embd=4096, n_layer=4, n_head=32, n_positions=2048, vocab_size=50000)


def _zero_rows():
    if not CALIBRATION.exists():
        pytest.skip("shared reference not present")
    rows = [json.loads(l) for l in CALIBRATION.read_text().splitlines() if l.strip()]
    return [r for r in rows if r["id"].startswith("zero-t1-")]


def test_zero_paper_table1_model_states_exact():
    """ZeRO Table 1: (2 + 2 + K)Ψ bytes, K = 12, sharded by stage over N_d (GB = 1e9 bytes)."""
    rows = _zero_rows()
    assert len(rows) >= 5
    sb = state_bytes("deepspeed", "bf16", "adamw")
    for r in rows:
        psi = r["params_b"] * 1e9
        w, g, o = model_state_arrays(psi, 0.0, sb.weight, sb.grad, sb.master + sb.moments,
                                     r["zero_stage"], r["num_gpus"], r["num_gpus"])
        total_gb = float(w + g + o) / 1e9
        # the paper prints 3 significant figures
        assert total_gb == pytest.approx(r["peak_memory_per_gpu"], rel=0.006), r["id"]


def test_state_bytes_conventions():
    assert (lambda s: s.weight + s.grad + s.master + s.moments)(state_bytes("deepspeed", "bf16", "adamw")) == 16
    assert (lambda s: s.weight + s.grad + s.master + s.moments)(state_bytes("megatron", "bf16", "adamw")) == 18
    assert (lambda s: s.weight + s.grad + s.master + s.moments)(state_bytes("hf", "bf16", "adamw")) == 18
    assert (lambda s: s.weight + s.grad + s.master + s.moments)(state_bytes("hf", "fp32", "adamw")) == 16
    pure = state_bytes("hf", "bf16", "adamw", master_weights=False)
    assert (pure.weight, pure.grad, pure.master, pure.moments) == (2, 2, 0, 4)


def test_korthikanti_gpt_layer_34sbh_plus_5as2b():
    """A Megatron GPT layer (no flash, dropout) saves sbh(34 + 5as/h) bytes (Korthikanti et al. 2022 eq. 1)."""
    m = model_facts(arch_from_hf_config(GPT))
    s, b, h, a = 2048, 1, 4096, 32
    stored, _ = activation_bytes_per_layer(m, s, b, 1, False, False, 0, "megatron")
    assert float(stored) == pytest.approx(s * b * h * (34 + 5 * a * s / h))
    # tensor parallel t=8 without SP: sbh(10 + 24/t + 5as/(ht))
    stored, _ = activation_bytes_per_layer(m, s, b, 8, False, False, 0, "megatron")
    assert float(stored) == pytest.approx(s * b * h * (10 + 24 / 8 + 5 * a * s / (h * 8)))
    # with sequence parallelism: sbh/t (34 + 5as/h)
    stored, _ = activation_bytes_per_layer(m, s, b, 8, True, False, 0, "megatron")
    assert float(stored) == pytest.approx(s * b * h / 8 * (34 + 5 * a * s / h))
    # selective recompute drops the 5as²b term; full recompute keeps 2sbh
    stored, _ = activation_bytes_per_layer(m, s, b, 8, True, False, 1, "megatron")
    assert float(stored) == pytest.approx(s * b * h / 8 * 34)
    stored, _ = activation_bytes_per_layer(m, s, b, 1, False, False, 2, "megatron")
    assert float(stored) == pytest.approx(2 * s * b * h)


def test_swiglu_gqa_flash_layer_by_hand():
    a = arch_from_hf_config(dict(model_type="llama", hidden_size=4096, num_hidden_layers=2, num_attention_heads=32,
                                 num_key_value_heads=8, intermediate_size=14336, vocab_size=32000))
    m = model_facts(a)
    s, b, h, f = 4096, 1, 4096, 14336
    stored, _ = activation_bytes_per_layer(m, s, b, 1, False, True, 0, "megatron")
    expected = s * b * (4 * h + 4 * h  # two norm inputs + the two linear inputs
                        + 2 * (4096 + 2 * 1024)  # Q, GQA K, V
                        + 2 * 4096 + 4 * 32  # attention output + fp32 log-sum-exp
                        + 8 * f)  # SwiGLU: gate, up, act, product
    assert float(stored) == pytest.approx(expected)


def test_vectorised_equals_scalar():
    sc = scenario_from_dict({"model": {"preset": "llama-3-8b"}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8},
                             "parallel": {"zero": 2, "tp": 2}, "training": {"micro_batch_size": 2}})
    e = estimate(sc)
    m = e.resolved.facts
    s1, _ = activation_bytes_per_layer(m, 2048, np.array([2.0, 1.0]), np.array([2.0, 1.0]),
                                       np.array([False, False]), True, np.array([0, 0]), "hf")
    s2, _ = activation_bytes_per_layer(m, 2048, 2.0, 2.0, False, True, 0, "hf")
    assert float(s1[0]) == float(s2)


def _est(**over):
    base = {"model": {"preset": "llama-3-8b"}, "training": {"method": "full", "seq_len": 2048,
            "micro_batch_size": 1, "recompute": "full"}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}
    for k, v in over.items():
        base.setdefault(k, {}).update(v)
    return estimate(scenario_from_dict(base))


def test_zero_divides_by_dp_not_gpu_count():
    """With tp=2 on 8 GPUs, dp = 4: ZeRO-3 shards over 4, and TP halves first."""
    e0 = _est(parallel={"tp": 2, "zero": 0}, training={"framework": "deepspeed"})
    e3 = _est(parallel={"tp": 2, "zero": 3}, training={"framework": "deepspeed"})
    assert e3.memory.weights == pytest.approx(e0.memory.weights / 4)
    assert e3.memory.optimizer == pytest.approx(e0.memory.optimizer / 4)
    n = e0.params.total
    assert e0.memory.weights * GIB == pytest.approx(n * 2 / 2, rel=1e-9)  # 2 B/param over tp=2


def test_lora_and_qlora_frozen_base():
    lora = _est(training={"method": "lora"}, hardware={"num_gpus": 1})
    qlora = _est(training={"method": "qlora"}, hardware={"num_gpus": 1})
    n = lora.params.total
    assert lora.memory.weights * GIB == pytest.approx(n * 2 + lora.trainable * 4)
    emb = 2 * 128256 * 4096
    expected_q = (n - emb - 65 * 4096) * QLORA_NF4_BYTES + (emb + 65 * 4096) * 2 + qlora.trainable * 4
    # a plain HF QLoRA (framework hf) prepares the base with PEFT's prepare_model_for_kbit_training: the
    # unquantised embeddings, head and norms are fp32 (memory.KBIT_FP32_PARAM_BYTES); LLaMA-Factory does not
    assert qlora.memory.weights * GIB == pytest.approx(expected_q + (emb + 65 * 4096) * 2, rel=1e-6)
    lf = _est(training={"method": "qlora", "framework": "llamafactory"}, hardware={"num_gpus": 1})
    assert lf.memory.weights * GIB == pytest.approx(expected_q, rel=1e-6)
    assert lora.memory.optimizer * GIB == pytest.approx(lora.trainable * 8)


def test_offload_and_optimizers():
    adam = _est(parallel={"zero": 0})
    off = _est(parallel={"zero": 0, "offload_optimizer": True})
    sgd = _est(parallel={"zero": 0}, training={"optimizer": "sgd"})
    eight = _est(parallel={"zero": 0}, training={"optimizer": "adamw_8bit"})
    assert off.memory.optimizer == 0
    assert sgd.memory.optimizer == pytest.approx(adam.memory.optimizer / 2)
    assert eight.memory.optimizer == pytest.approx(adam.memory.optimizer * (2 + 8 / 2048) / 8)


def test_pipeline_first_stage_holds_p_microbatches():
    """1F1B: stage 1 keeps min(p, m) micro-batches of L/p layers (Korthikanti §4.2.3); the last stage
    keeps one micro-batch plus the output layer; the peak GPU is the larger of the two."""
    from gpuplanner.core.memory import logits_bytes

    e1 = _est(parallel={"pp": 4}, training={"recompute": "none", "framework": "megatron", "global_batch_size": 64})
    e2 = _est(parallel={"pp": 4}, training={"recompute": "none", "framework": "megatron", "global_batch_size": 2})
    m = e1.resolved.facts
    stored, _ = activation_bytes_per_layer(m, 2048, 1, 1, False, True, 0, "megatron")
    out = logits_bytes(m, 2048, 1, 1, "megatron") + 4 * 2048 * 4096
    layers = 32 / 4
    assert e1.memory.activations * GIB == pytest.approx(max(layers * stored * 4, layers * stored + out))
    assert e2.memory.activations * GIB == pytest.approx(max(layers * stored * 1, layers * stored + out))
    assert e1.memory.activations > e2.memory.activations


def test_fits_flag_and_headroom():
    small = _est(hardware={"gpu": "rtx-4090-24gb", "num_gpus": 1}, parallel={"zero": 0})
    assert not small.memory.fits
    lora = _est(hardware={"gpu": "rtx-4090-24gb", "num_gpus": 1}, training={"method": "qlora"})
    assert lora.memory.fits


@pytest.mark.parametrize("bad, field", [
    ({"parallel": {"tp": 3}, "hardware": {"num_gpus": 6, "gpus_per_node": 6}}, "parallel.tp"),
    ({"hardware": {"num_gpus": 12}}, "num_gpus"),
    ({"training": {"seq_len": -1}}, "training.seq_len"),
    ({"model": {"preset": "nope"}}, "model.preset"),
    ({"hardware": {"gpu": "h1000"}}, "h1000"),
])
def test_bad_input_one_line_message_naming_field(bad, field):
    base = {"model": {"preset": "llama-3-8b"}}
    for k, v in bad.items():
        base.setdefault(k, {}).update(v)
    from gpuplanner.core.errors import PlannerError

    with pytest.raises(PlannerError) as ei:
        estimate(scenario_from_dict(base))
    assert field in str(ei.value) and "\n" not in str(ei.value)


def test_scalar_path_equals_array_path():
    """memory_arrays on plain numbers (single estimate) and on numpy arrays (plan search) agree exactly."""
    from gpuplanner.core.estimate import memory_kwargs
    from gpuplanner.core.memory import memory_arrays

    for over in ({"parallel": {"tp": 2, "zero": 1}}, {"parallel": {"pp": 4, "zero": 3}},
                 {"training": {"method": "qlora"}, "parallel": {"zero": 3}},
                 {"training": {"framework": "megatron", "recompute": "selective", "global_batch_size": 64},
                  "parallel": {"tp": 2, "pp": 2, "sequence_parallel": True}}):
        e = _est(**over)
        s, p, t = e.resolved.scenario, e.resolved.scenario.parallel, e.resolved.scenario.training
        from gpuplanner.core.memory import RECOMPUTE_CODES

        args = dict(tp=p.tp, pp=p.pp, cp=p.cp, ep=p.ep, dp=s.dp, zero=p.zero, recompute=RECOMPUTE_CODES[t.recompute],
                    mbs=t.micro_batch_size, sp=p.sequence_parallel and p.tp > 1, grad_accum=s.grad_accum,
                    vpp=p.vpp, offload=p.offload_optimizer)
        scalar = memory_arrays(e.resolved.facts, **memory_kwargs(e.resolved), **args)
        arrays = memory_arrays(e.resolved.facts, **memory_kwargs(e.resolved),
                               **{k: np.array([v, v]) for k, v in args.items()})
        for key, val in scalar.items():
            assert float(val) == pytest.approx(float(np.asarray(arrays[key])[0]), rel=1e-12), (over, key)


def test_param_offload_leaves_only_gathered_layers():
    from gpuplanner.core.errors import PlannerError

    e = _est(parallel={"zero": 3, "offload_optimizer": True, "offload_params": True}, training={"framework": "fsdp"})
    assert e.memory.weights == e.memory.gradients == e.memory.optimizer == 0.0
    # the two gathered 16-bit layers (current + prefetched) stay on the GPU, in "other"
    layer = e.resolved.facts.layer_non_expert
    assert e.memory.other * GIB >= 2 * 2.0 * layer
    with pytest.raises(PlannerError, match="offload_params needs zero=3"):
        _est(parallel={"zero": 2, "offload_params": True})

"""Issue 35 round 13 (fp8train13): under FP8 only the linear GEMMs run at the 8-bit rate in training.

Transformer Engine's FP8 applies to the GEMMs of ``Linear`` / ``LayerNormLinear`` / ``LayerNormMLP``; the attention
core stays 16-bit unless ``fp8_dot_product_attention`` (off by default), and the output layer stays 16-bit; norms,
activations, RoPE and residuals are element-wise 16-bit kernels. The model's split (``timing.time_arrays``:
``t_lin_tok`` at ``peak × eff × fp8_gemm_scale``, the attention core and the head at ``peak16 × eff16``, element-wise
work at HBM bandwidth, plus the recipe's cast traffic) is checked here against hand-derived values on one H100.
"""

from __future__ import annotations

import pytest

from gpuplanner.core import fp8
from gpuplanner.core import timing as T
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import scenario_from_dict

# Llama 3.1 8B (config.json): hidden 4096, 32 layers, 32 heads × 128, 8 KV heads, FFN 14336, gated SiLU
H, L, Q, KV, F = 4096, 32, 4096, 1024, 14336
SEQ, MBS = 4096, 1


def _resolved(precision: str, recipe: str | None = None):
    t = {"framework": "megatron", "precision": precision, "seq_len": SEQ, "micro_batch_size": MBS,
         "global_batch_size": 8, "recompute": "none"}
    if recipe:
        t["fp8_recipe"] = recipe
    return resolve(scenario_from_dict({"model": {"preset": "llama-3.1-8b"}, "training": t,
                                       "parallel": {"tp": 1, "pp": 1, "zero": 1},
                                       "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}}))


def _step(r, **over) -> float:
    kw, _gf = T.time_kwargs(r)
    kw.update(over)
    p, t, s = r.scenario.parallel, r.scenario.training, r.scenario
    out = T.time_arrays(r.facts, **kw, tp=1, pp=1, cp=1, ep=1, dp=s.dp, zero=p.zero, recompute=0,
                        mbs=t.micro_batch_size, sp=False, grad_accum=s.grad_accum, vpp=1, num_gpus=1,
                        gpus_per_node=8, offload=False, offload_params=False, mfu=None)
    return float(out["step"])


def _linear_flops_per_token() -> float:
    # forward + backward (dgrad + wgrad) = 6 FLOPs per linear weight and token: q, k, v, o and gate, up, down
    return 6.0 * L * (H * (Q + 2 * KV) + Q * H + 3 * H * F)


@pytest.mark.parametrize("recipe", ["te_delayed", "te_current"])
def test_fp8_peak_prices_the_linear_gemms_only(recipe):
    """Doubling the 8-bit peak halves exactly the linear GEMMs' time: 6·N_lin FLOPs per token at
    P8 × 0.55 × size × TE_GEMM_RATIO (H100: GEN_EFFICIENCY 0.55, no clock factor). The attention core and the head
    are not in it (they are priced at the 16-bit peak); a model that ran the whole forward/backward at the 8-bit
    rate would give a larger difference."""
    r = _resolved("fp8", recipe)
    kw, _ = T.time_kwargs(r)
    p8 = kw["peak_tflops"] * 1e12
    assert kw["peak_tflops"] == pytest.approx(1979.0, rel=0.01)
    m_acc = r.scenario.grad_accum
    tokens = SEQ * MBS * m_acc
    size = 1.0 / (1.0 + 64.0 / H) / (1.0 + 128.0 / (SEQ * MBS))
    t_lin = tokens * _linear_flops_per_token() / (p8 * 0.55 * size * fp8.TE_GEMM_RATIO)
    base = _step(r)
    faster = _step(r, peak_tflops=kw["peak_tflops"] * 2.0)
    assert base - faster == pytest.approx(t_lin / 2.0, rel=0.02)


def test_fp8_leaves_attention_and_head_at_16_bit():
    """Doubling the 16-bit peak of an FP8 run saves the same seconds as in the BF16 run (the attention core and the
    output layer are 16-bit GEMMs in both), and nothing of the linear GEMMs."""
    r8, r16 = _resolved("fp8", "te_delayed"), _resolved("bf16")
    k8, _ = T.time_kwargs(r8)
    k16, _ = T.time_kwargs(r16)
    d8 = _step(r8) - _step(r8, peak16_tflops=k8["peak16_tflops"] * 2.0)
    # the BF16 run's peak16 is its peak: move only the attention/head part by doubling peak16 alone
    d16 = _step(r16) - _step(r16, peak16_tflops=k16["peak16_tflops"] * 2.0)
    assert d8 > 0.0
    assert d8 == pytest.approx(d16, rel=1e-6)
    # no cross term: doubling both peaks of the FP8 run saves the 16-bit part plus half the linear GEMMs' time
    both = _step(r8) - _step(r8, peak16_tflops=k8["peak16_tflops"] * 2.0, peak_tflops=k8["peak_tflops"] * 2.0)
    lin = _step(r8) - _step(r8, peak_tflops=k8["peak_tflops"] * 2.0)
    assert both == pytest.approx(d8 + lin, rel=1e-6)
    # the BF16 run's GEMMs other than the linear layers (attention core and output layer): doubling its one peak saves
    # half of all its GEMM time, of which the linear layers' is hand-derived (6·N_lin per token at 0.55 × size of 989);
    # the FP8 run's 16-bit part is exactly that time
    size = 1.0 / (1.0 + 64.0 / H) / (1.0 + 128.0 / (SEQ * MBS))
    lin16 = SEQ * MBS * r16.scenario.grad_accum * _linear_flops_per_token() / (k16["peak_tflops"] * 1e12 * 0.55 * size)
    all16 = _step(r16) - _step(r16, peak_tflops=k16["peak_tflops"] * 2.0, peak16_tflops=k16["peak16_tflops"] * 2.0)
    assert d8 == pytest.approx(all16 - lin16 / 2.0, rel=0.02)
    # the output layer alone (6·V·h FLOPs per token) is part of it
    head = SEQ * MBS * r8.scenario.grad_accum * 6.0 * 128256 * H / (k8["peak16_tflops"] * 1e12 * 0.55 * size)
    assert d8 > head / 2.0


def test_fp8_adds_the_recipes_cast_bytes_per_linear():
    """The memory-bound work of the FP8 run exceeds the BF16 run's by the recipe's cast traffic: per token and layer
    TE casts each distinct linear input x (qkv, o, gate/up, down: h + q + h + f elements) and each output gradient
    dy (q + 2kv, h, 2f, h), delayed scaling 4 bytes per element (2-byte read, FP8 row-wise + column-wise writes),
    current scaling 6 (one more 2-byte read for the amax)."""
    n_x = H + Q + H + F
    n_dy = (Q + 2 * KV) + H + 2 * F + H
    assert fp8.cast_elements_per_token(_resolved("bf16").facts) == (n_x, n_dy)
    for recipe, per_elem in (("te_delayed", 4.0), ("te_current", 6.0)):
        lay8 = _layout(_resolved("fp8", recipe))
        lay16 = _layout(_resolved("bf16"))
        assert lay8["mem_tok_bytes"] - lay16["mem_tok_bytes"] == pytest.approx((n_x + n_dy) * per_elem * L, rel=1e-9)
        assert lay8["lin_tok"] == pytest.approx(lay16["lin_tok"])
        assert lay8["attn_tok"] == pytest.approx(lay16["attn_tok"])
        assert lay8["head_tok"] == pytest.approx(lay16["head_tok"])


def _layout(r) -> dict:
    """:func:`timing.time_layout` of ``r`` as :func:`timing.time_arrays` builds it (GPU rates left out)."""
    kw, _ = T.time_kwargs(r)
    p, t, s = r.scenario.parallel, r.scenario.training, r.scenario
    kw.update(tp=1, pp=1, cp=1, ep=1, dp=s.dp, zero=p.zero, recompute=0, mbs=t.micro_batch_size, sp=False,
              grad_accum=s.grad_accum, vpp=1, num_gpus=1, gpus_per_node=8, offload=False, offload_params=False)
    gpu = {k: kw.pop(k) for k in T.GPU_TIME_ARGS if k in kw}
    ops = T._ops_for(*(kw.get(k) for k in T._OPS_ARGS), *(gpu.get(k) for k in T.GPU_TIME_ARGS))
    return T.time_layout(r.facts, ops=ops, **kw)

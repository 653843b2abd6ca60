"""The Hugging Face Trainer's causal-LM loss priced kernel by kernel (issue 35 round 13, helper hfloss13;
timing.HF_EAGER_CE_BYTES, timing.eager_ce_bytes).

transformers ``loss/loss_utils.py`` ``ForCausalLMLoss`` (v4.49.0 on): ``logits.float()``, the labels shifted with
``nn.functional.pad``, ``cross_entropy(..., reduction="sum") / num_items_in_batch``. Per ATen kernel, one read and
one write each: forward cast 2 + 4, log_softmax 4 + 4; backward the zero-filled nll gradient 4, log_softmax
backward 4 + 4 + 4, the cast back 4 + 2: 36 bytes per logit (v4.36–v4.48 shifted the fp32 logits with
``.contiguous()``: + 8 forward, + 12 backward = 56). TRL's SFTTrainer reads the logits for its metrics: 18.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from gpuplanner.core import timing
from gpuplanner.core.estimate import estimate
from gpuplanner.core.methods import MethodProfile, SFT
from gpuplanner.core.scenario import scenario_from_dict

QWEN_V = 151936  # Qwen2.5 vocabulary (Qwen/Qwen2.5-1.5B config.json)
H100_BW = 3.35e12 * 0.8  # H100 SXM HBM3 × timing.MEM_BW_EFFICIENCY


def test_bytes_counted_per_kernel():
    fwd = (2 + 4) + (4 + 4)
    bwd = 4 + (4 + 4 + 4) + (4 + 2)
    assert timing.HF_EAGER_CE_BYTES == fwd + bwd == 36.0
    shift_fwd, shift_bwd = 4 + 4, 4 + (4 + 4)  # the fp32 .contiguous() copy; slice_backward's zeros + copy
    assert timing.HF_SHIFT_LOGITS_CE_BYTES == fwd + bwd + shift_fwd + shift_bwd == 56.0
    # TRL entropy_from_logits on 16-bit logits: log_softmax 2+2, exp 2+2, product 2+2+2, sum 2; argmax 2
    assert timing.TRL_SFT_METRIC_BYTES == (2 + 2) + (2 + 2) + (2 + 2 + 2) + 2 + 2 == 18.0
    assert timing.MS_SWIFT_ACC_BYTES == 2.0  # ms-swift's _compute_acc: logits.argmax(dim=-1)


def _t(**kw):
    base = dict(framework="hf", recompute="full", torch_compile=False, liger_kernel=False, fsdp_version=2,
                compile_loss=None)
    base.update(kw)
    return SimpleNamespace(**base)


@pytest.mark.parametrize("t, engine, prof, expected", [
    (_t(), "hf", SFT, 36.0),
    (_t(framework="llamafactory"), "hf", SFT, 36.0),
    (_t(framework="ms-swift"), "hf", SFT, 38.0),
    (_t(framework="axolotl", recompute="none"), "hf", SFT, 36.0),
    (_t(framework="trl"), "hf", SFT, 54.0),
    (_t(liger_kernel=True), "hf", SFT, 0.0),
    (_t(torch_compile=True), "hf", SFT, 0.0),
    (_t(framework="unsloth"), "hf", SFT, 0.0),
    (_t(framework="trl"), "hf", MethodProfile(objective="dpo"), 0.0),
    (_t(framework="deepspeed"), "deepspeed", SFT, 0.0),
    (_t(framework="megatron"), "megatron", SFT, 0.0),
    (_t(framework="fsdp"), "fsdp", SFT, 36.0),  # torchtitan's rule, unchanged (titan_eager_loss)
])
def test_rule(t, engine, prof, expected):
    assert timing.eager_ce_bytes(t, engine, prof) == expected


def _scenario(framework="hf", method="lora", seq=1024, mb=1):
    t = {"framework": framework, "method": method, "seq_len": seq, "micro_batch_size": mb,
         "global_batch_size": mb, "recompute": "none", "flash_attention": True, "optimizer": "adamw",
         "master_weights": True}
    if method == "lora":
        t.update(lora_rank=16, lora_dropout=0.0, lora_targets="all_linear")
    return {"model": {"preset": "qwen2.5-1.5b"}, "training": t, "parallel": {"zero": 0},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}}


def _step(sc) -> float:
    return estimate(scenario_from_dict(sc)).time.step_time_s


@pytest.mark.parametrize("method", ["lora", "full"])
def test_step_grows_by_the_hand_derived_loss_traffic(method, monkeypatch):
    """Qwen2.5-1.5B LoRA / full on one H100 SXM, 1 × 4,096 tokens (GPU-bound): the loss's bytes went from the
    generic 16 to 36 per logit, on the compute stream; the step grows by 20 · 151,936 · 4,096 / (3.35e12 · 0.8) =
    4.644 ms."""
    sc = _scenario(method=method, seq=4096)
    now = _step(sc)
    monkeypatch.setattr(timing, "HF_EAGER_CE_BYTES", 16.0)
    generic = _step(sc)
    hand = 20.0 * QWEN_V * 4096 / H100_BW
    assert now - generic == pytest.approx(hand, rel=1e-3)
    assert now - generic == pytest.approx(0.0046443, abs=2e-6)


def test_host_bound_short_step_does_not_move(monkeypatch):
    """At 1 × 1,024 tokens the eager HF step is bound by the host's kernel launches (the model's host floor): the
    1.16 ms more GPU work hides under it, so the step is unchanged — the loss is not the short-context gap."""
    sc = _scenario(seq=1024)
    now = _step(sc)
    monkeypatch.setattr(timing, "HF_EAGER_CE_BYTES", 16.0)
    assert _step(sc) == pytest.approx(now, rel=1e-9)


def test_trl_sft_pays_its_metrics_reads():
    """TRL's SFTTrainer: 18 more bytes per logit than the bare HF Trainer on the same layout, forward only:
    18 · 151,936 · 2 · 4,096 / 2.68e12 = 8.36 ms at micro-batch 2."""
    hf = _step(_scenario("hf", seq=4096, mb=2))
    trl = _step(_scenario("trl", seq=4096, mb=2))
    assert trl - hf == pytest.approx(18.0 * QWEN_V * 8192 / H100_BW, rel=1e-3)


def test_liger_and_compile_keep_their_loss():
    """Liger's fused linear cross-entropy and torch.compile keep the fused 8 bytes: the constant does not reach them."""
    for extra in ({"liger_kernel": True}, {"torch_compile": True}):
        sc = _scenario(seq=4096)
        sc["training"].update(extra)
        a = _step(sc)
        old = timing.HF_EAGER_CE_BYTES
        try:
            timing.HF_EAGER_CE_BYTES = 1000.0
            assert _step(sc) == a
        finally:
            timing.HF_EAGER_CE_BYTES = old

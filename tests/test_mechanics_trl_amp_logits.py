"""TRL's objectives under the HF Trainer's mixed precision: Accelerate converts the logits to fp32 (issue 35 r5).

``Accelerator.prepare_model`` wraps the forward in ``convert_outputs_to_fp32`` when ``mixed_precision`` is bf16/fp16
and the run is not DeepSpeed; TRL's ``selective_log_softmax`` then takes its fp32 branch, which saves the fp32 logits
(4 bytes per logit, not the 16-bit branch's 2) and holds two fp32 gradients beside them in backward (8, not the
16-bit logits' 2). So the output layer holds 12 bytes per logit instead of 4: 8 more per logit, by hand below."""

import pytest

from gpuplanner.core import memory as mem
from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.scenario import scenario_from_dict

GIB = 2.0 ** 30
V = 128256  # Llama 3 8B vocabulary


def _mb(**kw):
    par = kw.pop("parallel", {})
    t = {"framework": "trl", "method": "lora", "seq_len": 1024, "micro_batch_size": 1, "objective": "dpo",
         "recompute": "full", "flash_attention": True}
    t.update(kw)
    d = {"model": {"preset": "llama-3-8b"}, "training": t, "parallel": par,
         "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8 if par else 1}}
    return memory_breakdown(resolve(scenario_from_dict(d)))


def _sixteen_bit_branch(monkeypatch):
    """The estimate as if the logits stayed 16-bit (TRL's row-wise log_softmax branch)."""
    monkeypatch.setattr(mem, "trl_amp_saved_bytes_per_logit", lambda: 2.0)
    monkeypatch.setattr(mem, "trl_amp_backward_extra_bytes_per_logit", lambda: 2.0)


def test_dpo_lora_holds_eight_more_bytes_per_logit_by_hand(monkeypatch):
    amp = _mb()
    _sixteen_bit_branch(monkeypatch)
    b16 = _mb()
    # chosen + rejected: 2 sequences of 1024 tokens, every position's logits: (4 - 2) saved + (8 - 2) in backward
    want = 8.0 * 2 * 1024 * V / GIB
    assert amp.activations - b16.activations == pytest.approx(want, rel=1e-9)
    assert amp.metric("allocated") - b16.metric("allocated") == pytest.approx(want, rel=1e-6)


def test_grpo_counts_the_kept_completion_logits_only(monkeypatch):
    kw = dict(objective="grpo", rl={"prompt_len": 256, "rollout_len": 768})
    amp = _mb(**kw)
    _sixteen_bit_branch(monkeypatch)
    b16 = _mb(**kw)
    # logits_to_keep: the 768 completion positions of the one sequence
    assert amp.activations - b16.activations == pytest.approx(8.0 * 768 * V / GIB, rel=1e-9)


@pytest.mark.parametrize("kw", [
    dict(parallel={"zero": 3}),  # DeepSpeed: Accelerate's native AMP is off, the logits stay 16-bit
    dict(master_weights=False),  # pure 16-bit run (no Trainer mixed precision)
    dict(objective="sft"),  # the model's own cross-entropy, not TRL's selective log-softmax
    dict(liger_kernel=True),  # Liger's fused DPO loss: no logits tensor
])
def test_no_change_outside_trl_under_accelerate_amp(monkeypatch, kw):
    a = _mb(**dict(kw))
    _sixteen_bit_branch(monkeypatch)
    b = _mb(**dict(kw))
    assert a.metric("allocated") == pytest.approx(b.metric("allocated"), rel=1e-12)
    assert a.activations == pytest.approx(b.activations, rel=1e-12)


def test_trl_3678_instrumentation_is_the_fp32_copy():
    # huggingface/trl#3678: B = 2, logits_to_keep 256 (+1), vocabulary 151,665: "full logits tensor" 310 MB
    logits = 2 * 257 * 151665
    assert 310e6 / logits == pytest.approx(mem.trl_amp_saved_bytes_per_logit(), rel=0.01)


@pytest.mark.parametrize("par", [{}, {"zero": 3}])
def test_llamafactory_dpo_casts_to_fp32_under_any_engine(monkeypatch, par):
    # LLaMA-Factory's concatenated_forward: model(...).logits.to(torch.float32), then log_softmax + gather: the same
    # 4 saved + 8 in backward per logit, with DeepSpeed ZeRO-3 too (where Accelerate's AMP is off)
    kw = dict(framework="llamafactory", parallel=dict(par))
    a = _mb(**dict(kw, parallel=dict(par)))
    _sixteen_bit_branch(monkeypatch)
    b = _mb(**dict(kw, parallel=dict(par)))
    tokens = 2 * 1024  # chosen + rejected, one pair per GPU
    assert a.activations - b.activations == pytest.approx(8.0 * tokens * V / GIB, rel=1e-9)


def test_llamafactory_sft_and_trl_under_zero3_unchanged(monkeypatch):
    a_sft = _mb(framework="llamafactory", objective="sft")
    a_trl = _mb(parallel={"zero": 3})
    _sixteen_bit_branch(monkeypatch)
    assert a_sft.activations == pytest.approx(_mb(framework="llamafactory", objective="sft").activations, rel=1e-12)
    assert a_trl.activations == pytest.approx(_mb(parallel={"zero": 3}).activations, rel=1e-12)

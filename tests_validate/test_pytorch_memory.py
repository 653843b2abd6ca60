"""The core's memory model against PyTorch itself: every component within 5% for every case.

Each case trains one step of a small randomly initialised Hugging Face model on the CPU
(:mod:`harness`) and compares parameters, weights, gradients, optimizer states and saved activations
with ``gpuplanner.core.memory`` for the same scenario. Known, explained gaps are strict xfails: if the
gap closes the test fails and the xfail must go.
"""

from __future__ import annotations

import importlib.util

import pytest

import harness
from harness import COMPONENTS, Case, default_cases, estimate_case, measure, rel_err

TOLERANCE = 0.05

XFAIL = {
    # transformers 5.x runs Mixtral's experts through torch._grouped_mm, which CPU autocast leaves in
    # fp32: no bf16 expert-weight copies, fp32 expert activations. The planner models a 16-bit expert path.
    ("mixtral", "amp", "full"): "CPU autocast does not cast torch._grouped_mm: Mixtral experts run in fp32 "
                                "(weights -25%, activations +18-24% vs the 16-bit expert model)",
    # PEFT 0.21 "all-linear" adapts Mixtral's router and its fused 3-D expert parameters (ParamWrapper,
    # one gate_up adapter per expert); gpuplanner.core.params.lora_params counts separate gate/up/down
    # adapters and skips the router.
    ("mixtral", "bf16", "lora"): "PEFT adapts the router and fused expert params; lora_params counts "
                                 "per-matrix expert adapters (trainable -29%)",
    ("mixtral", "amp", "lora"): "PEFT adapts the router and fused expert params; lora_params counts "
                                "per-matrix expert adapters (trainable -29%)",
    # GPT-2's q/k/v are one Conv1D (c_attn, h -> 3h): PEFT puts one adapter r*(h + 3h) on it, lora_params
    # counts three r*(h + h) adapters.
    ("gpt2", "bf16", "lora"): "PEFT adapts GPT-2's fused c_attn once; lora_params counts q, k, v "
                              "separately (trainable +12.5%)",
    ("gpt2", "amp", "lora"): "PEFT adapts GPT-2's fused c_attn once; lora_params counts q, k, v "
                             "separately (trainable +12.5%)",
}


def _param(case: Case):
    marks = []
    fam = case.family.split("-")[0]
    reason = XFAIL.get((fam, case.precision, case.method))
    if case.method == "full" and case.checkpoint:
        reason = None  # checkpointing recomputes the experts: nothing of them is held, as modelled
    if reason:
        marks.append(pytest.mark.xfail(reason=reason, strict=True))
    if case.optimizer == "adamw_8bit" and importlib.util.find_spec("bitsandbytes") is None:
        marks.append(pytest.mark.skip(reason="bitsandbytes is not installed: its 8-bit AdamW needs a CUDA "
                                             "build; no CPU 8-bit AdamW in the pinned stack"))
    return pytest.param(case, id=case.id, marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in default_cases()])
def test_component_within_tolerance(case: Case):
    meas = measure(case).values
    est = estimate_case(case)
    harness.RESULTS.append((case, meas, est))
    bad = {c: f"measured {meas[c]:.0f}, estimated {est[c]:.0f} ({rel_err(meas[c], est[c]) * 100:+.1f}%)"
           for c in COMPONENTS if abs(rel_err(meas[c], est[c])) > TOLERANCE}
    assert not bad, f"{case.id}: {bad}"


def test_views_share_storage_counted_once():
    """The instrument itself: a saved view and its base count once; a fresh tensor counts again."""
    import torch

    seen: dict[int, int] = {}

    def pack(t):
        st = t.untyped_storage()
        seen.setdefault(st.data_ptr(), st.nbytes())
        return t

    w = torch.randn(64, 32, requires_grad=True)
    x = torch.randn(8, 64)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        y = x @ w  # saves x (8*64*4 bytes) and w
        z = (y.view(-1) * y.view(-1)).sum()  # saves the view of y twice: one storage (8*32*4)
    assert sum(n for k, n in seen.items() if k != w.untyped_storage().data_ptr()) == 8 * 64 * 4 + 8 * 32 * 4
    z.backward()

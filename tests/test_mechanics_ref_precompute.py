"""Reference log-probabilities precomputed before training are not in the step (issue 35 round 7, helper pref7).

TRL ``DPOTrainer.__init__`` / ``KTOTrainer.__init__`` (huggingface/trl at f2cd577) run ``_precompute_ref_logps`` over
the train dataset when ``precompute_ref_log_probs`` is set; ``_compute_loss`` then reads the reference log-probs from
the batch. The logged step (``train_runtime`` / steps) holds the policy's passes only; the run's wall time holds the
one pass over the data as well (timing.reference_precompute_flops)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from gpuplanner.core import search as S
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict


def _scen(objective="dpo", reference=None, method="full", zero=0, num_gpus=1):
    d = {"model": {"preset": "qwen2.5-7b"},
         "training": {"framework": "trl", "objective": objective, "method": method, "seq_len": 4096,
                      "micro_batch_size": 1, "global_batch_size": 8 * num_gpus, "flash_attention": True,
                      "recompute": "full"},
         "parallel": {"zero": zero},
         "data": {"tokens": 1e8},
         "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": num_gpus}}
    if reference is not None:
        d["training"]["preference"] = {"reference": reference}
    return scenario_from_dict(d)


def _time(**kw):
    return evaluate(_scen(**kw)).time


@pytest.mark.parametrize("method", ["full", "lora"])
def test_precomputed_step_is_the_policy_alone(method):
    """Hand-derived: the step with precomputed log-probs is the step with no reference at all (same policy passes;
    only the frozen model's forward leaves the step). LoRA full-row rows: 4,096 tokens, GPU-bound."""
    pre = _time(reference="precomputed", method=method)
    none = _time(reference="none", method=method)
    live = _time(reference="separate" if method == "full" else "lora_base", method=method)
    assert pre.step_time_s == pytest.approx(none.step_time_s, rel=1e-9)
    assert pre.step_time_s < live.step_time_s


@pytest.mark.parametrize("method,units", [("full", (10.0, 8.0)), ("lora", (8.0, 6.0))])
def test_step_ratio_hand_derived(method, units):
    """Forward units per pair with full recomputation (test_mechanics_dpo_pair_padding): full DPO 2 × 4 + 2
    (reference over both rows) = 10 in the step, 8 once precomputed; LoRA 2 × 3 + 2 = 8, 6 precomputed. The ratio
    holds to the attention and head shares, which run at other rates (5%)."""
    live = _time(reference="separate" if method == "full" else "lora_base", method=method).step_time_s
    pre = _time(reference="precomputed", method=method).step_time_s
    assert pre / live == pytest.approx(units[1] / units[0], rel=0.05)


def test_run_time_keeps_the_precompute_pass():
    """The run's days are the same as with the reference forward in every step (one forward per trained sequence,
    the same shapes and rates), the step shorter: throughput = tokens per step / (step + precompute share)."""
    pre = _time(reference="precomputed")
    live = _time(reference="separate")
    assert pre.compute_days == pytest.approx(live.compute_days, rel=1e-9)
    assert pre.tokens_per_s_per_gpu == pytest.approx(live.tokens_per_s_per_gpu, rel=1e-9)
    assert pre.tokens_per_s_per_gpu < pre.tokens_per_step / pre.step_time_s


def test_kto_keeps_its_kl_policy_forward():
    """KTO: both reference forwards (completion and KL rows) leave the step; the no-grad policy forward over the KL
    rows stays: full, 4 (policy) + 1 (KL) + 2 (reference) = 7 units live, 5 precomputed."""
    live = _time(objective="kto", reference="separate").step_time_s
    pre = _time(objective="kto", reference="precomputed").step_time_s
    assert pre / live == pytest.approx(5.0 / 7.0, rel=0.05)


def test_sft_and_live_reference_unchanged():
    """Nothing else moves: SFT and a live reference have no precompute share (step × throughput = tokens/step)."""
    for t in (_time(objective="sft"), _time(reference="separate"), _time(objective="orpo")):
        assert t.tokens_per_s_per_gpu * t.step_time_s == pytest.approx(t.tokens_per_step, rel=1e-9)


def test_measured_mfu_keeps_the_split():
    """With a measured MFU the run's throughput is the MFU's; the step keeps the modelled split (no precompute)."""
    s = _scen(reference="precomputed")
    s2 = s.model_copy(update={"assumptions": s.assumptions.model_copy(update={"mfu": 0.4})})
    t = evaluate(s2).time
    base = _time(reference="precomputed")
    assert t.mfu == pytest.approx(0.4, rel=1e-9)
    share = base.tokens_per_step / base.tokens_per_s_per_gpu - base.step_time_s
    assert (t.tokens_per_step / t.tokens_per_s_per_gpu - t.step_time_s) / t.step_time_s == pytest.approx(
        share / base.step_time_s, rel=1e-9)


def test_vectorised_search_equals_evaluate_with_precompute():
    d = {"model": {"preset": "qwen2.5-7b"},
         "training": {"framework": "trl", "objective": "dpo", "method": "full", "seq_len": 2048,
                      "flash_attention": True, "preference": {"reference": "precomputed"}},
         "data": {"tokens": 2e8},
         "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}}
    s = scenario_from_dict(d)
    rng = np.random.default_rng(7)
    checked = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        if not len(c["tp"]):
            continue
        vec = S.evaluate_candidates(ctx, c)
        for i in rng.choice(len(c["tp"]), size=min(15, len(c["tp"])), replace=False):
            sc = S.candidate_scenario(ctx, c, int(i))
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            checked += 1
            if vec["fits"][i]:
                assert math.isclose(vec["train_hours"][i] / 24.0, ev.compute_days, rel_tol=1e-9)
                assert math.isclose(vec["mfu"][i], ev.mfu, rel_tol=1e-9)
    assert checked >= 10

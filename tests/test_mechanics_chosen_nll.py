"""TRL's NLL on the chosen rows (issue 35 round 10, helper postmem10): CPO/SimPO (``cpo_alpha``, default 1.0), ORPO
(always) and DPO with ``rpo_alpha`` compute it with their own cross-entropy on a copy of the chosen half of the
logits (huggingface/trl v0.19.0 ``trl/trainer/{cpo,orpo,dpo}_trainer.py``): ``memory.chosen_nll_bytes_per_logit``,
measured in ``tests_validate/test_chosen_nll_memory.py``."""

from __future__ import annotations

import pytest

from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.memory import chosen_nll_bytes_per_logit
from gpuplanner.core.methods import method_profile
from gpuplanner.core.scenario import scenario_from_dict

SEQ, MBS, V = 2048, 1, 152064  # Qwen2.5-7B config.json vocab_size


def _scen(objective="dpo", framework="trl", zero=2, rpo=None, **extra):
    pref = {} if rpo is None else {"rpo_alpha": rpo}
    return scenario_from_dict({
        "model": {"preset": "qwen2.5-7b"},
        "training": {"framework": framework, "objective": objective, "method": "full", "seq_len": SEQ,
                     "micro_batch_size": MBS, "global_batch_size": 16, "flash_attention": True,
                     "recompute": "full", "preference": pref, **extra},
        "parallel": {"zero": zero} if zero else {},
        "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}})


def _act(s):
    return memory_breakdown(resolve(s)).activations


def test_hand_derived_bytes():
    assert chosen_nll_bytes_per_logit(False) == 2.0  # 16-bit: the half-size copy and its log-softmax
    assert chosen_nll_bytes_per_logit(True) == 2.0  # fp32, NLL before the logps (CPO, SimPO, ORPO)
    assert chosen_nll_bytes_per_logit(True, after_logps=True) == 0.0  # fp32, DPO's rpo after them


def test_rpo_alpha_adds_two_bytes_per_logit_under_deepspeed():
    # DeepSpeed: 16-bit logits; chosen + rejected rows of SEQ tokens each
    delta = _act(_scen(rpo=1.0)) - _act(_scen())
    assert delta == pytest.approx(2.0 * (2 * SEQ * MBS) * V / 2**30, rel=1e-9)


def test_rpo_alpha_under_amp_adds_nothing():
    # the HF Trainer's AMP (no ZeRO): fp32 logits, DPO's cross-entropy after the logps fits in their backward
    assert _act(_scen(zero=0, rpo=0.1)) == pytest.approx(_act(_scen(zero=0)), rel=1e-12)


@pytest.mark.parametrize("objective", ["orpo", "cpo", "simpo"])
def test_objectives_with_the_nll_by_default(objective):
    assert method_profile(_scen(objective).training).chosen_nll
    assert not method_profile(_scen("dpo").training).chosen_nll
    assert method_profile(_scen("dpo", rpo=0.5).training).chosen_nll


def test_llamafactory_takes_the_nll_from_its_logps():
    # CustomDPOTrainer: sft_loss = -policy_chosen_logps_avg, no second cross-entropy (fp32_logps path)
    s = _scen("orpo", framework="llamafactory")
    assert method_profile(s.training).chosen_nll
    from gpuplanner.core import memory as mem

    saved = mem.chosen_nll_bytes_per_logit
    try:
        mem.chosen_nll_bytes_per_logit = lambda *a, **k: 1e6
        assert _act(s) == pytest.approx(_act(_scen("orpo", framework="llamafactory")), rel=1e-12)
        assert _act(_scen("orpo")) > _act(s) + 1000.0  # TRL's ORPO takes the (patched) charge
    finally:
        mem.chosen_nll_bytes_per_logit = saved


@pytest.mark.parametrize("objective,framework,needle", [
    ("orpo", "trl", "DPO's NLL weight"), ("kto", "ms-swift", "DPO's NLL weight"),
    ("dpo", "llamafactory", "TRL's DPOTrainer only"), ("dpo", "megatron-swift", "TRL's DPOTrainer only")])
def test_rpo_alpha_refused_outside_trl_dpo(objective, framework, needle):
    from gpuplanner.core.errors import ScenarioError

    with pytest.raises(ScenarioError, match=needle):
        _scen(objective, framework=framework, rpo=1.0)


@pytest.mark.parametrize("training", [
    {"framework": "trl", "objective": "dpo", "preference": {"rpo_alpha": 1.0}},
    {"framework": "ms-swift", "objective": "simpo"}])
def test_search_equals_evaluate(training):
    """The ranking's arrays (memory_arrays with the profile's chosen_nll) equal ``evaluate`` of each candidate."""
    from dataclasses import replace

    from gpuplanner.core import search as S
    from gpuplanner.core.evaluate import evaluate

    s = scenario_from_dict({"model": {"preset": "qwen2.5-7b"}, "training": {"seq_len": 2048, **training},
                            "data": {"tokens": 2e8},
                            "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}})
    checked = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        vec = S.evaluate_candidates(ctx, c)
        for i in range(0, len(c["tp"]), max(1, len(c["tp"]) // 10)):
            sc = S.candidate_scenario(ctx, c, int(i))
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert vec["mem_gib"][i] == pytest.approx(ev.memory.total, rel=1e-9), sc.parallel
            checked += 1
    assert checked > 3

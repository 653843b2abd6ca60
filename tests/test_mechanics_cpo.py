"""CPO (Xu et al. 2024, arXiv:2401.08417) as an objective (issue 35 round 7, helper pref7): TRL ``CPOTrainer``
(``trl/experimental/cpo/cpo_trainer.py`` at f2cd577) runs chosen and rejected in one concatenated forward, takes the
log-probabilities with ``selective_log_softmax`` and the chosen half's NLL from the same logits, with no reference
model; ms-swift ``--rlhf_type cpo`` trains it through TRL. Its step and memory are SimPO's (same passes)."""

from __future__ import annotations

import pytest

from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.methods import method_profile
from gpuplanner.core.scenario import scenario_from_dict


def _scen(objective, framework="ms-swift", method="lora"):
    return scenario_from_dict({
        "model": {"preset": "qwen2.5-7b"},
        "training": {"framework": framework, "objective": objective, "method": method, "seq_len": 2048,
                     "micro_batch_size": 1, "global_batch_size": 16, "flash_attention": True, "recompute": "full"},
        "data": {"mean_sample_len": 334, "tokens": 1e7},
        "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 2}})


@pytest.mark.parametrize("framework", ["ms-swift", "trl"])
def test_cpo_runs_simpos_passes(framework):
    cpo, simpo, dpo = (evaluate(_scen(o, framework)) for o in ("cpo", "simpo", "dpo"))
    assert cpo.time.step_time_s == pytest.approx(simpo.time.step_time_s, rel=1e-12)
    assert cpo.memory.total == pytest.approx(simpo.memory.total, rel=1e-12)
    # no reference forward: a LoRA DPO step adds the base model's forward over both rows (8 units against 6)
    assert cpo.time.step_time_s < dpo.time.step_time_s


def test_cpo_profile_is_paired_without_reference():
    t = _scen("cpo").training
    p = method_profile(t)
    assert p.seqs_per_example == 2 and p.reference == "none" and p.ref_forwards == 0.0
    assert p.models_held() == ()


def test_cpo_flagged_where_the_tool_has_no_cpo():
    """LLaMA-Factory's ``pref_loss`` has no CPO: the plan says so (evaluate's objective check), as for any objective a
    tool does not document; ms-swift and TRL document it and get no such sentence."""
    said = [m.render() for m in evaluate(_scen("cpo", "llamafactory")).messages]
    assert any("does not document the CPO objective" in x for x in said)
    for fw in ("ms-swift", "trl"):
        assert not any("does not document" in m.render() for m in evaluate(_scen("cpo", fw)).messages)

"""Issue 35 round 10 (nemorl11): a no-grad forward of an MoE model on Megatron-Core (NeMo RL's policy and reference
log-prob passes) runs every MoE layer's dispatch and combine all-to-all, as a training forward does
(``timing.EP_FORWARD_SHARE``, ``timing.nograd_moe_forward_passes``)."""
import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from gpuplanner.core import timing  # noqa: E402
from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402


def _row(rid):
    import rl_step_times as r
    for row in r.STEP_ROWS_V05:
        if row[0] == rid:
            return copy.deepcopy(row[2])
    raise KeyError(rid)


def _ep(scn):
    return estimate(scenario_from_dict(scn)).time.seconds["ep_comm"]


def test_forward_share_is_half_of_the_four_all_to_alls():
    # _ep_comm_mb counts dispatch + combine, forward + backward (4 x the routed hidden states); a forward: 2 of 4
    assert timing.EP_FORWARD_SHARE == 0.5


def test_grpo_reference_adds_one_forward_of_dispatch():
    """By hand: with a KL reference the step runs 2 no-grad forwards (the policy's log-probs and the reference's),
    without one 1, so the expert all-to-all time is (1 + 0.5 x 2) / (1 + 0.5 x 1) = 4/3 of the other's."""
    scn = _row("nemo-rl v0.5 qwen3-30b-a3b grpo 32xh100")
    no_ref = copy.deepcopy(scn)
    no_ref["training"]["preference"]["reference"] = "none"
    with_ref, without = _ep(scn), _ep(no_ref)
    assert without > 0.0
    assert with_ref / without == pytest.approx(4.0 / 3.0, rel=1e-9)


def test_passes_counted():
    scn = scenario_from_dict(_row("nemo-rl v0.5 qwen3-30b-a3b grpo 32xh100"))
    from gpuplanner.core.methods import method_profile
    prof = method_profile(scn.training)
    assert timing.nograd_moe_forward_passes(prof) == 2.0


def test_dense_model_has_no_dispatch():
    scn = _row("nemo-rl v0.5 llama3.1-8b grpo 16xh100")
    assert _ep(scn) == 0.0

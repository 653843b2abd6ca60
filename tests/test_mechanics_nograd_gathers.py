"""Under DeepSpeed ZeRO-3 the objective's no-grad forwards gather the weights again (round 8, smallmb8).

TRL's ``prepare_deepspeed`` shards a separate reference model in its own ZeRO-3 engine with the policy's config;
a LoRA run's reference and the no-grad policy forwards (KTO's KL, the old log-probabilities) run the sharded
policy. Each such forward gathers every partitioned weight once (``timing.nograd_gathers``). Hand-derived counts;
the tests fail if the reference's gather is left out, or counted where nothing is sharded."""

from __future__ import annotations

import numpy as np

from gpuplanner.core.methods import MethodProfile
from gpuplanner.core.timing import nograd_gathers


def _n(profile, framework="hf", zero=3):
    return float(nograd_gathers(profile, framework, zero, np.where))


def test_one_gather_per_no_grad_forward_in_the_step():
    dpo = MethodProfile(objective="dpo", reference="separate", ref_forwards=1.0)
    kto = MethodProfile(objective="kto", reference="separate", ref_forwards=2.0, policy_nograd_forwards=1.0)
    assert _n(dpo) == 1.0 and _n(dpo, "deepspeed") == 1.0
    assert _n(kto) == 3.0  # two reference forwards (pairs and KL sequences) and the policy's KL forward
    # LoRA: the reference is the sharded policy under disable_adapter(): the same one gather
    assert _n(MethodProfile(objective="dpo", reference="lora_base", ref_forwards=1.0)) == 1.0


def test_nothing_where_no_weight_is_gathered_in_the_step():
    pre = MethodProfile(objective="dpo", reference="precomputed", ref_forwards=1.0)
    dpo = MethodProfile(objective="dpo", reference="separate", ref_forwards=1.0)
    assert _n(pre) == 0.0  # precomputed before training: not in the step
    assert _n(dpo, zero=2) == 0.0  # ZeRO-2 keeps whole weights on every rank
    assert _n(dpo, "megatron") == 0.0 and _n(dpo, "fsdp") == 0.0  # not entered for these engines
    assert _n(MethodProfile()) == 0.0  # SFT
    # element-wise over the search's ZeRO candidates
    assert nograd_gathers(dpo, "hf", np.array([0, 1, 2, 3]), np.where).tolist() == [0.0, 0.0, 0.0, 1.0]


def test_dpo_step_pays_the_reference_gather_where_comm_is_not_overlapped():
    # ms-swift (overlap_comm false): the reference's gather is on the compute stream; DPO's data-parallel time
    # over ORPO's (no reference, same shapes) grows by about one policy gather per micro-batch
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.scenario import scenario_from_dict

    def dp(obj):
        t = evaluate(scenario_from_dict({
            "model": {"preset": "qwen2.5-7b"},
            "training": {"framework": "ms-swift", "objective": obj, "method": "full", "seq_len": 1024,
                         "micro_batch_size": 2, "global_batch_size": 16, "recompute": "full"},
            "parallel": {"zero": 3}, "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 8}})).time
        return t.seconds["dp_comm"]

    d, o = dp("dpo"), dp("orpo")
    # policy per micro-batch: forward, recompute forward, backward gathers and one reduce-scatter (≈ 4 units);
    # the reference adds one gather: DPO / ORPO ≈ 5 / 4
    assert 1.15 < d / o < 1.35

"""The last pipeline rank's max allocated (``assumptions.memory_metric = "allocated_last"``): what Megatron-LM logs
as 'mem-max-allocated-bytes' (its tensorboard writer lives on rank world_size − 1, megatron/training/global_vars.py
``_set_tensorboard_writer``). Under 1F1B that rank holds one micro-batch of its layers, the first holds up to PP."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict


def _sc(pp: int, gbs: int, metric: str = "allocated_last"):
    return scenario_from_dict({"model": {"preset": "llama-2-7b"},
                               "training": {"framework": "megatron", "seq_len": 4096, "micro_batch_size": 1,
                                            "global_batch_size": gbs, "recompute": "none", "precision": "bf16"},
                               "parallel": {"tp": 1, "pp": pp, "zero": 1},
                               "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8},
                               "assumptions": {"memory_metric": metric}})


def test_pp1_last_rank_is_the_only_rank():
    m = evaluate(_sc(1, 8)).memory
    assert m.metric("allocated_last") == pytest.approx(m.allocated)


def test_last_rank_holds_one_micro_batch_whatever_the_first_holds():
    """PP 4, DP 2: 2 micro-batches per step (global 4) put 2 in flight on the first rank, 16 put 4 there; the last
    rank runs forward-then-backward one micro-batch at a time either way, so its figure does not move."""
    few, many = evaluate(_sc(4, 4)).memory, evaluate(_sc(4, 32)).memory
    assert many.allocated > few.allocated + 0.5
    assert many.metric("allocated_last") == pytest.approx(few.metric("allocated_last"))
    assert many.metric("allocated_last") < many.allocated
    ev = evaluate(_sc(4, 32))
    assert ev.to_json()["memory_metric_gib"] == pytest.approx(many.metric("allocated_last"))


def test_megatron_mixtral_8x22b_release_log():
    """Megatron-LM's mixtral_8x22b_tp2pp8ep8vpp1_release (H100 golden values, 28,533,706,752 B logged on the last
    rank): within 6% as the last rank; the busiest (first) rank, with 8 micro-batches in flight, is twice that."""
    spec = importlib.util.spec_from_file_location(
        "pretrain_memory_rows_t", Path(__file__).resolve().parents[1] / "bench" / "pretrain_memory_rows.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    sc = mod.megatron_mixtral_test("mixtral-8x22b", 32768, 2, 8, 1, 8, 2, 256, "h100-sxm-80gb", 128)
    m = evaluate(scenario_from_dict(sc)).memory
    pub = 28533706752 / 2**30
    assert abs(pub / m.metric("allocated_last") - 1) < 0.06
    assert m.allocated > 1.8 * pub


def test_bad_metric_rejected():
    with pytest.raises(ScenarioError):
        _sc(1, 8, metric="last")


def test_agrees_with_round_8s_one_micro_batch_reading():
    """bench/validate_memory_oos8.py ``last_rank`` reads the last rank by giving the scenario one micro-batch per step
    (every rank then holds one): the core's figure is the same number, without changing the scenario."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from validate_memory_oos8 import last_rank, megatron_small

    for pp in (2, 4):
        sc = megatron_small(pp=pp, gpu="h100")
        core = evaluate(scenario_from_dict({**sc, "assumptions": {**sc.get("assumptions", {}),
                                                                   "memory_metric": "allocated_last"}}))
        assert core.memory.metric("allocated_last") == pytest.approx(last_rank(sc), rel=1e-9)

"""Round 9 (pref10) preference rows: NeMo RL's nightly DPO step bounds and open-instruct's published DPO runs

NeMo RL's ``dpo_train`` computes the reference log-probabilities in the data generator
(``add_ref_logprobs_to_data``) before ``timer.time("total_step_time")`` opens, so the published figure holds the
policy's step without the reference forward. The rows price it as ``preference.reference = precomputed``. Each
check is an upper bound (``mean(...) < X``); a row scores only when the model is slower than it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import validate_post_time as vpt  # noqa: E402


@pytest.fixture(scope="module")
def rows():
    return {r[0]: r for r in vpt.nemo_rl_bound_rows()}


def test_the_six_tests_and_their_published_bounds(rows):
    # the thresholds as written in tests/test_suites/llm/<name>.sh at NVIDIA-NeMo/RL 7ea279a
    assert {k: v[1] for k, v in rows.items()} == {
        "dpo-llama3.1-8b-instruct-4n8g-fsdp2tp4": 24.0,
        "dpo-llama3.1-8b-instruct-4n8g-megatron.v2": 11.5,
        "dpo-llama3.1-8b-instruct-4n8g-megatrontp2pp2-quick": 6.7,
        "dpo-llama3.1-8b-instruct-4n4g-megatrontp1pp2-quick": 6.7,
        "dpo-llama3.2-1b-instruct-1n8g-fsdp2tp1.v2": 1.3,
        "dpo-llama3.2-1b-instruct-1n4g-fsdp2tp1.v2": 2.5,
    }


def test_reference_forward_is_outside_the_timed_step(rows):
    # no activation checkpointing in these recipes: the policy runs forward + backward (3 forward units a row), the
    # reference one forward (1 unit): with the reference in the step the compute grows by about 4/3; communication
    # and fixed costs that do not grow keep the ratio under that
    for name, (_, _, step, step_ref, _) in rows.items():
        assert 1.05 < step_ref / step < 4.0 / 3.0 + 0.02, name


def test_megatron_8b_reference_share_is_about_one_third_of_compute(rows):
    # Megatron TP 4, no recompute: the step is mostly compute, so the reference adds close to 1/3
    _, _, step, step_ref, _ = rows["dpo-llama3.1-8b-instruct-4n8g-megatron.v2"]
    assert step_ref / step == pytest.approx(4.0 / 3.0, abs=0.06)


def test_every_row_within_its_bound_at_the_assumed_length(rows):
    for name, (_, bound, step, _, err) in rows.items():
        assert step < bound, name
        assert err == 0.0


def test_halving_the_gpus_doubles_the_1b_step(rows):
    # the same global batch (128 pairs, 2 per micro-batch) on 4 GPUs runs twice the micro-batches per GPU of 8
    a = rows["dpo-llama3.2-1b-instruct-1n4g-fsdp2tp1.v2"][2]
    b = rows["dpo-llama3.2-1b-instruct-1n8g-fsdp2tp1.v2"][2]
    assert a / b == pytest.approx(2.0, rel=0.08)


def test_error_is_bound_over_model_when_the_model_is_slower(monkeypatch):
    # a bound of half the model's step reads -50% (the model twice too slow)
    name, _, d = vpt.NEMO_RL_BOUNDS[1]
    step = vpt.nemo_rl_bound_rows()[1][2]
    monkeypatch.setattr(vpt, "NEMO_RL_BOUNDS", ((name, step / 2.0, d),))
    assert vpt.nemo_rl_bound_rows()[0][4] == pytest.approx(-0.5)


# ---- open-instruct's published DPO runs (the same bench, round 9): the training window off the plots


def test_open_instruct_steps_by_hand():
    # pairs / (32 GPUs x one pair x gradient accumulation): Tulu 3 8B 271,409 / 512 = 530; OLMo 2 378,000 / 128
    steps = {r[0]: r[4] for r in vpt.OPEN_INSTRUCT_RUNS}
    assert steps["tulu3_8b_dpo (tulu3/dpo_8b)"] == 530
    assert steps["olmo2_7b_dpo (olmo2/dpo_7b)"] == 2953
    assert steps["olmo2_13b_dpo (olmo2/dpo_13b)"] == 2953
    for _, hours, before, d, _ in vpt.OPEN_INSTRUCT_RUNS:
        assert d["training"]["preference"]["reference"] == "precomputed"  # get_cache_ref_logprobs, before step 1
        assert d["training"]["global_batch_size"] == 32 * (16 if d["model"] == {"preset": "llama-3.1-8b"} else 4)
        assert 2.0 < hours < 5.0 and 0.5 < before < 1.5


def test_open_instruct_window_excludes_the_reference_pass():
    rows = vpt.open_instruct_rows()
    for (name, pub, model_h, err, step, pre_h), (_, _, before, _, steps) in zip(rows, vpt.OPEN_INSTRUCT_RUNS):
        assert model_h == pytest.approx(steps * step / 3600.0)
        assert err == pytest.approx(pub / model_h - 1.0)
        # the reference pass the model prices before training fits in the hours before the first logged step
        # (which also hold the start-up): a test that fails if the pass were priced into the step instead
        assert 0.0 < pre_h < before, name

"""Issue 35 round 17 (memoos17): a training loop that still holds the fp32 logits through the backward pass.

prime-rl's SFT trainer at 8718eb143 (``src/prime_rl/trainer/sft/train.py``) deletes its name ``logits`` before
``backward()`` but the dict ``out`` returned by ``forward`` (``cast_float_and_contiguous``: ``.float()``) still holds
them: 4 more bytes a logit beside cross-entropy's 12 (``memory.held_logits_bytes_per_logit``)."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from gpuplanner.core import memory  # noqa: E402
from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

import validate_mem_oos17 as v  # noqa: E402

ROW_8K = ("Qwen3-0.6B", 1, 8192, "h100-sxm-80gb", 31.7421875)  # benchmark-1xh100-...-sft-full-...-8192 at 8718eb143


def _mem(sc):
    return estimate(scenario_from_dict(sc)).memory


def test_four_bytes_a_logit_by_hand():
    held, free = _mem(v.prime_scenario(ROW_8K, True)), _mem(v.prime_scenario(ROW_8K, False))
    by_hand = 4 * 8192 * 151936 / 2**30  # one fp32 copy of 8,192 × 151,936 logits: 4.636 GiB
    assert memory.held_logits_bytes_per_logit() == 4.0
    assert held.metric("allocated") - free.metric("allocated") == pytest.approx(by_hand, abs=1e-6)
    assert held.metric("reserved") - free.metric("reserved") == pytest.approx(by_hand, abs=1e-6)


def test_the_published_row_needs_it():
    """Published 31.74 GiB peak reserved: +22.6% without the held logits, +3.9% with them."""
    pub = ROW_8K[4]
    assert pub / v.prime_predict(ROW_8K, held=False) - 1 > 0.20
    assert abs(pub / v.prime_predict(ROW_8K, held=True) - 1) < 0.05


def test_default_off_and_chunked_loss_unaffected():
    sc = v.prime_scenario(ROW_8K, False)
    assert scenario_from_dict(sc).training.logits_held is False
    chunked = v.prime_scenario(ROW_8K, False)
    chunked["training"]["chunked_loss"] = True
    chunked_held = v.prime_scenario(ROW_8K, True)
    chunked_held["training"]["chunked_loss"] = True
    _mem(chunked)
    # fixes17: no longer ignored silently, refused in one line (frameworks.logits_held_unpriced)
    with pytest.raises(Exception, match="logits_held does not apply with chunked_loss"):
        _mem(chunked_held)


def test_hf_trainer_row_unaffected_by_default():
    """The fms-acceleration rows (HF Trainer) never set it: their figures are main's."""
    before = v.before()
    for row in v.ROWS:
        assert v.predict(row) == pytest.approx(before[row[0]], abs=1e-3)

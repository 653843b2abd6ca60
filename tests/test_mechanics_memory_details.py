"""Memory details of issue 35: DeepSpeed ZeRO-3's reduce bucket (deepspeed/runtime/zero/stage3.py)."""

from __future__ import annotations

import pytest

from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.memory import GIB
from gpuplanner.core.scenario import scenario_from_dict


def _ev(framework, zero):
    return evaluate(scenario_from_dict({
        "model": {"preset": "llama-3.1-8b"}, "training": {"framework": framework, "seq_len": 1024},
        "parallel": {"zero": zero}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}))


def test_zero3_reduce_bucket_is_allocated_whole():
    ds = _ev("deepspeed", 3).memory
    # the bucket (5e8 16-bit elements = 1 GB) is part of "other", beside the context and the gathered layers
    no_bucket = ds.other - 1e9 / GIB
    assert no_bucket > 0
    # the HF engine's ZeRO-3 may be FSDP (no such bucket): less "other" by the bucket (fragmentation aside)
    hf = _ev("hf", 3).memory
    assert ds.other - hf.other == pytest.approx(1e9 / GIB, rel=0.1)

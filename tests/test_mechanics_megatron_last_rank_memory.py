"""Megatron-LM logs memory on the last pipeline rank; the model's headline is the busiest rank (issue 35 round 8).

Published: Megatron-LM d98e8a64dd tests/functional_tests/test_cases/gpt/gpt3_mcore_tp1_pp4 (golden_values_dev_dgx_h100,
'mem-max-allocated-bytes' max 2.558 GiB) and gpt3_mcore_te_tp1_pp4_vp1 (3.875 GiB): 12 × 512 GPT, 8 GPUs, micro-batch
4, global batch 32, sequence 1024. Without interleaving the first rank holds pp micro-batches in flight and the last
one, so the busiest rank is well above the logged figure; with interleaving the last rank's warm-up fills it too.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from validate_memory_oos8 import last_rank, megatron_small, predict  # noqa: E402


def test_pp4_last_rank_matches_megatron_log_and_busiest_is_first_rank():
    sc = megatron_small(pp=4, gpu="h100")
    busiest, last = predict(sc), last_rank(sc)
    assert abs(last / 2.558 - 1) < 0.05
    # first rank: 4 micro-batches × 3 layers, i.e. every layer's activations once, above the last rank's 3 layers
    assert busiest > 1.3 * last


def test_interleaved_needs_no_last_rank_reading():
    sc = megatron_small(pp=4, vpp=3, gpu="h100")
    assert last_rank(sc) is None
    assert abs(predict(sc) / 3.875 - 1) < 0.05

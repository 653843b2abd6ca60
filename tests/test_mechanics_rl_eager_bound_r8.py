"""Issue 35 round 8 (rl11): the eager vLLM decode launch floor against the published eager logs that bound it.

``methods.vllm_eager_launch_s`` charges 11 kernels a decoder layer (+2 all-reduces under TP) and 12 a step, each
at ``EAGER_FWD_OP_S`` (24 µs). A larger per-layer host cost (vllm-omni issue #7960 implies ~0.8 ms a layer for
vLLM 0.29 V1 eager on a multimodal 7B) is ruled out by these eager measurements, so the floor must stay under them:

* play-verl ``logs/verl_qwen2_7b_min.log`` (verl v0.3, vLLM 0.8.3, ``enforce_eager`` True, H100, 28-layer
  Qwen2-7B, TP 1): the decode steps of the longest completion's tail, with one or two sequences live, take about
  8.1 ms each (issue 35 round 4 note, "Evidence against a round-3 constant"); the launches must fit in that step.
* vllm-project/vllm issue #4852 (2024-06, vLLM 0.5, eager mode): Qwen1.5-72B (80 layers) at TP 8 on L20s decodes
  at a TPOT of 39 ms, GPU time included.
"""

import numpy as np
import pytest

from gpuplanner.core import methods


def test_launch_floor_by_hand():
    # (28 × 11 + 12) kernels × 24 µs = 320 × 24 µs = 7.68 ms (TP 1); TP 8 adds 2 a layer: (80 × 13 + 12) × 24 µs
    assert float(methods.vllm_eager_launch_s(28, np.asarray(1.0), np)) == pytest.approx(320 * 24e-6)
    assert float(methods.vllm_eager_launch_s(80, np.asarray(8.0), np)) == pytest.approx(1052 * 24e-6)


def test_launch_floor_under_verl_7b_eager_tail_step():
    assert float(methods.vllm_eager_launch_s(28, np.asarray(1.0), np)) <= 8.1e-3


def test_launch_floor_under_vllm_issue_4852_eager_tpot():
    assert float(methods.vllm_eager_launch_s(80, np.asarray(8.0), np)) <= 39e-3

"""Issue 35 round 18 (review18): ``training.qlora_no_upcast`` (ftoos18) reaches the search and the one-plan estimate
alike: round 10's harness (every sampled candidate's memory, fit, days and cost equal ``evaluate``; ``plan --json``
reproduces with ``estimate --json``), and the plan with the switch is faster than the same plan without it."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_one_answer import _estimate_json, _plan_json  # noqa: E402
import test_one_answer_r10 as R10  # noqa: E402  (a module, so pytest does not collect its tests again here)

NO_UPCAST = {"model": {"preset": "mistral-7b-v0.1"},
             "training": {"method": "qlora", "framework": "trl", "precision": "bf16", "seq_len": 2048,
                          "micro_batch_size": 2, "global_batch_size": 16, "qlora_no_upcast": True},
             "parallel": {"zero": 0}, "data": {"tokens": 2e7},
             "constraints": {"max_gpus": 4, "gpu_candidates": ["a100-sxm-80gb"]}}


def test_search_equals_evaluate_with_the_switch(tmp_path, capsys):
    R10.test_round10_paths_search_equals_evaluate(copy.deepcopy(NO_UPCAST), tmp_path, capsys)


def test_the_switch_speeds_the_plan(tmp_path, capsys):
    p = _plan_json(tmp_path, copy.deepcopy(NO_UPCAST), capsys, top=1)["plans"][0]
    assert p["scenario"]["training"]["qlora_no_upcast"] is True
    on = _estimate_json(tmp_path, p["scenario"], capsys)
    off_d = copy.deepcopy(p["scenario"])
    off_d["training"]["qlora_no_upcast"] = False
    off = _estimate_json(tmp_path, off_d, capsys)
    assert on["compute_days"] < off["compute_days"]

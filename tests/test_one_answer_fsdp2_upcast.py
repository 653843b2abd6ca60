"""Issue 35 round 15 (mgpumem15): ``training.fsdp2_fp32_upcast`` (Accelerate <= 1.12 casting an FSDP2 LoRA model's
frozen base to fp32) reaches the search and the one-plan estimate alike: round 10's harness (every sampled
candidate's memory, fit, days and cost equal ``evaluate``; ``plan --json`` reproduces with ``estimate --json``), and
the plan with the switch holds more than the same plan without it."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_one_answer import _estimate_json, _plan_json  # noqa: E402
import test_one_answer_r10 as R10  # noqa: E402  (a module, so pytest does not collect its tests again here)

UPCAST = {"model": {"preset": "qwen2.5-7b"},
          "training": {"method": "lora", "framework": "fsdp", "fsdp_version": 2, "precision": "bf16",
                       "seq_len": 2048, "micro_batch_size": 1, "global_batch_size": 16, "fsdp2_fp32_upcast": True},
          "parallel": {"zero": 3}, "data": {"tokens": 2e7},
          "constraints": {"max_gpus": 8, "gpu_candidates": ["a100-sxm-80gb"]}}


def test_search_equals_evaluate_with_the_upcast(tmp_path, capsys):
    R10.test_round10_paths_search_equals_evaluate(copy.deepcopy(UPCAST), tmp_path, capsys)


def test_the_upcast_raises_the_plans_memory(tmp_path, capsys):
    p = _plan_json(tmp_path, copy.deepcopy(UPCAST), capsys, top=1)["plans"][0]
    on = _estimate_json(tmp_path, p["scenario"], capsys)
    off_d = copy.deepcopy(p["scenario"])
    off_d["training"]["fsdp2_fp32_upcast"] = False
    off = _estimate_json(tmp_path, off_d, capsys)
    assert off["memory_per_gpu_gib"]["weights"] < on["memory_per_gpu_gib"]["weights"]

"""Issue 35 round 17 (ftoos17): ``training.mixed_precision_off`` (the HF Trainer without --bf16: PEFT's fp32
adapters run in fp32) reaches the search and the one-plan estimate alike: round 10's harness (every sampled
candidate's memory, fit, days and cost equal ``evaluate``; ``plan --json`` reproduces with ``estimate --json``), the
search keeps the Hugging Face stack without DeepSpeed (ZeRO 0, or FSDP1 at 2/3: where the field holds), and the plan
with the switch
spends longer in the adapters' passes than the same plan without it."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_one_answer import _estimate_json, _plan_json  # noqa: E402
import test_one_answer_r10 as R10  # noqa: E402  (a module, so pytest does not collect its tests again here)

MP_OFF = {"model": {"preset": "mistral-7b-v0.1"},
          "training": {"method": "lora", "framework": "trl", "fsdp_version": 1, "precision": "bf16",
                       "seq_len": 4096, "micro_batch_size": 2, "global_batch_size": 16, "lora_targets": "attention",
                       "lora_dropout": 0.1, "mixed_precision_off": True},
          "parallel": {"zero": 3}, "data": {"tokens": 2e7},
          "constraints": {"max_gpus": 8, "gpu_candidates": ["a100-sxm-80gb"]}}


def test_search_equals_evaluate_with_the_switch(tmp_path, capsys):
    R10.test_round10_paths_search_equals_evaluate(copy.deepcopy(MP_OFF), tmp_path, capsys)


def test_the_switch_slows_the_plan(tmp_path, capsys):
    p = _plan_json(tmp_path, copy.deepcopy(MP_OFF), capsys, top=1)["plans"][0]
    assert p["scenario"]["parallel"]["zero"] in (0, 2, 3) and p["scenario"]["training"]["framework"] == "trl"
    on = _estimate_json(tmp_path, p["scenario"], capsys)
    off_d = copy.deepcopy(p["scenario"])
    off_d["training"]["mixed_precision_off"] = False
    off = _estimate_json(tmp_path, off_d, capsys)
    # the adapters' passes take longer (the casts, flops.LORA_AUTOCAST_IN); the step cannot get shorter (this plan's
    # step is bounded elsewhere, so it may stay)
    lora = "lora_adapters"
    assert on["time_parts"][lora]["seconds"] > 1.2 * off["time_parts"][lora]["seconds"]
    assert on["step_time_s"] >= off["step_time_s"] * (1 - 1e-12)

"""LoRA target ``qkv_mlp`` (round 9, geft9): AnswerDotAI/fsdp_qlora train.py @27ce87d ``lora_target_modules="all"``
= ["k_proj", "q_proj", "v_proj", "up_proj", "down_proj", "gate_proj"]: every block linear but o_proj. By hand."""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import pytest

from gpuplanner.core import flops as F
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.params import lora_io_elements, lora_params
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.core.timing import time_estimate

ROOT = Path(__file__).resolve().parents[1]


def scn(targets="qkv_mlp", preset="llama-2-7b"):
    t = {"method": "lora", "lora_rank": 64, "lora_targets": targets, "lora_dropout": 0.1, "seq_len": 2048,
         "micro_batch_size": 4, "global_batch_size": 8, "framework": "hf", "recompute": "full", "master_weights": False}
    return scenario_from_dict({"model": {"preset": preset}, "training": t,
                               "hardware": {"gpu": "rtx-4090-24gb", "num_gpus": 2}, "data": {"tokens": 1e9}})


def test_params_and_widths_by_hand():
    a = resolve(scn()).arch
    # Llama-2 7B, 32 layers, no GQA: q/k/v 4096→4096, gate/up 4096→11008, down 11008→4096; o_proj left out
    assert lora_params(a, 64, "qkv_mlp")[0] == 64 * 32 * (3 * (4096 + 4096) + 2 * (4096 + 11008) + (11008 + 4096))
    assert lora_params(a, 64, "all_linear")[0] - lora_params(a, 64, "qkv_mlp")[0] == 64 * 32 * (4096 + 4096)
    d_in, d_out = lora_io_elements(a, "qkv_mlp")
    assert (d_in, d_out) == (32.0 * (3 * 4096 + 2 * 4096 + 11008), 32.0 * (3 * 4096 + 2 * 11008 + 4096))
    assert F.lora_targets_per_layer(a, "qkv_mlp") == 6.0


def test_adapter_time_drops_by_o_proj_share():
    t6 = time_estimate(resolve(scn("qkv_mlp")))
    t7 = time_estimate(resolve(scn("all_linear")))
    # the adapter passes are counted per element of Σ fan_in and Σ fan_out: o_proj is 4096 + 4096 of 35,584 + 42,496
    ratio = t6.parts["lora_adapters"] / t7.parts["lora_adapters"]
    assert 0.86 < ratio < 0.92
    assert t6.step_time_s < t7.step_time_s
    # memory: fewer adapters and their AdamW states; never more than all_linear
    assert memory_breakdown(resolve(scn("qkv_mlp"))).metric("allocated") <= \
        memory_breakdown(resolve(scn("all_linear"))).metric("allocated")


def test_bad_target_refused():
    with pytest.raises((ScenarioError, ValueError)):
        scn("qkv_mlp_o")


def test_answerai_rows_better_than_all_linear_entry():
    for p in (ROOT, ROOT / "bench"):
        if str(p) not in sys.path:
            sys.path.insert(0, str(p))
    import validate_ft_oos9 as b
    import validate_ft_tools as vft

    rows = [r for r in b.all_rows() if r.kind == "tps"]
    assert all(r.training["lora_targets"] == "qkv_mlp" for r in rows)
    now = statistics.median(abs(vft.error(r, vft.predict(r))) for r in rows)
    # the same rows entered as all_linear (the round-9 ftoos9 entry): 14.7% median
    old = [vft.Row(r.id, r.table, r.kind, r.measured, r.model, dict(r.training, lora_targets="all_linear"),
                   gpu=r.gpu, num_gpus=r.num_gpus, parallel=r.parallel, metric=r.metric) for r in rows]
    before = statistics.median(abs(vft.error(r, vft.predict(r))) for r in old)
    assert now < before - 0.015
    assert now < 0.14

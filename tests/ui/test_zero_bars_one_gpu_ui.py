"""Round 7 (ux8): the memory chart showed ZeRO-1/2/3 bars for a one-GPU plan (7b-lora-1x4090; with QLoRA the
"ZeRO-3" bar read 7.2 GiB against the current 8.2). ZeRO splits the model states over the data-parallel ranks
(ZeRO paper section 5.1: (2 + 2 + K)·Ψ / N_d per device); with N_d = 1 no stage frees anything, so the core leaves
the ZeRO bars out at data-parallel 1 and says why in one line, which the chart shows under its legend."""

from __future__ import annotations

import json
from pathlib import Path

from gpuplanner.app.engine import live
from gpuplanner.core.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]
LORA_4090 = ROOT / "examples" / "7b-lora-1x4090.json"


def _scenario(**training) -> Scenario:
    d = json.loads(LORA_4090.read_text())
    d["training"].update(training)
    return Scenario.model_validate(d)


def test_no_zero_bars_on_one_gpu_and_one_line_why():
    for method in ("lora", "qlora"):
        res = live(_scenario(method=method), ROOT / "examples")
        assert res.evaluation is not None and res.evaluation.scenario.dp == 1
        kinds = [a.kind for a in res.alternatives]
        assert kinds[0] == "current" and "zero" not in kinds, (method, kinds)
        assert "recompute" in kinds  # the other what-ifs stay
        assert "ZeRO shards over data-parallel GPUs" in str(res.alternatives_note)


def test_zero_bars_kept_with_data_parallel_ranks():
    d = json.loads(LORA_4090.read_text())
    d["hardware"]["num_gpus"] = 2
    res = live(Scenario.model_validate(d), ROOT / "examples")
    assert res.evaluation.scenario.dp == 2
    assert sorted(a.value for a in res.alternatives if a.kind == "zero") == [1, 2, 3]
    assert res.alternatives_note is None


def test_chart_says_why_under_its_legend(qapp):
    from gpuplanner.ui.charts.memory import MemoryChart

    chart = MemoryChart()
    chart.update_from(live(_scenario(method="qlora"), ROOT / "examples"))
    assert not any(lab.startswith("ZeRO") for lab in chart.data["labels"])
    assert "this plan has one" in chart.legend_label.text()
    d = json.loads(LORA_4090.read_text())
    d["hardware"]["num_gpus"] = 2
    chart.update_from(live(Scenario.model_validate(d), ROOT / "examples"))
    assert "ZeRO-3" in chart.data["labels"] and "this plan has one" not in chart.legend_label.text()

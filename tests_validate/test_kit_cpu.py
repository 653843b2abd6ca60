"""The acceptance kit's benchmark (gpuplanner.verify.kit_bench) is a real module: imported and run here on the
CPU with gloo like any other code, in this PyTorch environment. Also the whole kit.sh, as a vendor would run it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.verify import kit_bench
from gpuplanner.verify.acceptance import analyse, parse_kit_result, render_kit

SCENARIO = {"model": {"preset": "llama-3-8b"}, "training": {"method": "full", "framework": "fsdp",
                                                            "micro_batch_size": 1, "global_batch_size": 8,
                                                            "recompute": "full"},
            "parallel": {"zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}, "data": {"tokens": "1B"}}


def _plan_json(text: str) -> dict:
    return json.loads(text.split("<<'GPUPLANNER_PLAN_EOF'\n", 1)[1].split("\nGPUPLANNER_PLAN_EOF", 1)[0])


def test_kit_bench_main_runs_on_cpu_with_gloo(tmp_path):
    s = scenario_from_dict(SCENARIO)
    plan = _plan_json(render_kit(s))
    (tmp_path / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    out = tmp_path / "res.json"
    rc = kit_bench.main(["--work", str(tmp_path), "--plan", str(tmp_path / "plan.json"), "--out", str(out),
                         "--cpu", "--ranks", "1,2"])
    assert rc == 0
    res = parse_kit_result(out.read_text(encoding="utf-8"))
    assert res.mode == "cpu" and res.backend == "gloo" and res.errors == []
    assert [r.n for r in res.train_step] == [1, 2] and [r.n for r in res.allreduce] == [2]
    a = analyse(res, s)
    assert a.measured_mfu is not None and a.measured_mfu < 0.01  # a CPU is far below an H100's peak


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash not available")
def test_kit_sh_with_hostile_model_name_runs_on_cpu(tmp_path):
    """A model named like a placeholder or a command substitution comes out literally and the kit still runs."""
    d = json.loads(json.dumps(SCENARIO))
    d["model"]["name"] = "@PY@ $(touch pwned) `touch pwned2`"
    s = scenario_from_dict(d)
    kit = tmp_path / "kit.sh"
    kit.write_text(render_kit(s), encoding="utf-8")
    out = tmp_path / "res.json"
    proc = subprocess.run(["bash", str(kit), "--cpu", "--ranks", "1", "--skip", "allreduce", "--python",
                           sys.executable, "--out", str(out)], capture_output=True, text=True, timeout=240,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not (tmp_path / "pwned").exists() and not (tmp_path / "pwned2").exists()
    res = json.loads(out.read_text(encoding="utf-8"))
    assert res["plan"]["model"] == "@PY@ $(touch pwned) `touch pwned2`"

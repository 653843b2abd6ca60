"""Issue 35, round 9 (serveoos9): vLLM V0's output processing per running request (RFC #6913), overlapped with the GPU's
step since v0.6, sets the pace of a small model at a large batch. Values by hand and against published runs."""
from __future__ import annotations

import math

import pytest

from gpuplanner.core import inference as I
from gpuplanner.core.catalog_hw import get_gpu


def _model(name: str) -> I.ServingModel:
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import Scenario
    r = resolve(Scenario.model_validate({"model": {"preset": name}}))
    return I.ServingModel.of(r.arch, r.params)


def _step(m, gid, batch, loop):
    return I.decode_step_s(m, get_gpu(gid), precision="bf16", kv_bytes=2.0, batch=batch, context=200, tp=1,
                           eff=I.ServingEfficiency(), loop=loop)


def test_output_processing_by_hand():
    # RFC #6913: 0.2 ms at batch 1, 3.4 ms at batch 32
    assert I.v0_output_processing_s(1) == pytest.approx(0.2e-3)
    assert I.v0_output_processing_s(32) == pytest.approx(3.4e-3)
    assert I.v0_output_processing_s(164) == pytest.approx(0.2e-3 + 3.2e-3 / 31 * 163)


def test_serial_step_is_the_longer_of_gpu_and_output_processing():
    m = _model("qwen2.5-0.5b")
    t_none, _ = _step(m, "h100-sxm-80gb", 164, "none")
    t_serial, bound = _step(m, "h100-sxm-80gb", 164, "serial")
    host = I.exposed_host_s(m, t_none, "serial")
    assert t_serial == pytest.approx(t_none + host + max(0.0, I.v0_output_processing_s(164) - t_none))
    assert bound == "host"
    # a large model's GPU step hides it: only the serial host figure adds
    m8 = _model("llama-3-8b")
    t8, _ = _step(m8, "a100-sxm-80gb", 32, "none")
    t8s, _ = _step(m8, "a100-sxm-80gb", 32, "serial")
    assert t8s == pytest.approx(t8 + I.exposed_host_s(m8, t8, "serial"))


@pytest.mark.parametrize("loop", ["none", "overlapped"])
def test_other_loops_unchanged(loop):
    m = _model("qwen2.5-0.5b")
    t, _ = _step(m, "h100-sxm-80gb", 164, loop)
    t_none, _ = _step(m, "h100-sxm-80gb", 164, "none")
    assert t == pytest.approx(t_none + I.exposed_host_s(m, t_none, loop))


def test_accelmark_v0_tiny_model_offline_within_half():
    """AccelMark @5797fc4, vLLM 0.7.3, Qwen2.5-0.5B-Instruct on one A100-SXM4-80GB, 200 short ShareGPT prompts at once
    (suite F, offline): 10,940.86 output tok/s. Before round 9 the model gave 56,399 (+415%)."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import validate_serve_oos9 as v
    _, _, tok_s, run = v.accel_row("a100-sxm-80gb", "F", "0.7.3", 28.88, 3.83, 10940.86)
    assert run is not None and math.isfinite(tok_s)
    assert abs(tok_s / 10940.86 - 1) < 0.5

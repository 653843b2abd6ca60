"""Issue 35, round 10 (v0serve10): vLLM V0 as its own engine loop (``v0``): V0's host work per decode step (the
project's V0 figure, vLLM RFC #6854 / #6801: 4 ms a step + 80 µs a running request) counted in the exposed host time,
and V0's prefill without CUDA graphs in the first token. Values by hand and against published runs."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gpuplanner.core import inference as I
from gpuplanner.core import methods as M
from gpuplanner.core.catalog_hw import get_gpu


def _model(name: str) -> I.ServingModel:
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import Scenario
    r = resolve(Scenario.model_validate({"model": {"preset": name}}))
    return I.ServingModel.of(r.arch, r.params)


def _step(m, gid, batch, loop, tp=1):
    return I.decode_step_s(m, get_gpu(gid), precision="bf16", kv_bytes=2.0, batch=batch, context=200, tp=tp,
                           eff=I.ServingEfficiency(), loop=loop)


def _oos9():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import validate_serve_oos9 as v
    return v


def test_v0_host_by_hand():
    # RFC #6854: ~4 ms a decode step; RFC #6801: 20 ms at a batch of 200 -> (20 - 4) / 200 = 80 us a request
    assert M.ENGINE_STEP_S == pytest.approx(4e-3) and M.ENGINE_SEQ_S == pytest.approx(80e-6)
    m = _model("llama-3-8b")
    assert I.engine_host_s(m, "v0") == pytest.approx(4.08e-3)
    assert I.engine_host_s(m, "v0", batch=64) == pytest.approx(4e-3 + 64 * 80e-6)
    # serial: the GPU waits for it whole, or once per scheduling pass
    assert I.exposed_host_s(m, 5e-3, "v0", batch=32) == pytest.approx(6.56e-3)
    assert I.exposed_host_s(m, 5e-3, "v0", batch=32, steps_per_schedule=10) == pytest.approx(0.656e-3)
    # the other loops keep V1's fixed figure whatever the batch
    assert I.exposed_host_s(m, 5e-3, "serial", batch=32) == pytest.approx(0.43e-3)
    assert I.exposed_host_s(m, 5e-3, "overlapped", batch=32) == 0.0
    with pytest.raises(ValueError):
        I.engine_host_s(m, "v1")


def test_v0_decode_step_adds_its_host_work_once():
    """The step is the GPU's plus V0's host work; RFC #6801's per-request part holds the output processing, so the
    serial loop's overlapped output-processing term (round 9) is not added again."""
    m = _model("qwen2.5-0.5b")
    t_none, _ = _step(m, "h100-sxm-80gb", 164, "none")
    t_v0, bound = _step(m, "h100-sxm-80gb", 164, "v0")
    assert t_v0 == pytest.approx(t_none + 4e-3 + 164 * 80e-6)
    assert bound == "host"  # 17.1 ms of host against a ~1.5 ms GPU step
    m70 = _model("llama-3-70b")
    t70, _ = _step(m70, "h200-sxm-141gb", 1, "none", tp=8)
    t70v, b70 = _step(m70, "h200-sxm-141gb", 1, "v0", tp=8)
    assert t70v - t70 == pytest.approx(4.08e-3)
    assert b70 == "memory"  # 4 ms of host under a ~9.8 ms GPU step: the weights still set the pace


def test_v0_first_token_pays_the_eager_prefill():
    """V0's prefill runs without CUDA graphs: every kernel's Python launch adds (11 a layer, 2 more under TP, 12 a
    step, 24 us each) beside V0's host step. Llama 3 8B TP1: 364 kernels, 8.74 ms; Llama 3 70B TP8: 80 x 13 + 12 =
    1,052 kernels, 25.25 ms."""
    for name, gid, tp, kernels in (("llama-3-8b", "h100-sxm-80gb", 1, 364), ("llama-3-70b", "h200-sxm-141gb", 8, 1052)):
        m, g = _model(name), get_gpu(gid)
        kw = dict(prompt_tokens=204, precision="bf16", tp=tp)
        gap = I.time_to_first_token_s(m, g, loop="v0", **kw) - I.time_to_first_token_s(m, g, **kw)
        assert gap == pytest.approx(kernels * 24e-6 + 4.08e-3)
        # the generic serial loop keeps its graphed prefill and V1's host figure
        gap_serial = I.time_to_first_token_s(m, g, loop="serial", **kw) - I.time_to_first_token_s(m, g, **kw)
        assert gap_serial == pytest.approx(0.43e-3)


def test_plans_never_use_v0():
    """No engine the planner sizes for runs V0: every plan's step and first token are unchanged."""
    assert "v0" not in I.ENGINE_LOOP.values()
    assert set(I.ENGINE_LOOP.values()) <= set(I.ENGINE_LOOPS)


@pytest.mark.parametrize("card,suite,ttft,tpot,before_ttft,before_tpot", [
    # AccelMark @5797fc4, vLLM 0.7.3 (V0), interactive p50 (ms). Before round 10: TTFT -42%/-77%, TPOT +13%/+46% tok/s
    ("a800-sxm-80gb", "B", 81.80, 18.08, -0.42, 0.13),
    ("a800-sxm-80gb", "G", 52.14, 6.85, -0.77, 0.46),
])
def test_accelmark_v0_latency_rows(card, suite, ttft, tpot, before_ttft, before_tpot):
    v = _oos9()
    f, t, _, _ = v.accel_row(card, suite, "0.7.3", ttft, tpot, 0.0)
    assert abs(f / ttft - 1) < 0.55 and abs(f / ttft - 1) < abs(before_ttft) - 0.2
    assert abs(tpot / t - 1) < 0.25 and abs(tpot / t - 1) < abs(before_tpot)


def test_accelmark_v0_offline_70b_tp8():
    """AccelMark @5797fc4, vLLM 0.7.3, Llama-3-70B-Instruct TP8 on 8 x A100-SXM4-40GB, 100 prompts at once: 1,704.46
    output tok/s; +28% before round 10, now within 10%."""
    v = _oos9()
    run = v.offline_run("a100-sxm-40gb", "B", "0.7.3")
    assert abs(run.output_tokens_per_s / 1704.46 - 1) < 0.10

"""Issue 35 round 18 (servoos18): SGLang's prefill runs as a forward of its own (inf.separate_prefill_step_s), and the
SGLang v0.3 / vLLM v0.6 online rows (bench/validate_serve_oos18.py) before and after."""
from __future__ import annotations

import importlib.util
import pathlib

import pytest

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario

ROOT = pathlib.Path(__file__).resolve().parents[1]
EFF = inf.ServingEfficiency()


def _bench():
    spec = importlib.util.spec_from_file_location("validate_serve_oos18", ROOT / "bench" / "validate_serve_oos18.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _model(preset):
    r = resolve(Scenario.model_validate({"model": {"preset": preset}}))
    return inf.ServingModel.of(r.arch, r.params)


def _one(m, gpu, tokens):
    return inf._prefill_step_s(m, gpu, precision="bf16", tokens=tokens, prior=0.0, tp=1, eff=EFF)


def test_separate_prefill_by_hand():
    m, gpu = _model("llama-3.1-8b"), get_gpu("a100-sxm-80gb")
    kw = dict(precision="bf16", tp=1, eff=EFF)
    # a quarter of a prompt a step: one whole forward every fourth step
    got = inf.separate_prefill_step_s(m, gpu, prompt=226, arrivals=0.25, chunk=8192, **kw)
    assert got == pytest.approx(0.25 * _one(m, gpu, 226))
    # three prompts a step run together in one forward of 678 tokens
    got = inf.separate_prefill_step_s(m, gpu, prompt=226, arrivals=3.0, chunk=8192, **kw)
    assert got == pytest.approx(_one(m, gpu, 678))
    # the chunk binds: 100,000 tokens a step in forwards of 8,192
    got = inf.separate_prefill_step_s(m, gpu, prompt=1000, arrivals=100.0, chunk=8192, **kw)
    assert got == pytest.approx(100000 / 8192 * _one(m, gpu, 8192))
    assert inf.separate_prefill_step_s(m, gpu, prompt=1000, arrivals=0.0, chunk=8192, **kw) == 0.0
    # a lone 226-token forward reads the 16 GB of weights itself: at least the weight stream (~9 ms on an A100)
    read = inf.weight_bytes(m, "bf16") / (gpu.mem_bw_tbs * 1e12 * inf.bandwidth_fraction(gpu, EFF))
    assert _one(m, gpu, 226) >= read
    assert inf.SEPARATE_PREFILL_ENGINES == ("sglang",)


def test_replica_stall_per_engine():
    m, gpu = _model("llama-3.1-8b"), get_gpu("h100-sxm-80gb")
    kw = dict(precision="bf16", kv_precision=None, context=3840, prompt=3584, output=512, tp=1,
              tokens_per_s_per_user=20.0)
    v = inf.replica(m, gpu, engine="vllm", **kw)
    # vLLM V1 mixes the prompt into the decode step: b·prefill/output a step, as before this round
    assert v.output_tokens_per_s == pytest.approx(v.batch / (v.step_s + v.batch * v.prefill_s / 512))
    s = inf.replica(m, gpu, engine="sglang", **kw)
    per_step = inf.separate_prefill_step_s(m, gpu, precision="bf16", prompt=3584, arrivals=s.batch / 512, tp=1,
                                           eff=EFF, chunk=inf.prefill_chunk_tokens("sglang", gpu))
    assert s.output_tokens_per_s == pytest.approx(s.batch / (s.step_s + per_step))
    # prefill_s stays a per-request figure, so load_latency's mean stall is the same per-step time
    assert s.batch / 512 * s.prefill_s == pytest.approx(per_step)


def test_online_rows_before_after():
    b = _bench()
    assert len(b.ROWS) == 8
    assert b.ROWS[0] == ("llama-3.1-8b", "a100-sxm-80gb", 1, "sglang", 4, 1564.17, 31.98, 13.17)
    assert b.ROWS[-1] == ("llama-3.1-70b", "h100-sxm-80gb", 4, "vllm", 8, 3752.38, 207.12, 29.15)
    before, after = b.group_stats(b.rows()), b.group_stats(b.rows(after=True))
    n, med, p9, _ = before["fixed load TPOT"]
    assert n == 8 and med == pytest.approx(23.5, abs=0.1) and p9 == pytest.approx(35.4, abs=0.1)
    n, med, p9, _ = after["fixed load TPOT"]
    assert med == pytest.approx(8.4, abs=0.1) and p9 == pytest.approx(15.7, abs=0.1)
    assert after["TPOT sglang"][1] < 6.0 and after["TPOT sglang"][2] < 12.0
    assert before["fixed load TTFT"][1] == pytest.approx(68.6, abs=0.1)
    assert after["fixed load TTFT"][1] == pytest.approx(12.0, abs=0.1)
    # SGLang's first token does not change (one step a pass); vLLM's waits for half its 10-step pass
    assert after["TTFT sglang"] == before["TTFT sglang"]

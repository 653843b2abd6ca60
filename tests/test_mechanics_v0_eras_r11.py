"""Issue 35, round 11 (serve11): vLLM V0's host work per decode step by release. ``v0`` (vLLM <= 0.5) keeps the RFCs'
4 ms + 80 us a running request; ``v0async`` (vLLM 0.6.0 on) takes off what PR #7162 and PR #7117 measured per running
request and the output processing of a one-request step (async output processing). V0 sees a stop only when it
processes a step's output: multi-step passes run to their end, async output processing one step more. Values by hand
and against published runs."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gpuplanner.core import inference as I
from gpuplanner.core.catalog_hw import get_gpu


def _model(name: str) -> I.ServingModel:
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import Scenario
    r = resolve(Scenario.model_validate({"model": {"preset": name}}))
    return I.ServingModel.of(r.arch, r.params)


def _bench(name: str):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    return __import__(name)


def test_pr_savings_by_hand():
    # PR #7162: 1,000 requests of 256 output tokens at 256 running = 1,000 decode steps;
    # 1000/19.48 - 1000/24.32 = 10.217 s saved -> 10.217 ms a step -> 39.9 us a running request
    assert I.pr_saving_per_request_s(I.VLLM_PR7162_AB) == pytest.approx((1000 / 19.48 - 1000 / 24.32) / 1000 / 256)
    assert I.pr_saving_per_request_s(I.VLLM_PR7162_AB) == pytest.approx(39.9e-6, abs=0.1e-6)
    # PR #7117: the means of three trials each, 24.240 and 24.617 req/s: 0.631 s saved -> 2.47 us
    assert I.pr_saving_per_request_s(I.VLLM_PR7117_AB) == pytest.approx(2.47e-6, abs=0.01e-6)


def test_eras_by_hand():
    fixed, per = I.VLLM_V0_ERAS["v0"]
    assert (fixed, per) == (pytest.approx(4e-3), pytest.approx(80e-6))
    fixed, per = I.VLLM_V0_ERAS["v0async"]
    assert fixed == pytest.approx(4e-3 - 0.2e-3)  # RFC #6854 less RFC #6913's one-request output processing
    assert per == pytest.approx(80e-6 - 39.9e-6 - 2.47e-6, abs=0.1e-6)  # 37.6 us
    m = _model("llama-3-8b")
    assert I.engine_host_s(m, "v0async", batch=68) == pytest.approx(3.8e-3 + 68 * per)
    assert I.exposed_host_s(m, 5e-3, "v0async", batch=68, steps_per_schedule=10) == pytest.approx(
        (3.8e-3 + 68 * per) / 10)
    # the round-10 loop is unchanged
    assert I.engine_host_s(m, "v0", batch=64) == pytest.approx(4e-3 + 64 * 80e-6)


def test_loop_by_release():
    assert I.vllm_v0_loop("0.5.3") == "v0" and I.vllm_v0_loop("0.5.4") == "v0" and I.vllm_v0_loop("0.5") == "v0"
    for v in ("0.6.0", "0.6.3.post1", "0.7.3", "0.8.5", "0.6"):
        assert I.vllm_v0_loop(v) == "v0async"
    assert "v0async" in I.ENGINE_LOOPS


def test_extra_steps_past_the_stop():
    assert I.v0_extra_steps(256, "v0async") == 1  # async output processing: one step late
    assert I.v0_extra_steps(250, "v0async", 8) == 6 + 1  # the pass of 8 ends at 256
    assert I.v0_extra_steps(256, "v0async", 8) == 1
    assert I.v0_extra_steps(250, "v0", 8) == 6
    assert I.v0_extra_steps(250, "v0") == 0
    for loop in ("overlapped", "serial", "none"):
        assert I.v0_extra_steps(250, loop, 8) == 0


def test_extra_steps_cost_time_not_tokens():
    """The steps past the stop take GPU time but return no token: the run's tokens are the requests' outputs."""
    m, g = _model("llama-3-8b"), get_gpu("h100-sxm-80gb")
    kw = dict(prompts=[256.0] * 20, outputs=[250.0] * 20, requests=200, precision="bf16", max_batch=256,
              budget=(8192, 256))
    one = I.max_load_run(m, g, loop="v0async", steps_per_schedule=1, **kw)
    eight = I.max_load_run(m, g, loop="v0async", steps_per_schedule=8, **kw)
    for run in (one, eight):
        assert run.output_tokens_per_s * run.duration_s == pytest.approx(200 * 250)
    assert one.steps == 251 and eight.steps == 257  # 250 tokens + 1 (async); + 6 to the pass's end


def test_plans_never_use_v0_loops():
    assert not set(I.ENGINE_LOOP.values()) & set(I.VLLM_V0_ERAS)


def test_new_v0_rows_before_after():
    """bench/validate_serve_oos11.py: the V0 0.5 rows (before PR #7162) keep the round-10 loop; the rows of 0.6 builds
    use ``v0async``."""
    v = _bench("validate_serve_oos11")
    assert v.loop_of("0.5") == "v0" and v.loop_of("0.6") == "v0async"


@pytest.mark.parametrize("card,tok_s", [("h100-sxm-80gb", 5113.45), ("h200-sxm-141gb", 5730.96),
                                        ("a100-sxm-80gb", 2696.82)])
def test_accelmark_v073_offline_closer(card, tok_s):
    """AccelMark @5797fc4, vLLM 0.7.3 (V0), Llama-3-8B-Instruct, 100 prompts at once (held out: not used to size
    anything). Round 10 (``v0``): -30%, -34%, -15%; now within 21%."""
    v = _bench("validate_serve_oos9")
    new = v.offline_run(card, "A", "0.7.3").output_tokens_per_s / tok_s - 1
    prefill = v.inf.max_load_run  # same function, the round-10 loop
    preset, tp, scale, data, _m, tmpl, out_mean, cap, mml = v.SUITES["A"]
    old = prefill(v.model(preset), get_gpu(card), prompts=[(p + tmpl) * scale for p in data],
                  outputs=v.clipped_outputs(out_mean, cap, len(data)), requests=len(data), precision="bf16", tp=tp,
                  engine="vllm", utilization=0.90, max_batch=512, loop="v0",
                  budget=v.run_budget(card, "0.7.3", True, mml, 512)).output_tokens_per_s / tok_s - 1
    assert abs(new) < abs(old) and abs(new) < 0.21


# --- V1 / SGLang chunked prefill in an idle replica's first token (serve11) ---------------------------------------

def test_prefill_chunk_tokens_by_engine_and_card():
    """vLLM V1's OpenAI-server budget (8,192 on cards of 70 GiB+ other than the A100, else 2,048), SGLang's
    chunked_prefill_size by card memory, TensorRT-LLM none (chunked context off by default)."""
    assert I.prefill_chunk_tokens("vllm", get_gpu("h100-sxm-80gb")) == 8192
    assert I.prefill_chunk_tokens("vllm", get_gpu("a100-sxm-80gb")) == 2048
    assert I.prefill_chunk_tokens("vllm", get_gpu("rtx-4090-24gb")) == 2048
    assert I.prefill_chunk_tokens("sglang", get_gpu("h100-sxm-80gb")) == 8192
    assert I.prefill_chunk_tokens("sglang", get_gpu("a100-sxm-40gb")) == 4096
    assert I.prefill_chunk_tokens("sglang", get_gpu("rtx-4090-24gb")) == 2048
    assert I.prefill_chunk_tokens("tensorrt-llm", get_gpu("h100-sxm-80gb")) is None


def test_short_prompt_is_one_step():
    m, g = _model("llama-3.1-8b"), get_gpu("a100-sxm-80gb")
    kw = dict(precision="bf16", tp=1, loop="overlapped")
    for p in (200, 2048):
        assert I.time_to_first_token_s(m, g, prompt_tokens=p, chunk=2048, **kw) == \
            I.time_to_first_token_s(m, g, prompt_tokens=p, **kw)


def test_long_prompt_runs_one_step_per_chunk():
    """8,192 tokens under a 2,048 budget: four steps, each its own forward (weights, kernels, host step) with its
    attention to the chunks before it; within a few percent of one forward, and slower."""
    m, g = _model("llama-3.1-8b"), get_gpu("a100-sxm-80gb")
    kw = dict(precision="bf16", tp=1, loop="overlapped")
    whole = I.time_to_first_token_s(m, g, prompt_tokens=8192, **kw)
    chunked = I.time_to_first_token_s(m, g, prompt_tokens=8192, chunk=2048, **kw)
    host = I.engine_host_s(m, "overlapped")
    by_hand = sum(I._prefill_step_s(m, g, precision="bf16", tokens=2048.0, prior=2048.0 * i, tp=1,
                                    eff=I.ServingEfficiency()) + host for i in range(4))
    assert chunked == pytest.approx(by_hand)
    assert whole < chunked < 1.15 * whole


def test_chunk_attention_sums_to_the_causal_prompt():
    """A chunk of s tokens after `prior` ones: 4·s·prior + 2·s² attention FLOPs per layer-head-dim (the chunk's causal
    part is prefill_s's 2·s²); over the chunks that is 2·P², the whole prompt's."""
    p, n = 8192, 4
    s = p / n
    assert sum(4 * s * (i * s) + 2 * s * s for i in range(n)) == pytest.approx(2 * p * p)


def test_plan_first_token_uses_the_engine_chunk():
    m, g = _model("llama-3.1-8b"), get_gpu("a100-sxm-80gb")
    kw = dict(concurrency=4, context_tokens=8192 + 256, prompt_tokens=8192, output_tokens=256)
    size = I.size_serving(m, g, engine="vllm", **kw)
    want = I.time_to_first_token_s(m, g, prompt_tokens=8192, precision="bf16", tp=size.tp, loop="overlapped",
                                   chunk=2048) + 0.002  # issue 35 r12: vLLM's API-server tokenizer window, 2 ms
    assert size.ttft_s == pytest.approx(want)
    trt = I.size_serving(m, g, engine="tensorrt-llm", **kw)
    assert trt.ttft_s == pytest.approx(I.time_to_first_token_s(m, g, prompt_tokens=8192, precision="bf16",
                                                               tp=trt.tp, loop="overlapped"))


def test_last_chunk_is_the_remainder():
    """vLLM's scheduler gives a prompt min(tokens left, budget) a step: 8,193 tokens under 8,192 are a full chunk and a
    one-token chunk."""
    m, g = _model("llama-3.1-8b"), get_gpu("h100-sxm-80gb")
    kw = dict(precision="bf16", tp=1, loop="overlapped")
    host = I.engine_host_s(m, "overlapped")
    eff = I.ServingEfficiency()
    by_hand = (I._prefill_step_s(m, g, precision="bf16", tokens=8192.0, prior=0.0, tp=1, eff=eff) + host
               + I._prefill_step_s(m, g, precision="bf16", tokens=1.0, prior=8192.0, tp=1, eff=eff) + host)
    assert I.time_to_first_token_s(m, g, prompt_tokens=8193, chunk=8192, **kw) == pytest.approx(by_hand)

"""Issue 35, round 17 (servadv17): a serving plan that meets its mean time per token but whose p95 step carries a
whole prompt's prefill says so, and names the engine setting that bounds the stall (a smaller chunked-prefill token
budget: vLLM ``--max-num-batched-tokens``, SGLang ``--chunked-prefill-size`` with ``--enable-mixed-chunk``,
TensorRT-LLM ``--enable_chunked_prefill --max_num_tokens``) with the p95s that budget gives
(``inference.stall_advice``, through ``inference.load_latency``). Sizing is unchanged. Every expected value is derived
by hand below."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplanner.core import inference as inf
from gpuplanner.core.serving_facts import serving_lines, stall_line


def _rp(b, t, pre):
    return inf.ReplicaPoint(tp=1, batch=b, max_batch_memory=b, step_s=t, prefill_s=pre, output_tokens_per_s=1.0,
                            bound="memory", memory_per_gpu_gib=1.0)


def _advice(rp, tps, engine="tensorrt-llm", prompt=3584, output=512):
    return inf.stall_advice(rp, prompt=prompt, output=output, engine=engine, gpu=None, idle_ttft_s=0.25,
                            tokens_per_s_per_user=tps)


def test_whole_prompt_engine_gets_the_budget_that_keeps_p95_within_one_gap():
    # TensorRT-LLM without chunked context, 50 users, 3,584 / 512, a 20 ms step and a 200 ms whole-prompt prefill:
    # 50/512 = 0.098 prompts a step, Poisson: P(0) = e^-0.098 = 0.907 < 0.95, so the p95 step carries one prompt,
    # 220 ms = 4.4 gaps of 50 ms (20 tokens/s). A budget B leaves B - 50 tokens for the prompt: the stall is
    # 0.2 * (B - 50) / 3584, within the gap when B - 50 <= 0.03 / 0.2 * 3584 = 537.6, i.e. B <= 587: 512 (768 gives
    # 20 + 0.2 * 718 / 3584 = 60.1 ms). At 512 the prompt rides ceil(3584 / 462) = 8 steps, 8 x 0.098 = 78% of steps.
    adv = _advice(_rp(50, 0.020, 0.200), 20.0)
    assert adv["stall_budget"] == 512
    assert adv["stall_p95_itl_s"] == pytest.approx(0.020 + 0.200 * 462 / 3584)  # 45.8 ms
    assert adv["stall_p95_ttft_s"] == pytest.approx(0.25 + 0.95 * (0.020 + 50 / 512 * 0.200) + 8 * 0.020)


def test_no_advice_within_two_gaps_or_offline():
    # 4 tokens/s: a 250 ms gap, 220 ms < 2 gaps; an offline job (no per-user rate) has no gap at all
    assert _advice(_rp(50, 0.020, 0.200), 4.0) == {}
    assert _advice(_rp(50, 0.020, 0.200), None) == {}


def test_floor_and_a_budget_the_prompts_outrun():
    # a 1 s prefill: even 512 (462 prompt tokens a step, 129 ms stall) misses the gap; the floor is offered, the
    # lowest p95 tried (vLLM PR #4580's first default, no lower)
    adv = _advice(_rp(50, 0.020, 1.0), 20.0)
    assert adv["stall_budget"] == inf.STALL_BUDGET_FLOOR == 512
    assert adv["stall_p95_itl_s"] == pytest.approx(0.020 + 462 / 3584)
    # 200 users, 128-token answers: 1.56 prompts a step, so even 8,192 tokens' chunks fill every step (share >= 1):
    # no smaller budget keeps up with the arrivals, nothing to advise
    assert _advice(_rp(200, 0.020, 0.200), 20.0, output=128) == {}


def _example_serving():
    from gpuplanner.core.project import Project, evaluate_project
    from gpuplanner.core.scenario import Scenario

    path = Path(__file__).resolve().parents[1] / "examples" / "shenzhen-7b-domain-project.gpuplan"
    data = json.loads(path.read_text(encoding="utf-8"))
    res = evaluate_project(Project.model_validate(data["project"]), Scenario.model_validate(data["scenario"]),
                           what_if=False)
    return res, next(p.serving for p in res.phases if p.serving is not None)


def test_shenzhen_example_advises_512_tokens_and_keeps_its_sizing():
    # vLLM on an A800 (8,192-token budget), 50 users, 3,584 / 512, 20 tokens/s: the p95 step carries a whole prompt,
    # step + prefill = 253 ms, 5.1 gaps of 50 ms. At 512 tokens the stall is prefill x 462 / 3584 (49 ms in all), and
    # a new prompt rides 8 steps: first token = idle + 0.95 x (step + 50/512 x prefill) + 8 x step (435 ms)
    res, s = _example_serving()
    t, pre = s.step_s, s.prefill_s
    assert s.p95_itl_s == pytest.approx(t + pre)
    assert s.stall_budget == 512
    assert s.stall_p95_itl_s == pytest.approx(t + pre * 462 / 3584)
    assert s.stall_p95_ttft_s == pytest.approx(s.ttft_s + 0.95 * (t + 50 / 512 * pre) + 8 * t)
    assert round(s.p95_itl_s * 1e3) == 253 and round(s.stall_p95_itl_s * 1e3) == 49
    assert round(s.stall_p95_ttft_s * 1e3) == 435
    # the sizing is the plan's own: 1 replica of 50 users
    assert s.replicas == 1 and s.batch_per_replica == 50
    line = stall_line(s).render()
    assert "5.1 times the 50 ms gap" in line and "--max-num-batched-tokens 512" in line
    assert "95% within 49 ms, 95% of first tokens within 435 ms" in line and "docs.vllm.ai" in line
    assert stall_line(s) in serving_lines(s)
    # the CLI's text and --json carry it (the same Answer)
    from gpuplanner.commands.project import text_lines
    assert "--max-num-batched-tokens 512" in "\n".join(text_lines(res))
    assert s.to_json()["stall_budget"] == 512

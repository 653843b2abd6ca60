"""Issue 35, round 17 (servoos17, advice17): a serving plan's 95th-percentile inter-token latency and first token under
continuous batching (``inference.load_latency``, from the prefill stalls the sizer already counts) and an offline job's
documents- or tokens-per-second target sizing the replicas (``InferenceSpec.documents_per_s`` /
``output_tokens_per_s``, ``inference.offline_replicas``). Every expected value is derived by hand below."""
from __future__ import annotations

import math

import pytest

from gpuplanner.core import inference as inf
from gpuplanner.core.project import InferenceSpec
from gpuplanner.core.serving_facts import load_latency_line, offline_line


def _rp(b, t, pre):
    return inf.ReplicaPoint(tp=1, batch=b, max_batch_memory=b, step_s=t, prefill_s=pre, output_tokens_per_s=1.0,
                            bound="memory", memory_per_gpu_gib=1.0)


def test_poisson_quantile_by_hand():
    # P(N = 0) = e^-0.05 = 0.951 >= 0.95: no prompt in the p95 step; e^-0.1 = 0.905, + 0.0905 = 0.995: one
    assert inf.poisson_quantile(0.05) == 0
    assert inf.poisson_quantile(0.1) == 1
    # mean 1: 0.368, 0.736, 0.920, 0.981 -> 3
    assert inf.poisson_quantile(1.0) == 3


def test_chunked_prompt_within_budget_stalls_one_step_in_ten():
    # vLLM on a large card (8,192-token budget), 50 users, 3,584-token prompts, 512-token answers: 50/512 = 0.098 new
    # requests a step, each prompt fits one step whole (8,142 tokens of room), so 9.8% of steps carry a 200 ms prompt
    # and the p95 step is one of them; the mean stall (what the latency target is held to) is 0.098 x 200 ms
    ll = inf.load_latency(_rp(50, 0.020, 0.200), prompt=3584, output=512, chunk=8192, idle_ttft_s=0.25)
    assert ll.stalled_share == pytest.approx(50 / 512)
    assert ll.itl_s == pytest.approx(0.220)
    assert ll.ttft_s == pytest.approx(0.25 + 0.95 * (0.020 + 50 / 512 * 0.200) + 0.020)
    # the stalled steps' share times their stall is the mean stall (the two views agree)
    assert ll.stalled_share * (ll.itl_s - 0.020) == pytest.approx(50 / 512 * 0.200)


def test_rare_prefills_leave_the_p95_step_plain():
    # 10 users, 512-token answers: 2% of steps carry a prompt, under the 5% tail: p95 = the plain decode step
    ll = inf.load_latency(_rp(10, 0.015, 0.200), prompt=3584, output=512, chunk=8192, idle_ttft_s=0.25)
    assert ll.itl_s == pytest.approx(0.015)


def test_saturated_budget_spreads_the_stall_over_every_step():
    # 256 users, 128-token answers, 2,048-token prompts, a 2,048-token budget: 1,792 tokens of room, 2 steps a prompt,
    # 2 x 2 = 4 > 1 stalled steps per step: every step carries prefill, the mean stall 2 x pre
    ll = inf.load_latency(_rp(256, 0.030, 0.100), prompt=2048, output=128, chunk=2048, idle_ttft_s=0.2)
    assert ll.stalled_share == 1.0
    assert ll.itl_s == pytest.approx(0.030 + 2 * 0.100)
    assert ll.ttft_s == pytest.approx(0.2 + 0.95 * (0.030 + 0.200) + 2 * 0.030)


def test_whole_prompt_engine_counts_poisson_prompts_per_step():
    # TensorRT-LLM (no chunked context): 50/512 = 0.098 prompts a step, Poisson: the p95 step holds one whole prompt
    ll = inf.load_latency(_rp(50, 0.020, 0.200), prompt=3584, output=512, chunk=None, idle_ttft_s=0.25)
    assert ll.itl_s == pytest.approx(0.220)
    assert ll.ttft_s == pytest.approx(0.25 + 0.95 * (0.020 + 50 / 512 * 0.200) + 0.020)
    assert ll.stalled_share == pytest.approx(1 - math.exp(-50 / 512))


def test_offline_replicas_and_fields():
    assert inf.offline_replicas(1000.0, 300.0) == 4
    assert inf.offline_replicas(900.0, 300.0) == 3
    spec = InferenceSpec(documents_per_s=2.0, output_tokens=256, context_tokens=1024)
    assert spec.target_tokens_per_s == 512.0
    assert spec.tokens_per_s_per_user is None  # an offline job without a speed given has no per-user target
    assert InferenceSpec(documents_per_s=2.0, tokens_per_s_per_user=20.0).tokens_per_s_per_user == 20.0  # kept
    assert InferenceSpec().target_tokens_per_s is None and InferenceSpec().tokens_per_s_per_user == 20.0
    assert InferenceSpec(output_tokens_per_s=5000.0).target_tokens_per_s == 5000.0
    with pytest.raises(ValueError):
        InferenceSpec(documents_per_s=1.0, output_tokens_per_s=100.0)


def test_size_serving_offline_target_sets_replicas_and_lines():
    from gpuplanner.core.catalog_hw import get_gpu
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import Scenario

    r = resolve(Scenario.model_validate({"model": {"preset": "qwen2.5-7b"}}))
    m, g = inf.ServingModel.of(r.arch, r.params), get_gpu("h100-sxm-80gb")
    kw = dict(concurrency=1, context_tokens=1024, prompt_tokens=512, output_tokens=256, tokens_per_s_per_user=None)
    one = inf.size_serving(m, g, **kw)
    per_replica = one.tokens_per_s / one.replicas
    assert one.batch_per_replica == 1 and one.replicas == 1  # one user: batch 1, as before
    off = inf.size_serving(m, g, **kw, target_tokens_per_s=10 * 256.0 * 20)  # 20 x 10 documents/s of 256 tokens
    full = off.tokens_per_s / off.replicas
    assert off.batch_per_replica > 1 and full > per_replica  # every replica at its full batch
    # issue 35 r18 (serve18): an offline job's replicas count at the far end of the serving validation band
    assert off.replicas == math.ceil(51200.0 * inf.throughput_far_end() / full)
    assert off.concurrency == off.replicas * off.batch_per_replica
    assert off.p95_itl_s >= off.step_s and off.p95_ttft_s > off.ttft_s
    assert "documents/s" in offline_line(off).render() and offline_line(one) is None
    assert "95%" in load_latency_line(off).render()


def test_cli_project_prints_the_load_line():
    from pathlib import Path

    from gpuplanner.commands.project import text_lines
    from gpuplanner.core.project import Project, evaluate_project
    from gpuplanner.core.scenario import Scenario
    import json

    path = Path(__file__).resolve().parents[1] / "examples" / "shenzhen-7b-domain-project.gpuplan"
    data = json.loads(path.read_text(encoding="utf-8"))
    proj = Project.model_validate(data["project"])
    res = evaluate_project(proj, Scenario.model_validate(data["scenario"]), what_if=False)
    text = "\n".join(text_lines(res))
    assert "under full load (50 requests per replica)" in text
    serving = next(p.serving for p in res.phases if p.serving is not None)
    # unchanged by this round: 1 replica of 50 users (no offline target)
    assert serving.replicas == 1 and serving.batch_per_replica == 50 and serving.target_tokens_per_s is None


def test_offline_spec_survives_save_and_reopen():
    """savefile16's trap: the project is written with every field (``io.planfile.project_data``); an offline job's
    unset per-user speed is written as nothing (null, left out), so the reopened project sizes the same."""
    from gpuplanner.core.project import Phase, Project
    from gpuplanner.io.planfile import project_data

    proj = Project(phases=[Phase(name="batch", kind="inference", weeks=1,
                                 inference=InferenceSpec(documents_per_s=5.0, output_tokens=256))])
    data = project_data(proj)
    assert "tokens_per_s_per_user" not in data["phases"][0]["inference"]
    again = Project.model_validate(data).phases[0].inference
    assert again.tokens_per_s_per_user is None and again.target_tokens_per_s == 5.0 * 256
    given = Project(phases=[Phase(name="b", kind="inference", weeks=1, inference=InferenceSpec(
        documents_per_s=5.0, tokens_per_s_per_user=20.0))])
    assert Project.model_validate(project_data(given)).phases[0].inference.tokens_per_s_per_user == 20.0


def test_sglang_prefill_chunk_runs_alone():
    # SGLang (enable_mixed_chunk False): the 2,048-token chunk goes whole to the prompt, 1 step a 2,048-token prompt;
    # 256 users, 128-token answers: 2 prompts a step, every step stalls by the mean 2 x pre
    ll = inf.load_latency(_rp(256, 0.030, 0.100), prompt=2048, output=128, chunk=2048, idle_ttft_s=0.2, mixed=False)
    assert ll.itl_s == pytest.approx(0.030 + 2 * 0.100)
    assert ll.ttft_s == pytest.approx(0.2 + 0.95 * (0.030 + 0.200) + 1 * 0.030)
    # 16 users, 512-token answers, a 1,000-token prompt in a 2,048 chunk: 3.1% of steps, under the tail: plain step
    assert inf.load_latency(_rp(16, 0.010, 0.050), prompt=1000, output=512, chunk=2048, idle_ttft_s=0.1,
                            mixed=False).itl_s == pytest.approx(0.010)

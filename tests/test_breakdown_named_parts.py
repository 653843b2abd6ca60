"""Issue 35 round 6 (breakdown6): each new time term of the round is a named line of the step-time breakdown, in
the CLI (text and JSON), the PDF and the Plans details (all three read ``TimeEstimate.breakdown`` through
``formatting.breakdown_rows`` and ``timing.BREAKDOWN_LABELS``). Before, DeepSpeed ZeRO-3's open gathers were
folded into "data-parallel / ZeRO communication", QLoRA's dequantisation into "optimizer step and other", the
eager and padded-SDPA attention passes into "compute", and NeMo RL's pageable optimizer moves read "CPU offload"
on a run with no offload chosen. Scenarios: tests/data/breakdown6/."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.timing import BREAKDOWN_LABELS, PART_PARENT
from gpuplanner.io.scenario_files import load_scenario
from tests.savers_off import scenario_off

from test_breakdown_rows import cli_breakdown_rows, pdf_breakdown_rows, want_rows

DATA = Path(__file__).resolve().parent / "data" / "breakdown6"
#: scenario → the part it must name, with the part's zh_CN label (the .ts entry)
CASES = {
    "ds-zero3-full-7b-4xa100.json": ("zero3_open_gathers", "DeepSpeed ZeRO-3：无矩阵乘可掩盖的权重收集（暴露）"),
    "qlora-7b-a100.json": ("qlora_dequant", "QLoRA：4 位权重反量化"),
    "hf-eager-lora-7b-a100.json": ("hf_eager_attention", "eager 注意力（Transformers）：完整得分矩阵"),
    "hf-sdpa-padded-7b-a100.json": ("sdpa_padded", "填充批次：SDPA 显存高效内核计算完整方阵"),
    "nemo-rl-grpo-colocated.json": ("nemo_rl_host_copies", "NeMo RL：权重同步前后优化器与权重在主机间的拷贝"),
    "ds-zero3-lora-7b-4xgb200.json": ("grace_host", "Grace 主机 CPU：下发内核比 x86 服务器慢"),
    # issue 35 round 12 (savers12): Megatron-SWIFT --offload_model / --offload_optimizer around colocated generation
    "swift-grpo-offload-model-h20.json": ("rl_model_offload", "vLLM 生成时训练模型移到 CPU 内存并移回（offload_model）"),
    # issue 35 round 13 (verl13): verl's FSDP1 casts and divides every gradient around its reduce-scatter
    "verl-ppo-fsdp1-7b-offload.json": ("fsdp1_grad_passes", "FSDP1：每次归约散射前后对梯度的类型转换与除法"),
}


def scenario(name, **training):
    s = load_scenario(DATA / name)[0]
    if training:
        s = s.model_copy(update={"training": s.training.model_copy(update=training)})
    return s


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_part_is_its_own_share_of_the_step(name):
    key = CASES[name][0]
    t = evaluate(scenario(name)).time
    assert key in BREAKDOWN_LABELS and key in PART_PARENT
    assert t.parts[key] > 0.0
    b = t.breakdown
    assert b[key] == pytest.approx(min(t.parts[key] / t.step_time_s, b[key] + b[PART_PARENT[key]]))
    assert b[key] >= 0.0005  # it prints (breakdown_rows keeps tenths of a percent)
    assert sum(b.values()) == pytest.approx(1.0)
    assert t.to_json()["time_parts"][key]["inside"] == PART_PARENT[key]


@pytest.mark.parametrize("name", sorted(CASES))
def test_cli_text_json_and_pdf_name_the_part(name, capsys, monkeypatch, tmp_path_factory):
    from gpuplanner.app.answer import answer, report_data
    from gpuplanner.report.render import build_html

    key, zh = CASES[name]
    path = DATA / name
    ev = evaluate(load_scenario(path)[0])
    label = BREAKDOWN_LABELS[key]
    assert run_cli(["estimate", str(path)]) == 0
    rows = cli_breakdown_rows(capsys.readouterr().out)
    assert rows == want_rows(ev) and label in dict(rows)
    assert run_cli(["estimate", str(path), "--json"]) == 0
    js = json.loads(capsys.readouterr().out)
    assert js["time_breakdown"][key] == pytest.approx(ev.time.breakdown[key], abs=1e-6)
    pdf = pdf_breakdown_rows(build_html(report_data(path, answer_=answer(path)), {}))
    assert label in {html.unescape(lab) for lab, _ in pdf}
    # (this worktree's .qm: the user cache folder is shared by every checkout on a machine)
    monkeypatch.setenv("GPUPLANNER_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "qm"))
    assert run_cli(["estimate", str(path), "--lang", "zh_CN"]) == 0
    assert zh in capsys.readouterr().out


def test_the_parts_go_when_their_mechanism_does():
    """Each line is the mechanism's, not a relabelled part: without the mechanism the line is absent."""
    assert "zero3_open_gathers" not in evaluate(
        scenario("ds-zero3-full-7b-4xa100.json", framework="fsdp")).time.parts
    assert "qlora_dequant" not in evaluate(scenario("qlora-7b-a100.json", method="lora")).time.parts
    assert "hf_eager_attention" not in evaluate(
        scenario("hf-eager-lora-7b-a100.json", flash_attention=True)).time.parts
    assert "sdpa_padded" not in evaluate(scenario("hf-sdpa-padded-7b-a100.json", micro_batch_size=1,
                                                  global_batch_size=16)).time.parts
    rl = scenario("nemo-rl-grpo-colocated.json")
    sep = rl.model_copy(update={"training": rl.training.model_copy(update={
        "rl": rl.training.rl.model_copy(update={"generation_engine": "vllm_separate"})})})
    assert evaluate(sep).time.parts.get("nemo_rl_host_copies", 0.0) < evaluate(rl).time.parts["nemo_rl_host_copies"]


def test_nemo_rl_copies_are_no_longer_called_cpu_offload():
    """The NeMo RL run chose no offload: its host copies are their own line, and the CPU-offload line holds only
    what offload adds (here nothing). The two add up to the offload seconds the step always had."""
    t = evaluate(scenario("nemo-rl-grpo-colocated.json")).time
    assert t.parts.get("optimizer_offload", 0.0) == pytest.approx(0.0, abs=1e-9)
    # hand check of the optimizer's pageable moves (timing.nemo_rl_optimizer_move_seconds): 12 B per element of the
    # GPU's optimizer shard at 1.8 GB/s down and 16.1 GB/s up; Qwen2.5-7B at TP 2 holds ~3.8e9 parameters per GPU
    # (no distributed optimizer: Megatron's default), so ≥ 12 × 3.5e9 × (1/1.8e9 + 1/16.1e9) ≈ 26 s per batch
    assert t.parts["nemo_rl_host_copies"] > 12 * 3.5e9 * (1 / 1.8e9 + 1 / 16.1e9) / 2


def test_qlora_dequant_is_out_of_the_optimizer_share():
    """Hand check (timing.qlora_dequant_seconds docstring): Llama-2-7B's 6.48e9 base linear weights on an A100
    (108 SMs × 1.41 GHz) take 6.48e9 × 0.676 / 152.3e9 = 28.7 ms of bitsandbytes kernel per pass; the part holds
    at least the forward's and the backward's pass per micro-batch (2 × 28.7 ms × 2 micro-batches)."""
    t = evaluate(scenario("qlora-7b-a100.json")).time
    assert t.parts["qlora_dequant"] >= 2 * 2 * 0.0287 * 0.99
    assert t.breakdown["other"] == pytest.approx((t.seconds["other"] - t.parts["qlora_dequant"]) / t.step_time_s)


def test_the_plans_largest_loss_names_the_mechanism():
    """The search's "Largest loss" line read "the optimizer step and other memory-bound work" on a NeMo RL plan
    whose "other" is its host copies; it now names the mechanism, with its share of the plan's own breakdown."""
    from gpuplanner.app import engine

    for name in ("nemo-rl-grpo-colocated.json", "qlora-7b-a100.json"):
        key = CASES[name][0]
        plan = engine.search_plans(scenario_off(load_scenario(DATA / name)[0]), DATA, top=1).plans[0].plan  # (savers written off: round 15 searches the unset ones; tests/savers_off.py)
        lines = [m.render() for m in plan.explanation if "Largest loss" in m.render()]
        share = plan.evaluation.time.breakdown[key]
        assert lines == [f"Largest loss: {BREAKDOWN_LABELS[key]} takes {share:.0%} of each step."]


def test_the_grace_host_line_is_the_extra_over_an_x86_host():
    """The same DeepSpeed ZeRO-3 LoRA run on GB200 (Grace host, HOST_CPU_FACTOR 2.75) and on A100 (x86): the GB200
    run's host-wait parts (launches, ZeRO-3 hooks) read what an x86 host would leave on that GPU, and "grace_host"
    the rest, so the three add up to the host's whole wait: (launch + hooks) × 2.75 when the host binds."""
    from gpuplanner.core.timing import host_cpu_factor

    t = evaluate(scenario("ds-zero3-lora-7b-4xgb200.json")).time
    f = host_cpu_factor("gb200-186gb")
    x86 = t.parts["launch_overhead"] + t.parts["zero3_hooks"]
    assert t.parts["grace_host"] > (f - 1.0) * x86 * 0.999  # at least the scaled host time beyond the x86 wait
    assert "grace_host" not in evaluate(scenario("ds-zero3-lora-7b-4xa100.json")).time.parts


def test_serving_names_a_host_bound_decode_step(monkeypatch):
    """Serving has no step-time table: its decode step shows as "memory bound" / "compute bound" (gpuplanner
    project). Where the engine's host work per step (inference.ENGINE_HOST_STEP_S, serve7) outlasts the GPU's step it
    sets the pace; that read "compute bound". Hand case: Llama 3.1 8B on an H100 at batch 8 (a few ms of GPU step)
    with the host's time raised to 50 ms."""
    from gpuplanner.commands.project import _bound_text
    from gpuplanner.core import inference as I
    from gpuplanner.core.catalog_hw import get_gpu

    from test_mechanics_serving import H100, _preset

    m, g = _preset("llama-3.1-8b"), get_gpu(H100)
    kw = dict(precision="bf16", kv_bytes=2.0, batch=8, context=96, tp=1, eff=I.ServingEfficiency())
    gpu_t, bound = I.decode_step_s(m, g, **kw)
    assert bound == "memory" and I.decode_step_s(m, g, loop="overlapped", **kw) == (gpu_t, "memory")
    monkeypatch.setattr(I, "ENGINE_HOST_STEP_S", 50e-3)
    assert gpu_t < 50e-3
    assert I.decode_step_s(m, g, loop="overlapped", **kw) == (pytest.approx(50e-3), "host")
    assert I.decode_step_s(m, g, loop="serial", **kw) == (pytest.approx(gpu_t + 50e-3), "host")
    assert I.decode_step_s(m, g, loop="serial", steps_per_schedule=100, **kw)[1] == "memory"  # 0.5 ms < GPU step
    assert _bound_text("host") == "host bound: the engine's CPU work per decode step"
    assert _bound_text("memory") == "memory bound" and _bound_text("compute") == "compute bound"

"""Acceptance test kit: the exported script, the result parser, the analysis and the measured-MFU re-estimate.

The CPU run of the kit needs a Python with PyTorch: ``GPUPLANNER_KIT_PYTHON=/path/to/python`` (or torch in the
test interpreter). Without one that test skips; the import/analysis path is always tested on
``tests/data/kit/result-cpu-sample.json`` (synthetic, hand-written) and ``result-cpu-run.json`` (a real CPU
run of the kit, tiny sizes).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpuplanner.verify import acceptance as acc
from gpuplanner.verify.acceptance import (
    KitResultError,
    analyse,
    apply_measured_mfu,
    before_after,
    kit_flops_per_token,
    kit_param_count,
    load_kit_result,
    parse_kit_result,
    render_kit,
)
from gpuplanner.core.estimate import estimate
from gpuplanner.core.scenario import PriceQuote
from gpuplanner.io.scenario_files import load_scenario

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "kit"
H100_8B = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"
LORA_4090 = ROOT / "examples" / "7b-lora-1x4090.json"
SAMPLE = DATA / "result-cpu-sample.json"
CPU_RUN = DATA / "result-cpu-run.json"
BASH = shutil.which("bash")


def _torch_python() -> str | None:
    env = os.environ.get("GPUPLANNER_KIT_PYTHON")
    if env:
        return env
    if importlib.util.find_spec("torch") is not None:
        return sys.executable
    return None


def _scenario(path=H100_8B):
    return load_scenario(path)


def _time_model_available(s, base) -> bool:
    return estimate(s, base).time is not None


# ------------------------------------------------------------------------------------------- the script


def test_render_embeds_planned_shape_and_is_valid_bash_and_python():
    s, base = _scenario()
    text = render_kit(s, base_dir=base)
    assert text.startswith("#!/usr/bin/env bash\n")
    plan_json = text.split("<<'GPUPLANNER_PLAN_EOF'\n", 1)[1].split("\nGPUPLANNER_PLAN_EOF", 1)[0]
    plan = json.loads(plan_json)
    # Llama 3 8B (config.json of meta-llama/Meta-Llama-3-8B): h 4096, 32 layers, 32 heads, 8 KV heads, MLP 14336,
    # vocab 128256; the example trains at seq 4096, mbs 2, gbs 128 on 8 GPUs -> grad accum 128/(2*8) = 8
    assert plan["shape"] == {
        "hidden": 4096, "layers": 32, "heads": 32, "kv_heads": 8, "head_dim": 128, "ffn": 14336, "vocab": 128256,
        "seq": 4096, "mbs": 2, "accum": 8, "gated": True, "recompute": "full", "precision": "bf16",
        "moe_as_dense": False, "mla_as_mha": False,
    }
    assert plan["plan"]["gpu"] == "h100-sxm-80gb" and plan["plan"]["num_gpus"] == 8
    py = text.split("<<'GPUPLANNER_KIT_EOF'\n", 1)[1].split("\nGPUPLANNER_KIT_EOF", 1)[0]
    compile(py, "kit.py", "exec")
    # only the standard library and torch are imported by the embedded program
    imported = {line.split()[1].split(".")[0] for line in py.splitlines()
                if line.strip().startswith(("import ", "from ")) and not line.strip().startswith("from __future__")}
    stdlib = set(sys.stdlib_module_names)
    assert imported - stdlib == {"torch"}
    if BASH:
        subprocess.run([BASH, "-n"], input=text, text=True, check=True)


def test_render_moe_uses_active_width(tmp_path):
    s, base = load_scenario(ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json")
    text = render_kit(s, base_dir=base)
    plan = json.loads(text.split("<<'GPUPLANNER_PLAN_EOF'\n", 1)[1].split("\nGPUPLANNER_PLAN_EOF", 1)[0])
    # Mixtral 8x7B: 2 of 8 experts of width 14336 per token -> dense-equivalent MLP width 28672
    assert plan["shape"]["ffn"] == 2 * 14336
    assert plan["shape"]["moe_as_dense"] is True


@pytest.mark.skipif(BASH is None, reason="bash not available")
def test_kit_without_torch_writes_system_info_and_error(tmp_path):
    """A Python without PyTorch still yields a parsable result that says so (exit code 3)."""
    if importlib.util.find_spec("torch") is not None:
        pytest.skip("the test interpreter has torch; this case needs one without")
    s, base = _scenario(LORA_4090)
    kit = tmp_path / "kit.sh"
    kit.write_text(render_kit(s, base_dir=base))
    out = tmp_path / "res.json"
    proc = subprocess.run([BASH, str(kit), "--cpu", "--python", sys.executable, "--out", str(out)],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 3, proc.stderr
    res = load_kit_result(out)
    assert res.train_step == [] and res.matmul == []
    assert any("PyTorch is not importable" in e for e in res.errors)
    a = analyse(res, s, base_dir=base)
    assert any("PyTorch is not importable" in f.text for f in a.findings)
    assert a.measured_mfu is None
    with pytest.raises(KitResultError, match="train_step"):
        apply_measured_mfu(s, a)


@pytest.mark.skipif(BASH is None, reason="bash not available")
def test_kit_runs_on_cpu_and_reestimates_with_measured_mfu(tmp_path):
    py = _torch_python()
    if py is None:
        pytest.skip("PyTorch is not installed for the test interpreter; set GPUPLANNER_KIT_PYTHON to a Python "
                    "with torch to run the kit on the CPU")
    s, base = _scenario()
    kit = tmp_path / "kit.sh"
    kit.write_text(render_kit(s, base_dir=base))
    out = tmp_path / "res.json"
    proc = subprocess.run([BASH, str(kit), "--cpu", "--ranks", "1,2", "--python", py, "--out", str(out)],
                          capture_output=True, text=True, timeout=240, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    res = parse_kit_result(out.read_text())
    assert res.schema_ == "gpuplanner-kit/1" and res.mode == "cpu" and res.backend == "gloo"
    assert res.errors == []
    assert [r.n for r in res.train_step] == [1, 2]
    assert [r.n for r in res.allreduce] == [2]
    # nccl-tests definition: busbw = algbw * 2(n-1)/n = algbw for n = 2
    ar = json.loads(out.read_text())["allreduce"][0]
    assert ar["busbw_gbs"] == pytest.approx(ar["algbw_gbs"])
    assert ar["algbw_gbs"] == pytest.approx(ar["size_bytes"] / ar["time_s"] / 1e9, rel=1e-9)
    # tiny shape keeps the plan's ratios: GQA 32/8 -> 4 heads / 1 KV head, MLP 14336/4096 * 64 = 224
    assert (res.shape.heads, res.shape.kv_heads, res.shape.ffn, res.shape.recompute) == (4, 1, 224, "full")
    # the model the kit trained has exactly the parameters our counter gives for its shape
    assert res.train_step[0].params == kit_param_count(res.shape)
    for r in res.train_step:
        assert r.tokens_per_s == pytest.approx(r.tokens_per_step / r.step_s, rel=1e-9)
        assert r.tokens_per_step == r.n * res.shape.mbs * res.shape.seq * res.shape.accum
    a = analyse(res, s, base_dir=base)
    fpt, _ = kit_flops_per_token(res.shape)
    last = res.train_step[-1]
    assert a.measured_mfu == pytest.approx(fpt * last.tokens_per_s / last.n / (989 * 1e12))
    assert a.findings[0].severity == "warn" and "CPU" in a.findings[0].text
    new = apply_measured_mfu(s, a)
    assert new.assumptions.mfu == pytest.approx(a.measured_mfu, rel=1e-5)
    assert s.assumptions.mfu is None  # the original is untouched
    if _time_model_available(s, base):
        ba = before_after(s, a, base)
        # tokens/s/GPU = peak x MFU / model FLOPs per token (timing.py with assumptions.mfu)
        t_after = estimate(new, base).time
        assert ba["after"]["tokens_per_s_per_gpu"] == pytest.approx(989e12 * new.assumptions.mfu / t_after.flops_per_token)
        assert ba["after"]["compute_days"] > 1000 * ba["before"]["compute_days"]  # a CPU is ~1e-6 of an H100


# ------------------------------------------------------------------------------------- parse: errors


@pytest.mark.parametrize("text, message", [
    ("not json", "not valid JSON (line 1, column 1"),
    ("[1, 2]", "must be a JSON object"),
    ("{}", "schema: expected 'gpuplanner-kit/1', got null"),
    ('{"schema": "gpuplanner-kit/2"}', "schema: expected 'gpuplanner-kit/1', got \"gpuplanner-kit/2\""),
    ('{"schema": "gpuplanner-kit/1", "matmul": [{"gpu": 0, "tflops": 0}]}', "matmul[0].tflops: Input should be greater than 0"),
    ('{"schema": "gpuplanner-kit/1", "matmul": [{"gpu": 0}]}', "matmul[0].tflops: Field required"),
    ('{"schema": "gpuplanner-kit/1", "allreduce": [{"n": 1, "busbw_gbs": 3}]}', "allreduce[0].n: Input should be greater than or equal to 2"),
    ('{"schema": "gpuplanner-kit/1", "train_step": [{"n": 2, "tokens_per_s": "fast"}]}', "train_step[0].tokens_per_s: Input should be a valid number"),
    # NaN/Infinity are refused when the JSON is read, naming the field (issue #32, round 2: before, the model
    # refused them only in the fields it bounds, so gpus[0].memory_gib, time_s or an ignored key took Infinity)
    ('{"schema": "gpuplanner-kit/1", "train_step": [{"n": 2, "tokens_per_s": NaN}]}', "train_step[0].tokens_per_s: NaN is not allowed"),
    ('{"schema": "gpuplanner-kit/1", "gpus": [{"index": 0, "memory_gib": Infinity}]}', "gpus[0].memory_gib: Infinity is not allowed"),
    ('{"schema": "gpuplanner-kit/1", "allreduce": [{"n": 2, "busbw_gbs": 3, "time_s": 1e999}]}', "allreduce[0].time_s: number 1e999 is out of range"),
    ('{"schema": "gpuplanner-kit/1", "future": {"x": [1, -Infinity]}}', "future.x[1]: -Infinity is not allowed"),
    ('{"schema": "gpuplanner-kit/1", "power": [{"gpu": 0, "draw_w_mean": -5}]}', "power[0].draw_w_mean: Input should be greater than or equal to 0"),
    ('{"schema": "gpuplanner-kit/1", "shape": {"hidden": 64}}', "shape.layers: Field required"),
    ('{"schema": "gpuplanner-kit/1", "mode": "tpu"}', "mode: Input should be 'cuda' or 'cpu'"),
])
def test_parse_errors_name_the_field(text, message):
    with pytest.raises(KitResultError) as info:
        parse_kit_result(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_parse_minimal_and_unknown_keys_ignored():
    res = parse_kit_result(b'\xef\xbb\xbf{"schema": "gpuplanner-kit/1", "future_field": {"x": 1}}')
    assert res.matmul == [] and res.train_step == [] and res.shape is None


def test_load_errors_name_the_file(tmp_path):
    with pytest.raises(KitResultError, match="missing.json: not found"):
        load_kit_result(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe{")
    with pytest.raises(KitResultError, match="^bad.json: the result file is not UTF-8 text$"):
        load_kit_result(bad)


# ------------------------------------------------------------------------------- analysis (synthetic)


def test_sample_is_marked_synthetic():
    raw = json.loads(SAMPLE.read_text())
    assert raw["note"].startswith("SYNTHETIC")


def test_flops_per_token_of_sample_shape_by_hand():
    res = load_kit_result(SAMPLE)
    # per layer: q 4096x4096, k/v 4096x1024 each, o 4096x4096, MLP 3 x 4096x14336
    per_layer = 4096 * (4096 + 2 * 1024) + 4096 * 4096 + 3 * 4096 * 14336
    assert per_layer == 218_103_808
    n_matmul = 4 * per_layer + 32768 * 4096  # 4 layers + untied head
    attention = 3 * 2 * ((4096 + 1) / 2) * (4096 + 4096) * 4  # causal: mean context (s+1)/2, fwd + 2x bwd
    fpt, source = kit_flops_per_token(res.shape)
    assert fpt == pytest.approx(6 * n_matmul + attention)
    assert fpt == pytest.approx(6_442_549_248)
    assert "Kaplan" in source


def test_analysis_of_sample_by_hand():
    s, base = _scenario()
    a = analyse(load_kit_result(SAMPLE), s, base_dir=base)
    # matmul: 760 / 989 dense bf16 peak; GPU 7 at 520 / 989 = 52.6% < 60%
    assert a.matmul[0].ratio == pytest.approx(760 / 989)
    assert [m.gpu for m in a.matmul if m.low] == [7]
    # all-reduce: the largest message per GPU count is kept; reference = 370 GB/s (networks.json nvlink4)
    assert [(b.n, b.busbw_gbs) for b in a.allreduce] == [(2, 330.0), (4, 240.0), (8, 350.0)]
    assert all(b.reference_gbs == 370 for b in a.allreduce)
    assert [b.n for b in a.allreduce if b.low] == [4]  # 240/370 = 64.9% < 70%
    # scaling vs linear from 62,000 tokens/s on one GPU
    assert [p.linear for p in a.scaling] == [62000, 124000, 248000, 496000]
    assert a.scaling[-1].efficiency == pytest.approx(460000 / 496000)
    assert not any(p.low for p in a.scaling)  # 92.7% >= 80%
    # MFU at 8 GPUs = 6,442,500,096 FLOPs/token x 57,500 tokens/s/GPU / 989e12
    assert a.mfu_at_n == 8
    assert a.measured_mfu == pytest.approx(6_442_549_248 * 460000 / 8 / 989e12)
    assert a.measured_mfu == pytest.approx(0.37456, abs=1e-5)
    # power: 380 / 700 W TDP = 54% < 60%; GPU 7's 500 W limit is below the TDP
    assert [p.gpu for p in a.power if p.low] == [7]
    assert [p.gpu for p in a.power if p.capped] == [7]
    assert a.power[0].ratio == pytest.approx(640 / 700)
    assert a.worst == "bad"
    texts = " ".join(f.text for f in a.findings)
    assert "only means something while the GPUs are loaded" in texts
    xs, measured, linear = a.scaling_series()
    assert xs == [1, 2, 4, 8] and measured[-1] == 460000 and linear[-1] == 496000


def test_wrong_gpu_and_too_few_gpus_are_flagged():
    s, base = _scenario()
    raw = json.loads(SAMPLE.read_text())
    raw["gpus"] = [{"index": i, "name": "NVIDIA A800-SXM4-80GB"} for i in range(4)]
    a = analyse(acc.kit_result_from_dict(raw), s, base_dir=base)
    bad = [f.text for f in a.findings if f.severity == "bad"]
    assert any("A800" in t and "H100" in t for t in bad)
    assert any("4 GPUs" in t and "8 per node" in t for t in bad)


def test_healthy_result_has_no_bad_findings():
    s, base = _scenario()
    raw = json.loads(SAMPLE.read_text())
    raw["matmul"][7]["tflops"] = 760.0
    raw["allreduce"][1]["busbw_gbs"] = 300.0
    raw["power"][7].update(draw_w_mean=640.0, limit_w=700.0)
    a = analyse(acc.kit_result_from_dict(raw), s, base_dir=base)
    assert a.worst == "ok"  # the synthetic note and the MFU caveat are info lines
    assert not [f for f in a.findings if f.severity == "bad"]


def test_apply_measured_mfu_and_before_after():
    s, base = _scenario()
    # an on-demand card-hour quote (the mainland H100 default is a monthly node lease, with no card-hour price)
    s = s.model_copy(update={"constraints": s.constraints.model_copy(
        update={"prices": {"h100-sxm-80gb": PriceQuote(card_hour=20.0)}})})
    a = analyse(load_kit_result(SAMPLE), s, base_dir=base)
    new = apply_measured_mfu(s, a)
    assert new.assumptions.mfu == pytest.approx(0.374567, abs=1e-6)
    assert s.assumptions.mfu is None and new.training == s.training and new.hardware == s.hardware
    if not _time_model_available(s, base):
        pytest.skip("time model not available")
    ba = before_after(s, a, base)
    b, c = ba["before"], ba["after"]
    fpt_plan = estimate(s, base).time.flops_per_token
    # with assumptions.mfu: tokens/s/GPU = peak x MFU / model FLOPs per token (timing.py)
    assert c["mfu"] == pytest.approx(new.assumptions.mfu, rel=1e-9)
    assert c["tokens_per_s_per_gpu"] == pytest.approx(989e12 * new.assumptions.mfu / fpt_plan, rel=1e-9)
    # 5B tokens on 8 GPUs
    assert c["compute_days"] == pytest.approx(5e9 / (c["tokens_per_s_per_gpu"] * 8) / 86400, rel=1e-9)
    assert c["gpu_hours"] == pytest.approx(c["compute_days"] * 24 * 8, rel=1e-9)
    # same price per card-hour before and after: cost scales with GPU-hours
    assert c["card_hour"] == b["card_hour"]
    assert c["cost"] / b["cost"] == pytest.approx(c["gpu_hours"] / b["gpu_hours"], rel=1e-9)
    assert c["compute_days"] / b["compute_days"] == pytest.approx(b["tokens_per_s_per_gpu"] / c["tokens_per_s_per_gpu"])


def test_apply_refuses_impossible_mfu():
    s, base = _scenario()
    raw = json.loads(SAMPLE.read_text())
    raw["train_step"] = [{"n": 1, "tokens_per_s": 200000.0}]  # 6.44e9 x 2e5 / 989e12 = 130% of peak
    a = analyse(acc.kit_result_from_dict(raw), s, base_dir=base)
    assert a.measured_mfu == pytest.approx(6_442_549_248 * 2e5 / 989e12)
    with pytest.raises(KitResultError, match="exceeds 100% of peak"):
        apply_measured_mfu(s, a)


def test_hand_typed_values_without_shape_use_planned_model():
    """Values typed by hand: only tokens/s of the planned model; FLOPs/token come from the plan."""
    s, base = _scenario()
    res = acc.kit_result_from_dict({"schema": "gpuplanner-kit/1", "train_step": [{"n": 8, "tokens_per_s": 48000}]})
    a = analyse(res, s, base_dir=base)
    from gpuplanner.core import flops
    from gpuplanner.core.estimate import resolve

    r = resolve(s, base)
    fpt = flops.model_flops_per_token(r.facts, 4096, method="full", causal=True)
    assert a.flops_per_token == pytest.approx(fpt)
    assert a.measured_mfu == pytest.approx(fpt * 6000 / 989e12)


# ------------------------------------------------------------------------------- analysis (real CPU run)


def test_real_cpu_run_fixture():
    """A real run of the kit with --cpu (tiny sizes, gloo, 1-2 ranks) on a 2-core VM."""
    s, base = _scenario(LORA_4090)
    res = load_kit_result(CPU_RUN)
    assert res.mode == "cpu" and res.tiny and res.errors == []
    assert res.train_step[0].params == kit_param_count(res.shape)
    a = analyse(res, s, base_dir=base)
    assert a.matmul[0].peak is None and a.allreduce[0].reference_gbs is None  # no GPU peak for a CPU run
    assert a.findings[0].severity == "warn"
    assert any("trains all weights" in f.text for f in a.findings)  # the plan is LoRA
    new = apply_measured_mfu(s, a)
    assert 0 < new.assumptions.mfu < 1e-3


# ------------------------------------------------------------------------------------------------ CLI


def test_cli_export_and_import(tmp_path, capsys):
    from gpuplanner.cli import run_cli

    out = tmp_path / "kit.sh"
    assert run_cli(["kit", str(H100_8B), "-o", str(out)]) == 0
    assert out.read_text().startswith("#!/usr/bin/env bash")
    assert os.access(out, os.X_OK)
    capsys.readouterr()
    assert run_cli(["kit-import", str(H100_8B), str(SAMPLE), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["analysis"]["measured_mfu"] == pytest.approx(0.37456, abs=1e-5)
    assert run_cli(["kit-import", str(H100_8B), str(SAMPLE), "--strict"]) == 1
    text = capsys.readouterr().out
    assert "[BAD]" in text and "Matmul on GPU 7" in text
    assert run_cli(["kit", str(H100_8B), "--import", str(SAMPLE)]) == 0
    assert "Measured MFU 37.5%" in capsys.readouterr().out


def test_cli_import_bad_file_is_one_line(tmp_path, capsys):
    from gpuplanner.cli import run_cli

    bad = tmp_path / "r.json"
    bad.write_text('{"schema": "gpuplanner-kit/1", "power": [{"gpu": "x", "draw_w_mean": 1}]}')
    assert run_cli(["kit-import", str(H100_8B), str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "gpuplanner: error: r.json: power[0].gpu: Input should be a valid integer, unable to parse string as an integer, got \"x\""


# ------------------------------------------------------------------ the embedded program's helpers (no torch)


def _kit_namespace() -> dict:
    """The benchmark program is a real module: import it (module level imports only the standard library)."""
    from gpuplanner.verify import kit_bench

    return vars(kit_bench)


def test_fit_shape_for_llama3_8b_on_80gb():
    """GPU mode: keep the planned layer, cut layers and vocabulary until one 80 GiB card holds the model."""
    ns = _kit_namespace()
    s, base = _scenario()
    text = render_kit(s, base_dir=base)
    plan = json.loads(text.split("<<'GPUPLANNER_PLAN_EOF'\n", 1)[1].split("\nGPUPLANNER_PLAN_EOF", 1)[0])
    args = ns["_parse_args"](["--work", "w", "--plan", "p", "--out", "o"])
    shape = ns["fit_shape"](plan, 80 * 2**30, args)
    # budget 0.55 x 80 GiB = 47.24e9 B; tokens per micro-batch 2 x 4096 = 8192
    # vocabulary: fixed(V) = 20 B x (2Vh + h) + 14 B x 8192 x V must stay under 0.35 x budget = 16.5e9:
    #   V = 128256 -> 35.7e9, 64128 -> 17.9e9, 32000 -> 8.91e9 (halved, rounded down to a multiple of 128)
    assert shape["vocab"] == 32000
    # per layer (full recompute): 20 B x 218,112,000 params + 2 x 8192 x 4096 x 2 B = 4.496e9 B; one layer's
    # full activations 8192 x (34 x 4096 + 8 x 14336) = 2.08e9 B extra; (47.24 - 8.91 - 2.08)e9 / 4.496e9 = 8.06
    assert ns["layer_params"](shape) == 218_112_000
    assert shape["layers"] == 8
    assert (shape["hidden"], shape["ffn"], shape["seq"], shape["mbs"]) == (4096, 14336, 4096, 2)
    assert shape["accum"] == 4  # the plan's 8 micro-batches, capped at 4
    args = ns["_parse_args"](["--work", "w", "--plan", "p", "--out", "o", "--layers", "3", "--vocab", "50000"])
    shape = ns["fit_shape"](plan, 80 * 2**30, args)
    assert (shape["layers"], shape["vocab"]) == (3, 50000)


def test_power_samples_are_averaged_over_load_windows(tmp_path):
    ns = _kit_namespace()
    (tmp_path / "power.csv").write_text(
        "100.0, 0, 80.0, 700.00\n"     # idle, before the load window
        "101.0, 0, 650.0, 700.00\n"
        "101.0, 1, 300.0, 500.00\n"
        "101.5, 0, 690.5, 700.00\n"
        "101.5, 1, [N/A], 500.00\n"   # unreadable sample: skipped
        "102.0, 1, 340.0, 500.00\n"
        "109.0, 0, 75.0, 700.00\n")    # idle, after
    rows, scope = ns["_power"](str(tmp_path), [(100.5, 102.5)])
    assert scope == "load"
    assert rows == [
        {"gpu": 0, "draw_w_mean": (650.0 + 690.5) / 2, "draw_w_max": 690.5, "limit_w": 700.0, "samples": 2},
        {"gpu": 1, "draw_w_mean": (300.0 + 340.0) / 2, "draw_w_max": 340.0, "limit_w": 500.0, "samples": 2},
    ]
    rows, scope = ns["_power"](str(tmp_path), [(200.0, 201.0)])  # no sample under load: whole run
    assert scope == "whole run" and rows[0]["samples"] == 4


def test_nvidia_smi_header_and_gpu_list(tmp_path):
    ns = _kit_namespace()
    (tmp_path / "nvidia-smi.txt").write_text(
        "+-----------------------------------------------------------------------------------------+\n"
        "| NVIDIA-SMI 570.86.15              Driver Version: 570.86.15      CUDA Version: 12.8     |\n")
    (tmp_path / "gpus.csv").write_text("0, NVIDIA H100 80GB HBM3, 81559, 00000000:18:00.0, 570.86.15\n"
                                       "1, NVIDIA H100 80GB HBM3, 81559, 00000000:2A:00.0, 570.86.15\n")
    info = ns["_nvidia_info"](str(tmp_path))
    assert (info["driver"], info["cuda"]) == ("570.86.15", "12.8")
    assert [g["index"] for g in info["gpus"]] == [0, 1]
    assert info["gpus"][1]["memory_gib"] == pytest.approx(81559 / 1024)
    assert info["topo"] is None


# ------------------------------------------------------------------ the kit is filled in one pass


@pytest.mark.skipif(BASH is None, reason="bash not available")
@pytest.mark.parametrize("name", ["@PY@", "@PLAN@ and @SUMMARY@", "$(touch x)", "`touch y`", "a'b\"c",
                                  "line\nbreak", "GPUPLANNER_KIT_EOF", "x\x1b[2Jy"])
def test_kit_names_come_out_literally_and_bash_parses(tmp_path, name):
    s, base = _scenario()
    s = s.model_copy(update={"model": s.model.model_copy(update={"name": name})})
    text = render_kit(s, base_dir=base)
    kit = tmp_path / "kit.sh"
    kit.write_text(text, encoding="utf-8")
    proc = subprocess.run([BASH, "-n", str(kit)], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert text.count("def main(argv=None):") == 1  # the benchmark is embedded exactly once
    plan = json.loads(text.split("<<'GPUPLANNER_PLAN_EOF'\n", 1)[1].split("\nGPUPLANNER_PLAN_EOF", 1)[0])
    assert plan["plan"]["model"] == name
    comment = next(line for line in text.splitlines() if line.startswith("# Plan: "))
    assert all(ch.isprintable() for ch in comment)
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_kit_embeds_the_benchmark_module_source():
    from gpuplanner.verify import kit_bench
    from gpuplanner.verify.acceptance import kit_benchmark_source

    src = kit_benchmark_source()
    assert src == Path(kit_bench.__file__).read_text(encoding="utf-8")
    s, base = _scenario()
    assert src.strip("\n") in render_kit(s, base_dir=base)


def test_load_refuses_fifos_devices_and_hostile_json(tmp_path):
    """The app's door (Verify page) reads a kit result through the safe reader too (issue #32)."""
    import os

    os.mkfifo(tmp_path / "fifo.json")
    for path in (tmp_path / "fifo.json", "/dev/zero"):
        with pytest.raises(KitResultError, match="regular file"):
            load_kit_result(path)
    for text, why in (("[" * 100_000, "nested too deeply"), ('{"host": "\\ud800"}', "lone surrogate")):
        (tmp_path / "r.json").write_text(text, encoding="utf-8")
        with pytest.raises(KitResultError, match=why):
            load_kit_result(tmp_path / "r.json")

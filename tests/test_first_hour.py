"""What a new user trips over in the first hour (issue 36): a mistyped command is a command error with a
suggestion and opens no window; ``--help`` names the app's ``--self-test``; the offscreen app prints no Qt noise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _src(name: str) -> Path:
    """An example by name: examples/, or tests/data/examples_fixed/ for the fixed-layout files that left
    examples/ in issue 35 round 16 (examples16: those examples now let the search choose)."""
    here = ROOT / "examples" / name
    return here if here.exists() else ROOT / "tests" / "data" / "examples_fixed" / name


def _run(args: list[str], tmp_path: Path, timeout: int = 60) -> subprocess.CompletedProcess:
    # no display and a platform that cannot open one: a window that opened would fail loudly, not hang
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="minimal", GPUPLANNER_CONFIG_DIR=str(tmp_path / "c"),
               GPUPLANNER_DATA_DIR=str(tmp_path / "d"))
    env.pop("DISPLAY", None)
    return subprocess.run([sys.executable, "-m", "gpuplanner", *args], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=timeout)


@pytest.mark.parametrize("argv", [["estimte"], ["estimte", "x.json"], ["plna", "--top", "5"], ["reprot"]])
def test_a_mistyped_command_exits_2_with_a_suggestion(argv, tmp_path):
    r = _run(argv, tmp_path)
    want = {"estimte": "estimate", "plna": "plan", "reprot": "report"}[argv[0]]
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.strip() == f"gpuplanner: error: unknown command '{argv[0]}' — did you mean '{want}'?"
    assert r.stdout == ""


def test_a_word_like_nothing_lists_the_commands(tmp_path):
    r = _run(["frobnicate"], tmp_path)
    assert r.returncode == 2
    assert "unknown command 'frobnicate'" in r.stderr and "estimate" in r.stderr and "did you mean" not in r.stderr


def test_a_missing_file_is_an_error_not_a_window(tmp_path):
    r = _run(["no-such-plan.gpuplan"], tmp_path)
    assert r.returncode == 2 and r.stderr.strip() == "gpuplanner: error: file not found: no-such-plan.gpuplan"
    r = _run([str(tmp_path)], tmp_path)
    assert r.returncode == 2 and "is a folder" in r.stderr


def test_a_word_that_is_an_existing_file_opens_it(tmp_path):
    """A plan file named like a word (no extension) is the user's file, not a typo: the app opens it."""
    (tmp_path / "myplan").write_text((ROOT / "examples" / "7b-lora-1x4090.gpuplan").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    from gpuplanner.__main__ import not_an_app_argument

    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert not_an_app_argument(["myplan"]) is None
        assert not_an_app_argument(["--self-test", "myplan"]) is None
        assert not_an_app_argument([]) is None and not_an_app_argument(["--self-test"]) is None
        assert "did you mean 'plan'" in not_an_app_argument(["myplna"])
    finally:
        os.chdir(cwd)


def test_help_lists_self_test(tmp_path):
    r = _run(["--help"], tmp_path)
    assert r.returncode == 0 and "--self-test" in r.stdout and "FILE" in r.stdout


def test_offscreen_self_test_prints_no_propagate_size_hints(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen", GPUPLANNER_CONFIG_DIR=str(tmp_path / "c"),
               GPUPLANNER_DATA_DIR=str(tmp_path / "d"))
    r = subprocess.run([sys.executable, "-m", "gpuplanner", "--self-test"], capture_output=True, text=True, env=env,
                       cwd=tmp_path, timeout=180)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "propagateSizeHints" not in r.stdout + r.stderr


def test_the_filter_passes_other_qt_messages():
    code = ("from gpuplanner.ui.app import install_message_filter; install_message_filter()\n"
            "from PySide6.QtCore import qWarning\n"
            "qWarning('This plugin does not support propagateSizeHints()'); qWarning('a real warning')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen"))
    assert "a real warning" in r.stderr and "propagateSizeHints" not in r.stderr


# ------------------------------------------------------------------------ identifiers in the Chinese output
IDENTIFIERS = ("constraints.", "machine_price", "(China)", "search_frameworks",
               # the review pass: rule ids ("[mfu_grade: 通过]"), framework and method ids in `plan`
               "mfu_grade", "memory_headroom", "deadline_risk", "：hf, ", "不支持 lora",
               # and `project`'s serving line ("推理服务：tp=1") and its what-if header ("GPUs")
               "推理服务：tp=", "  GPUs  ",
               # ux9: rule ids and a field name inside sentences ("规划规则 consumer_multinode", "（max_gpus 1）")
               "规划规则 consumer_multinode", "规则 price_fabric", "max_gpus 1")
# the PDF has no configuration-syntax line (estimate's "Layout: tp=8 pp=4 … grad_accum=256" is shown as typed)
PDF_IDENTIFIERS = IDENTIFIERS + ("num_gpus", "grad_accum", "-80gb", "-sxm-")  # and catalog ids
ZH_EXAMPLES = ("70b-cpt-64xh100.gpuplan", "llama3-70b-pretrain-64xh800-tp8pp4.json", "shenzhen-7b-domain-project.gpuplan",
               "7b-lora-1x4090.json")


def _zh_env(tmp_path: Path) -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen", GPUPLANNER_CONFIG_DIR=str(tmp_path / "c"),
                GPUPLANNER_CACHE_DIR=str(tmp_path / "cache"))


def _found(text: str, idents: tuple[str, ...] = IDENTIFIERS) -> list[str]:
    return [f"{ident!r} in: {line.strip()[:160]}" for line in text.splitlines() for ident in idents if ident in line]


@pytest.mark.parametrize("name", ZH_EXAMPLES)
def test_chinese_cli_output_names_no_identifiers(name, tmp_path):
    """``estimate``, ``plan`` and ``project`` in zh_CN name inputs as the app does and GPUs with their Chinese
    regional suffix: no ``constraints.…`` paths, no ``machine_price``, no "(China)"."""
    env = _zh_env(tmp_path)
    text = ""
    for cmd in (["estimate"], ["plan", "--top", "5"], ["project"]):
        r = subprocess.run([sys.executable, "-m", "gpuplanner", cmd[0], str(ROOT / "examples" / name), *cmd[1:],
                            "--lang", "zh_CN"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=180)
        assert r.returncode in (0, 2), r.stderr
        text += r.stdout + r.stderr
    assert "中国特供版" in text or "(China)" not in text
    found = _found(text)
    assert not found, "\n".join(found[:20])


@pytest.mark.skipif(not __import__("shutil").which("pdftotext"),
                    reason="poppler's pdftotext is not installed (apt-get install poppler-utils)")
@pytest.mark.parametrize("name", ZH_EXAMPLES[:3])
def test_chinese_pdf_names_no_identifiers(name, tmp_path):
    pdf = tmp_path / "r.pdf"
    r = subprocess.run([sys.executable, "-m", "gpuplanner", "report", str(ROOT / "examples" / name), "-o", str(pdf),
                        "--lang", "zh_CN"], capture_output=True, text=True, env=_zh_env(tmp_path), cwd=tmp_path,
                       timeout=180)
    assert r.returncode == 0, r.stderr
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True, check=True,
                          timeout=60).stdout
    assert "中国特供版" in text
    found = _found(text, PDF_IDENTIFIERS)
    assert not found, "\n".join(found[:20])


def test_the_identifier_scan_can_fail():
    assert _found("未排名：a800（NVIDIA A800 PCIe 80GB (China)）") and _found("（可用 constraints.rules.card_class）")
    assert not _found("未排名：a800（NVIDIA A800 PCIe 80GB (中国特供版)）")
    assert _found("   ✓ [mfu_grade: 通过] 估计 MFU 50%") and _found("搜索的框架：hf, deepspeed, fsdp")
    assert _found("未尝试：Megatron-Core（不支持 lora）。")
    assert not _found("   ✓ [MFU 评级: 通过] …") and not _found("未尝试：Megatron-Core（不支持 LoRA 微调）。")


@pytest.mark.parametrize("name", ["llama3-8b-full-8xh100-zero3.json", "7b-lora-1x4090.json"])
def test_plan_top_5_is_the_first_rows_of_the_apps_list(name):
    """``plan --top 5`` and the Plans page (20 rows) number the same plans: #2 is #2 in both (it was one plan
    per GPU type in the CLI, all plans in the app)."""
    from gpuplanner.core.search import RANKED_LIST_LENGTH, search
    from gpuplanner.io.scenario_files import load_scenario
    from gpuplanner.app import engine

    s, models = load_scenario(_src(name))
    key = lambda p: (p.gpu, p.num_gpus, p.tp, p.pp, p.framework, p.cost)  # noqa: E731
    five = [key(p) for p in search(s, models, top=5).plans]
    app = [key(r.plan) for r in engine.search_plans(s, ROOT / "examples").plans]
    assert len(app) <= RANKED_LIST_LENGTH and five == app[:5]


def test_rent_or_build_buys_a_machine_the_size_of_a_pcie_job():
    """A one-card RTX 4090 job is compared with buying a one-card machine, not a whole 8-card server; an SXM
    baseboard still comes whole."""
    from gpuplanner.core.cost import PriceTable, default_build_inputs
    from gpuplanner.core.scenario import scenario_from_dict

    s = scenario_from_dict({"model": {"preset": "llama-2-7b"}, "training": {"method": "lora"}, "data": {"tokens": "10M"}})
    table = PriceTable.from_constraints(s.constraints)
    one = default_build_inputs("rtx-4090-24gb", 1, table, gpus_per_node=8)
    assert (one.machines, one.gpus_per_machine) == (1, 1)
    eight = default_build_inputs("rtx-4090-24gb", 8, table, gpus_per_node=8)
    assert (eight.machines, eight.gpus_per_machine) == (1, 8)
    assert one.machine_price == pytest.approx(eight.machine_price / 8)
    sxm = default_build_inputs("h100-sxm-80gb", 2, table, gpus_per_node=8)
    assert (sxm.machines, sxm.gpus_per_machine) == (1, 8)


def test_the_search_keeps_the_users_network_and_says_its_nic_default():
    """Mixtral on 16 A800 with an explicit ``roce-200``: every GPU the search tries keeps the user's fabric (it
    used to fall back to each GPU's default), and the one-NIC-per-server default is said, not silent."""
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.search import search
    from gpuplanner.io.scenario_files import load_scenario

    s, models = load_scenario(ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json")
    assert s.hardware.inter_node == "roce-200" and s.hardware.nics_per_node is None
    res = search(s, models, top=20)
    assert {p.gpu for p in res.plans} - {s.hardware.gpu}, "only the scenario's GPU was ranked"
    assert {p.scenario.hardware.inter_node for p in res.plans} == {"roce-200"}
    ev = evaluate(s, models)
    texts = [m.render() for m in ev.messages] if hasattr(ev, "messages") else []
    texts += [m.render() for m in getattr(ev, "warnings", ())]
    assert any("one NIC per server assumed" in t for t in texts), texts
    s2 = s.model_copy(update={"hardware": s.hardware.model_copy(update={"nics_per_node": 8})})
    ev2 = evaluate(s2, models)
    texts2 = [m.render() for m in getattr(ev2, "messages", ())]
    assert not any("one NIC per server assumed" in t for t in texts2)


def test_automatic_layout_keeps_a_global_batch_smaller_than_the_gpu_count(tmp_path):
    """Llama-2-70B on 2,048 A100s with its published global batch of 1,024 sequences: the automatic layout is
    searched (TP/PP layouts), not rejected for the manual fields' pure data parallelism; a manual layout that
    cannot keep the batch says which model-parallel group would."""
    import json

    from gpuplanner.core.errors import PlannerError
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.search import search

    d = {"model": {"preset": "llama-2-70b"},
         "training": {"method": "pretrain", "seq_len": 4096, "micro_batch_size": 1, "global_batch_size": 1024,
                      "framework": "megatron"},
         "parallel": {"auto": True}, "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 2048, "gpus_per_node": 8},
         "data": {"tokens": "2T"}, "constraints": {"max_gpus": 2048, "gpu_candidates": ["a100-sxm-80gb"]}}
    res = search(scenario_from_dict(json.loads(json.dumps(d))), top=5)
    assert res.plans and all(1024 % (p.scenario.training.micro_batch_size * p.scenario.dp) == 0 for p in res.plans)
    d["parallel"] = {"tp": 1}
    with pytest.raises((PlannerError, ValueError)) as err:
        scenario_from_dict(d)
    assert "tp·pp·cp=2 (dp 1024)" in str(err.value)


@pytest.mark.parametrize("lo,hi", [(9000, 18000), (11_000, 19_000), (1.2, 1.9), (2.1e5, 4.4e5)])
def test_a_log_axis_inside_one_decade_has_two_labels_or_more(lo, hi):
    from gpuplanner.report.charts import log_ticks as report_ticks

    for vals in (report_ticks(lo, hi), [10 ** v for v, _ in __import__("gpuplanner.ui.charts", fromlist=["x"]).log_ticks(lo, hi)]):
        assert len(vals) >= 2, (lo, hi, vals)
        assert all(lo * (1 - 1e-9) <= v <= hi * (1 + 1e-9) for v in vals)


def test_the_empty_cost_chart_has_no_tick_labels(qtbot):
    from gpuplanner.ui.charts import CostChart

    c = CostChart()
    qtbot.addWidget(c)
    c.update_plans([], None, "CNY", status="Searching…")
    pi = c.plot.getPlotItem()
    for side in ("bottom", "left"):
        assert pi.getAxis(side)._tickLevels == [[], []]  # pyqtgraph draws no tick at all


def test_edge_ticks_do_not_count_as_labels():
    """The scaling chart of a 70B on 32–256 GPUs: 10K–562K tokens/s with room for five labels drew "10K" on the
    bottom edge (not drawn) and "100K": one visible label. Now at least two lie inside the range."""
    from gpuplanner.ui.charts import log_ticks

    lo, hi = 1e4, 10 ** 5.75
    inside = [v for v, _ in log_ticks(lo, hi, max_ticks=3) if lo * 1.02 < 10 ** v < hi / 1.02]
    assert len(inside) >= 2, log_ticks(lo, hi, max_ticks=3)


def test_the_reports_plan_names_the_gpu_not_the_files_label():
    """Review of issue 36: the PDF's Plan row printed the label stored in the plan file ("4 × a800-sxm-80gb (full
    fine-tuning)", a catalog id and English words in the Chinese report), its GPU row and its price source the
    catalog id; now the plan is "N × GPU name" (a selected plan's rank after it), the price row the GPU's name."""
    from gpuplanner.app.answer import report_data

    data = report_data(ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan")
    assert data.plan.label == "4 × NVIDIA A800 SXM4 80GB (China)", data.plan.label
    rows = [s for s in data.assumptions if "card-hour" in s.what.text]
    assert rows and rows[0].what.params == {"gpu": "NVIDIA A800 SXM4 80GB (China)"}, rows


@pytest.mark.skipif(not __import__("shutil").which("pdftotext"),
                    reason="poppler's pdftotext is not installed (apt-get install poppler-utils)")
def test_chinese_pdfs_default_price_note_has_no_stray_comma(tmp_path):
    """Review of issue 36: the zh PDF read "（2024） — ，为内置默认值" (the note's translation began with a comma
    that the " — " before it already stands for)."""
    pdf = tmp_path / "r.pdf"
    example = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"
    r = subprocess.run([sys.executable, "-m", "gpuplanner", "report", str(example),
                        "-o", str(pdf), "--lang", "zh_CN"], capture_output=True, text=True, env=_zh_env(tmp_path),
                       cwd=tmp_path, timeout=180)
    assert r.returncode == 0, r.stderr
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True, check=True,
                          timeout=60).stdout.replace("\n", "")
    assert "为内置默认值" in text and "— ，" not in text

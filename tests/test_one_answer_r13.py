"""One plan, one answer on round 13's new paths (issue 35 r13 parity13).

Round 13 added: DeepSpeed-Chat's Hybrid Engine (``training.rl.hybrid_engine``, postoos13: the actor decodes through
DeepSpeed-Inference's fused kernels, methods.eager_decode_s_per_layer); verl's FSDP1 gradient casts and divisions
around each reduce-scatter (the named breakdown part ``fsdp1_grad_passes``, verl13); vLLM's and SGLang's 8-bit
prefill, whose matmuls alone speed up (inference.eight_bit_gemm_share, read through ``engine=`` by ``prefill_s`` /
``time_to_first_token_s`` / ``_prefill_step_s``, fp8lin13). For each: a case where the term is live (switching it off
moves the figure, so the test can fail), and the same figure in ``gpuplanner plan`` (text and ``--json``),
``estimate --json``, the search's own rows, ``project`` and the PDF's text (en and zh), all read from one Evaluation /
ServingSize. The app's copies (Plans page, Project page) are checked in tests/ui/test_one_answer_r13_ui.py.
"""

from __future__ import annotations

import ast
import copy
import json
import re
import sys
import tempfile
from pathlib import Path

import pytest

from gpuplanner.core import inference as I
from gpuplanner.core import methods as M

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_one_answer import _estimate_json, _plan_json  # noqa: E402
import test_one_answer_r10 as R10  # noqa: E402  (a module, so pytest does not collect its tests again here)
import test_one_answer_r12 as R12  # noqa: E402
from test_one_answer_r11 import _cli, _flat, _pdf_text, _tight, _zh_line  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SERVE_SRC = R12.SERVE_SRC


def _write(d: dict, name: str) -> Path:
    out = Path(tempfile.mkdtemp(prefix="parity13-")) / name
    out.write_text(json.dumps(d), encoding="utf-8")
    return out


# ---------------------------------------------------------------------------- DeepSpeed-Chat's Hybrid Engine (postoos13)

#: PPO on DeepSpeed, the actor generating (``generation_engine`` training) with ``--enable_hybrid_engine``; the
#: search picks the layout and the card count (``parallel.auto``)
HYBRID = {"model": {"preset": "qwen2.5-1.5b"},
          "training": {"objective": "ppo", "method": "full", "framework": "deepspeed", "precision": "bf16",
                       "seq_len": 1024, "micro_batch_size": 4, "global_batch_size": 64,
                       "preference": {"beta": 0.1, "reference": "separate"},
                       "rl": {"group_size": 1, "rollout_len": 512, "prompt_len": 512, "generation_engine": "training",
                              "reward": "model", "hybrid_engine": True}},
          "parallel": {"zero": 2, "auto": True}, "data": {"tokens": 2e7},
          "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}}


def _hybrid(on: bool, d: dict | None = None) -> dict:
    d = copy.deepcopy(HYBRID if d is None else d)
    d["training"]["rl"]["hybrid_engine"] = on
    return d


def _searched_frameworks() -> dict:
    """:data:`HYBRID` with no framework named: the search picks among DeepSpeed and TRL."""
    d = copy.deepcopy(HYBRID)
    d["training"].pop("framework")
    d["constraints"]["framework_candidates"] = ["deepspeed", "trl"]
    return d


def test_hybrid_engine_plan_json_reproduces_and_the_switch_is_live(tmp_path, capsys):
    """``plan --json``'s plans keep ``training.rl.hybrid_engine`` and reproduce with ``estimate --json``; the same
    layouts with the switch off take longer (the model's own 43 kernels a layer instead of 14-15): the search timed
    them with it."""
    plans = _plan_json(tmp_path, HYBRID, capsys, top=3)["plans"]
    assert plans
    for p in plans:
        assert p["scenario"]["training"]["rl"]["hybrid_engine"] is True
        on = _estimate_json(tmp_path, p["scenario"], capsys)
        assert on["step_time_s"] == pytest.approx(p["step_time_s"], rel=1e-9)
        off = _estimate_json(tmp_path, _hybrid(False, p["scenario"]), capsys)
        assert off["step_time_s"] > on["step_time_s"] * 1.05, (on["step_time_s"], off["step_time_s"])


def test_hybrid_engine_plan_text_and_pdf_days(tmp_path, capsys):
    """``plan`` text prints #1's calendar days; the document stands for #1 (``parallel.auto``), and its PDF (en and zh)
    carries the same days; the switch off gives other days (the term reaches the printed figure)."""
    from gpuplanner.app.answer import answer
    from gpuplanner.formatting import format_plan_span

    (p,) = _plan_json(tmp_path, HYBRID, capsys, top=1)["plans"]
    days = format_plan_span(p["calendar_days"], tuple(p["calendar_days_band"]))[0]  # the headline (ux22)
    doc = _write(HYBRID, "hybrid.json")
    assert days in _flat(_cli(["plan", str(doc), "--top", "1"], capsys))
    ans = answer(doc)
    assert ans.evaluation.calendar_days == pytest.approx(p["calendar_days"], rel=1e-9)
    assert ans.evaluation.scenario.training.rl.hybrid_engine is True
    (p_off,) = _plan_json(tmp_path, _hybrid(False), capsys, top=1)["plans"]
    assert format_plan_span(p_off["calendar_days"], tuple(p_off["calendar_days_band"]))[0] != days
    assert days in _flat(_pdf_text(doc, tmp_path))
    zh = format_plan_span(p["calendar_days"], tuple(p["calendar_days_band"]), "zh_CN")[0]
    assert _tight(zh) in _tight(_pdf_text(doc, tmp_path, "zh_CN"))


def test_hybrid_engine_search_equals_evaluate(tmp_path, capsys):
    """The ranking's arrays equal ``evaluate`` of each candidate, and the top plans reproduce (round 10's harness)."""
    R10.test_round10_paths_search_equals_evaluate(copy.deepcopy(HYBRID), tmp_path, capsys)


def test_hybrid_engine_moves_the_search_rows(monkeypatch):
    """The search's own rows read the switch: with the Hybrid Engine's kernel count set to the model's own, the
    ranking's compute hours of the same candidates grow."""
    import numpy as np

    from gpuplanner.core import search as S
    from gpuplanner.core.scenario import scenario_from_dict

    def hours() -> np.ndarray:
        s = scenario_from_dict(HYBRID)
        (ctx,) = list(S.iter_contexts(s))
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        v = S.evaluate_candidates(ctx, c)
        return np.where(v["fits"], v["train_hours"], np.nan)

    on = hours()
    monkeypatch.setattr(M, "DS_HYBRID_DECODE_OPS_PER_LAYER", M.EAGER_DECODE_OPS_PER_LAYER)
    off = hours()
    ok = np.isfinite(on) & np.isfinite(off)
    assert ok.any() and bool(np.all(off[ok] > on[ok])), (on, off)


def test_searched_framework_plan_keeps_the_hybrid_engine(tmp_path, capsys):
    """A search among frameworks (the file names none) that picks DeepSpeed times it with the Hybrid Engine, as a file
    naming DeepSpeed is timed; every plan, DeepSpeed or not, reproduces with ``estimate --json`` of its scenario."""
    plans = _plan_json(tmp_path, _searched_frameworks(), capsys, top=4)["plans"]
    assert plans[0]["scenario"]["training"]["framework"] == "deepspeed"
    for p in plans:
        e = _estimate_json(tmp_path, p["scenario"], capsys)
        assert e["step_time_s"] == pytest.approx(p["step_time_s"], rel=1e-9)
    (named,) = _plan_json(tmp_path, HYBRID, capsys, top=1)["plans"]
    assert plans[0]["step_time_s"] == pytest.approx(named["step_time_s"], rel=1e-9)


def test_hybrid_engine_survives_the_plan_file(tmp_path):
    """Saved in a .gpuplan (the app's Save, autosave and recovery write ``planfile.dumps``), with the chosen plan's
    complete scenario: read back, the switch is on in both, and the file answers the same days as the scenario."""
    from gpuplanner.app.answer import answer
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.io import planfile

    s = scenario_from_dict(_hybrid(True, {**HYBRID, "parallel": {"zero": 2},
                                          "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}))
    ev = evaluate(s)
    doc = planfile.new_document(s, title="hybrid")
    doc = doc.model_copy(update={"selected_plan": planfile.SelectedPlan(gpu="h100-sxm-80gb", num_gpus=8, scenario=s)})
    path = tmp_path / "hybrid.gpuplan"
    path.write_bytes(planfile.dumps(doc))
    back, _warnings = planfile.load(path)
    assert back.scenario.training.rl.hybrid_engine is True
    assert back.selected_plan.scenario.training.rl.hybrid_engine is True
    ans = answer(path)
    assert ans.evaluation.scenario.training.rl.hybrid_engine is True
    assert ans.evaluation.calendar_days == pytest.approx(ev.calendar_days, rel=1e-12)
    assert evaluate(scenario_from_dict(_hybrid(False, s.model_dump(mode="json")))).calendar_days > ev.calendar_days


def test_hybrid_engine_in_a_project_training_phase(capsys):
    """A project whose training phase is the Hybrid Engine PPO run: ``project --json`` gives that phase's compute and
    calendar days as ``estimate --json`` of the same scenario does (one Evaluation); the switch off, longer days."""
    from gpuplanner.app.answer import answer

    def doc(on: bool) -> Path:
        d = json.loads(SERVE_SRC.read_text(encoding="utf-8"))
        d["scenario"] = _hybrid(on, {**HYBRID, "parallel": {"zero": 2},
                                     "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}})
        return _write(d, "hybrid-project.gpuplan")

    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.scenario import scenario_from_dict

    days, what_if = {}, {}
    for on in (True, False):
        path = doc(on)
        ans = answer(path)
        (train,) = [ph for ph in ans.project.phases if ph.evaluation is not None]
        assert train.evaluation.scenario.training.rl.hybrid_engine is on
        e = json.loads(_cli(["estimate", str(path), "--json"], capsys))
        assert train.evaluation.compute_days == pytest.approx(e["compute_days"], rel=1e-9)
        days[on] = train.evaluation.compute_days
        (ph,) = [ph for ph in json.loads(_cli(["project", str(path), "--json"], capsys))["phases"] if "training" in ph]
        assert ph["training"]["compute_days"] == pytest.approx(days[on], rel=1e-12)
        assert ph["training"]["calendar_days"] == pytest.approx(train.evaluation.calendar_days, rel=1e-12)
        assert ph["work_weeks"] * 7.0 == pytest.approx(train.evaluation.calendar_days, rel=1e-9)
        # the project's what-if "10× data" is the same scenario with ten times the tokens, evaluated once
        rows = {r["change"]: r for r in json.loads(_cli(["project", str(path), "--json"], capsys))["what_if"]}
        more = copy.deepcopy(train.evaluation.scenario.model_dump(mode="json"))
        more["data"]["tokens"] *= 10
        assert rows["tokens_x10"]["calendar_days"] == pytest.approx(evaluate(scenario_from_dict(more)).calendar_days,
                                                                    rel=1e-12)
        what_if[on] = rows["tokens_x10"]["calendar_days"]
    assert days[True] < days[False] * 0.95, days
    assert what_if[True] < what_if[False] * 0.95, what_if


# ---------------------------------------------------------------------------- verl's FSDP1 gradient passes (verl13)

VERL = json.loads((ROOT / "tests" / "data" / "breakdown6" / "verl-ppo-fsdp1-7b-offload.json").read_text(encoding="utf-8"))


def test_fsdp1_grad_passes_part_everywhere(tmp_path, capsys):
    """The named part in ``estimate`` (text and JSON), the PDF's table and the zh label, from one Evaluation."""
    R12.check_part_everywhere(copy.deepcopy(VERL), "fsdp1_grad_passes", tmp_path, capsys, harness=False)


def test_fsdp1_grad_passes_searched_plans_carry_it(tmp_path, capsys):
    """A searched verl plan (``parallel.auto``; the count and layout the search's) is timed with the part: ``plan
    --json``'s #1 reproduces with ``estimate --json`` and names the part in its ``time_parts``."""
    d = copy.deepcopy(VERL)
    d["parallel"]["auto"] = True
    d["constraints"] = {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}
    plans = _plan_json(tmp_path, d, capsys, top=2)["plans"]
    assert plans
    for p in plans:
        e = _estimate_json(tmp_path, p["scenario"], capsys)
        assert e["step_time_s"] == pytest.approx(p["step_time_s"], rel=1e-9)
        if p["scenario"]["training"].get("fsdp_version", 1) == 1 and p["num_gpus"] > 1:
            assert e["time_parts"]["fsdp1_grad_passes"]["seconds"] > 0.0, e["time_parts"]


# ---------------------------------------------------------------------------- 8-bit prefill of vLLM and SGLang (fp8lin13)

#: expert11's 32B serving project served with FP8 weights and an FP8 KV cache on H100s (vLLM, its default engine)
FP8_VLLM_DOC = R12._serving_doc(precision="fp8", kv_precision="fp8", gpu="h100-sxm-80gb")
FP8_SGLANG_DOC = R12._serving_doc(precision="fp8", kv_precision="fp8", gpu="h100-sxm-80gb", engine="sglang")


def _eight_bit_rule_off(mp) -> None:
    """Round 12's rule: the 8-bit matmul ratio on the whole forward for every engine."""
    mp.setattr(I, "EIGHT_BIT_16BIT_ACTIVATION_ENGINES", ())


FP8_CASES = [("vllm-fp8-prefill", FP8_VLLM_DOC, _eight_bit_rule_off),
             ("sglang-fp8-prefill", FP8_SGLANG_DOC, _eight_bit_rule_off)]


@pytest.mark.parametrize("case", FP8_CASES, ids=[c[0] for c in FP8_CASES])
def test_fp8_first_token_is_the_same_in_project_and_pdf_and_live(case, tmp_path, capsys):
    """The idle replica's first token: ``project`` and the en PDF print ``ServingSize.ttft_s``; under the round-12
    rule (the matmul ratio on the whole forward) it is shorter, so the 8-bit share reaches the printed figure."""
    R12.test_first_token_is_the_same_in_project_and_pdf_and_live(case, tmp_path, capsys)


@pytest.mark.parametrize("doc", [FP8_VLLM_DOC, FP8_SGLANG_DOC], ids=["vllm", "sglang"])
def test_fp8_first_token_in_chinese_project_and_pdf(doc, tmp_path, capsys):
    """``project --lang zh_CN`` and the zh PDF carry the en CLI's milliseconds."""
    from gpuplanner.core.serving_facts import first_token_line

    ms = R12._first_token_ms(_cli(["project", str(doc)], capsys))
    zh = _zh_line(first_token_line(R12._serving(doc)))
    out = _cli(["project", str(doc), "--lang", "zh_CN"], capsys)
    assert R12._first_token_ms(out, zh=True) == ms and "first token" not in out and _tight(zh) in _tight(out)
    pdf = _pdf_text(doc, tmp_path, "zh_CN")
    assert "first token" not in pdf and _tight(zh) in _tight(pdf)


def _tokens_per_gpu(out: str) -> str:
    m = re.search(r"serving: TP \d+, [\d,]+ users per replica, [\d,]+ replicas?, ([\d,.]+) tokens/s per GPU",
                  _flat(out))
    assert m, _flat(out)[-3000:]
    return m.group(1)


def test_fp8_throughput_per_gpu_is_the_project_figure_and_live(capsys):
    """The serving line's tokens/s per GPU is the phase's ``ServingSize.tokens_per_s_per_gpu`` (the replica's
    prefill timed with the engine), and the round-12 rule gives another figure."""
    from gpuplanner.formatting import format_number

    s = R12._serving(FP8_VLLM_DOC)
    shown = _tokens_per_gpu(_cli(["project", str(FP8_VLLM_DOC)], capsys))
    assert shown == format_number(s.tokens_per_s_per_gpu, 0), (shown, s.tokens_per_s_per_gpu)
    with pytest.MonkeyPatch.context() as mp:
        _eight_bit_rule_off(mp)
        s_off = R12._serving(FP8_VLLM_DOC)
    assert s_off.tokens_per_s_per_gpu != pytest.approx(s.tokens_per_s_per_gpu, rel=1e-4)


SERVING_FNS = ("prefill_s", "time_to_first_token_s", "_prefill_step_s", "replica", "max_load_run")


#: the serving phase priced on every default serving card (no ``inference.gpu``): the project's own search of cards
FP8_SGLANG_CARDS_DOC = R12._serving_doc(precision="fp8", kv_precision="fp8", gpu=None, engine="sglang")


@pytest.mark.parametrize("doc,engine", [(FP8_VLLM_DOC, "vllm"), (FP8_SGLANG_DOC, "sglang"),
                                        (FP8_SGLANG_CARDS_DOC, "sglang")], ids=["vllm", "sglang", "sglang-cards"])
def test_every_serving_call_of_a_project_names_its_engine(doc, engine, monkeypatch):
    """Sizing the serving phase (the one answer the CLI, the PDF and the Project page read) calls the prefill
    functions with the phase's engine each time: none falls back to ``engine=None`` (the round-12 rule)."""
    from gpuplanner.app.answer import answer

    calls: list[tuple[str, object]] = []
    for name in SERVING_FNS:
        f = getattr(I, name)

        def spy(*a, _f=f, _n=name, **k):
            calls.append((_n, k.get("engine", "<missing>")))
            return _f(*a, **k)

        monkeypatch.setattr(I, name, spy)
    assert [ph.serving for ph in answer(doc).project.phases if ph.serving is not None]
    assert {n for n, _ in calls} >= {"prefill_s", "time_to_first_token_s", "_prefill_step_s"}
    assert {e for _, e in calls} == {engine}, sorted(set(calls))


def _calls_without_engine(tree: ast.AST, names: tuple[str, ...]) -> list[tuple[str, int]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            fn = node.func
            name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", None)
            if name in names and not any(k.arg in ("engine", None) for k in node.keywords):
                out.append((name, node.lineno))
    return out


def test_no_prefill_call_in_the_planner_leaves_the_engine_out():
    """Every call of the prefill functions in gpuplanner/ names the engine whose 8-bit forward it times (a call
    without it would price an FP8 vLLM plan by round 12's rule in that view only). The static-batch function passes
    its own ``engine`` (TensorRT-LLM's by default: its gptSessionBenchmark tables)."""
    names = ("prefill_s", "time_to_first_token_s", "_prefill_step_s")
    bad = []
    for path in sorted((ROOT / "gpuplanner").rglob("*.py")):
        bad += [(str(path.relative_to(ROOT)), n, line)
                for n, line in _calls_without_engine(ast.parse(path.read_text(encoding="utf-8")), names)]
    assert not bad, bad

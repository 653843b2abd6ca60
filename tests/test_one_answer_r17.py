"""One plan, one answer on what round 17 added (issue 35 r17 parity17).

Round 17 added figures and lines: a serving phase's p95 inter-token latency and first token under load and an
offline job's documents-per-second target (servoos17: ``core.serving_facts.serving_lines``), the project against its
budget and the phase to cut (econ17, review17: ``core.project.ProjectBudget``), a vendor's offers billed together
("2 months + 2 weeks", quotes17: ``core.quotes.combined_cost``), the capped-MFU mark and note (advice18, review17:
``Evaluation.mfu_capped`` / ``mfu_note``), the vision tower's time (rlstep17: ``timing.vision_tok_flops``), verl's
offload memory (post18) and two training switches, ``training.mixed_precision_off`` (ftoos17) and
``training.logits_held`` (memoos17). Each view — ``gpuplanner plan/project/quotes`` text and ``--json``, the app's
pages, the PDF in both languages — must read the one Answer/Evaluation; these tests fail if one works a figure out
itself. The Plans page's half is ``tests/ui/test_one_answer_r17_ui.py``; the note is
docs/notes/2026-12-07/issue-35-r17-parity17.md.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_one_answer_r10 as R10  # noqa: E402  (a module, so pytest does not collect its tests again here)
from test_one_answer_r11 import _pdf_text, _tight  # noqa: E402

from gpuplanner.cli import run_cli  # noqa: E402
from gpuplanner.io import planfile  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHENZHEN = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"
EXAMPLE_70B = ROOT / "examples" / "llama3-70b-pretrain-64xh800-tp8pp4.json"

# ---------------------------------------------------------------------------- the search's arrays = evaluate

#: a vision-language SFT with the tower trained (rlstep17: the ViT's and the merger's FLOPs reach the step time)
VL_TOWER = {"model": {"preset": "qwen2-vl-7b"},
            "training": {"method": "full", "seq_len": 4096, "micro_batch_size": 1, "global_batch_size": 64,
                         "freeze_vision": False, "freeze_projector": False},
            "data": {"tokens": "50M", "images_per_sample": 2},
            "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}}

#: the HF stack's full fine-tune holding its fp32 logits through the backward (memoos17: training.logits_held)
LOGITS_HELD = {"model": {"preset": "qwen2.5-1.5b"},
               "training": {"framework": "hf", "method": "full", "seq_len": 8192, "micro_batch_size": 1,
                            "global_batch_size": 32, "recompute": "full", "flash_attention": True,
                            "chunked_loss": False, "logits_held": True},
               "parallel": {"zero": 3}, "data": {"tokens": 2e7},
               "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}}

R17_CASES = {"vision-tower-trained": VL_TOWER, "logits-held": LOGITS_HELD}


@pytest.mark.parametrize("name", list(R17_CASES))
def test_round17_search_equals_evaluate(name, tmp_path, capsys):
    R10.test_round10_paths_search_equals_evaluate(copy.deepcopy(R17_CASES[name]), tmp_path, capsys)


def test_the_round17_cases_take_the_mechanisms():
    """The cases above are not vacuous: the trained tower adds time, the held logits add memory."""
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.scenario import Scenario

    def ev(d, **training):
        d = copy.deepcopy(d)
        d["training"].update(training)
        d["hardware"] = {"gpu": "h100-sxm-80gb", "num_gpus": 8}
        return evaluate(Scenario.model_validate(d))

    assert ev(VL_TOWER).time.step_time_s > ev(VL_TOWER, freeze_vision=True, freeze_projector=True).time.step_time_s
    assert ev(LOGITS_HELD).memory.total > ev(LOGITS_HELD, logits_held=False).memory.total


# ---------------------------------------------------------------------------- no view works a round-17 figure out

VIEWS = [p for d in ("ui", "report", "commands") for p in (ROOT / "gpuplanner" / d).rglob("*.py")] + [
    ROOT / "gpuplanner" / "cli.py"]
#: a view's own copy of a round-17 figure or verdict: the budget's verdict (review17 found three copies of
#: ``over_by > 0 or far_end is None``), the p95 latencies and the offline sizing (core.inference.load_latency /
#: offline_replicas), the combined bill (core.quotes.combined_cost / core.cost.cheapest_periods), the capped rule
#: (advisor.capped / ceiling_run / time_modelled compared with time), the tower's FLOPs (timing.vision_tok_flops)
COMPUTES = [
    (re.compile(r"over_by\s*>\s*0|far_end\s+is\s+None"), "the budget's verdict: ProjectBudget.within"),
    (re.compile(r"(?<![\w.])(load_latency|offline_replicas|latency_quantile)\("), "p95 / offline: ServingSize"),
    (re.compile(r"target_tokens_per_s\s*/|documents_per_s\s*\*"), "offline target: serving_facts.offline_line"),
    (re.compile(r"(?<![\w.])(combined_cost|cheapest_periods)\("), "a combined bill: the Comparison's OfferCost"),
    (re.compile(r"(?<![\w.])(ceiling_run|ceiling_figure|capped)\(|time_modelled\s+is\s+not"),
     "the capped rule: Evaluation.mfu_capped / mfu_note"),
    (re.compile(r"(?<![\w.])vision_tok_flops\("), "the tower's time: the Evaluation's step"),
]


def _computing(lines):
    return [(line, what) for line in lines for rx, what in COMPUTES if rx.search(line)]


def test_no_view_works_out_a_round17_figure():
    found = [f"{p.relative_to(ROOT)}: {line.strip()} ({what})" for p in VIEWS
             for line, what in _computing(p.read_text(encoding="utf-8").splitlines())]
    assert not found, "\n".join(found)


def test_the_scan_finds_the_old_lines():
    old = ["        over_budget=result.budget is not None and (result.budget.over_by > 0",
           '        self.budget.setStyleSheet("color: #b00020;" if b.over_by > 0 or b.far_end is None else "")',
           "    lat = load_latency(s, eff)", "    docs = s.target_tokens_per_s / s.output_tokens",
           "    c = combined_cost(offers, days, cards)", "    if p.evaluation.time_modelled is not p.evaluation.time:",
           "    run = ceiling_run(ev.scenario)", "    v = vision_tok_flops(a, p, d, t, prof, n)"]
    assert len(_computing(old)) == len(old)


# ---------------------------------------------------------------------------- the budget: one ProjectBudget

def _shenzhen(tmp_path, *, budget=None, serving=None) -> Path:
    d = json.loads(SHENZHEN.read_text(encoding="utf-8"))
    if budget is not None:
        d["scenario"]["constraints"]["budget"] = budget
    if serving is not None:
        ph = next(p for p in d["project"]["phases"] if p["name"] == "serving")
        ph["inference"].update(serving)
        ph["inference"].pop("tokens_per_s_per_user", None)
    p = tmp_path / "p.gpuplan"
    p.write_text(json.dumps(d), encoding="utf-8")
    return p


@pytest.fixture(scope="module")
def budgeted(tmp_path_factory):
    """The Shenzhen project with ¥12,000 of budget and its serving phase an offline job of 2.5 documents a second:
    the file, its Answer, the PDF's content (built from that Answer)."""
    from gpuplanner.app.answer import answer
    from gpuplanner.report.content import build_report_data

    path = _shenzhen(tmp_path_factory.mktemp("r17"), budget=12_000.0, serving={"documents_per_s": 2.5})
    ans = answer(path)
    return path, ans, build_report_data(ans)


def _cli(args, capsys) -> str:
    assert run_cli(args) == 0
    return capsys.readouterr().out


def test_budget_json_text_and_pdf_read_the_answers_project_budget(budgeted, capsys):
    from gpuplanner.commands._lang import msg
    from gpuplanner.report.content import Text

    path, ans, data = budgeted
    b = ans.project_replanned.budget
    assert b is not None and not b.within and b.cut is not None
    assert json.loads(_cli(["project", str(path), "--json"], capsys))["budget"] == json.loads(json.dumps(b.to_json()))
    for lang in ("en", "zh_CN"):
        text = _cli(["project", str(path), "--lang", lang], capsys)
        for m in b.lines():
            assert msg(m) in text, (lang, msg(m))
    assert data.project.budget == [Text.of(m) for m in b.lines()]
    assert data.project.over_budget is (not b.within)


def test_pdf_in_both_languages_prints_the_clis_budget_and_serving_lines(budgeted, tmp_path, capsys):
    """The PDF's text layer (pdftotext), English and Chinese, carries the budget sentences and the serving phase's
    p95 / offline lines ``gpuplanner project --lang`` prints, word for word (whitespace aside)."""
    from gpuplanner.core.serving_facts import serving_lines

    path, ans, _ = budgeted
    s = next(p.serving for p in ans.project_replanned.phases if p.serving is not None)
    for lang in ("en", "zh_CN"):
        text = _cli(["project", str(path), "--lang", lang], capsys)
        pdf = _tight(_pdf_text(path, tmp_path, lang))
        lines = _budget_block(text)
        assert len(lines) == len(ans.project_replanned.budget.lines()), (lang, lines)
        for ln in lines:
            assert _tight(ln[13:]) in pdf, (lang, ln)
        # the serving phase is the project's last: its lines are the last indented ones that are not a warning
        serving = [ln.strip() for ln in text.splitlines()
                   if ln.startswith(" " * 22) and not ln.strip().startswith("!")][-len(serving_lines(s)):]
        assert any("95%" in ln for ln in serving), serving
        for ln in serving:
            for clause in re.split(r"[;；]", ln):  # the PDF joins the phase's sentences as clauses
                assert _tight(clause.rstrip("。.")) in pdf, (lang, clause)


def _budget_block(text: str) -> list[str]:
    """The ``project`` text's budget lines: the one headed "Budget" (or its translation, the first column) and the
    unheaded ones after it (``commands.project.text_lines``)."""
    from gpuplanner.commands._lang import translate

    lines = text.splitlines()
    heads = ("Budget", "预算", translate("Project", "Budget"))  # the zh_CN .ts: 预算
    i = next(k for k, ln in enumerate(lines) if ln.startswith(heads))
    out = [lines[i]]
    for ln in lines[i + 1:]:
        if not ln.startswith(" " * 13) or not ln.strip() or ln.startswith(" " * 14):
            break
        out.append(ln)
    return out


# ---------------------------------------------------------------------------- serving: one list of lines

def test_serving_lines_json_text_and_pdf_read_the_answers_serving_size(budgeted, capsys):
    from gpuplanner.commands._lang import msg
    from gpuplanner.core.serving_facts import serving_lines

    path, ans, data = budgeted
    ph = next(p for p in ans.project_replanned.phases if p.serving is not None)
    s = ph.serving
    assert s.target_tokens_per_s == pytest.approx(2.5 * s.output_tokens)  # the file's documents_per_s
    assert s.p95_itl_s > 0 and s.p95_ttft_s > 0
    j = next(p for p in json.loads(_cli(["project", str(path), "--json"], capsys))["phases"]
             if p["name"] == ph.name)["inference"]
    for k in ("p95_itl_s", "p95_ttft_s", "target_tokens_per_s", "replicas", "batch_per_replica"):
        assert j[k] == getattr(s, k), k
    text = _cli(["project", str(path), "--lang", "en"], capsys)
    lines = serving_lines(s)
    assert len(lines) == 3 and all(msg(m) in text for m in lines)
    assert "offline target 2.50 documents/s" in text  # two decimals under 10 (serving_facts.offline_line)
    detail = next(p.detail for p in data.project.phases if p.detail and p.detail.get("what") == "serving")
    assert [m.render() for m in detail["lines"]] == [m.render() for m in lines]


# ---------------------------------------------------------------------------- quotes: one combination

def test_combination_json_text_and_pdf_are_the_comparisons(tmp_path, capsys):
    """A sheet of a server-week and a server-day for the Shenzhen plan (quotes17's UI case, 3 weeks + 2 days since
    advice19): ``quotes --json``'s combination, the text and the PDF's quotes section read the one Comparison.

    By hand (mend17a): the plan holds 4 × A800 for 22.5876 days (advice19 caps the layout at the borrowed 46% HFU;
    19.03 days before) = 542.10 h. A day costs 900, a week 6,000 (< 7 × 900 = 6,300, > 6 × 900 = 5,400), so whole
    weeks then days: 3 weeks (504 h) + the 38.10-h rest in ceil(38.10 / 24) = 2 days = 18,000 + 1,800 = 19,800;
    4 weeks 24,000; 2 weeks + 9 days 20,100; 23 days 20,700. Before: 2 weeks + 6 days = 17,400."""
    import shutil

    from gpuplanner.app.answer import answer
    from gpuplanner.report.content import build_report_data
    from gpuplanner.report.quotes_section import billing_text, html_section

    doc = tmp_path / "p.gpuplan"
    shutil.copy(SHENZHEN, doc)
    sheet = tmp_path / "weekly.csv"
    sheet.write_text("section,item,value,unit,gpus_per_server,min_term_days,cap_at_month,note,date\n"
                     "vendor,provider,Weekly,,,,,,\nvendor,currency,CNY,,,,,,\n"
                     "offer,a800-sxm-80gb,6000,server_week,4,,,,\noffer,a800-sxm-80gb,900,server_day,4,,,,\n",
                     encoding="utf-8")
    cli = json.loads(_cli(["quotes", str(doc), str(sheet), "--save", "--json"], capsys))
    v = next(x for x in cli["vendors"] if x["provider"] == "Weekly")
    assert [c.get("periods") for c in v["billing"]["combination"]] == [3, 2]
    assert v["total"] == 19800.0
    text = _cli(["quotes", str(doc), "--lang", "en"], capsys)
    data = build_report_data(answer(doc))
    pv = next(x for x in data.quotes.vendors if x.quote.provider == "Weekly")
    line = billing_text(pv, data.quotes.plan.currency if hasattr(data.quotes.plan, "currency") else "CNY",
                        lambda c, s: s, data.quotes.plan.num_gpus)
    assert line.startswith("3 weeks + 2 days") and line in text
    assert json.loads(json.dumps(data.quotes.to_json(), default=str))["vendors"] == cli["vendors"]
    assert line in html_section(data.quotes, lambda c, s: s).replace("&nbsp;", " ")


def test_combination_line_in_the_pdf_is_the_clis_in_both_languages(tmp_path, capsys):
    """The PDF's quotes section (pdftotext, English and Chinese) bills the weekly vendor with the words
    ``gpuplanner quotes --lang`` prints: "3 weeks + 2 days: …" (2 weeks + 6 days before advice19) and its
    translation."""
    import shutil

    doc = tmp_path / "p.gpuplan"
    shutil.copy(SHENZHEN, doc)
    sheet = tmp_path / "weekly.csv"
    sheet.write_text("section,item,value,unit,gpus_per_server,min_term_days,cap_at_month,note,date\n"
                     "vendor,provider,Weekly,,,,,,\nvendor,currency,CNY,,,,,,\n"
                     "offer,a800-sxm-80gb,6000,server_week,4,,,,\noffer,a800-sxm-80gb,900,server_day,4,,,,\n",
                     encoding="utf-8")
    _cli(["quotes", str(doc), str(sheet), "--save", "--json"], capsys)
    for lang in ("en", "zh_CN"):
        text = _cli(["quotes", str(doc), "--lang", lang], capsys)
        line = next(ln.strip() for ln in text.splitlines() if " + " in ln and "6,000.00" in ln)
        bill = re.split(r"[:：]", line, maxsplit=1)[1]  # after "billing:" / its translation
        pdf = _tight(_pdf_text(doc, tmp_path, lang))
        assert _tight(bill) in pdf, (lang, bill)


# ---------------------------------------------------------------------------- the capped mark

@pytest.fixture(scope="module")
def capped_70b():
    from gpuplanner.core import search as S
    from gpuplanner.core.scenario import Scenario

    s = Scenario.model_validate(json.loads(EXAMPLE_70B.read_text(encoding="utf-8")))
    res = S.search(s, top=3)
    assert res.plans[0].evaluation.mfu_capped
    return s, res


def test_capped_mark_json_text_and_pdf_read_the_evaluation(capped_70b, capsys):
    """``plan --json`` (``mfu_note``, ``time_modelled``), the table's "(capped)" and the PDF's step/MFU line read
    ``Evaluation.mfu_capped`` / ``mfu_note`` of the same plan."""
    from gpuplanner.commands._lang import msg
    from gpuplanner.report.content import plan_from_evaluation
    from gpuplanner.report.render import _step_mfu_text

    s, res = capped_70b
    j = json.loads(_cli(["plan", str(EXAMPLE_70B), "--json", "--top", "3"], capsys))["plans"]
    text = _cli(["plan", str(EXAMPLE_70B), "--top", "3", "--lang", "en"], capsys)
    for i, p in enumerate(res.plans):
        ev = p.evaluation
        jp = j[i]
        ej = jp.get("evaluation", jp)
        assert (ej["mfu_note"] is not None) is ev.mfu_capped
        assert (ej["time_modelled"] is not None) is ev.mfu_capped
        row = next(ln for ln in text.splitlines() if ln.startswith(f"{i + 1}  "))
        assert ("(capped)" in row) is ev.mfu_capped, row
        if ev.mfu_capped:
            assert msg(ev.mfu_note) in " ".join(text.split()) or msg(ev.mfu_note).split(";")[0] in text
            assert msg(ev.mfu_note) in _step_mfu_text(plan_from_evaluation(ev, "#1"))


# ---------------------------------------------------------------------------- save -> reopen

@pytest.mark.parametrize("field", ["mixed_precision_off", "logits_held"])
def test_switch_survives_save_and_reopen_as_set(field, tmp_path):
    """Set on: written and read back on, as set by the user; left alone: not written (saved-fields)."""
    doc, _ = planfile.loads(SHENZHEN.read_text(encoding="utf-8"), "p.gpuplan")
    data = json.loads(planfile.dumps(doc))
    assert field not in data["scenario"].get("training", {})
    again, warnings = planfile.loads(planfile.dumps(doc), "p.gpuplan")
    assert warnings == [] and field not in again.scenario.training.model_fields_set
    d = json.loads(SHENZHEN.read_text(encoding="utf-8"))
    d["scenario"]["training"][field] = True
    if field == "mixed_precision_off":  # the HF Trainer's LoRA without DeepSpeed (frameworks.mixed_precision_off_allowed)
        d["scenario"]["training"].update({"framework": "hf", "method": "lora"})
        d["scenario"].setdefault("parallel", {})["zero"] = 0
    doc2, _ = planfile.loads(json.dumps(d), "p.gpuplan")
    assert getattr(doc2.scenario.training, field) is True
    back, warnings = planfile.loads(planfile.dumps(doc2), "p.gpuplan")
    assert getattr(back.scenario.training, field) is True and field in back.scenario.training.model_fields_set


def test_offline_target_and_budget_survive_save_and_reopen(tmp_path):
    path = _shenzhen(tmp_path, budget=12_000.0, serving={"output_tokens_per_s": 900.0})
    doc, _ = planfile.loads(path.read_text(encoding="utf-8"), "p.gpuplan")
    back, warnings = planfile.loads(planfile.dumps(doc), "p.gpuplan")
    assert warnings == []
    assert back.scenario.constraints.budget == 12_000.0
    inf = next(p for p in back.project.phases if p.name == "serving").inference
    assert inf.output_tokens_per_s == 900.0 and inf.documents_per_s is None and inf.tokens_per_s_per_user is None

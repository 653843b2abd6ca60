"""Issue 35 round 15 (savers15): memory savers the user left unset are search options, only for the layouts that do
not fit with the tools' defaults, and a plan needing them yields to a plan without them by one rule
(core/advisor_savers.py ``saver_plan_yields``). A saver the user set (on or off) is never changed.

Round 14's request 02 (GRPO of Qwen2.5-32B, full, vLLM colocated, ≤ 32 GPUs, 7 days) ranked 8 × H200 by the month
(94,000 CNY) first for a 1.1-day job: no one-node 80 GB layout fits with vLLM awake and the optimizer on the GPU.
With the savers it did not ask for (vLLM asleep while the model trains, the optimizer states in CPU memory: ms-swift's
own colocated GRPO examples) one 8 × 80 GB node fits on card-hours."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core import advisor_savers as sv
from gpuplanner.core import search
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import Scenario
from tests.savers_off import savers_off

ROOT = Path(__file__).resolve().parents[1]
REQ02 = ROOT / "docs" / "notes" / "2026-12-07" / "issue-35-r14-advice14-requests" / "02-grpo-32b-week.json"
FULL7B = ROOT / "tests" / "data" / "expert_review" / "full-7b-deepspeed.json"
PREFIX = "Applies memory savers you did not ask for:"


def _doc(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _failed(p) -> set[str]:
    return {r.id for r in p.evaluation.rules if r.status == "failed"}


def _flat(text: str) -> str:
    return " ".join(text.split())


def _cli(args: list[str], capsys) -> str:
    assert run_cli(args) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def req02():
    return search.search(Scenario.model_validate(_doc(REQ02)), top=5)


def test_request_02_plan_one_is_a_card_hour_node_that_fits_by_the_savers(req02):
    """#1 is one 8-card node of 80 GB billed by the card-hour, every ranking rule passed, with vLLM asleep and the
    optimizer in CPU memory (the user set neither); the same layout with the defaults does not fit the card (its
    memory per GPU by the same Evaluation is above 80 GB), so the saver was needed, not merely cheaper."""
    one = req02.plans[0]
    assert one.unrequested_savers == ("sleep", "offload")
    assert one.rental_mode == "card_hour" and one.evaluation.nodes == 1 and one.num_gpus == 8
    assert one.evaluation.gpu_memory_gib == pytest.approx(80.0) and not _failed(one)
    s = one.scenario
    assert s.training.rl.engine_sleep and s.parallel.offload_optimizer
    assert one.calendar_days <= 7.0 and one.cost < 0.05 * 94000  # round 14's #1: 8 × H200 by the month, ¥94,000
    plain = s.model_copy(update={
        "parallel": s.parallel.model_copy(update={"offload_optimizer": False}),
        "training": s.training.model_copy(update={"rl": s.training.rl.model_copy(update={"engine_sleep": False})})})
    ev = evaluate(Scenario.model_validate(plain.model_dump()))
    assert ev.memory.total > 80.0
    # the line says so, under the rank line, naming the fields
    line = one.explanation[1]
    assert one.explanation[0].render().startswith("Ranks #1") and line.text == sv.UNREQUESTED_LINE
    assert "training.rl.engine_sleep" in line.render() and "parallel.offload_optimizer" in line.render()


def test_a_full_7b_whose_defaults_fit_keeps_a_plan_one_without_savers():
    """Qwen2.5-7B full fine-tuning on ≤ 8 GPUs (DeepSpeed): the defaults fit on 4 × H800 (ZeRO-3). One H800 with the
    optimizer in CPU memory is a little cheaper and about four times slower: it ranks after (round-15 finding (b)),
    and would rank first without the rule (it is cheaper)."""
    res = search.search(Scenario.model_validate(_doc(FULL7B)), top=5)
    one = res.plans[0]
    assert one.unrequested_savers == () and not one.offload_optimizer
    saver = next(p for p in res.plans if p.unrequested_savers)
    assert saver.unrequested_savers == ("offload",) and saver.offload_optimizer
    assert saver.cost < one.cost  # by the objective alone it would be #1
    assert saver.cost > one.cost * (1 - search.FASTEST_TIE) and saver.calendar_days > 2 * one.calendar_days
    assert sv.saver_plan_yields(saver, one, res.objective, search.FASTEST_TIE)


def test_without_the_rule_the_slow_saver_plan_would_be_plan_one(monkeypatch):
    """The rule is live: with ``saver_plan_yields`` never true the 1-GPU offload plan (cheaper by the objective)
    becomes #1 of the full-7B request, as in the lost round-15 branch (finding (b))."""
    monkeypatch.setattr(sv, "saver_plan_yields", lambda *a, **k: False)
    one = search.search(Scenario.model_validate(_doc(FULL7B)), top=3).plans[0]
    assert one.unrequested_savers == ("offload",) and one.num_gpus == 1


def test_a_saver_the_user_set_off_is_never_applied_and_is_said_instead():
    """The same request 02 with the savers written off: no plan applies them (the search keeps round 14's #1, the
    monthly lease) and #1's line names them, kept as the user's choice."""
    s = Scenario.model_validate(savers_off(_doc(REQ02)))
    assert sv.unset_saver_options(s, ("megatron-swift",)) == []
    res = search.search(s, top=5)
    for p in res.plans:
        assert p.unrequested_savers == ()
        assert not p.scenario.parallel.offload_optimizer and not p.scenario.training.rl.engine_sleep
        assert not p.scenario.training.rl.offload_model
    one = res.plans[0]
    assert one.rental_mode == "month"
    assert any(m.text.endswith("Your choice is kept; change it to plan with this.") for m in one.explanation)


def test_a_saver_the_user_set_on_is_kept_and_not_called_unrequested():
    d = _doc(REQ02)
    d.setdefault("parallel", {})["offload_optimizer"] = True
    s = Scenario.model_validate(d)
    assert sv.user_set(s, "offload") and not sv.user_set(s, "sleep")
    res = search.search(s, top=5)
    for p in res.plans:
        assert p.scenario.parallel.offload_optimizer
        assert "offload" not in p.unrequested_savers


def test_user_set_by_hand():
    s = Scenario.model_validate(_doc(REQ02))
    assert not any(sv.user_set(s, k) for k in ("sleep", "model", "offload"))
    d = _doc(REQ02)
    d["training"]["rl"]["engine_sleep"] = False
    s = Scenario.model_validate(d)
    assert sv.user_set(s, "sleep") and not sv.user_set(s, "model") and not sv.user_set(s, "offload")
    # the options searched: only those whose every saver is unset; the others are said on #1's line
    fws = ("megatron-swift",)
    assert all("sleep" not in k for k, _ in sv.unset_saver_options(s, fws))
    assert all("sleep" in k for k, _ in sv.set_saver_options(s, fws))


def _p(days: float, cost: float, penalty: int = 0, meets: bool = True):
    return SimpleNamespace(calendar_days=days, cost=cost, penalty=penalty, meets_deadline=meets, within_budget=True)


@pytest.mark.parametrize("q, p, objective, yields", [
    (_p(1.0, 95.0), _p(1.0, 100.0), "cheapest", True),     # p within 7% of q by cost (5.3%)
    (_p(1.0, 93.0), _p(1.0, 100.0), "cheapest", False),    # p 7.5% dearer: outside the tie; q no slower
    (_p(1.0, 90.0), _p(1.0, 100.0), "cheapest", False),    # p 11% dearer: the saver plan first
    (_p(4.0, 97.5), _p(1.0, 100.0), "cheapest", True),     # finding (b): 4 × the time for 2.5% less
    (_p(2.5, 2817.0), _p(1.1, 94000.0), "cheapest", False),  # request 02: 97% less money
    (_p(1.0, 100.0), _p(1.05, 90.0), "fastest", True),     # p 5% slower: within the tie
    (_p(1.0, 100.0), _p(1.2, 90.0), "fastest", False),     # p 20% slower
])
def test_saver_plan_yields_by_hand(q, p, objective, yields):
    """The rule by hand with the search's tie of 7% (case 2: 100 ≤ 93 × 1.07 = 99.51 is false, and q is no slower,
    so (b) does not apply; case 4: 100 ≤ 97.5 × 1.07 = 104.3, and (b) too: 4 days > 1.07 and 2.5% < 7%)."""
    assert sv.saver_plan_yields(q, p, objective, search.FASTEST_TIE) is yields


def test_merge_keeps_standing_and_one_plan_per_gpu_count():
    """A saver plan that misses the deadline ranks after one that meets it whatever its cost; a lower penalty comes
    first; with ``distinct`` the first plan of a GPU type and count stands for it."""
    a = SimpleNamespace(calendar_days=1.0, cost=100.0, penalty=0, meets_deadline=True, within_budget=True,
                        gpu="h800", num_gpus=4)
    late = SimpleNamespace(calendar_days=9.0, cost=10.0, penalty=0, meets_deadline=False, within_budget=True,
                           gpu="a800", num_gpus=8)
    same = SimpleNamespace(calendar_days=1.0, cost=50.0, penalty=0, meets_deadline=True, within_budget=True,
                           gpu="h800", num_gpus=4)
    out = sv.merge_ranked([a], [[same, late]], "cheapest", search.FASTEST_TIE, 10, True)
    assert out == [same, late]  # `same` (50% cheaper) first, and `a` (same GPU type and count) dropped
    out = sv.merge_ranked([a], [[late]], "cheapest", search.FASTEST_TIE, 10, True)
    assert out == [a, late]


# ----------------------------------------------------------------------------------- one statement, every view

def _doc02(tmp_path: Path) -> Path:
    d = _doc(REQ02)
    d.setdefault("parallel", {})["auto"] = True  # the document stands for #1 (app.answer.decide)
    out = tmp_path / REQ02.name
    out.write_text(json.dumps(d), encoding="utf-8")
    return out


def test_the_statement_is_the_same_in_plan_text_json_answer_and_report(tmp_path, capsys):
    from gpuplanner.app.answer import answer, report_data
    from gpuplanner.report.render import build_html

    doc = _doc02(tmp_path)
    ans = answer(doc)
    one = ans.plans[0]
    assert ans.chosen_plan is one and one.unrequested_savers
    (msg,) = [m for m in one.explanation if m.text == sv.UNREQUESTED_LINE]
    line = _flat(msg.render())
    assert line.startswith(PREFIX)
    text = _flat(_cli(["plan", str(doc), "--top", "3"], capsys))
    plan_one = text.split(" 2. ", 1)[0]
    assert plan_one.count(line) == 1
    js = json.loads(_cli(["plan", str(doc), "--top", "3", "--json"], capsys))["plans"]
    assert js[0]["unrequested_savers"] == list(one.unrequested_savers)
    assert [_flat(str(e)) for e in js[0]["explanation"]].count(line) == 1
    for p in js:  # every plan's list and line agree
        assert bool(p["unrequested_savers"]) == any(_flat(str(e)).startswith(PREFIX) for e in p["explanation"])
    page = _flat(html.unescape(re.sub(r"<[^>]+>", " ", build_html(report_data(doc, answer_=ans), {}))))
    assert page.count(line) >= 1
    if shutil.which("pdftotext") is not None:
        pdf = tmp_path / "r.pdf"
        r = subprocess.run([sys.executable, "-m", "gpuplanner", "report", str(doc), "-o", str(pdf)],
                           capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert r.returncode == 0, r.stderr
        out = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True).stdout
        # a paragraph may run over a page foot (round 17's pagination, pdf17, puts this one's break after "for less"
        # on page 2): pdftotext prints the running footer (the title's line, "2/9") and the form feed in the middle
        # of it, so they are taken out before the paragraph is looked for. The text itself must be whole.
        pages = out.count("\x0c")
        out = re.sub(r"[^\n]*\n+\d+/\d+\n+\x0c", "\n", out)
        assert out.count("\x0c") == 0 and pages >= 2  # every page's footer was found
        assert re.sub(r"[\s\-]", "", line) in re.sub(r"[\s\-]", "", out)


def test_the_statement_reads_as_chinese(tmp_path, capsys):
    from gpuplanner.commands import _lang
    from gpuplanner.i18n import translate_message

    doc = _doc02(tmp_path)
    res = search.search(Scenario.model_validate(_doc(REQ02)), top=1)
    (msg,) = [m for m in res.plans[0].explanation if m.text == sv.UNREQUESTED_LINE]
    _lang.install("zh_CN")
    try:
        zh = translate_message(msg.context, msg.text, msg.params)
    finally:
        _lang.install("en")
    assert zh != msg.render() and "training.rl.engine_sleep" in zh and "7%" in zh
    assert not any(w in zh for w in ("did not ask", "savers", "defaults", "objective"))
    out = _cli(["plan", str(doc), "--top", "1", "--lang", "zh_CN"], capsys)
    assert "".join(zh.split()) in "".join(out.split())


def test_deepspeed_offload_runs_the_zero_optimizer_not_the_bf16_optimizer():
    """Issue 35 r17 (mend17b): DeepSpeed's ``offload_optimizer`` lives in ``zero_optimization`` and takes the ZeRO
    optimizer (``DeepSpeedEngine._configure_optimizer``), so a 1-GPU offload plan written at ZeRO 0 is not charged
    ptoos18's BF16-optimizer fp32 gradient add (``timing.ds_bf16_grad_accum_of``); the same plan without offload
    is. Before the fix the offload plan carried it (3.3 s of its 38.1 s step) and lost the full-7B comparison
    above (¥217.8 vs ¥205.3)."""
    d = _doc(FULL7B)
    d["hardware"] = {"gpu": "h800-sxm-80gb", "num_gpus": 1}
    d["parallel"] = {"zero": 0, "offload_optimizer": True}
    off = evaluate(Scenario.model_validate(d)).time
    assert not off.parts.get("ds_bf16_grad_accum")
    d["parallel"] = {"zero": 0, "offload_optimizer": False}
    on = evaluate(Scenario.model_validate(d)).time
    assert on.parts["ds_bf16_grad_accum"] > 0.05 * on.step_time_s  # the default still applies without offload
    d["training"]["ds_bf16_grad_accum"] = True  # the user's choice is kept
    d["parallel"] = {"zero": 0, "offload_optimizer": True}
    assert evaluate(Scenario.model_validate(d)).time.parts["ds_bf16_grad_accum"] > 0

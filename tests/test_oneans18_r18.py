"""Issue 35 round 18, oneans18: one plan, one answer — the defects ux28 saw and left
(docs/notes/2026-12-08/issue-35-r18-ux28.md, "Seen and not fixed"), each with a test that fails on main 80348af6.

1. ``examples/7b-grpo-lora-vllm.json``: "Why this plan: A800 beats H800: ¥108 against ¥116" where the Plans table's
   H800 is ¥117 — the decision was written from the savers' search's H800 row, a plan the merged list does not show.
2. ``plan``: "Ranks #2: 7.0% dearer than the cheapest plan it is ranked with (¥109, 18.6 hours)": an A800 layout the
   merge replaced by its savers' one (#1, ¥108); the line now names a plan of the list by its place.
3. "7.0% dearer … within 7%" for a share of 6.966%: the tie compares the unrounded share, so the figure is printed
   to the side of the limit it is on ("6.97%", formatting.share_decimals).
4. The live summary and each plan's line ("69.4 of 80 GiB per GPU used") without the 2.0 GiB kept free that
   ``estimate``, the Plans page and the PDF table add: one sentence (core.messages.memory_sum_msg) for all.
5. ``plan`` ran silently on an unknown ``hardware.gpu`` that ``estimate`` refuses (exit 2, one line).
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core import search as S
from gpuplanner.core.messages import Msg
from gpuplanner.formatting import format_money

ROOT = Path(__file__).resolve().parents[1]
GRPO = ROOT / "examples" / "7b-grpo-lora-vllm.json"


@pytest.fixture(scope="module")
def grpo():
    from gpuplanner.app.answer import answer, load_document

    return answer(load_document(GRPO))


def _cli(argv, capsys) -> tuple[int, str, str]:
    rc = run_cli(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


# ---------------------------------------------------------------- 1. the decision reads the plan the table shows


def test_why_this_plan_reads_the_shown_plans_figures(grpo):
    """Each of #1's why-beats lines compares with the plan of that GPU type and framework the list shows: its
    figures are that plan's Evaluation's, so the sentence's money is the table's cell (formatting.format_money)."""
    plans = grpo.search.plans
    top = plans[0]
    assert top.decision
    checked = 0
    for d in top.decision:
        other = next((q for q in plans[1:] if q.gpu == d["gpu"] and q.framework == d["framework"]), None)
        if other is None:
            continue
        checked += 1
        assert d["figures"]["other_cost"] == other.cost and d["figures"]["cost"] == top.cost
        assert d["figures"]["other_days"] == other.calendar_days
        text = d["message"].render()
        assert format_money(other.cost, other.currency) in text, (text, other.cost)
        assert format_money(top.cost, top.currency) in text
    assert checked  # the H800 of the table (¥117), not the savers' search's (¥116)


def test_why_this_plan_on_the_plans_table_is_the_cells_money(grpo, capsys, tmp_path):
    """``plan --json``: #1's decision sentence names the H800 row's cost as the table prints it (¥117)."""
    rc, out, _ = _cli(["plan", str(GRPO), "--json", "--lang", "en"], capsys)
    data = json.loads(out)
    rows = data["plans"]
    h800 = next(p for p in rows[1:] if p["gpu"] == "h800-sxm-80gb")
    msg = next(d["message"] for d in rows[0]["decision"] if d["gpu"] == "h800-sxm-80gb")
    assert rc == 0 and format_money(h800["cost"], h800["currency"]) in msg, (msg, h800["cost"])


# ---------------------------------------------------------------- 2. the tie line names a plan of the list


def _tie_lines(plans):
    for n, p in enumerate(plans, start=1):
        line = p.explanation[0] if p.explanation else None
        if line is not None and line.text in getattr(S, "PRICE_TIE_LINES", ()):
            yield n, p, line


def test_price_tie_lines_name_a_plan_of_the_list(grpo):
    """No rank line names "the cheapest plan it is ranked with" by figures that are no row of the list: the GRPO
    example's #2 (H800, ¥117) is more than 7% dearer than #1 (¥108), so the tie no longer places it (ux28: it named
    an A800 layout at ¥109 the merge had replaced)."""
    plans = grpo.search.plans
    line2 = plans[1].explanation[0].render()
    assert "¥109" not in line2 and "cheapest plan it is ranked with" not in line2, line2
    assert line2.startswith("Ranks #2: next by the objective")
    for n, p, line in _tie_lines(plans):
        k = line.params.get("k", n)  # no place: the plan is its own tie's cheapest
        assert line.params["cost"] == plans[k - 1].cost


def test_a_merged_tie_line_names_its_anchor_by_its_place():
    """examples/llama3-8b-full.json: #3 (8 × RTX 4090, ¥1,877) and #4 (4 × RTX 4090, ¥1,783) come from the
    optimizer-offload search, whose tie put the faster first; #3's line names #4, the plan it is tied with, and #4,
    the cheapest of the two, names no other plan (its own figures)."""
    from gpuplanner.app.answer import answer, load_document

    plans = answer(load_document(ROOT / "examples" / "llama3-8b-full.json")).search.plans
    lines = {n: line for n, _, line in _tie_lines(plans)}
    assert lines[3].params["k"] == 4 and "(#4: ¥1,783, 9.4 days)" in lines[3].render(), lines[3].render()
    assert "k" not in lines[4].params and lines[4].params["cost"] == plans[3].cost


def test_single_search_tie_line_names_the_anchors_place():
    """The search's own tie line (no merge) names its anchor's place in the list at its full length, the same
    whatever ``--top`` cuts (advice15's request 02: #1 is 4.4% dearer than #2, 4 × H800 at ¥738)."""
    from gpuplanner.core.scenario import Scenario

    doc = json.loads((ROOT / "tests/data/expert_review_r15/02-lora-72b-5days-8000cny.json").read_text())
    for top in (1, 3):
        res = S.search(Scenario.model_validate(doc), top=top, savers=False)
        line = res.plans[0].explanation[0]
        assert line.text == S.PRICE_TIE_DEARER_SHOWN and line.params["k"] == 2, line.render()
        assert "(#2: ¥738, 17.6 hours)" in line.render()


# ---------------------------------------------------------------- 3. the gap beside its tie


@pytest.mark.parametrize(("share", "limit", "want"), [
    (0.069660726768767, 0.07, "6.97%"),  # ux28's: "7.0%" beside "within 7%"
    (0.0704, 0.07, "7.04%"),
    (0.06999, 0.07, "6.999%"),
    (0.044, 0.07, "4.4%"),
    (0.07, 0.07, "7.0%"),
])
def test_a_share_reads_on_its_side_of_the_limit(share, limit, want):
    from gpuplanner.formatting import share_decimals

    assert "{g:.{d}%}".format(g=share, d=share_decimals(share, limit)) == want


def test_the_price_tie_line_prints_the_gap_it_compares():
    """The dearer line at a gap of 6.966% under the 7% tie reads "6.97% dearer … within 7%" (en and the zh
    template's placeholders)."""
    cat = {"calendar_hours": np.array([18.6, 11.1]), "cost": np.array([109.25, 116.86])}
    args = {"n": 2}
    text = S._price_tie_line(args, 0.069660726768767, 0, cat, "CNY")
    line = Msg(S.CTX, text, args).render()
    assert "6.97% dearer" in line and "within 7%" in line and "7.0%" not in line, line
    args = {"n": 1}
    text = S._price_tie_line(args, 0.044, 0, cat, "CNY", 2)
    assert "Ranks #1: 4.4% dearer than the cheapest plan it is ranked with (#2: ¥109, 18.6 hours)" in \
        Msg(S.CTX, text, args).render()


def test_zh_tie_lines_keep_the_gap_placeholder():

    ts = (ROOT / "gpuplanner/resources/i18n/gpuplanner_zh_CN.ts").read_text(encoding="utf-8")
    for src in (S.PRICE_TIE_DEARER, S.PRICE_TIE_DEARER_SHOWN):
        m = re.search(re.escape("<source>" + src + "</source>") + r"\s*<translation>([^<]*)</translation>", ts)
        assert m and "{gap:.{gap_d}%}" in m.group(1), src


# ---------------------------------------------------------------- 4. the memory sum, one sentence


def test_each_plans_line_says_the_memory_sum(grpo):
    """Each plan's own line (``plan``, the Plans details, the PDF's bullets) says the sum the fit check adds."""
    from gpuplanner.core.messages import memory_sum_msg

    for p in grpo.search.plans:
        m = p.evaluation.memory
        want = memory_sum_msg(m.total, m.headroom, m.capacity).render()
        line = next(x.render() for x in p.explanation if " per GPU, " in x.render())
        assert want in line and "kept free on top of the estimate" in line, line


def test_the_pdf_table_and_the_plan_line_share_one_sentence():
    """The PDF's plan table and the chosen plan's bullet say the memory with the same words and figures
    (examples/llama3-8b-full.json: 8 × H800, 69.4 GiB + the 2 GiB default)."""
    from gpuplanner.app.answer import report_data
    from gpuplanner.report import render

    render.ensure_app()
    html = render.build_html(report_data(str(ROOT / "examples" / "llama3-8b-full.json")), {})
    sentence = "69.4 GiB + 2.0 GiB kept free on top of the estimate = 71.4 of 80 GiB"
    assert html.count(sentence) >= 2 and sentence + " per GPU, " in html, html[:3000]
    assert "GiB per GPU used" not in html


def test_plan_cli_line_has_the_sum(capsys):
    rc, out, _ = _cli(["plan", str(GRPO), "--top", "1", "--lang", "en"], capsys)
    assert rc == 0
    assert re.search(r"\(1 node\): [\d.]+ GiB \+ 2\.0 GiB kept free on top of the estimate = [\d.]+ of 80 GiB per "
                     r"GPU, ", out), out[-3000:]
    assert " GiB per GPU used" not in out


# ---------------------------------------------------------------- 5. plan refuses an unknown GPU as estimate does


def _bad_gpu(tmp_path, auto: bool) -> Path:
    doc = json.loads(GRPO.read_text(encoding="utf-8"))
    doc = copy.deepcopy(doc)
    doc["hardware"]["gpu"] = "h100x"
    doc.setdefault("parallel", {})["auto"] = auto
    p = tmp_path / f"bad-{auto}.json"
    p.write_text(json.dumps(doc), encoding="utf-8")
    return p


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_plan_refuses_an_unknown_gpu_as_estimate_does(tmp_path, capsys, lang):
    f = _bad_gpu(tmp_path, auto=False)
    rc_e, out_e, err_e = _cli(["estimate", str(f), "--lang", lang], capsys)
    rc_p, out_p, err_p = _cli(["plan", str(f), "--lang", lang], capsys)
    assert rc_e == rc_p == 2 and out_p == ""
    assert err_p == err_e and len(err_p.strip().splitlines()) == 1 and "h100x" in err_p and "hardware.gpu" in err_p


def test_plan_with_automatic_layout_runs_as_estimate_does(tmp_path, capsys):
    """With automatic layout the document stands for the search's #1 (app.answer.decide): estimate and plan both
    run (the card the search chose is the plan's)."""
    f = _bad_gpu(tmp_path, auto=True)
    assert _cli(["estimate", str(f), "--lang", "en"], capsys)[0] == 0
    assert _cli(["plan", str(f), "--top", "1", "--lang", "en"], capsys)[0] == 0

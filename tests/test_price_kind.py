"""Plans are ranked on prices of one kind (rules.price_kind, cost.STEADY_MODES, cost.billing_mode).

Before: each candidate was billed in its cheapest mode, spot included, so ``qwen3-moe-full-16xh100`` ranked
8 × H200 #1 on a spot price ($194) against the others' on-demand prices (B200 $237). Now every plan is billed in
the cheapest mode without interruptions (card-hours, whole machines per week or month, capped card-hours), a
cheaper spot price is said beside it with its risk, and spot bills a plan only where the user sets it
(``constraints.rental_mode``, kept and said) or where it is the card's only price (the rule fails). A plan billed
per month because its card has no card-hour quote says what card-hours would cost at the other region's quote.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core import catalog_hw as hw
from gpuplanner.core import cost
from gpuplanner.formatting import format_money

ROOT = Path(__file__).resolve().parents[1]
QWEN3 = ROOT / "examples" / "qwen3-moe-full-16xh100.gpuplan"
GRPO = ROOT / "tests" / "data" / "examples_fixed" / "7b-grpo-lora-8xh100-vllm.json"
#: full SFT of an 8B model on 8 × H200 in USD: the default price (CoreWeave's list) has a spot price too
H200 = {"model": {"preset": "llama-3-8b"},
        "training": {"method": "full", "precision": "bf16", "seq_len": 4096, "micro_batch_size": 1,
                     "global_batch_size": 128, "recompute": "full"},
        "parallel": {"tp": 1, "pp": 1, "zero": 3},
        "hardware": {"gpu": "h200-sxm-141gb", "num_gpus": 8, "gpus_per_node": 8},
        "data": {"tokens": "2B"}, "constraints": {"currency": "USD", "deadline_days": 10}}


def _answer(scn: dict, tmp_path):
    from gpuplanner.app.answer import answer

    f = tmp_path / "s.json"
    f.write_text(json.dumps(scn), encoding="utf-8")
    return answer(f).evaluation


def _rule(ev, rid="price_kind"):
    return {r.id: r for r in ev.rules}[rid]


# ------------------------------------------------------------------------------------------- the mode rule


def test_billing_mode_prefers_a_steady_mode_over_a_cheaper_spot():
    inf = np.inf
    i = {m: k for k, m in enumerate(cost.MODES)}
    costs = np.full((len(cost.MODES), 4), inf)
    costs[i["card_hour"]] = [419.0, inf, 100.0, inf]
    costs[i["spot"]] = [194.0, 50.0, inf, inf]
    costs[i["month"]] = [5000.0, inf, 90.0, inf]
    got = cost.billing_mode(costs)
    # spot is cheaper in column 0 but never chosen while a steady mode is priced; alone, it bills (column 1)
    assert [cost.MODES[k] for k in got] == ["card_hour", "spot", "month", "card_hour"]
    assert [cost.MODES[k] for k in cost.billing_mode(costs, "spot")] == ["spot"] * 4  # the user's pin, always
    assert set(cost.STEADY_MODES) == set(cost.MODES) - {"spot"}


def test_an_h200_plan_is_billed_on_demand_with_spot_beside(tmp_path):
    ev = _answer(H200, tmp_path)
    assert ev.price.card_hour == pytest.approx(6.31)              # CoreWeave's on-demand list price
    assert ev.price.spot_card_hour == pytest.approx(20.93 / 8)    # its spot node-hour over 8 cards
    spot, on_demand = ev.mode_costs["spot"], ev.mode_costs["card_hour"]
    assert spot < on_demand                                       # spot is cheaper (the old choice) ...
    assert ev.rental_mode == "card_hour" and ev.cost == pytest.approx(on_demand)  # ... but not billed
    line = next(m.render() for m in ev.rental_advice if m.text.startswith("Spot card-hours would cost"))
    assert format_money(spot, "USD") in line and format_money(on_demand, "USD") in line
    assert "10-day deadline" in line and "constraints.rental_mode" in line
    assert _rule(ev).status == "passed"


def test_qwen3_example_no_longer_ranks_a_spot_price_against_on_demand(capsys):
    assert run_cli(["plan", str(QWEN3), "--json", "--top", "12"]) == 0
    plans = json.loads(capsys.readouterr().out)["plans"]
    assert [p["rental_mode"] for p in plans] == ["card_hour"] * len(plans)   # before: #1 8 × H200 on spot, $194
    assert plans[0]["gpu"] != "h200-sxm-141gb" or plans[0]["cost"] > 400
    kinds = [{r["id"]: r for r in p["rules"]}["price_kind"]["status"] for p in plans]
    assert kinds == ["passed"] * len(plans)
    h200 = next(p for p in plans if p["gpu"] == "h200-sxm-141gb" and p["num_gpus"] == 8)
    # (the figures move with the time model: $194 in round 7, $195 after round 8's overlap contention, $200 after
    # round 9)
    assert any(re.match(r"Spot card-hours would cost \$(19|20)\d instead of \$4\d\d", a) for a in h200["rental_advice"])


def test_a_pinned_spot_mode_is_kept_and_said(tmp_path, capsys):
    doc = json.loads(QWEN3.read_text(encoding="utf-8"))
    doc["scenario"]["constraints"]["rental_mode"] = "spot"
    f = tmp_path / "q.gpuplan"
    f.write_text(json.dumps(doc), encoding="utf-8")
    assert run_cli(["plan", str(f), "--json", "--top", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    top = out["plans"][0]
    assert top["gpu"] == "h200-sxm-141gb" and top["rental_mode"] == "spot" and 190 < top["cost"] < 210  # ($194 in round 7; it moves with the time model)
    line = {r["id"]: r for r in top["rules"]}["price_kind"]
    assert line["status"] == "passed" and "as set in the scenario (constraints.rental_mode)" in line["message"]
    assert any(a.startswith("Spot capacity can be reclaimed at any time") for a in top["rental_advice"])
    # a card without a spot price is left out, with the reason (never billed in another mode silently)
    skipped = {d["gpu"]: d["reason"] for d in out["skipped"]}
    assert "no spot card-hours price" in skipped["b200-180gb"]
    assert run_cli(["plan", str(f), "--top", "1", "--lang", "en"]) == 0
    assert "spot card-hours (as set)" in capsys.readouterr().out
    assert run_cli(["plan", str(f), "--top", "1", "--lang", "zh_CN"]) == 0
    zh = capsys.readouterr().out
    assert "竞价卡时（按设定）" in zh and "同一类价格" in zh


def test_spot_reclaims_are_counted_over_the_hours_running(tmp_path):
    """Round 7 review: the spot line counted reclaims over spot's calendar hours while its cost counts them over
    the hours spot runs: at 40 hours a week it said 168/40 = 4.2 times the reclaims its cost holds. By hand from
    the cost itself: the spot cost over 8 cards at the spot price is the hours running, one node, and the
    preemption rate per node-day over them."""
    scn = copy.deepcopy(H200)
    scn["constraints"]["hours_per_week"] = 40
    ev = _answer(scn, tmp_path)
    line = next(m.render() for m in ev.rental_advice if m.text.startswith("Spot card-hours would cost"))
    said = float(re.search(r"about ([\d.,]+) reclaims", line).group(1).replace(",", ""))
    running_h = ev.mode_costs["spot"] / (8 * ev.price.spot_card_hour)
    expected = cost.Overheads().spot_preemptions_per_node_day * 1 * running_h / 24.0
    assert said == pytest.approx(expected, abs=0.5 if expected >= 10 else 0.05)
    assert said < expected * 168 / 40 * 0.8  # (the old count, over the calendar)


def test_a_card_priced_only_on_spot_fails_the_rule(tmp_path):
    scn = copy.deepcopy(H200)
    scn["hardware"]["gpu"] = "mi300x-192gb"  # no default price: the user's quote is its only price
    scn["constraints"]["prices"] = {"mi300x-192gb": {"spot_card_hour": 2.0}}
    ev = _answer(scn, tmp_path)
    assert ev.rental_mode == "spot"
    r = _rule(ev)
    assert r.status == "failed" and "the only price of AMD Instinct MI300X 192GB here" in r.message.render()
    scn["constraints"]["rules"] = {"price_kind": False}
    assert _rule(_answer(scn, tmp_path)).status == "allowed"


def test_a_bad_rental_mode_is_one_line_exit_2(tmp_path, capsys):
    scn = copy.deepcopy(H200)
    scn["constraints"]["rental_mode"] = "weekly"
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scn), encoding="utf-8")
    assert run_cli(["estimate", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "rental_mode" in err


# ------------------------------------------------------------------- a month's lease for a short job (GRPO)


def test_a_month_for_a_short_job_says_what_card_hours_would_cost(capsys):
    from gpuplanner.app.answer import answer

    ev = answer(GRPO).evaluation
    assert ev.rental_mode == "month" and ev.cost == pytest.approx(70000)  # the scenario's card, as it chose
    line = next(m.render() for m in ev.rental_advice if m.text.startswith("Card-hours instead"))
    got = float(re.search(r"about ¥([\d,]+)", line).group(1).replace(",", ""))
    # by hand: 8 cards × their hours (compute, then setup and interruptions on top) × the worldwide card-hour
    # list price (the lower median) at 7 CNY per USD
    usd = hw.default_price("h100-sxm-80gb", "USD", region="worldwide", converted=False).card_hour
    per_card_h = ev.compute_days * 24.0
    low, high = 8 * per_card_h * usd * 7.0, 8 * (per_card_h + ev.setup_hours) * 1.05 * usd * 7.0
    assert low <= got <= high and got < ev.cost / 20
    assert "Lambda" in line and "whole month" in line
    # one request for an hourly quote, not two (round 7 review: rental_advice said it again beside this line)
    asks = [m.render() for m in ev.rental_advice if "hourly quote" in m.render()]
    assert asks == [line]
    assert run_cli(["estimate", str(GRPO)]) == 0
    assert line in capsys.readouterr().out


def test_the_pdf_shows_the_spot_line(tmp_path):
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils (pdftotext) not installed")
    from gpuplanner.app.answer import report_data
    from gpuplanner.report.render import ensure_app
    from gpuplanner.report_file import export_pdf

    ensure_app()
    f = tmp_path / "s.json"
    f.write_text(json.dumps(H200), encoding="utf-8")
    data = report_data(f)
    verdicts = {name.render(): status for name, status, _ in data.plan.rules}
    assert verdicts["prices of one kind"] == "passed"
    pdf = export_pdf(data, tmp_path / "r.pdf", paper="a4")
    text = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True,
                          timeout=60).stdout
    text = re.sub(r"\s+", " ", text)
    assert "Spot card-hours would cost" in text and "prices of one kind" in text


# ------------------------------------------------------------------------ the search and evaluate() agree


@pytest.mark.parametrize("pin,gpu,quote", [(None, "h200-sxm-141gb", None), ("spot", "h200-sxm-141gb", None),
                                           ("card_hour", "h200-sxm-141gb", None),
                                           (None, "mi300x-192gb", {"spot_card_hour": 2.0})])
def test_the_vectorised_search_bills_the_mode_evaluate_bills(pin, gpu, quote):
    from dataclasses import replace

    from gpuplanner.core import search as S
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.scenario import Scenario

    d = copy.deepcopy(H200)
    d["hardware"]["gpu"] = gpu
    d["constraints"].update({"rental_mode": pin, "gpu_candidates": [gpu], "max_gpus": 16})
    if quote:
        d["constraints"]["prices"] = {gpu: quote}
    s = Scenario.model_validate(d)
    rng = np.random.default_rng(3)
    checked = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, 16)
        vec = S.evaluate_candidates(ctx, c)
        for i in rng.choice(len(c["tp"]), size=min(40, len(c["tp"])), replace=False):
            if not vec["fits"][i]:
                continue
            sc = S.candidate_scenario(ctx, c, int(i))
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table, overheads=ctx.overheads,
                          rent_vs_build=False)
            assert S.MODES[int(vec["mode"][i])] == ev.rental_mode == (pin or ("spot" if quote else "card_hour"))
            assert vec["cost"][i] == pytest.approx(ev.cost, rel=1e-9)
            checked += 1
    assert checked >= 10

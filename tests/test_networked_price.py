"""A multi-node plan is priced from a networked offer of its card when one exists (cost.PriceTable.for_nodes);
a one-node plan keeps the default pick. The search, evaluate() and the CLI read the one rule."""

from __future__ import annotations

import copy
import json

import numpy as np

from gpuplanner.cli import run_cli
from gpuplanner.core import cost, search
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import Scenario

A100 = "a100-sxm-80gb"
#: LoRA of an 8B model on A100 80GB in CNY, searched over one and two nodes: AutoDL's card-hours bill one
#: node; the only mainland networked A100 offer is the SMM whole-cluster lease (IB, per server-month)
SCN = {"model": {"preset": "llama-3-8b"},
       "training": {"method": "full", "precision": "bf16", "seq_len": 4096, "micro_batch_size": 1,
                    "global_batch_size": 128, "recompute": "full"},
       "parallel": {"tp": 1, "pp": 1, "zero": 3},
       "hardware": {"gpu": A100, "num_gpus": 16, "gpus_per_node": 8},
       "data": {"tokens": "2B"}, "constraints": {"currency": "CNY"}}


def _rule(ev):
    return {r.id: r for r in ev.rules}["price_fabric"]


def test_the_table_prices_several_nodes_from_the_networked_offer():
    t = cost.PriceTable(currency="CNY")
    one, two = t.for_nodes(A100, 1), t.for_nodes(A100, 2)
    assert one is t.get(A100) and one.provider == "AutoDL" and one.multi_node is False
    # the SMM listing "A100 80G ×8 (IB, 32 servers)": 31,500–38,000 CNY per server-month, midpoint 34,750
    assert two.provider == "SMM market report" and two.multi_node is True
    assert two.machine_month == 34750.0 and two.card_hour is None
    # a card without a networked offer keeps its one price; USD H100 over nodes: AWS p5 (EFA), not Lambda
    assert t.for_nodes("h800-sxm-80gb", 4) is t.get("h800-sxm-80gb")
    u = cost.PriceTable(currency="USD")
    assert u.get("h100-sxm-80gb").multi_node is not True
    assert u.for_nodes("h100-sxm-80gb", 2).multi_node is True


def test_the_users_quote_prices_every_node_count():
    t = cost.PriceTable(currency="CNY")
    t.set_quote(A100, card_hour=6.0)
    assert t.for_nodes(A100, 4) is t.get(A100) and t.get(A100).card_hour == 6.0


def test_evaluate_bills_the_two_node_plan_from_the_cluster_lease():
    ev = evaluate(Scenario.model_validate(SCN))
    assert ev.nodes == 2 and ev.price.provider == "SMM market report" and ev.rental_mode == "month"
    assert _rule(ev).status == "passed"
    assert _rule(ev).message.render().startswith("2 nodes priced from SMM market report, a networked offer")
    # two servers for one month at 34,750 each (the run is far shorter than a month)
    assert np.isclose(ev.cost, 2 * 34750.0)
    one = copy.deepcopy(SCN)
    one["hardware"]["num_gpus"] = 8
    ev1 = evaluate(Scenario.model_validate(one))
    assert ev1.price.provider == "AutoDL" and _rule(ev1).status == "not_applicable"


def test_the_search_and_evaluate_give_one_price_per_plan():
    scn = copy.deepcopy(SCN)
    scn["constraints"].update({"gpu_candidates": [A100], "max_gpus": 16})
    plans = []
    for objective in ("cheapest", "fastest"):  # one-node plans lead the first, two-node plans the second
        plans += search.search(Scenario.model_validate(scn), top=5, objective=objective, distinct=False).plans
    assert {p.nodes for p in plans} == {1, 2}
    for p in plans:
        ev = p.evaluation
        want = "SMM market report" if p.nodes > 1 else "AutoDL"
        assert ev.price.provider == want, (p.num_gpus, ev.price.provider)
        dates = [m.params["date"] for m in p.warnings if "date" in m.params]
        assert dates == [ev.price.source_date]  # "Uses the default price for … (date)": the offer that billed it
        again = evaluate(ev.scenario)
        assert np.isclose(again.cost, p.cost, rtol=1e-9) and again.rental_mode == ev.rental_mode


def test_plan_json_names_the_offer(tmp_path, capsys):
    scn = copy.deepcopy(SCN)
    scn["constraints"].update({"gpu_candidates": [A100], "max_gpus": 16, "objective": "fastest"})
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scn), encoding="utf-8")
    assert run_cli(["plan", str(f), "--json", "--top", "1"]) == 0
    top = json.loads(capsys.readouterr().out)["plans"][0]
    assert top["nodes"] == 2 and top["price"]["provider"] == "SMM market report"
    assert top["price"]["multi_node"] is True


def test_the_report_lists_the_month_price_that_billed_the_plan(tmp_path):
    """The PDF's assumptions name the price the costs use: the cluster lease quotes a server-month only."""
    from gpuplanner.app.answer import report_data

    f = tmp_path / "s.json"
    f.write_text(json.dumps(SCN), encoding="utf-8")
    rows = {s.what.render(): s for s in report_data(f).assumptions}
    row = rows["Rental price per 8-GPU server-month, NVIDIA A100 SXM4 80GB"]
    assert row.value == "¥34,750.00" and row.date == "2026-07-14" and "smm" in row.source.lower()

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
#: LoRA of an 8B model on A100 80GB in CNY: AutoDL's card-hours bill one node; the only mainland networked A100
#: offer is the SMM whole-cluster lease (IB, per server-month), which rents its 32 servers together
#: (prices.json ``min_nodes``): it prices plans of 32 servers or more, never a 2-server plan
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
    one, two = t.for_nodes(A100, 1), t.for_nodes(A100, 32)
    assert one is t.get(A100) and one.provider == "AutoDL" and one.multi_node is False
    # the SMM listing "A100 80G ×8 (IB, 32 servers)": 31,500–38,000 CNY per server-month, midpoint 34,750
    assert two.provider == "SMM market report" and two.multi_node is True
    assert two.machine_month == 34750.0 and two.card_hour is None
    # the lease rents the whole cluster: fewer servers keep the single-machine price (and price_fabric fails)
    assert t.for_nodes(A100, 2) is one and t.for_nodes(A100, 31) is one
    # a card without a networked offer keeps its one price; USD H100 over nodes: AWS p5 (EFA), not Lambda
    assert t.for_nodes("h800-sxm-80gb", 4) is t.get("h800-sxm-80gb")
    u = cost.PriceTable(currency="USD")
    assert u.get("h100-sxm-80gb").multi_node is not True
    assert u.for_nodes("h100-sxm-80gb", 2).multi_node is True


def test_the_users_quote_prices_every_node_count():
    t = cost.PriceTable(currency="CNY")
    t.set_quote(A100, card_hour=6.0)
    assert t.for_nodes(A100, 4) is t.get(A100) and t.get(A100).card_hour == 6.0


def test_evaluate_bills_the_whole_cluster_plan_from_the_cluster_lease():
    big = copy.deepcopy(SCN)
    big["hardware"]["num_gpus"] = 256
    big["training"]["global_batch_size"] = 512
    ev = evaluate(Scenario.model_validate(big))
    assert ev.nodes == 32 and ev.price.provider == "SMM market report" and ev.rental_mode == "month"
    assert _rule(ev).status == "passed"
    assert _rule(ev).message.render().startswith("32 nodes priced from SMM market report, a networked offer")
    # 32 servers for one month at 34,750 each (the run is far shorter than a month)
    assert np.isclose(ev.cost, 32 * 34750.0)
    # two servers: the lease does not rent two; AutoDL's single machines bill them and the check says so
    ev2 = evaluate(Scenario.model_validate(SCN))
    assert ev2.nodes == 2 and ev2.price.provider == "AutoDL" and _rule(ev2).status == "failed"
    one = copy.deepcopy(SCN)
    one["hardware"]["num_gpus"] = 8
    ev1 = evaluate(Scenario.model_validate(one))
    assert ev1.price.provider == "AutoDL" and _rule(ev1).status == "not_applicable"


def test_the_search_and_evaluate_give_one_price_per_plan():
    scn = copy.deepcopy(SCN)
    scn["constraints"].update({"gpu_candidates": [A100], "max_gpus": 256})
    plans = []
    for objective in ("cheapest", "fastest"):  # small plans lead the first, the 32-server plans the second
        plans += search.search(Scenario.model_validate(scn), top=5, objective=objective, distinct=False).plans
    assert 1 in {p.nodes for p in plans} and 32 in {p.nodes for p in plans}
    for p in plans:
        ev = p.evaluation
        want = "SMM market report" if p.nodes >= 32 else "AutoDL"
        assert ev.price.provider == want, (p.num_gpus, ev.price.provider)
        dates = [m.params["date"] for m in p.warnings if "date" in m.params]
        assert dates == [ev.price.source_date]  # "Uses the default price for … (date)": the offer that billed it
        again = evaluate(ev.scenario)
        assert np.isclose(again.cost, p.cost, rtol=1e-9) and again.rental_mode == ev.rental_mode


def test_plan_json_names_the_offer(tmp_path, capsys):
    scn = copy.deepcopy(SCN)
    scn["constraints"].update({"gpu_candidates": [A100], "max_gpus": 256, "objective": "fastest"})
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scn), encoding="utf-8")
    assert run_cli(["plan", str(f), "--json", "--top", "1"]) == 0
    top = json.loads(capsys.readouterr().out)["plans"][0]
    assert top["nodes"] == 32 and top["price"]["provider"] == "SMM market report"
    assert top["price"]["multi_node"] is True


def test_the_report_lists_the_month_price_that_billed_the_plan(tmp_path):
    """The PDF's assumptions name the price the costs use: the cluster lease quotes a server-month only."""
    from gpuplanner.app.answer import report_data

    big = copy.deepcopy(SCN)
    big["hardware"]["num_gpus"] = 256
    big["training"]["global_batch_size"] = 512
    f = tmp_path / "s.json"
    f.write_text(json.dumps(big), encoding="utf-8")
    rows = {s.what.render(): s for s in report_data(f).assumptions}
    row = rows["Rental price per 8-GPU server-month, NVIDIA A100 SXM4 80GB"]
    assert row.value == "¥34,750" and row.date == "2026-07-14" and "smm" in row.source.lower()


def test_a_price_sheet_rejects_a_bad_min_nodes():
    from gpuplanner.core.catalog_hw import CatalogError, parse_price_record
    import pytest

    rec = {"gpu": A100, "price": 1.0, "currency": "CNY", "unit": "card_hour", "mode": "on_demand",
           "machine_gpus": 8, "region": "mainland_china", "provider": "x", "source": "y", "date": "2026-01-01",
           "notes": None}
    assert parse_price_record(dict(rec, min_nodes=4)).min_nodes == 4
    for bad in (0, -1, 2.5, True, "32", 10**9):
        with pytest.raises(CatalogError, match="min_nodes"):
            parse_price_record(dict(rec, min_nodes=bad))

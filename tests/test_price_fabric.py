"""A plan over several nodes priced from a quote not known to offer networked servers (rules.price_fabric).

The planning guide §2: "Between nodes: RoCE or InfiniBand, and is the bandwidth really dedicated (独享)?"; a
card-hour price of single machines (AutoDL's container instances) buys no network between them. Every record of
``prices.json`` says what its source says (``multi_node``: true / false / null, a known value cited); the plan's
check reads it, the user's quote and the quote sheet's offers may state it too. The same line in the CLI's plan
and estimate, the PDF and the Plans page's rule tooltip.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
from decimal import Decimal

import pytest

from pathlib import Path

from gpuplanner.cli import run_cli
from gpuplanner.core import catalog_hw as hw
from gpuplanner.core import cost, quotes
from gpuplanner.core.errors import CatalogError
from gpuplanner.core.shipped import load_json
from tests.savers_off import savers_off_file

ROOT = Path(__file__).resolve().parents[1]
#: full SFT of an 8B model on 16 × H800 in two nodes of 8; no quote: the default price is AutoDL's card-hour
SIXTEEN = {"model": {"preset": "llama-3-8b"},
           "training": {"method": "full", "precision": "bf16", "seq_len": 4096, "micro_batch_size": 1,
                        "global_batch_size": 128, "recompute": "full"},
           "parallel": {"tp": 1, "pp": 1, "zero": 3},
           "hardware": {"gpu": "h800-sxm-80gb", "num_gpus": 16, "gpus_per_node": 8},
           "data": {"tokens": "2B"}, "constraints": {"currency": "CNY"}}
#: the same plan with a cluster quote (two networked 8-card servers per month)
CLUSTER = {"h800-sxm-80gb": {"card_hour": 14.0, "machine_month": 75000.0, "machine_gpus": 8,
                             "provider": "Cluster vendor", "multi_node": True}}
#: a search whose plan #1 spans several nodes (Mixtral 8x7B: 32 × H800 in 4 nodes at AutoDL's card-hour price)
MULTI_NODE_EXAMPLE = ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json"


def _rule(ev, rid="price_fabric"):
    return {r.id: r for r in ev.rules}[rid]


def answer_of(scn: dict):
    import tempfile
    from pathlib import Path

    from gpuplanner.app.answer import answer

    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "s.json"
        f.write_text(json.dumps(scn), encoding="utf-8")
        return answer(f).evaluation


# ------------------------------------------------------------------------------------------------ the data


def test_every_price_record_says_whether_its_source_is_networked():
    recs = load_json("prices.json")["prices"]
    assert all("multi_node" in r for r in recs)
    for r in recs:
        assert r["multi_node"] in (True, False, None)
        if r["multi_node"] is not None:  # cited, never guessed
            assert r["multi_node_source"] and len(r["multi_node_source"]) > 30
    autodl = [r for r in recs if r["provider"] == "AutoDL"]
    assert autodl and all(r["multi_node"] is False for r in autodl)  # container instances on one host
    cluster = [r for r in recs if "IB, 32 servers" in (r["notes"] or "")]
    assert len(cluster) == 1 and cluster[0]["multi_node"] is True and cluster[0]["gpu"] == "a100-sxm-80gb"
    assert cluster[0]["price"] == pytest.approx((31500 + 38000) / 2)  # the listing's range, midpoint
    # a one-server bare-metal rent does not say: unknown stays null
    assert all(r["multi_node"] is None for r in recs if r["provider"] == "云擎天下 (omniyq)")


def test_a_bad_multi_node_value_is_refused_in_one_line():
    good = {"gpu": "h800-sxm-80gb", "price": 10.0, "currency": "CNY", "unit": "card_hour", "mode": "on_demand",
            "machine_gpus": None, "region": "mainland_china", "provider": "x", "source": "s", "date": "2026",
            "notes": None}
    assert hw.parse_price_record(good).multi_node is None  # old records without the key still load
    assert hw.parse_price_record({**good, "multi_node": False, "multi_node_source": "said so"}).multi_node is False
    for bad in ({"multi_node": "yes", "multi_node_source": "x"}, {"multi_node": True},
                {"multi_node": True, "multi_node_source": 3}):
        with pytest.raises(CatalogError) as e:
            hw.parse_price_record({**good, **bad})
        assert "\n" not in str(e.value) and "multi_node" in str(e.value)


def test_composed_offer_keeps_each_figures_word():
    assert hw.combine_multi_node(True, True) is True
    assert hw.combine_multi_node(True, None) is None
    assert hw.combine_multi_node(None, False) is False
    p = cost.price_from_catalog("h800-sxm-80gb", "CNY")
    # card-hours from AutoDL (single machines), the month from a bare-metal rent that does not say
    assert dict(p.fabrics) == {"card_hour": False, "machine_month": None} and p.multi_node is False
    t = cost.PriceTable("CNY")
    t.set_quote("h800-sxm-80gb", card_hour=12.0, multi_node=True)  # the month of the default is kept beside it
    assert t.get("h800-sxm-80gb").multi_node is None
    t.set_quote("h800-sxm-80gb", machine_month=90000.0)
    assert t.get("h800-sxm-80gb").multi_node is True


# ------------------------------------------------------------------------------------------------ the plan


def test_sixteen_gpus_priced_from_a_single_machine_marketplace_carry_the_check():
    ev = answer_of(SIXTEEN)
    assert ev.nodes == 2 and ev.price.provider == "AutoDL" and ev.rental_mode == "card_hour"
    r = _rule(ev)
    assert r.status == "failed"
    text = r.message.render()
    # no quote for H800 in CNY rents networked servers (PriceTable.for_nodes found none): said plainly, with the
    # ranking (core/advisor.py FABRIC_BIT)
    assert text.startswith("No quote for NVIDIA H800 SXM5 80GB (China) here rents 2 networked servers, so the 2 "
                           "nodes are priced from AutoDL, which rents single machines")
    for ask in ("by the month or for a minimum term", "It ranks after the plans priced from quotes of the right kind",
                "InfiniBand or RoCE", "dedicated", "same data centre"):
        assert ask in text


def test_a_cluster_quote_clears_it():
    scn = copy.deepcopy(SIXTEEN)
    scn["constraints"]["prices"] = CLUSTER
    ev = answer_of(scn)
    r = _rule(ev)
    assert ev.price.multi_node is True and r.status == "passed"
    assert r.message.render().startswith("2 nodes priced from Cluster vendor, a networked offer")
    scn["constraints"]["prices"] = {"h800-sxm-80gb": {**CLUSTER["h800-sxm-80gb"], "multi_node": None}}
    r = _rule(answer_of(scn))
    assert r.status == "failed" and "does not say that its servers are networked" in r.message.render()


def test_one_node_is_unaffected_and_the_switch_allows_it():
    one = copy.deepcopy(SIXTEEN)
    one["hardware"]["num_gpus"] = 8
    assert _rule(answer_of(one)).status == "not_applicable"
    off = copy.deepcopy(SIXTEEN)
    off["constraints"]["rules"] = {"price_fabric": False}
    assert _rule(answer_of(off)).status == "allowed"


def test_plan_and_estimate_carry_the_same_line(tmp_path, capsys):
    f = savers_off_file(MULTI_NODE_EXAMPLE, tmp_path)  # (savers written off: round 15 searches the unset ones; tests/savers_off.py)
    assert run_cli(["plan", str(f), "--json", "--top", "3"]) == 0
    top = next(p for p in json.loads(capsys.readouterr().out)["plans"] if p["nodes"] > 1)  # (#1: one node, round 8)
    assert top["price"]["provider"] == "AutoDL"
    line = {r["id"]: r for r in top["rules"]}["price_fabric"]
    assert line["status"] == "failed" and "which rents single machines" in line["message"]
    g = tmp_path / "e.json"
    g.write_text(json.dumps(top["scenario"]), encoding="utf-8")
    assert run_cli(["estimate", str(g), "--json"]) == 0
    est = json.loads(capsys.readouterr().out)
    assert {r["id"]: r for r in est["rules"]}["price_fabric"] == line
    assert run_cli(["plan", str(f), "--top", "3", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "price_fabric" in out and line["message"] in out
    assert run_cli(["plan", str(f), "--top", "3", "--lang", "zh_CN"]) == 0
    zh = capsys.readouterr().out
    assert "个节点按 AutoDL 的价格计价，而该来源出租的是单台机器" in zh and "带宽独享" in zh


def test_the_pdf_and_the_plans_page_show_the_line(tmp_path):
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils (pdftotext) not installed")
    from gpuplanner.app.answer import report_data
    from gpuplanner.report.render import ensure_app
    from gpuplanner.report_file import export_pdf

    ensure_app()
    f = tmp_path / "s.json"
    f.write_text(json.dumps(SIXTEEN), encoding="utf-8")
    data = report_data(f)
    verdicts = {name.render(): (status, msg.render()) for name, status, msg in data.plan.rules}
    status, msg = verdicts["networked multi-node price"]
    assert status == "failed" and "so the 2 nodes are priced from AutoDL" in msg
    pdf = export_pdf(data, tmp_path / "r.pdf", paper="a4")
    text = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True,
                          timeout=60).stdout
    text = re.sub(r"\s+", " ", text)
    assert "networked multi-node price" in text and "so the 2 nodes are priced from AutoDL" in text

    from PySide6.QtCore import Qt

    from gpuplanner.app import engine
    from gpuplanner.core.scenario import Scenario
    from gpuplanner.ui.pages.plans_page import COLUMNS, PlanTableModel

    scn = Scenario.model_validate(json.loads(MULTI_NODE_EXAMPLE.read_text(encoding="utf-8")))
    out = engine.search_plans(scn, MULTI_NODE_EXAMPLE.parent, top=30)  # (the price tie and the saver passes reorder the first three, round 15)
    model = PlanTableModel()
    model.set_plans(out.plans)
    k = next(i for i, p in enumerate(out.plans) if p.plan.evaluation.nodes > 1)  # (#1: one node, round 8)
    tip = model.data(model.index(k, COLUMNS.index("rank")), Qt.ItemDataRole.ToolTipRole)
    line = {r.id: r for r in out.plans[k].plan.evaluation.rules}["price_fabric"]
    assert line.status == "failed"
    assert "✗ networked multi-node price: " + line.message.render() in tip


# ------------------------------------------------------------------------------------------- quote sheets


def _plan(nodes: int) -> quotes.QuotedPlan:
    return quotes.QuotedPlan(gpu_id="h800-sxm-80gb", gpu_name="H800", gpu_memory_gib=80.0, num_gpus=8 * nodes,
                             gpus_per_node=8, nodes=nodes, card_hours=1000.0, calendar_days=5.0,
                             calendar_days_band=None, setup_hours=0.0, hours_per_week=168.0, currency="CNY",
                             storage_tb=0.0, egress_tb=0.0, inter_node="ib" if nodes > 1 else None,
                             inter_node_gbps=None)


@pytest.mark.parametrize("word,value", [("yes", True), ("no", False), ("unknown", None), ("是", True), ("", None)])
def test_the_quote_sheet_reads_the_optional_column(word, value):
    from gpuplanner.io import quote_sheets as qs

    rows = [list(qs.COLUMNS), ["vendor", "provider", "V"],
            ["offer", "h800-sxm-80gb", "10", "card_hour", "8", "", "no", "", "", word]]
    q = qs.parse_rows(rows, "q.csv")
    assert q.offers[0].multi_node is value
    back = qs.parse_rows(qs.quote_rows(q), "q.csv")  # written and read back
    assert back.offers[0].multi_node is value


def test_old_sheets_load_and_a_bad_value_is_one_line():
    from gpuplanner.io import quote_sheets as qs

    old = [list(qs.COLUMNS[:9]), ["vendor", "provider", "V"], ["offer", "h800-sxm-80gb", "10", "card_hour"]]
    assert qs.parse_rows(old, "q.csv").offers[0].multi_node is None
    bad = [list(qs.COLUMNS), ["vendor", "provider", "V"],
           ["offer", "h800-sxm-80gb", "10", "card_hour", "8", "", "no", "", "", "maybe"]]
    with pytest.raises(qs.QuoteSheetError) as e:
        qs.parse_rows(bad, "q.csv")
    assert "\n" not in str(e.value) and "J3" in str(e.value)


def test_a_single_machine_offer_fails_the_network_check_of_a_multi_node_plan():
    def vendor(mn):
        return quotes.VendorQuote(provider="V", network="ib", offers=[quotes.Offer(
            gpu="h800-sxm-80gb", unit="card_hour", price=Decimal("10"), multi_node=mn)])

    fails = quotes.compare_vendor(vendor(False), _plan(2)).network_check
    assert [c["status"] for c in fails if c["item"] == "offer_fabric"] == ["fail"]
    assert "single machines" in next(c for c in fails if c["item"] == "offer_fabric")["message"].render()
    ok = quotes.compare_vendor(vendor(True), _plan(2)).network_check
    assert [c["status"] for c in ok if c["item"] == "offer_fabric"] == ["ok"]
    assert not [c for c in quotes.compare_vendor(vendor(None), _plan(2)).network_check if c["item"] == "offer_fabric"]
    assert not [c for c in quotes.compare_vendor(vendor(False), _plan(1)).network_check if c["item"] == "offer_fabric"]


def test_a_bad_multi_node_in_the_users_quote_is_one_line_exit_2(tmp_path, capsys):
    scn = copy.deepcopy(SIXTEEN)
    scn["constraints"]["prices"] = {"h800-sxm-80gb": {"card_hour": 10.0, "multi_node": "maybe"}}
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scn), encoding="utf-8")
    assert run_cli(["estimate", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "constraints.prices.h800-sxm-80gb.multi_node" in err

"""Prices with units: every shipped quote states its unit, billing mode, region, source and date; an ambiguous
unit is refused; the mainland H100 default is the monthly node lease it is; mainland quotes for the cards rented
there; ``constraints.region`` picks the quotes; a card without a price is listed, never dropped silently."""

from __future__ import annotations

import json
import re
from importlib.resources import files

import pytest

from gpuplanner.core import catalog_hw as hw
from gpuplanner.core import cost
from gpuplanner.core import search as S
from gpuplanner.core.cost import PriceTable
from gpuplanner.core.errors import CatalogError
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict

DATE_RE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")


def _raw() -> dict:
    return json.loads(files("gpuplanner.resources").joinpath("prices.json").read_text(encoding="utf-8"))


def test_every_entry_states_unit_mode_region_source_and_date():
    recs = _raw()["prices"]
    assert len(recs) >= 30
    for i, r in enumerate(recs):
        assert r["unit"] in hw.PRICE_UNITS, (i, r["unit"])
        assert r["mode"] in hw.PRICE_MODES and r["unit"] in hw.PRICE_MODES[r["mode"]], (i, r["mode"], r["unit"])
        assert r["region"] in ("mainland_china", "worldwide"), i
        assert isinstance(r["source"], str) and r["source"].strip(), i
        assert DATE_RE.match(str(r["date"])), (i, r["date"])
        assert isinstance(r["price"], (int, float)) and r["price"] > 0, i
        if r["unit"].startswith("node_"):
            assert r["machine_gpus"], i
        assert "AMBIGUOUS" not in (r["notes"] or "").upper(), i
        if r["currency"] == "CNY":  # a yuan price is a mainland one; a mainland figure may be stated in USD (H800)
            assert r["region"] == "mainland_china", i


@pytest.mark.parametrize("bad, why", [
    ({"unit": "month"}, "ambiguous"),                     # per month of what: a card or a node?
    ({"unit": None}, "ambiguous"),
    ({"mode": "lease"}, "ambiguous"),
    ({"unit": "node_month", "machine_gpus": None}, "machine_gpus"),
    ({"mode": "on_demand", "unit": "node_month"}, "cannot be quoted"),
    ({"region": "CN"}, "region"),
    ({"date": ""}, "date"),
])
def test_an_ambiguous_price_is_refused(bad, why):
    good = {"gpu": "h100-sxm-80gb", "price": 70000.0, "currency": "CNY", "unit": "node_month", "mode": "monthly",
            "machine_gpus": 8, "region": "mainland_china", "provider": "x", "source": "y", "date": "2024",
            "notes": None}
    assert hw.parse_price_record(good).card_month == 8750.0
    with pytest.raises(CatalogError, match=why):
        hw.parse_price_record({**good, **bad})


def test_the_mainland_h100_default_is_a_monthly_node_lease():
    rec = [p for p in hw.load_prices() if p.gpu == "h100-sxm-80gb" and p.region == "mainland_china"]
    assert {(r.unit, r.mode, r.quoted_price, r.kind) for r in rec} == {
        ("node_month", "monthly", 70000.0, "wholesale"), ("node_month", "monthly", 75000.0, "wholesale")}
    p = PriceTable("CNY").get("h100-sxm-80gb")
    assert p.card_hour is None and p.spot_card_hour is None  # no made-up card-hour price
    assert p.machine_month == 70000.0 and p.machine_gpus == 8 and "machine_month" not in p.derived
    assert dict(p.basis) == {"machine_month": "monthly:node_month"} and p.region == "mainland_china"
    assert p.kind == "wholesale"
    # a month of a node is what it bills; the advice says there is no card-hour quote, once: with the other
    # region's card-hour price, as what card-hours would cost (cost.card_hours_instead), else as rental_advice's
    s = scenario_from_dict({"model": {"preset": "llama-3-8b"}, "training": {"framework": "megatron"},
                            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}, "data": {"tokens": "2B"}})
    ev = evaluate(s)
    assert ev.rental_mode == "month" and ev.cost == pytest.approx(70000.0)
    asks = [m.render() for m in ev.rental_advice if "card-hour quote" in m.render()]
    assert len(asks) == 1 and asks[0].startswith("Card-hours instead") and "whole month" in asks[0]
    p_alone = cost.rental_advice(p, "month", costs={"month": 70000.0}, hours_per_week=168, phase="stable",
                                 num_gpus=8, currency="CNY")
    assert any("No card-hour quote" in m.render() and "a whole node leased per month" in m.render() for m in p_alone)
    # A800 on demand is AutoDL's list price, not a marketplace's lowest seller (issue 31)
    assert PriceTable("CNY").get("a800-sxm-80gb").card_hour == 5.88


def test_every_default_quote_has_a_kind():
    kinds = {p.kind for p in hw.load_prices()}
    assert None not in kinds and kinds <= set(hw.PRICE_KINDS)


def test_mainland_quotes_for_the_cards_rented_there():
    mainland = {p.gpu for p in hw.load_prices() if p.region == "mainland_china"}
    assert {"a800-sxm-80gb", "h20-96gb", "rtx-4090-24gb", "rtx-4090d-24gb", "h100-sxm-80gb", "h800-sxm-80gb"} <= mainland
    t = PriceTable("CNY")
    # AutoDL list prices (rental-prices-cn-2026.md rows 5-13)
    assert t.get("a800-sxm-80gb").card_hour == 5.88 and t.get("h20-96gb").card_hour == 10.5
    assert t.get("h800-sxm-80gb").card_hour == 10.5 and t.get("l20-48gb").card_hour == 3.87
    assert all(t.get(g).kind == "list" for g in ("a800-sxm-80gb", "h20-96gb", "h800-sxm-80gb", "rtx-4090-24gb"))
    # the lowest-seller snapshots and the 30-day package read per card-hour are kept, labelled, and used only
    # when the user asks for them
    r = PriceTable("CNY", kinds=("marketplace",)).get("rtx-4090-24gb")
    assert r.card_hour is None and r.machine_gpus == 1 and r.machine_month == pytest.approx(1.24 * 720)
    assert PriceTable("CNY", kinds=("marketplace",)).get("a800-sxm-80gb").card_hour == 5.15
    # the yearly lease is kept for reference but bills nothing
    yearly = [p for p in hw.load_prices() if p.gpu == "rtx-4090-24gb" and p.mode == "yearly"]
    assert yearly and all(p.card_month is None and p.card_hour is None for p in yearly)
    # DeepSeek-V3's stated $2 per GPU-hour is an assumption, not a quote: never a default
    h800 = [p for p in hw.load_prices() if p.gpu == "h800-sxm-80gb" and p.kind == "assumption"]
    assert len(h800) == 1 and h800[0].currency == "USD" and "2412.19437" in h800[0].source
    assert PriceTable("CNY", kinds=("assumption",)).get("h800-sxm-80gb").card_hour == pytest.approx(2.0 * t.rate)


def test_region_setting_picks_the_quotes():
    # the lower median of the worldwide list prices (marketplace snapshots such as Vast.ai and Akash left out)
    assert PriceTable("CNY", region="worldwide").get("h100-sxm-80gb").card_hour == pytest.approx(4.29 * 7.0)
    assert PriceTable("USD", region="mainland_china").get("a800-sxm-80gb").card_hour == pytest.approx(5.88 / 7.0)
    assert PriceTable("CNY", region="mainland_china").get("b200-180gb") is None
    s = scenario_from_dict({"model": {"preset": "llama-2-7b"}, "training": {"method": "lora"}, "data": {"tokens": "1B"},
                            "constraints": {"max_gpus": 8, "region": "mainland_china",
                                            "gpu_candidates": ["b200-180gb", "a800-sxm-80gb"]}})
    r = S.search(s, top=2)
    assert r.plans and all(p.gpu == "a800-sxm-80gb" for p in r.plans)
    assert r.skipped_gpus["b200-180gb"].render() == "no price in mainland China — enter a quote"


def test_a_cny_plan_is_never_priced_from_a_converted_foreign_quote_without_opting_in():
    t = PriceTable("CNY")
    for gid in hw.load_gpus():
        p = t.get(gid)
        assert p is None or (p.region == "mainland_china" and "converted" not in p.kinds.values()), gid
    assert t.get("b200-180gb") is None
    opted = PriceTable("CNY", converted=True).get("b200-180gb")
    assert opted.region == "worldwide" and opted.kind == "converted"
    s = scenario_from_dict({"model": {"preset": "llama-2-7b"}, "training": {"method": "lora"}, "data": {"tokens": "1B"},
                            "constraints": {"max_gpus": 8, "converted_prices": True,
                                            "gpu_candidates": ["b200-180gb"]}})
    assert S.search(s, top=1).plans[0].evaluation.price.kind == "converted"


def test_a_worldwide_plan_never_rents_a_china_market_card_from_a_converted_mainland_quote():
    # H800/A800/H20/L20/RTX 4090D are sold for the mainland Chinese market only (gpus.json market): a USD plan
    # without a region does not price them from converted mainland quotes (they won the USD rankings before)
    t = PriceTable("USD")
    china = [g for g in hw.load_gpus().values() if g.market == "mainland_china"]
    assert len(china) == 6 and all(t.get(g.id) is None for g in china)
    s = scenario_from_dict({"model": {"preset": "llama-3.1-8b"}, "training": {"method": "full"},
                            "data": {"tokens": "1B"}, "constraints": {"max_gpus": 16, "currency": "USD"}})
    r = S.search(s, top=5)
    assert r.plans and not any(hw.get_gpu(p.gpu).market for p in r.plans)
    assert r.skipped_gpus["h800-sxm-80gb"].render() == (
        "sold only in mainland China: no worldwide quote — rent it there (constraints.region) or enter a quote")
    # the user's choices stand: converted prices asked for, a region set, or an own quote bring the card back
    on = scenario_from_dict({**s.model_dump(exclude_none=True), "constraints": {
        "max_gpus": 16, "currency": "USD", "converted_prices": True, "gpu_candidates": ["h800-sxm-80gb"]}})
    assert S.search(on, top=1).plans[0].evaluation.price.kind == "converted"
    quoted = scenario_from_dict({**s.model_dump(exclude_none=True), "constraints": {
        "max_gpus": 16, "currency": "USD", "gpu_candidates": ["h800-sxm-80gb"],
        "prices": {"h800-sxm-80gb": {"card_hour": 2.5}}}})
    assert S.search(quoted, top=1).plans[0].evaluation.price.card_hour == pytest.approx(2.5)


def test_the_4090_lora_example_costs_hours_not_a_month():
    from pathlib import Path
    from gpuplanner.io.scenario_files import load_scenario

    s = load_scenario(Path(__file__).parents[1] / "examples" / "7b-lora-1x4090.json")[0]
    ev = evaluate(s)
    assert ev.rental_mode == "card_hour" and ev.cost < 200, (ev.rental_mode, ev.cost)
    assert set(ev.mode_costs) >= {"card_hour", "month"}  # the package was compared, and lost
    be = ev.to_json()["break_even_hours_per_week"]
    assert be["month"] == pytest.approx(1052 / 1.98 * 168 / 720) and be["month_kind"] == "package"
    assert be["guide_rule"] == 40


def test_user_quote_replaces_the_default_and_says_so():
    s = scenario_from_dict({"model": {"preset": "llama-3-8b"}, "training": {"framework": "megatron"},
                            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}, "data": {"tokens": "2B"},
                            "constraints": {"prices": {"h100-sxm-80gb": {"card_hour": 20.0}}}})
    ev = evaluate(s)
    assert ev.price.card_hour == 20.0 and ev.price.basis["card_hour"] == "your_quote"
    assert ev.price.machine_month == 70000.0 and ev.price.basis["machine_month"] == "monthly:node_month"
    assert ev.rental_mode in ("card_hour", "hybrid_month") and ev.cost < 70000.0

"""Vendor quotes as a senior engineer runs the vendor meeting (issue 35 round 16, quotes16): every kind of price in
one unit (the total per card-hour of the plan's compute), a one-year term at a monthly price billed as twelve
months, the planning guide's whole machine vs card-hours rule (~40 h/week) read on the quotes themselves, and an
RFQ that asks for what the plan runs on (the network's Gb/s and NICs even where the scenario names none, the link
inside a server with its topology check, host RAM where CPU offload needs it).

Prices are the price reference's public figures (cited in each test); every expected figure is worked by hand.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.quotes import Offer, QuotedPlan, VendorQuote, compare, plan_figures
from gpuplanner.core.scenario import Scenario
from gpuplanner.formatting import format_sig
from gpuplanner.report.quotes_section import html_section, rfq_html, text_lines


def _tr(_ctx: str, text: str) -> str:
    return text


def _plan(**kw) -> QuotedPlan:
    base = dict(gpu_id="h800-sxm-80gb", gpu_name="H800", gpu_memory_gib=80.0, num_gpus=16, gpus_per_node=8, nodes=2,
                card_hours=10_333.0, calendar_days=27.1, calendar_days_band=None, setup_hours=0.8,
                hours_per_week=168.0, currency="CNY", storage_tb=1.3, egress_tb=0.3, inter_node="ib",
                inter_node_gbps=3200.0)
    base.update(kw)
    return QuotedPlan(**base)


def test_one_year_minimum_at_a_monthly_price_is_twelve_months():
    # SMM listing "H800 ×8 年租 69,000 per server-month" (Gavinzll/compute-market-report data/audit_2026-10-10.json
    # @940879f): a one-year lease is twelve monthly payments. 16 cards = 2 servers: 2 × 12 × 69,000 = 1,656,000.
    # Before: ceil(365 / 30) = 13 months, 1,794,000 (8.3% over).
    q = VendorQuote(provider="SMM", offers=[Offer(gpu="h800-sxm-80gb", unit="server_month", price=Decimal(69000),
                                                  gpus_per_server=8, min_term_days=Decimal(365))])
    r = compare([q], _plan()).vendors[0]
    assert r.offer.quantity == 12 and r.offer.servers == 2
    assert r.breakdown["compute"] == Decimal("1656000.00")
    # two years: 24 months; a 60-day term at a monthly price stays ceil(60 / 30) = 2; a year of weeks stays ceil
    q2 = VendorQuote(provider="S2", offers=[Offer(gpu="h800-sxm-80gb", unit="server_month", price=Decimal(69000),
                                                  gpus_per_server=8, min_term_days=Decimal(730))])
    assert compare([q2], _plan()).vendors[0].offer.quantity == 24
    q3 = VendorQuote(provider="S3", offers=[Offer(gpu="h800-sxm-80gb", unit="server_month", price=Decimal(69000),
                                                  gpus_per_server=8, min_term_days=Decimal(60))])
    assert compare([q3], _plan()).vendors[0].offer.quantity == 2


def test_every_price_kind_compared_per_card_hour_of_compute():
    # AutoDL H800 10.50 per card-hour (autodl.com originalPrice, list file 2026-09-24) and 云擎天下 H800 ×8 69,000
    # per server-month (omniyq.com, cmis_snapshot_2026-08-22 @64295991): one unit, the total ÷ the plan's card-hours
    hourly = VendorQuote(provider="AutoDL", setup_billed="no",
                         offers=[Offer(gpu="h800-sxm-80gb", unit="card_hour", price=Decimal("10.50"))])
    monthly = VendorQuote(provider="omniyq",
                          offers=[Offer(gpu="h800-sxm-80gb", unit="server_month", price=Decimal(69000))])
    c = compare([hourly, monthly], _plan())
    v = {r.provider: r for r in c.vendors}
    # 10,333 × 10.50 = 108,496.50 → ÷ 10,333 = 10.50; 2 servers × 69,000 = 138,000 → ÷ 10,333 = 13.355… → 13.36
    assert v["AutoDL"].total == Decimal("108496.50") and v["AutoDL"].per_card_hour == Decimal("10.50")
    assert v["omniyq"].total == Decimal("138000") and v["omniyq"].per_card_hour == Decimal("13.36")
    assert c.to_json()["vendors"][1]["per_card_hour_worked"] == 13.36
    text = "\n".join(text_lines(c, _tr))
    # the total whole, the unit price to the cent (ux27: "¥138,000.00")
    assert "¥13.36 per card-hour of the plan's compute (¥138,000 ÷ 10,333 card-hours)" in text
    assert "Per card-hour" in html_section(c, translate=_tr, msg=lambda m: m.render())


def _rtx4090_quotes() -> list[VendorQuote]:
    # 优云智算 RTX 4090 1.92 per card-hour (compshare.cn/price-list, 2026-10-04); 云擎天下 RTX 4090 ×8 7,800 per
    # server-month (omniyq.com, cmis_snapshot_2026-08-22 @64295991)
    return [VendorQuote(provider="compshare", offers=[Offer(gpu="rtx-4090-24gb", unit="card_hour", price=Decimal("1.92"))]),
            VendorQuote(provider="omniyq", offers=[Offer(gpu="rtx-4090-24gb", unit="server_month", price=Decimal(7800))])]


@pytest.mark.parametrize("cards,hours,days,be,verdict", [
    # 7,800 ÷ (8 × 1.92) ÷ (30 / 7) = 118.49 → 118.5 h/week: a month at 168 h/week, the whole machine wins; at 40
    # h/week card-hours do
    (8, 168.0, 30.0, 118.5, "package"), (8, 40.0, 30.0, 118.5, "card_hours"),
    # 168 h/week but a 9.4-day job: the month is paid in full, 168 × 9.4 < 118.5 × 30 → card-hours (the guide's "for
    # several weeks"); before the verdict only looked at the hours a week and said "the package" beside a ranking
    # that put card-hours first
    (8, 168.0, 9.4, 118.5, "short"),
    # one card pays the whole server: 7,800 ÷ 1.92 ÷ (30 / 7) = 947.9 h/week, more than a week has
    (1, 168.0, 30.0, 947.9, "never"),
])
def test_whole_machine_vs_card_hours_rule_across_vendors(cards, hours, days, be, verdict):
    p = _plan(gpu_id="rtx-4090-24gb", gpu_name="RTX 4090", num_gpus=cards, nodes=1,
              card_hours=cards * hours * days / 7, calendar_days=days, hours_per_week=hours, inter_node=None,
              inter_node_gbps=None)
    c = compare(_rtx4090_quotes(), p)
    w = c.whole_vs_hourly
    assert (w.package_provider, w.hourly_provider) == ("omniyq", "compshare")
    assert w.break_even_hours_per_week == be and w.verdict == verdict
    assert c.to_json()["whole_machine_vs_card_hours"]["guide_hours_per_week"] == 40.0
    text = "\n".join(text_lines(c, _tr))
    assert "about 40 hours a week" in text and f"at {format_sig(be, 3)} hours a week" in text
    # the rule and the ranking say the same thing
    assert (c.ranking[0] == "omniyq") == (verdict == "package")
    if verdict == "short":
        assert "the job's 9.4 days do not fill the 30.0 days the package is paid for" in text


def _scenario(**kw) -> Scenario:
    d = {"model": {"preset": "qwen2.5-14b"},
         "training": {"method": "pretrain", "precision": "bf16", "optimizer": "adamw", "seq_len": 4096,
                      "micro_batch_size": 1, "global_batch_size": 256, "recompute": "selective",
                      "flash_attention": True, "framework": "megatron"},
         "parallel": {"tp": 2, "pp": 1, "zero": 1},
         "hardware": {"gpu": "h800-sxm-80gb", "num_gpus": 16, "gpus_per_node": 8},
         "data": {"tokens": "1B"}, "constraints": {"currency": "CNY", "hours_per_week": 168}}
    for k, v in kw.items():
        d[k] = {**d[k], **v}
    return Scenario.model_validate(d)


def test_rfq_asks_the_network_the_days_were_computed_with_when_none_is_chosen():
    # no hardware.inter_node: the time model runs on the H800 generation's default fabric, 8 × 400 Gb/s InfiniBand
    # NDR per node (Evaluation.links); before, the RFQ asked "InfiniBand, ? Gb/s per node"
    ev = evaluate(_scenario())
    assert ev.links.inter_node_gbps_per_node == 3200.0
    p = plan_figures(ev)
    assert (p.inter_node, p.inter_node_gbps, p.nics_per_node, p.nic_gbps) == ("ib", 3200.0, 8, 400.0)
    html = rfq_html(compare([], p), translate=_tr)
    assert "3,200 Gb/s per node (8 NICs × 400 Gb/s, dedicated to this job)" in html and "? Gb/s" not in html
    # the link inside a server and its topology check, with tensor parallelism over 2 cards
    assert "tensor parallelism over 2 cards: send nvidia-smi topo -m showing NVLink (NV#) between them" in html
    assert "Host RAM per server" in html and "state it (GiB per server)" in html


def test_rfq_asks_the_host_ram_cpu_offload_needs():
    ev = evaluate(_scenario(training={"method": "full", "framework": "deepspeed"},
                            parallel={"tp": 1, "zero": 3, "offload_optimizer": True},
                            hardware={"num_gpus": 8}))
    assert ev.host_ram is not None and ev.host_ram.total > 0
    p = plan_figures(ev)
    assert p.host_ram_gib == pytest.approx(ev.host_ram.total)
    from gpuplanner.formatting import format_number
    html = rfq_html(compare([], p), translate=_tr)
    assert f"at least {format_number(ev.host_ram.total)} GiB (what CPU offload keeps in host memory)" in html
    # one node: no network asked
    assert "not needed (one node)" in html


def test_a_training_phase_is_quoted_for_its_work_as_the_project_prices_it():
    # core.project prices a training phase from its Evaluation (the work: 1,820 card-hours over 19 days), not its
    # slot (4 cards x 3 weeks x 168 h = 2,016 card-hours); a serving phase runs its slot
    from types import SimpleNamespace

    from gpuplanner.core.quotes import phase_figures

    ev = SimpleNamespace(gpu_hours=1820.0, calendar_days=19.0, setup_hours=0.7, gpu_memory_gib=80.0, gpus_per_node=8)
    train = SimpleNamespace(device="a800-sxm-80gb", device_name="A800", count=4, nodes=1, weeks=3.0,
                            hours_per_week=168.0, gpu_hours=4 * 3 * 168.0, evaluation=ev)
    main = _plan(gpu_id="a800-sxm-80gb", num_gpus=4, nodes=1, inter_node=None, inter_node_gbps=None)
    p = phase_figures(train, main)
    assert (p.card_hours, p.calendar_days) == (1820.0, 19.0)
    serve = SimpleNamespace(device="a800-sxm-80gb", device_name="A800", count=1, nodes=1, weeks=4.0,
                            hours_per_week=168.0, gpu_hours=672.0, evaluation=None)
    p = phase_figures(serve, main)
    assert (p.card_hours, p.calendar_days) == (672.0, 28.0)

"""Issue 35 round 16, advice16: plan #1 of ten new everyday requests read by a senior infrastructure engineer
(docs/notes/2026-12-07/issue-35-r16-advice16-requests/; request 01 is copied to tests/data/expert_review_r16/;
verdicts in docs/notes/2026-12-07/issue-35-r16-advice16.md).

What the engineer rejected, and what each test pins:
* A Shenzhen team renting by the week (``constraints.rental_mode: week``, its vendor's weekly quotes for networked
  H800 and A800 servers, no hardware section) got no plan at all: ``plan`` stopped with "at 168 hours a week no
  session outlasts its setup". The document's default card (1 × H100 SXM5) has no weekly price, so its billed
  calendar was infinite. An unpriced mode now waits card-hour rental's calendar, as a card with no price does.
* With the plan running, #1 was 8 × H800 on one node for 9.0 days at 30,000 CNY (two weeks), while 16 × H800 on two
  of the vendor's networked servers did it in 4.5 days for the same 30,000 (one week): it failed "networked
  multi-node price" because the default card-hour and monthly figures kept beside the weekly quote (single
  machines) were read with it, though under the pinned mode they bill nothing. The rule now reads the pinned mode's
  figures (cost.GpuPrice.multi_node_for).
* The Mixtral example's #1 (8 × L40S, optimizer in CPU memory, a saver the user did not ask for) needs 1,044 GiB of
  host RAM per server, more than the 1 TB 8-GPU servers on the price sheets, and ``plan`` never said so. Every plan
  with CPU offload now says how much to ask for (intake.host_ram_line, among the plan's warnings).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from gpuplanner.core import cost as costmod
from gpuplanner.core import search as S
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import Scenario

DATA = Path(__file__).resolve().parent / "data" / "expert_review_r16"
ROOT = Path(__file__).resolve().parents[1]
MIXTRAL = ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json"


def _doc(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _cli(args, capsys) -> str:
    from gpuplanner.cli import run_cli

    assert run_cli(args) == 0
    return capsys.readouterr().out


# ------------------------------------------------------------------ a pinned mode the card has no price for


def test_a_pinned_mode_the_card_lacks_waits_card_hour_calendar():
    """1 × H100 SXM5 (mainland prices: a whole machine by the month, no weekly quote) pinned to weekly rent: no
    price in that mode, so no cost; what the user waits is card-hour rental's calendar, the same as the same card
    pinned to card-hours (whose calendar cost.rental_costs keeps priced or not), finite."""
    base = {"model": {"preset": "qwen2.5-7b"}, "training": {"method": "lora"}, "data": {"tokens": "50M"},
            "constraints": {"currency": "CNY"}}
    week = evaluate(Scenario.model_validate({**base, "constraints": {"currency": "CNY", "rental_mode": "week"}}))
    card = evaluate(Scenario.model_validate({**base, "constraints": {"currency": "CNY", "rental_mode": "card_hour"}}))
    assert week.cost is None and math.isfinite(week.calendar_days)
    assert week.calendar_days == pytest.approx(card.calendar_days, rel=1e-12)
    assert week.calendar_days > week.compute_days  # (setup and data migration on top of the work)
    # the band's ends in the same calendar (its far end read "—" once the plan no longer stopped)
    assert all(math.isfinite(d) for d in week.calendar_days_band)
    assert week.calendar_days_band == pytest.approx(card.calendar_days_band, rel=1e-12)


def test_weekly_quote_sheet_plans(capsys):
    """Request 01 (no hardware section, weekly quotes for H800 and A800 only): ``plan`` runs (it stopped with an
    error blaming constraints.hours_per_week)."""
    out = _cli(["plan", str(DATA / "01-shenzhen-cpt-14b-weekly.json"), "--top", "3", "--lang", "en"], capsys)
    assert "no session outlasts its setup" not in out
    assert "whole machines per week (as set)" in out


# ------------------------------------------------------------------ price_fabric under a pinned mode


def _price(**fabrics) -> costmod.GpuPrice:
    return costmod.GpuPrice(gpu="h800-sxm-80gb", currency="CNY", card_hour=13.0, machine_week=15000.0,
                            machine_month=69000.0, spot_card_hour=None, machine_gpus=8, source="t", source_date="",
                            is_default=False, fabrics=fabrics)


def test_multi_node_for_reads_the_pinned_modes_figures_by_hand():
    p = _price(card_hour=False, machine_week=True, machine_month=False)
    assert p.multi_node is False                      # any single-machine figure: False (unpinned, as before)
    assert p.multi_node_for(None) is False
    assert p.multi_node_for("week") is True           # only the weekly quote bills a plan pinned to weeks
    assert p.multi_node_for("month") is False
    assert p.multi_node_for("card_hour") is False
    assert p.multi_node_for("hybrid_week") is False   # card-hours capped at the week: both figures bill it
    assert _price(card_hour=None, machine_week=True).multi_node_for("week") is True
    assert _price(card_hour=True, machine_week=None).multi_node_for("week") is None  # not stated
    q = costmod.GpuPrice(gpu="h800-sxm-80gb", currency="CNY", card_hour=13.0, machine_week=None, machine_month=None,
                         spot_card_hour=None, machine_gpus=8, source="t", source_date="", fabrics={"card_hour": True})
    assert q.multi_node_for("week") is True           # no such figure: the price's own word


def test_weekly_networked_quote_two_nodes_rank_first():
    """Request 01's #1: 16 × H800 over two of the vendor's networked servers, one week each, 30,000 CNY, in half the
    calendar of 8 × H800 on one server for two weeks at the same 30,000 (the cheapest objective's tie: the faster
    first); the rule passes, naming the vendor's quote."""
    res = S.search(Scenario.model_validate(_doc("01-shenzhen-cpt-14b-weekly.json")), top=3)
    p = res.plans[0]
    assert (p.gpu, p.num_gpus, p.nodes, p.rental_mode) == ("h800-sxm-80gb", 16, 2, "week")
    assert p.cost == pytest.approx(2 * 15000.0)
    fab = next(v for v in p.evaluation.rules if v.id == "price_fabric")
    assert fab.status == "passed" and "Shenzhen vendor A" in fab.message.render()
    one = next(q for q in res.plans if (q.gpu, q.num_gpus) == ("h800-sxm-80gb", 8))
    assert one.cost == pytest.approx(p.cost) and one.calendar_days > 1.9 * p.calendar_days


# ------------------------------------------------------------------ host RAM of CPU offload


def test_host_ram_line_by_hand():
    from gpuplanner.core.intake import HostRam, host_ram_line

    gib = 2.0 ** 30
    assert host_ram_line(None) is None
    assert host_ram_line(HostRam()) is None                                   # nothing offloaded
    need = HostRam(optimizer=46.7e9 * 16 / gib)                                # Mixtral's 46.7B, 16 B/param
    assert need.total == pytest.approx(46.7e9 * 16 * 1.5 / gib)               # 1,044 GiB with DeepSpeed's 1.5
    text = host_ram_line(need).render()
    assert "1,044 GiB of host RAM per server" in text and "ask the vendor" in text
    assert host_ram_line(HostRam(optimizer=100.0, available=2048.0)) is None  # the user's server holds it
    short = host_ram_line(HostRam(optimizer=800.0, available=1024.0)).render()
    assert "1,200 GiB" in short and "the node has 1,024 GiB" in short


def test_mixtral_example_says_its_host_ram(capsys):
    """The Mixtral example's #1 (8 × L40S, the optimizer in CPU memory) says the 1,044 GiB per server it needs, in
    the plan text and in --json's warnings."""
    out = _cli(["plan", str(MIXTRAL), "--top", "1", "--lang", "en"], capsys)
    block = out.split("\n1. ", 1)[1]
    assert "CPU offload needs about 1,044 GiB of host RAM per server" in block
    data = json.loads(_cli(["plan", str(MIXTRAL), "--top", "1", "--json", "--lang", "en"], capsys))
    p = data["plans"][0]
    assert p["offload_optimizer"] is True
    assert p["host_ram_per_node_gib"]["total"] == pytest.approx(1044, abs=1)
    assert sum("1,044 GiB of host RAM per server" in w for w in p["warnings"]) == 1


def test_mixtral_example_far_end_is_inside_the_deadline():
    """The known doubt, read: #1's band's far end (its p90) is within the 30-day deadline, so it stands."""
    res = S.search(Scenario.model_validate(json.loads(MIXTRAL.read_text(encoding="utf-8"))), top=1)
    p = res.plans[0]
    assert p.evaluation.calendar_days_band[1] <= 30.0


def test_no_offload_no_host_ram_line(capsys):
    out = _cli(["plan", str(DATA / "01-shenzhen-cpt-14b-weekly.json"), "--top", "1", "--lang", "en"], capsys)
    assert "host RAM" not in out.split("\n1. ", 1)[1]


def test_host_ram_line_in_chinese(capsys):
    out = _cli(["plan", str(MIXTRAL), "--top", "1", "--lang", "zh_CN"], capsys)
    assert "CPU 卸载每台服务器约需 1,044 GiB 主机内存" in out


def _mixtral(host_ram_gib: float) -> Scenario:
    d = json.loads(MIXTRAL.read_text(encoding="utf-8"))
    d["hardware"]["host_ram_gib"] = host_ram_gib
    return Scenario.model_validate(d)


def test_search_keeps_no_plan_over_the_users_host_ram():
    """Servers of 768 GiB (the SMM sheet's 8 × RTX 4090 server; 1 TB for HGX H100): no listed plan needs more host
    RAM per node than that (the L40S #1 needs 1,044 GiB), and every plan's own figure, from the same
    intake.offloaded_states, agrees with the search."""
    res = S.search(_mixtral(768.0), top=5)
    assert res.plans
    for p in res.plans:
        hr = p.evaluation.host_ram
        assert hr is None or hr.total <= 768.0, (p.gpu, p.num_gpus, hr)
    assert (res.plans[0].gpu, res.plans[0].num_gpus) != ("l40s-48gb", 8)


def test_search_keeps_a_plan_the_users_host_ram_holds():
    """1,100 GiB servers hold the L40S plan's 1,044 GiB: it stays #1, and says nothing about host RAM."""
    res = S.search(_mixtral(1100.0), top=1)
    p = res.plans[0]
    assert (p.gpu, p.num_gpus) == ("l40s-48gb", 8)
    assert p.evaluation.host_ram.fits is True
    assert not any("host RAM" in w.render() for w in p.warnings)

"""Vendor quotes in print: the report's "Quotes compared" section, the one-page request for quote (询价单) and
the CLI's text table. Everything is read from one :class:`gpuplanner.core.quotes.Comparison` (itself built from
the plan's Evaluation); nothing is computed here, every number goes through :mod:`gpuplanner.formatting`.

The text and HTML builders take the translation functions of their caller (the CLI's ``--lang`` or Qt's
installed translator), so this module imports Qt only to draw the RFQ PDF.
"""

from __future__ import annotations

import html
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable

from ..core.messages import english_plurals
from ..core.quotes import GUIDE_HOURS_PER_WEEK, HOURLY, NETWORK_LABELS, QUESTIONS, UNIT_LABELS, Comparison, VendorResult
from ..formatting import (
    format_date, format_elapsed, format_hours, format_list, format_money, format_number, format_range, format_sig, gpu_display_name,
    format_sentences, in_unit, join_clause, link_display_name, paren, plural_s,
)

CTX = "Quotes"
Tr = Callable[[str, str], str]

PARTS = ("compute", "storage", "egress", "setup", "migration")


def _qt_translate(context: str, text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate(context, text)


def _qt_msg(m: Any) -> str:
    from gpuplanner.i18n import translate_message

    try:
        return translate_message(m.context, m.text, dict(m.params))
    except (KeyError, IndexError, ValueError):
        return m.render()


def part_names(translate: Tr) -> dict[str, str]:
    return {"compute": translate(CTX, "compute (the offer)"), "storage": translate(CTX, "storage"),
            "egress": translate(CTX, "egress (download at the end)"), "setup": translate(CTX, "setup and image rebuilding"),
            "migration": translate(CTX, "data migration")}


def status_names(translate: Tr) -> dict[str, str]:
    return {"ok": translate(CTX, "ok"), "warn": translate(CTX, "check"), "fail": translate(CTX, "does not match"),
            "unknown": translate(CTX, "not stated")}


def answer_names(translate: Tr) -> dict[str, str]:
    return {"yes": translate(CTX, "yes"), "no": translate(CTX, "no"), "unknown": translate(CTX, "still to ask")}


def _money(v: Decimal | None, cur: str) -> str:
    """An amount at the precision its size deserves (``formatting.format_money``'s own: whole from 100, cents
    below, "¥0" for nothing): "¥665" beside the plan's "¥667", not "¥665.02", and a free migration "¥0", not
    "¥0.00" (ux27)."""
    return "—" if v is None else format_money(float(v), cur)


def _band(v: VendorResult, cur: str) -> str:
    """The total's band: ``¥9,010.86–¥10,665.29``, one amount when both ends print the same."""
    return format_range(_money(v.total_band[0], cur), _money(v.total_band[1], cur))


def part_value(v: VendorResult, key: str, cur: str, translate: Tr) -> str:
    """A breakdown line's amount, or "not stated" where the quote gives no price for it."""
    if key in v.not_stated:
        return translate(CTX, "not stated")
    return _money(v.breakdown.get(key), cur)


def billing_text(v: VendorResult, cur: str, translate: Tr, cards: int) -> str:
    """The chosen offer as one phrase: price per unit and what it bills for the plan."""
    o = v.offer
    if o is None:
        return "—"
    if o.parts:
        return combination_text(v, translate, cards)
    unit = translate(CTX, UNIT_LABELS[o.offer.unit])
    price = format_money(float(o.offer.price), v.quote.currency)  # a month's rent whole, a card-hour's to the cent
    if o.hourly_rate is not None:
        billed = translate(CTX, "{h} card-hours").format(h=format_number(float(o.quantity)))
    elif o.servers:
        billed = _fill(translate(CTX, "{s} server(s) × {p} period(s)"), s=o.servers, p=int(o.quantity))
    else:
        billed = _fill(translate(CTX, "{n} card(s) × {p} period(s)"), n=cards, p=int(o.quantity))
    return translate(CTX, "{price} {unit}; {billed}").format(price=price, unit=unit, billed=billed)


def combination_text(v: VendorResult, translate: Tr, cards: int) -> str:
    """A combination of the vendor's offers (core.quotes.combined_cost) as one phrase: "2 months + 2 weeks:
    ¥20,000.00 per server-month, ¥6,000.00 per server-week; 1 server"."""
    o = v.offer
    counts = {"month": translate(CTX, "{n} month(s)"), "week": translate(CTX, "{n} week(s)"),
              "day": translate(CTX, "{n} day(s)")}
    pieces, prices = [], []
    for offer, k in o.parts:
        if offer.unit in HOURLY:
            pieces.append(translate(CTX, "{h} card-hours").format(h=format_number(float(k))))
        else:
            pieces.append(_fill(counts[offer.unit.split("_", 1)[1]], n=int(k)))
        prices.append(translate(CTX, "{price} {unit}").format(
            price=format_money(float(offer.price), v.quote.currency, decimals=2),
            unit=translate(CTX, UNIT_LABELS[offer.unit])))
    who = _fill(translate(CTX, "{s} server(s)"), s=o.servers) if o.servers else \
        _fill(translate(CTX, "{n} card(s)"), n=cards)
    return translate(CTX, "{combination}: {prices}; {who}").format(
        combination=" + ".join(pieces), prices=format_list(prices), who=who)


def _fill(text: str, **params: Any) -> str:
    """A translated template filled in, an English one read with its counts ("1 server × 3 periods"; every
    count's word right after its placeholder, core.messages.english_plurals; a translation has no "(s)")."""
    return english_plurals(text, params).format(**params)


def break_even_text(v: VendorResult, translate: Tr, cards: int = 1) -> str:
    """The vendor's package against its own card-hour price, for the plan's cards, in hours per week."""
    if v.break_even_hours_per_week is None:
        return translate(CTX, "no package and card-hour price of this vendor to compare")
    unit = translate(CTX, UNIT_LABELS[v.break_even_against])
    h = format_sig(v.break_even_hours_per_week, 3)
    if v.break_even_hours_per_week > 168:
        return _fill(translate(CTX, "{unit} never beats card-hours for {n} card(s): it would take {h} hours per week "
                                    "(a week has 168)"), unit=unit, n=cards, h=h)
    return translate(CTX, "{unit} beats card-hours above {h} hours per week").format(unit=unit, h=h)


def per_card_hour_text(v: VendorResult, cur: str, translate: Tr, card_hours: float) -> str:
    """The total per card-hour of the plan's compute, the conversion said: every kind of price in one unit."""
    if v.per_card_hour is None:
        return "—"
    return translate(CTX, "{price} per card-hour of the plan's compute ({total} ÷ {h} card-hours)").format(
        price=_money(v.per_card_hour, cur), total=_money(v.total, cur), h=format_number(card_hours))


def whole_vs_hourly_text(c: Comparison, translate: Tr) -> str | None:
    """The planning guide's whole machine vs card-hours rule read on these quotes (core.quotes.WholeVsHourly)."""
    w = c.whole_vs_hourly
    if w is None:
        return None
    cur = c.plan.currency
    verdict = {"never": translate(CTX, "card-hours: the package never wins for this card count (a week has 168 "
                                       "hours)"),
               "package": translate(CTX, "the package, for every period it is held"),
               "short": translate(CTX, "card-hours: the job's {days} do not fill the {billed} the package is paid "
                                       "for").format(days=format_elapsed(w.job_days, unit="days"),
                                                     billed=format_elapsed(w.billed_days, unit="days")),
               "card_hours": translate(CTX, "card-hours")}[w.verdict]
    return _fill(translate(
        CTX, "Whole machine vs card-hours (planning guide: about {guide} hours a week for several weeks favours the "
             "whole machine): at these quotes {package} {unit} ({pv}) costs as much as {hourly} per card-hour ({hv}) "
             "at {be} hours a week for the plan's {n} card(s); the plan runs {plan} hours a week: {verdict}."),
        guide=format_number(GUIDE_HOURS_PER_WEEK), package=format_money(float(w.package_price), cur),
        unit=translate(CTX, UNIT_LABELS[w.package_unit]), pv=w.package_provider,
        hourly=format_money(float(w.hourly_price), cur, decimals=2), hv=w.hourly_provider,
        be=format_sig(w.break_even_hours_per_week, 3), n=w.cards, plan=format_number(w.plan_hours_per_week),
        verdict=verdict)


def spot_text(v: VendorResult, cur: str, translate: Tr) -> str | None:
    """The vendor's spot offer as a cost band: no reclaim – one reclaim per node per day of running."""
    if v.spot_band is None:
        return None
    spot = min((c for c in v.offers if c.offer.unit == "spot_card_hour"), key=lambda c: c.compute)
    return plural_s(translate(CTX, "{lo} – {hi}: no reclaim – {n} reclaim(s) (one per node per day of running, each "
                                   "losing the work since the last checkpoint and a fresh setup)"),
                    float(format_sig(spot.reclaims, 2).replace(",", ""))).format(
        lo=_money(v.spot_band[0], cur), hi=_money(v.spot_band[1], cur), n=format_sig(spot.reclaims, 2))


# ------------------------------------------------------------------------------------------------ CLI text

def text_lines(c: Comparison, translate: Tr | None = None, msg: Callable[[Any], str] | None = None) -> list[str]:
    """The comparison as the CLI prints it, in the caller's language."""
    translate = translate or _qt_translate
    msg = msg or (lambda m: m.render())
    p = c.plan
    cur = p.currency
    out = [translate(CTX, "Plan: {n} × {gpu}, {h} card-hours, {d} from start to finish, {tb} TB stored").format(
        n=p.num_gpus, gpu=gpu_display_name(p.gpu_name), h=format_number(p.card_hours), d=format_elapsed(p.calendar_days),
        tb=format_sig(p.storage_tb, 2)), ""]
    names = part_names(translate)
    for v in c.vendors:
        rank = f"#{v.rank}" if v.rank else "—"
        head = f"{rank}  {v.provider}"
        if v.quote.date:  # "(September 24, 2026)" / "（2026年9月24日）"
            head = join_clause(head, paren(format_date(v.quote.date)))
        out.append(head)
        if v.total is None:
            out.append("    " + msg(v.excluded))
            out.append("")
            continue
        out.append("    " + translate(CTX, "billing: {b}").format(b=billing_text(v, cur, translate, p.num_gpus)))
        for k in PARTS:
            out.append("    " + ljust(names[k], 32) + rjust(part_value(v, k, cur, translate), 16))
        total = "    " + ljust(translate(CTX, "total"), 32) + rjust(_money(v.total, cur), 16)
        if v.total_band and _band(v, cur) != _money(v.total, cur):  # a band of the total alone says nothing more;
            # "（区间 …）" right after the total in Chinese
            band = translate(CTX, "(band {range})").format(range=_band(v, cur))
            total = join_clause(total + ("" if band[:1] == "（" else " "), band)
        out.append(total)
        out.append("    " + translate(CTX, "effective: {t}").format(t=per_card_hour_text(v, cur, translate, p.card_hours)))
        out.append("    " + translate(CTX, "break-even: {t}").format(t=break_even_text(v, translate, p.num_gpus)))
        spot = spot_text(v, cur, translate)
        if spot:
            out.append("    " + translate(CTX, "spot: {t}").format(t=spot))
        for chk in v.network_check:
            out.append("    " + translate(CTX, "network: {status}: {m}").format(
                status=status_names(translate)[chk["status"]], m=msg(chk["message"])))
        if v.unanswered:
            out.append("    " + translate(CTX, "still to ask:"))
            out.extend("      - " + translate(CTX, QUESTIONS[q]) for q in v.unanswered)
        for m in v.risks:
            out.append("    " + translate(CTX, "risk: {m}").format(m=msg(m)))
        for m in v.reasons:
            out.append("    " + translate(CTX, "why: {m}").format(m=msg(m)))
        out.append("")
    out.append(translate(CTX, "Ranking: {r}").format(r=" > ".join(c.ranking)))
    rule = whole_vs_hourly_text(c, translate)
    if rule:
        out.append(rule)
    return out


def project_lines(pq: Any, cur: str, translate: Tr | None = None) -> list[str]:
    """The project's GPU phases: the cheapest vendor per phase, the moves between vendors, one vendor for all."""
    translate = translate or _qt_translate
    out = ["", translate(CTX, "Project phases")]
    for what, vendor, amount in project_rows(pq, cur, translate):
        out.append("    " + ljust(what, 34 if vendor else 62) + (ljust(vendor, 28) if vendor else "") + rjust(amount, 16))
    return out


# --------------------------------------------------------------------------------------------- report HTML

def ljust(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal columns (a Chinese character takes two)."""
    import unicodedata

    w = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(1, width - w)


def rjust(text: str, width: int) -> str:
    import unicodedata

    w = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return " " * max(0, width - w) + text


def _e(s: object) -> str:
    return html.escape(str(s), quote=True)


def _table(rows: list[list[str]], header: list[str] | None = None, widths: list[int] | None = None,
           num_cols: frozenset[int] = frozenset(), nowrap_cols: frozenset[int] = frozenset()) -> str:
    out = ['<table width="100%" border="1" cellspacing="0" cellpadding="3" '
           'style="border-collapse: collapse; border-color: #999;">']
    if header:
        out.append("<thead><tr>" + "".join(
            f"<th{f' width={chr(34)}{widths[i]}%{chr(34)}' if widths else ''}>{_e(h)}</th>" for i, h in enumerate(header))
                   + "</tr></thead>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td{' align=\"right\"' if i in num_cols else ''}"
                                    f"{' style=\"white-space: nowrap\"' if i in nowrap_cols else ''}>{c}</td>"
                                    for i, c in enumerate(row)) + "</tr>")
    out.append("</table>")
    return "".join(out)


def html_section(c: Comparison, number: str = "7", translate: Tr | None = None,
                 msg: Callable[[Any], str] | None = None, project: Any = None) -> str:
    """The report's "Quotes compared" section: the ranking, one table per vendor with the hidden-cost lines,
    the network check, the questions still to ask and the risks."""
    translate = translate or _qt_translate
    msg = msg or _qt_msg
    p = c.plan
    cur = p.currency
    out = [f"<h2 style='page-break-before: always'>{f'{number}. ' if number else ''}"
           f"{_e(translate(CTX, 'Quotes compared'))}</h2>",
           "<p>" + _e(translate(CTX, "For the plan: {n} × {gpu}, {h} card-hours of compute, {d} from start to finish, about "
                                     "{tb} TB to store and {eg} TB to download; setup {s} per new instance.").format(
               n=p.num_gpus, gpu=gpu_display_name(p.gpu_name), h=format_number(p.card_hours), d=format_elapsed(p.calendar_days),
               tb=format_sig(p.storage_tb, 2), eg=format_sig(p.egress_tb, 2), s=format_hours(p.setup_hours))) + "</p>"]
    rank_rows = [[_e(f"#{v.rank}" if v.rank else "—"), _e(v.provider), _e(_money(v.total, cur)),
                  _e(_money(v.per_card_hour, cur)), _e(_band(v, cur) if v.total_band else "—"),
                  _e(format_sentences([msg(m) for m in v.reasons]))] for v in c.vendors]
    out.append(_table(rank_rows, ["#", translate(CTX, "Vendor"), translate(CTX, "Total"),
                                  translate(CTX, "Per card-hour"), translate(CTX, "Band"),
                                  translate(CTX, "Why")], [4, 16, 15, 12, 20, 33],
                      num_cols=frozenset({2, 3}), nowrap_cols=frozenset({0})))  # "#1" on one line (ux26)
    rule = whole_vs_hourly_text(c, translate)
    if rule:
        out.append(f"<p>{_e(rule)}</p>")
    names = part_names(translate)
    for v in c.vendors:
        out.append(f"<h3>{_e(v.provider)}" + (f" — {_e(format_date(v.quote.date))}" if v.quote.date else "") + "</h3>")
        if v.total is None:
            out.append(f"<p>{_e(msg(v.excluded))}</p>")
            continue
        rows = [[_e(translate(CTX, "Billing")), _e(billing_text(v, cur, translate, p.num_gpus))]]
        rows += [[_e(names[k]), _e(part_value(v, k, cur, translate))] for k in PARTS]
        rows.append([f"<b>{_e(translate(CTX, 'Total'))}</b>", f"<b>{_e(_money(v.total, cur))}</b>"])
        rows.append([_e(translate(CTX, "Break-even")), _e(break_even_text(v, translate, p.num_gpus))])
        spot = spot_text(v, cur, translate)
        if spot:
            rows.append([_e(translate(CTX, "Spot (interruptible)")), _e(spot)])
        rows.append([_e(translate(CTX, "Network")), "<br/>".join(
            _e(translate(CTX, "{status}: {message}").format(status=status_names(translate)[ch["status"]],
                                                            message=msg(ch["message"]))) for ch in v.network_check)])
        todo = [translate(CTX, QUESTIONS[q]) for q in v.unanswered]
        rows.append([_e(translate(CTX, "Still to ask")),
                     "<br/>".join(_e(f"☐ {t}") for t in todo) if todo else _e(translate(CTX, "nothing"))])
        if v.risks:
            rows.append([_e(translate(CTX, "Risks")), "<br/>".join(_e(msg(m)) for m in v.risks)])
        if v.quote.source:
            rows.append([_e(translate(CTX, "Source")), _e(v.quote.source)])
        out.append(_table(rows, widths=[28, 72]))
    if project is not None:
        out.append(project_html(project, cur, translate))
    return "".join(out)


def project_rows(pq: Any, cur: str, translate: Tr) -> list[tuple[str, str, str]]:
    """The project's GPU phases as (what, vendor, amount): the cheapest vendor per phase, the moves between
    vendors (the project's data leaving the vendor at its egress price), their sum, and one vendor for all."""
    rows = []
    for name, c in pq.phases:
        best = c.vendors[0] if c.vendors and c.vendors[0].total is not None else None
        rows.append((name, best.provider if best else "—", _money(best.total, cur) if best else "—"))
    for a, b, cost in pq.moves:
        rows.append((translate(CTX, "move {a} → {b}: egress").format(a=a, b=b), "", _money(cost, cur)))
    rows.append((translate(CTX, "cheapest vendor per phase"), "", _money(pq.mixed_total, cur)))
    for provider, total in pq.single_vendor.items():
        rows.append((translate(CTX, "all phases at {v}").format(v=provider), "",
                     _money(total, cur) if total is not None else translate(CTX, "no offer for every phase")))
    return rows


def project_html(pq: Any, cur: str, translate: Tr) -> str:
    """The report's table of the project's phases: one vendor for the whole project against the cheapest vendor
    per phase with the migrations between them."""
    rows = [[_e(a), _e(b), _e(c)] for a, b, c in project_rows(pq, cur, translate)]
    return (f"<h3>{_e(translate(CTX, 'Project phases: one vendor or the cheapest per phase'))}</h3>"
            + "<p>" + _e(translate(CTX, "Each GPU phase compared on its own; moving between vendors adds the egress of "
                                        "the project's data at the vendor left.")) + "</p>"
            + _table(rows, [translate(CTX, "Phase"), translate(CTX, "Vendor"), translate(CTX, "Total")], [46, 30, 24],
                     num_cols=frozenset({2})))


# ------------------------------------------------------------------------------------------------------ RFQ

def _network_ask(p: Any, translate: Tr) -> str:
    """The RFQ's network between nodes: the fabric, Gb/s per node and the NICs the plan's days were computed with."""
    text = translate(CTX, "{net}, {gbps} Gb/s per node").format(
        net=translate(CTX, NETWORK_LABELS.get(p.inter_node or "", "")) if p.inter_node else "InfiniBand",
        gbps=format_number(p.inter_node_gbps) if p.inter_node_gbps else "?")
    if p.nics_per_node and p.nic_gbps:
        nics = translate(CTX, "({n} NICs × {g} Gb/s, dedicated to this job)").format(
            n=p.nics_per_node, g=format_number(p.nic_gbps))
        text += ("" if nics[:1] == "（" else " ") + nics  # "…Gb/s（8 块网卡…）" in Chinese, no space before the bracket
    return text


def _intra_ask(p: Any, translate: Tr) -> str:
    """The RFQ's link inside a server (the plan's, Evaluation.links) and the check that proves it: with tensor
    parallelism, `nvidia-smi topo -m` must show NVLink (NV#) between the cards, not PCIe (planning guide, checklist
    step 3: PCIe between cards with tensor parallelism planned means changing servers)."""
    if p.num_gpus <= 1 or not p.intra_node:
        return translate(CTX, "not needed (one card)")
    if p.tp > 1:
        return translate(CTX, "{link}; tensor parallelism over {tp} cards: send nvidia-smi topo -m showing NVLink "
                              "(NV#) between them, not PCIe").format(link=link_display_name(p.intra_node), tp=p.tp)
    return translate(CTX, "{link}; send nvidia-smi topo -m").format(link=link_display_name(p.intra_node))


def _host_ram_ask(p: Any, translate: Tr) -> str:
    """The RFQ's host RAM per server: what CPU offload needs (core.intake.host_ram), else the figure to state."""
    if p.host_ram_gib:
        return translate(CTX, "at least {gib} GiB (what CPU offload keeps in host memory)").format(
            gib=format_number(p.host_ram_gib))
    return translate(CTX, "state it (GiB per server)")


def rfq_html(c: Comparison, title: str = "", translate: Tr | None = None) -> str:
    """The one-page request for quote: the plan's requirements and the hard questions, with room to answer."""
    translate = translate or _qt_translate
    p = c.plan
    weeks = in_unit(p.calendar_days, "weeks")
    req = [
        (translate(CTX, "GPU"), f"{gpu_display_name(p.gpu_name)} ({format_number(p.gpu_memory_gib)} GiB)"),
        (translate(CTX, "Cards"), plural_s(translate(CTX, "{n} cards, {per} per node, {nodes} node(s)"), p.nodes).format(
            n=p.num_gpus, per=p.gpus_per_node, nodes=p.nodes)),
        (translate(CTX, "Interconnect between nodes"),
         translate(CTX, "not needed (one node)") if p.nodes <= 1 else
         translate(CTX, "not needed (one NVLink domain)") if p.nvlink_domain else
         _network_ask(p, translate)),
        (translate(CTX, "Link inside a server"), _intra_ask(p, translate)),
        (translate(CTX, "Host RAM per server"), _host_ram_ask(p, translate)),
        (translate(CTX, "Storage"), translate(CTX, "about {tb} TB, readable from every node").format(
            tb=format_sig(p.storage_tb, 2))),
        (translate(CTX, "Download at the end"), translate(CTX, "about {tb} TB").format(tb=format_sig(p.egress_tb, 2))),
        (translate(CTX, "Period"), translate(CTX, "{d} ({w} weeks)").format(d=format_elapsed(p.calendar_days, unit="days"),
                                                                            w=format_sig(weeks, 2))),
        (translate(CTX, "Hours per week"), format_number(p.hours_per_week)),
        (translate(CTX, "Card-hours"), format_number(p.card_hours)),
    ]
    out = [f"<h1>{_e(translate(CTX, 'Request for quote'))}</h1>"]
    if title:
        out.append(f"<p><b>{_e(title)}</b></p>")
    out.append("<p>" + _e(translate(CTX, "Please quote per card-hour, per card-month and per whole server per month "
                                         "where you offer them, with storage, egress, setup and minimum terms, and "
                                         "answer the questions below.")) + "</p>")
    out.append(f"<h2>{_e(translate(CTX, 'Requirements'))}</h2>")
    out.append(_table([[_e(k), _e(v)] for k, v in req], widths=[30, 70]))
    out.append(f"<h2>{_e(translate(CTX, 'Prices to state'))}</h2>")
    prices = [translate(CTX, "price and unit (card-hour, card-month, whole server per month), minimum term"),
              translate(CTX, "storage per TB per month, billed by the month or by the day; egress per TB"),
              translate(CTX, "setup and image building: hours, and whether they are billed"),
              translate(CTX, "network: InfiniBand or RoCE, speed and NICs per node; software pre-installed")]
    out.append("<ul>" + "".join(f"<li>{_e(x)}</li>" for x in prices) + "</ul>")
    out.append(f"<h2>{_e(translate(CTX, 'Questions'))}</h2>")
    ans = f"{_e(translate(CTX, 'yes'))} ☐ &nbsp; {_e(translate(CTX, 'no'))} ☐"
    rows = [[_e(str(i)), _e(translate(CTX, text)), ans, ""] for i, text in enumerate(QUESTIONS.values(), 1)]
    out.append(_table(rows, [" ", translate(CTX, "Question"), translate(CTX, "Answer"), translate(CTX, "Note")],
                      [4, 56, 16, 24]))
    return "".join(out)


def rfq_pdf_bytes(c: Comparison, title: str = "", paper: str = "a4", lang: str | None = None) -> bytes:
    """The RFQ as a one-page PDF, in memory (the report's page layout and fonts; gpuplanner/report_file.py writes
    it)."""
    from PySide6.QtCore import QLocale
    from PySide6.QtGui import QFont, QTextDocument

    from . import render

    render.ensure_app()
    doc = QTextDocument()
    doc.setDefaultStyleSheet(render._CSS)  # noqa: SLF001 - the report's own style
    font = QFont()
    font.setFamilies(render.report_families(lang or QLocale().name()))
    font.setPointSizeF(9.5)
    doc.setDefaultFont(font)
    doc.setHtml("<html><head><meta charset='utf-8'/></head><body>" + rfq_html(c, title) + "</body></html>")
    return render.document_pdf(doc, paper, title)

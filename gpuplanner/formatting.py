"""Locale-aware display of numbers, money, large counts, durations and dates (English and 简体中文).

Used by the UI and the report so both read the same way. Pure Python; Qt is used only for dates and
only when PySide6 is already imported (the CLI and the core never pull Qt in through this module).

Conventions (sources):

* Digit grouping: both ``en_US`` and ``zh_CN`` group by three with "," and use "." for decimals
  (Unicode CLDR number symbols for ``en`` and ``zh``, latn numbering system). Chinese *reads* large
  numbers in myriads — 万 = 10^4, 亿 = 10^8, 万亿 = 10^12 (Xiandai Hanyu Cidian; GB/T 15835-2011
  "General rules for writing numerals in publications" §4.2 allows 万/亿 as units with Arabic digits,
  e.g. "1.2 万"). English uses the short scale K/M/B/T (10^3, 10^6, 10^9, 10^12) as the trade does
  ("8B parameters", "1.5T tokens").
* Money: symbol before the amount without a space — "¥12,345" (CNY, also written 元 after the amount),
  "$1,234" (USD), "€1,234" (EUR) — CLDR currency patterns ``¤#,##0.00`` for both locales. In compact
  Chinese form the unit name follows the myriad: "1.2 万元", "3.4 万美元".
* Dates: ``QLocale(lang).toString(date, FormatType)`` when Qt is loaded (CLDR patterns: zh_CN long
  "2026年11月29日", en_US "November 29, 2026"); otherwise the same patterns in plain Python.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
import sys

EN = "en"
ZH = "zh_CN"

# currency code -> (symbol, Chinese unit name used after a compact amount)
CURRENCIES = {
    "CNY": ("¥", "元"),
    "RMB": ("¥", "元"),
    "USD": ("$", "美元"),
    "EUR": ("€", "欧元"),
    "HKD": ("HK$", "港元"),
    "JPY": ("JP¥", "日元"),
}

# units callers may pass by their English name: (English singular, English plural, Chinese)
UNITS = {
    "card-hours": ("card-hour", "card-hours", "卡时"),
    "card-hour": ("card-hour", "card-hours", "卡时"),
    "GPU-hours": ("GPU-hour", "GPU-hours", "卡时"),
    "tokens": ("token", "tokens", "token"),
    "token": ("token", "tokens", "token"),
    "parameters": ("parameter", "parameters", "参数"),
    "params": ("param", "params", "参数"),
    "GPUs": ("GPU", "GPUs", "张 GPU"),
    "cards": ("card", "cards", "张卡"),
    "days": ("day", "days", "天"),
    "hours": ("hour", "hours", "小时"),
    "sequences": ("sequence", "sequences", "条序列"),
    "FLOPs": ("FLOPs", "FLOPs", "FLOPs"),
}

_EN_SCALES = ((1e12, "T"), (1e9, "B"), (1e6, "M"))
_ZH_SCALES = ((1e12, "万亿"), (1e8, "亿"), (1e4, "万"))

_EN_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
              "October", "November", "December")


# ----------------------------------------------------------------------------------------- language

def normalize_lang(lang: str | None) -> str:
    """``zh``, ``zh_CN``, ``zh-Hans-CN`` … → ``zh_CN``; anything else → ``en``; None → current language."""
    if lang is None:
        return current_language()
    return ZH if str(lang).replace("-", "_").lower().startswith("zh") else EN


def current_language() -> str:
    """The UI language: Qt's default locale when PySide6 is loaded (LanguageManager sets it), else ``en``."""
    qtcore = sys.modules.get("PySide6.QtCore")
    if qtcore is not None:
        try:
            if qtcore.QLocale().language() == qtcore.QLocale.Language.Chinese:
                return ZH
        except Exception:  # noqa: BLE001 - formatting must never fail because of Qt
            pass
    return EN


def colon(lang: str | None = None) -> str:
    """What follows a label in the language: ``": "`` / ``"："`` (a full-width colon, no space, in Chinese)."""
    return "：" if normalize_lang(lang) == ZH else ": "


def format_list(items, lang: str | None = None) -> str:
    """Items joined as a list in the language: ``a, b, c`` / ``a、b、c`` (CLDR zh list pattern's enumeration
    comma, so a Chinese line never carries an ASCII comma between its items)."""
    return ("、" if normalize_lang(lang) == ZH else ", ").join(str(x) for x in items)


def paren(text: str, lang: str | None = None) -> str:
    """``text`` in brackets the language's way: ``(text)`` / ``（text）`` (full-width in Chinese); put it after its
    word with :func:`join_clause` ("¥82.14 (card-hour)" / "¥82.14（按需卡时）")."""
    return f"（{text}）" if normalize_lang(lang) == ZH else f"({text})"


def quoted(text: str, lang: str | None = None) -> str:
    """``text`` in the language's quotation marks: “text” in both (the zh_CN national standard GB/T 15834 uses the
    same curly double quotes), e.g. a field's label named inside a sentence."""
    normalize_lang(lang)  # both languages share the marks; kept for a uniform signature
    return f"\u201c{text}\u201d"


def format_phrases(items, lang: str | None = None) -> str:
    """Phrases of one sentence joined in the language: ``a, b`` / ``a，b`` (the Chinese comma between phrases; a
    list of like items takes :func:`format_list`'s "、" instead)."""
    return ("，" if normalize_lang(lang) == ZH else ", ").join(str(x) for x in items)


def format_sentences(items, lang: str | None = None) -> str:
    """Whole sentences run on in the language: ``A. B.`` / ``甲。乙。`` (a space after an English full stop, none
    after the Chinese "。", which carries its own width)."""
    return ("" if normalize_lang(lang) == ZH else " ").join(str(x) for x in items if x)


def format_clauses(items, lang: str | None = None) -> str:
    """Clauses (items that carry their own commas) joined in the language: ``a; b`` / ``a；b`` (a Chinese
    semicolon, full width, no space), so a Chinese line never carries an ASCII "; " between its parts."""
    return ("；" if normalize_lang(lang) == ZH else "; ").join(str(x) for x in items)


# ------------------------------------------------------------------------------------------ numbers

def _sig(value: float, digits: int) -> str:
    """``value`` with at most ``digits`` significant digits, trailing zeros dropped, grouped."""
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    mag = math.floor(math.log10(abs(value)))
    decimals = max(0, digits - 1 - mag)
    text = f"{round(value, decimals):,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def format_number(value: float, decimals: int = 0, lang: str | None = None) -> str:
    """Grouped number: ``12,345`` / ``1,234.5`` (same separators in en_US and zh_CN, CLDR)."""
    normalize_lang(lang)  # both languages share the symbols; kept for a uniform signature
    v = float(value)
    if not math.isfinite(v):
        return "—"
    return f"{v:,.{decimals}f}"


def format_span(lo: float, hi: float, decimals: int = 1, lang: str | None = None) -> tuple[str, str]:
    """The two ends of a range as :func:`format_number` text, with up to two more decimals where ``decimals``
    would print different values as the same (``0.4–0.4`` → ``0.36–0.44``)."""
    for d in range(decimals, decimals + 3):
        a, b = format_number(lo, d, lang), format_number(hi, d, lang)
        if a != b or float(lo) == float(hi):
            return a, b
    return a, b


def format_range(lo: str, hi: str) -> str:
    """Two ends of a range already formatted, as one text: ``lo–hi``, or one number when both ends print the same
    (a whole server leased for a month costs the same at both ends of the band: ``¥69,500``, never
    ``¥69,500–¥69,500``). The en dash joins a range in both languages."""
    return lo if lo == hi else f"{lo}–{hi}"


def join_clause(text: str, clause: str) -> str:
    """``text`` and a following ``clause`` with a space between, none before a full-width bracket or punctuation
    (a Chinese clause "（…）" follows its text directly: "¥69,500（…）", not "¥69,500 （…）")."""
    return text + ("" if clause[:1] in "（，。：；、" else " ") + clause


def format_money_range(lo: float, hi: float, currency: str = "CNY", lang: str | None = None) -> str:
    """A range of money (:func:`format_money` at each end), one number when both ends print the same."""
    return format_range(format_money(lo, currency, lang), format_money(hi, currency, lang))


#: a span of elapsed time by its size (issue 35 round 10, ux15): the unit's days and its word in each language
#: ("weeks" stays for a span the user typed in weeks, e.g. the RFQ's period; no span picks it by its size)
ELAPSED_UNITS = {"hours": (1 / 24, "hours", "小时"), "days": (1.0, "days", "天"), "weeks": (7.0, "weeks", "周")}
#: below one day a span reads in hours, from one day in days ("3.8 hours", "0.7 days" is never shown: 0.66 days is
#: "15.8 hours"; "9.5 days"; "21.0 days"). One rule for every span the app, the CLI and the PDF write — a plan's
#: calendar time, the Project page's phases and total, the quotes: the deadline is typed in days and the tables
#: count days, so a span is never in weeks (issue 35 round 14, ux22: the Project page read "3.0 weeks" for what a
#: plan's headline called "21.0 calendar days")
ELAPSED_DAYS_LIMITS = (1.0,)


def elapsed_unit(max_days: float) -> str:
    """The unit (a key of :data:`ELAPSED_UNITS`) a span of ``max_days`` reads in; a table's column takes the unit
    of its largest value, so its rows compare in one unit. The one place the unit of a span is decided
    (:func:`plan_span_unit` reads it)."""
    d = abs(float(max_days)) if math.isfinite(float(max_days)) else 0.0
    return "hours" if d < ELAPSED_DAYS_LIMITS[0] else "days"


def elapsed_numbers(days, unit: str | None = None, lang: str | None = None) -> list[str]:
    """The numbers of spans ``days`` (an iterable, in days) in one ``unit`` (default: that of the largest), each
    as :func:`format_time_number` writes it, with more decimals where two different spans would print the same."""
    vals = [float(d) for d in days]
    unit = unit or elapsed_unit(max((abs(v) for v in vals if math.isfinite(v)), default=0.0))
    per = ELAPSED_UNITS[unit][0]
    texts = [format_time_number(v / per, lang) for v in vals]
    for d in range(2, 6):
        # pairs of different finite spans only (a span that is no number, "—", matched itself and ran the decimals
        # up to five: "3.00000" beside "—"; ux20)
        if all(texts[i] != texts[j] or vals[i] == vals[j] for i in range(len(vals)) for j in range(i + 1, len(vals))
               if math.isfinite(vals[i]) and math.isfinite(vals[j])):
            break
        texts = [format_number(v / per, d, lang) if math.isfinite(v) else "—" for v in vals]
    return texts


def elapsed_word(unit: str, lang: str | None = None, number: str = "") -> str:
    """The word of ``unit`` in the language ("hours" / "小时"); English "hour", "day", "week" after "1"."""
    _, en, zh = ELAPSED_UNITS[unit]
    if normalize_lang(lang) == ZH:
        return zh
    return en[:-1] if number == "1" else en


def format_elapsed(days: float, lang: str | None = None, unit: str | None = None) -> str:
    """A span of elapsed time in the unit that suits its size (:func:`elapsed_unit`): ``3.8 hours``, ``9.5 days``,
    ``3.0 weeks``; Chinese ``3.8 小时`` / ``9.5 天`` / ``3.0 周``. The one function the Project page, ``gpuplanner
    project``, the project's sentences (``core.messages.elapsed_msg``) and the report use for such spans."""
    d = float(days)
    if not math.isfinite(d):
        return "—"
    unit = unit or elapsed_unit(d)
    num = elapsed_numbers([d], unit, lang)[0]
    return f"{num} {elapsed_word(unit, lang, num)}"


def format_storage_bytes(n: float | None) -> str:
    """Bytes in decimal units as storage vendors quote them: ``935 GB``, ``1.2 TB``; "—" for none (the PDF's
    storage requirements; the one place the unit is picked, parity16)."""
    if n is None or not math.isfinite(n):
        return "—"
    for unit, scale in (("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if n >= scale:
            return f"{format_sig(n / scale, 3)} {unit}"
    return f"{format_number(n, 0)} B"


#: a project's phases are timed in weeks (core/project.py); their spans are shown in days or hours
DAYS_PER_WEEK = 7.0


def format_weeks(weeks: float, lang: str | None = None) -> str:
    """A span given in weeks (a project's total) as :func:`format_elapsed` writes it, in days or hours."""
    return format_elapsed(DAYS_PER_WEEK * float(weeks), lang)


def in_unit(days: float, unit: str) -> float:
    """A span given in days as a number of ``unit`` (a key of :data:`ELAPSED_UNITS`: hours, days, weeks); the
    views convert no span themselves (parity16)."""
    return float(days) / ELAPSED_UNITS[unit][0]


def format_hours(hours: float, lang: str | None = None) -> str:
    """A span given in hours (a setup time) as :func:`format_elapsed` writes it in hours."""
    return format_elapsed(float(hours) / 24.0, lang, unit="hours")


def phase_spans(phases, total_weeks: float | None = None, lang: str | None = None) -> tuple[str, list[str]]:
    """A project's phases' spans in one unit, the longest's (:func:`elapsed_unit`: "0–3.9" hours for a job of a few
    hours; ux15): (the unit, [start, end of each phase …] and the total's end when ``total_weeks`` is given), from
    the phases' ``start_week`` / ``end_week``. The Project page, ``gpuplanner project`` and the PDF read it: no view
    converts weeks itself (parity16)."""
    weeks = [w for ph in phases for w in (ph.start_week, ph.end_week)]
    if total_weeks is not None:
        weeks.append(total_weeks)
    days = [DAYS_PER_WEEK * float(w) for w in weeks]
    unit = elapsed_unit(max((d for d in days), default=0.0))
    return unit, elapsed_numbers(days, unit, lang)


def days_decimals(days: float) -> int:
    """The decimals a plan's calendar days and their likely range are shown with in a sentence or a range: 2 below
    one day (a 0.27-day job is not "0.3 days", nor its range "0.1–0.2" around 0.15), 1 from a day, none from 100
    days (the PDF's rule since ux9, now everyone's; issue 35 round 10, ux14 and mend10c: the range, the safe-deadline
    rule's "upper end of its band", the plan's own line, the live panel, the Plans details, the CLI and the PDF
    agree)."""
    d = float(days)
    if not math.isfinite(d):
        return 1
    return 2 if abs(d) < 1 else 1 if abs(d) < 100 else 0


def format_time_number(value: float, lang: str | None = None) -> str:
    """The number of a span of time: a plan's calendar or compute days, and a span in the unit that suits it
    (:func:`format_elapsed`'s hours, days or weeks; rent-or-build's months). One rule for all (issue 35 round 10,
    mend10c; before, a span below 1 had two significant digits, "0.023", and a plan's days two decimals, "0.02"):
    :func:`days_decimals` (two decimals below 1, one from 1, none from 100), and below 0.01 two significant digits
    (``0.004``), so a short job never reads "0.00" nor "0.0 weeks". Zero is ``0``."""
    d = float(value)
    if not math.isfinite(d):
        return "—"
    if d == 0:
        return "0"
    if abs(d) < 0.01:
        return format_sig(d, 2, lang)
    decimals = days_decimals(d)
    return format_number(d, days_decimals(round(d, decimals)), lang)  # 0.999 reads "1.0", as 1.0 does


def format_typed_days(days: float | None, lang: str | None = None) -> str:
    """A span the user typed in days (the deadline) as typed: a whole number without decimals ("14", was "14.0"),
    else as every span (:func:`format_time_number`: "7.5"); "—" for none (issue 35 round 16, ux25)."""
    if days is None or not math.isfinite(float(days)):
        return "—"
    d = float(days)
    return format_number(d, 0, lang) if d == round(d) and abs(d) >= 1 else format_time_number(d, lang)


def format_days_span(lo: float, hi: float, lang: str | None = None) -> tuple[str, str]:
    """A plan's likely range of calendar days (:func:`format_span` at :func:`days_decimals` of its upper end)."""
    return format_span(lo, hi, days_decimals(hi), lang)


def format_days_band(days: float, lo: float, hi: float, lang: str | None = None) -> tuple[str, str, str]:
    """A plan's calendar days and its likely range, at one precision: the range's (:func:`format_days_span`), so the
    headline never has more decimals than the range beside it ("16.62 days" beside "16.6–18.8" before; mend10c).
    The live panel, the Plans details, ``gpuplanner estimate``/``plan`` and the PDF use it."""
    lo_s, hi_s = format_days_span(lo, hi, lang)
    decimals = len(hi_s.rsplit(".", 1)[1]) if "." in hi_s else 0
    return format_number(days, decimals, lang), lo_s, hi_s


def format_plan_days(days: float, band: tuple[float, float] | None = None, lang: str | None = None) -> str:
    """A plan's calendar days as its headline: at its likely range's precision where it has one
    (:func:`format_days_band`), else :func:`format_time_number`."""
    return format_time_number(days, lang) if band is None else format_days_band(days, *band, lang)[0]


def plan_span_unit(days: float, band: tuple[float, float] | None = None) -> str:
    """The unit a plan's calendar days read in: :func:`elapsed_unit` of the whole range — the days and both ends
    of the likely ``band`` — so a plan's headline, its range and the deadline rule's upper end read in one unit:
    a 0.95-day plan whose range ends at 1.05 days reads "0.95 days", "0.90–1.05 days" and "(1.05 days)", not
    "22.8 hours" beside "1.05 days" (issue 35 round 14, ux22; below one day in hours, ux21)."""
    vals = [float(days)] + ([] if band is None else [float(band[0]), float(band[1])])
    return elapsed_unit(max((abs(v) for v in vals if math.isfinite(v)), default=0.0))


def comparison_unit(plan_days: float, band: tuple[float, float] | None = None) -> str:
    """The one unit a sentence comparing other plans with a plan reads in: that plan's own headline unit
    (:func:`plan_span_unit`), so "91 hours for ¥721, against 7.9 hours for ¥667 with the chosen plan" sits under a
    plan every view gives in hours, not "3.8 days … against 0.33 days" (issue 35 round 16, ux25)."""
    return plan_span_unit(plan_days, band)


def format_plan_span(days: float, band: tuple[float, float] | None = None, lang: str | None = None,
                     unit: str | None = None) -> tuple[str, str | None]:
    """A plan's calendar days and likely range in :func:`plan_span_unit`'s unit, each with its word:
    (``"15.8 hours"``, ``"14.6–19.2 hours"``) / (``"16.6 days"``, ``"16.6–18.8 days"``); Chinese "15.8 小时". The
    headline is :func:`format_elapsed`'s text at the range's precision (:func:`format_days_band`); the range None
    without a band."""
    d = float(days)
    if not math.isfinite(d):
        return "—", None
    unit, num, lo_s, hi_s = plan_span_numbers(d, band, lang, unit)
    if lo_s is None:
        return f"{num} {elapsed_word(unit, lang, num)}", None
    rng = format_range(lo_s, hi_s)
    return f"{num} {elapsed_word(unit, lang, num)}", f"{rng} {elapsed_word(unit, lang, rng)}"


def format_plan_time(days: float, compute_days: float, band: tuple[float, float] | None = None,
                     lang: str | None = None) -> tuple[str, str, str | None]:
    """A plan's calendar time, compute time and likely range, each with its word, all in the one unit of
    :func:`plan_span_unit` (the whole range decides it): ("15.4 hours", "14.8 hours", "13.6–15.4 hours") /
    ("4.2 days", "4.0 days", "3.8–4.4 days"). Every view's "{0} in calendar time ({1} of compute)" reads it (ux22:
    one message, where each view held one template in hours and one in days)."""
    unit = plan_span_unit(days, band)
    head, rng = format_plan_span(days, band, lang, unit)
    return head, format_elapsed(compute_days, lang, unit), rng


def plan_span_numbers(days: float, band: tuple[float, float] | None = None, lang: str | None = None,
                      unit: str | None = None) -> tuple[str, str, str | None, str | None]:
    """(unit, headline number, range's low and high numbers) of :func:`format_plan_span`; the ends None without a
    band. The core's messages build their spans from it (``core.messages.span_msg``)."""
    d = float(days)
    unit = unit or plan_span_unit(d, band)
    per = ELAPSED_UNITS[unit][0]
    if band is None:
        return unit, elapsed_numbers([d], unit, lang)[0], None, None
    num, lo_s, hi_s = format_days_band(d / per, band[0] / per, band[1] / per, lang)
    return unit, num, lo_s, hi_s


def format_percent(fraction: float, decimals: int = 0, lang: str | None = None) -> str:
    """``0.423`` → ``42%`` (no space before % in either locale, CLDR percent pattern ``#,##0%``)."""
    return format_number(float(fraction) * 100.0, decimals, lang) + "%"


def share_decimals(share: float, limit: float, decimals: int = 1, most: int = 3) -> int:
    """The decimals of a percentage printed beside the limit it is compared with ("6.97% dearer … within 7%"):
    ``decimals``, or more (up to ``most``) while the rounded figure would read as the limit though the share is not
    at it. The search's ties compare the unrounded share (``core.search.CHEAPEST_TIE`` / ``FASTEST_TIE``: the band
    of two estimates the model cannot tell apart, a statistical bound, not a display figure), so a share of
    6.966% under a 7% tie printed "7.0%" beside "within 7%" (issue 35 round 18, ux28): the figure must say which
    side of the limit it is on."""
    s, lim = float(share) * 100.0, float(limit) * 100.0
    if not (math.isfinite(s) and math.isfinite(lim)) or s == lim:
        return decimals
    d = decimals
    while d < most and round(s, d) == round(lim, d):
        d += 1
    return d


def format_mfu(fraction: float, lang: str | None = None) -> str:
    """A utilisation (MFU, HFU) as the plan tables and summaries print it: whole percent (``43%``), but one decimal
    below 1% (``0.4%``) and ``<0.1%`` under that, never ``0%`` for a plan that computes: a layout whose step is
    almost all host overhead (DeepSpeed ZeRO-3 hooks on a MoE's every expert) read "MFU 0%" in the app's summary
    while ``estimate`` said 0.4% (issue 35 round 12, expert12)."""
    v = float(fraction)
    if not v > 0 or v >= 0.01:
        return format_percent(v, 0, lang)
    if v < 0.001:
        return "<" + format_percent(0.001, 1, lang)
    return format_percent(v, 1, lang)


#: decimals of a share of the step run under compute (``TimeEstimate.hidden_shares``): one precision for the CLI,
#: the Plans details and the PDF, so the three show the same rows with the same figures
HIDDEN_SHARE_DECIMALS = 1


def hidden_share_rows(shares: dict[str, float], lang: str | None = None) -> list[tuple[str, str]]:
    """The hidden-communication rows every view shows: ``(key, percent text)`` for each share of ``shares``
    (``TimeEstimate.hidden_shares``, in its order) at :data:`HIDDEN_SHARE_DECIMALS`, leaving out a share that
    would print as zero at that precision (a part of a few microseconds per step says nothing)."""
    zero = format_percent(0.0, HIDDEN_SHARE_DECIMALS, lang)
    rows = [(str(k), format_percent(v, HIDDEN_SHARE_DECIMALS, lang)) for k, v in shares.items()]
    return [(k, text) for k, text in rows if text != zero]


#: decimals of a share of the step time (``TimeEstimate.breakdown``): one precision for the CLI, the Plans details
#: and the PDF, so the three list the same parts with the same figures (a 0.4% share read "0%" in one view)
BREAKDOWN_SHARE_DECIMALS = 1


def breakdown_rows(shares: dict[str, float], lang: str | None = None) -> list[tuple[str, str]]:
    """The step-time rows every view shows: ``(key, percent text)`` for each share of ``shares``
    (``TimeEstimate.breakdown``), largest first (ties in the breakdown's order), at
    :data:`BREAKDOWN_SHARE_DECIMALS`, leaving out a share that would print as zero at that precision."""
    zero = format_percent(0.0, BREAKDOWN_SHARE_DECIMALS, lang)
    ordered = sorted(shares.items(), key=lambda kv: -float(kv[1]))
    rows = [(str(k), format_percent(v, BREAKDOWN_SHARE_DECIMALS, lang)) for k, v in ordered]
    return [(k, text) for k, text in rows if text != zero]


def plural_s(text: str, n: float) -> str:
    """An English sentence's ``(s)`` read right for the count ``n`` ("1 node", "2 nodes"); a translation has no
    ``(s)`` and comes back as it is. For a sentence with one count (the app ships no English plural forms)."""
    return text.replace("(s)", "" if abs(float(n)) == 1 else "s")


def _unit_text(unit: str, lang: str, value: float) -> str:
    if not unit:
        return ""
    entry = UNITS.get(unit)
    if entry is None:
        return unit
    if lang == ZH:
        return entry[2]
    return entry[0] if abs(value) == 1 else entry[1]


def _join_zh(number: str, scale: str, unit: str) -> str:
    """Chinese: "1.2 万卡时", "3 亿 token", "9,500 卡时" (a space between digits and Chinese text; Latin
    units keep their own space)."""
    word = scale
    if unit:
        word = f"{scale} {unit}" if (scale and unit[:1].isascii()) else scale + unit
    return f"{number} {word}".rstrip() if word else number


def format_large(value: float, unit: str = "", lang: str | None = None, digits: int = 3) -> str:
    """A large count the way each language reads it.

    English: grouped below a million ("12,000 card-hours"), short scale above ("1.2B", "3.4M tokens").
    Chinese: grouped below 万, then 万/亿/万亿 ("1.2 万卡时", "1.2 亿", "8 亿 token").
    ``digits`` = significant digits kept once a scale word is used.
    """
    lang = normalize_lang(lang)
    v = float(value)
    if not math.isfinite(v):
        return "—"
    u = _unit_text(unit, lang, v)
    scales = _ZH_SCALES if lang == ZH else _EN_SCALES
    rounded = float(f"{v:.{digits}g}")  # 9,999.6 → 1 万 rather than "10,000"
    if abs(rounded) >= 1e15:  # beyond 万亿 / T: a power of ten reads better than "45,700,000T"
        p = format_power(rounded, digits)
        return _join_zh(p, "", u) if lang == ZH else f"{p} {u}".rstrip()
    for size, word in scales:
        if abs(rounded) >= size:
            scaled = _sig(rounded / size, digits)
            if lang == ZH:
                return _join_zh(scaled, word, u)
            return f"{scaled}{word} {u}".rstrip()
    small = format_number(v, 0) if abs(v) >= 100 else _sig(v, digits)
    if lang == ZH:
        return _join_zh(small, "", u)
    return f"{small} {u}".rstrip()


_SI = ((1e30, "Q"), (1e27, "R"), (1e24, "Y"), (1e21, "Z"), (1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"),
       (1e6, "M"), (1e3, "k"))  # SI prefixes (BIPM SI Brochure, 9th ed., 2019 + 2022 amendment for R, Q)


def format_sig(value: float, digits: int = 3, lang: str | None = None) -> str:
    """A plain number with ``digits`` significant digits and no scientific notation: ``0.00037``,
    ``1,234``, ``12.5`` (values ≥ 10^15 or < 10^-6 use :func:`format_power`)."""
    normalize_lang(lang)
    v = float(value)
    if not math.isfinite(v):
        return "—"
    if v != 0 and (abs(v) >= 1e15 or abs(v) < 1e-6):
        return format_power(v, digits)
    return _sig(v, digits)


def format_power(value: float, digits: int = 2) -> str:
    """``4.6×10^19`` — a mantissa and a power of ten written out, never ``4.6e+19``. (The caret rather than
    superscript digits: the bundled CJK font, like Noto Sans CJK, has no glyphs for ⁵–⁹.)"""
    v = float(value)
    if v == 0 or not math.isfinite(v):
        return "0" if v == 0 else "—"
    # Python's own rounding to ``digits`` significant digits, then written out (also for subnormals)
    mant_text, exp_text = f"{abs(v):.{max(0, digits - 1)}e}".split("e")
    exp = int(exp_text)
    m = ("-" if v < 0 else "") + _sig(float(mant_text), digits)
    if exp == 0:
        return m
    return f"{m}×10^{exp}"


def format_flops(value: float, lang: str | None = None, digits: int = 3) -> str:
    """A FLOP count with an SI prefix: ``46 EFLOP``, ``433 ZFLOP``, ``44.9 GFLOP`` (the trade writes FLOP counts
    this way in both languages)."""
    normalize_lang(lang)
    v = float(value)
    if not math.isfinite(v):
        return "—"
    for size, prefix in _SI:
        if abs(v) >= size:
            return f"{_sig(v / size, digits)} {prefix}FLOP"
    return f"{_sig(v, digits)} FLOP"


def format_count(value: float, lang: str | None = None) -> str:
    """A whole count for tables and axes: ``8``, ``1,024``; large ones compact (``8.03B`` / ``80.3 亿``)."""
    v = float(value)
    if not math.isfinite(v):
        return "—"
    if abs(v) >= 1e6:
        return format_large(v, "", lang)
    if abs(v - round(v)) < 1e-9:
        return f"{int(round(v)):,}"
    return _sig(v, 3)


_COMPACT = ((1e15, "P"), (1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K"))


def format_compact(value: float, digits: int = 3) -> str:
    """A count in the trade's short form, the same in both languages (``8.03B`` parameters, ``1.5T`` tokens,
    ``16.3K`` tokens/s, ``259.4K``): ``digits`` significant digits and a K/M/B/T/P suffix. It reads back with
    ``core.units.parse_count`` (fields show it), so it never writes scientific notation: rounding carries into
    the next suffix (999,950 → ``1M``, not ``1e+03K``) and beyond P the digits are grouped (``1,500P``)."""
    v = float(value)
    if not math.isfinite(v):
        return "—"
    if v == 0:
        return "0"
    d = max(1, int(digits))
    rounded = float(f"{v:.{d}g}")  # round first, so 999.96 → 1000 → "1K"
    for size, suffix in _COMPACT:
        if abs(rounded) >= size:
            return _sig(rounded / size, d) + suffix
    return _sig(rounded, d) if abs(rounded) >= 1e-6 else format_power(rounded, d)


def format_params(value: float) -> str:
    """A parameter count, the one rule for every view (Model page, live panel, ``estimate``, the report): the
    trade's short form (``K``/``M``/``B``/``T``, the same in both languages) with three significant digits and the
    zeros kept, so figures side by side share one precision: ``46.7B`` total beside ``12.9B`` active (never
    ``46.7B`` beside ``12.88B``), ``8.03B``, ``141B``, ``21.0M``. Below a thousand, the whole count."""
    v = float(value)
    if not math.isfinite(v):
        return "—"
    rounded = float(f"{v:.3g}")  # round first, so 999.6M → 1.00B
    for size, suffix in _COMPACT:
        if abs(rounded) >= size:
            x = rounded / size
            decimals = max(0, 2 - math.floor(math.log10(abs(x))))
            return f"{x:,.{decimals}f}{suffix}"
    return f"{int(round(v)):,}"


def format_tokens(value: float, lang: str | None = None, digits: int = 3) -> str:
    """A number of tokens the way each language counts it: English the trade's short form (``2B``, ``524K``,
    :func:`format_compact`), Chinese 万/亿 (``20 亿``, ``52.4 万``, :func:`format_large`): a Chinese reader counts
    in 万 and 亿, not in thousands and millions. The word "tokens" is the caller's template's."""
    if normalize_lang(lang) == ZH:
        return format_large(value, "", ZH, digits)
    return format_compact(value, digits)


def format_axis(value: float, lang: str | None = None) -> str:
    """A compact axis tick: ``950``, ``1.5K``, ``20K``, ``3M``, ``0.2`` — never ``1e+06``; Chinese
    :func:`_zh_axis_label`'s ``1500``, ``2万``, ``3000万``. One form per value on every chart (terms18: a
    tokens/s axis read "10,000 / 3,000 / 1,000" on one document and "100K / 10K" on another): in English every
    tick from 1,000 up takes its scale word, in Chinese every tick from 1万 up."""
    lang = normalize_lang(lang)
    v = float(value)
    if not math.isfinite(v):
        return ""
    a = abs(v)
    if a >= 1e15:
        return format_power(v, 2)
    if lang == ZH:
        return "0" if a == 0 else _zh_axis_label(v)
    for size, word in _EN_SCALES + ((1e3, "K"),):  # from 1,000 up a tick takes its scale word: 1K, never 1,000
        if a >= size * (1 - 1e-9):
            return f"{_sig(v / size, 3)}{word}"
    return _sig(v, 3) if a >= 1e-6 or a == 0 else format_power(v, 2)


def _zh_axis_label(v: float) -> str:
    """One Chinese axis tick: below 万 the plain number without a group separator (``100``, ``1000``, ``5000``:
    GB/T 15835-2011 on digit grouping lets integers of four digits or fewer go unseparated, and Chinese charts write them so), from
    万 the number in the largest myriad unit it reaches (``1万``, ``10万``, ``5000万``, ``1亿``): never ``0.1万``
    (issue 35 round 13, ux20: the zh log axes read "0.1万 / 1万 / 10万")."""
    a = abs(v)
    for size, word in _ZH_SCALES:
        if a >= size * (1 - 1e-9):
            return f"{_sig(v / size, 3).replace(',', '')}{word}"
    return _sig(v, 3).replace(",", "") if a >= 1e-6 else format_power(v, 2)


def format_axis_ticks(values, lang: str | None = None) -> list[str]:
    """The labels of one axis's ticks. English: all in one scale (ux17: "3,000 / 10K / 30K" read as two scales):
    when the largest tick alone would take a scale word, every tick takes the largest scale the smallest non-zero
    tick reaches (K: from 1,000; M and up: from half a unit: "3K / 10K / 30K", "0.5M / 1M / 2M"); otherwise every
    tick in its own form ("300 / 1K / 3K / 10K": terms18, one form per value on every chart). Chinese counts in myriads, so each tick reads the way Chinese
    writes the number (:func:`_zh_axis_label`): "1000 / 1万 / 10万", "3000 / 1万 / 3万" (ux17's one-scale rule made
    1,000 "0.1万", which no Chinese reader writes; round 13, ux20). A single value reads as :func:`format_axis`."""
    lang = normalize_lang(lang)
    vals = [float(v) for v in values]
    finite = [abs(v) for v in vals if math.isfinite(v) and v != 0]
    if lang == ZH and (not finite or max(finite) < 1e15):
        return ["" if not math.isfinite(v) else "0" if v == 0 else _zh_axis_label(v) for v in vals]
    if len(finite) < 2 or max(finite) >= 1e15:
        return [format_axis(v, lang) for v in vals]
    scales = _EN_SCALES + ((1e3, "K"),)
    reach = 0.5
    smallest, largest = min(finite), max(finite)
    size, word = 1.0, ""
    if format_axis(largest, lang) != _sig(largest, 3):  # the largest tick alone would take a scale word
        # K only for ticks of 1,000 and more ("500", never "0.5K"); M and up lift ticks from half a unit ("0.5M")
        size, word = next(((sz, wd) for sz, wd in scales
                           if sz <= largest and smallest >= sz * (reach if sz > 1e3 else 1.0) * (1 - 1e-9)), (1.0, ""))
        if size == 1.0:  # ticks below half the scale: each in its own form ("100 / 1K / 10K"; terms18)
            return [format_axis(v, lang) for v in vals]
    out = []
    for v in vals:
        if not math.isfinite(v):
            out.append("")
        elif v == 0:
            out.append("0")
        elif size == 1.0:
            out.append(_sig(v, 3) if abs(v) >= 1e-6 else format_power(v, 2))
        else:
            out.append(f"{_sig(v / size, 3)}{word}")
    return out


def pick_time_unit(max_days: float) -> tuple[str, float]:
    """The unit a time axis reads in for a range up to ``max_days``: hours below 2 days, weeks above
    120 days, days otherwise. Returns (unit key ``hours``/``days``/``weeks``, days per unit)."""
    d = float(max_days)
    if d < 2:
        return "hours", 1 / 24
    if d > 120:
        return "weeks", 7.0
    return "days", 1.0


def format_duration(days: float, lang: str | None = None) -> str:
    """A duration in the unit that reads best: ``18 hours``, ``3.5 days``, ``21 weeks`` (zh: 小时/天/周)."""
    lang = normalize_lang(lang)
    d = float(days)
    if not math.isfinite(d):
        return "—"
    unit, per = pick_time_unit(d)
    if unit == "hours":
        return format_hours(d * 24, lang)
    if unit == "weeks":
        w = d / 7
        num = _sig(w, 2) if abs(w) < 10 else format_number(w, 0)
        return f"{num} 周" if lang == ZH else (f"{num} week" if num == "1" else f"{num} weeks")
    return format_days(d, lang)


# -------------------------------------------------------------------------------------------- money

def format_money(value: float, currency: str = "CNY", lang: str | None = None, decimals: int | None = None,
                 compact: bool = False) -> str:
    """Money in the plan's currency: ``¥12,345``, ``$1,234``, ``-¥80``; unknown codes as ``SGD 1,234``.

    ``decimals``: None → 0 from 100 upwards and for zero, else 2. ``compact``: Chinese "12.3 万元" / "1.2 亿美元",
    English "¥12.3M" / "$1.2B" (amounts below 10^4 resp. 10^6 stay exact).
    """
    lang = normalize_lang(lang)
    code = (currency or "").upper()
    v = float(value)
    if not math.isfinite(v):
        return "—"
    sign = "-" if v < 0 else ""
    a = abs(v)
    sym, zh_unit = CURRENCIES.get(code, (code, code))
    if compact:
        scales = _ZH_SCALES if lang == ZH else _EN_SCALES
        for size, word in scales:
            if a >= size:
                num = _sig(a / size, 3)
                if lang == ZH:
                    if code in CURRENCIES:
                        return f"{sign}{num} {word}{zh_unit}"
                    return f"{sign}{num} {word} {code}"
                return f"{sign}{sym}{num}{word}" if code in CURRENCIES else f"{sign}{code} {num}{word}"
    # nothing is "¥0", not "¥0.00" (ux27: a free migration in the vendor comparison)
    d = decimals if decimals is not None else (0 if a >= 100 or a == 0 else 2)
    num = f"{a:,.{d}f}"
    if code in CURRENCIES:
        return f"{sign}{sym}{num}"
    return f"{sign}{code} {num}".strip()


# ---------------------------------------------------------------------------------------- durations

def format_days(days: float, lang: str | None = None) -> str:
    """``3.5 days`` / ``1 day`` / ``120 days``; Chinese ``3.5 天``. One decimal below 10 days."""
    lang = normalize_lang(lang)
    d = float(days)
    if not math.isfinite(d):
        return "—"
    num = _sig(d, 2) if abs(d) < 10 else format_number(d, 0)
    if lang == ZH:
        return f"{num} 天"
    return f"{num} day" if num == "1" else f"{num} days"


def format_hours(hours: float, lang: str | None = None) -> str:
    """``36 hours`` / ``1 hour`` / ``36 小时``."""
    lang = normalize_lang(lang)
    h = float(hours)
    num = _sig(h, 2) if abs(h) < 10 else format_number(h, 0)
    if lang == ZH:
        return f"{num} 小时"
    return f"{num} hour" if num == "1" else f"{num} hours"


def format_wall_time(ms: float, lang: str | None = None) -> str:
    """How long the computer took (the plan search): ``860 ms`` below a second, ``4.5 s`` below ten, ``12 s`` from
    ten; Chinese ``860 毫秒`` / ``4.5 秒``. The Plans page and ``gpuplanner plan`` wrote "(10,292 ms)" — five digits
    for what a user reads in seconds (issue 35 round 16, ux24)."""
    lang = normalize_lang(lang)
    v = float(ms)
    if not math.isfinite(v):
        return "—"
    if abs(v) < 999.5:
        num, unit = format_number(v, 0, lang), ("毫秒" if lang == ZH else "ms")
    else:
        s = v / 1000.0
        num, unit = format_number(s, 1 if abs(s) < 9.95 else 0, lang), ("秒" if lang == ZH else "s")
    return f"{num} {unit}"


# -------------------------------------------------------------------------------------------- dates

def format_date(date: _dt.date | _dt.datetime, lang: str | None = None, long: bool = True) -> str:
    """A calendar date per locale: en ``November 29, 2026`` / ``11/29/26``; zh ``2026年11月29日`` /
    ``2026/11/29``. Through QLocale when PySide6 is loaded, otherwise the same CLDR patterns here."""
    lang = normalize_lang(lang)
    if isinstance(date, _dt.datetime):
        date = date.date()
    qtcore = sys.modules.get("PySide6.QtCore")
    if qtcore is not None:
        try:
            loc = qtcore.QLocale("zh_CN" if lang == ZH else "en_US")
            qd = qtcore.QDate(date.year, date.month, date.day)
            if long:
                # LongFormat carries the weekday; drop it with the locale's own month-day-year pattern
                fmt = "yyyy年M月d日" if lang == ZH else "MMMM d, yyyy"
                return loc.toString(qd, fmt)
            return loc.toString(qd, qtcore.QLocale.FormatType.ShortFormat)
        except Exception:  # noqa: BLE001
            pass
    if lang == ZH:
        return f"{date.year}年{date.month}月{date.day}日" if long else f"{date.year}/{date.month}/{date.day}"
    if long:
        return f"{_EN_MONTHS[date.month - 1]} {date.day}, {date.year}"
    return f"{date.month}/{date.day}/{date.year % 100:02d}"


# ---------------------------------------------------------------------------------------- GPU names

#: Regional suffixes of catalog GPU names, translated at display time (the product name stays as sold).
_REGION_SUFFIXES = {" (China)": "（中国特供版）",  # full-width brackets, no space, in Chinese
                    " (Z100/K100/BW series)": "（Z100/K100/BW 系列）"}  # ux17: "series" in the zh catalog
#: a catalogue qualifier inside a name, in Chinese (ux13: the Plans page's "no price" list read
#: "…、B200 (HGX B200) 180GB、GB200 (per Blackwell GPU) 186GB" in the zh edition)
_INNER_NOTES_ZH = {" (HGX B200) ": "（HGX B200）", " (per Blackwell GPU) ": "（每颗 Blackwell GPU）"}
_VENDOR_PREFIXES = ("NVIDIA GeForce ", "NVIDIA ", "AMD Instinct ", "AMD ", "Huawei ")


def gpu_display_name(name: str, short: bool = False, lang: str | None = None) -> str:
    """A GPU's name as a person reads it: the product name unchanged, a regional suffix such as ``(China)``
    in the display language (``H20 96GB（中国特供版）``); ``short`` drops the vendor prefix (``NVIDIA …``)."""
    lang = normalize_lang(lang)
    out = str(name)
    if short:
        for prefix in _VENDOR_PREFIXES:
            if out.startswith(prefix):
                out = out[len(prefix):]
                break
    if lang == ZH:
        for en, zh in _REGION_SUFFIXES.items():
            if out.endswith(en):
                out = out[: -len(en)] + zh
        for en, zh in _INNER_NOTES_ZH.items():
            out = out.replace(en, zh)
    return out


#: a catalog GPU's link inside a server (``gpus.json`` ``intra_node_link``) as a person writes it: en, zh
_LINK_NAMES = {"nvlink": ("NVLink", "NVLink"), "nvlink-bridge": ("NVLink bridge", "NVLink 桥接"),
               "pcie": ("PCIe", "PCIe"), "infinity-fabric": ("Infinity Fabric", "Infinity Fabric"),
               "hccs": ("HCCS", "HCCS"), "mlu-link": ("MLU-Link", "MLU-Link")}


#: the English words of the catalog's network names (``networks.json``), in Chinese (ux17: the Chinese report read
#: "节点内：NVLink 3 cut to 8 links (A800, NV8)")
_NETWORK_WORDS_ZH = ((re.compile(r"cut to (\d+) links"), r"削减至 \1 条链路"), (re.compile(r"(\d+) links"), r"\1 条链路"),
                     (re.compile(r" via "), " 经 "), (re.compile(r"bridge pair"), "桥接对"),
                     (re.compile(r"(\d+) GPUs"), r"\1 张 GPU"), (re.compile(r"(\d+)-GPU full mesh"), r"\1 卡全互联"),
                     (re.compile(r" x (\d)"), r" × \1"),
                     # the language's punctuation: "（A800，NV8）", not "(A800, NV8)" inside a Chinese sentence (ux24)
                     (re.compile(r", "), "，"), (re.compile(r" ?\(([^()]*)\)"), r"（\1）"))


def link_display_name(key: str, lang: str | None = None) -> str:
    """The product name of a link kind (``nvlink`` → ``NVLink``; ux17: the catalog printed the raw key,
    "nvlink 900 GB/s"), or a catalog network's name with its English words in the display language ("NVLink 3
    削减至 8 条链路（A800，NV8）"); anything else comes back as it is."""
    zh = normalize_lang(lang) == ZH
    names = _LINK_NAMES.get(str(key))
    if names is not None:
        return names[1] if zh else names[0]
    out = str(key)
    if zh:
        for pattern, repl in _NETWORK_WORDS_ZH:
            out = pattern.sub(repl, out)
    return out


#: a full-width closing bracket, then spaces, then a CJK ideograph (:func:`close_paren_space`)
_PAREN_SPACE = re.compile(r"）[ \t]+(?=[\u3400-\u9fff])")


def close_paren_space(text: str) -> str:
    """No space between a full-width closing bracket and the Chinese word after it: a translation puts a space
    after a parameter ("{gpu} 的默认价格") for names that end in a Latin letter, and a name that ends in its Chinese
    suffix ("NVIDIA H800 SXM5 80GB（中国特供版）") would otherwise read "（中国特供版） 的默认价格" (ux9)."""
    return _PAREN_SPACE.sub("）", text) if "）" in text else text


def share_percent_number(share: float) -> str:
    """A saving's share as the number before "%": whole percents from 1%, else enough decimals that a real
    saving never reads "0%" (¥218 of ¥290,785 is "0.07% cheaper", not "0% cheaper"; ux13)."""
    pct = share * 100
    return format_number(pct, 0 if pct >= 1 else 1 if pct >= 0.1 else 2)

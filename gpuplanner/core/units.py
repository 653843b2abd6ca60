"""Parsing and formatting of quantities the user types: token counts ("1.5T"), sizes, money."""

from __future__ import annotations

import math
import re

from .i18n import QT_TRANSLATE_NOOP
from .messages import MsgStr

CTX = "Units"

#: the trade's short scale (k, M, B/G, T, P) and the Chinese counting units 千 = 10^3, 万 = 10^4, 亿 = 10^8 and
#: 万亿 = 10^12 (GB/T 15835-2011 writes large numbers with 万 and 亿; 万亿 is how 10^12 is read): "20亿", "1.41万亿"
_SUFFIX = {"": 1.0, "k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12, "p": 1e15,
           "千": 1e3, "万": 1e4, "亿": 1e8, "万亿": 1e12}
#: a number, an optional power of ten as ``formatting.format_power`` writes it ("1.5×10^15"), an optional unit, an
#: optional word "token(s)" (or "个 token")
_NUM_RE = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)(?:\s*[×*]\s*10\^([+-]?[0-9]{1,4}))?"
                     r"\s*(万亿|[kKmMbBgGtTpP千万亿]?)\s*(?:个\s*)?(?:tokens?)?\s*$")
#: the longest text read as a count: a longer one is refused, never cut to a different number
MAX_COUNT_TEXT = 200

GIB = 1024**3

#: One billed month for every figure the planner prints (plan costs, whole-machine vs card-hour break-evens, the
#: project's phases, rent vs build, the vendor quotes): 30 days of 24 hours = 720 h; a week is 7 × 24 = 168 h.
#: Chinese GPU rental vendors mean 30 days by a month's rent: GPUGEEK's billing page ("Prepaid Time Conversion:
#: Daily = 24h; Weekly = 7x24h; Monthly = 30x24h", https://gpugeek.com/docs/en/product/user_account/price),
#: HyperAI's ("Monthly Package: ... within 30 days", https://hyper.ai/docs/getting-started/payment-methods),
#: 共绩算力's 8-card bare-metal "30 天包" (gongjiyun.com/pricing, read 2026-10-04 in the libtv research report 04),
#: 优云智算's 包月 1,154.64 = "¥1.60/时" (compshare.cn/price-list, same report: 1,154.64 ÷ 720 = 1.604, ÷ 730 =
#: 1.582) and AladdinEdu's plans "valid 30 days" (its user manual, 充值与计费). A month is therefore never 730 h
#: (365 × 24 / 12) here: a 30.2-day job is two months of a monthly rent, as the vendor bills it.
DAYS_PER_MONTH = 30
HOURS_PER_WEEK = 168.0
HOURS_PER_MONTH = DAYS_PER_MONTH * 24.0


def nodes(num_gpus, gpus_per_node):
    """Servers a job of ``num_gpus`` needs at ``gpus_per_node`` each: ``ceil(gpus / per node)``, at least one (a
    per-node count of 0 reads as 1). Integers or numpy integer arrays (the search's columns) alike. The one
    place this is written: the Evaluation's ``nodes``, the search's, the project's phases and the views read it."""
    # numpy arrays and numpy numbers by their methods: no numpy import here (the CLI's start-up; and no import
    # statement on the search's worker thread, where PySide6's import hook runs)
    if hasattr(num_gpus, "__array_ufunc__") or hasattr(gpus_per_node, "__array_ufunc__"):
        per = gpus_per_node.clip(1) if hasattr(gpus_per_node, "clip") else max(gpus_per_node, 1)
        return (-(-num_gpus // per)).clip(1)
    return max(1, -(-int(num_gpus) // max(int(gpus_per_node), 1)))


def usable_hours(deadline_days: float, hours_per_week: float) -> float:
    """Hours each GPU can work before a deadline ``deadline_days`` away at ``hours_per_week`` (168: around the
    clock): the budget page's "usable hours per GPU", the same share of the week the Evaluation's calendar uses."""
    return deadline_days * 24.0 * (hours_per_week / 168.0)


def shown_text(text: object, limit: int = 40) -> str:
    """What a refusal echoes of a typed or pasted text: its first ``limit`` characters, each control, format
    (bidi override, zero-width) or unpaired surrogate character a space, runs of spaces one. A refusal is one
    printable line whatever was pasted: a bidi override, an escape or half a surrogate pair in the echoed text
    reordered or broke the field's error line (probe17: the token count; probe18: every line edit's parser)."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in str(text)[:limit]).split())


def parse_count(text: str | float | int) -> float:
    """Parse a count such as ``"1.5T"``, ``"300B"``, ``"2e9"``, ``"7,000,000"`` or a number.

    Raises ``ValueError`` with a message fit for the user when the text is not a positive count.
    """
    if isinstance(text, bool):
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "expected a number such as 300B, 1.5T or 2e9")))
    shown = shown_text(text)
    try:
        if isinstance(text, (int, float)):
            value = float(text)
        else:
            value = _count_of_text(str(text), shown)
    except OverflowError:
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "'{text}…' is too large"), text=shown)) from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "'{text}' must be a finite, non-negative count"),
                                     text=shown))
    return value


def _count_of_text(text: str, shown: str) -> float:
    """The count a text means (:func:`parse_count`): full-width digits and separators as typed with a Chinese input
    method read as their ASCII forms (NFKC), group separators (``,`` ``_`` and spaces inside the digits) dropped."""
    import unicodedata

    m = None
    if len(text) <= MAX_COUNT_TEXT:
        cleaned = unicodedata.normalize("NFKC", text).replace(",", "").replace("_", "").strip()
        m = _NUM_RE.match(cleaned)
    if not m:
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "'{text}' is not a count; use e.g. 300B, 1.5T or 2e9"), text=shown))
    value = float(m.group(1))
    if m.group(2):
        value *= 10.0 ** int(m.group(2))  # OverflowError past 10^308: "too large"
    unit = m.group(3)
    return value * _SUFFIX[unit.lower() if unit.isascii() else unit]


def dataset_tokens(mode: str, *, tokens_text: str | float | int = "0", samples: float = 0.0, avg_len: float = 0.0,
                   dataset_gb: float = 0.0, tokens_per_gb: float = 0.0) -> float:
    """Tokens in one pass over the data, from the way the user described it: a token count (``tokens``),
    samples × average tokens per sample (``samples``), or gigabytes × tokens per gigabyte (``bytes``)."""
    if mode == "samples":
        return float(samples or 0) * float(avg_len or 0)
    if mode == "bytes":
        return float(dataset_gb or 0) * float(tokens_per_gb or 0)
    return parse_count(tokens_text or "0")


def format_count(value: float, digits: int = 3) -> str:
    """A count with the trade's suffix: 8.03B, 1.5T, 120M — kept for old callers; it is
    :func:`gpuplanner.formatting.format_compact` (issue #15: one formatter; views import that one)."""
    from gpuplanner.formatting import format_compact  # pure Python, no Qt: the core stays pure

    return format_compact(value, digits)


def powers_of_two_upto(n: int) -> list[int]:
    """1, 2, 4, … up to ``n`` (the parallel sizes a layout search tries: TP, PP, EP, GPU counts)."""
    out, v = [], 1
    while v <= n:
        out.append(v)
        v *= 2
    return out

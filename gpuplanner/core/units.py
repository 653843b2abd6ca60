"""Parsing and formatting of quantities the user types: token counts ("1.5T"), sizes, money."""

from __future__ import annotations

import math
import re

_SUFFIX = {"": 1.0, "k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12, "p": 1e15}
_NUM_RE = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([kKmMbBgGtTpP]?)\s*(?:tokens?)?\s*$")

GIB = 1024**3


def parse_count(text: str | float | int) -> float:
    """Parse a count such as ``"1.5T"``, ``"300B"``, ``"2e9"``, ``"7,000,000"`` or a number.

    Raises ``ValueError`` with a message fit for the user when the text is not a positive count.
    """
    if isinstance(text, bool):
        raise ValueError("expected a number such as 300B, 1.5T or 2e9")
    shown = str(text)[:40]
    try:
        if isinstance(text, (int, float)):
            value = float(text)
        else:
            cleaned = str(text)[:200].replace(",", "").replace("_", "").strip()
            m = _NUM_RE.match(cleaned)
            if not m:
                raise ValueError(f"'{shown}' is not a count; use e.g. 300B, 1.5T or 2e9")
            value = float(m.group(1)) * _SUFFIX[m.group(2).lower()]
    except OverflowError:
        raise ValueError(f"'{shown}…' is too large") from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"'{shown}' must be a finite, non-negative count")
    return value


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
    """Format a count with an SI-style suffix used in the trade: 8.03B, 1.5T, 120M."""
    v = float(value)
    for suffix, scale in (("P", 1e15), ("T", 1e12), ("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if abs(v) >= scale:
            return f"{v / scale:.{digits}g}{suffix}"
    return f"{v:.{digits}g}"

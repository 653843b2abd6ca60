"""The charts' legends: one HTML line of coloured keys, never broken inside an entry."""

from __future__ import annotations

import html




def unbreakable(text: str) -> str:
    """``text`` that a line never breaks inside: no-break spaces, and a word joiner (U+2060, UAX #14 class WJ)
    between characters, since Chinese may otherwise break between any two characters ("截止时/间")."""
    return "\u2060".join(text).replace(" ", "\u00a0")


def legend_html(items: list[tuple[str, str, str]]) -> str:
    """A legend line: (colour, marker, label) -> HTML with coloured markers; it wraps between items, never
    inside one."""
    return " &nbsp;".join(
        f"<span style='white-space:nowrap'><span style='color:{c}'>{html.escape(unbreakable(m))}</span>&nbsp;"
        f"{html.escape(unbreakable(lab))}</span>"
        for c, m, lab in items)

"""Argument types shared by the CLI subcommands."""

from __future__ import annotations

import argparse


def positive_int(value: str) -> int:
    """argparse type: a whole number ≥ 1, with a one-line message otherwise."""
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {n}")
    return n


def rent_vs_build_lines(rb, indent: str = "   ") -> list[str]:
    """The rent-or-build answer as text: the sentence, the five parts of building next to renting, the
    break-even utilisation and what was not counted (read from ``cost.BuildResult``; nothing computed here)."""
    from ..core.cost import BUILD_PART_LABELS

    cur = rb.currency
    lines = [f"{indent}{'rent':<43}{rb.rent_total:>14,.0f} {cur}"]
    for key, label in BUILD_PART_LABELS.items():
        src = rb.inputs.sources.get({"hardware": "machine_price", "rack": "colocation_per_machine_month",
                                     "electricity": "tariff_per_kwh", "staff": "ops_staff_per_month",
                                     "spares": "spare_rate_per_year"}[key], "")
        lines.append(f"{indent}build: {label:<36}{rb.breakdown[key]:>14,.0f} {cur}"
                     + (f"   [{src[:70]}]" if src else ""))
    lines.append(f"{indent}{'build total':<43}{rb.build_total:>14,.0f} {cur}   verdict: {rb.verdict}")
    if rb.break_even_utilisation is not None:
        lines.append(f"{indent}break-even utilisation: {rb.break_even_utilisation:.0%} of the hours over "
                     f"{rb.inputs.depreciation_years:g} years")
    else:
        lines.append(f"{indent}break-even utilisation: none (owning never pays off at these prices)")
    if rb.missing:
        lines.append(f"{indent}not counted (enter your figures): {', '.join(rb.missing)}")
    return lines

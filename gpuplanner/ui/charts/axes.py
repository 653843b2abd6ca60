"""Shared pieces of the live charts: series colours, tick arithmetic (GPU counts, log ranges), the formatted axis,
pyqtgraph's configuration and export scaling."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtGui import QPen

from gpuplanner.formatting import format_axis, format_axis_ticks, format_count


SERIES_COLORS = {
    "weights": "#4e79a7", "gradients": "#f28e2b", "optimizer": "#59a14f", "activations": "#b07aa1",
    "other": "#9c9c9c",
    # models and buffers a training objective adds (core/methods.py), each its own part
    "reference": "#76b7b2", "reward": "#edc948", "critic": "#ff9da7", "rollout_weights": "#9c755f",
    "kv_cache": "#e15759",
}
LINK_COLORS = {"nvlink": "#2e7d32", "pcie": "#ef6c00", "multinode": "#1565c0"}
RED = "#d32f2f"


def short_num(v: float) -> str:
    """Compact axis label in the UI language, never scientific notation: 950, 20K / 2万, 3M / 300万, 0.2
    (the one formatter, :func:`gpuplanner.formatting.format_axis`)."""
    return format_axis(v)


def gpu_ticks(lo: float, hi: float) -> list[tuple[float, str]]:
    """Ticks for a log GPU-count axis at the counts people rent: 1, 2, 4, 8, 16, … (every other power of two
    when the range spans many); never a fractional GPU."""
    if not (hi > 0 and math.isfinite(lo) and math.isfinite(hi)):
        return []
    lo = max(lo, 1.0)
    k0, k1 = math.ceil(math.log2(lo) - 1e-9), math.floor(math.log2(hi) + 1e-9)
    vals = [2 ** k for k in range(k0, k1 + 1)]
    step = 1 if len(vals) <= 10 else 2
    vals = vals[::step]
    return [(math.log10(v), format_count(v)) for v in vals]


# Axis ranges snap outward to a coarse grid, so typing that moves the data a little leaves the axes where they are:
# an unchanged range keeps pyqtgraph's cached axis pictures and every item's view transform (a changed range makes
# each axis re-measure and redraw its ticks, ~1 ms each per keystroke) and the chart does not jump while one types.
LOG_RANGE_STEP = 0.25  # decades
NICE_STEPS = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)


def nice_ceil(v: float) -> float:
    """The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k that is ≥ ``v`` (``v`` itself when not finite
    and positive)."""
    if not (v > 0 and math.isfinite(v)):
        return v
    e = math.floor(math.log10(v))
    for step in NICE_STEPS:
        top = step * 10.0 ** e
        if top >= v * (1 - 1e-12):
            return top
    return 10.0 ** (e + 1)


def snap_log_range(lo: float, hi: float, step: float = LOG_RANGE_STEP) -> tuple[float, float]:
    """``(log10 lo, log10 hi)`` widened outward to multiples of ``step`` decades."""
    a, b = math.log10(lo), math.log10(hi)
    return math.floor(a / step + 1e-9) * step, math.ceil(b / step - 1e-9) * step


def log_ticks(lo: float, hi: float, fmt=short_num, max_ticks: int | None = None) -> list[tuple[float, str]]:
    """Ticks for a log axis between ``lo`` and ``hi`` at 1-2-5 steps (1-9 when the range is narrow); at most
    ``max_ticks`` of them (what the axis has room for: labels never run into each other)."""
    if not (lo > 0 and hi > 0 and math.isfinite(lo) and math.isfinite(hi)):
        return []
    if hi < lo:
        lo, hi = hi, lo
    limit = max(3, max_ticks) if max_ticks else 9  # three labels fit any axis drawn (~22 px each)
    k0, k1 = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    options = []
    for mults in ((1,), (1, 3), (1, 2, 5), (1, 2, 3, 5, 7), tuple(range(1, 10))):
        options.append([m * 10.0 ** k for k in range(k0, k1 + 1) for m in mults if lo <= m * 10.0 ** k <= hi])

    # a tick near the edge of the view is not drawn: its label would stick out of the axis (pyqtgraph hides it).
    # ux17: the Chinese RL scaling chart (1,778–10,000 tokens/s, 76 px) chose 2,000 / 5,000 / 10,000 and showed
    # one label; a tick within 8% of the span (about half a label's height on a short axis) does not count
    edge = 10.0 ** max(math.log10(1.02), 0.08 * math.log10(hi / lo)) if hi > lo else 1.02

    def inside(v: list) -> int:
        return sum(lo * edge < x < hi / edge for x in v)

    # the sparsest choice with three ticks or more inside the range that fits; else the densest that fits
    vals = next((v for v in options if 3 <= inside(v) <= limit), None)
    if vals is None:
        fitting = [v for v in options if inside(v) <= limit]
        vals = fitting[-1] if fitting else options[0]
    while inside(vals) > limit:  # many decades: keep every other one
        vals = vals[::2]
    if len(vals) < 2:  # less than a decade between two of the 1–9 steps (9K–18K): even steps inside the range
        from gpuplanner.report.charts import narrow_log_values

        vals = narrow_log_values(lo, hi, limit)
    vals = [float(round(v, 12)) for v in vals]
    # the one formatter labels an axis in one scale ("0.3万 / 1万 / 3万", never "3,000 / 1万 / 3万")
    labels = format_axis_ticks(vals) if fmt is short_num else [fmt(v) for v in vals]
    return [(math.log10(v), t) for v, t in zip(vals, labels)]


class FormattedAxis(pg.AxisItem):
    """An axis whose tick labels come from the one formatter (:func:`format_axis`): 20K / 2万, never
    ``1e+06``, and no "(x0.001)" rescaling of its title."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.enableAutoSIPrefix(False)

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph)
        return format_axis_ticks([v * scale for v in values])  # one scale for the whole axis


def configure_pyqtgraph() -> None:
    """White, print-friendly charts (set before any plot widget is created)."""
    pg.setConfigOptions(antialias=True, background="w", foreground="k")


def set_ticks(axis, ticks) -> None:
    """``axis.setTicks(ticks)`` only when they change: new ticks make pyqtgraph re-measure and redraw the axis."""
    if getattr(axis, "_gp_ticks", None) != ticks:
        axis.setTicks(ticks)
        axis._gp_ticks = ticks


def set_axis_label(plot_item, side: str, text: str) -> None:
    """``plot_item.setLabel(side, text)`` only when it changes (a new label re-lays out the whole plot)."""
    axis = plot_item.getAxis(side)
    if getattr(axis, "_gp_label", None) != text:
        plot_item.setLabel(side, text)
        axis._gp_label = text


def _set_line_label(line, text: str) -> None:
    """An ``InfiniteLine``'s label text, set only when it changes (setting it re-lays out its text item)."""
    if getattr(line, "_gp_label", None) != text:
        line.label.setFormat(text)
        line._gp_label = text


def _export_scale(item) -> float:
    """While pyqtgraph's ImageExporter renders the chart larger than on screen (a 1600-px PNG of a 430-px chart),
    the factor by which pixel sizes grow (its ``resolutionScale``, what its own scatter symbols use); else 1."""
    opts = getattr(item, "_exportOpts", False)
    return float(opts.get("resolutionScale", 1.0)) if opts else 1.0


def _scaled_pen(pen, scale: float):
    if scale == 1.0:
        return pen
    out = QPen(pen)
    out.setWidthF(pen.widthF() * scale)
    return out

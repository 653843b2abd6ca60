"""Render a :class:`~.content.ReportData` as a printed plan: QTextDocument → PDF, printer or preview.

How (qt-app-engineering notes §C2, §C3, pitfalls 2, 7, 8):

* The report is HTML in a ``QTextDocument``; ``doc.print_(printer)`` paginates, adds page numbers and
  repeats ``<thead>`` rows on every page a table spans. The document's page size is left unset (setting
  it to the printer's device pixels makes everything tiny).
* Charts are drawn with QPainter by :mod:`.charts`, :data:`CHART_WIDTH_PX` (≈ 170 mm) wide: in the document a
  blank image of that size keeps each chart's place, and :func:`print_to` draws the chart over it as vector
  graphics (its texts stay text; :func:`chart_rects` finds the places). ``memory_chart`` & co. also give
  it as an image of :data:`CHART_EXPORT_WIDTH` pixels (≈ 300 dpi). They are drawn for greyscale printers:
  series differ by grey level *and* hatch pattern or line style and marker, and carry text labels. (The
  report imports no pyqtgraph: its import alone cost a quarter of a second of every ``gpuplanner report``;
  ``tests/test_report_charts.py``.)
* Every string goes through ``QCoreApplication.translate("Report", …)`` (sentences from the core through
  their own context), so the ``gpuplanner_<lang>.qm`` files that translate the UI translate the report.
* CJK text needs a CJK font in the PDF: :func:`ensure_cjk_font` uses a system one (``fc-list :lang=zh``;
  CI installs ``fonts-noto-cjk`` in ``.ci/run``) or registers one shipped in ``resources/fonts``.
"""

from __future__ import annotations

from gpuplanner.formatting import (
    ELAPSED_UNITS, elapsed_numbers, format_count, phase_spans, plan_span_numbers, plan_span_unit, format_plan_span, format_plan_time, format_flops, format_number, format_params, link_display_name, format_span, format_percent, format_sig, gpu_display_name,
)

import html
import math
import os
import re
import unicodedata
import threading
import time
from pathlib import Path
from typing import Iterable

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice, QLocale, QMarginsF, QRectF, Qt, QTranslator, QUrl
from PySide6.QtGui import (
    QBrush, QColor, QFont, QFontDatabase, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen, QTextDocument,
)

from ..i18n import CJK_FAMILIES  # noqa: F401 (installed CJK families, preferred to the bundled font)
from ..i18n import _close_paren_space  # a name ending "（中国特供版）" before Chinese: no space (ux9)
from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.messages import english_plurals, memory_sum_msg
from . import charts
from .charts import Axis, Chart
from .content import (
    PlanInfo, ReportData, Text, fmt_bytes, fmt_tokens, fmt_days, fmt_gib, fmt_money, fmt_pct, fmt_price,
)
from gpuplanner.formatting import (colon, format_typed_days, format_clauses, format_list, format_mfu, format_phrases, format_sentences,
                                   join_clause, paren, plural_s)

CTX = "Report"
CHART_WIDTH_PX = charts.WIDTH  # width of a chart in the document's layout units (96 per inch): ≈ 169 mm
CHART_EXPORT_WIDTH = charts.EXPORT_WIDTH  # pixels: 2000 / (169 mm / 25.4) ≈ 300 dpi on paper
CHART_HEIGHT_PX = charts.HEIGHT
FOOTER_PX = 22  # space under each page's text for the page number (layout pixels)
PAPERS = {"a4": QPageSize.PageSizeId.A4, "letter": QPageSize.PageSizeId.Letter}
MARGIN_MM = 15.0
I18N_DIR = Path(__file__).resolve().parent.parent / "resources" / "i18n"

# grey levels and patterns per memory part: distinguishable without colour (greyscale printers)
_SERIES = (
    ("weights", "#3a3a3a", Qt.BrushStyle.SolidPattern),
    ("gradients", "#8c8c8c", Qt.BrushStyle.BDiagPattern),
    ("optimizer", "#bdbdbd", Qt.BrushStyle.SolidPattern),
    ("activations", "#5a5a5a", Qt.BrushStyle.CrossPattern),
    ("other", "#e3e3e3", Qt.BrushStyle.SolidPattern),
    # the training objective's models and buffers (core/methods.py), when the plan holds them
    ("reference", "#6e6e6e", Qt.BrushStyle.FDiagPattern),
    ("reward", "#a0a0a0", Qt.BrushStyle.DiagCrossPattern),
    ("critic", "#4a4a4a", Qt.BrushStyle.HorPattern),
    ("rollout_weights", "#7a7a7a", Qt.BrushStyle.VerPattern),
    ("kv_cache", "#b0b0b0", Qt.BrushStyle.Dense5Pattern),
)


def _extra_names() -> dict:
    return {"reference": translate("Report", "reference model"), "reward": translate("Report", "reward model"),
            "critic": translate("Report", "critic"), "rollout_weights": translate("Report", "vLLM weights"),
            "kv_cache": translate("Report", "rollout KV cache")}


def translate(context: str, text: str) -> str:
    """``QCoreApplication.translate`` (named so that ``pyside6-lupdate`` finds the literal strings)."""
    return QCoreApplication.translate(context, text)


def tr_text(t: Text | None) -> str:
    """A core sentence translated in its own context, then filled in."""
    if t is None:
        return ""
    from gpuplanner.i18n import translate_message

    try:
        return translate_message(t.context, t.text, t.params)
    except (KeyError, IndexError, ValueError):  # a broken translation must not lose the English text
        return t.render()


def _e(s: object) -> str:
    return html.escape(str(s), quote=True)


# User text in the report (notes, checklist notes, titles) can hold one enormous unbroken "word"; Qt's text
# layout then spends quadratic time looking for a place to wrap it (100 kB: 3-6 s, 2 MB: never finished).
# Notes are capped, and every long run of non-space characters gets a zero-width space (a break
# opportunity, invisible when not used) every _RUN_CHARS characters before the HTML is laid out.
NOTES_MAX_CHARS = 20_000
_RUN_CHARS = 30
_ZWSP = "\u200b"
_LONG_RUN = re.compile(r"[^\s\u200b]{%d,}" % (_RUN_CHARS + 1))
_JOINERS = {"\u200c", "\u200d", "\ufe0e", "\ufe0f"}


def _split_run(m: re.Match) -> str:
    word = m.group(0)
    parts, start = [], 0
    while len(word) - start > _RUN_CHARS:
        cut = start + _RUN_CHARS
        # never between a letter and its combining mark, a surrogate pair or an emoji joiner sequence
        while cut < len(word) and (unicodedata.combining(word[cut]) or word[cut] in _JOINERS
                                   or word[cut - 1] in _JOINERS or "\udc00" <= word[cut] <= "\udfff"):
            cut += 1
        parts.append(word[start:cut])
        start = cut
    parts.append(word[start:])
    return _ZWSP.join(p for p in parts if p)


def breakable(text: str) -> str:
    """``text`` with a zero-width space every :data:`_RUN_CHARS` characters of any longer unbroken run, so
    the layout can wrap it in linear time. Apply before HTML escaping (never inside an entity)."""
    return _LONG_RUN.sub(_split_run, str(text))


def _et(s: object) -> str:
    """User text for the report's HTML: break opportunities in long runs, then escaped."""
    return _e(breakable(str(s)))


# ------------------------------------------------------------------------------------- application

def ensure_app():
    """The running QApplication, or a new one (headless: offscreen platform when there is no display)."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is not None and not isinstance(app, QApplication):
        from ..core.errors import PlannerError

        # fonts, images and charts need a GUI application; a bare QCoreApplication would abort in Qt
        raise PlannerError("the report needs a QApplication, but a QCoreApplication is already running")
    if app is None:
        if not os.environ.get("QT_QPA_PLATFORM") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) \
                and os.name == "posix" and not _is_macos():
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
        app = QApplication([])
    return app


def _is_macos() -> bool:
    import sys

    return sys.platform == "darwin"


_translators: list[QTranslator] = []  # keep references: a collected QTranslator stops translating


def install_language(lang: str | None) -> bool:
    """Install ``gpuplanner_<lang>.qm`` (and Qt's own ``qtbase_<lang>.qm``); ``en``/None removes them.

    Returns True when the app's translation file was found and loaded.
    """
    app = QCoreApplication.instance()
    for t in _translators:
        app.removeTranslator(t)
    _translators.clear()
    if not lang or lang.lower().startswith("en"):
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
        return False
    QLocale.setDefault(QLocale(lang))
    from PySide6.QtCore import QLibraryInfo

    qt = QTranslator(app)
    if qt.load(QLocale(lang), "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        _translators.append(qt)
    mine = QTranslator(app)
    qm = I18N_DIR / f"gpuplanner_{lang}.qm"
    try:  # the i18n module compiles the .ts on first use in a development checkout
        from ..i18n import qm_path

        qm = qm_path(lang) or qm
    except ImportError:
        pass
    ok = mine.load(str(qm))
    if ok:
        app.installTranslator(mine)
        _translators.append(mine)
    return ok


def ensure_cjk_font() -> str | None:
    """A font family with Chinese glyphs: an installed one (the first of :data:`CJK_FAMILIES` Qt knows),
    else the subset of Noto Sans CJK SC shipped in ``resources/fonts``, registered once — so the Chinese
    report is complete on a machine without any CJK font. Shared with the UI (:mod:`gpuplanner.i18n`)."""
    from ..i18n import ensure_cjk_font as shared

    return shared()


# ------------------------------------------------------------------------------------------ charts
# Drawn with QPainter by :mod:`.charts` (no plotting library): each ``draw_*`` returns the finished
# :class:`~.charts.Chart` (its image and every text it drew) and the legend, [(label, key image)], which
# the HTML sets under the chart so that it wraps and is searchable.

LATIN_FAMILIES = ("Noto Sans", "DejaVu Sans", "Liberation Sans", "Arial", "Helvetica")


def report_families(lang: str | None = None) -> list[str]:
    """The report's font families (text and charts), the same in every language: the bundled font first
    (Latin and Chinese: the PDF's glyphs and text layer do not depend on what the machine has installed; it
    has no ligatures, so "InfiniBand" comes out of ``pdftotext`` whole), installed ones only as fallback for
    a character it lacks. ``lang`` is kept for callers; the choice no longer depends on it."""
    from ..i18n import bundled_font

    own = bundled_font()
    families = ([own] if own else []) + list(LATIN_FAMILIES)
    cjk = ensure_cjk_font()
    if cjk and cjk not in families:
        families.append(cjk)  # fallback for a character the bundled font lacks
    return families


def _chart(x: Axis, y: Axis, height: float = CHART_HEIGHT_PX) -> Chart:
    return Chart(x, y, width=CHART_WIDTH_PX, height=height, families=report_families())


def chart_image(drawn):
    """(image, legend) of a chart drawn by one of :data:`CHART_DRAWERS` (a raster of it, about 300 dpi), None for
    a chart the data has no points for. The PDF draws the charts as vector graphics instead (:func:`print_to`)."""
    if drawn is None:
        return None
    chart, legend = drawn
    return chart.image, legend


_BASE_PARTS = ("weights", "gradients", "optimizer", "activations", "other")


def draw_memory_chart(data: ReportData):
    """Stacked bars of GiB per GPU (chosen plan and alternatives) with each card's capacity marked."""
    plans = [data.plan] + list(data.alternatives)
    names = {"weights": translate("Report", "weights"), "gradients": translate("Report", "gradients"),
             "optimizer": translate("Report", "optimizer states"),
             "activations": translate("Report", "activations"), "other": translate("Report", "other"),
             **_extra_names()}
    # a part no plan holds gets no legend entry
    series = [(key, grey, style) for key, grey, style in _SERIES
              if key in _BASE_PARTS or any(key in p.memory for p in plans)]
    # each plan's total as the Evaluation gives it (the table's "Total"); the bars stack the parts to it
    totals = [p.memory.get("total", sum(p.memory.get(key, 0.0) for key, _g, _s in series)) for p in plans]
    top = max(max(p.gpu_memory_gib, totals[i] + p.memory_headroom_gib) for i, p in enumerate(plans))
    ticks = [(i, f"{p.num_gpus} ×\n{_short_gpu_name(p)}\n" + translate("Report", "{v} GiB used").format(
        v=fmt_gib(totals[i]))) for i, p in enumerate(plans)]
    chart = _chart(Axis(-1.3, len(plans) - 1 + (1.3 if len(plans) == 1 else 0.7), ticks=ticks, grid=False),
                   Axis(0.0, top * 1.15 or 1.0, title=translate("Report", "GiB per GPU")))
    outline = charts.pen("#000000", 1.0)
    bottom = [0.0] * len(plans)
    entries, seg_labels = [], []
    for key, grey, style in series:
        vals = [p.memory.get(key, 0.0) for p in plans]
        for i, v in enumerate(vals):
            if v > 0:
                chart.bar(i - 0.225, i + 0.225, bottom[i], bottom[i] + v, charts.hatch(grey, style), outline)
        entries.append((names[key], charts.legend_key(brush=charts.hatch(grey, style))))
        seg_labels.append((names[key], bottom[0], vals[0]))
        bottom = [b + v for b, v in zip(bottom, vals)]
    for i, p in enumerate(plans):
        cap = p.gpu_memory_gib
        chart.hline(cap, charts.pen("#000000", 2.5, Qt.PenStyle.DashLine), i - 0.32, i + 0.32)
        chart.label(translate("Report", "card: {cap} GiB").format(cap=fmt_gib(cap)), i, cap, (0.5, 1.0), (0, -2))
    # name and size of each part of the chosen plan's bar, left of it (greyscale: no colour needed), moved
    # up where the one below would touch it
    small = chart.make_font(7.5)
    gap = chart.metrics(small).height() + 1
    last_y = chart.plot.bottom() - gap / 2 + gap  # the lowest label stays above the axis
    for name, y0, v in seg_labels:
        if v <= 0:
            continue
        y = min(chart.ypx(y0 + v / 2), last_y - gap)
        chart.text_at(f"{name} {fmt_gib(v)}", chart.xpx(-0.25), y, (1.0, 0.5), small)
        last_y = y
    return chart.finish(), entries


def _short_gpu_name(p: PlanInfo) -> str:
    """A card's name under a chart bar: without the vendor, the region and the catalogue's qualifiers in brackets
    ("B200 (HGX B200) 180GB" → "B200 180GB", "GB200 (per Blackwell GPU) 186GB" → "GB200 186GB"), so it fits the
    bar's width instead of being cut off mid-word; the tables beside the chart keep the full name."""
    name = p.gpu_name
    for junk in ("NVIDIA ", "GeForce ", " (China)"):
        name = name.replace(junk, "")
    return re.sub(r"\s*\([^)]*\)", "", name).strip() or name


def _sentence_case(name: str) -> str:
    """A name at the start of a table cell: "Reference model"; a name that starts as a brand ("vLLM weights")
    or in a script without case is left as it is."""
    if name[:1].islower() and not name[1:2].isupper():
        return name[0].upper() + name[1:]
    return name


def _source_text(src: str, context: str = "Report") -> str:
    """A cited source in the report's language: the core's "(converted at R CNY/USD)" note is translated."""
    m = re.match(r"^(.*) \(converted at ([0-9.]+) CNY/USD\)$", src or "")
    if m:
        return translate("Report", "{0} (converted at {1} CNY/USD)").format(_source_text(m.group(1), context),
                                                                             m.group(2))
    out = translate(context, src)
    # a price's own words ("your quote", core/cost.py) are marked in the Cost context
    return translate("Cost", src) if out == src and context != "Cost" else out


def _gpu(name: str) -> str:
    """A GPU's name as printed: the product name, its regional suffix in the report's language."""
    return gpu_display_name(name)


def _log_range(lo: float, hi: float, below: float, above: float) -> tuple[float, float]:
    """A log axis's range: ``below`` / ``above`` decades of room around the data."""
    return 10 ** (math.log10(lo) - below), 10 ** (math.log10(hi) + above)


def chart_time_unit(data: ReportData) -> tuple[str, float]:
    """The unit the time charts read in, and its days: the chosen plan's headline unit (``formatting.plan_span_unit``
    of its days and range), so its point on the scaling chart is labelled with the headline's figure — "4.6 hours"
    in the recommendation beside "0.19 d" on the chart before (ux23); the Plans table's rule (ux22): hours as soon as
    the plan reads in hours. The deadline keeps its days (it is typed in days)."""
    p = data.plan
    days = p.calendar_days
    unit = plan_span_unit(days, p.calendar_days_band) if days is not None and math.isfinite(days) else "days"
    return unit, ELAPSED_UNITS[unit][0]


def _time_title(unit: str) -> str:
    """A time axis's title in the chart's unit."""
    return translate("Report", "training hours") if unit == "hours" else translate("Report", "training days")


def _scaling_labels(data: ReportData, xs: list[float], ys: list[float], unit: str) -> list[str]:
    """Each point's label in the chart's unit; the chosen plan's point its headline's number (at its range's
    precision, ``formatting.plan_span_numbers``), the same figure the recommendation states."""
    nums = elapsed_numbers(ys, unit)
    p = data.plan
    for i, x in enumerate(xs):
        if int(x) == p.num_gpus and p.calendar_days is not None and math.isclose(ys[i], p.calendar_days, rel_tol=1e-6):
            nums[i] = plan_span_numbers(p.calendar_days, p.calendar_days_band, unit=unit)[1]
    word = translate("Report", "{d} h") if unit == "hours" else translate("Report", "{d} d")
    return [word.format(d=n) for n in nums]


def draw_scaling_chart(data: ReportData):
    """Training time against GPU count for the chosen GPU and layout, with ideal linear scaling, in the chosen
    plan's unit (:func:`chart_time_unit`)."""
    pts = sorted(data.scaling)
    if len(pts) < 2 or not all(math.isfinite(d) and d > 0 for _, d in pts):
        return None  # a log axis has no zero (data.tokens 0: no training days; a math domain error before)
    unit, per = chart_time_unit(data)
    xs = [float(n) for n, _ in pts]
    labels = _scaling_labels(data, xs, [d for _, d in pts], unit)
    ys = [d / per for _, d in pts]
    ideal_pts = [(float(n), d / per) for n, d in sorted(data.scaling_ideal)]  # core: Scaling.ideal_calendar_days
    ideal = [d for _, d in ideal_pts]
    deadline = data.task.deadline_days / per if data.task.deadline_days else None
    ymin = min(ys + ideal + ([deadline] if deadline else []))
    ymax = max(ys + ideal + ([deadline] if deadline else []))
    chart = _chart(Axis(*_log_range(xs[0], xs[-1], 0.1, 0.25), log=True, ticks=[(x, format_count(x)) for x in xs],
                        title=translate("Report", "GPUs ({gpu})").format(gpu=_gpu(data.plan.gpu_name))),
                   Axis(*_log_range(ymin, ymax, 0.15, 0.25), log=True, title=_time_title(unit)))
    ideal_pen = charts.pen("#777777", 2.0, Qt.PenStyle.DashLine)
    line_pen = charts.pen("#000000", 2.5)
    deadline_pen = charts.pen("#000000", 1.5, Qt.PenStyle.DotLine)
    if deadline:
        chart.hline(deadline, deadline_pen)
        chart.label(translate("Report", "deadline {d} d").format(d=format_typed_days(data.task.deadline_days)), xs[0], deadline,
                    (0.0, 1.0), (0, -2))
    chart.polyline(ideal_pts, ideal_pen)
    chart.polyline(list(zip(xs, ys)), line_pen)
    for x, y in zip(xs, ys):
        chart.marker(x, y, "o", 9, "#ffffff", charts.pen("#000000", 2.0))
    for x, y in zip(xs, ys):
        if int(x) == data.plan.num_gpus:
            chart.marker(x, y, "s", 14, "#000000", charts.pen("#000000", 1.0))
            break
    for x, y, text in zip(xs, ys, labels):
        room = 9 if int(x) == data.plan.num_gpus else 6  # clear of the chosen plan's bigger square
        chart.label(text, x, y, (0.0, 1.0), (room, -room + 2))
    chart.finish()
    legend = [(translate("Report", "estimated"), charts.legend_key(line=line_pen, symbol="o")),
              (translate("Report", "chosen plan"), charts.legend_key(symbol="s", fill="#000000")),
              (translate("Report", "ideal linear scaling"), charts.legend_key(line=ideal_pen))]
    if deadline:
        legend.append((translate("Report", "deadline"), charts.legend_key(line=deadline_pen)))
    return chart, legend


def memory_count_groups(data: ReportData) -> list[tuple[float, list[str]]]:
    """The candidate cards grouped by memory size, largest first: [(GiB, [short names])]."""
    groups: dict[float, list[str]] = {}
    for name, gib in data.memory_cards:
        short = name
        for junk in ("NVIDIA ", "GeForce "):
            short = short.replace(junk, "")
        groups.setdefault(float(gib), []).append(gpu_display_name(short))
    return sorted(groups.items(), reverse=True)


def _card_label(chart: Chart, text: str, cap: float, above: QRectF | None) -> QRectF:
    """A card's memory line labelled at the right end, above its line; below it where the label of the card above
    would cover it: "96 GiB card" over "80 GiB card" on a log axis were one smudge (issue 35 round 16, ux24)."""
    h = chart.text_size(text, chart.font)[1]
    pt = chart.px(chart.x.hi, cap)
    if above is not None and pt.y() - 2 - h < above.bottom():
        return chart.label(text, chart.x.hi, cap, (1.0, 0.0), (-3, 2))
    return chart.label(text, chart.x.hi, cap, (1.0, 1.0), (-3, -2))


def draw_memory_count_chart(data: ReportData):
    """Memory per GPU against GPU count for the plan's model and method: the least-memory layout at each
    count and the plan's own layout, with a dotted line at each candidate card's memory (read from
    :attr:`ReportData.memory_by_count`, the core's :func:`~gpuplanner.core.evaluate.memory_by_gpu_count`)."""
    best = [(n, g) for n, g, _ in data.memory_by_count if g]
    own = [(n, g) for n, _, g in data.memory_by_count if g]
    if len(best) < 2:
        return None
    groups = memory_count_groups(data)
    xs = [float(n) for n, _ in best]
    ys = [g for _, g in best] + [g for _, g in own] + [c for c, _ in groups]
    chart = _chart(Axis(*_log_range(min(xs), max(xs), 0.1, 0.14), log=True, ticks=[(x, format_count(x)) for x in xs],
                        title=translate("Report", "GPUs")),
                   Axis(*_log_range(min(ys), max(ys), 0.12, 0.15), log=True, title=translate("Report", "GiB per GPU")))
    best_pen, own_pen = charts.pen("#000000", 2.5), charts.pen("#666666", 2.0, Qt.PenStyle.DashLine)
    card_pen = charts.pen("#000000", 1.5, Qt.PenStyle.DotLine)
    above: QRectF | None = None  # the label placed last (the cards come largest first)
    for cap, _names in groups:
        chart.hline(cap, card_pen)
        above = _card_label(chart, translate("Report", "{g} GiB card").format(g=format_number(cap, 0)), cap, above)
    chart.polyline([(float(n), g) for n, g in best], best_pen)
    for n, g in best:
        chart.marker(float(n), g, "o", 9, "#ffffff", charts.pen("#000000", 2.0))
    if own:
        chart.polyline([(float(n), g) for n, g in own], own_pen)
        for n, g in own:
            chart.marker(float(n), g, "s", 8, "#666666", charts.pen("#666666", 1.0))
    chart.finish()
    legend = [(translate("Report", "least memory (best layout)"), charts.legend_key(line=best_pen, symbol="o"))]
    if own:
        legend.append((translate("Report", "the plan's layout"),
                       charts.legend_key(line=own_pen, symbol="s", fill="#666666")))
    legend.append((translate("Report", "memory of a candidate card"), charts.legend_key(line=card_pen)))
    return chart, legend


def _place_labels(chart: Chart, pts: list[tuple[str, float, float, bool]]) -> None:
    """Label the cost chart's points: the chosen plan's first (always shown, whole), then the others that
    have room; a label's box (measured with its font) may cross neither another label nor another point's
    marker, and stays inside the plot (right of its point, else left, above, below, a corner, then the same
    twice as far out); the chosen plan's, where no place is free, goes where it covers the fewest markers."""
    plot = chart.plot
    font, bold = chart.font, chart.make_font(bold=True)
    marks = [(d, c) for _, d, c, _ in pts]
    boxes: list[QRectF] = []
    gap, mark = 11.0, 7.0  # from the point's centre; half the largest marker

    def crossed(box: QRectF, own) -> int:
        """How many other points' markers the box covers."""
        return sum(1 for m in marks if m != own and box.adjusted(-mark, -mark, mark, mark).contains(chart.px(*m)))

    def free(box: QRectF, own) -> bool:
        if any(box.adjusted(-4, -1, 4, 1).intersects(b) for b in boxes):  # a space between two labels
            return False
        return crossed(box, own) == 0

    for lbl, d, c, ch in sorted(pts, key=lambda t: (not t[3], t[2])):
        w, h = chart.text_size(lbl, bold if ch else font)
        pt = chart.px(d, c)
        x, y = pt.x(), pt.y()
        # right, left, above, below, then the four corners, then the same twice as far out
        options = []
        for k in (1.0, 2.5):
            g = k * gap
            options += [QRectF(x + g, y - h / 2, w, h), QRectF(x - g - w, y - h / 2, w, h),
                        QRectF(x - w / 2, y - g - h, w, h), QRectF(x - w / 2, y + g, w, h),
                        QRectF(x + g / 2, y - g / 2 - h, w, h), QRectF(x - g / 2 - w, y - g / 2 - h, w, h),
                        QRectF(x + g / 2, y + g / 2, w, h), QRectF(x - g / 2 - w, y + g / 2, w, h)]
        fits = [b for b in options if plot.contains(b)]
        box = next((b for b in fits if free(b, (d, c))), None)
        if box is None and ch and fits:  # the chosen plan is always labelled: where it covers the fewest markers
            box = min(fits, key=lambda b: crossed(b, (d, c)))
        elif box is None and ch:  # inside the plot
            box = options[0].translated(
                max(plot.left() - options[0].left(), 0.0) - max(options[0].right() - plot.right(), 0.0),
                max(plot.top() - options[0].top(), 0.0) - max(options[0].bottom() - plot.bottom(), 0.0))
        if box is None:
            continue
        chart.text_at(lbl, box.left(), box.top(), (0.0, 0.0), bold if ch else font)
        boxes.append(box)


#: the cost chart's x axis leaves out a deadline more than this many times the longest plan's days
DEADLINE_OFF_CHART = 3.0


def draw_cost_time_chart(data: ReportData):
    """Total cost against training time (the chosen plan's unit, :func:`chart_time_unit`) for the plans considered;
    deadline and budget as lines."""
    unit, per = chart_time_unit(data)  # the scaling chart's unit, the chosen plan's (ux23)
    pts = [(lbl, d / per, c, ch) for lbl, d, c, ch in data.cost_vs_time]
    if len(pts) < 2:
        return None
    ds = [d for _, d, _, _ in pts]
    cs = [c for _, _, c, _ in pts]
    deadline, budget = (data.task.deadline_days or 0) / per or None, data.task.budget
    # a deadline far beyond every plan (10 days for plans of hours) would squeeze the plans into the left edge,
    # their labels over each other's markers: the axis stays on the plans and the legend says where the deadline is
    far = bool(deadline) and deadline > DEADLINE_OFF_CHART * max(ds)
    x1 = max(ds + [0.0 if far else deadline or 0]) * 1.2 or 1.0
    lo, hi = min(cs + [budget or min(cs)]), max(cs + [budget or 0])
    span = (hi - lo) or hi * 0.1 or 1.0
    chart = _chart(Axis(0.0, x1, title=_time_title(unit)),
                   Axis(max(0.0, lo - span * 0.3), hi + span * 0.3,
                        title=translate("Report", "total cost ({cur})").format(cur=data.currency)))
    deadline_pen = charts.pen("#000000", 1.5, Qt.PenStyle.DotLine)
    budget_pen = charts.pen("#000000", 1.5, Qt.PenStyle.DashDotLine)
    if deadline and not far:
        chart.vline(deadline, deadline_pen)
    if budget:
        chart.hline(budget, budget_pen)
    for _lbl, d, c, ch in pts:
        if not ch:
            chart.marker(d, c, "t", 12, "#ffffff", charts.pen("#000000", 2.0))
    for _lbl, d, c, ch in pts:
        if ch:
            chart.marker(d, c, "s", 14, "#000000", charts.pen("#000000", 1.0))
    _place_labels(chart, pts)
    chart.finish()
    entries = [(translate("Report", "chosen plan"), charts.legend_key(symbol="s", fill="#000000")),
               (translate("Report", "other GPU counts / plans"), charts.legend_key(symbol="t"))]
    if deadline:
        entries.append((translate("Report", "deadline {d} d, right of the chart: every plan meets it").format(
            d=format_typed_days(data.task.deadline_days)) if far else translate("Report", "deadline"), charts.legend_key(line=deadline_pen)))
    if budget:
        entries.append((translate("Report", "budget"), charts.legend_key(line=budget_pen)))
    return chart, entries


# grey levels and patterns per project phase kind (greyscale printers)
_KIND_STYLE = {
    "cpu_preprocessing": ("#e3e3e3", Qt.BrushStyle.SolidPattern),
    "research": ("#8c8c8c", Qt.BrushStyle.BDiagPattern),
    "training": ("#3a3a3a", Qt.BrushStyle.SolidPattern),
    "burst": ("#5a5a5a", Qt.BrushStyle.CrossPattern),
    "inference": ("#bdbdbd", Qt.BrushStyle.SolidPattern),
}


def _kind_name(kind: str) -> str:
    from ..core.project import KIND_LABELS  # noqa: PLC0415 - only with a project

    return QCoreApplication.translate("Project", KIND_LABELS.get(kind, kind))


def draw_timeline_chart(data: ReportData):
    """The project's phases as bars over the weeks (a Gantt chart), each labelled with its GPUs or CPU cores
    and its cost; read from :attr:`ReportData.project`."""
    proj = data.project
    if proj is None or not proj.phases:
        return None
    n = len(proj.phases)
    weeks = max(proj.total_weeks, 1.0)
    chart = _chart(Axis(0.0, weeks * 1.02, title=translate("Report", "weeks from the start")),
                   Axis(-0.6, n - 0.05, ticks=[(n - 1 - i, "") for i in range(n)], grid=False),
                   height=max(160, 46 * n + 70))
    kinds_seen: list[str] = []
    for i, ph in enumerate(proj.phases):
        y = n - 1 - i
        grey, style = _KIND_STYLE.get(ph.kind, ("#8c8c8c", Qt.BrushStyle.SolidPattern))
        chart.bar(ph.start_week, ph.start_week + max(ph.end_week - ph.start_week, 0.05), y - 0.3, y + 0.3,
                  charts.hatch(grey, style), charts.pen("#000000", 1.0))
        what = (translate("Report", "{n} × {gpu}").format(n=ph.count, gpu=_gpu(ph.device_name)) if ph.resource == "gpu"
                else translate("Report", "{n} CPU cores").format(n=ph.count))
        label = ph.name + colon() + format_phrases([what, fmt_money(ph.cost, proj.currency)])
        right = ph.start_week > weeks / 2  # right-hand bars: the label ends at the bar's end
        chart.label(label, ph.end_week - 0.05 if right else ph.start_week + 0.05, y + 0.3,
                    (1.0 if right else 0.0, 1.0), (0, -2), size_pt=7.5)
        if ph.kind not in kinds_seen:
            kinds_seen.append(ph.kind)
    chart.finish()
    entries = [(_kind_name(k), charts.legend_key(brush=charts.hatch(*_KIND_STYLE[k]))) for k in kinds_seen if k in _KIND_STYLE]
    return chart, entries


#: the charts of a report, in the order the document embeds them
CHART_DRAWERS = (("memory", draw_memory_chart), ("memory_count", draw_memory_count_chart),
                 ("scaling", draw_scaling_chart), ("cost", draw_cost_time_chart), ("timeline", draw_timeline_chart))


def _checkbox_image(checked: bool) -> QImage:
    img = QImage(48, 48, QImage.Format.Format_ARGB32)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(QPen(QColor("black"), 4))
    p.setBrush(QBrush(QColor("white")))
    p.drawRect(4, 4, 40, 40)
    if checked:
        p.setPen(QPen(QColor("black"), 6))
        p.drawLine(12, 24, 21, 35)
        p.drawLine(21, 35, 37, 12)
    p.end()
    return img


# -------------------------------------------------------------------------------------------- HTML

_CSS = """
body { font-size: 9.5pt; }
h1 { font-size: 17pt; margin-bottom: 2px; }
h2 { font-size: 12.5pt; margin-top: 14px; margin-bottom: 4px; border-bottom: 1px solid #000; }
h3 { font-size: 10.5pt; margin-top: 8px; margin-bottom: 3px; }
td, th { padding: 2px 4px; vertical-align: top; }
th { background-color: #e6e6e6; font-weight: bold; text-align: left; }
.k { color: #333; }
.num { text-align: right; }
.box { background-color: #f2f2f2; }
.small { font-size: 8pt; color: #333; }
"""


_SPACER = '<p style="margin: 0px; font-size: 5pt;">&nbsp;</p>'


def _rent_vs_build_table(p: PlanInfo, cur: str) -> str:
    """Renting the work next to the five parts of buying and running the servers, and the break-even
    utilisation (the Evaluation's BuildResult; the parts' labels from PlanInfo)."""
    rb = p.evaluation.rent_vs_build
    if not p.rent_vs_build_parts or rb is None:
        return ""
    rows = [[f"<b>{_e(translate('Report', 'Rent, total'))}</b>", f"<b>{_e(fmt_money(rb.rent_total, cur))}</b>"]]
    unknown = translate("Report", "unknown")
    for label, amount in p.rent_vs_build_parts:
        rows.append([_e(translate("Report", "Build: {part}").format(part=tr_text(label))),
                     _e(unknown if amount is None else fmt_money(amount, cur))])
    mark = " ◀" if rb.verdict == "build" else ""
    whole = None if any(a is None for _, a in p.rent_vs_build_parts) else rb.build_total
    rows.append([f"<b>{_e(translate('Report', 'Build, total'))}{mark}</b>",
                 f"<b>{_e(unknown if whole is None else fmt_money(whole, cur))}</b>"])
    out = [_table(rows, escape=False, num_cols={1}, widths=[70, 30])]
    from ..core.cost import break_even_line  # noqa: PLC0415 - only with a rent-or-build table

    note = break_even_line(rb)  # the Plans page's sentence (core.cost); none when owning never pays off
    if note is not None:
        out.append(f"<p>{_e(tr_text(note))}</p>")
    if rb.missing:
        # the inputs by their names on the Hardware page, never their keys (machine_price, …)
        names = {"machine_price": translate("Report", "purchase price per server"),
                 "power_kw_per_machine": translate("Report", "server power"),
                 "tariff_per_kwh": translate("Report", "electricity tariff"),
                 "colocation_per_machine_month": translate("Report", "rack / colocation"),
                 "ops_staff_per_month": translate("Report", "operations staff"),
                 "spare_rate_per_year": translate("Report", "spares")}
        out.append("<p>" + _e(translate("Report", "Not counted (no figure entered): {0}").format(
            format_list(names.get(k, k) for k in rb.missing))) + "</p>")
    return "".join(out)


def _table(rows: Iterable[Iterable[str]], header: Iterable[str] | None = None, widths: list[int] | None = None,
           num_cols: set[int] = frozenset(), escape: bool = True, width: str = "100%") -> str:
    out = [f'<table width="{width}" border="1" cellspacing="0" cellpadding="3" '
           'style="border-collapse: collapse; border-color: #999;">']
    if header is not None:
        out.append("<thead><tr>")
        for i, h in enumerate(header):
            w = f' width="{widths[i]}%"' if widths else ""
            out.append(f"<th{w}>{_e(h) if escape else h}</th>")
        out.append("</tr></thead>")
    out.append("<tbody>")
    for row in rows:
        out.append("<tr>")
        for i, c in enumerate(row):
            w = f' width="{widths[i]}%"' if (widths and header is None) else ""
            align = ' align="right"' if i in num_cols else ""
            out.append(f"<td{w}{align}>{_e(c) if escape else c}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _training_time_text(p) -> str:
    """The plan's calendar and compute time as the PDF's table writes them: in hours below a day, as the Project
    page and the app, else in days: one message in the unit of the plan's whole range (formatting.format_plan_time;
    ux21, ux22)."""
    h = format_number(p.gpu_hours, 0) if p.gpu_hours is not None else "—"
    c, d = ("—", "—") if p.calendar_days is None else format_plan_time(
        p.calendar_days, math.nan if p.compute_days is None else p.compute_days, p.calendar_days_band)[:2]
    return translate("Report", "{c} in calendar time with setup, checkpoints, interruptions and your hours per "
                               "week; {d} of compute around the clock ({h} card-hours)").format(c=c, d=d, h=h)


def _kv_table(pairs: list[tuple[str, str]]) -> str:
    """Key/value pairs in two column pairs (label, value, label, value) to save space."""
    rows = []
    half = (len(pairs) + 1) // 2
    left, right = pairs[:half], pairs[half:]
    for i in range(half):
        a = left[i]
        b = right[i] if i < len(right) else ("", "")
        rows.append([f'<span class="k">{_e(a[0])}</span>', _e(a[1]), f'<span class="k">{_e(b[0])}</span>', _e(b[1])])
    return _table(rows, widths=[18, 32, 18, 32], escape=False)


def _method_name(m: str) -> str:
    """The training method in words (the core's one list, :data:`core.frameworks.METHOD_WORDS`), translated."""
    from ..core.frameworks import CTX as FRAMEWORK_CTX, METHOD_WORDS  # noqa: PLC0415

    return translate(FRAMEWORK_CTX, METHOD_WORDS[m]) if m in METHOD_WORDS else m


def _optimizer_name(o: str) -> str:
    """The optimizer's display name (the scenario keeps its identifier)."""
    return {"adamw": "AdamW", "adamw_8bit": translate("Report", "AdamW 8-bit"), "sgd": "SGD",
            "adafactor": "Adafactor"}.get(o, str(o))


def _recompute_name(r: str, modules=None) -> str:
    """The activation-recompute policy's display name (the core's labels, ``recompute.RECOMPUTE_LABELS``); a
    policy without one reads with spaces, not ``_``. Megatron's selective recompute names the scenario's
    ``training.recompute_modules`` when it sets them (``recompute.label_msg``)."""
    from ..core.recompute import LABEL_CTX as _PLAN_CTX, RECOMPUTE_LABELS, label_msg  # noqa: PLC0415

    if r == "megatron_selective" and modules:
        return tr_text(label_msg(r, modules))
    if r in RECOMPUTE_LABELS:
        return QCoreApplication.translate(_PLAN_CTX, RECOMPUTE_LABELS[r])
    names = {"none": translate("Report", "none"), "selective": translate("Report", "selective (attention)"),
             "full": translate("Report", "full (every layer)")}
    return names.get(r, str(r).replace("_", " "))


def _recompute_phrase(r: str, modules=None) -> str:
    """"recompute full (every layer)"; the policy "none" by its own name ("no recompute"), never "recompute no
    recompute" (ux9)."""
    if r == "none":
        return _recompute_name(r)
    return translate("Report", "recompute {r}").format(r=_recompute_name(r, modules))


def _mode_name(mode: str | None) -> str:
    from ..core.cost import MODE_LABELS  # noqa: PLC0415 - only when costs exist

    if not mode:
        return "—"
    return QCoreApplication.translate("Cost", MODE_LABELS.get(mode, mode))


def _phase_name(p: str) -> str:
    return {"research": translate("Report", "research (start/stop sessions)"),
            "stable": translate("Report", "stable (continuous runs)"),
            "burst": translate("Report", "burst (short, large runs)")}.get(p, p)


def _layout_text(lay, modules=None) -> str:
    """The plan's :class:`core.evaluate.Layout` in one line (its fields, selected and formatted)."""
    parts = [f"TP {lay.tp}", f"PP {lay.pp}"]
    if lay.vpp > 1:
        parts[-1] += f" (VPP {lay.vpp})"
    if lay.cp > 1:
        parts.append(f"CP {lay.cp}")
    if lay.ep > 1:
        parts.append(f"EP {lay.ep}")
    parts.append(f"DP {lay.dp}")
    if lay.zero:
        parts.append(f"ZeRO-{lay.zero}")
    if lay.sequence_parallel:
        parts.append("SP")
    if lay.offload_optimizer:
        parts.append(translate("Report", "optimizer offload"))
    # the plan's own recompute policy, as the Plans page's layout line and the CLI's table name it
    parts.append(_recompute_phrase(lay.recompute, modules))
    parts.append(translate("Report", "micro-batch {mb} × {ga} accumulation").format(mb=lay.micro_batch_size,
                                                                                    ga=lay.grad_accum))
    if lay.pp > 1 and lay.pipeline_microbatch_size != lay.micro_batch_size:
        parts.append(translate("Report", "pipeline: {m} micro-batches of {n} per step").format(
            m=lay.pipeline_microbatches, n=lay.pipeline_microbatch_size))
    return format_list(parts)



def _subtitle(data: ReportData) -> str:
    if getattr(data, "serving_only", False):
        return translate("Report", "Serving plan and GPU rental requirements")
    return translate("Report", "Training plan and GPU rental requirements")


def _html_title(data: ReportData) -> str:
    loc = QLocale()
    date = loc.toString(data.date.astimezone().date(), QLocale.FormatType.LongFormat) if data.date else ""
    pairs = [(translate("Report", "Date"), date),
             (translate("Report", "Prepared by"), data.author or "—"),
             (translate("Report", "GPU Planner version"), data.app_version),
             (translate("Report", "Plan file"), data.source_file or "—")]
    out = [f"<h1>{_et(data.title)}</h1>",
           f'<p class="small">{_e(_subtitle(data))}</p>',
           _kv_table(pairs)]
    if data.notes:
        notes = data.notes[:NOTES_MAX_CHARS]
        cut = ""
        if len(data.notes) > NOTES_MAX_CHARS:
            more = translate("Report", "(The notes are cut here: {n} more characters are in the plan file.)")
            cut = f" <i>{_e(more.format(n=format_number(len(data.notes) - NOTES_MAX_CHARS, 0)))}</i>"
        # the language's colon after the label: "备注：", not "备注: " (cli18)
        out.append(f"<p><b>{_e(translate('Report', 'Notes') + colon().rstrip())}</b> {_et(notes)}{cut}</p>")
    if data.warnings:
        items = "".join(f"<li>{_e(tr_text(w))}</li>" for w in data.warnings)
        out.append(f'<table width="100%" cellpadding="4" border="1" cellspacing="0" style="border-collapse: collapse;">'
                   f'<tr><td class="box"><b>{_e(translate("Report", "Warnings"))}</b><ul>{items}</ul></td></tr></table>')
    return "".join(out)


def _html_task(data: ReportData) -> str:
    from ..core.frameworks import name_for  # noqa: PLC0415

    t = data.task
    a = t.arch
    arch = translate("Report", "{layers} layers, hidden {hidden}, {heads} heads ({kv} KV, {att}), {mlp} MLP {ffn}, "
                               "vocabulary {vocab}").format(
        layers=a["layers"], hidden=a["hidden"], heads=a["heads"], kv=a["kv_heads"], att=a["attention"],
        mlp=a["mlp"], ffn=a["ffn"], vocab=format_number(a["vocab"], 0))
    if t.is_moe:
        arch = format_clauses([arch, translate("Report", "MoE: {e} experts, {k} active per token").format(
            e=a["experts"], k=a["experts_per_tok"])])
    tr = t.training
    setup = translate("Report", "{method}, {prec}, {opt}, {fw}").format(
        method=_method_name(tr["method"]), prec=tr["precision"], opt=_optimizer_name(tr["optimizer"]),
        fw=name_for(tr["framework"], ""))
    if tr.get("lora_rank"):
        setup = format_phrases([setup, translate("Report", "rank {r}").format(r=tr["lora_rank"])])
    batch = plural_s(translate("Report", "sequence {s}, global batch {g} sequence(s), {rc}"), tr["global_batch"]).format(
        s=format_number(tr["seq_len"], 0), g=tr["global_batch"], rc=_recompute_phrase(tr["recompute"], tr.get("recompute_modules")))
    params = translate("Report", "{total} total, {active} active per token, {train} trained").format(
        total=format_params(t.params_total), active=format_params(t.params_active),
        train=format_params(t.params_trainable))
    compute = "—" if t.total_flops is None else translate("Report", "{f} ({fpt} per token)").format(
        f=format_flops(t.total_flops), fpt=format_flops(t.flops_per_token))
    deadline = translate("Report", "{d} days").format(d=format_typed_days(t.deadline_days)) if t.deadline_days else \
        translate("Report", "none set")
    budget = fmt_money(t.budget, t.currency) if t.budget else translate("Report", "none set")
    pattern = translate("Report", "{h} hours per week, {phase}").format(h=format_sig(t.hours_per_week),
                                                                        phase=_phase_name(t.phase))
    pairs = [
        (translate("Report", "Model"), t.model_name),
        (translate("Report", "Parameters"), params),
        (translate("Report", "Architecture"), arch),
        (translate("Report", "Scale tier"), translate("Report", "~{tier}").format(tier=t.tier)),
        (translate("Report", "Training"), setup),
        (translate("Report", "Batch"), batch),
        (translate("Report", "Data"), translate("Report", "{tokens} tokens").format(tokens=fmt_tokens(t.tokens))),
        (translate("Report", "Compute"), compute),
        (translate("Report", "Deadline"), deadline),
        (translate("Report", "Budget"), budget),
        (translate("Report", "Work pattern"), pattern),
        (translate("Report", "Goal"), {"cheapest": translate("Report", "cheapest"),
                                       "fastest": translate("Report", "fastest"),
                                       "value": translate("Report", "best value")}.get(t.objective, t.objective)),
    ]
    return (f"{_SPACER}<h2>1. {_e(translate('Report', 'The task'))}</h2>" + _kv_table(pairs)
            + f'<p class="small">{_e(tr_text(t.tier_guidance))}</p>')


def _memory_rows(p: PlanInfo) -> list[list[str]]:
    names = [("weights", translate("Report", "Weights")), ("gradients", translate("Report", "Gradients")),
             ("optimizer", translate("Report", "Optimizer states")),
             ("activations", translate("Report", "Activations")), ("other", translate("Report", "Other (CUDA context, buffers)"))]
    names += [(k, _sentence_case(n)) for k, n in _extra_names().items() if k in p.memory]
    rows = [[n, fmt_gib(p.memory.get(k))] for k, n in names]
    rows.append([f"<b>{_e(translate('Report', 'Total'))}</b>", f"<b>{fmt_gib(p.memory.get('total'))}</b>"])
    # the margin kept free on top of the estimate, and the sum the card is checked against (ux27: "Headroom kept
    # free 2.0" under "Total 69.4" beside "(10.6 GiB free)" read as two different free figures)
    rows.append([_e(translate("Report", "Kept free on top of the estimate")), fmt_gib(p.memory_headroom_gib)])
    rows.append([_e(translate("Report", "Total with what is kept free")),
                 fmt_gib(p.memory.get("total", 0.0) + p.memory_headroom_gib)])
    rows.append([_e(translate("Report", "Card memory")), fmt_gib(p.gpu_memory_gib)])
    return [[_e(r[0]) if not r[0].startswith("<") else r[0], r[1]] for r in rows]


# long: the recommendation section of the PDF as HTML, paragraph by paragraph in the printed order
def _html_plan(data: ReportData) -> str:
    from ..core.evaluate import band_name, cost_band_msg  # noqa: PLC0415

    p = data.plan
    cur = data.currency
    out = [f"{_SPACER}<h2>2. {_e(translate('Report', 'The recommendation'))}</h2>"]
    summary = plural_s(translate("Report", "Rent {n} × {gpu} ({nodes} node(s) of {per})."), p.nodes).format(
        n=p.num_gpus, gpu=_gpu(p.gpu_name), nodes=p.nodes, per=p.gpus_per_node)
    if not p.fits:
        # a plan that does not fit was "recommended" as "Rent 1 × H100 … Training takes about 4.2 calendar days and
        # costs about ¥70,000" under a warning that it does not fit (a scenario file with its own layout; ux20)
        summary = plural_s(translate("Report", "{n} × {gpu} ({nodes} node(s) of {per}) does not fit: {need} GiB per GPU "
                                               "on a card of {cap} GiB. Do not rent it; let the search choose the GPUs "
                                               "and the layout, or add GPUs."), p.nodes).format(
            n=p.num_gpus, gpu=_gpu(p.gpu_name), nodes=p.nodes, per=p.gpus_per_node,
            need=fmt_gib(p.memory.get("total")), cap=fmt_gib(p.gpu_memory_gib))
    elif p.calendar_days is not None:
        summary = format_sentences([summary, translate("Report", "Training takes about {d} in calendar time").format(
            d=format_plan_span(p.calendar_days, p.calendar_days_band)[0])])
        if p.cost is not None:  # zh: "…）。训练约需日历 1.5 天，费用约 …", no space before "，" or after "。" (ux13)
            summary = join_clause(summary, translate("Report", "and costs about {c} ({mode}).").format(
                c=fmt_money(p.cost, cur), mode=_mode_name(p.rental_mode)))
        else:
            summary += "."
    out.append(f"<p><b>{_e(summary)}</b></p>")
    if data.better_plan is not None:  # the search's best plan beats this layout by more than its tie (choice15)
        out.append(f"<p><b>{_e(tr_text(data.better_plan))}</b></p>")
    if p.calendar_days_band is not None and p.band:
        # in the unit of the plan's whole range, as its headline (formatting.format_plan_span; ux21, ux22)
        rng = translate("Report", "Likely range: {r}").format(r=format_plan_span(
            p.calendar_days if p.calendar_days is not None else p.calendar_days_band[1], p.calendar_days_band)[1])
        if p.cost_band is not None and p.fits:  # no price for a plan that does not fit (ux21)
            # one figure says why: whole machines by the month bill the same at both ends (evaluate.cost_band_msg; ux15)
            rng += translate("Report", ", {cost}").format(cost=tr_text(cost_band_msg(p.evaluation)))
        # the Evaluation's range: p10-p90 widened to hold the estimate (core/advisor.band_ends), so "at least 80%"
        what = translate("Report", "The range is the 10th to 90th percentile of the model's error on {n} published "
                                   "{family} training runs ({date}), widened where needed to hold the estimate "
                                   "itself: at least 80% of those runs took between its low and high end of what the "
                                   "model predicted. An untuned run, slow data loading or a different server can be "
                                   "slower still.").format(
            n=p.band.get("rows"), family=band_name(p.band, translate), date=p.band.get("source_date") or "")
        sentence = translate("Report", "{range}.").format(range=rng)  # (a Chinese sentence ends with 。)
        out.append(f"<p>{_e(sentence)}<br/><span class=\"small\">{_e(what)}</span></p>")
    interconnect = []
    if p.intra_node:
        link = translate("Report", "in node: {link}").format(link=link_display_name(p.intra_node))
        # the bandwidth said as what it is, joined in the language: "…(H800, NV8), 400 GB/s per GPU" — it was a
        # second bracket after the link's own, "(H800, NV8) (400 GB/s)" (ux24; the zh brackets and comma, ux14)
        interconnect.append(format_phrases([link, translate("Report", "{bw} GB/s per GPU").format(
            bw=format_number(p.intra_node_bw_gbs, 0))]) if p.intra_node_bw_gbs else link)
    if p.inter_node or p.nodes > 1:
        net = translate("Report", "between nodes: {net}").format(
            net=QCoreApplication.translate("catalog", p.inter_node) if p.inter_node else
            translate("Report", "InfiniBand or RoCE"))
        # the node's total said as one ("3,200 Gb/s" beside "NDR 400 Gb/s" read as a second link speed; the vendor
        # page says "at least 3,200 Gb/s per node"), joined in the language ("…Quantum-2）, 3,200" in zh; ux23)
        interconnect.append(format_phrases([net, translate("Report", "{bw} Gb/s per node").format(
            bw=format_number(p.inter_node_gbps_per_node, 0))]) if p.inter_node_gbps_per_node else net)
    pairs = [
        (translate("Report", "Plan"), gpu_display_name(p.label)),
        (translate("Report", "GPU"), format_phrases([_gpu(p.gpu_name), f"{fmt_gib(p.gpu_memory_gib)} GiB"])),
        (translate("Report", "GPUs and nodes"), english_plurals(translate("Report", "{n} GPU(s), {nodes} node(s) × {per}"),
                                                               {"n": p.num_gpus, "nodes": p.nodes}).format(
            n=p.num_gpus, nodes=p.nodes, per=p.gpus_per_node)),
        (translate("Report", "Interconnect"), format_clauses(interconnect) or translate("Report", "single GPU")),
        (translate("Report", "Parallel layout"), _layout_text(p.layout, data.task.training.get("recompute_modules"))),
        # over the card: "(61.6 GiB over the card)", not "(-61.6 GiB free)" (ux20)
        # the margin kept free said as the sum it is, as `estimate` and the Plans page say it (ux27)
        # (the sum in the one sentence every view says: core.messages.memory_sum_msg; ux28)
        (translate("Report", "Memory per GPU"), tr_text(memory_sum_msg(
            p.memory.get("total", 0.0), p.memory_headroom_gib, p.gpu_memory_gib))
         if p.gpu_memory_gib >= p.memory.get("total", 0.0) else
         translate("Report", "{m} GiB of {cap} GiB ({free} GiB over the card)").format(
            m=fmt_gib(p.memory.get("total")), cap=fmt_gib(p.gpu_memory_gib),
            free=fmt_gib(abs(p.gpu_memory_gib - p.memory.get("total", 0.0))))),
    ]
    if p.compute_days is not None:
        pairs += [
            (translate("Report", "Training time"), _training_time_text(p)),
            (translate("Report", "Step time, MFU"), _step_mfu_text(p)),
        ]
    if p.cost is not None:
        # a plan that does not fit has no price to show: the PDF tells not to rent it (ux21)
        pairs.append((translate("Report", "Cost"), f"{fmt_money(p.cost, cur)} — {_mode_name(p.rental_mode)}" if p.fits
                      else translate("Report", "No price: this layout does not fit in GPU memory, so it cannot be rented "
                                               "as it is.")))
    out.append(_kv_table(pairs))
    # memory breakdown + time shares side by side
    mem = _table(_memory_rows(p), header=[translate("Report", "Memory per GPU"), "GiB"], escape=False,
                 num_cols={1}, widths=[70, 30])
    if p.time_breakdown:
        names = {k: translate("Timing", v) for k, v in p.evaluation.time.breakdown_labels.items()}
        from ..formatting import breakdown_rows

        rows = [[names.get(k, k), pct] for k, pct in breakdown_rows(p.time_breakdown)]  # the CLI's rows too
        from ..core.timing import HIDDEN_LABELS
        from ..formatting import hidden_share_rows

        rows += [[translate("Report", "{part}, hidden under compute (not in the step)").format(
            part=translate("Timing", HIDDEN_LABELS[k])), pct] for k, pct in hidden_share_rows(p.time_hidden)]
        tshare = _table(rows, header=[translate("Report", "Step time"), translate("Report", "Share")],
                        num_cols={1}, widths=[70, 30])
    else:
        tshare = ""
    out.append(f'<table width="100%" cellspacing="0" cellpadding="0"><tr><td width="50%">{mem}</td>'
               f'<td width="4%"></td><td width="46%">{tshare}</td></tr></table>')
    if not p.fits:
        out.append(f"<p><b>{_e(translate('Report', 'This layout does not fit in GPU memory.'))}</b></p>")
    # cost by rental mode (none for a plan that does not fit: the headline says not to rent it; ux21)
    if p.mode_costs and p.fits:
        out.append(f"{_SPACER}<h3>{_e(translate('Report', 'Cost by rental mode'))}</h3>")
        rows = []
        for mode, c in sorted(p.mode_costs.items(), key=lambda kv: kv[1]):
            mark = " ◀ " + translate("Report", "recommended") if mode == p.rental_mode else ""
            rows.append([_e(_mode_name(mode)) + (f"<b>{_e(mark)}</b>" if mark else ""), fmt_money(c, cur)])
        out.append(_table(rows, header=[translate("Report", "Rental mode"), translate("Report", "Total cost")],
                          escape=False, num_cols={1}, widths=[70, 30]))
        if p.advice:
            out.append("<ul>" + "".join(f"<li>{_e(tr_text(a))}</li>" for a in p.advice) + "</ul>")
    elif p.fits:
        out.append(f'<p class="small">{_e(translate("Report", "No rental price for this card: enter a quote to see the cost."))}</p>')
    if p.explanation:
        out.append("<ul>" + "".join(f"<li>{_e(tr_text(a))}</li>" for a in p.explanation) + "</ul>")
    if p.rent_vs_build is not None and p.fits:
        out.append(f"{_SPACER}<h3>{_e(translate('Report', 'Rent or build'))}</h3><p>{_e(tr_text(p.rent_vs_build))}</p>")
        out.append(_rent_vs_build_table(p, cur))
    if p.rules:
        out.append(f"{_SPACER}<h3>{_e(translate('Report', 'Planning rules'))}</h3>")
        out.append(_rules_table(p))
    # alternatives
    out.append(f"{_SPACER}<h3>{_e(translate('Report', 'Alternatives considered'))}</h3>")
    if data.alternatives:
        rows = []
        for a in data.alternatives[:2]:
            why = "<br/>".join(_e(tr_text(w)) for w in a.why_lost) or "—"
            broken = [tr_text(name) for name, status, _m in a.rules if status == "failed"]
            if broken:
                why += "<br/><span style='color:#c62828'>" + _e(translate("Report", "Fails the rules: {0}").format(
                    format_list(broken))) + "</span>"
            rows.append([_e(gpu_display_name(a.label)) + f'<br/><span class="small">{_e(_layout_text(a.layout, data.task.training.get("recompute_modules")))}</span>',
                         # the plan's headline, word and all, as the app's and the CLI's tables (ux22)
                         _e("—" if a.calendar_days is None else format_plan_span(a.calendar_days, a.calendar_days_band)[0]),
                         _e(fmt_money(a.cost, cur)), why])
        out.append(_table(rows, header=[translate("Report", "Plan"), translate("Report", "Time"),
                                        translate("Report", "Cost"),
                                        translate("Report", "Compared with the chosen plan")],
                          escape=False, widths=[28, 10, 17, 45], num_cols={1, 2}))
    else:
        out.append(f'<p class="small">{_e(translate("Report", "No other plan met the constraints."))}</p>')
    if data.skipped:
        out.append(f"{_SPACER}<h3>{_e(translate('Report', 'Cards not ranked'))}</h3>")
        out.append(_table([[_e(_gpu(name)), _e(tr_text(why))] for name, why in data.skipped],
                          header=[translate("Report", "GPU"), translate("Report", "Why it is not ranked")],
                          escape=False, widths=[30, 70]))
    return "".join(out)


_RULE_STATUS = {
    "passed": QT_TRANSLATE_NOOP("Report", "passed"),
    "failed": QT_TRANSLATE_NOOP("Report", "failed"),
    "allowed": QT_TRANSLATE_NOOP("Report", "allowed (rule switched off)"),
    "not_applicable": QT_TRANSLATE_NOOP("Report", "not applicable"),
}


#: each rule verdict's mark in the PDF (× not ✗: the bundled font, the only one the PDF may use, has U+2713 ✓ and
#: U+00D7 ×, not U+2717; tests/test_report_marks.py)
RULE_MARKS = {"passed": "✓", "failed": "×", "allowed": "!", "not_applicable": "–"}


def _rules_table(p: PlanInfo) -> str:
    """Each planning rule's verdict for the plan (core.rules via the Evaluation): passed, failed, allowed."""
    rows = []
    for name, status, msg in p.rules:
        mark = RULE_MARKS.get(status, "–")
        colour = " style='color:#c62828'" if status == "failed" else ""
        rows.append([f"<span{colour}>{_e(mark + ' ' + tr_text(name))}</span>",
                     f"<span{colour}>{_e(translate('Report', _RULE_STATUS.get(status, status)))}</span>",
                     _e(tr_text(msg))])
    return _table(rows, header=[translate("Report", "Rule"), translate("Report", "Verdict"),
                                translate("Report", "Why")], escape=False, widths=[25, 15, 60])


def _html_charts(data: ReportData, charts: dict[str, str]) -> str:
    # no page of its own: the charts follow what comes before (a forced break left page 5 of the default plan with
    # five rows of "Cards not ranked" and nothing else; ux27); the heading keeps the first chart with it (paginate)
    out = [f"{_SPACER}<h2>3. {_e(translate('Report', 'Charts'))}</h2>"]
    captions = {
        "memory": translate("Report", "Memory per GPU: the parts of each plan's memory, and the card's capacity "
                                      "(dashed)."),
        "memory_count": translate("Report", "Memory per GPU against GPU count for this model and training method: "
                                            "the layout needing the least memory at each count, the plan's own "
                                            "layout, and the memory of each candidate card.") + (
            " " + format_clauses(translate("Report", "{g} GiB: {names}").format(g=format_number(cap, 0),
                                                                         names=format_list(names))
                            for cap, names in memory_count_groups(data)) + "." if data.memory_cards else ""),
        "scaling": translate("Report", "Scaling: training time with more or fewer GPUs of the chosen type "
                                       "(same layout, more data-parallel copies), against ideal linear scaling."),
        "cost": translate("Report", "Cost against time: each point is a plan at its cheapest rental mode; the "
                                    "filled square is the chosen plan."),
    }
    for key in ("memory", "memory_count", "scaling", "cost"):
        if key in charts:
            url, legend = charts[key]
            keys = "&nbsp;&nbsp;&nbsp; ".join(
                f'<img src="{u}" width="24" height="10"/>&nbsp;{_e(label)}' for label, u in legend)
            out.append(f'<p align="center"><img src="{url}" width="{CHART_WIDTH_PX}" height="{CHART_HEIGHT_PX}"/>'
                       f'<br/><span class="small">{keys}</span></p><p class="small">{_e(captions[key])}</p>')
    return "".join(out)


def _html_requirements(data: ReportData) -> str:
    r = data.requirements
    out = [f"{_SPACER}<h2>4. {_e(translate('Report', 'Requirements for the vendor'))}</h2><ul>"]
    out.append("<li>" + _e(plural_s(translate("Report", "GPU: {gpu}, at least {m} GiB of memory per GPU (this plan "
                                                       "needs {m} GiB including headroom); {n} GPU(s)."),
                                    data.plan.num_gpus).format(
        gpu=_gpu(data.plan.gpu_name), m=fmt_gib(r.min_memory_gib), n=data.plan.num_gpus)) + "</li>")
    for t in (r.intra_node, r.inter_node, r.host_ram):
        if t is not None:
            out.append(f"<li>{_e(tr_text(t))}</li>")
    for t in r.storage:
        out.append(f"<li>{_e(tr_text(t))}</li>")
    out.append("</ul>")
    out.append(f"{_SPACER}<h3>{_e(translate('Report', 'Vendor checklist'))}</h3>")
    if data.checklist:
        rows = []
        for c in data.checklist:
            box = f'<img src="mem://box-{"on" if c.checked else "off"}.png" width="11" height="11"/>'
            label = _e(tr_text(c.label))
            if c.detail is not None:
                label += f'<br/><span class="small">{_e(tr_text(c.detail))}</span>'
            # the box sits in the label's first line, so a page break cannot separate them
            rows.append([f"{box}&nbsp;&nbsp;{label}", _et(c.note[:NOTES_MAX_CHARS]) if c.note else ""])
        out.append(_table(rows, header=[translate("Report", "Check"), translate("Report", "Notes")],
                          escape=False, widths=[64, 36]))
    else:
        out.append(f'<p class="small">{_e(translate("Report", "No checklist items."))}</p>')
    return "".join(out)


def _html_assumptions(data: ReportData) -> str:
    out = [f"{_SPACER}<h2>5. {_e(translate('Report', 'Assumptions and sources'))}</h2>"]
    rows = [[tr_text(s.what), s.value, _source_text(s.source) if s.source else "", s.date]
            for s in data.assumptions]
    if rows:
        out.append(_table(rows, header=[translate("Report", "Assumption"), translate("Report", "Value"),
                                        translate("Report", "Source"), translate("Report", "Date")],
                          widths=[22, 14, 48, 16]))
    p = data.plan
    price = p.evaluation.price  # the price the costs use (core.cost.GpuPrice)
    if price is not None and price.source:
        out.append(f'<p class="small">{_e(_close_paren_space(translate("Report", "Price used for {gpu}: {src} ({date}){default}.").format(gpu=_gpu(p.gpu_name), src=_source_text(price.source, "Cost"), date=price.source_date or "—", default=(" — " + translate("Report", "a shipped default; replace it with your quote")) if price.is_default else "")))}</p>')
    out.append(f"{_SPACER}<h3>{_e(translate('Report', 'Formulas'))}</h3><ul>")
    out.extend(f'<li class="small">{_e(tr_text(f))}</li>' for f in data.formulas)
    out.append("</ul>")
    out.append(f'<p class="small">{_e(translate("Report", "Estimates from GPU Planner {v}. Measure on the rented machines before committing (nvidia-smi topo -m, nccl-tests all_reduce_perf, a short training run).").format(v=data.app_version))}</p>')
    return "".join(out)


def _step_mfu_text(p) -> str:
    """The plan's step time and MFU, with the MFU's note in brackets, punctuated the language's way."""
    mfu = fmt_pct(p.mfu)
    train = p.evaluation.rl_training_mfu
    if train is not None:  # RL: the rules grade the training passes; their figure beside the step's, as the Plans
        # page and `plan` write it ("5.1%" here beside "Estimated MFU 27%" in the rules table, unexplained; ux23)
        mfu = join_clause(mfu, paren(translate("Report", "training passes {m}").format(m=format_mfu(train))))
    text = mfu if p.step_time_s is None else format_phrases([f"{format_number(p.step_time_s, 2)} s", mfu])
    return text if p.mfu_note is None else join_clause(text, paren(tr_text(p.mfu_note)))


def _serving_detail(d: dict, cur: str) -> str:
    """A serving phase's line in the project table: the figures of its ServingSize (report.content)."""
    extra = plural_s(translate("Report", "TP {tp} × {r} replica(s), {b} users each, {tps} tokens/s per GPU ({p})"),
                     d["replicas"]).format(
        tp=d["tp"], r=d["replicas"], b=d["batch"], tps=format_number(d["tps"], 0), p=d["precision"])
    if d.get("per_m") is not None:
        extra = format_clauses([extra, translate("Report", "{price} per million tokens").format(
            price=fmt_price(d["per_m"], cur))])
    for line in d.get("lines", ()):  # the CLI's and the Project page's sentences (core.serving_facts.serving_lines)
        extra = format_clauses([extra, tr_text(line)])
    return extra


def _elapsed_header(unit: str) -> str:
    """A column of spans' header in its unit (formatting.elapsed_unit: hours, days or weeks; ux15)."""
    return {"hours": translate("Report", "Hours"), "days": translate("Report", "Days")}.get(unit) or translate(
        "Report", "Weeks")


def _phase_spans(proj) -> tuple[str, list[str]]:
    """The phases' spans and the total's end in one unit, the longest's, as the Project page and ``gpuplanner
    project`` write them ("0–3.9" hours for a job of a few hours, not "0–0.0228571" weeks; ux15): (the column's
    header, [start, end of each phase …, the total's end])."""
    unit, spans = phase_spans(proj.phases, proj.total_weeks)
    return _elapsed_header(unit), spans


def _whatif_days(what_if, unit: str) -> tuple[str, list[str]]:
    """The what-if rows' calendar days in ``unit``, the phases' (the project's scale: hours beside a project read
    in hours, not days because one row passes a day; ux27)."""
    known = [w["calendar_days"] for w in what_if if w["calendar_days"] is not None]
    nums = iter(elapsed_numbers(known, unit))
    return _elapsed_header(unit), ["—" if w["calendar_days"] is None else next(nums) for w in what_if]


def _html_project(data: ReportData, charts: dict, number: str = "6") -> str:
    """6. The project: phases in a table, the timeline, totals by rental mode, week by week, overlap advice,
    rent vs build over the project and the what-if table of the main training phase."""
    proj = data.project
    if proj is None:
        return ""
    cur = proj.currency
    brk = " style='page-break-before: always'" if number != "1" else ""  # a serving-only report leads with it
    out = [f"<h2{brk}>{number}. {_e(translate('Report', 'Project: phases, timeline and growth'))}</h2>"]
    rows, (span_header, spans) = [], _phase_spans(proj)
    for i, ph in enumerate(proj.phases):
        what = (f"{ph.count} × {_gpu(ph.device_name)}" if ph.resource == "gpu"
                else plural_s(translate("Report", "{nodes} node(s), {n} CPU cores"), ph.nodes).format(nodes=ph.nodes, n=ph.count))
        d = ph.detail
        if d.get("what") == "serving":
            extra = _serving_detail(d, cur)
        elif d.get("what") == "cpu":
            extra = translate("Report", "{gb} GB of text, {h} core-hours").format(gb=format_number(d["gb"], 0),
                                                                                   h=format_number(d["core_hours"], 0))
        elif d.get("what") == "training":
            extra = translate("Report", "{model}, {tokens} tokens, {days} days").format(
                model=d["model"], tokens=fmt_tokens(d["tokens"]), days=fmt_days(d["days"]))
        else:
            extra = ""
        rows.append([f"<b>{_e(ph.name)}</b><br/><span class='small'>{_e(_kind_name(ph.kind))}</span>",
                     f"{spans[2 * i]}–{spans[2 * i + 1]}", format_sig(ph.hours_per_week, 6),
                     f"{_e(what)}<br/><span class='small'>{_e(extra)}</span>", _e(_cpu_or_gpu_mode(ph.rental_mode)),
                     _e(fmt_money(ph.cost, cur))])
    rows.append([f"<b>{_e(translate('Report', 'Total'))}</b>", f"0–{spans[-1]}", "", "", "",
                 f"<b>{_e(fmt_money(proj.total_cost, cur))}</b>"])
    out.append(_table(rows, header=[translate("Report", "Phase"), span_header,
                                    translate("Report", "h/week"), translate("Report", "Resources"),
                                    translate("Report", "Rental"), translate("Report", "Cost")],
                      escape=False, widths=[18, 8, 9, 37, 14, 14], num_cols={5}))
    out.append(_html_project_budget(proj))
    if "timeline" in charts:
        url, legend = charts["timeline"]
        h = charts["timeline_height"]
        keys = "&nbsp;&nbsp;&nbsp; ".join(f'<img src="{u}" width="24" height="10"/>&nbsp;{_e(label)}' for label, u in legend)
        out.append(f'<p align="center"><img src="{url}" width="{CHART_WIDTH_PX}" height="{h}"/>'
                   f'<br/><span class="small">{keys}</span></p>')
        out.append(f'<p class="small">{_e(translate("Report", "Timeline: each phase by week with its GPUs or CPU cores and its cost."))}</p>')
    if proj.by_mode:
        out.append(f'<p>{_e(translate("Report", "By rental mode") + colon())}' + _e(format_list(
            f"{_cpu_or_gpu_mode(m)} {fmt_money(v, cur)}" for m, v in proj.by_mode.items())) + "</p>")
    weekly = [[format_number(w["week"]), format_number(w["gpus"]), format_number(w["cpu_cores"]), fmt_money(w["cost"], cur)]
              for w in proj.weekly]
    if weekly:
        out.append(f"{_SPACER}<h3>{_e(translate('Report', 'Week by week'))}</h3>")
        out.append(_table(weekly, header=[translate("Report", "Week"), translate("Report", "GPUs"),
                                          translate("Report", "CPU cores"), translate("Report", "Cost")],
                          widths=[15, 20, 25, 40], num_cols={1, 2, 3}, width="60%"))
    notes = list(proj.overlap_advice) + ([proj.rent_vs_build] if proj.rent_vs_build is not None else [])
    notes += proj.messages
    if notes:
        out.append("<ul>" + "".join(f"<li>{_e(tr_text(m))}</li>" for m in notes) + "</ul>")
    if proj.what_if:
        out.append(f"{_SPACER}<h3>{_e(translate('Report', 'What if the work grows ({phase})').format(phase=proj.main_phase or ''))}</h3>")
        names = {"params_x2": translate("Report", "2× parameters"), "tokens_x10": translate("Report", "10× data"),
                 "upgrade_gpus": translate("Report", "next GPU count")}
        yes, no = translate("Report", "yes"), translate("Report", "no")
        wrows, (days_header, days) = [], _whatif_days(proj.what_if, phase_spans(proj.phases, proj.total_weeks)[0])
        for w, w_days in zip(proj.what_if, days):
            from ..core.project import layout_change_text  # noqa: PLC0415 - only with a project

            change = format_list(layout_change_text(c, translate) for c in w["layout_changes"]) or "—"
            note = format_sentences([tr_text(m) for m in [w["note"], *w.get("replans", ())] if m is not None])
            wrows.append([_e(names.get(w["change"], w["change"])), _e(yes if w["fits"] else no),
                          _e(w_days), _e(fmt_money(w["cost"], cur) if w["fits"] else "—"),
                          _e(str(w["gpus_needed"] or w["num_gpus"])), _e(yes if w["in_place_upgrade"] else no),
                          f"{_e(change)}<br/><span class='small'>{_e(note)}</span>"])
        out.append(_table(wrows, header=[translate("Report", "Change"), translate("Report", "Fits"),
                                         days_header, translate("Report", "Cost"),
                                         translate("Report", "GPUs"), translate("Report", "In place"),
                                         translate("Report", "Layout changes")],
                          escape=False, widths=[14, 7, 8, 13, 7, 9, 42], num_cols={2, 3, 4}))
    return "".join(out)


def _html_project_budget(proj) -> str:
    """The project's total against its budget at the likely range's far end, each phase, the phase to cut
    (core.project.ProjectBudget.lines, as the ``project`` command and the Project page print them); red when over."""
    if not proj.budget:
        return ""
    colour = "#b00020" if proj.over_budget else "#1b5e20"
    first, rest = proj.budget[0], proj.budget[1:]
    return (f'<p style="color: {colour}"><b>{_e(tr_text(first))}</b></p>'
            + ("<ul>" + "".join(f"<li>{_e(tr_text(m))}</li>" for m in rest) + "</ul>" if rest else ""))


def _cpu_or_gpu_mode(mode: str | None) -> str:
    if mode == "core_hour":
        return translate("Report", "per core-hour")
    if mode == "node_month":
        return translate("Report", "nodes per month")
    return _mode_name(mode)


def build_html(data: ReportData, charts: dict[str, str]) -> str:
    if getattr(data, "serving_only", False) and data.project is not None:
        # issue 35 r18 (serve18): a serving-only document (the Answer's ``serving_only``) leads with its service; the
        # file's placeholder training plan (a plan file needs a training scenario) is not part of the request
        return ("<html><head><meta charset='utf-8'/></head><body>" + _html_title(data)
                + _html_project(data, charts, number="1") + _html_quotes(data, number="2") + "</body></html>")
    return ("<html><head><meta charset='utf-8'/></head><body>" + _html_title(data) + _html_task(data)
            + _html_plan(data) + _html_charts(data, charts) + _html_requirements(data) + _html_assumptions(data)
            + _html_project(data, charts) + _html_quotes(data) + "</body></html>")


def _html_quotes(data: ReportData, number: str | None = None) -> str:
    """The vendors' quotes compared for the plan (report/quotes_section.py), when the plan file holds quotes."""
    if getattr(data, "quotes", None) is None:
        return ""
    from .quotes_section import html_section

    number = number or ("7" if data.project is not None else "6")
    return html_section(data.quotes, number=number, translate=translate,
                        msg=tr_text, project=getattr(data, "quotes_project", None))


def build_document(data: ReportData, *, lang: str | None = None) -> QTextDocument:
    """The report as a QTextDocument (charts embedded as ``mem://`` image resources).

    The page size is left unset: ``print_`` lays it out for the printer's page (notes §C3 pitfall).
    """
    ensure_app()
    doc = QTextDocument()
    doc.setDefaultStyleSheet(_CSS)
    font = QFont()
    font.setFamilies(report_families(lang))
    font.setPointSizeF(9.5)
    doc.setDefaultFont(font)
    embedded: dict[str, tuple[str, list[tuple[str, str]]]] = {}
    placed: dict[str, Chart] = {}
    for key, draw in CHART_DRAWERS:
        drawn = draw(data)
        if drawn is None:
            continue
        chart, legend = drawn
        url = f"mem://chart-{key}.png"
        # a blank holds the chart's place in the layout; print_to draws the chart over it as vector graphics
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(url), _blank_image())
        placed[url] = chart
        keys = []
        for i, (label, sw) in enumerate(legend):
            u = f"mem://key-{key}-{i}.png"
            doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(u), sw)
            keys.append((label, u))
        embedded[key] = (url, keys)
        if key == "timeline":
            embedded["timeline_height"] = round(chart.height)
    doc._report_charts = placed  # noqa: SLF001 - read by chart_rects when printing
    for on in (True, False):
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(f"mem://box-{'on' if on else 'off'}.png"),
                        _checkbox_image(on))
    doc.setHtml(build_html(data, embedded))
    doc.setMetaInformation(QTextDocument.MetaInformation.DocumentTitle, data.title)
    return doc


def _blank_image() -> QImage:
    img = QImage(1, 1, QImage.Format.Format_RGB32)
    img.fill(QColor("white"))
    return img


def chart_rects(doc: QTextDocument) -> list[tuple[QRectF, Chart]]:
    """Where each chart's place-holding image lies in the laid-out ``doc`` (layout pixels)."""
    placed = getattr(doc, "_report_charts", None) or {}
    out: list[tuple[QRectF, Chart]] = []
    block = doc.begin()
    while placed and block.isValid():
        text = block.text()
        i = text.find("\ufffc")
        while i >= 0:
            found = _placeholder(doc, block, i, placed)
            if found is not None:
                out.append(found)
            i = text.find("\ufffc", i + 1)
        block = block.next()
    return out


def _placeholder(doc: QTextDocument, block, i: int, placed: dict) -> tuple[QRectF, Chart] | None:
    """The chart whose image is character ``i`` of ``block``, and its box: the image's line in the block's
    layout, its x on that line, its bottom on the line's baseline (Qt aligns inline images there)."""
    from PySide6.QtGui import QTextCursor

    cur = QTextCursor(doc)
    cur.setPosition(block.position() + i + 1)  # the format of the character before the cursor
    fmt = cur.charFormat()
    if not fmt.isImageFormat():
        return None
    img = fmt.toImageFormat()
    chart = placed.get(img.name())
    lay = block.layout()
    line = lay.lineForTextPosition(i)
    if chart is None or not line.isValid():  # not laid out (never after paginate): nowhere to draw it
        return None
    x = line.cursorToX(i)
    x = x[0] if isinstance(x, tuple) else x
    origin = lay.position()
    return QRectF(origin.x() + x, origin.y() + line.y() + line.ascent() - img.height(), img.width(),
                  img.height()), chart


# ---------------------------------------------------------------------------------------- printing

def page_layout(paper: str = "a4") -> QPageLayout:
    key = str(paper).lower()
    if key not in PAPERS:
        from ..core.errors import PlannerError

        raise PlannerError(f"unknown paper size '{paper}'; use a4 or letter")
    return QPageLayout(QPageSize(PAPERS[key]), QPageLayout.Orientation.Portrait,
                       QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM), QPageLayout.Unit.Millimeter)


def _source_dpi() -> float:
    """Logical DPI the document is laid out in (Qt's default: the primary screen's, 96 offscreen)."""
    from PySide6.QtGui import QGuiApplication

    screen = QGuiApplication.primaryScreen()
    return float(screen.logicalDotsPerInchY()) if screen is not None else 96.0


#: seconds the keep-together moves of :func:`paginate` may take in all. Each move lays the rest of the document out
#: again (~0.7 s for 120 pages); a plan file with 200 vendors' quotes held the report 73 s in its 40 moves
#: (probe15). A report of the app's own plans takes well under a second; past the budget the pages stay as laid
#: out (a heading may end a page), and nothing is lost.
PAGINATE_BUDGET_S = 5.0


def paginate(doc: QTextDocument, layout: QPageLayout) -> tuple[float, float]:
    """Lay ``doc`` out in pages of the layout's printable area (in the document's own pixels, not device
    pixels: notes §C3) and move headings that would end a page to the next one ("keep with next").

    Returns (page width, page height) in layout pixels; the last :data:`FOOTER_PX` of each printed page
    are left for the page number.
    """
    from PySide6.QtCore import QSizeF

    dpi = _source_dpi()
    rect = layout.paintRect(QPageLayout.Unit.Inch)
    w, h = rect.width() * dpi, rect.height() * dpi - FOOTER_PX
    doc.setDocumentMargin(0)
    doc.setPageSize(QSizeF(w, h))
    keep = 90.0  # a heading needs this much room under it on its page
    t0 = time.monotonic()
    _keep_together(doc, h, keep, t0)
    # a heading moved to the next page early, before what stands above it moved down, may fit where it was after
    # all: it goes back and the moves run again (ux27: "3. Charts" opened page 6 under a page 5 of five table rows)
    for _ in range(8):  # each break is taken back once at most (_TAKEN_BACK)
        back = _stale_heading_break(doc, h, keep)
        if back is None:
            break
        _relayout(doc, back)
        _keep_together(doc, h, keep, t0)
    for _ in range(40):  # a paragraph over several pages is cut once per round
        moved = _split_blocks_at_page_breaks(doc, h)
        if moved is None:
            break
        _relayout(doc, moved)
    doc.pageCount()  # the layout finished (after the last change it is complete already)
    return w, h


#: a block-format property: the page break before this heading was set by :func:`paginate` (not by the HTML)
_MOVED_BY_PAGINATE = 0x100000 + 27
#: a block-format property: :func:`_stale_heading_break` took this block's break back once already
_TAKEN_BACK = 0x100000 + 28


def _keep_together(doc: QTextDocument, h: float, keep: float, t0: float) -> None:
    """The keep-with-next and keep-together moves, one at a time, each followed by a new layout, until none is
    left (or the time budget is spent)."""
    from PySide6.QtGui import QTextBlockFormat, QTextCursor

    lay = doc.documentLayout()
    for _ in range(40):
        if time.monotonic() - t0 > PAGINATE_BUDGET_S:
            break  # the pages are laid out already; what is left are the keep-together moves
        moved = None  # the position from which the layout changes
        block = doc.begin()
        while block.isValid():
            fmt = block.blockFormat()
            if fmt.headingLevel() > 0 and fmt.pageBreakPolicy() == QTextBlockFormat.PageBreakFlag.PageBreak_Auto:
                r = lay.blockBoundingRect(block)
                page_end = (math.floor(r.top() / h) + 1) * h
                if r.top() % h > 1 and r.bottom() + max(keep, _first_line_height(block.next())) > page_end:
                    f = QTextBlockFormat(fmt)
                    f.setPageBreakPolicy(QTextBlockFormat.PageBreakFlag.PageBreak_AlwaysBefore)
                    f.setProperty(_MOVED_BY_PAGINATE, True)
                    QTextCursor(block).setBlockFormat(f)
                    moved = block.position()
                    break  # relayout, then look again
            block = block.next()
        for step in (_keep_small_tables_together, _keep_short_paragraphs_together, _keep_charts_with_legends,
                     _keep_list_ends_together, _keep_table_rows_together):
            if moved is None:
                moved = step(doc, h)
        if moved is None:
            break
        _relayout(doc, moved)


def _stale_heading_break(doc: QTextDocument, h: float, keep: float) -> int | None:
    """The first heading :func:`_keep_together` moved to a new page that now fits, with the first line under it,
    at the end of the page before (what stood above it has moved down since): its break is taken back. Returns
    its position (None: none)."""
    from PySide6.QtGui import QTextBlockFormat, QTextCursor

    lay = doc.documentLayout()
    block = doc.begin()
    while block.isValid():
        fmt = block.blockFormat()
        prev = block.previous()
        if fmt.boolProperty(_MOVED_BY_PAGINATE) and not fmt.boolProperty(_TAKEN_BACK) and prev.isValid():
            table = QTextCursor(prev).currentTable()
            above = (lay.frameBoundingRect(_outermost(table)).bottom() if table is not None
                     else lay.blockBoundingRect(prev).bottom())
            r = lay.blockBoundingRect(block)
            page = math.floor((r.top() + 0.5) / h)
            # a heading keeps room for what follows; a list's last but one item (_keep_list_ends_together), the
            # last item (pdf17: "Formulas" with three of its five items over a blank page, two on the next)
            need = r.height() + (max(keep, _first_line_height(block.next())) if fmt.headingLevel() > 0
                                 else lay.blockBoundingRect(block.next()).height())
            if page >= 1 and (page - 1) * h < above and above + need <= page * h:
                f = QTextBlockFormat(fmt)
                f.setPageBreakPolicy(QTextBlockFormat.PageBreakFlag.PageBreak_Auto)
                f.clearProperty(_MOVED_BY_PAGINATE)
                # once: a break _keep_together sets again is kept (the four rounds went to one heading moved and
                # taken back in turn, and a list item's stale break further on stayed: pdf17)
                f.setProperty(_TAKEN_BACK, True)
                QTextCursor(block).setBlockFormat(f)
                return max(0, block.position() - 1)
        block = block.next()
    return None


def _outermost(frame):
    """The frame under the document's root frame that holds ``frame`` (a table inside a table's cell: the outer)."""
    while frame.parentFrame() is not None and frame.parentFrame().parentFrame() is not None:
        frame = frame.parentFrame()
    return frame


def _page_of(y: float, h: float) -> int:
    """The page a line starting at ``y`` is printed on. Qt puts a line it moves to the next page a fraction of a
    pixel above the page's top (positions are 1/64 px fixed point): half a pixel of slack."""
    return math.floor((y + 0.5) / h)


def _split_blocks_at_page_breaks(doc: QTextDocument, h: float) -> int | None:
    """Cut every paragraph (top level, list item or table cell) whose lines a page break parts into two
    paragraphs at the first line of the new page. Qt's QTextLayout::draw also draws the line just above its clip
    rectangle (qtbase src/gui/text/qtextlayout.cpp, ``firstLine = i`` for a line wholly above the clip): the
    last line before the break was painted on the next page too, hidden by the clip but in the PDF's text layer
    twice. A paragraph of its own has no line above the page. The second part keeps the first part's indent
    (a list item's continuation has no bullet) and nothing moves: its first line is where Qt put it already.
    Returns the position of the first cut (None: none)."""
    lay = doc.documentLayout()
    cuts = []
    block = doc.begin()
    while block.isValid():
        layout, top = block.layout(), lay.blockBoundingRect(block).top()
        for i in range(1, layout.lineCount()):
            line, prev = layout.lineAt(i), layout.lineAt(i - 1)
            if line.textLength() == 0:
                continue  # the empty line after a block's last line break: cut there, it came back each round (pdf17)
            if _page_of(top + line.y(), h) != _page_of(top + prev.y(), h):
                cuts.append((block.position() + line.textStart(), block))
                break  # a block longer than a page is cut again in the next round
        block = block.next()
    if not cuts:
        return None
    for pos, block in reversed(cuts):  # from the end: earlier positions stay valid
        _cut_block(doc, block, pos)
    return cuts[0][0]


def _cut_block(doc: QTextDocument, block, pos: int) -> None:
    """Start a new paragraph at ``pos`` inside ``block``: same format with no top margin and no first-line
    indent, the first part with no bottom margin; out of the block's list, indented as its items."""
    from PySide6.QtGui import QTextBlockFormat, QTextCursor

    fmt = QTextBlockFormat(block.blockFormat())
    lst = block.textList()
    cur = QTextCursor(doc)
    cur.setPosition(pos)
    char_fmt = cur.charFormat()
    if pos > block.position() and doc.characterAt(pos - 1) == "\u2028":
        # a line break (<br/>) ends the first part: the paragraph break takes its place, or the first part would
        # end in an empty line on the next page, cut again in the next round (pdf17: a chart's legend under 40 of
        # them, two thirds of a page down)
        cur.setPosition(pos - 1, QTextCursor.MoveMode.KeepAnchor)
    cur.insertBlock(fmt, char_fmt)
    head = QTextBlockFormat(fmt)
    head.setBottomMargin(0)
    QTextCursor(block).setBlockFormat(head)
    tail_block = cur.block()
    if lst is not None:
        lst.remove(tail_block)
    tail = QTextBlockFormat(fmt)
    tail.setTopMargin(0)
    tail.setTextIndent(0)
    if lst is not None:
        tail.setIndent(fmt.indent() + lst.format().indent())
        tail.setObjectIndex(-1)
    tail.setPageBreakPolicy(QTextBlockFormat.PageBreakFlag.PageBreak_Auto)
    QTextCursor(tail_block).setBlockFormat(tail)


def _first_line_height(block) -> float:
    """The height of ``block``'s first line (0 without one): what a heading keeps on its page with it — a chart's
    image is one line that does not split, so "3. Charts" never ends a page above a blank rest (ux27)."""
    if not block.isValid() or block.layout() is None or block.layout().lineCount() == 0:
        return 0.0
    return float(block.layout().lineAt(0).height())


def _relayout(doc: QTextDocument, start: int = 0) -> None:
    """Lay the document out again from position ``start`` (where a format changed) to its end (Qt re-lays
    out lazily and can leave blocks after a changed one with an empty layout). What comes before ``start``
    keeps its layout: a page-break policy moves only what follows it."""
    start = max(0, min(int(start), doc.characterCount() - 1))
    doc.markContentsDirty(start, doc.characterCount() - start)
    doc.pageCount()  # forces the layout to finish


def _keep_short_paragraphs_together(doc: QTextDocument, h: float) -> int | None:
    """A top-level paragraph of a few lines that a page break would split moves whole to the next page.
    Returns the position from which the layout changed (None: nothing moved)."""
    from PySide6.QtGui import QTextBlockFormat, QTextCursor

    lay = doc.documentLayout()
    block = doc.begin()
    while block.isValid():
        if QTextCursor(block).currentTable() is None:  # cells lay out inside their table
            r = lay.blockBoundingRect(block)
            fmt = block.blockFormat()
            if (0 < r.height() < 70 and math.floor(r.top() / h) != math.floor((r.bottom() - 1) / h)
                    and block.layout().lineCount() > 1
                    and fmt.pageBreakPolicy() == QTextBlockFormat.PageBreakFlag.PageBreak_Auto):
                pos = _move_heading_above(doc, block.previous(), h)
                if pos is not None:  # keep with next: the heading goes to the next page with its paragraph
                    return pos
                f = QTextBlockFormat(fmt)
                f.setPageBreakPolicy(QTextBlockFormat.PageBreakFlag.PageBreak_AlwaysBefore)
                QTextCursor(block).setBlockFormat(f)
                return block.position()
        block = block.next()
    return None


def _keep_charts_with_legends(doc: QTextDocument, h: float) -> int | None:
    """A chart's paragraph (its image, a line break, its legend) whose legend a page break would send to the next
    page moves whole to that page (with the heading above it, if any). Cut there, Qt left the legend under most of
    a blank page (pdf17: the Chinese GRPO example's page 6 held the scaling chart's legend and caption, nothing
    else; the chart drawn on page 5). Returns the position from which the layout changed (None: nothing moved)."""
    from PySide6.QtGui import QTextBlockFormat, QTextCursor

    lay = doc.documentLayout()
    block = doc.begin()
    while block.isValid():
        layout = block.layout()
        if (block.text().startswith("\ufffc") and layout is not None and layout.lineCount() > 1
                and layout.lineAt(0).height() >= 70 and QTextCursor(block).currentTable() is None):
            top = lay.blockBoundingRect(block).top()
            last = layout.lineAt(layout.lineCount() - 1)
            fmt = block.blockFormat()
            if (_page_of(top + layout.lineAt(0).y(), h) != _page_of(top + last.y(), h)
                    and fmt.pageBreakPolicy() == QTextBlockFormat.PageBreakFlag.PageBreak_Auto):
                pos = _move_heading_above(doc, block.previous(), h)
                if pos is not None:
                    return pos
                f = QTextBlockFormat(fmt)
                f.setPageBreakPolicy(QTextBlockFormat.PageBreakFlag.PageBreak_AlwaysBefore)
                QTextCursor(block).setBlockFormat(f)
                return block.position()
        block = block.next()
    return None


def _move_heading_above(doc: QTextDocument, prev, h: float) -> int | None:
    """Keep with next: when what follows heading ``prev`` moves to the next page, the heading goes with it (a
    heading never ends a page alone, as in word processors' "keep with next"). Moves ``prev`` when it is a heading
    that does not start its page already and has no page break of its own; returns its position (None: no such
    heading, the caller moves its own block)."""
    from PySide6.QtGui import QTextBlockFormat, QTextCursor

    if not prev.isValid() or prev.blockFormat().headingLevel() <= 0:
        return None
    fmt = prev.blockFormat()
    top = doc.documentLayout().blockBoundingRect(prev).top()
    if fmt.pageBreakPolicy() != QTextBlockFormat.PageBreakFlag.PageBreak_Auto or top % h <= 1:
        return None
    f = QTextBlockFormat(fmt)
    f.setPageBreakPolicy(QTextBlockFormat.PageBreakFlag.PageBreak_AlwaysBefore)
    QTextCursor(prev).setBlockFormat(f)
    return prev.position()


def _keep_list_ends_together(doc: QTextDocument, h: float) -> int | None:
    """A list's last item never opens a page alone (the vendor requirements' "Model weights in 16 bit…" at the top
    of the checklist's page): the item before it goes to the next page with it. Returns the position from which
    the layout changed (None: nothing moved)."""
    from PySide6.QtGui import QTextBlockFormat, QTextCursor

    lay = doc.documentLayout()
    block = doc.begin()
    while block.isValid():
        lst, nxt = block.textList(), block.next()
        last = lst is not None and (not nxt.isValid() or nxt.textList() != lst)
        if last and lst.count() > 2 and lst.itemNumber(block) == lst.count() - 1 \
                and QTextCursor(block).currentTable() is None:
            prev = lst.item(lst.count() - 2)
            top = lay.blockBoundingRect(block).top() + block.layout().lineAt(0).y()  # the line Qt moved down
            fmt = prev.blockFormat()
            if math.floor((top + 1) / h) > math.floor(lay.blockBoundingRect(prev).top() / h) \
                    and fmt.pageBreakPolicy() == QTextBlockFormat.PageBreakFlag.PageBreak_Auto:
                f = QTextBlockFormat(fmt)
                f.setPageBreakPolicy(QTextBlockFormat.PageBreakFlag.PageBreak_AlwaysBefore)
                f.setProperty(_MOVED_BY_PAGINATE, True)  # taken back if it fits where it was after all (pdf17)
                QTextCursor(prev).setBlockFormat(f)
                return prev.position()
        block = nxt
    return None


def table_row_spans(doc: QTextDocument, table) -> list[tuple[float, float]]:
    """Each row's (top, bottom) in document pixels: from the first to the last line of its cells' text (a cell
    spanning rows counts in its first row; a table inside a cell counts with its blocks). Qt lays a row's cells
    out line by line across a page break."""
    lay = doc.documentLayout()
    spans = []
    for r in range(table.rows()):
        top, bottom = math.inf, -math.inf
        for c in range(table.columns()):
            cell = table.cellAt(r, c)
            if cell.row() != r or cell.column() != c:
                continue
            block = doc.findBlock(cell.firstPosition())
            while block.isValid() and block.position() <= cell.lastPosition():
                br = lay.blockBoundingRect(block)
                if br.height() > 0:
                    top, bottom = min(top, br.top()), max(bottom, br.bottom())
                block = block.next()
        spans.append((top, bottom))
    return spans


def _keep_table_rows_together(doc: QTextDocument, h: float) -> int | None:
    """A table row whose cells a page break would split (the first lines of a cell on one page, the rest on the
    next: "NVIDIA GB200 (per Blackwell" / "GPU) 186GB") moves whole to the next page. Qt moves a row only when
    none of its cells starts on the page, and no row format says "keep together", so the table is cut before that
    row: the rest goes into a table of its own that starts the next page, under the same header rows. A row of
    the header or the first body row moves the whole table. Returns the position from which the layout changed
    (None: nothing moved)."""
    from PySide6.QtGui import QTextFormat, QTextTable

    for table in (f for f in _frames(doc.rootFrame()) if isinstance(f, QTextTable)):
        fmt = table.format()
        for r, (top, bottom) in enumerate(table_row_spans(doc, table)):
            page = math.floor(top / h)
            if not (math.isfinite(top) and bottom - top < 0.5 * h and page != math.floor((bottom - 1) / h)):
                continue
            if r <= fmt.headerRowCount():  # nothing of the body above it: the table starts on the next page
                if fmt.pageBreakPolicy() & QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore:
                    break
                pos = _move_heading_above(doc, doc.findBlock(max(0, table.firstPosition() - 2)), h)
                if pos is not None:  # keep with next: the heading goes to the next page with its table
                    return pos
                fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
                table.setFormat(fmt)
                return max(0, table.firstPosition() - 1)
            if _plain_table(table):
                return _split_table(doc, table, r)
            break
    return None


def _plain_table(table) -> bool:
    """A table of single cells (no spans) with no table inside: it can be cut between two rows. Qt's HTML import
    leaves an empty frame (no position inside it) where a cell opens with an image (the vendor checklist's box):
    nothing to copy, so it does not count (pdf17: the checklist's row "IDC/ISP licence" was never moved whole,
    and cut by the page break it left two thirds of a page blank)."""
    return not any(f.firstPosition() <= f.lastPosition() for f in table.childFrames()) and all(
        table.cellAt(r, c).rowSpan() == 1 and table.cellAt(r, c).columnSpan() == 1
        for r in range(table.rows()) for c in range(table.columns()))


def _split_table(doc: QTextDocument, table, r: int) -> int:
    """Move rows ``r``… of ``table`` into a new table right after it that starts a new page, with copies of the
    header rows on top (same formats, column widths, cell and block formats). Returns where the layout changed."""
    from PySide6.QtGui import QTextCursor, QTextFormat, QTextTableFormat

    fmt = QTextTableFormat(table.format())
    head = fmt.headerRowCount()
    fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
    cur = QTextCursor(doc)
    cur.setPosition(table.lastPosition() + 1)  # the block after the table
    rows = [*range(head), *range(r, table.rows())]
    # one edit block: Qt lays the document out again once at its end, not after each of the cells' four edits
    # (a 64-phase project's report spent 90 s here, ~50 ms an edit: probe15)
    cur.beginEditBlock()
    try:
        new = cur.insertTable(len(rows), table.columns(), fmt)
        for i, src in enumerate(rows):
            for c in range(table.columns()):
                _copy_cell(doc, table.cellAt(src, c), new.cellAt(i, c))
        table.removeRows(r, table.rows() - r)
    finally:
        cur.endEditBlock()
    return max(0, table.firstPosition() - 1)


def _copy_cell(doc: QTextDocument, src, dst) -> None:
    """Copy one cell's text, character formats, block formats (alignment) and cell format into an empty cell."""
    from PySide6.QtGui import QTextCursor

    sel = src.firstCursorPosition()
    sel.setPosition(src.lastCursorPosition().position(), QTextCursor.MoveMode.KeepAnchor)
    dst.firstCursorPosition().insertFragment(sel.selection())
    dst.setFormat(src.format())
    a, b = doc.findBlock(src.firstPosition()), doc.findBlock(dst.firstPosition())
    while a.isValid() and b.isValid() and a.position() <= src.lastPosition() and b.position() <= dst.lastPosition():
        QTextCursor(b).setBlockFormat(a.blockFormat())
        QTextCursor(b).setBlockCharFormat(a.charFormat())
        a, b = a.next(), b.next()


def _frames(frame):
    """The frames under ``frame``, depth first (a table inside a table's cell comes after its parent)."""
    for child in frame.childFrames():
        yield child
        yield from _frames(child)


def _keep_small_tables_together(doc: QTextDocument, h: float) -> int | None:
    """Move the first small top-level table that straddles a page break to the next page (with the
    heading right above it). Big tables flow on, their header rows repeated on every page. Returns the
    position from which the layout changed (None: nothing moved)."""
    from PySide6.QtGui import QTextBlockFormat, QTextCursor, QTextFormat, QTextTable

    lay = doc.documentLayout()
    for frame in doc.rootFrame().childFrames():
        if not isinstance(frame, QTextTable):
            continue
        r = lay.frameBoundingRect(frame)
        if r.height() >= 0.45 * h or math.floor(r.top() / h) == math.floor((r.bottom() - 1) / h):
            continue
        fmt = frame.format()
        if fmt.pageBreakPolicy() & QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore or _cut_rather_than_move(doc, frame, r, h):
            continue
        prev = doc.findBlock(max(0, frame.firstPosition() - 2))
        if prev.isValid() and prev.blockFormat().headingLevel() > 0 and \
                lay.blockBoundingRect(prev).top() >= math.floor(r.top() / h) * h:
            bf = QTextBlockFormat(prev.blockFormat())
            bf.setPageBreakPolicy(QTextBlockFormat.PageBreakFlag.PageBreak_AlwaysBefore)
            QTextCursor(prev).setBlockFormat(bf)
            return prev.position()
        fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
        frame.setFormat(fmt)
        return max(0, frame.firstPosition() - 1)  # the frame starts one character before its first block
    return None


#: a small table that straddles a page break moves whole to the next page only when that leaves at most this share
#: of its page blank; else it is cut between two rows (its header rows repeated: :func:`_split_table`). terms18: the
#: English plan of llama3-8b-full left 40 % of page 1 blank to keep its plan table whole.
MOVE_WHOLE_BLANK = 0.2


def _cut_rather_than_move(doc: QTextDocument, table, r: QRectF, h: float) -> bool:
    """Whether a small table straddling a page break is better cut than moved whole: moving it would leave more
    than :data:`MOVE_WHOLE_BLANK` of the page blank, it can be cut between rows (:func:`_plain_table`) and two
    body rows or more stand on this page above the break (never its header alone at the foot)."""
    page_end = (math.floor(r.top() / h) + 1) * h
    if page_end - r.top() <= MOVE_WHOLE_BLANK * h or not _plain_table(table):
        return False
    head = table.format().headerRowCount()
    spans = table_row_spans(doc, table)
    return sum(1 for i, (_t, bottom) in enumerate(spans) if i >= head and bottom <= page_end) >= 2


def print_to(doc: QTextDocument, device, layout: QPageLayout, footer: str = "") -> int:
    """Print a paginated ``doc`` on ``device`` (QPdfWriter or QPrinter), page numbers at the foot of each
    page ("3 / 7", and ``footer`` on the left). Returns the number of pages."""
    from PySide6.QtCore import QPointF

    w, h = paginate(doc, layout)
    pages = max(1, doc.pageCount())
    charts_at = chart_rects(doc)
    painter = QPainter()
    if not painter.begin(device):
        from ..core.errors import PlannerError

        raise PlannerError("cannot start printing (is the output file writable?)")
    try:
        scale = device.width() / w
        foot_font = QFont(doc.defaultFont())
        foot_font.setPointSizeF(8.0)
        for page in range(pages):
            if page:
                device.newPage()
            painter.save()
            painter.scale(scale, scale)
            painter.translate(0, -page * h)
            clip = QRectF(0, page * h, w, h - 0.5)
            painter.setClipRect(clip)
            doc.drawContents(painter, clip)
            for rect, chart in charts_at:
                if rect.intersects(clip):
                    chart.paint(painter, rect)
            painter.restore()
            # the footer in device coordinates: point sizes then come out right on any resolution
            painter.setFont(foot_font)
            painter.setPen(QPen(QColor("#444"), max(1.0, scale * 0.6)))
            top = (h + 4) * scale
            painter.drawLine(QPointF(0, top), QPointF(w * scale, top))
            box = QRectF(0, top, w * scale, (FOOTER_PX - 4) * scale)
            painter.drawText(box, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), f"{page + 1} / {pages}")
            if footer:
                fm_box = QRectF(0, top, w * scale * 0.8, (FOOTER_PX - 4) * scale)
                text = painter.fontMetrics().elidedText(footer, Qt.TextElideMode.ElideRight, int(fm_box.width()))
                painter.drawText(fm_box, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text)
    finally:
        painter.end()
    return pages


_raw_fonts = threading.local()  # .fonts: family → its QRawFont (None when Qt has no such font), per thread


def _raw_font(family: str):
    """A family's QRawFont, cached per thread: a QRawFont is only valid in the thread that made it (Qt's
    QRawFont documentation), and the window writes its reports on worker threads."""
    from PySide6.QtGui import QRawFont

    cache = _raw_fonts.__dict__.setdefault("fonts", {})
    if family not in cache:
        raw = QRawFont.fromFont(QFont(family))
        cache[family] = raw if raw.isValid() else None
    return cache[family]


def unsupported_characters(text: str, first: Iterable[str] = ()) -> list[str]:
    """The characters of ``text`` that no font Qt knows (installed, or the bundled CJK subset once
    registered) can draw: Qt would print them as empty boxes or drop them. Whitespace and control/format
    characters are not drawn and never count. The families in ``first`` (the report's own) are asked
    first; every other family only for what they lack (reading all of them costs tens of milliseconds)."""
    import unicodedata as ud

    # U+FFFC stands for an embedded image (a chart) in QTextDocument.toPlainText(): not drawn as text
    missing = sorted({c for c in text if ord(c) > 0x7E and c != "\ufffc" and not c.isspace()
                      and ud.category(c)[0] not in "CZ"})
    for families in (list(first), QFontDatabase.families()):
        if not missing:
            break
        raws = [r for r in (_raw_font(f) for f in families) if r is not None]
        # the code point, not the str: PySide6 6.12 maps some one-character strs to the wrong QChar
        missing = [c for c in missing if not any(r.supportsCharacter(ord(c)) for r in raws)]
    return missing


def check_characters(doc: QTextDocument) -> None:
    """A report must never drop a character silently (a vendor would get a blank where the Chinese was):
    raise a one-line PlannerError naming the first characters no font can draw."""
    missing = unsupported_characters(doc.toPlainText(), first=doc.defaultFont().families())
    if missing:
        from ..core.errors import PlannerError

        shown = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise PlannerError(f"the report has characters no installed or bundled font can draw: {shown}{more}; "
                           "install a font that has them or remove them from the plan's text")


def pdf_bytes(data: ReportData, paper: str = "a4", lang: str | None = None) -> bytes:
    """The report as PDF bytes (A4 or Letter), rendered in memory: the report writes no file
    (:func:`gpuplanner.report_file.export_pdf` writes them atomically). ``lang`` installs that translation
    first (``None`` keeps whatever is installed, as in the app). Safe on a worker thread: a QTextDocument
    painted onto a QPdfWriter (Qt paints onto QImage, QPrinter and QPdfWriter outside the GUI thread)."""
    ensure_app()
    if lang is not None:
        install_language(lang)
    doc = build_document(data, lang=lang or QLocale().name())
    check_characters(doc)
    return document_pdf(doc, paper, data.title, creator=f"GPU Planner {data.app_version}")


def document_pdf(doc: QTextDocument, paper: str, title: str, creator: str = "") -> bytes:
    """``doc`` as PDF bytes on the report's page layout (300 dpi, ``title`` in its metadata and footer). Rendered
    into memory, then written atomically by the caller: Qt never opens the output file (so it prints no
    "QPainter::begin(): Returned false" of its own) and a full disk leaves no truncated PDF."""
    layout = page_layout(paper)
    pdf = QByteArray()
    buf = QBuffer(pdf)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buf)
    writer.setPageLayout(layout)
    writer.setResolution(300)
    writer.setTitle(title)
    if creator:
        writer.setCreator(creator)
    print_to(doc, writer, layout, footer=title)
    del writer  # finish the PDF
    buf.close()
    return bytes(pdf.data())


def print_document(printer, data: ReportData | None = None, doc: QTextDocument | None = None) -> int:
    """Print to a ``QPrinter`` (a real printer, a PDF QPrinter or a preview's printer); returns pages."""
    if doc is None:
        if data is None:
            raise ValueError("print_document needs data or doc")
        doc = build_document(data, lang=QLocale().name())
    title = doc.metaInformation(QTextDocument.MetaInformation.DocumentTitle)
    return print_to(doc, printer, printer.pageLayout(), footer=title)


def make_printer(paper: str = "a4", pdf_path: str | None = None):
    """A high-resolution QPrinter with the report's page layout (PDF output when ``pdf_path`` is given).
    Keep one per window so the user's paper and printer choices survive between prints."""
    from PySide6.QtPrintSupport import QPrinter

    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setPageLayout(page_layout(paper))
    if pdf_path:
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(pdf_path))
    return printer


def preview_dialog(data: ReportData, parent=None, printer=None):
    """A QPrintPreviewDialog for File → Print Preview (``.exec()`` it). The document is built once."""
    from PySide6.QtPrintSupport import QPrintPreviewDialog

    printer = printer or make_printer()
    doc = build_document(data, lang=QLocale().name())
    dlg = QPrintPreviewDialog(printer, parent)
    dlg.paintRequested.connect(lambda p: print_document(p, doc=doc))
    dlg._report_doc = doc  # keep it alive as long as the dialog
    return dlg


def print_dialog(data: ReportData, parent=None, printer=None) -> bool:
    """File → Print: the system print dialog, then print. Returns True when printed."""
    from PySide6.QtPrintSupport import QPrintDialog

    printer = printer or make_printer()
    dlg = QPrintDialog(printer, parent)
    if dlg.exec() != QPrintDialog.DialogCode.Accepted:
        return False
    print_document(printer, data)
    return True

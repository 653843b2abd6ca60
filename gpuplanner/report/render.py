"""Render a :class:`~.content.ReportData` as a printed plan: QTextDocument → PDF, printer or preview.

How (qt-app-engineering notes §C2, §C3, pitfalls 2, 7, 8):

* The report is HTML in a ``QTextDocument``; ``doc.print_(printer)`` paginates, adds page numbers and
  repeats ``<thead>`` rows on every page a table spans. The document's page size is left unset (setting
  it to the printer's device pixels makes everything tiny).
* Charts are pyqtgraph plots drawn off-screen and exported with ``ImageExporter`` (SVG export is broken
  in pyqtgraph 0.14.0) at :data:`CHART_EXPORT_WIDTH` pixels for a :data:`CHART_WIDTH_PX` wide image
  (≈ 170 mm), i.e. about 300 dpi on paper. They are drawn for greyscale printers: series differ by grey
  level *and* hatch pattern or line style and marker, and carry text labels.
* Every string goes through ``QCoreApplication.translate("Report", …)`` (sentences from the core through
  their own context), so the ``gpuplanner_<lang>.qm`` files that translate the UI translate the report.
* CJK text needs a CJK font in the PDF: :func:`ensure_cjk_font` uses a system one (``fc-list :lang=zh``;
  CI installs ``fonts-noto-cjk`` in ``.ci/run``) or registers one shipped in ``resources/fonts``.
"""

from __future__ import annotations

from gpuplanner.formatting import (
    format_axis, format_count, format_flops, format_number, format_percent, format_sig, gpu_display_name,
)

import html
import math
import os
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path
from typing import Iterable

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice, QLocale, QMarginsF, QRectF, Qt, QTranslator, QUrl
from PySide6.QtGui import (
    QBrush, QColor, QFont, QFontDatabase, QFontMetricsF, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen,
    QTextDocument, QTransform,
)

from ..i18n import CJK_FAMILIES  # noqa: F401 (installed CJK families, preferred to the bundled font)
from ..core.i18n import QT_TRANSLATE_NOOP
from ..io.planfile import check_writable_folder, write_output
from .content import (
    PlanInfo, ReportData, Text, fmt_bytes, fmt_count, fmt_days, fmt_gib, fmt_money, fmt_pct, fmt_price,
)

CTX = "Report"
CHART_WIDTH_PX = 640  # width of a chart in the document's layout units (96 per inch): ≈ 169 mm
CHART_EXPORT_WIDTH = 2000  # pixels: 2000 / (169 mm / 25.4) ≈ 300 dpi on paper
CHART_HEIGHT_PX = 290
PEN = CHART_EXPORT_WIDTH / CHART_WIDTH_PX  # cosmetic pens do not scale with the export: widen them
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


def system_has_cjk_font() -> bool:
    """``fc-list :lang=zh`` lists a font (Linux); Windows and macOS ship CJK fonts."""
    if os.name == "nt" or _is_macos():
        return True
    exe = shutil.which("fc-list")
    if exe is None:
        return False
    try:
        out = subprocess.run([exe, ":lang=zh", "family"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return bool(out.strip())


def ensure_cjk_font() -> str | None:
    """A font family with Chinese glyphs: an installed one (the first of :data:`CJK_FAMILIES` Qt knows),
    else the subset of Noto Sans CJK SC shipped in ``resources/fonts``, registered once — so the Chinese
    report is complete on a machine without any CJK font. Shared with the UI (:mod:`gpuplanner.i18n`)."""
    from ..i18n import ensure_cjk_font as shared

    return shared()


# ------------------------------------------------------------------------------------------ charts

def _plot(width: int = CHART_WIDTH_PX, height: int = CHART_HEIGHT_PX):
    import pyqtgraph as pg

    class _Axis(pg.AxisItem):
        """Tick labels through the one formatter: ``30M`` / ``3,000万``, never ``3e+07``."""

        def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph)
            return [format_axis(v * scale) for v in values]

    pw = pg.PlotWidget(background="w", axisItems={"left": _Axis("left"), "bottom": _Axis("bottom")})
    pw.resize(width, height)
    pi = pw.getPlotItem()
    for name in ("left", "bottom"):
        ax = pi.getAxis(name)
        ax.enableAutoSIPrefix(False)
        ax.setPen(pg.mkPen("k", width=PEN))
        ax.setTextPen(pg.mkPen("k"))
    pi.showGrid(x=True, y=True, alpha=0.3)
    return pw


def _export(pw) -> QImage:
    import pyqtgraph.exporters as pge

    pw.getPlotItem().layout.activate()
    exp = pge.ImageExporter(pw.getPlotItem())
    exp.parameters()["width"] = CHART_EXPORT_WIDTH
    img = exp.export(toBytes=True)
    return img.convertToFormat(QImage.Format.Format_RGB32)


def _text_item(text: str, anchor=(0.5, 1.0), size_pt: float = 8.0, bold: bool = False, color: str = "k"):
    import pyqtgraph as pg

    item = pg.TextItem(text=text, color=color, anchor=anchor)
    f = QFont()
    f.setPointSizeF(size_pt)
    f.setBold(bold)
    item.setFont(f)
    return item


def _swatch(brush: QBrush | None, pen: QPen | None, symbol: str | None) -> QImage:
    """A legend key drawn at print resolution: a filled box, or a line with its marker."""
    w, h = 72, 30
    img = QImage(w, h, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    if brush is not None:
        b = QBrush(brush)
        b.setTransform(QTransform.fromScale(PEN / 2, PEN / 2))
        p.fillRect(6, 3, w - 12, h - 6, QColor("white"))
        p.fillRect(6, 3, w - 12, h - 6, b)
        p.setPen(QPen(QColor("black"), 2))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(6, 3, w - 12, h - 6)
    if pen is not None:
        q = QPen(pen)
        q.setWidthF(max(2.0, pen.widthF() / PEN * 1.6))
        q.setCosmetic(False)
        p.setPen(q)
        p.drawLine(2, h // 2, w - 2, h // 2)
    if symbol is not None:
        p.setPen(QPen(QColor("black"), 3))
        p.setBrush(QBrush(QColor("black" if symbol == "s" else "white")))
        c, r = w / 2, 9
        if symbol == "o":
            p.drawEllipse(QRectF(c - r, h / 2 - r, 2 * r, 2 * r))
        elif symbol == "s":
            p.drawRect(QRectF(c - r, h / 2 - r, 2 * r, 2 * r))
        elif symbol == "t":
            from PySide6.QtCore import QPointF
            from PySide6.QtGui import QPolygonF

            p.drawPolygon(QPolygonF([QPointF(c - r, h / 2 - r), QPointF(c + r, h / 2 - r), QPointF(c, h / 2 + r)]))
    p.end()
    return img


def _hatch(grey: str, style) -> QBrush:
    b = QBrush(QColor(grey), style)
    if style != Qt.BrushStyle.SolidPattern:
        b.setTransform(QTransform.fromScale(PEN, PEN))  # pattern spacing as on screen, not 300-dpi fine
    return b


def memory_chart(data: ReportData) -> QImage:
    """Stacked bars of GiB per GPU (chosen plan and alternatives) with each card's capacity marked."""
    import pyqtgraph as pg

    plans = [data.plan] + list(data.alternatives)
    pw = _plot(height=CHART_HEIGHT_PX)
    pi = pw.getPlotItem()
    pi.showGrid(x=False, y=True, alpha=0.3)
    xs = list(range(len(plans)))
    bottom = [0.0] * len(plans)
    names = {"weights": translate("Report", "weights"), "gradients": translate("Report", "gradients"),
             "optimizer": translate("Report", "optimizer states"),
             "activations": translate("Report", "activations"), "other": translate("Report", "other"),
             **_extra_names()}
    entries = []
    seg_labels: list[tuple[str, float, float]] = []
    for key, grey, style in _SERIES:
        vals = [p.memory.get(key, 0.0) for p in plans]
        if key not in ("weights", "gradients", "optimizer", "activations", "other") and not any(
                key in p.memory for p in plans):
            continue  # a part no plan holds gets no legend entry
        brush = _hatch(grey, style)
        bar = pg.BarGraphItem(x=xs, y0=list(bottom), height=vals, width=0.45, brush=brush, pen=pg.mkPen("k", width=1 * PEN))
        # a white base under hatched bars so the pattern reads on any background
        if style != Qt.BrushStyle.SolidPattern:
            pi.addItem(pg.BarGraphItem(x=xs, y0=list(bottom), height=vals, width=0.45, brush=pg.mkBrush("w"),
                                       pen=pg.mkPen(None)))
        pi.addItem(bar)
        entries.append((names[key], _swatch(QBrush(QColor(grey), style), None, None)))
        seg_labels.append((names[key], bottom[0], vals[0]))
        bottom = [b + v for b, v in zip(bottom, vals)]
    top = 0.0
    for i, p in enumerate(plans):
        cap = p.gpu_memory_gib
        top = max(top, cap, bottom[i] + p.memory_headroom_gib)
        pi.addItem(pg.PlotDataItem([i - 0.32, i + 0.32], [cap, cap], pen=pg.mkPen("k", width=2.5 * PEN,
                                                                                   style=Qt.PenStyle.DashLine)))
        cap_lbl = _text_item(translate("Report", "card: {cap} GiB").format(cap=fmt_gib(cap)), anchor=(0.5, 1.0))
        cap_lbl.setPos(i, cap)
        pi.addItem(cap_lbl)
    # name and size of each part of the chosen plan's bar, left of it (greyscale: no colour needed)
    min_gap = top * 1.15 * 0.055
    last_y = -math.inf
    for name, y0, v in seg_labels:
        if v <= 0:
            continue
        y = max(y0 + v / 2, last_y + min_gap)
        lbl = _text_item(f"{name} {fmt_gib(v)}", anchor=(1.0, 0.5), size_pt=7.5)
        lbl.setPos(-0.25, y)
        pi.addItem(lbl)
        last_y = y
    pi.getAxis("bottom").setTicks([[(i, f"{p.num_gpus} ×\n{_short_gpu_name(p)}\n" + translate(
        "Report", "{v} GiB used").format(v=fmt_gib(bottom[i]))) for i, p in enumerate(plans)]])
    pi.getAxis("bottom").setHeight(58)
    pi.setLabel("left", translate("Report", "GiB per GPU"))
    pi.setXRange(-1.3, len(plans) - 1 + (1.3 if len(plans) == 1 else 0.7), padding=0)
    pi.setYRange(0, top * 1.15, padding=0)
    return _export(pw), entries


def _short_gpu_name(p: PlanInfo) -> str:
    name = p.gpu_name
    for junk in ("NVIDIA ", "GeForce ", " (China)"):
        name = name.replace(junk, "")
    return name


def _short_label(p: PlanInfo) -> str:
    return f"{p.num_gpus}× {_short_gpu_name(p)}"


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
        return translate("Report", "{0} (converted at {1} CNY/USD)").format(translate(context, m.group(1)),
                                                                             m.group(2))
    return translate(context, src)


def _gpu(name: str) -> str:
    """A GPU's name as printed: the product name, its regional suffix in the report's language."""
    return gpu_display_name(name)


def scaling_chart(data: ReportData) -> QImage | None:
    """Training days against GPU count for the chosen GPU and layout, with ideal linear scaling."""
    import pyqtgraph as pg

    pts = sorted(data.scaling)
    if len(pts) < 2:
        return None
    pw = _plot()
    pi = pw.getPlotItem()
    pi.setLogMode(x=True, y=True)
    xs = [float(n) for n, _ in pts]
    ys = [d for _, d in pts]
    n0, d0 = pts[0]
    ideal = [d0 * n0 / n for n in xs]
    lx = [math.log10(x) for x in xs]
    pi.addItem(pg.PlotDataItem(xs, ideal, pen=pg.mkPen("#777", width=2 * PEN, style=Qt.PenStyle.DashLine)))
    pi.addItem(pg.PlotDataItem(xs, ys, pen=pg.mkPen("k", width=2.5 * PEN), symbol="o", symbolSize=9,
                               symbolBrush="w", symbolPen=pg.mkPen("k", width=2 * PEN)))
    chosen = [(x, y) for x, y in zip(xs, ys) if int(x) == data.plan.num_gpus]
    if chosen:
        pi.addItem(pg.PlotDataItem([chosen[0][0]], [chosen[0][1]], pen=None, symbol="s", symbolSize=14,
                                   symbolBrush="k", symbolPen=pg.mkPen("k")))
    for x, y in zip(lx, ys):
        lbl = _text_item(translate("Report", "{d} d").format(d=fmt_days(y)), anchor=(-0.15, 1.1))
        lbl.setPos(x, math.log10(y))
        pi.addItem(lbl)
    if data.task.deadline_days:
        dl = math.log10(data.task.deadline_days)
        pi.addItem(pg.InfiniteLine(pos=dl, angle=0, pen=pg.mkPen("k", width=1.5 * PEN, style=Qt.PenStyle.DotLine)))
        lbl = _text_item(translate("Report", "deadline {d} d").format(d=fmt_days(data.task.deadline_days)),
                         anchor=(0, 1))
        lbl.setPos(lx[0], dl)
        pi.addItem(lbl)
        ymin = min(min(ys), min(ideal), data.task.deadline_days)
        ymax = max(max(ys), max(ideal), data.task.deadline_days)
    else:
        ymin, ymax = min(min(ys), min(ideal)), max(max(ys), max(ideal))
    pi.setYRange(math.log10(ymin) - 0.15, math.log10(ymax) + 0.25, padding=0)
    pi.getAxis("left").setTicks([[(math.log10(v), format_axis(v)) for v in _nice_log_ticks(ymin / 1.4, ymax * 1.7)]])
    pi.setXRange(lx[0] - 0.1, lx[-1] + 0.25, padding=0)
    pi.getAxis("bottom").setTicks([[(math.log10(x), format_count(x)) for x in xs]])
    pi.setLabel("bottom", translate("Report", "GPUs ({gpu})").format(gpu=_e(_gpu(data.plan.gpu_name))))
    pi.setLabel("left", translate("Report", "training days"))
    legend = [(translate("Report", "estimated"), _swatch(None, pg.mkPen("k", width=2.5 * PEN), "o")),
              (translate("Report", "chosen plan"), _swatch(None, None, "s")),
              (translate("Report", "ideal linear scaling"),
               _swatch(None, pg.mkPen("#777", width=2 * PEN, style=Qt.PenStyle.DashLine), None))]
    if data.task.deadline_days:
        legend.append((translate("Report", "deadline"),
                       _swatch(None, pg.mkPen("k", width=1.5 * PEN, style=Qt.PenStyle.DotLine), None)))
    return _export(pw), legend


def memory_count_groups(data: ReportData) -> list[tuple[float, list[str]]]:
    """The candidate cards grouped by memory size, largest first: [(GiB, [short names])]."""
    groups: dict[float, list[str]] = {}
    for name, gib in data.memory_cards:
        short = name
        for junk in ("NVIDIA ", "GeForce "):
            short = short.replace(junk, "")
        groups.setdefault(float(gib), []).append(gpu_display_name(short))
    return sorted(groups.items(), reverse=True)


def memory_count_chart(data: ReportData):
    """Memory per GPU against GPU count for the plan's model and method: the least-memory layout at each
    count and the plan's own layout, with a dotted line at each candidate card's memory (read from
    :attr:`ReportData.memory_by_count`, the core's :func:`~gpuplanner.core.evaluate.memory_by_gpu_count`)."""
    import pyqtgraph as pg

    best = [(n, g) for n, g, _ in data.memory_by_count if g]
    own = [(n, g) for n, _, g in data.memory_by_count if g]
    if len(best) < 2:
        return None
    pw = _plot()
    pi = pw.getPlotItem()
    pi.setLogMode(x=True, y=True)
    pi.addItem(pg.PlotDataItem([float(n) for n, _ in best], [g for _, g in best], pen=pg.mkPen("k", width=2.5 * PEN),
                               symbol="o", symbolSize=9, symbolBrush="w", symbolPen=pg.mkPen("k", width=2 * PEN)))
    if own:
        pi.addItem(pg.PlotDataItem([float(n) for n, _ in own], [g for _, g in own],
                                   pen=pg.mkPen("#666", width=2 * PEN, style=Qt.PenStyle.DashLine), symbol="s",
                                   symbolSize=8, symbolBrush="#666", symbolPen=pg.mkPen("#666")))
    groups = memory_count_groups(data)
    xs = [float(n) for n, _ in best]
    lx0, lx1 = math.log10(min(xs)), math.log10(max(xs))
    for cap, _names in groups:
        pi.addItem(pg.InfiniteLine(pos=math.log10(cap), angle=0,
                                   pen=pg.mkPen("k", width=1.5 * PEN, style=Qt.PenStyle.DotLine)))
        lbl = _text_item(translate("Report", "{g} GiB card").format(g=format_number(cap, 0)), anchor=(1, 1))
        lbl.setPos(lx1 + 0.12, math.log10(cap))
        pi.addItem(lbl)
    ys = [g for _, g in best] + [g for _, g in own] + [c for c, _ in groups]
    ymin, ymax = min(ys), max(ys)
    pi.setYRange(math.log10(ymin) - 0.12, math.log10(ymax) + 0.15, padding=0)
    pi.getAxis("left").setTicks([[(math.log10(v), format_axis(v)) for v in _nice_log_ticks(ymin / 1.3, ymax * 1.4)]])
    pi.setXRange(lx0 - 0.1, lx1 + 0.14, padding=0)
    pi.getAxis("bottom").setTicks([[(math.log10(x), format_count(x)) for x in xs]])
    pi.setLabel("bottom", translate("Report", "GPUs"))
    pi.setLabel("left", translate("Report", "GiB per GPU"))
    legend = [(translate("Report", "least memory (best layout)"), _swatch(None, pg.mkPen("k", width=2.5 * PEN), "o"))]
    if own:
        legend.append((translate("Report", "the plan's layout"),
                       _swatch(None, pg.mkPen("#666", width=2 * PEN, style=Qt.PenStyle.DashLine), "s")))
    legend.append((translate("Report", "memory of a candidate card"),
                   _swatch(None, pg.mkPen("k", width=1.5 * PEN, style=Qt.PenStyle.DotLine), None)))
    return _export(pw), legend


def _nice_log_ticks(lo: float, hi: float) -> list[float]:
    """1-2-5 ticks between ``lo`` and ``hi`` (log axes without exponent notation)."""
    out = []
    e = math.floor(math.log10(max(lo, 1e-9)))
    while 10 ** e <= hi * 10:
        for m in (1, 2, 5):
            v = m * 10 ** e
            if lo <= v <= hi:
                out.append(v)
        e += 1
    return out


# long: one chart drawn step by step: axes, the plans as points, deadline and budget lines, labels
def cost_time_chart(data: ReportData) -> QImage | None:
    """Total cost against training days for the plans considered; deadline and budget as lines."""
    import pyqtgraph as pg

    pts = list(data.cost_vs_time)
    if len(pts) < 2:
        return None
    pw = _plot()
    pi = pw.getPlotItem()
    others = [(lbl, d, c) for lbl, d, c, ch in pts if not ch]
    mine = [(lbl, d, c) for lbl, d, c, ch in pts if ch]
    if others:
        pi.addItem(pg.ScatterPlotItem([d for _, d, _ in others], [c for _, _, c in others], symbol="t", size=12,
                                      brush=pg.mkBrush("w"), pen=pg.mkPen("k", width=2 * PEN)))
    if mine:
        pi.addItem(pg.ScatterPlotItem([d for _, d, _ in mine], [c for _, _, c in mine], symbol="s", size=14,
                                      brush=pg.mkBrush("k"), pen=pg.mkPen("k")))
    ds = [d for _, d, _, _ in pts]
    cs = [c for _, _, c, _ in pts]
    if data.task.deadline_days:
        pi.addItem(pg.InfiniteLine(pos=data.task.deadline_days, angle=90,
                                   pen=pg.mkPen("k", width=1.5 * PEN, style=Qt.PenStyle.DotLine)))
    if data.task.budget:
        pi.addItem(pg.InfiniteLine(pos=data.task.budget, angle=0,
                                   pen=pg.mkPen("k", width=1.5 * PEN, style=Qt.PenStyle.DashDotLine)))
    x1 = max(ds + [data.task.deadline_days or 0]) * 1.2 or 1.0
    lo, hi = min(cs + [data.task.budget or min(cs)]), max(cs + [data.task.budget or 0])
    span = (hi - lo) or hi * 0.1 or 1.0
    y0, y1 = max(0.0, lo - span * 0.3), hi + span * 0.3
    # labels: the chosen plan's first (always shown, whole), then the others that have room; each label's
    # box (measured with the font) may cross neither another label nor another point's marker
    plot_w, plot_h = CHART_WIDTH_PX - 80, CHART_HEIGHT_PX - 60   # the view box inside the axes, layout px
    f = QFont()
    f.setPointSizeF(8.0)
    fb = QFont(f)
    fb.setBold(True)
    marks = [(d, c) for _, d, c, _ in pts]
    boxes: list[tuple[float, float, float, float]] = []
    gap_px, mark_px = 9.0, 7.0

    def to_px(d, c):
        return (d / x1 * plot_w, (c - y0) / (y1 - y0) * plot_h)

    def free(box, own) -> bool:
        bx0, by0, bx1, by1 = box
        if any(bx0 < b[2] and b[0] < bx1 and by0 < b[3] and b[1] < by1 for b in boxes):
            return False
        for m in marks:
            if m == own:
                continue
            mx, my = to_px(*m)
            if bx0 - mark_px < mx < bx1 + mark_px and by0 - mark_px < my < by1 + mark_px:
                return False
        return True

    for lbl, d, c, ch in sorted(pts, key=lambda t: (not t[3], t[2])):
        fm = QFontMetricsF(fb if ch else f)
        w, h = fm.horizontalAdvance(lbl) * 96 / 72 * 0.75 + 2, fm.height()
        px, py = to_px(d, c)
        right = (px + gap_px, py - h / 2, px + gap_px + w, py + h / 2)
        left = (px - gap_px - w, py - h / 2, px - gap_px, py + h / 2)
        above = (px - w / 2, py + gap_px, px + w / 2, py + gap_px + h)
        below = (px - w / 2, py - gap_px - h, px + w / 2, py - gap_px)
        options = [(right, (-0.0, 0.5), (gap_px, 0)), (left, (1.0, 0.5), (-gap_px, 0)),
                   (above, (0.5, 1.0), (0, gap_px)), (below, (0.5, 0.0), (0, -gap_px))]
        fits = [(b, a, o) for b, a, o in options if b[0] >= 0 and b[2] <= plot_w and b[1] >= 0 and b[3] <= plot_h]
        chosen_opt = next(((b, a, o) for b, a, o in fits if free(b, (d, c))), None)
        if chosen_opt is None and ch:
            chosen_opt = (fits or options)[0]   # the chosen plan is always labelled, inside the frame
        if chosen_opt is None:
            continue
        box, anchor, (ox, oy) = chosen_opt
        t = _text_item(lbl, anchor=anchor, bold=ch)
        t.setPos(d + ox / plot_w * x1, c + oy / plot_h * (y1 - y0))
        pi.addItem(t)
        boxes.append(box)
    pi.setXRange(0, x1, padding=0)
    pi.setYRange(y0, y1, padding=0)
    pi.setLabel("bottom", translate("Report", "training days"))
    pi.setLabel("left", translate("Report", "total cost ({cur})").format(cur=data.currency))
    entries = [(translate("Report", "chosen plan"), _swatch(None, None, "s")),
               (translate("Report", "other GPU counts / plans"), _swatch(None, None, "t"))]
    if data.task.deadline_days:
        entries.append((translate("Report", "deadline"),
                        _swatch(None, pg.mkPen("k", width=1.5 * PEN, style=Qt.PenStyle.DotLine), None)))
    if data.task.budget:
        entries.append((translate("Report", "budget"),
                        _swatch(None, pg.mkPen("k", width=1.5 * PEN, style=Qt.PenStyle.DashDotLine), None)))
    return _export(pw), entries


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


def timeline_chart(data: ReportData):
    """The project's phases as bars over the weeks (a Gantt chart), each labelled with its GPUs or CPU cores
    and its cost; read from :attr:`ReportData.project`."""
    import pyqtgraph as pg

    proj = data.project
    if proj is None or not proj.phases:
        return None
    n = len(proj.phases)
    pw = _plot(height=max(160, 46 * n + 70))
    pi = pw.getPlotItem()
    pi.showGrid(x=True, y=False, alpha=0.3)
    kinds_seen: list[str] = []
    for i, ph in enumerate(proj.phases):
        y = n - 1 - i
        grey, style = _KIND_STYLE.get(ph.kind, ("#8c8c8c", Qt.BrushStyle.SolidPattern))
        bar = pg.BarGraphItem(x0=[ph.start_week], width=[max(ph.end_week - ph.start_week, 0.05)], y=[y],
                              height=0.6, brush=_hatch(grey, style), pen=pg.mkPen("k", width=PEN))
        pi.addItem(bar)
        what = (translate("Report", "{n} × {gpu}").format(n=ph.count, gpu=_gpu(ph.device_name)) if ph.resource == "gpu"
                else translate("Report", "{n} CPU cores").format(n=ph.count))
        label = f"{ph.name}: {what}, {fmt_money(ph.cost, proj.currency)}"
        right = ph.start_week > max(proj.total_weeks, 1.0) / 2  # right-hand bars: label ends at the bar's end
        item = _text_item(label, anchor=(1.0 if right else 0.0, 0.5), size_pt=7.5)
        item.setPos(ph.end_week - 0.05 if right else ph.start_week + 0.05, y + 0.45)
        pi.addItem(item)
        if ph.kind not in kinds_seen:
            kinds_seen.append(ph.kind)
    weeks = max(proj.total_weeks, 1.0)
    pi.setXRange(0, weeks * 1.02, padding=0)
    pi.setYRange(-0.6, n - 0.05, padding=0)
    pi.getAxis("left").setTicks([[(n - 1 - i, "") for i in range(n)]])
    pi.setLabel("bottom", translate("Report", "weeks from the start"))
    entries = [(_kind_name(k), _swatch(_hatch(*_KIND_STYLE[k]), None, None)) for k in kinds_seen if k in _KIND_STYLE]
    return _export(pw), entries


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
    utilisation (from the Evaluation's BuildResult, via PlanInfo)."""
    if not p.rent_vs_build_parts or p.rent_total is None:
        return ""
    rows = [[f"<b>{_e(translate('Report', 'Rent the work'))}</b>", f"<b>{_e(fmt_money(p.rent_total, cur))}</b>"]]
    for label, amount in p.rent_vs_build_parts:
        rows.append([_e(translate("Report", "Build: {part}").format(part=tr_text(label))), _e(fmt_money(amount, cur))])
    mark = " ◀" if p.build_verdict == "build" else ""
    rows.append([f"<b>{_e(translate('Report', 'Build, total'))}{mark}</b>",
                 f"<b>{_e(fmt_money(p.build_total, cur))}</b>"])
    out = [_table(rows, escape=False, num_cols={1}, widths=[70, 30])]
    u = p.break_even_utilisation
    if u is not None:
        note = translate("Report", "Owning breaks even when the servers are busy {u} of the time over {y} years "
                                   "(straight-line depreciation, no resale value).").format(
            u=format_percent(u, 0), y=format_sig(p.depreciation_years or 0, 6))
    else:
        note = translate("Report", "Owning never breaks even at these prices, even with the servers busy all the time.")
    out.append(f"<p>{_e(note)}</p>")
    if p.build_missing:
        out.append("<p>" + _e(translate("Report", "Not counted (no figure entered): {0}").format(
            ", ".join(p.build_missing))) + "</p>")
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
    return {
        "pretrain": translate("Report", "pretraining"), "full": translate("Report", "full fine-tuning"),
        "lora": translate("Report", "LoRA fine-tuning"), "qlora": translate("Report", "QLoRA fine-tuning"),
    }.get(m, m)


def _optimizer_name(o: str) -> str:
    """The optimizer's display name (the scenario keeps its identifier)."""
    return {"adamw": "AdamW", "adamw_8bit": translate("Report", "AdamW 8-bit"), "sgd": "SGD",
            "adafactor": "Adafactor"}.get(o, str(o))


def _recompute_name(r: str) -> str:
    """The activation-recompute policy's display name (the core's labels, ``search.RECOMPUTE_LABELS``); a
    policy without one reads with spaces, not ``_``."""
    from ..core.search import CTX as _PLAN_CTX, RECOMPUTE_LABELS  # noqa: PLC0415

    if r in RECOMPUTE_LABELS:
        return QCoreApplication.translate(_PLAN_CTX, RECOMPUTE_LABELS[r])
    names = {"none": translate("Report", "none"), "selective": translate("Report", "selective (attention)"),
             "full": translate("Report", "full (every layer)")}
    return names.get(r, str(r).replace("_", " "))


def _framework_name(fw: str) -> str:
    from ..core.frameworks import FRAMEWORKS  # noqa: PLC0415

    sup = FRAMEWORKS.get(fw)
    return sup.name if sup is not None else str(fw)


def _mode_name(mode: str | None) -> str:
    from ..core.cost import MODE_LABELS  # noqa: PLC0415 - only when costs exist

    if not mode:
        return "—"
    return QCoreApplication.translate("Cost", MODE_LABELS.get(mode, mode))


def _phase_name(p: str) -> str:
    return {"research": translate("Report", "research (start/stop sessions)"),
            "stable": translate("Report", "stable (continuous runs)"),
            "burst": translate("Report", "burst (short, large runs)")}.get(p, p)


def _layout_text(lay: dict) -> str:
    parts = [f"TP {lay['tp']}", f"PP {lay['pp']}"]
    if lay.get("vpp", 1) > 1:
        parts[-1] += f" (VPP {lay['vpp']})"
    if lay.get("cp", 1) > 1:
        parts.append(f"CP {lay['cp']}")
    if lay.get("ep", 1) > 1:
        parts.append(f"EP {lay['ep']}")
    parts.append(f"DP {lay['dp']}")
    if lay.get("zero"):
        parts.append(f"ZeRO-{lay['zero']}")
    if lay.get("sp"):
        parts.append("SP")
    if lay.get("offload"):
        parts.append(translate("Report", "optimizer offload"))
    parts.append(translate("Report", "micro-batch {mb} × {ga} accumulation").format(mb=lay["micro_batch"],
                                                                                    ga=lay["grad_accum"]))
    if lay["pp"] > 1 and lay.get("pipeline_microbatch_size", lay["micro_batch"]) != lay["micro_batch"]:
        parts.append(translate("Report", "pipeline: {m} micro-batches of {n} per step").format(
            m=lay["pipeline_microbatches"], n=lay["pipeline_microbatch_size"]))
    return ", ".join(parts)



def _html_title(data: ReportData) -> str:
    loc = QLocale()
    date = loc.toString(data.date.astimezone().date(), QLocale.FormatType.LongFormat) if data.date else ""
    pairs = [(translate("Report", "Date"), date),
             (translate("Report", "Prepared by"), data.author or "—"),
             (translate("Report", "GPU Planner version"), data.app_version),
             (translate("Report", "Plan file"), data.source_file or "—")]
    out = [f"<h1>{_et(data.title)}</h1>",
           f'<p class="small">{_e(translate("Report", "Training plan and GPU rental requirements"))}</p>',
           _kv_table(pairs)]
    if data.notes:
        notes = data.notes[:NOTES_MAX_CHARS]
        cut = ""
        if len(data.notes) > NOTES_MAX_CHARS:
            more = translate("Report", "(The notes are cut here: {n} more characters are in the plan file.)")
            cut = f" <i>{_e(more.format(n=format_number(len(data.notes) - NOTES_MAX_CHARS, 0)))}</i>"
        out.append(f"<p><b>{_e(translate('Report', 'Notes'))}:</b> {_et(notes)}{cut}</p>")
    if data.warnings:
        items = "".join(f"<li>{_e(tr_text(w))}</li>" for w in data.warnings)
        out.append(f'<table width="100%" cellpadding="4" border="1" cellspacing="0" style="border-collapse: collapse;">'
                   f'<tr><td class="box"><b>{_e(translate("Report", "Warnings"))}</b><ul>{items}</ul></td></tr></table>')
    return "".join(out)


def _html_task(data: ReportData) -> str:
    t = data.task
    a = t.arch
    arch = translate("Report", "{layers} layers, hidden {hidden}, {heads} heads ({kv} KV, {att}), {mlp} MLP {ffn}, "
                               "vocabulary {vocab}").format(
        layers=a["layers"], hidden=a["hidden"], heads=a["heads"], kv=a["kv_heads"], att=a["attention"],
        mlp=a["mlp"], ffn=a["ffn"], vocab=format_number(a["vocab"], 0))
    if t.is_moe:
        arch += "; " + translate("Report", "MoE: {e} experts, {k} active per token").format(
            e=a["experts"], k=a["experts_per_tok"])
    tr = t.training
    setup = translate("Report", "{method}, {prec}, {opt}, {fw}").format(
        method=_method_name(tr["method"]), prec=tr["precision"], opt=_optimizer_name(tr["optimizer"]),
        fw=_framework_name(tr["framework"]))
    if tr.get("lora_rank"):
        setup += ", " + translate("Report", "rank {r}").format(r=tr["lora_rank"])
    batch = translate("Report", "sequence {s}, global batch {g} sequences, recompute {r}").format(
        s=format_number(tr["seq_len"], 0), g=tr["global_batch"], r=_recompute_name(tr["recompute"]))
    params = translate("Report", "{total} total, {active} active per token, {train} trained").format(
        total=fmt_count(t.params_total), active=fmt_count(t.params_active), train=fmt_count(t.params_trainable))
    compute = "—" if t.total_flops is None else translate("Report", "{f} ({fpt} per token)").format(
        f=format_flops(t.total_flops), fpt=format_flops(t.flops_per_token))
    deadline = translate("Report", "{d} days").format(d=fmt_days(t.deadline_days)) if t.deadline_days else \
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
        (translate("Report", "Data"), translate("Report", "{tokens} tokens").format(tokens=fmt_count(t.tokens))),
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
    rows.append([_e(translate("Report", "Headroom kept free")), fmt_gib(p.memory_headroom_gib)])
    rows.append([_e(translate("Report", "Card memory")), fmt_gib(p.gpu_memory_gib)])
    return [[_e(r[0]) if not r[0].startswith("<") else r[0], r[1]] for r in rows]


# long: the recommendation section of the PDF as HTML, paragraph by paragraph in the printed order
def _html_plan(data: ReportData) -> str:
    p = data.plan
    cur = data.currency
    out = [f"{_SPACER}<h2>2. {_e(translate('Report', 'The recommendation'))}</h2>"]
    summary = translate("Report", "Rent {n} × {gpu} ({nodes} node(s) of {per}).").format(
        n=p.num_gpus, gpu=_gpu(p.gpu_name), nodes=p.nodes, per=p.gpus_per_node)
    if p.calendar_days is not None:
        summary += " " + translate("Report", "Training takes about {d} calendar days").format(
            d=fmt_days(p.calendar_days))
        if p.cost is not None:
            summary += " " + translate("Report", "and costs about {c} ({mode}).").format(
                c=fmt_money(p.cost, cur), mode=_mode_name(p.mode))
        else:
            summary += "."
    out.append(f"<p><b>{_e(summary)}</b></p>")
    if p.calendar_days_band is not None and p.band:
        lo, hi = p.calendar_days_band
        rng = translate("Report", "Likely range: {lo}–{hi} calendar days").format(lo=fmt_days(lo), hi=fmt_days(hi))
        if p.cost_band is not None:
            rng += translate("Report", ", {lo}–{hi}").format(lo=fmt_money(p.cost_band[0], cur),
                                                           hi=fmt_money(p.cost_band[1], cur))
        what = translate("Report", "The range is the 10th to 90th percentile of the model's error on {n} published "
                                   "{family} training runs (calibration-runs.jsonl, {date}): 80% of those runs took "
                                   "between its low and high end of what the model predicted. An untuned run, slow "
                                   "data loading or a different server can be slower still.").format(
            n=p.band.get("rows"), family=_framework_name(p.band.get("family")), date=p.band.get("source_date") or "")
        out.append(f"<p>{_e(rng + '.')}<br/><span class=\"small\">{_e(what)}</span></p>")
    mem_need = p.memory.get("total", 0.0) + p.memory_headroom_gib
    interconnect = []
    if p.intra_node:
        bw = f" ({format_number(p.intra_node_bw_gbs, 0)} GB/s)" if p.intra_node_bw_gbs else ""
        interconnect.append(translate("Report", "in node: {link}").format(
            link=QCoreApplication.translate("catalog", p.intra_node)) + bw)
    if p.inter_node or p.nodes > 1:
        bw = f", {format_number(p.inter_node_gbps_per_node, 0)} Gb/s" if p.inter_node_gbps_per_node else ""
        interconnect.append(translate("Report", "between nodes: {net}").format(
            net=QCoreApplication.translate("catalog", p.inter_node) if p.inter_node else
            translate("Report", "InfiniBand or RoCE")) + bw)
    pairs = [
        (translate("Report", "Plan"), gpu_display_name(p.label)),
        (translate("Report", "GPU"), f"{_gpu(p.gpu_name)} ({p.gpu_id}), {fmt_gib(p.gpu_memory_gib)} GiB"),
        (translate("Report", "GPUs and nodes"), translate("Report", "{n} GPUs, {nodes} node(s) × {per}").format(
            n=p.num_gpus, nodes=p.nodes, per=p.gpus_per_node)),
        (translate("Report", "Interconnect"), "; ".join(interconnect) or translate("Report", "single GPU")),
        (translate("Report", "Parallel layout"), _layout_text(p.layout)),
        (translate("Report", "Memory per GPU"), translate("Report", "{m} GiB of {cap} GiB ({free} GiB free)").format(
            m=fmt_gib(p.memory.get("total")), cap=fmt_gib(p.gpu_memory_gib),
            free=fmt_gib(p.gpu_memory_gib - p.memory.get("total", 0.0)))),
    ]
    if p.compute_days is not None:
        pairs += [
            (translate("Report", "Training time"), translate(
                "Report", "{c} calendar days with setup, checkpoints, interruptions and your hours per week; "
                          "{d} days of compute around the clock ({h} GPU-hours)").format(
                c=fmt_days(p.calendar_days), d=fmt_days(p.compute_days),
                h=format_number(p.gpu_hours, 0) if p.gpu_hours is not None else "—")),
            (translate("Report", "Step time, MFU"), f"{format_number(p.step_time_s, 2)} s, {fmt_pct(p.mfu)}"
             if p.step_time_s is not None else fmt_pct(p.mfu)),
        ]
    if p.cost is not None:
        pairs.append((translate("Report", "Cost"), f"{fmt_money(p.cost, cur)} — {_mode_name(p.mode)}"))
    out.append(_kv_table(pairs))
    # memory breakdown + time shares side by side
    mem = _table(_memory_rows(p), header=[translate("Report", "Memory per GPU"), "GiB"], escape=False,
                 num_cols={1}, widths=[70, 30])
    if p.time_breakdown:
        names = {"compute": translate("Report", "compute"), "tp_comm": translate("Report", "tensor-parallel communication"),
                 "dp_comm": translate("Report", "data-parallel communication"),
                 "pp_bubble": translate("Report", "pipeline bubble"), "other": translate("Report", "other"),
                 "generation": translate("Report", "rollout generation (RL)")}
        rows = [[names.get(k, k), fmt_pct(v)] for k, v in p.time_breakdown.items()]
        tshare = _table(rows, header=[translate("Report", "Step time"), translate("Report", "share")],
                        num_cols={1}, widths=[70, 30])
    else:
        tshare = ""
    out.append(f'<table width="100%" cellspacing="0" cellpadding="0"><tr><td width="50%">{mem}</td>'
               f'<td width="4%"></td><td width="46%">{tshare}</td></tr></table>')
    if not p.fits:
        out.append(f"<p><b>{_e(translate('Report', 'This layout does not fit in GPU memory.'))}</b></p>")
    # cost by rental mode
    if p.costs:
        out.append(f"{_SPACER}<h3>{_e(translate('Report', 'Cost by rental mode'))}</h3>")
        rows = []
        for mode, c in sorted(p.costs.items(), key=lambda kv: kv[1]):
            mark = " ◀ " + translate("Report", "recommended") if mode == p.mode else ""
            rows.append([_e(_mode_name(mode)) + (f"<b>{_e(mark)}</b>" if mark else ""), fmt_money(c, cur)])
        out.append(_table(rows, header=[translate("Report", "Rental mode"), translate("Report", "Total cost")],
                          escape=False, num_cols={1}, widths=[70, 30]))
        if p.advice:
            out.append("<ul>" + "".join(f"<li>{_e(tr_text(a))}</li>" for a in p.advice) + "</ul>")
    else:
        out.append(f'<p class="small">{_e(translate("Report", "No rental price for this card: enter a quote to see the cost."))}</p>')
    if p.explanation:
        out.append("<ul>" + "".join(f"<li>{_e(tr_text(a))}</li>" for a in p.explanation) + "</ul>")
    if p.rent_vs_build is not None:
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
                    ", ".join(broken))) + "</span>"
            rows.append([_e(gpu_display_name(a.label)) + f'<br/><span class="small">{_e(_layout_text(a.layout))}</span>',
                         _e(fmt_days(a.calendar_days)),
                         _e(fmt_money(a.cost, cur)), why])
        out.append(_table(rows, header=[translate("Report", "Plan"), translate("Report", "Days"),
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


def _rules_table(p: PlanInfo) -> str:
    """Each planning rule's verdict for the plan (core.rules via the Evaluation): passed, failed, allowed."""
    rows = []
    for name, status, msg in p.rules:
        mark = {"passed": "✓", "failed": "✗", "allowed": "!"}.get(status, "–")
        colour = " style='color:#c62828'" if status == "failed" else ""
        rows.append([f"<span{colour}>{_e(mark + ' ' + tr_text(name))}</span>",
                     f"<span{colour}>{_e(translate('Report', _RULE_STATUS.get(status, status)))}</span>",
                     _e(tr_text(msg))])
    return _table(rows, header=[translate("Report", "Rule"), translate("Report", "Verdict"),
                                translate("Report", "Why")], escape=False, widths=[25, 15, 60])


def _html_charts(data: ReportData, charts: dict[str, str]) -> str:
    out = [f"<h2 style='page-break-before: always'>3. {_e(translate('Report', 'Charts'))}</h2>"]
    captions = {
        "memory": translate("Report", "Memory per GPU: the parts of each plan's memory, and the card's capacity "
                                      "(dashed)."),
        "memory_count": translate("Report", "Memory per GPU against GPU count for this model and training method: "
                                            "the layout needing the least memory at each count, the plan's own "
                                            "layout, and the memory of each candidate card.") + (
            " " + "; ".join(translate("Report", "{g} GiB: {names}").format(g=format_number(cap, 0),
                                                                         names=", ".join(names))
                            for cap, names in memory_count_groups(data)) + "." if data.memory_cards else ""),
        "scaling": translate("Report", "Scaling: training days with more or fewer GPUs of the chosen type "
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
    out.append("<li>" + _e(translate("Report", "GPU: {gpu}, at least {m} GiB of memory per GPU (this plan needs "
                                              "{m} GiB including headroom); {n} GPUs.").format(
        gpu=_gpu(data.plan.gpu_name), m=fmt_gib(r.min_memory_gib), n=data.plan.num_gpus)) + "</li>")
    for t in (r.intra_node, r.inter_node):
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
    if p.price_source:
        out.append(f'<p class="small">{_e(translate("Report", "Price used for {gpu}: {src} ({date}){default}.").format(gpu=_gpu(p.gpu_name), src=_source_text(p.price_source, "Cost"), date=p.price_date or "—", default=(" — " + translate("Report", "a shipped default; replace it with your quote")) if p.price_is_default else ""))}</p>')
    out.append(f"{_SPACER}<h3>{_e(translate('Report', 'Formulas'))}</h3><ul>")
    out.extend(f'<li class="small">{_e(tr_text(f))}</li>' for f in data.formulas)
    out.append("</ul>")
    out.append(f'<p class="small">{_e(translate("Report", "Estimates from GPU Planner {v}. Measure on the rented machines before committing (nvidia-smi topo -m, nccl-tests all_reduce_perf, a short training run).").format(v=data.app_version))}</p>')
    return "".join(out)


def _html_project(data: ReportData, charts: dict) -> str:
    """6. The project: phases in a table, the timeline, totals by rental mode, week by week, overlap advice,
    rent vs build over the project and the what-if table of the main training phase."""
    proj = data.project
    if proj is None:
        return ""
    cur = proj.currency
    out = [f"<h2 style='page-break-before: always'>6. {_e(translate('Report', 'Project: phases, timeline and growth'))}</h2>"]
    rows = []
    for ph in proj.phases:
        what = (f"{ph.count} × {_gpu(ph.device_name)}" if ph.resource == "gpu"
                else translate("Report", "{nodes} node(s), {n} CPU cores").format(nodes=ph.nodes, n=ph.count))
        d = ph.detail
        if d.get("what") == "serving":
            extra = translate("Report", "TP {tp} × {r} replica(s), {b} users each, {tps} tokens/s per GPU ({p})").format(
                tp=d["tp"], r=d["replicas"], b=d["batch"], tps=format_number(d["tps"], 0), p=d["precision"])
            if d.get("per_m") is not None:
                extra += "; " + translate("Report", "{price} per million tokens").format(price=fmt_price(d["per_m"], cur))
        elif d.get("what") == "cpu":
            extra = translate("Report", "{gb} GB of text, {h} core-hours").format(gb=format_number(d["gb"], 0),
                                                                                   h=format_number(d["core_hours"], 0))
        elif d.get("what") == "training":
            extra = translate("Report", "{model}, {tokens} tokens, {days} days").format(
                model=d["model"], tokens=fmt_count(d["tokens"]), days=fmt_days(d["days"]))
        else:
            extra = ""
        rows.append([f"<b>{_e(ph.name)}</b><br/><span class='small'>{_e(_kind_name(ph.kind))}</span>",
                     f"{format_sig(ph.start_week, 6)}–{format_sig(ph.end_week, 6)}", format_sig(ph.hours_per_week, 6),
                     f"{_e(what)}<br/><span class='small'>{_e(extra)}</span>", _e(_cpu_or_gpu_mode(ph.rental_mode)),
                     _e(fmt_money(ph.cost, cur))])
    rows.append([f"<b>{_e(translate('Report', 'Total'))}</b>", f"0–{format_sig(proj.total_weeks, 6)}", "", "", "",
                 f"<b>{_e(fmt_money(proj.total_cost, cur))}</b>"])
    out.append(_table(rows, header=[translate("Report", "Phase"), translate("Report", "Weeks"),
                                    translate("Report", "h/week"), translate("Report", "Resources"),
                                    translate("Report", "Rental"), translate("Report", "Cost")],
                      escape=False, widths=[18, 8, 9, 37, 14, 14], num_cols={5}))
    if "timeline" in charts:
        url, legend = charts["timeline"]
        h = charts["timeline_height"]
        keys = "&nbsp;&nbsp;&nbsp; ".join(f'<img src="{u}" width="24" height="10"/>&nbsp;{_e(label)}' for label, u in legend)
        out.append(f'<p align="center"><img src="{url}" width="{CHART_WIDTH_PX}" height="{h}"/>'
                   f'<br/><span class="small">{keys}</span></p>')
        out.append(f'<p class="small">{_e(translate("Report", "Timeline: each phase by week with its GPUs or CPU cores and its cost."))}</p>')
    if proj.by_mode:
        out.append(f'<p>{_e(translate("Report", "By rental mode"))}: ' + _e(", ".join(
            f"{_cpu_or_gpu_mode(m)} {fmt_money(v, cur)}" for m, v in proj.by_mode.items())) + "</p>")
    weekly = [[str(w["week"]), str(w["gpus"]), str(w["cpu_cores"]), fmt_money(w["cost"], cur)] for w in proj.weekly]
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
        wrows = []
        for w in proj.what_if:
            change = ", ".join(w["layout_changes"]) or "—"
            note = tr_text(w["note"]) if w["note"] is not None else ""
            wrows.append([_e(names.get(w["change"], w["change"])), _e(yes if w["fits"] else no),
                          _e(fmt_days(w["calendar_days"])), _e(fmt_money(w["cost"], cur)),
                          _e(str(w["gpus_needed"] or w["num_gpus"])), _e(yes if w["in_place_upgrade"] else no),
                          f"{_e(change)}<br/><span class='small'>{_e(note)}</span>"])
        out.append(_table(wrows, header=[translate("Report", "Change"), translate("Report", "Fits"),
                                         translate("Report", "Days"), translate("Report", "Cost"),
                                         translate("Report", "GPUs"), translate("Report", "In place"),
                                         translate("Report", "Layout changes")],
                          escape=False, widths=[14, 7, 8, 13, 7, 9, 42], num_cols={2, 3, 4}))
    return "".join(out)


def _cpu_or_gpu_mode(mode: str | None) -> str:
    if mode == "core_hour":
        return translate("Report", "per core-hour")
    if mode == "node_month":
        return translate("Report", "nodes per month")
    return _mode_name(mode)


def build_html(data: ReportData, charts: dict[str, str]) -> str:
    return ("<html><head><meta charset='utf-8'/></head><body>" + _html_title(data) + _html_task(data)
            + _html_plan(data) + _html_charts(data, charts) + _html_requirements(data) + _html_assumptions(data)
            + _html_project(data, charts) + "</body></html>")


def build_document(data: ReportData, *, lang: str | None = None) -> QTextDocument:
    """The report as a QTextDocument (charts embedded as ``mem://`` image resources).

    The page size is left unset: ``print_`` lays it out for the printer's page (notes §C3 pitfall).
    """
    ensure_app()
    doc = QTextDocument()
    doc.setDefaultStyleSheet(_CSS)
    font = QFont()
    families = ["Noto Sans", "DejaVu Sans", "Liberation Sans", "Arial", "Helvetica"]
    cjk = ensure_cjk_font()
    if lang and lang.lower().startswith("zh") and cjk:
        families = [cjk] + families
    elif cjk:
        families.append(cjk)
    font.setFamilies(families)
    font.setPointSizeF(9.5)
    doc.setDefaultFont(font)
    charts: dict[str, tuple[str, list[tuple[str, str]]]] = {}
    for key, fn in (("memory", memory_chart), ("memory_count", memory_count_chart), ("scaling", scaling_chart),
                    ("cost", cost_time_chart),
                    ("timeline", timeline_chart)):
        res = fn(data)
        if res is None:
            continue
        img, legend = res
        url = f"mem://chart-{key}.png"
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(url), img)
        keys = []
        for i, (label, sw) in enumerate(legend):
            u = f"mem://key-{key}-{i}.png"
            doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(u), sw)
            keys.append((label, u))
        charts[key] = (url, keys)
        if key == "timeline":
            charts["timeline_height"] = round(img.height() * CHART_WIDTH_PX / max(img.width(), 1))
    for on in (True, False):
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(f"mem://box-{'on' if on else 'off'}.png"),
                        _checkbox_image(on))
    doc.setHtml(build_html(data, charts))
    doc.setMetaInformation(QTextDocument.MetaInformation.DocumentTitle, data.title)
    return doc


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


def paginate(doc: QTextDocument, layout: QPageLayout) -> tuple[float, float]:
    """Lay ``doc`` out in pages of the layout's printable area (in the document's own pixels, not device
    pixels: notes §C3) and move headings that would end a page to the next one ("keep with next").

    Returns (page width, page height) in layout pixels; the last :data:`FOOTER_PX` of each printed page
    are left for the page number.
    """
    from PySide6.QtCore import QSizeF
    from PySide6.QtGui import QTextBlockFormat, QTextCursor

    dpi = _source_dpi()
    rect = layout.paintRect(QPageLayout.Unit.Inch)
    w, h = rect.width() * dpi, rect.height() * dpi - FOOTER_PX
    doc.setDocumentMargin(0)
    doc.setPageSize(QSizeF(w, h))
    keep = 90.0  # a heading needs this much room under it on its page
    lay = doc.documentLayout()
    for _ in range(40):
        moved = False
        block = doc.begin()
        while block.isValid():
            fmt = block.blockFormat()
            if fmt.headingLevel() > 0 and fmt.pageBreakPolicy() == QTextBlockFormat.PageBreakFlag.PageBreak_Auto:
                r = lay.blockBoundingRect(block)
                page_end = (math.floor(r.top() / h) + 1) * h
                if r.top() % h > 1 and r.bottom() + keep > page_end:
                    cur = QTextCursor(block)
                    f = QTextBlockFormat(fmt)
                    f.setPageBreakPolicy(QTextBlockFormat.PageBreakFlag.PageBreak_AlwaysBefore)
                    cur.setBlockFormat(f)
                    moved = True
                    break  # relayout, then look again
            block = block.next()
        if not moved:
            moved = _keep_small_tables_together(doc, h) or _keep_short_paragraphs_together(doc, h)
        if not moved:
            break
        _relayout(doc)
    _relayout(doc)
    return w, h


def _relayout(doc: QTextDocument) -> None:
    """Lay the whole document out again after format changes (Qt re-lays out lazily and can leave
    blocks after a changed one with an empty layout)."""
    doc.markContentsDirty(0, doc.characterCount())
    doc.pageCount()  # forces the layout to finish


def _keep_short_paragraphs_together(doc: QTextDocument, h: float) -> bool:
    """A top-level paragraph of a few lines that a page break would split moves whole to the next page."""
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
                f = QTextBlockFormat(fmt)
                f.setPageBreakPolicy(QTextBlockFormat.PageBreakFlag.PageBreak_AlwaysBefore)
                QTextCursor(block).setBlockFormat(f)
                return True
        block = block.next()
    return False


def _keep_small_tables_together(doc: QTextDocument, h: float) -> bool:
    """Move the first small top-level table that straddles a page break to the next page (with the
    heading right above it). Big tables flow on, their header rows repeated on every page."""
    from PySide6.QtGui import QTextBlockFormat, QTextCursor, QTextFormat, QTextTable

    lay = doc.documentLayout()
    for frame in doc.rootFrame().childFrames():
        if not isinstance(frame, QTextTable):
            continue
        r = lay.frameBoundingRect(frame)
        if r.height() >= 0.45 * h or math.floor(r.top() / h) == math.floor((r.bottom() - 1) / h):
            continue
        fmt = frame.format()
        if fmt.pageBreakPolicy() & QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore:
            continue
        prev = doc.findBlock(max(0, frame.firstPosition() - 2))
        if prev.isValid() and prev.blockFormat().headingLevel() > 0 and \
                lay.blockBoundingRect(prev).top() >= math.floor(r.top() / h) * h:
            bf = QTextBlockFormat(prev.blockFormat())
            bf.setPageBreakPolicy(QTextBlockFormat.PageBreakFlag.PageBreak_AlwaysBefore)
            QTextCursor(prev).setBlockFormat(bf)
        else:
            fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
            frame.setFormat(fmt)
        return True
    return False


def print_to(doc: QTextDocument, device, layout: QPageLayout, footer: str = "") -> int:
    """Print a paginated ``doc`` on ``device`` (QPdfWriter or QPrinter), page numbers at the foot of each
    page ("3 / 7", and ``footer`` on the left). Returns the number of pages."""
    from PySide6.QtCore import QPointF

    w, h = paginate(doc, layout)
    pages = max(1, doc.pageCount())
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


_raw_fonts: list = []


def unsupported_characters(text: str) -> list[str]:
    """The characters of ``text`` that no font Qt knows (installed, or the bundled CJK subset once
    registered) can draw: Qt would print them as empty boxes or drop them. Whitespace and control/format
    characters are not drawn and never count."""
    import unicodedata as ud

    from PySide6.QtGui import QRawFont

    # U+FFFC stands for an embedded image (a chart) in QTextDocument.toPlainText(): not drawn as text
    wanted = sorted({c for c in text if ord(c) > 0x7E and c != "\ufffc" and not c.isspace()
                     and ud.category(c)[0] not in "CZ"})
    if not wanted:
        return []
    if not _raw_fonts:
        for fam in QFontDatabase.families():
            raw = QRawFont.fromFont(QFont(fam))
            if raw.isValid():
                _raw_fonts.append(raw)
    # the code point, not the str: PySide6 6.12 maps some one-character strs to the wrong QChar
    return [c for c in wanted if not any(r.supportsCharacter(ord(c)) for r in _raw_fonts)]


def check_characters(doc: QTextDocument) -> None:
    """A report must never drop a character silently (a vendor would get a blank where the Chinese was):
    raise a one-line PlannerError naming the first characters no font can draw."""
    missing = unsupported_characters(doc.toPlainText())
    if missing:
        from ..core.errors import PlannerError

        shown = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise PlannerError(f"the report has characters no installed or bundled font can draw: {shown}{more}; "
                           "install a font that has them or remove them from the plan's text")


def export_pdf(data: ReportData, path: str | os.PathLike, paper: str = "a4", lang: str | None = None) -> Path:
    """Write the report to ``path`` as PDF (A4 or Letter). ``lang`` installs that translation first
    (``None`` keeps whatever is installed, as in the app)."""
    ensure_app()
    if lang is not None:
        install_language(lang)
    path = Path(path)
    check_writable_folder(path)  # before the render: a read-only folder fails at once, in one line
    doc = build_document(data, lang=lang or QLocale().name())
    check_characters(doc)
    layout = page_layout(paper)
    # rendered into memory, then written atomically: Qt never opens the output file (so it prints no
    # "QPainter::begin(): Returned false" of its own) and a full disk leaves no truncated PDF
    pdf = QByteArray()
    buf = QBuffer(pdf)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buf)
    writer.setPageLayout(layout)
    writer.setResolution(300)
    writer.setTitle(data.title)
    writer.setCreator(f"GPU Planner {data.app_version}")
    print_to(doc, writer, layout, footer=data.title)
    del writer  # finish the PDF
    buf.close()
    return write_output(path, bytes(pdf.data()))


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

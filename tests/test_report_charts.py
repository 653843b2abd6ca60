"""The PDF's charts (``gpuplanner/report/charts.py``, drawn with QPainter): tick arithmetic by hand, every text
a chart draws is inside its image and comes from the formatter and the translation, labels do not collide,
and building a report loads no pyqtgraph.

Every string a chart draws is recorded in ``Chart.texts`` with its box (layout pixels), so the tests read what
was drawn and where without looking at pixels.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EX_8B = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"  # deadline set, two alternatives
EX_PROJECT = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"  # all five charts, a project


# ------------------------------------------------------------------------------ ticks, by hand

def test_nice_step_is_the_smallest_1_2_5_step_that_fits():
    from gpuplanner.report.charts import nice_step

    assert nice_step(92, 7) == 20  # 92 / 7 = 13.1 → 20 (10 would need 10 steps)
    assert nice_step(100, 10) == 10  # exactly 10 steps of 10
    assert nice_step(1.0, 5) == pytest.approx(0.2)
    assert nice_step(0.25, 5) == pytest.approx(0.05)
    assert nice_step(7.3, 3) == 5  # 2.43 → 5
    assert nice_step(0, 5) == 1.0 and nice_step(float("nan"), 5) == 1.0


def test_linear_ticks_hand_values():
    from gpuplanner.report.charts import linear_ticks

    assert linear_ticks(0, 92, 7) == [0, 20, 40, 60, 80]
    # exact decimals: 0.1 + 2 × 0.05 is 0.2, not 0.20000000000000004
    assert linear_ticks(0.1, 0.35, 5) == [0.1, 0.15, 0.2, 0.25, 0.3, 0.35]
    assert linear_ticks(-3, 3, 6) == [-3, -2, -1, 0, 1, 2, 3]
    assert linear_ticks(1230, 1290, 4) == [1240, 1260, 1280]
    assert all(str(v) != "-0.0" for v in linear_ticks(-1, 1, 4))


def test_log_ticks_1_2_5_then_thinned_to_decades():
    from gpuplanner.report.charts import log_ticks

    assert log_ticks(0.4, 25) == pytest.approx([0.5, 1, 2, 5, 10, 20])
    assert log_ticks(15, 90) == pytest.approx([20, 50])
    # 1..1e6 with 1, 2, 5 is 19 ticks; 1, 3 is 13; more than 12: powers of ten alone
    assert log_ticks(1, 1e6, 12) == pytest.approx([1, 10, 100, 1e3, 1e4, 1e5, 1e6])
    assert log_ticks(1, 1e6, 20) == pytest.approx([1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4,
                                                   5e4, 1e5, 2e5, 5e5, 1e6])
    # 1e0 … 1e12 in at most 5 ticks: every third decade
    assert log_ticks(1, 1e12, 5) == pytest.approx([1, 1e3, 1e6, 1e9, 1e12])


def test_axis_maps_values_linear_and_log():
    from gpuplanner.report.charts import Axis

    assert Axis(0, 80).frac(20) == pytest.approx(0.25)
    assert Axis(1, 1000, log=True).frac(10) == pytest.approx(1 / 3)
    # ticks outside the range are dropped; default ticks come from the formatter
    assert [v for v, _ in Axis(0, 100, ticks=[(-5, "a"), (50, "b"), (150, "c")]).tick_list(5)] == [50]


# ------------------------------------------------------------------------------------ the charts

@pytest.fixture(scope="module")
def examples(app):
    from gpuplanner.app.answer import report_data as load_report_data

    return {"8b": load_report_data(EX_8B, author=""), "project": load_report_data(EX_PROJECT, author="")}


@pytest.fixture
def lang(app, request):
    """The report's language for one test (installed like ``gpuplanner report --lang``), English after it."""
    from gpuplanner.report.render import install_language

    def use(code: str) -> None:
        install_language(None if code == "en" else code)

    request.addfinalizer(lambda: install_language(None))
    return use


def _drawn(data):
    from gpuplanner.report.render import CHART_DRAWERS

    out = {}
    for key, draw in CHART_DRAWERS:
        res = draw(data)
        if res is not None:
            out[key] = res
    return out


def _inside(rect, chart) -> bool:
    eps = 0.01
    return rect.left() >= -eps and rect.top() >= -eps and rect.right() <= chart.width + eps \
        and rect.bottom() <= chart.height + eps


def _overlap(a, b) -> bool:
    return a.intersected(b).width() > 0.5 and a.intersected(b).height() > 0.5


@pytest.mark.parametrize("code", ["en", "zh_CN"])
def test_every_text_inside_its_image_and_ticks_apart(examples, lang, code):
    from gpuplanner.report.charts import EXPORT_WIDTH, SCALE

    lang(code)
    seen = set()
    for name, data in examples.items():
        for key, (chart, legend) in _drawn(data).items():
            seen.add(key)
            img = chart.image
            assert img.width() == EXPORT_WIDTH and img.height() == round(chart.height * SCALE), key
            assert chart.texts, key
            for text, rect in chart.texts:
                assert text.strip() or text == "", key
                assert _inside(rect, chart), (name, key, text, rect)
            # tick labels of one axis never touch each other
            for ticks, pos in ((chart.y_ticks, chart.ypx), (chart.x_ticks, chart.xpx)):
                boxes = [r for t, r in chart.texts if t and any(t.split("\n")[0] == s.split("\n")[0] for _v, s in ticks
                                                                 if s)]
                for i, a in enumerate(boxes):
                    for b in boxes[i + 1:]:
                        assert not _overlap(a, b), (name, key)
            assert all(lbl for lbl, _k in legend), key
            # something was drawn: a chart is not a white page
            dark = sum(1 for x in range(0, img.width(), 7) for y in range(0, img.height(), 7)
                       if img.pixelColor(x, y).lightness() < 128)
            assert dark > 100, key
    assert seen == {"memory", "memory_count", "scaling", "cost", "timeline"}


def test_chinese_chart_texts_come_from_the_translation_and_the_formatter(examples, lang):
    from PySide6.QtCore import QCoreApplication

    from gpuplanner.formatting import format_axis, format_count
    from gpuplanner.report.content import fmt_gib

    lang("zh_CN")

    def zh(text):
        out = QCoreApplication.translate("Report", text)
        assert out != text, f"no Chinese for {text!r}"
        return out

    charts = _drawn(examples["8b"])
    cost = charts["cost"][0]
    texts = [t for t, _r in cost.texts]
    assert zh("total cost ({cur})").format(cur="CNY") in texts
    assert zh("training days") in texts
    # y ticks: the one formatter in Chinese (10 thousands are 万: 80,000 → "8万"), never "80K"
    for v, s in cost.y_ticks:
        assert s == format_axis(v, "zh_CN") and s in texts
    assert any("万" in s for _v, s in cost.y_ticks) and not any(s.endswith("K") for _v, s in cost.y_ticks)

    mem = charts["memory"][0]
    texts = [t for t, _r in mem.texts]
    assert zh("GiB per GPU") in texts
    plan = examples["8b"].plan
    used = zh("{v} GiB used").format(v=fmt_gib(plan.memory["total"]))  # the Evaluation's total, as the table
    assert any(used in t for t in texts), texts
    assert zh("card: {cap} GiB").format(cap=fmt_gib(plan.gpu_memory_gib)) in texts
    assert any(t.startswith(zh("weights") + " ") for t in texts)

    scaling = charts["scaling"][0]
    texts = [t for t, _r in scaling.texts]
    assert [s for _v, s in scaling.x_ticks] == [format_count(n, "zh_CN") for n, _d in sorted(examples["8b"].scaling)]
    assert zh("deadline {d} d").format(d="14") in texts  # the typed deadline as typed (ux25; was "14.0")
    # no English template left in any chart of the Chinese report
    for key, (chart, legend) in charts.items():
        for text, _r in chart.texts:
            for english in ("GiB per GPU", "training days", "card:", "deadline", "GiB used", "GPUs", "total cost",
                            "weeks from"):
                assert english not in text, (key, text)
        for label, _k in legend:
            assert label.isascii() is False, (key, label)


def test_cost_chart_labels_do_not_collide_and_the_chosen_plan_is_labelled(examples, lang):
    lang("en")
    from gpuplanner.report.render import draw_cost_time_chart

    data = examples["8b"]
    chart, _legend = draw_cost_time_chart(data)
    chosen = next(lbl for lbl, _d, _c, ch in data.cost_vs_time if ch)
    point_labels = [(t, r) for t, r in chart.texts if any(t == lbl for lbl, *_ in data.cost_vs_time)]
    assert chosen in [t for t, _r in point_labels]
    for i, (_ta, a) in enumerate(point_labels):
        assert chart.plot.contains(a)
        for _tb, b in point_labels[i + 1:]:
            assert not _overlap(a, b)


def test_long_phase_name_is_elided_inside_the_timeline(examples, lang):
    lang("en")
    from gpuplanner.report.render import draw_timeline_chart

    data = examples["project"]
    proj = data.project
    long_name = "Phase " + "x" * 400
    phases = [dataclasses.replace(proj.phases[0], name=long_name)] + list(proj.phases[1:])
    chart, _legend = draw_timeline_chart(dataclasses.replace(data, project=dataclasses.replace(proj, phases=phases)))
    label = next((t, r) for t, r in chart.texts if t.startswith("Phase xxx"))
    assert label[0].endswith("…") and len(label[0]) < len(long_name)
    assert _inside(label[1], chart)


def test_memory_labels_stay_above_the_axis_and_apart(examples, lang):
    lang("en")
    from gpuplanner.report.render import draw_memory_chart

    chart, legend = draw_memory_chart(examples["8b"])
    names = [lbl for lbl, _k in legend]
    parts = [r for t, r in chart.texts if any(t.startswith(n + " ") for n in names)]
    assert len(parts) >= 4
    for i, a in enumerate(parts):
        assert a.bottom() <= chart.plot.bottom() + 0.01
        for b in parts[i + 1:]:
            assert not _overlap(a, b)


def test_chart_images_keep_the_aspect_they_are_printed_at(examples, lang):
    """The HTML shows each chart CHART_WIDTH_PX × CHART_HEIGHT_PX (the timeline: its own height): the image has
    that shape, so nothing is squeezed (pyqtgraph's export was 4:3 and came out squashed by 40%)."""
    lang("en")
    from gpuplanner.report.render import (
        CHART_HEIGHT_PX, CHART_WIDTH_PX, chart_image, draw_memory_chart, draw_scaling_chart,
    )

    for fn in (draw_memory_chart, draw_scaling_chart):
        img, _legend = chart_image(fn(examples["8b"]))
        assert img.height() / img.width() == pytest.approx(CHART_HEIGHT_PX / CHART_WIDTH_PX, abs=1e-3)


def test_report_does_not_load_pyqtgraph():
    """A report built in a fresh process imports no pyqtgraph (its import alone was a quarter of a second)."""
    code = ("import sys, tempfile, os\n"
            "os.environ.setdefault('QT_QPA_PLATFORM', 'offscreen')\n"
            "from gpuplanner.app.answer import report_data as load_report_data\n"
            "from gpuplanner.report_file import export_pdf\n"
            f"data = load_report_data({str(EX_PROJECT)!r}, author='')\n"
            "out = export_pdf(data, os.path.join(tempfile.mkdtemp(), 'r.pdf'))\n"
            "assert out.stat().st_size > 10000\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'pyqtgraph')\n"
            "print(bad)\n"
            "sys.exit(1 if bad else 0)")
    env = {**__import__("os").environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stdout + p.stderr


def test_pdf_draws_the_charts_as_vectors_in_their_place(examples, lang, tmp_path):
    """The PDF holds the charts as vector graphics over the blank that keeps their place in the layout: the
    place is the image's line box (centred, inside its paragraph, one per chart), and the charts' texts are
    text in the PDF (pdftotext finds the Chinese axis title), no chart raster is embedded."""
    import shutil

    from PySide6.QtCore import QCoreApplication

    from gpuplanner.report.render import CHART_WIDTH_PX, build_document, chart_rects, page_layout, paginate
    from gpuplanner.report_file import export_pdf

    lang("zh_CN")
    data = examples["project"]
    doc = build_document(data, lang="zh_CN")
    w, h = paginate(doc, page_layout("a4"))
    rects = chart_rects(doc)
    assert sorted(round(r.height()) for r, _c in rects) == sorted(round(c.height) for _r, c in rects)
    assert len(rects) == 5
    for i, (r, chart) in enumerate(rects):
        assert r.width() == CHART_WIDTH_PX and r.center().x() == pytest.approx(w / 2, abs=1.0)
        assert int((r.top() + 1) // h) == int((r.bottom() - 1) // h), "a chart split by a page break"
        for r2, _c in rects[i + 1:]:
            assert not r.intersects(r2)
        # no line of text (another paragraph, the legend under the chart, a caption) runs into the chart
        pos = next(p for p in range(doc.characterCount()) if _is_chart_at(doc, p, chart))
        inner = r.adjusted(1, 1, -1, -1)
        block = doc.begin()
        while block.isValid():
            lay = block.layout()
            for j in range(lay.lineCount()):
                ln = lay.lineAt(j)
                start = block.position() + ln.textStart()
                if start <= pos < start + ln.textLength() or ln.height() <= 0 or not block.text().strip():
                    continue
                assert not ln.rect().translated(lay.position()).intersects(inner), (block.text()[:40], r)
            block = block.next()
    pdf = export_pdf(data, tmp_path / "r.pdf", lang="zh_CN")
    assert pdf.stat().st_size < 600_000  # five rasters of 2000 px were ~1 MB of JPEG
    if shutil.which("pdftotext") and shutil.which("pdfimages"):
        import unicodedata

        # NFKC: poppler writes some CJK glyphs as their Kangxi-radical twins (⽤ for 用)
        text = unicodedata.normalize("NFKC", subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True,
                                                            text=True, check=True).stdout)
        assert QCoreApplication.translate("Report", "weeks from the start") in text
        assert QCoreApplication.translate("Report", "GiB per GPU") in text
        images = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True, text=True, check=True).stdout
        assert not [ln for ln in images.splitlines()[2:] if int(ln.split()[3]) > 100], images


def _is_chart_at(doc, pos, chart) -> bool:
    from PySide6.QtGui import QTextCursor

    if doc.characterAt(pos) != "\ufffc":
        return False
    cur = QTextCursor(doc)
    cur.setPosition(pos + 1)
    fmt = cur.charFormat()
    return fmt.isImageFormat() and doc._report_charts.get(fmt.toImageFormat().name()) is chart


def test_character_check_asks_the_report_fonts_first_with_the_same_answer(app):
    """check_characters reads the report's own fonts first and the other families only for what those lack:
    the answer is the one of asking every family (Linear B 𐀀 and a CJK Extension B ideograph are in no
    usual font; ×, —, ¥, Chinese are)."""
    from PySide6.QtGui import QFont, QFontDatabase, QRawFont

    from gpuplanner.report.render import report_families, unsupported_characters

    text = "8 × H100 — ¥1,234 ≥ 400 Gb/s 单卡显存 ✓ \U00010000 \U00020000 \u0301e"
    import unicodedata

    expected = sorted(c for c in set(text) if ord(c) > 0x7E and unicodedata.category(c)[0] not in "CZ"
                      and not any(r.isValid() and r.supportsCharacter(ord(c))
                                  for r in (QRawFont.fromFont(QFont(f)) for f in QFontDatabase.families())))
    assert unsupported_characters(text, first=report_families("zh_CN")) == expected
    assert unsupported_characters(text) == expected
    assert "×" not in expected and "单" not in expected and "\U00010000" in expected


def test_far_deadline_leaves_the_cost_axis_on_the_plans(app, lang):
    """The MoE example's plans take hours and its deadline is 10 days: an axis stretched to the deadline put every
    point in the left tenth, the chosen plan's label over the other markers. The axis now stays on the plans and
    the legend says where the deadline is; the chosen plan's label crosses no other marker."""
    from gpuplanner.app.answer import report_data as load_report_data
    from gpuplanner.report.render import chart_time_unit, draw_cost_time_chart

    lang("en")
    data = load_report_data(ROOT / "examples" / "qwen3-moe-full-16xh100.gpuplan", author="")
    deadline = data.task.deadline_days
    days = [d for _l, d, _c, _ch in data.cost_vs_time]
    assert deadline and deadline > 3 * max(days)
    chart, legend = draw_cost_time_chart(data)
    assert chart.x.hi < deadline / chart_time_unit(data)[1]  # the axis in the chosen plan's unit (hours; ux23)
    assert any(t.startswith("deadline 10 d, right of the chart") for t, _k in legend)  # as typed (ux25)
    chosen = next((lbl, d, c) for lbl, d, c, ch in data.cost_vs_time if ch)
    box = next(r for t, r in chart.texts if t == chosen[0])
    per = chart_time_unit(data)[1]
    for _lbl, d, c, _ch in data.cost_vs_time:
        if (d, c) != chosen[1:]:
            assert not box.contains(chart.px(d / per, c)), (d, c)

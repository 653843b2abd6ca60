"""The PDF lays out any notes in bounded time (issue 18, hangs): notes are capped (saying so) and long
unbroken runs get break opportunities before the HTML is laid out. Before: a single 100 kB word took
3-6 s and a 2 MB one never finished (over 600 s)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLAN = ROOT / "examples" / "8b-full-8xh100.gpuplan"
ZWSP = "\u200b"


def test_breakable_splits_only_long_runs():
    from gpuplanner.report.render import _RUN_CHARS, breakable

    assert breakable("a normal sentence, with https://x.y/z short words") == \
        "a normal sentence, with https://x.y/z short words"
    word = "x" * 1000
    out = breakable(f"before {word} after")
    assert out.startswith("before ") and out.endswith(" after")
    parts = out[len("before "):-len(" after")].split(ZWSP)
    assert "".join(parts) == word and max(map(len, parts)) == _RUN_CHARS
    assert breakable(out) == out  # already broken: unchanged
    # never between a letter and its combining accent
    accented = "e\u0301" * 100
    for part in breakable(accented).split(ZWSP):
        assert not unicodedata.combining(part[0])


def test_breaks_go_in_before_escaping():
    from gpuplanner.report.render import _et

    html = _et("<&>" * 40)
    assert "&lt;" in html and "&amp;" in html and ZWSP in html
    for entity in html.split(ZWSP):
        assert entity.count("&") == entity.count(";")  # no entity cut in two


def test_notes_are_capped_and_say_so():
    from gpuplanner.app.answer import report_data as load_report_data
    from gpuplanner.report.render import NOTES_MAX_CHARS, _html_title

    data = load_report_data(PLAN)
    data.notes = "y" * 2_000_000
    html = _html_title(data)
    assert len(html) < 2 * NOTES_MAX_CHARS
    assert f"The notes are cut here: {2_000_000 - NOTES_MAX_CHARS:,} more characters are in the plan file." in html
    data.notes = "short notes"
    assert "short notes" in _html_title(data) and "cut here" not in _html_title(data)


_RENDER = textwrap.dedent(r"""
    import sys, time
    from gpuplanner.app.answer import report_data as load_report_data
    from gpuplanner.report.render import ensure_app
    from gpuplanner.report_file import export_pdf
    ensure_app()
    data = load_report_data(sys.argv[1])
    data.notes = "A" * int(sys.argv[3])
    t = time.perf_counter()
    export_pdf(data, sys.argv[2])
    print(f"{time.perf_counter() - t:.2f}")
""")


@pytest.mark.parametrize("size", [100_000, 2_000_000])
def test_a_huge_unbroken_word_in_the_notes_renders_quickly(tmp_path, size):
    out = tmp_path / "notes.pdf"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    try:
        proc = subprocess.run([sys.executable, "-c", _RENDER, str(PLAN), str(out), str(size)], capture_output=True,
                              text=True, timeout=120, env=env, cwd=ROOT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"a {size:,}-character word in the notes did not render within 120 s")
    assert proc.returncode == 0, proc.stderr
    assert float(proc.stdout.strip()) < 30  # ~1 s here (the report without notes takes ~0.7 s)
    assert out.read_bytes()[:5] == b"%PDF-"
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, timeout=60).stdout
        assert "AAAAAAAAAAAAAAAAAAAA" in text
        if size > 20_000:
            assert "The notes are cut here" in " ".join(text.split())

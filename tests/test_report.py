"""The printed plan: PDF for every example, figures from the core, page sizes, Chinese edition, CLI.

Text checks need poppler's ``pdftotext``/``pdfinfo``/``pdffonts`` (``apt-get install poppler-utils``;
``.ci/run`` installs it together with ``fonts-noto-cjk``); without them those checks are skipped.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from types import SimpleNamespace

from gpuplanner.app.answer import report_data as load_report_data
from gpuplanner.report.content import fmt_days, fmt_gib, fmt_money, fmt_price

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(p for p in (ROOT / "examples").iterdir() if p.suffix in (".json", ".gpuplan"))
POPPLER = all(shutil.which(t) for t in ("pdftotext", "pdfinfo", "pdffonts"))
needs_poppler = pytest.mark.skipif(not POPPLER, reason="poppler-utils (pdftotext/pdfinfo/pdffonts) not installed")


def _run(*cmd: str) -> str:
    return subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=60).stdout


def _pages(pdf: Path) -> int:
    if POPPLER:
        return int(re.search(r"Pages:\s+(\d+)", _run("pdfinfo", str(pdf))).group(1))
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))


def _text(pdf: Path) -> str:
    # -raw keeps table cells in content order; squeeze whitespace so wrapped cells still match
    # NFKC undoes typographic ligatures (ﬁ → fi) that the PDF fonts use
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", _run("pdftotext", "-raw", str(pdf), "-")))


@pytest.fixture(scope="module")
def reports(app, tmp_path_factory):
    """Every example rendered once to A4 PDF: {name: (data, pdf path)}."""
    from gpuplanner.report_file import export_pdf

    out = {}
    folder = tmp_path_factory.mktemp("reports")
    for ex in EXAMPLES:
        data = load_report_data(ex, author="Test Team")
        pdf = export_pdf(data, folder / f"{ex.name}.pdf", paper="a4")
        out[ex.name] = (data, pdf)
    return out


def test_examples_exist():
    assert any(p.suffix == ".gpuplan" for p in EXAMPLES) and any(p.suffix == ".json" for p in EXAMPLES)


def test_formatting_helpers_hand_values():
    assert fmt_money(1234567.4, "CNY") == "¥1,234,567"
    assert fmt_money(99.5, "USD") == "$100"
    assert fmt_money(None, "USD") == "—"
    assert fmt_price(2.456, "USD") == "$2.46"
    assert fmt_days(12.345) == "12.3"
    assert fmt_days(240.4) == "240"
    # below a day, two decimals as the live panel and the CLI (a 0.24-day run read "0.2" in the PDF)
    assert fmt_days(0.24) == "0.24" and fmt_days(0.05) == "0.05" and fmt_days(1.26) == "1.3"
    assert fmt_gib(63.96) == "64.0"


@pytest.mark.parametrize("example", [p.name for p in EXAMPLES])
def test_pdf_for_each_example(reports, example):
    data, pdf = reports[example]
    assert pdf.exists() and pdf.read_bytes().startswith(b"%PDF")
    n = _pages(pdf)
    assert 2 <= n <= 12, n


def _independent_estimate(path: Path):
    """The chosen configuration estimated straight through the core (not through the report): a plan file's
    selected plan is its complete scenario, which ``load_scenario`` returns."""
    from gpuplanner.core.estimate import estimate
    from gpuplanner.io.scenario_files import load_scenario

    scenario, base = load_scenario(path)
    if scenario.parallel.auto:  # the document stands for the search's #1 (examples16: three examples let it choose)
        from gpuplanner.core.search import search

        scenario = search(scenario, top=1).plans[0].evaluation.scenario
    return estimate(scenario, base)


@needs_poppler
@pytest.mark.parametrize("example", [p.name for p in EXAMPLES])
def test_pdf_text_has_core_figures(reports, example):
    data, pdf = reports[example]
    text = _text(pdf)
    est = _independent_estimate(ROOT / "examples" / example)
    # the model, the GPU and the days come from the core, not from the report's own arithmetic
    assert est.resolved.arch.name in text
    assert data.plan.gpu_id == est.resolved.gpu.id
    assert est.resolved.gpu.name in text
    assert est.time is not None
    # a plan whose modelled MFU is above its class's best published run is timed at that run's figure (the
    # Evaluation's ``time``, core/advisor.time_at; advice18/advice19 cap the Shenzhen example's fixed layout on its
    # HFU): the independent figure is the core's evaluate, which applies the same ceiling
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.io.scenario_files import load_scenario

    ev = evaluate(est.resolved.scenario, load_scenario(ROOT / "examples" / example)[1])
    if ev.time_modelled is not None:
        est = SimpleNamespace(resolved=est.resolved, memory=est.memory, time=ev.time)
    assert data.plan.compute_days == pytest.approx(est.time.compute_days, rel=1e-9)
    if data.plan.calendar_days < 1:  # below a day in hours, as the Project page (formatting.format_elapsed; ux21)
        from gpuplanner.formatting import format_elapsed

        assert f"{format_elapsed(est.time.compute_days, 'en', 'hours')} of compute" in text
    else:
        assert f"{fmt_days(est.time.compute_days)} days of compute" in text
    assert fmt_gib(est.memory.total) in text
    if data.plan.cost is not None:
        # every rental mode's total is printed, and the recommended one is the cheapest without interruptions
        # (a cheaper spot price is printed beside it, not billed: prices of one kind, rules.price_kind)
        for mode, cost in data.plan.mode_costs.items():
            assert fmt_money(cost, data.currency) in text, mode
        # (the mode choice treats costs within a relative 1e-9 as equal and keeps the simpler mode: card-hours)
        from gpuplanner.core.cost import STEADY_MODES

        steady = [c for m, c in data.plan.mode_costs.items() if m in STEADY_MODES] or list(data.plan.mode_costs.values())
        assert data.plan.cost == pytest.approx(min(steady), rel=1e-9)
        # card-hours bill at least the training hours of every GPU, and setup/checkpoints add < 60 %
        # (where the GPU has a card-hour price: a mainland H100 or 4090 default is a monthly commitment)
        if "card_hour" in data.plan.mode_costs:
            price = data.plan.mode_costs["card_hour"]
            p = _price_for(data)
            floor = data.plan.num_gpus * est.time.compute_days * 24.0 * p
            assert floor <= price <= 1.6 * floor
    for alt in data.alternatives:
        assert fmt_money(alt.cost, data.currency) in text
    assert "Test Team" in text
    n = _pages(pdf)
    assert f"1 / {n}" in text and f"{n} / {n}" in text  # page numbers
    # every section made it onto the pages (nothing lost to pagination)
    for heading in ("1. The task", "2. The recommendation", "3. Charts", "4. Requirements for the vendor",
                    "Vendor checklist", "5. Assumptions and sources", "Formulas", "Memory per GPU: the parts",
                    "Estimates from GPU Planner"):
        assert heading in text, heading
    for row in data.checklist:
        assert row.label.render().split()[0] in text


def _price_for(data) -> float:
    row = next(a for a in data.assumptions if a.what.text.startswith("Rental price"))
    return float(row.value.split()[0].lstrip("¥$€").replace(",", ""))


@needs_poppler
def test_alternatives_match_the_plan_search(reports):
    """The two alternatives are the search's next plans, with the search's own costs and days."""
    from gpuplanner.core import search
    from gpuplanner.io.scenario_files import load_scenario

    data, _pdf = reports["llama3-8b-full.json"]  # examples16: the example now lets the search choose
    scenario, base = load_scenario(ROOT / "examples" / "llama3-8b-full.json")
    ranked = search.search(scenario, base, top=10).plans
    got = [(a.gpu_id, a.num_gpus, round(a.cost, 2)) for a in data.alternatives]
    want = [(p.gpu, p.num_gpus, round(p.cost, 2)) for p in ranked
            if not (p.gpu == data.plan.gpu_id and p.num_gpus == data.plan.num_gpus and p.tp == data.plan.layout.tp
                    and p.pp == data.plan.layout.pp)][:2]
    assert got == want
    assert all(a.why_lost for a in data.alternatives)
    # the memory drawn for an alternative is the memory the search computed for that layout
    by_key = {(p.gpu, p.num_gpus, round(p.cost, 2)): p for p in ranked}
    for a in data.alternatives:
        p = by_key[(a.gpu_id, a.num_gpus, round(a.cost, 2))]
        assert a.memory["total"] == pytest.approx(p.memory_per_gpu_gib, rel=0.01)


@needs_poppler
def test_letter_and_a4_page_sizes_differ(app, tmp_path):
    from gpuplanner.report_file import export_pdf

    data = load_report_data(ROOT / "examples" / "7b-lora-1x4090.json")
    a4 = export_pdf(data, tmp_path / "a4.pdf", paper="a4")
    letter = export_pdf(data, tmp_path / "letter.pdf", paper="letter")
    size = lambda p: re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", _run("pdfinfo", str(p))).groups()  # noqa: E731
    assert tuple(round(float(x)) for x in size(a4)) == (595, 842)  # 210 × 297 mm in points
    assert tuple(round(float(x)) for x in size(letter)) == (612, 792)  # 8.5 × 11 in


def test_tables_repeat_their_header_rows(app):
    from PySide6.QtGui import QTextTable

    from gpuplanner.report.render import build_document

    data = load_report_data(ROOT / "examples" / "8b-full-8xh100.gpuplan")
    doc = build_document(data)
    tables = [f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable)]
    with_header = [t for t in tables if t.format().headerRowCount() >= 1]
    # checklist, cost by mode, alternatives, memory (nested) ... at least the top-level ones with <thead>
    assert len(with_header) >= 3
    assert len(data.checklist) >= 5


def test_checklist_state_from_plan_file():
    data = load_report_data(ROOT / "examples" / "70b-cpt-64xh100.gpuplan")
    from gpuplanner.io import planfile

    doc, _ = planfile.load(ROOT / "examples" / "70b-cpt-64xh100.gpuplan")
    ticked = {i.id for i in doc.vendor_checklist if i.checked}
    rows = {r.id: r for r in data.checklist}
    assert ticked and all(rows[i].checked for i in ticked)
    assert not any(r.checked for r in data.checklist if r.id not in ticked)


@needs_poppler
def test_chinese_edition_embeds_a_cjk_font(app, tmp_path):
    from gpuplanner.i18n import qm_path
    from gpuplanner.report.render import ensure_cjk_font, install_language
    from gpuplanner.report_file import export_pdf

    if qm_path("zh_CN") is None:
        pytest.skip("no zh_CN translation (.ts/.qm) in this build")
    if ensure_cjk_font() is None:
        pytest.skip("no CJK font installed (apt-get install fonts-noto-cjk)")
    data = load_report_data(ROOT / "examples" / "70b-cpt-64xh100.gpuplan")
    try:
        pdf = export_pdf(data, tmp_path / "zh.pdf", lang="zh_CN")
    finally:
        install_language("en")
    fonts = _run("pdffonts", str(pdf))
    assert re.search(r"CJK|Han|WenQuanYi|YaHei|PingFang|SimHei|NotoSansSCSubset", fonts), fonts  # installed or bundled
    text = _text(pdf)
    assert re.search(r"[\u4e00-\u9fff]", text), "no Chinese text in the zh_CN report"
    assert 2 <= _pages(pdf) <= 12


def test_cli_report_writes_pdf(app, tmp_path):
    from gpuplanner.cli import run_cli

    out = tmp_path / "plan.pdf"
    assert run_cli(["report", str(ROOT / "examples" / "7b-lora-1x4090.gpuplan"), "-o", str(out),
                    "--paper", "letter", "--author", "Infra team"]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    if POPPLER:
        assert "612 x 792" in _run("pdfinfo", str(out))
        assert "Infra team" in _text(out)


def test_cli_report_bad_input_is_one_line(app, tmp_path, capsys):
    from gpuplanner.cli import run_cli

    assert run_cli(["report", str(tmp_path / "missing.json"), "-o", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("gpuplanner: error:") and "\n" not in err and "Traceback" not in err
    assert run_cli(["report", str(ROOT / "examples" / "7b-lora-1x4090.json"), "-o",
                    str(tmp_path / "no" / "such" / "x.pdf")]) == 2


def test_content_module_has_no_qt():
    code = ("import sys, gpuplanner.report.content as c; "
            "sys.exit(1 if any(m.startswith(('PySide6', 'pyqtgraph')) for m in sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0


# ------------------------------------------------------------------ one plan, one answer: the PDF


def _estimate_json(path: Path, capsys) -> dict:
    import json

    from gpuplanner.cli import run_cli

    assert run_cli(["estimate", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _pdf_agrees(text: str, e: dict) -> None:
    """The chosen plan's memory total, calendar days and cost in the PDF are ``estimate --json``'s."""
    # ux27: a plan that fits says the margin kept free as a sum ("69.4 GiB + 2.0 GiB kept free … = 71.4 of 80.0")
    total = fmt_gib(e["memory_per_gpu_gib"]["total"])
    assert f"{total} GiB of" in text or f"{total} GiB + " in text, e["memory_per_gpu_gib"]["total"]
    # one message in either unit: hours below a day, as the Project page (formatting.format_plan_span; ux21, ux22)
    from gpuplanner.formatting import format_plan_span

    band = tuple(e["calendar_days_band"]) if e.get("calendar_days_band") else None
    assert f"Training takes about {format_plan_span(e['calendar_days'], band)[0]} in calendar time" in text
    if e["cost"] is not None:
        assert f"and costs about {fmt_money(e['cost'], e['currency'])}" in text


@needs_poppler
@pytest.mark.parametrize("example", [p.name for p in EXAMPLES])
def test_pdf_agrees_with_estimate(reports, example, capsys):
    path = ROOT / "examples" / example
    _data, pdf = reports[example]
    _pdf_agrees(_text(pdf), _estimate_json(path, capsys))


@needs_poppler
@pytest.mark.parametrize("example", [p.name for p in EXAMPLES])
def test_pdf_agrees_with_estimate_with_automatic_layout(app, example, tmp_path, capsys):
    """The same file with ``parallel.auto`` (a plan file's selected plan dropped): both stand for the search's #1
    (gpuplanner.app.answer.decide), so the PDF and ``estimate`` still agree."""
    from gpuplanner.report_file import export_pdf

    sys.path.insert(0, str(ROOT / "tests"))
    from answer_examples import auto_variant

    f = auto_variant(ROOT / "examples" / example, tmp_path)
    pdf = export_pdf(load_report_data(f), tmp_path / "auto.pdf", paper="a4")
    _pdf_agrees(_text(pdf), _estimate_json(f, capsys))


def _random_plan_scenarios(n: int, seed: int) -> list[dict]:
    """The best plan's complete scenario for ``n`` random scenarios (tests/test_one_answer.py)."""
    import random

    sys.path.insert(0, str(ROOT / "tests"))
    from test_one_answer import random_scenario

    from gpuplanner.core.errors import PlannerError
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.search import search

    rng = random.Random(seed)
    out = []
    while len(out) < n:
        try:
            res = search(scenario_from_dict(random_scenario(rng)), top=1)
        except PlannerError:
            continue
        if res.plans:
            out.append(res.plans[0].to_json()["scenario"])
    return out


def _random_pdfs(app, tmp_path, capsys, n: int, seed: int) -> None:
    import json

    from gpuplanner.report_file import export_pdf

    for i, scen in enumerate(_random_plan_scenarios(n, seed)):
        f = tmp_path / f"plan{i}.json"
        f.write_text(json.dumps(scen), encoding="utf-8")
        pdf = export_pdf(load_report_data(f), tmp_path / f"plan{i}.pdf", paper="a4")
        _pdf_agrees(_text(pdf), _estimate_json(f, capsys))


@needs_poppler
def test_pdf_agrees_with_estimate_for_20_random_plans(app, tmp_path, capsys):
    _random_pdfs(app, tmp_path, capsys, 20, seed=31)


@needs_poppler
@pytest.mark.slow
def test_pdf_agrees_with_estimate_for_more_random_plans(app, tmp_path, capsys):
    _random_pdfs(app, tmp_path, capsys, 100, seed=32)


def test_report_cli_for_a_plan_file_is_its_selected_plan(reports, capsys):
    """``report FILE.gpuplan`` shows the selected plan: the figures of ``estimate FILE --json``."""
    data, _pdf = reports["70b-cpt-64xh100.gpuplan"]
    e = _estimate_json(ROOT / "examples" / "70b-cpt-64xh100.gpuplan", capsys)
    assert f"{data.plan.memory['total']:.1f}" == f"{e['memory_per_gpu_gib']['total']:.1f}"
    assert data.plan.cost == e["cost"] and data.plan.calendar_days == e["calendar_days"]
    assert data.plan.layout.vpp == 2 and data.plan.layout.sequence_parallel is True

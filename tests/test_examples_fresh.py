"""What a new user opens first reads right: every shipped example's vendor checklist names items this version
has (stale ids from an old checklist, "gpu_model_and_memory", were printed raw at the end of the PDF's checklist),
and the PDF's assumptions name the price's source in the report's language ("your quote" → "你的报价")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplanner.core.checklist import ITEMS

EX = Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.parametrize("path", sorted(EX.glob("*.gpuplan")), ids=lambda p: p.name)
def test_example_checklists_use_known_items(path):
    ids = [c["id"] for c in json.loads(path.read_text(encoding="utf-8")).get("vendor_checklist") or []]
    assert set(ids) <= {it.id for it in ITEMS}, ids


def test_report_assumptions_translate_your_quote():
    from gpuplanner.app.answer import answer, document_from_plan
    from gpuplanner.io import planfile
    from gpuplanner.report import render
    from gpuplanner.report.content import build_report_data

    path = EX / "qwen3-moe-full-16xh100.gpuplan"  # priced from the plan file's price snapshot: "your quote"
    render.ensure_app()
    render.install_language("zh_CN")
    try:
        doc, _ = planfile.load(path)
        html = render.build_html(build_report_data(answer(document_from_plan(doc, path.parent))), {})
    finally:
        render.install_language("en")
    assert "your quote" not in html and "你的报价" in html
    assert "gpu model and memory" not in html

"""Issue 35 round 17 (servoos17, advice17): the serving phase's 95th-percentile latencies under load and an offline
job's documents-per-second target, one answer in the Project page, ``gpuplanner project`` and the PDF (read from the
phase's ServingSize through ``core.serving_facts``). The box stores ``inference.documents_per_s`` (0: none, the
schema's default, the key removed)."""
from __future__ import annotations

import shutil
from pathlib import Path

from gpuplanner.core.project import InferenceSpec

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "shenzhen-7b-domain-project.gpuplan"


def test_offline_target_box_and_the_load_lines(make_window, language, tmp_path, qtbot):
    language.install("en")
    path = tmp_path / "p.gpuplan"
    shutil.copy(EXAMPLE, path)
    w = make_window(search_enabled=False)
    assert w.open_path(path, show_errors=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None, timeout=30000)
    i = next(k for k, p in enumerate(page.project_data()["phases"]) if p["kind"] == "inference")
    page.list.setCurrentRow(i)
    assert page.docs_per_s.value() == 0 and InferenceSpec().documents_per_s is None
    text = " ".join(page.advice.text().split())
    assert "under full load (50 requests per replica): 95% of tokens within" in text
    assert "offline target" not in text
    page.docs_per_s.setValue(20.0)
    stored = lambda: w.model.ui["project"]["phases"][i]["inference"]  # noqa: E731
    qtbot.waitUntil(lambda: stored().get("documents_per_s") == 20.0, timeout=10000)
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None
                    and page.result.phases[i].serving is not None
                    and page.result.phases[i].serving.target_tokens_per_s == 20.0 * 512, timeout=30000)
    s = page.result.phases[i].serving
    text = " ".join(page.advice.text().split())
    assert f"offline target 20.0 documents/s (10,240 output tokens/s): {s.replicas} replica" in text
    # the PDF's project table: the same sentences (report.content -> report.render._serving_detail)
    from gpuplanner.report.content import project_info
    from gpuplanner.report.render import _serving_detail

    info = project_info(page.result)
    pdf = _serving_detail(info.phases[i].detail, page.result.currency)
    assert "offline target 20.0 documents/s" in pdf and "95% of first tokens within" in pdf
    page.docs_per_s.setValue(0.0)  # back to none: the key goes
    qtbot.waitUntil(lambda: "documents_per_s" not in stored(), timeout=10000)

"""The PDF's rent-or-build section (ux10): the verdict sentence says "owning never pays off" and the note under the
table said it again ("Owning never breaks even at these prices …"); the table's first row read "Rent the work". Now
the sentence says it once and the row reads "Rent, total", beside "Build, total"."""

from __future__ import annotations

from pathlib import Path

from gpuplanner.core.evaluate import evaluate
from gpuplanner.io.scenario_files import load_scenario

EXAMPLE = Path(__file__).resolve().parents[1] / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"


def test_never_pays_off_is_said_once_and_the_rent_row_reads_rent_total():
    from gpuplanner.report.content import plan_from_evaluation  # noqa: PLC0415
    from gpuplanner.report.render import _rent_vs_build_table  # noqa: PLC0415
    from gpuplanner.report.render import tr_text  # noqa: PLC0415

    ev = evaluate(load_scenario(EXAMPLE)[0])
    rb = ev.rent_vs_build
    # 1 server of 8 × H100 for a 1.2-day job: ¥70,000 to rent, ¥2.7M to build, so no utilisation breaks even
    assert rb is not None and rb.verdict == "rent" and rb.break_even_utilisation is None
    info = plan_from_evaluation(ev, "#1")
    sentence = tr_text(info.rent_vs_build)
    assert "owning never pays off" in sentence, sentence
    table = _rent_vs_build_table(info, "CNY")
    assert "never" not in table, table
    assert "Rent, total" in table and "Build, total" in table and "Rent the work" not in table, table

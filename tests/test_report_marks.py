"""The PDF's rule marks are drawn by the bundled font (the only font the PDF may use): a failed rule's mark once
was U+2717, which the subset lacks, so any plan with a failed rule could not be printed."""

from pathlib import Path

import pytest

from gpuplanner.report.render import RULE_MARKS

FONT = Path(__file__).resolve().parents[1] / "gpuplanner" / "resources" / "fonts" / "NotoSansSC-Subset.otf"


def test_every_rule_mark_is_in_the_bundled_font():
    ttlib = pytest.importorskip("fontTools.ttLib")
    cmap = ttlib.TTFont(str(FONT)).getBestCmap()
    missing = {k: m for k, m in RULE_MARKS.items() if any(ord(ch) not in cmap for ch in m)}
    assert not missing, missing
    assert len(set(RULE_MARKS.values())) == len(RULE_MARKS)  # each verdict reads differently

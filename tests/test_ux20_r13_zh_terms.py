"""Every Chinese translation is free of the English the glossary lets through (issue 35 round 13, ux20): the expert
all-to-all reads 全对全通信 as the step breakdown already wrote it ("专家并行 all-to-all 重叠" on the Training
page), and throughput "token/s" as the Project page wrote it, not the English plural "tokens/s" (the scaling
chart's unit menu, the Plans details, the CLI). ``i18n_scan.zh_slips`` is also run by the widget scan
(tests/ui/test_i18n_deep.py) and the PDF scan (tests/test_report_zh_text.py)."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from i18n_scan import zh_slips  # noqa: E402

TS = ROOT / "gpuplanner" / "resources" / "i18n" / "gpuplanner_zh_CN.ts"


def _translations():
    for ctx in ET.parse(TS).getroot().findall("context"):
        for m in ctx.findall("message"):
            tr = m.find("translation")
            text = tr.findtext("numerusform") if m.get("numerus") == "yes" else tr.text
            yield ctx.findtext("name"), m.findtext("source"), text or ""


def test_no_chinese_translation_keeps_all_to_all_or_tokens_per_s():
    bad = [f"[{c}] {s[:60]!r} => {t[:100]!r} ({', '.join(zh_slips(t))})" for c, s, t in _translations()
           if zh_slips(t)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("text, slips", [
    ("专家并行 all-to-all 重叠", ["all-to-all"]),
    ("日历 3 天 · 2,000 tokens/s · MFU 40%", ["tokens/s"]),
    ("专家并行全对全通信重叠", []),
    ("--moe-token-dispatcher-type alltoall；节点间 all-gather", []),
    ("2,000 token/s", []),
])
def test_the_scan_catches_the_slips(text, slips):
    assert zh_slips(text) == slips


def test_the_labels_read_chinese():
    got = {(c, s): t for c, s, t in _translations()}
    assert got[("TrainingAdvanced", "EP all-to-all overlap")] == "专家并行全对全通信重叠"
    assert "全对全通信" in got[("TrainingAdvanced", "overlap the expert all-to-all with another micro-batch")]
    assert got[("ScalingChart", "tokens/s")] == "每秒 token 数"  # the unit menu and the axis title

"""The what-if table's "in place" column reads the same word in Chinese in the app, the CLI and the PDF (issue 35
round 10, ux16): the Project page and the report's header read "原地升级", `gpuplanner project --lang zh_CN`
"原地扩容", for the same column of the same table."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

TS = Path(__file__).resolve().parents[1] / "gpuplanner" / "resources" / "i18n" / "gpuplanner_zh_CN.ts"


def test_in_place_column_one_word_in_every_view():
    seen = {}
    for ctx in ET.parse(TS).getroot().iter("context"):
        name = ctx.findtext("name")
        for msg in ctx.iter("message"):
            if (msg.findtext("source") or "").lower() == "in place" and name in ("CLI", "ProjectPage", "Report"):
                seen[name] = msg.findtext("translation")
    assert set(seen) == {"CLI", "ProjectPage", "Report"}, seen
    assert len(set(seen.values())) == 1, seen

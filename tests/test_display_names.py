"""Display names: GPU product names keep their name with the regional suffix in the display language; every
network in the catalogue has a marked display name (translated in the zh_CN catalogue); enumeration values
keep their identifiers in the scenario."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from gpuplanner.core.catalog_hw import NETWORK_DISPLAY_NAMES
from gpuplanner.core.messages import MsgStr
from gpuplanner.formatting import gpu_display_name

ROOT = Path(__file__).resolve().parents[1]
TS = ROOT / "gpuplanner" / "resources" / "i18n" / "gpuplanner_zh_CN.ts"


def test_gpu_display_name_translates_only_the_regional_suffix():
    assert gpu_display_name("NVIDIA H20 96GB (China)", lang="en") == "NVIDIA H20 96GB (China)"
    assert gpu_display_name("NVIDIA H20 96GB (China)", lang="zh_CN") == "NVIDIA H20 96GB（中国特供版）"
    assert gpu_display_name("NVIDIA GeForce RTX 4090 24GB", short=True, lang="zh_CN") == "RTX 4090 24GB"
    assert gpu_display_name("NVIDIA A800 SXM4 80GB (China)", short=True, lang="zh_CN") == "A800 SXM4 80GB（中国特供版）"
    assert gpu_display_name("My card (China) v2", lang="zh_CN") == "My card (China) v2"  # only a suffix


def test_every_network_has_a_translated_display_name():
    nets = json.loads((ROOT / "gpuplanner" / "resources" / "networks.json").read_text(encoding="utf-8"))
    names = [n["name"] for key in ("intra_node", "inter_node") for n in nets[key]]
    assert names and set(names) <= set(NETWORK_DISPLAY_NAMES)
    catalog = {}
    for ctx in ET.parse(TS).getroot().findall("context"):
        if ctx.findtext("name") == "catalog":
            catalog = {m.findtext("source"): m.find("translation").text for m in ctx.findall("message")}
    for n in NETWORK_DISPLAY_NAMES:
        assert catalog.get(n), n
    assert catalog["NVLink 3 cut to 8 links (A800, NV8)"] != "NVLink 3 cut to 8 links (A800, NV8)"


def test_msgstr_is_a_plain_english_string_that_keeps_its_id():
    m = MsgStr.make("Topology", "line {n}: {msg}", n=3, msg=MsgStr.make("Topology", "row {row} appears twice",
                                                                         row="GPU1"))
    assert m == "line 3: row GPU1 appears twice" and isinstance(m, str)
    assert (m.context, m.text) == ("Topology", "line {n}: {msg}") and m.params["n"] == 3
    assert m.params["msg"].text == "row {row} appears twice"
    assert json.dumps({"e": m}) == '{"e": "line 3: row GPU1 appears twice"}'

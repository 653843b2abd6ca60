"""Link names as a person writes them (issue 35 round 11, ux17): the Hardware catalog printed the catalog key
("nvlink 900 GB/s") and the Chinese report's plan table read "节点内：NVLink 3 cut to 8 links (A800, NV8)".
Round 16 (ux24): the Chinese names take the language's brackets and commas, "（A800，NV8）" (they kept "(A800, NV8)"
inside a Chinese sentence)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpuplanner.formatting import link_display_name

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("key, lang, text", [
    ("nvlink", "en", "NVLink"), ("pcie", "zh_CN", "PCIe"), ("nvlink-bridge", "zh_CN", "NVLink 桥接"),
    ("infinity-fabric", "en", "Infinity Fabric"),
    ("NVLink 3 cut to 8 links (A800, NV8)", "zh_CN", "NVLink 3 削减至 8 条链路（A800，NV8）"),
    ("NVLink 3 cut to 8 links (A800, NV8)", "en", "NVLink 3 cut to 8 links (A800, NV8)"),
    ("NVLink 4 via NVSwitch (H100/H200/H20, 18 links, NV18)", "zh_CN",
     "NVLink 4 经 NVSwitch（H100/H200/H20，18 条链路，NV18）"),
    ("AMD Infinity Fabric, 7 links x 128 GB/s, 8-GPU full mesh (MI300X)", "zh_CN",
     "AMD Infinity Fabric，7 条链路 × 128 GB/s，8 卡全互联（MI300X）"),
    ("NVLink bridge pair (H100 PCIe / NVL, 2 GPUs)", "zh_CN", "NVLink 桥接对（H100 PCIe / NVL，2 张 GPU）"),
])
def test_link_display_name(key, lang, text):
    assert link_display_name(key, lang) == text


def test_every_catalog_network_reads_chinese():
    import json
    import re

    nets = json.loads((ROOT / "gpuplanner/resources/networks.json").read_text(encoding="utf-8"))
    names = [n["name"] for group in nets.values() if isinstance(group, list) for n in group]
    assert len(names) > 10
    for name in names:
        zh = link_display_name(name, "zh_CN")
        assert not re.search(r"\b(via|cut|links|bridge|pair|GPUs|full|mesh)\b", zh), (name, zh)


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler's pdftotext is not installed")
def test_chinese_report_names_the_a800_link_in_chinese(tmp_path):
    pdf = tmp_path / "m.pdf"
    r = subprocess.run([sys.executable, "-m", "gpuplanner", "report", str(ROOT / "examples/mixtral-8x7b-ep8-16xa800.json"),
                        "-o", str(pdf), "--lang", "zh_CN"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "cut to 8 links" not in text and "削减至 8 条链路" in text

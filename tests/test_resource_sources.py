"""Every source a user reads can be followed: shipped data cites originals, never our working notes.

The resource files (gpuplanner/resources/*.json and models/*.json) are shown to users: the CLI and the app print
their ``source`` and ``notes`` text. The team's shared reference files (``gpu-catalog.md``,
``rental-prices-cn-2026.md``, ``gpu-specs.csv``, ``calibration-runs.jsonl``, ``../shared/...``) are not in the
repository or the app, so a citation of them is one nobody can follow: the record must name the original
(datasheet, paper, issue, page, with its URL or publication and date) instead.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

RES = Path(__file__).resolve().parents[1] / "gpuplanner" / "resources"
FILES = sorted(RES.glob("*.json")) + sorted((RES / "models").glob("*.json"))

# Names of the shared working files, a path into shared/, or a bare "<file>.md §n" section citation.
FORBIDDEN = re.compile(
    r"gpu-catalog|rental-prices|gpu-specs\.csv|calibration-runs|shared/reference|shared/notes|planning-guide\.md"
    r"|topo-samples|\b[\w-]+\.md\s*§",
    re.IGNORECASE)


def _strings(obj, path=""):
    if isinstance(obj, dict):
        for key, val in obj.items():
            yield from _strings(val, f"{path}.{key}")
    elif isinstance(obj, list):
        for i, val in enumerate(obj):
            yield from _strings(val, f"{path}[{i}]")
    elif isinstance(obj, str):
        yield path, obj


def test_the_scan_finds_the_resources():
    names = {p.name for p in FILES}
    assert {"gpus.json", "networks.json", "prices.json", "economics.json", "cpu.json",
            "validation_bands.json"} <= names
    assert len(FILES) > 20  # the model presets are scanned too


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(RES).as_posix())
def test_no_shipped_text_cites_a_shared_reference_file(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    bad = [f"{where}: {text[:160]}" for where, text in _strings(data) if FORBIDDEN.search(text)]
    assert not bad, f"{path.name} cites a file users do not have:\n" + "\n".join(bad)


@pytest.mark.parametrize("text", [
    "gpu-catalog.md §1 (spec table)",
    "via gpu-catalog.md §4.2 (measured busbw)",
    "../shared/reference/rental-prices-cn-2026.md rows 5-13",
    "gpu-specs.csv row: NVIDIA V100 datasheet",
    "../shared/reference/calibration-runs.jsonl via bench/validate_time.py",
    "notes.md §3.1",
])
def test_the_pattern_catches_shared_file_citations(text):
    assert FORBIDDEN.search(text)


@pytest.mark.parametrize("text", [
    "NVIDIA H100 Tensor Core GPU datasheet (NVIDIA), https://www.nvidia.com/en-us/data-center/h100/",
    "DeepSeek-V3 Technical Report, arXiv:2412.19437, Table 1 and §1",
    "MosaicML llm-foundry scripts/train/benchmarking/README.md",
])
def test_the_pattern_lets_original_citations_through(text):
    assert not FORBIDDEN.search(text)


def test_catalog_sources_name_an_original():
    """Each GPU and interconnect record names a publisher, a URL or a publication, not just a section."""
    for name, sections in (("gpus.json", ("gpus",)), ("networks.json", ("intra_node", "inter_node"))):
        data = json.loads((RES / name).read_text(encoding="utf-8"))
        for sec in sections:
            for rec in data[sec]:
                src = rec["source"]
                assert len(src) >= 20 and not src.lstrip().startswith("§"), (name, rec["id"], src)
                assert re.search(r"NVIDIA|AMD|Cambricon|Huawei|Gitee|arXiv|https?://|\.com|\.net|datasheet|"
                                 r"no reliable public datasheet|PCI-SIG|IEEE|Ethernet", src, re.I), \
                    (name, rec["id"], src)


def test_no_translatable_text_cites_a_shared_reference_file():
    """The app's and the PDF's own strings (every <source> and <translation> of the catalog) cite no shared file."""
    ts = (RES / "i18n" / "gpuplanner_zh_CN.ts").read_text(encoding="utf-8")
    texts = re.findall(r"<(?:source|translation)[^>]*>(.*?)</(?:source|translation)>", ts, re.S)
    assert len(texts) > 500
    bad = [t[:160] for t in texts if FORBIDDEN.search(t)]
    assert not bad, "\n".join(bad)

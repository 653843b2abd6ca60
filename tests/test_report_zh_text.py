"""The Chinese PDF reads as Chinese: the text layer (``pdftotext``) of the zh_CN report of the examples holds
no English word outside the glossary (units, trade names, catalogue data, the plan file's own title, notes
and names) and no ``4.33e+23`` notation; enumeration values (optimizer, recompute policy, framework) are shown
by their display names and GPU names carry their regional suffix in Chinese."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from i18n_scan import E_NOTATION, GLOSSARY, catalogue_words, data_words, english_words, zh_slips

ROOT = Path(__file__).resolve().parents[1]
FAST = ["70b-cpt-64xh100.gpuplan", "7b-lora-1x4090.gpuplan", "shenzhen-7b-domain-project.gpuplan"]
ALL = sorted(p.name for p in (ROOT / "examples").iterdir() if p.suffix in (".json", ".gpuplan"))
EXAMPLES = [pytest.param(n, marks=() if n in FAST else pytest.mark.slow) for n in ALL]

pytestmark = pytest.mark.skipif(not shutil.which("pdftotext"),
                                reason="poppler's pdftotext is not installed (apt-get install poppler-utils)")


def file_words(path: Path) -> set[str]:
    """Words of the plan file itself (title, notes, checklist ids, phase names, file name): the user's data."""
    words = set(re.findall(r"[A-Za-z][A-Za-z]+", path.name))

    def walk(v):
        if isinstance(v, str):
            words.update(re.findall(r"[A-Za-z][A-Za-z]+", v))
        elif isinstance(v, dict):
            for k, x in v.items():
                if k in ("title", "notes", "note", "name", "id", "author", "description") or isinstance(x, (dict, list)):
                    walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(json.loads(path.read_text(encoding="utf-8")))
    return words


def stall_flag_words() -> set[str]:
    """The serving engines' flags and the docs that document them (servadv17's stall advice): quoted as published, so
    a reader can type the flag and find the page, like a price source."""
    from gpuplanner.core.serving_facts import STALL_FLAGS

    return {w for flags, src in STALL_FLAGS.values() for w in re.findall(r"[A-Za-z][A-Za-z]+", flags + " " + src)}


def zh_report_text(path: Path, tmp_path: Path) -> str:
    pdf = tmp_path / (path.stem + ".pdf")
    r = subprocess.run([sys.executable, "-m", "gpuplanner", "report", str(path), "-o", str(pdf), "--lang", "zh_CN"],
                       capture_output=True, text=True, timeout=120, cwd=ROOT,
                       env={**__import__("os").environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"})
    assert r.returncode == 0, r.stderr
    out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    # typographic ligatures (ﬁ, ﬂ) come back as single characters: undo them so words stay whole
    return out.replace("\ufb01", "fi").replace("\ufb02", "fl")


@pytest.mark.parametrize("name", EXAMPLES)
def test_chinese_report_has_no_english_and_no_e_notation(name, tmp_path):
    path = ROOT / "examples" / name
    text = zh_report_text(path, tmp_path)
    assert re.search(r"[\u4e00-\u9fff]", text)
    allowed = GLOSSARY | catalogue_words() | data_words() | file_words(path) | {
        # the catalogue file named as a source, so a reader can find it (scenario field names are not allowed:
        # the report names the inputs as the app does)
        "resources", "prices", "gpuplanner", "json",
        "GFLOP", "CACM", "perf", "all_reduce_perf", "tests", "reduce", "all",  # citation and a tool's name
        "Alibaba", "Cloud", "ECI", "elastic", "container", "instance",  # a price source, quoted
    } | stall_flag_words()
    enot = [m.group(0) for m in E_NOTATION.finditer(text)]
    left: dict[str, str] = {}
    for line in text.splitlines():
        for w in english_words(line, allowed) + zh_slips(line):  # "all-to-all", "tokens/s" (ux20)
            left.setdefault(w, line.strip()[:120])
    assert not enot, enot
    assert not left, "English in the Chinese report:\n" + "\n".join(f"{w}: {ln}" for w, ln in sorted(left.items()))
    assert "(China)" not in text


#: words an old ligature ("fi", "fl", "ff") or font fallback could break, all in the 70B example's zh report
LATIN_WORDS = ("InfiniBand", "ConnectX-7", "NVLink", "ZeRO-1", "FLOPs")


def _bundled_fonts_only(tmp_path: Path) -> dict[str, str]:
    """An environment whose fontconfig sees only ``gpuplanner/resources/fonts`` (no system font at all)."""
    conf = tmp_path / "fonts.conf"
    conf.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
                    f"<fontconfig><dir>{ROOT / 'gpuplanner' / 'resources' / 'fonts'}</dir>"
                    f"<cachedir>{tmp_path / 'fc-cache'}</cachedir></fontconfig>\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FONTCONFIG_", "QT_QPA_FONTDIR"))}
    env.update(FONTCONFIG_FILE=str(conf), QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path / "home"),
               PYTHONPATH=str(ROOT))
    return env


@pytest.mark.parametrize("fonts", ["bundled-only", "system"])
@pytest.mark.parametrize("lang", ["zh_CN", "en"])
def test_latin_words_survive_the_text_layer(fonts, lang, tmp_path):
    """The report draws with the bundled font (no ligatures) on any machine: with fontconfig pointed at the
    bundled fonts only, and with the system's fonts, ``pdftotext`` gives the exact Latin words (no "In niBand",
    no "ﬁ")."""
    env = _bundled_fonts_only(tmp_path) if fonts == "bundled-only" else {
        **os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    pdf = tmp_path / "r.pdf"
    r = subprocess.run([sys.executable, "-m", "gpuplanner", "report", str(ROOT / "examples" / FAST[0]), "-o", str(pdf),
                        "--lang", lang], capture_output=True, text=True, timeout=180, cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True,
                          check=True, timeout=60).stdout
    assert "\ufb01" not in text and "\ufb02" not in text and "In niBand" not in text
    missing = [w for w in LATIN_WORDS if w not in text]
    assert not missing, f"{missing} not in the {lang} PDF's text layer ({fonts})"
    if lang == "zh_CN":
        assert re.search(r"[\u4e00-\u9fff]", text)


def test_the_scan_can_fail():
    assert english_words("重计算 selective，adamw", GLOSSARY) == ["selective", "adamw"]
    assert E_NOTATION.search("4.33e+23 FLOPs")

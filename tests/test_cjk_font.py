"""The bundled Chinese font (``gpuplanner/resources/fonts``, built by ``scripts/make_cjk_font.py``) makes the
Chinese report and UI complete on a machine with no CJK font at all.

The machine-without-fonts cases run in a subprocess whose fontconfig has no font directory at all
(``FONTCONFIG_FILE`` → a config naming none): the bundled font is then the only font that exists, even
where ``.ci/run`` installed ``fonts-noto-cjk`` for the rest of the suite. PDF text checks need poppler's
``pdftotext``/``pdffonts`` (skipped without them).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FONTS = ROOT / "gpuplanner" / "resources" / "fonts"
BUNDLED = FONTS / "NotoSansSC-Subset.otf"
FAMILY = "Noto Sans SC Subset"
PS_NAME = "NotoSansSCSubset-Regular"
TS = ROOT / "gpuplanner" / "resources" / "i18n" / "gpuplanner_zh_CN.ts"
GLOSSARY = ROOT / "gpuplanner" / "resources" / "i18n" / "glossary.json"
EXAMPLE = ROOT / "examples" / "70b-cpt-64xh100.gpuplan"
POPPLER = all(shutil.which(t) for t in ("pdftotext", "pdffonts"))
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


def _zh_translations() -> list[str]:
    texts = []
    for msg in ET.parse(TS).getroot().iter("message"):
        tr = msg.find("translation")
        if tr is None:
            continue
        forms = [f.text for f in tr.findall("numerusform")] or [tr.text]
        texts.extend(t for t in forms if t)
    return texts


def _needed_chars() -> set[str]:
    chars = set("".join(_zh_translations()))
    chars |= set("".join(json.loads(GLOSSARY.read_text(encoding="utf-8"))["terms"].values()))
    return {c for c in chars if c.isprintable() and not c.isspace()}


def _empty_fontconfig(tmp_path: Path) -> dict[str, str]:
    """An environment whose fontconfig knows no font: no <dir>, no <include> of the system's config."""
    conf = tmp_path / "fonts.conf"
    conf.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
                    f"<fontconfig><cachedir>{tmp_path / 'fc-cache'}</cachedir></fontconfig>\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FONTCONFIG_", "QT_QPA_FONTDIR"))}
    env.update(FONTCONFIG_FILE=str(conf), QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path / "home"))
    if shutil.which("fc-list"):  # the premise: nothing installed is visible through this config
        listed = subprocess.run(["fc-list"], env=env, capture_output=True, text=True, timeout=30).stdout
        assert listed.strip() == "", listed
    return env


# ------------------------------------------------------------------------------------ the font file

def test_bundled_font_ships_with_its_licence_and_notes():
    assert BUNDLED.is_file()
    size = BUNDLED.stat().st_size
    assert 500_000 < size < 3_000_000, f"{BUNDLED.name}: {size:,} bytes (budget: under 3 MB)"
    ofl = (FONTS / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in ofl and "Reserved Font Name 'Source'" in ofl
    readme = (FONTS / "README.md").read_text(encoding="utf-8")
    assert "Noto Sans CJK SC" in readme and "scripts/make_cjk_font.py" in readme
    assert (ROOT / "scripts" / "make_cjk_font.py").is_file()
    # OFL §3: a modified version must not be called by the Reserved Font Name
    assert "Source" not in FAMILY and "Source" not in PS_NAME


def test_every_chinese_translation_character_has_a_glyph(qapp):
    """Every character of every zh_CN translation and glossary term is in the bundled font's cmap
    (a new translation with a new character: re-run ``scripts/make_cjk_font.py``)."""
    needed = _needed_chars()
    assert len([c for c in needed if HAN.match(c)]) > 500  # the translations are really there
    from PySide6.QtGui import QFontDatabase, QRawFont

    raw = QRawFont(str(BUNDLED), 12)
    assert raw.isValid() and raw.familyName() == FAMILY
    missing = sorted(c for c in needed if not raw.supportsCharacter(ord(c)))
    assert not missing, f"{BUNDLED.name} lacks {''.join(missing)!r}: re-run scripts/make_cjk_font.py"
    assert QFontDatabase.WritingSystem.SimplifiedChinese in raw.supportedWritingSystems()

    fonttools = pytest.importorskip("fontTools.ttLib")  # the [test] and [build] extras install it
    font = fonttools.TTFont(str(BUNDLED))
    cmap = font.getBestCmap()
    missing = sorted(c for c in needed if ord(c) not in cmap)
    assert not missing, f"{BUNDLED.name} lacks {''.join(missing)!r}: re-run scripts/make_cjk_font.py"
    # common characters for the user's own text (plan names, notes): all of GB 2312 levels 1 and 2
    gb = {bytes((hi, lo)).decode("gb2312", errors="ignore") for hi in range(0xB0, 0xF8) for lo in range(0xA1, 0xFF)}
    gb.discard("")
    assert len(gb) == 6763
    assert not sorted(c for c in gb if ord(c) not in cmap)
    assert font["name"].getDebugName(1) == FAMILY and font["name"].getDebugName(6) == PS_NAME


def test_pyinstaller_spec_ships_the_font_and_licence():
    """``resource_datas`` in the spec (run without PyInstaller: its imports, constants and that function)."""
    tree = ast.parse((ROOT / "packaging" / "gpuplanner.spec").read_text(encoding="utf-8"))
    wanted = {"ROOT", "SPEC_DIR", "PKG", "RES", "RES_SKIP_SUFFIXES", "resource_datas"}
    body = [n for n in tree.body if isinstance(n, ast.Import)
            or (isinstance(n, ast.ImportFrom) and not (n.module or "").startswith("PyInstaller"))]
    for node in tree.body:
        names = {getattr(t, "id", None) for t in getattr(node, "targets", [])} | {getattr(node, "name", None)}
        if wanted & names:
            body.append(node)
    ns: dict = {"SPECPATH": str(ROOT / "packaging")}
    exec(compile(ast.Module(body=body, type_ignores=[]), "gpuplanner.spec", "exec"), ns)
    dests = {(Path(src).name, dest.replace("\\", "/")) for src, dest in ns["resource_datas"]()}
    assert (BUNDLED.name, "gpuplanner/resources/fonts") in dests
    assert ("OFL.txt", "gpuplanner/resources/fonts") in dests


def test_an_installed_cjk_font_is_preferred_to_the_bundled_one(qapp):
    """``ensure_cjk_font`` picks an installed family of :data:`CJK_FAMILIES` when there is one (.ci/run
    installs fonts-noto-cjk), else the bundled font; never None."""
    from PySide6.QtGui import QFontDatabase

    from gpuplanner.i18n import CJK_FAMILIES, ensure_cjk_font
    from gpuplanner.report import render

    installed = [f for f in CJK_FAMILIES if f in QFontDatabase.families()]
    fam = ensure_cjk_font()
    assert fam == (installed[0] if installed else FAMILY)
    assert render.ensure_cjk_font() == fam  # the report uses the same font as the UI


# ------------------------------------------------------------------- a machine with no font at all

@pytest.mark.skipif(not POPPLER, reason="poppler-utils (pdftotext/pdffonts) not installed")
def test_chinese_pdf_with_no_installed_font_uses_the_bundled_one(tmp_path):
    env = _empty_fontconfig(tmp_path)
    pdf = tmp_path / "report-zh.pdf"
    res = subprocess.run([sys.executable, "-m", "gpuplanner", "report", str(EXAMPLE), "--lang", "zh_CN",
                          "-o", str(pdf)], env=env, capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "no CJK font" not in res.stderr, res.stderr
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True,
                          timeout=60).stdout
    # the Chinese section titles and labels are in the text layer, not dropped
    for title in ("1. 任务", "2. 推荐方案", "参数量", "单卡显存"):
        assert title in text, f"{title!r} missing from the PDF text:\n{text[:1500]}"
    assert len(HAN.findall(text)) > 300
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, timeout=60).stdout
    rows = [ln.split() for ln in fonts.splitlines()[2:] if ln.strip()]
    assert rows, fonts
    bundled = [r for r in rows if r[0].split("+")[-1] == PS_NAME]
    assert bundled, f"the bundled font is not in the PDF:\n{fonts}"
    # columns from the right: ID, object, uni, sub, emb — every font (there is no other) is embedded
    assert all(r[-5] == "yes" for r in rows), fonts


_UI_PROBE = r"""
import json, re, sys
import gpuplanner.i18n as i18n
from PySide6.QtGui import QColor, QFontDatabase, QFontInfo, QFontMetrics, QImage, QPainter
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget

out = {}
real = i18n.ensure_cjk_font

def spy():
    out["families_before"] = QFontDatabase.families()
    out["cjk"] = real()
    return out["cjk"]

i18n.ensure_cjk_font = spy
from gpuplanner.ui import app as ui_app
from gpuplanner.ui.main_window import MainWindow

HAN = re.compile(r"[\u4e00-\u9fff]")

def picture(font, text):
    img = QImage(64, 48, QImage.Format.Format_RGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.setFont(font)
    p.setPen(QColor("black"))
    p.drawText(4, 36, text)
    p.end()
    return img

def check(self):
    out["families_after"] = QFontDatabase.families()
    out["title"] = self.windowTitle()
    texts = []
    for w in self.findChildren(QWidget):
        text = w.text() if isinstance(w, (QLabel, QAbstractButton)) else ""
        if HAN.search(text or ""):
            texts.append((text, w.font()))
    for a in self.menuBar().actions():
        if HAN.search(a.text()):
            texts.append((a.text(), self.menuBar().font()))
    out["n_texts"] = len(texts)
    missing = []
    for text, font in texts:
        fm = QFontMetrics(font)
        missing += [c for c in text if HAN.match(c) and not fm.inFontUcs4(ord(c))]
    out["missing"] = sorted(set(missing))
    font = texts[0][1] if texts else self.font()
    out["font_used"] = QFontInfo(font).family()
    sample = list(dict.fromkeys(c for c in "".join(t for t, _ in texts) if HAN.match(c)))[:20]
    tofu = picture(font, "\U000F0000")  # a private-use code point no font has: what a missing glyph looks like
    pics = [picture(font, c) for c in sample]
    out["sample"] = "".join(sample)
    out["drawn_not_tofu"] = sum(p != tofu for p in pics)
    out["distinct"] = len({bytes(p.constBits()) for p in pics})
    out["blank"] = sum(p == picture(font, " ") for p in pics)
    print("PROBE " + json.dumps(out, ensure_ascii=False))
    return 0

MainWindow.self_test = check
sys.exit(ui_app.run_app(["--self-test"]))
"""


def test_chinese_ui_with_no_installed_font_draws_chinese(tmp_path):
    """The app started in zh_CN on a machine with no font registers the bundled font before its first
    window, and every Chinese label, button and menu title is drawn with real glyphs (not boxes)."""
    env = _empty_fontconfig(tmp_path)
    cfg = tmp_path / "cfg"
    cfg.mkdir()
    (cfg / "gpuplanner-ui.ini").write_text("[ui]\nlanguage=zh_CN\n", encoding="utf-8")
    env.update(GPUPLANNER_CONFIG_DIR=str(cfg), GPUPLANNER_DATA_DIR=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "xdg-config"), XDG_DATA_HOME=str(tmp_path / "xdg-data"),
               XDG_CACHE_HOME=str(tmp_path / "xdg-cache"))
    res = subprocess.run([sys.executable, "-c", _UI_PROBE], env=env, capture_output=True, text=True,
                         timeout=180, cwd=tmp_path)
    line = next((ln for ln in res.stdout.splitlines() if ln.startswith("PROBE ")), None)
    assert res.returncode == 0 and line, res.stdout + res.stderr
    out = json.loads(line[len("PROBE "):])
    assert "cjk" in out, "the app did not call gpuplanner.i18n.ensure_cjk_font() before its first window"
    from gpuplanner.i18n import CJK_FAMILIES

    # no installed CJK font was visible: the bundled one was registered and is the one in use
    assert not set(CJK_FAMILIES) & set(out["families_before"]), out["families_before"]
    assert out["cjk"] == FAMILY and FAMILY in out["families_after"]
    assert out["n_texts"] >= 10, out  # the window really is in Chinese
    assert out["missing"] == [], f"no glyph for {''.join(out['missing'])} in the UI's font"
    assert out["font_used"] == FAMILY
    n = len(out["sample"])
    assert n >= 10
    assert out["drawn_not_tofu"] == n and out["blank"] == 0, out  # real glyphs, not boxes or nothing
    assert out["distinct"] == n, out  # different characters look different


def test_a_character_no_font_has_fails_the_report_naming_it(tmp_path):
    """Never a blank where a character was: a plan title with a Linear B sign (no installed or bundled
    font draws it) exits 2 with one line naming the character, and writes nothing."""
    env = _empty_fontconfig(tmp_path)
    plan = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    plan["title"] = "Llama \U00010000 pretraining"
    src = tmp_path / "odd.gpuplan"
    src.write_text(json.dumps(plan), encoding="utf-8")
    pdf = tmp_path / "odd.pdf"
    res = subprocess.run([sys.executable, "-m", "gpuplanner", "report", str(src), "--lang", "zh_CN", "-o", str(pdf)],
                         env=env, capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert res.returncode == 2, res.stdout + res.stderr
    lines = [ln for ln in res.stderr.splitlines() if ln.startswith("gpuplanner:")]
    assert len(lines) == 1 and "U+10000" in lines[0], res.stderr
    assert "Traceback" not in res.stderr
    assert not pdf.exists()

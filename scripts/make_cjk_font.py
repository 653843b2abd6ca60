"""Build the bundled Chinese font: a subset of Noto Sans CJK SC Regular (SIL OFL 1.1).

Usage: python scripts/make_cjk_font.py [--source FONT] [--check]

  --source FONT  the full font: a ``.ttc`` holding "Noto Sans CJK SC" (Debian's ``fonts-noto-cjk``:
                 ``/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc``), or ``NotoSansCJKsc-Regular.otf``
                 / ``SourceHanSansSC-Regular.otf``. Default: the first of the known install locations.
  --check        build nothing; exit 1 when the committed font lacks a character of the current
                 character set (e.g. a new translation added a character: re-run without ``--check``).

Needs ``fontTools`` (``pip install -e '.[build]'``). Without the full font on the machine:
``apt-get install fonts-noto-cjk`` (or ``apt-get download fonts-noto-cjk && dpkg -x fonts-noto-cjk_*.deb x``
and pass ``--source x/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc``).

Writes ``gpuplanner/resources/fonts/NotoSansSC-Subset.otf`` (committed: it is data) and its
``OFL.txt``; ``README.md`` there says what the subset holds. The characters kept:

* every character of the translations (``gpuplanner/resources/i18n/*.ts``) and the glossary, and every
  non-ASCII character of the package's sources and data files (``gpuplanner/**/*.py``, ``*.json``, ``*.md``)
  — so every string the app and the report print is covered;
* all of GB 2312 (6,763 hanzi of levels 1 and 2 plus its symbol rows: full-width forms, CJK punctuation,
  pinyin with tones, Greek, Cyrillic, box drawing) — the characters people type in plan names, notes
  and file names, and exactly fontconfig's ``zh-cn`` orthography, so fontconfig reports the font as
  Chinese (``fc-list :lang=zh``) and offers it as a fallback;
* ASCII, Latin-1, general punctuation, super-/subscripts, currency, letterlike symbols, number forms,
  arrows, mathematical operators, geometric shapes, CJK symbols and punctuation, half- and full-width
  forms: whatever the source font has of them.

The family is renamed "Noto Sans SC Subset" (PostScript ``NotoSansSCSubset-Regular``): a modified
version must not use the Reserved Font Name "Source" (OFL §3), and a name of its own keeps it apart from
an installed Noto Sans CJK SC, which the app prefers when present (``ensure_cjk_font``). Only horizontal
layout features are kept (kerning, proportional/half-width punctuation; no ligatures: a ligature glyph has no
single character, so PDF text extraction lost "fi" in "InfiniBand"): the vertical and
locale-variant (JP/KR/TC) glyphs would double the size for nothing the app draws. The output is
reproducible: the same source and characters give the same bytes.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "gpuplanner"
FONT_DIR = PKG / "resources" / "fonts"
OUT = FONT_DIR / "NotoSansSC-Subset.otf"
FAMILY = "Noto Sans SC Subset"
PS_NAME = "NotoSansSCSubset-Regular"
SOURCE_FAMILY = "Noto Sans CJK SC"
SOURCE_CANDIDATES = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",  # Debian/Ubuntu fonts-noto-cjk
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",  # Arch, Fedora
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf",
    "/usr/share/fonts/noto-cjk/NotoSansCJKsc-Regular.otf",
    "/System/Library/Fonts/NotoSansCJK.ttc",
)

#: Unicode blocks kept whole (where the source font has the character).
RANGES = (
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x00FF),  # Latin-1 supplement
    (0x2000, 0x206F),  # general punctuation (– — ‘ ’ “ ” … ‰ ′ ″ ※)
    (0x2070, 0x209F),  # superscripts and subscripts (4.6×10¹⁹)
    (0x20A0, 0x20CF),  # currency (€ ₩ ₹)
    (0x2100, 0x214F),  # letterlike (℃ № ™)
    (0x2150, 0x218F),  # number forms (½ Ⅻ)
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # mathematical operators (≈ ≤ ≥ ∑ √ ∞)
    (0x2460, 0x24FF),  # enclosed alphanumerics (① ⑴)
    (0x2500, 0x257F),  # box drawing
    (0x25A0, 0x25FF),  # geometric shapes (■ ▲ ●)
    (0x2600, 0x26FF),  # miscellaneous symbols (★ ☆ ✓-like marks the font has)
    (0x3000, 0x303F),  # CJK symbols and punctuation (、。《》「」【】)
    (0xFF00, 0xFFEF),  # half-width and full-width forms (，：；！？（）)
)

#: GSUB/GPOS features kept: horizontal text only.
LAYOUT_FEATURES = ["kern", "palt", "halt", "calt", "ccmp", "mark", "pwid", "hwid", "fwid"]

README = """\
# Bundled font

`NotoSansSC-Subset.otf` — family **{family}** (PostScript `{ps}`), a subset of
**{src_family} Regular, version {src_version}** (Adobe/Google, SIL Open Font License 1.1: `OFL.txt`;
"Noto" is a trademark of Google, "Source" is Adobe's Reserved Font Name and is not used here).

* Source: `{src_name}` from Debian's `fonts-noto-cjk` package (upstream: the noto-cjk project,
  `Sans/OTC/NotoSansCJK-Regular.ttc`), face "{src_family}".
* Built: {date} by `scripts/make_cjk_font.py` with fontTools {fonttools}.
* Holds {n_chars} characters in {n_glyphs} glyphs, {size} bytes: every character of the translations
  (`../i18n/*.ts`), the glossary and the package's sources and data; all of GB 2312 (6,763 hanzi and its
  symbol rows); ASCII, Latin-1, punctuation, super-/subscripts, arrows, maths operators, CJK
  punctuation and full-width forms. Horizontal layout features only, no ligatures (a ligature glyph loses
  its characters in PDF text extraction: "In niBand").

Why: a machine without a CJK font (a fresh Linux install, a frozen bundle) would print a Chinese
report with every Chinese character missing, and show the Chinese UI as boxes. The report draws all its
text, Latin and Chinese, with this font (`gpuplanner.i18n.bundled_font`), so the PDF and its text layer are
the same on every machine; the app registers it at start (`gpuplanner.i18n.ensure_cjk_font`) and uses an
installed Noto Sans CJK SC / Source Han Sans SC / YaHei / PingFang first when there is one.

Regenerate (after adding translations with new characters; `tests/test_cjk_font.py` fails until then):

    apt-get install fonts-noto-cjk          # or pass --source with the .ttc/.otf
    .venv/bin/pip install -e '.[build]'     # fontTools
    .venv/bin/python scripts/make_cjk_font.py
"""

OFL_HEADER = """\
Copyright 2014-2021 Adobe (http://www.adobe.com/), with Reserved Font Name 'Source'.
Noto is a trademark of Google Inc.

This Font Software (NotoSansSC-Subset.otf, a modified version of Noto Sans CJK SC) is licensed under the
SIL Open Font License, Version 1.1.
This license is copied below, and is also available with a FAQ at: https://openfontlicense.org

"""

OFL_TEXT = """\
-----------------------------------------------------------
SIL OPEN FONT LICENSE Version 1.1 - 26 February 2007
-----------------------------------------------------------

PREAMBLE
The goals of the Open Font License (OFL) are to stimulate worldwide
development of collaborative font projects, to support the font creation
efforts of academic and linguistic communities, and to provide a free and
open framework in which fonts may be shared and improved in partnership
with others.

The OFL allows the licensed fonts to be used, studied, modified and
redistributed freely as long as they are not sold by themselves. The
fonts, including any derivative works, can be bundled, embedded,
redistributed and/or sold with any software provided that any reserved
names are not used by derivative works. The fonts and derivatives,
however, cannot be released under any other type of license. The
requirement for fonts to remain under this license does not apply
to any document created using the fonts or their derivatives.

DEFINITIONS
"Font Software" refers to the set of files released by the Copyright
Holder(s) under this license and clearly marked as such. This may
include source files, build scripts and documentation.

"Reserved Font Name" refers to any names specified as such after the
copyright statement(s).

"Original Version" refers to the collection of Font Software components as
distributed by the Copyright Holder(s).

"Modified Version" refers to any derivative made by adding to, deleting,
or substituting -- in part or in whole -- any of the components of the
Original Version, by changing formats or by porting the Font Software to a
new environment.

"Author" refers to any designer, engineer, programmer, technical
writer or other person who contributed to the Font Software.

PERMISSION & CONDITIONS
Permission is hereby granted, free of charge, to any person obtaining
a copy of the Font Software, to use, study, copy, merge, embed, modify,
redistribute, and sell modified and unmodified copies of the Font
Software, subject to the following conditions:

1) Neither the Font Software nor any of its individual components,
in Original or Modified Versions, may be sold by itself.

2) Original or Modified Versions of the Font Software may be bundled,
redistributed and/or sold with any software, provided that each copy
contains the above copyright notice and this license. These can be
included either as stand-alone text files, human-readable headers or
in the appropriate machine-readable metadata fields within text or
binary files as long as those fields can be easily viewed by the user.

3) No Modified Version of the Font Software may use the Reserved Font
Name(s) unless explicit written permission is granted by the corresponding
Copyright Holder. This restriction only applies to the primary font name as
presented to the users.

4) The name(s) of the Copyright Holder(s) or the Author(s) of the Font
Software shall not be used to promote, endorse or advertise any
Modified Version, except to acknowledge the contribution(s) of the
Copyright Holder(s) and the Author(s) or with their explicit written
permission.

5) The Font Software, modified or unmodified, in part or in whole,
must be distributed entirely under this license, and must not be
distributed under any other license. The requirement for fonts to
remain under this license does not apply to any document created
using the Font Software.

TERMINATION
This license becomes null and void if any of the above conditions are
not met.

DISCLAIMER
THE FONT SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND,
EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO ANY WARRANTIES OF
MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT
OF COPYRIGHT, PATENT, TRADEMARK, OR OTHER RIGHT. IN NO EVENT SHALL THE
COPYRIGHT HOLDER BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY,
INCLUDING ANY GENERAL, SPECIAL, INDIRECT, INCIDENTAL, OR CONSEQUENTIAL
DAMAGES, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING
FROM, OUT OF THE USE OR INABILITY TO USE THE FONT SOFTWARE OR FROM
OTHER DEALINGS IN THE FONT SOFTWARE.
"""


# ------------------------------------------------------------------------------- the character set

def translation_chars() -> set[str]:
    """Every character of the .ts files' sources and translations (XML entities decoded)."""
    chars: set[str] = set()
    for ts in sorted((PKG / "resources" / "i18n").glob("*.ts")):
        root = ET.parse(ts).getroot()
        for el in root.iter():
            if el.tag in ("source", "translation", "numerusform", "comment", "extracomment") and el.text:
                chars.update(el.text)
    return chars


def glossary_chars() -> set[str]:
    chars: set[str] = set()

    def walk(obj) -> None:
        if isinstance(obj, str):
            chars.update(obj)
        elif isinstance(obj, dict):
            for k, v in obj.items():
                walk(k)
                walk(v)
        elif isinstance(obj, list):
            for v in obj:
                walk(v)

    for path in sorted((PKG / "resources" / "i18n").glob("*.json")):
        walk(json.loads(path.read_text(encoding="utf-8")))
    return chars


def source_chars() -> set[str]:
    """Non-ASCII characters of the package's Python sources and data (strings printed without a
    translation: 简体中文 in the language menu, 万/亿/¥ in the formatter, GPU names)."""
    chars: set[str] = set()
    for path in sorted(PKG.rglob("*")):
        if path.suffix in (".py", ".json", ".md") and "__pycache__" not in path.parts:
            chars.update(c for c in path.read_text(encoding="utf-8", errors="ignore") if ord(c) > 0x7E)
    return chars


def gb2312_chars() -> set[str]:
    """All of GB 2312 by encoding: rows 1-9 (symbols) and 16-87 (hanzi, levels 1 and 2)."""
    chars: set[str] = set()
    for hi in list(range(0xA1, 0xAA)) + list(range(0xB0, 0xF8)):
        for lo in range(0xA1, 0xFF):
            try:
                chars.add(bytes((hi, lo)).decode("gb2312"))
            except UnicodeDecodeError:
                pass  # unassigned cells
    return chars


def range_chars() -> set[str]:
    return {chr(cp) for lo, hi in RANGES for cp in range(lo, hi + 1)}


def wanted_chars() -> set[str]:
    chars = translation_chars() | glossary_chars() | source_chars() | gb2312_chars() | range_chars()
    # controls, line/paragraph separators and unassigned code points never need a glyph
    return {c for c in chars if c.isprintable() or c in "\u3000\u00a0"}


def required_chars() -> set[str]:
    """Characters the bundled font must have (what tests/test_cjk_font.py checks): the translations,
    the glossary and GB 2312's hanzi."""
    needed = translation_chars() | glossary_chars() | {c for c in gb2312_chars() if "\u4e00" <= c <= "\u9fff"}
    return {c for c in needed if c.isprintable() and not c.isspace()}


# ------------------------------------------------------------------------------------------ building

def find_source(explicit: str | None) -> Path:
    if explicit:
        p = Path(explicit)
        if not p.is_file():
            raise SystemExit(f"make_cjk_font: {p}: no such file")
        return p
    for cand in SOURCE_CANDIDATES:
        if Path(cand).is_file():
            return Path(cand)
    raise SystemExit("make_cjk_font: Noto Sans CJK SC not found; install it (apt-get install fonts-noto-cjk) "
                     "or pass --source NotoSansCJK-Regular.ttc / NotoSansCJKsc-Regular.otf")


def open_source(path: Path):
    """The Simplified Chinese face of ``path`` (a collection or a single font)."""
    from fontTools.ttLib import TTCollection, TTFont

    if path.suffix.lower() in (".ttc", ".otc"):
        coll = TTCollection(str(path))
        for font in coll.fonts:
            if font["name"].getDebugName(1) == SOURCE_FAMILY:
                return font
        raise SystemExit(f"make_cjk_font: {path} has no face named {SOURCE_FAMILY!r}")
    return TTFont(str(path))


def rename(font) -> None:
    """Give the subset a family name of its own in every name record and in the CFF table."""
    name = font["name"]
    version = name.getDebugName(5) or ""
    for rec in list(name.names):
        if rec.nameID in (1, 4, 16):
            name.setName(FAMILY, rec.nameID, rec.platformID, rec.platEncID, rec.langID)
        elif rec.nameID == 6:
            name.setName(PS_NAME, 6, rec.platformID, rec.platEncID, rec.langID)
        elif rec.nameID == 3:
            name.setName(f"{version.split(';')[0].replace('Version ', '')};{PS_NAME};GPU Planner subset",
                         3, rec.platformID, rec.platEncID, rec.langID)
        elif rec.nameID == 5:
            name.setName(f"{version.split(';')[0]}; subset by GPU Planner scripts/make_cjk_font.py",
                         5, rec.platformID, rec.platEncID, rec.langID)
    if "CFF " in font:
        cff = font["CFF "].cff
        top = cff[cff.fontNames[0]]
        cff.fontNames = [PS_NAME]
        top.FullName = FAMILY
        top.FamilyName = FAMILY


def build(source: Path) -> tuple[bytes, dict]:
    from fontTools import subset

    font = open_source(source)
    src_version = (font["name"].getDebugName(5) or "").split(";")[0].replace("Version ", "")
    cmap = font.getBestCmap()
    chars = wanted_chars()
    unicodes = sorted(ord(c) for c in chars if ord(c) in cmap)
    missing = sorted(c for c in required_chars() if ord(c) not in cmap)
    if missing:
        raise SystemExit(f"make_cjk_font: the source font lacks {''.join(missing)!r}")
    opts = subset.Options()
    opts.layout_features = LAYOUT_FEATURES
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.notdef_outline = True
    opts.recalc_timestamp = False
    opts.drop_tables += ["VORG", "vhea", "vmtx", "BASE"]  # vertical metrics: horizontal text only
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=unicodes)
    sub.subset(font)
    rename(font)
    font.recalcTimestamp = False  # keep the source's dates: the same input gives the same bytes
    buf = io.BytesIO()
    font.save(buf, reorderTables=True)
    data = buf.getvalue()
    info = {"src_family": SOURCE_FAMILY, "src_version": src_version, "src_name": source.name,
            "n_chars": len(unicodes), "n_glyphs": len(font.getGlyphOrder()), "size": len(data)}
    return data, info


def check() -> int:
    from fontTools.ttLib import TTFont

    if not OUT.exists():
        print(f"make_cjk_font: {OUT} missing", file=sys.stderr)
        return 1
    cmap = TTFont(str(OUT)).getBestCmap()
    missing = sorted(c for c in required_chars() if ord(c) not in cmap)
    if missing:
        print(f"make_cjk_font: {OUT.name} lacks {''.join(missing)!r}: re-run scripts/make_cjk_font.py",
              file=sys.stderr)
        return 1
    print(f"{OUT.name}: all {len(required_chars())} required characters present")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", help="the full Noto Sans CJK (SC) font: .ttc collection or .otf")
    ap.add_argument("--check", action="store_true", help="only check the committed font's coverage")
    args = ap.parse_args(argv)
    if args.check:
        return check()
    import datetime

    import fontTools

    source = find_source(args.source)
    data, info = build(source)
    FONT_DIR.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(data)
    (FONT_DIR / "OFL.txt").write_text(OFL_HEADER + OFL_TEXT, encoding="utf-8")
    date = datetime.date.today().isoformat()
    readme = README.format(family=FAMILY, ps=PS_NAME, date=date, fonttools=fontTools.version,
                           size=f"{info['size']:,}", n_chars=f"{info['n_chars']:,}",
                           n_glyphs=f"{info['n_glyphs']:,}", **{k: v for k, v in info.items()
                                                                 if k not in ("size", "n_chars", "n_glyphs")})
    (FONT_DIR / "README.md").write_text(readme, encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {info['size']:,} bytes, {info['n_chars']:,} characters, "
          f"{info['n_glyphs']:,} glyphs (from {source}, {info['src_family']} {info['src_version']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

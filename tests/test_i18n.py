"""Translations: the zh_CN catalogue is complete and current, consistent with the glossary, keeps every
placeholder, compiles and loads; and the locale-aware formatting helpers.

The catalogue checks re-run ``pyside6-lupdate`` over ``gpuplanner/`` on a temporary copy of the .ts
(the same command as ``scripts/update_translations.py``), so a string added to the code without
re-extraction, or extracted but left untranslated, fails here with its context and text listed.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gpuplanner import formatting as F

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "gpuplanner" / "resources" / "i18n"
TS = I18N / "gpuplanner_zh_CN.ts"
GLOSSARY = I18N / "glossary.json"
SCRIPT = ROOT / "scripts" / "update_translations.py"


# ----------------------------------------------------------------------------------------- helpers

def _script():
    spec = importlib.util.spec_from_file_location("update_translations", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def read_ts(path: Path) -> list[dict]:
    """Every message: context, source, translations (numerus forms as a list), finished flag."""
    out = []
    for ctx in ET.parse(path).getroot().findall("context"):
        name = ctx.findtext("name") or ""
        for m in ctx.findall("message"):
            tr = m.find("translation")
            if m.get("numerus") == "yes":
                forms = [nf.text or "" for nf in tr.findall("numerusform")]
            else:
                forms = [tr.text or ""]
            out.append({"context": name, "source": m.findtext("source") or "", "translations": forms,
                        "finished": tr.get("type") not in ("unfinished", "vanished", "obsolete"),
                        "type": tr.get("type")})
    return out


def _fmt(entries) -> str:
    return "\n".join(f"  [{e['context'] or '<no context>'}] {e['source']!r}" for e in entries)


@pytest.fixture(scope="module")
def fresh_extraction(tmp_path_factory):
    """The .ts as lupdate would write it now: a copy of the committed file, re-extracted from the code."""
    mod = _script()
    try:
        mod.find_lupdate()
    except SystemExit as err:  # pragma: no cover - PySide6 ships pyside6-lupdate
        pytest.skip(str(err))
    tmp = tmp_path_factory.mktemp("ts") / TS.name
    shutil.copy(TS, tmp)
    mod.run_lupdate(tmp)
    return tmp


@pytest.fixture(scope="module")
def messages():
    return read_ts(TS)


# ------------------------------------------------------------------------- 1: complete and current

def test_every_source_string_is_in_the_ts(fresh_extraction, messages):
    """Strings in the code that the committed .ts lacks (run scripts/update_translations.py)."""
    have = {(m["context"], m["source"]) for m in messages}
    fresh = read_ts(fresh_extraction)
    missing = [m for m in fresh if (m["context"], m["source"]) not in have]
    assert not missing, (f"{len(missing)} source string(s) are not in {TS.name}; run "
                         f"`python scripts/update_translations.py` and translate them:\n{_fmt(missing)}")
    extracted = {(m["context"], m["source"]) for m in fresh}
    stale = [m for m in messages if (m["context"], m["source"]) not in extracted]
    assert not stale, f"{len(stale)} entries in {TS.name} no longer exist in the code:\n{_fmt(stale)}"


def test_no_unfinished_or_obsolete_entries(messages):
    bad = [m for m in messages if not m["finished"]]
    assert not bad, f"{len(bad)} entries are unfinished/obsolete in {TS.name}:\n{_fmt(bad)}"
    empty = [m for m in messages if any(not t.strip() for t in m["translations"])]
    assert not empty, f"{len(empty)} entries have an empty translation:\n{_fmt(empty)}"


def test_update_translations_check_passes():
    """The script CI runs: exit 0 means the .ts is byte-identical to a fresh extraction and finished."""
    res = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr


def test_no_translation_call_the_extractor_cannot_place():
    """Calls whose text or context cannot be known statically never reach the catalogue."""
    _, problems = _script().extract()
    assert not problems, "translation calls that cannot be extracted:\n" + "\n".join(f"  {p}" for p in problems)


def test_extractor_finds_what_plain_lupdate_misses(tmp_path):
    """Module-constant contexts, tr() inside f-strings, ``tr = self.tr`` aliases and ``window.tr()`` on an
    annotated parameter get the context Qt uses at run time; ``other.tr()`` and ``tr(f"…")`` are reported."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "core.py").write_text(
        'CTX = "Search"\n'
        'def QT_TRANSLATE_NOOP(c, t): return t\n'
        'A = QT_TRANSLATE_NOOP(CTX, "No plan fits " "the budget.")\n'
        'B = QT_TRANSLATE_NOOP("Cost", "spot card-hours")\n', encoding="utf-8")
    (pkg / "page.py").write_text(
        "class PlansPage:\n"
        "    def show(self, p):\n"
        "        tr = self.tr\n"
        "        x = f\"<b>{tr('Warnings')}</b> {self.tr('Rent or build')}\"\n"
        "        y = self.page.tr('after today')\n"
        "        z = self.tr(f'bad {p}')\n"
        "        return QCoreApplication.translate('Report', 'Charts'), self.tr('%n plan(s)', '', 3)\n"
        "def export(window: 'MainWindow', other):\n"
        "    return window.tr('Export report as PDF'), other.tr('unknown owner')\n",
        encoding="utf-8")
    messages, problems = _script().extract(pkg)
    found = {(m.context, m.text) for m in messages}
    assert found == {("Search", "No plan fits the budget."), ("Cost", "spot card-hours"), ("PlansPage", "Warnings"),
                     ("PlansPage", "Rent or build"), ("Report", "Charts"), ("PlansPage", "%n plan(s)"),
                     ("MainWindow", "Export report as PDF")}
    assert [m.numerus for m in messages if m.text == "%n plan(s)"] == [True]
    assert len(problems) == 3
    text = "\n".join(map(str, problems))
    assert "page.py:5: self.page.tr" in text and "page.py:6: tr(f" in text and "page.py:9: other.tr" in text


def _known_contexts() -> set[str]:
    """Class names defined in gpuplanner/ (their self.tr() context), the literal contexts passed to
    QT_TRANSLATE_NOOP / translate(...) and the ``CTX = "…"`` constants passed instead of literals."""
    names: set[str] = set()
    for py in (ROOT / "gpuplanner").rglob("*.py"):
        text = py.read_text(encoding="utf-8")
        names.update(re.findall(r"^\s*class\s+(\w+)", text, re.M))
        names.update(re.findall(r"(?:QT_TRANSLATE_NOOP|translate)\(\s*[\"'](\w+)[\"']", text))
        names.update(re.findall(r"^\s*_?CTX\w*\s*=\s*[\"'](\w+)[\"']", text, re.M))  # CTX = "Search"
    return names


def test_every_context_is_one_qt_looks_up_at_run_time(messages):
    """lupdate files ``tr = self.tr; tr("x")`` under an empty context and ``self.page.tr("x")`` under
    ``self.page``; at run time Qt looks the text up under the class name, finds nothing and shows English."""
    known = _known_contexts()
    bad = [m for m in messages if m["context"] not in known]
    assert not bad, ("strings filed under a context no class or translate() call uses — Qt will never find "
                     "their translation (call self.tr(...) directly, or QCoreApplication.translate(\"Class\", ...)):\n"
                     + _fmt(bad))


# ------------------------------------------------------------------------------------ 2: glossary

def _glossary():
    return json.loads(GLOSSARY.read_text(encoding="utf-8"))


def _term_re(term: str) -> re.Pattern:
    return re.compile(r"(?<![\w-])" + re.escape(term) + r"(?![\w-])", re.I)


def _has_term(term: str, source: str) -> bool:
    """Whole-word, case-insensitive; an all-capitals match of a lower-case term is a code, not the word
    (nvidia-smi's NODE link class is not a cluster node)."""
    return any(not (m.group(0).isupper() and not term.isupper() and len(m.group(0)) > 1)
               for m in _term_re(term).finditer(source))


def test_glossary_file_is_well_formed():
    g = _glossary()
    assert g["terms"] and all(isinstance(k, str) and isinstance(v, str) and v for k, v in g["terms"].items())
    for ex in g.get("exceptions", []):
        assert {"term", "context", "source", "why"} <= set(ex), ex
        assert ex["term"] in g["terms"], ex
        assert len(ex["why"]) > 10, f"give a reason for the exception: {ex}"


def test_glossary_terms_used_consistently(messages):
    g = _glossary()
    exceptions = {(e["term"], e["context"], e["source"]) for e in g.get("exceptions", [])}
    used_exceptions = set()
    bad = []
    for m in messages:
        for term, zh in g["terms"].items():
            if not _has_term(term, m["source"]):
                continue
            key = (term, m["context"], m["source"])
            if key in exceptions:
                used_exceptions.add(key)
                continue
            for t in m["translations"]:
                if zh not in t:
                    bad.append(f"  [{m['context']}] {m['source']!r}: '{term}' should read '{zh}' in {t!r}")
    assert not bad, "translations that do not use the glossary term:\n" + "\n".join(bad)
    unused = exceptions - used_exceptions
    assert not unused, f"glossary exceptions that match no entry any more (remove them): {sorted(unused)}"


def test_glossary_check_catches_a_wrong_term():
    """The checker itself: 'GPU memory' rendered as 内存 (host RAM) instead of 显存 is caught."""
    assert _term_re("GPU memory").search("does not fit in GPU memory.")
    assert not _term_re("compute").search("recompute 3")
    assert not _term_re("card-hour").search("card-hours on demand")
    assert not _has_term("node", "PHB = through the CPU · NODE = between PCIe host bridges")
    assert _has_term("node", "{0} node(s) of {1}") and _has_term("node", "Node")
    assert "显存" not in "放不进 GPU 内存。"


# --------------------------------------------------------------------------------- 3: placeholders

_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%L?\d+|%n|\[\*\]")
_TAG = re.compile(r"</?[a-zA-Z][^>]*>")
_ACCEL = re.compile(r"&([A-Za-z0-9])")


def placeholders(s: str) -> list[str]:
    return sorted(_PLACEHOLDER.findall(s))


def tags(s: str) -> list[str]:
    return sorted(t.lower() for t in _TAG.findall(s))


def accelerators(s: str) -> set[str]:
    s = s.replace("&&", "")
    return {c.lower() for c in _ACCEL.findall(re.sub(r"&[a-z]+;", "", s))}


def test_placeholders_tags_and_accelerators_preserved(messages):
    bad = []
    for m in messages:
        for t in m["translations"]:
            if placeholders(m["source"]) != placeholders(t):
                bad.append(f"  [{m['context']}] placeholders {placeholders(m['source'])} -> {placeholders(t)}: {t!r}")
            if tags(m["source"]) != tags(t):
                bad.append(f"  [{m['context']}] HTML tags differ: {m['source']!r} -> {t!r}")
            if accelerators(m["source"]) != accelerators(t):
                bad.append(f"  [{m['context']}] accelerator {accelerators(m['source'])} -> {accelerators(t)}: {t!r}")
    assert not bad, "translations that lose or add placeholders/tags/accelerators:\n" + "\n".join(bad)


def test_placeholder_check_catches_mistakes():
    assert placeholders("{cost:,.0f} {cur}") == ["{cost:,.0f}", "{cur}"]
    assert placeholders("%1 of %n") != placeholders("%1 共")
    assert placeholders("{0}[*] — GPU Planner") == ["[*]", "{0}"]
    assert tags("<b>GPU Planner {0}</b><p>x</p>") == tags("<p>y</p><b>GPU Planner {0}</b>")
    assert accelerators("&File") == accelerators("文件(&F)") == {"f"}
    assert accelerators("a &amp; b && c") == set()


def test_chinese_accelerators_follow_the_chinese_convention(messages):
    """Chinese menus put the mnemonic in brackets after the text: "文件(&F)", "打开(&O)…"."""
    bad = [f"  {m['source']!r} -> {t!r}" for m in messages for t in m["translations"]
           if accelerators(m["source"]) and not re.search(r"\(&[A-Za-z0-9]\)", t)]
    assert not bad, "\n".join(bad)


def test_translations_are_chinese(messages):
    """A translation identical to an English source longer than one word was probably never translated."""
    allowed = {"HF Trainer / PyTorch", "AdamW 8-bit", "Flash attention", "InfiniBand or RoCE"}
    lazy = [m for m in messages for t in m["translations"]
            if t == m["source"] and re.search(r"[A-Za-z]{3,} [A-Za-z]{3,}", t) and m["source"] not in allowed
            and "{" not in t]
    assert not lazy, "translations identical to the English source:\n" + _fmt(lazy)


def test_one_register_of_address(messages):
    """The user is addressed one way throughout: 你 (the informal register of developer tools), never 您."""
    formal = [m for m in messages for t in m["translations"] if "您" in t]
    assert not formal, "use 你, not 您:\n" + _fmt(formal)


def test_chinese_punctuation_inside_chinese_sentences(messages):
    """Full-width ，；：（） between Chinese characters, not ASCII ,;:() (GB/T 15834-2011 §4)."""
    bad = [m for m in messages for t in m["translations"]
           if re.search(r"[\u4e00-\u9fff][,;]\s*[\u4e00-\u9fff]", t)]
    assert not bad, "ASCII comma/semicolon between Chinese words:\n" + _fmt(bad)


# ------------------------------------------------------------------------------ 4: compile and load

def test_qm_compiles_and_loads(tmp_path, messages, qapp):
    from PySide6.QtCore import QCoreApplication, QTranslator

    from gpuplanner.i18n import compile_ts, find_lrelease

    tool = find_lrelease()
    assert tool, "lrelease not found (PySide6 ships pyside6-lrelease)"
    qm = tmp_path / "gpuplanner_zh_CN.qm"
    res = subprocess.run([tool, str(TS), "-qm", str(qm)], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    m = re.search(r"Generated (\d+) translation\(s\) \((\d+) finished and (\d+) unfinished\)", res.stdout)
    assert m, res.stdout
    assert int(m.group(3)) == 0, res.stdout
    assert int(m.group(1)) == len({(x["context"], x["source"]) for x in messages})

    app = qapp  # pytest-qt's QApplication (a bare QCoreApplication would break later widget tests)
    tr = QTranslator()
    assert tr.load(str(qm))
    assert not tr.isEmpty()
    assert tr.translate("MainWindow", "&File") == "文件(&F)"
    assert tr.translate("MainWindow", "no such source text") == ""
    sample = [x for x in messages if x["context"]][:40]
    for x in sample:
        assert tr.translate(x["context"], x["source"]) == x["translations"][0], x
    app.installTranslator(tr)
    try:
        assert QCoreApplication.translate("MainWindow", "&Help") == "帮助(&H)"
    finally:
        app.removeTranslator(tr)
    assert QCoreApplication.translate("MainWindow", "&Help") == "&Help"

    # and the same through the package path (compiled on demand into the user cache folder)
    from gpuplanner.i18n import qm_path

    p = qm_path("zh_CN")
    assert p is not None and p.exists()
    assert compile_ts(TS, tmp_path / "again.qm")


# ------------------------------------------------------------------------------- 5: formatting

@pytest.mark.parametrize("value, unit, lang, expected", [
    (12_000, "card-hours", "en", "12,000 card-hours"),
    (12_000, "card-hours", "zh_CN", "1.2 万卡时"),
    (1.2e9, "", "en", "1.2B"),
    (1.2e8, "", "zh_CN", "1.2 亿"),
    (1.2e9, "", "zh_CN", "12 亿"),
    (3.5e12, "tokens", "en", "3.5T tokens"),
    (3.5e12, "tokens", "zh", "3.5 万亿 token"),
    (9_950, "card-hours", "zh_CN", "9,950 卡时"),
    (9_999.6, "", "zh_CN", "1 万"),
    (123_456, "", "zh_CN", "12.3 万"),
    (1_234_567, "", "en", "1.23M"),
    (1, "card-hours", "en", "1 card-hour"),
    (87, "days", "zh-Hans-CN", "87 天"),
    (42, "widgets", "en", "42 widgets"),
])
def test_format_large(value, unit, lang, expected):
    assert F.format_large(value, unit, lang) == expected


@pytest.mark.parametrize("value, cur, lang, kw, expected", [
    (12_345, "CNY", "zh_CN", {}, "¥12,345"),
    (1_234, "USD", "en", {}, "$1,234"),
    (1_234.4, "usd", "zh_CN", {}, "$1,234"),
    (-80.5, "CNY", "en", {}, "-¥80.50"),
    (5_000, "SGD", "en", {}, "SGD 5,000"),
    (123_456, "CNY", "zh_CN", {"compact": True}, "12.3 万元"),
    (1.2e9, "USD", "zh_CN", {"compact": True}, "12 亿美元"),
    (1.2e9, "USD", "en", {"compact": True}, "$1.2B"),
    (9_000, "CNY", "zh_CN", {"compact": True}, "¥9,000"),
    (99.5, "EUR", "en", {"decimals": 1}, "€99.5"),
])
def test_format_money(value, cur, lang, kw, expected):
    assert F.format_money(value, cur, lang, **kw) == expected


def test_format_days_hours_percent_number():
    assert F.format_days(1, "en") == "1 day"
    assert F.format_days(3.46, "en") == "3.5 days"
    assert F.format_days(123.4, "zh_CN") == "123 天"
    assert F.format_days(1234.4, "en") == "1,234 days"
    assert F.format_hours(36, "zh_CN") == "36 小时"
    assert F.format_hours(1, "en") == "1 hour"
    assert F.format_percent(0.423) == "42%"
    assert F.format_percent(0.4236, 1, "zh_CN") == "42.4%"
    assert F.format_number(1234567.891, 2) == "1,234,567.89"
    assert F.format_number(float("nan")) == "—"
    assert F.format_large(float("inf")) == "—"


def test_format_date_pure_python_and_qt(monkeypatch):
    d = dt.date(2026, 3, 7)
    monkeypatch.delitem(sys.modules, "PySide6.QtCore", raising=False)
    plain = (F.format_date(d, "zh_CN"), F.format_date(d, "en"), F.format_date(d, "zh_CN", long=False),
             F.format_date(dt.datetime(2026, 3, 7, 23, 59), "en", long=False))
    assert plain == ("2026年3月7日", "March 7, 2026", "2026/3/7", "3/7/26")
    monkeypatch.undo()
    import PySide6.QtCore  # noqa: F401 - the Qt path

    assert F.format_date(d, "zh_CN") == "2026年3月7日"
    assert F.format_date(d, "en") == "March 7, 2026"
    assert F.format_date(d, "zh_CN", long=False) == "2026/3/7"


def test_language_follows_qt_default_locale():
    from PySide6.QtCore import QLocale

    old = QLocale()
    try:
        QLocale.setDefault(QLocale("zh_CN"))
        assert F.current_language() == "zh_CN"
        assert F.format_large(12_000, "card-hours") == "1.2 万卡时"
        QLocale.setDefault(QLocale("en_US"))
        assert F.format_large(12_000, "card-hours") == "12,000 card-hours"
    finally:
        QLocale.setDefault(old)
    assert F.normalize_lang("zh-TW") == "zh_CN" and F.normalize_lang("de") == "en"


def test_formatting_does_not_import_qt():
    code = ("import sys, gpuplanner.formatting as f; f.format_money(1, 'CNY', 'zh'); "
            "f.format_date(__import__('datetime').date(2026, 1, 2), 'en'); "
            "assert not any(m.startswith('PySide6') for m in sys.modules), 'Qt imported'")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr

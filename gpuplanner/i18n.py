"""Qt translations: English (source language) and Simplified Chinese.

Strings are marked with ``self.tr()`` / ``QCoreApplication.translate()`` in Qt code and with the no-op
``QT_TRANSLATE_NOOP`` in the pure core. ``gpuplanner/resources/i18n/gpuplanner_zh_CN.ts`` is the source
of truth; the binary ``.qm`` is compiled from it by ``lrelease`` at build/install time (``setup.py``'s
``build_py`` step, the PyInstaller spec) and, in a development checkout, on first use into the user cache
folder — so the compiled file never drifts from the ``.ts``.

Installing a translator posts a ``LanguageChange`` event to every widget; widgets re-run their
``retranslate()`` (Frescobaldi's ``translateUI`` pattern). Qt's own ``qtbase_zh_CN.qm`` (shipped with
PySide6) translates standard buttons.

Chinese needs a font with Chinese glyphs: :func:`ensure_cjk_font` (the app at start, and the report) uses
an installed one, else registers the subset of Noto Sans CJK SC shipped in ``resources/fonts``
(``scripts/make_cjk_font.py``), so a machine with no CJK font still shows and prints Chinese.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

LANGUAGES = {"en": "English", "zh_CN": "简体中文"}
DOMAIN = "gpuplanner"


def ts_path(lang: str) -> Path:
    return Path(str(resources.files("gpuplanner.resources") / "i18n" / f"{DOMAIN}_{lang}.ts"))


def find_lrelease() -> str | None:
    """Locate Qt's lrelease: the PySide6 wrapper on PATH/next to Python, or the binary inside PySide6."""
    for name in ("pyside6-lrelease", "lrelease"):
        found = shutil.which(name) or (
            str(Path(sys.executable).with_name(name)) if Path(sys.executable).with_name(name).exists() else None)
        if found:
            return found
    try:
        import PySide6

        base = Path(PySide6.__file__).parent
        for cand in (base / "lrelease", base / "Qt" / "libexec" / "lrelease", base / "lrelease.exe"):
            if cand.exists():
                return str(cand)
    except ImportError:
        pass
    return None


def compile_ts(ts: Path, qm: Path) -> bool:
    """Compile a .ts file to .qm with lrelease; returns False when lrelease is unavailable or fails."""
    tool = find_lrelease()
    if tool is None or not ts.exists():
        return False
    qm.parent.mkdir(parents=True, exist_ok=True)
    res = subprocess.run([tool, str(ts), "-qm", str(qm)], capture_output=True, text=True)
    return res.returncode == 0 and qm.exists()


def qm_path(lang: str) -> Path | None:
    """The compiled translation for ``lang``: shipped next to the .ts (installed/frozen builds), else
    compiled on demand into the user cache folder (development checkouts)."""
    if lang == "en":
        return None
    ts = ts_path(lang)
    shipped = ts.with_suffix(".qm")
    if shipped.exists() and (not ts.exists() or shipped.stat().st_mtime >= ts.stat().st_mtime):
        return shipped
    from platformdirs import user_cache_dir

    if not ts.exists():
        return shipped if shipped.exists() else None
    cache = Path(os.environ.get("GPUPLANNER_CACHE_DIR") or user_cache_dir("gpuplanner", appauthor=False))
    # keyed by the .ts content, not its name and mtime: two checkouts (or two versions) sharing this cache must
    # never load each other's translations (review r10: Chinese output fell back to English)
    digest = hashlib.sha256(ts.read_bytes()).hexdigest()[:16]
    cached = cache / "i18n" / f"{shipped.stem}-{digest}.qm"
    if cached.exists():
        return cached
    partial = cached.with_name(f"{cached.stem}.{os.getpid()}.part.qm")  # renamed when complete: never half-read
    if compile_ts(ts, partial):
        os.replace(partial, cached)
        return cached
    return shipped if shipped.exists() else None


def system_language() -> str:
    """``zh_CN`` when the system's UI languages start with Chinese, else ``en``."""
    from PySide6.QtCore import QLocale

    for tag in QLocale.system().uiLanguages():
        t = tag.replace("-", "_").lower()
        if t.startswith("zh"):
            return "zh_CN"
        if t.startswith("en"):
            return "en"
    return "en"


#: Installed font families with Chinese glyphs, preferred (in this order) over the bundled font.
CJK_FAMILIES = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Micro Hei",
                "Microsoft YaHei", "PingFang SC", "SimHei")
_registered_cjk: list[str] = []


def font_dir() -> Path:
    """``resources/fonts``: the bundled subset of Noto Sans CJK SC (``scripts/make_cjk_font.py``)."""
    return Path(str(resources.files("gpuplanner.resources") / "fonts"))


def ensure_cjk_font() -> str | None:
    """A font family with Chinese glyphs for the UI and the report: the first of :data:`CJK_FAMILIES`
    Qt knows (an installed font), else the font shipped in ``resources/fonts`` (``*.otf``/``*.ttf``/
    ``*.ttc``), registered with ``QFontDatabase`` once. None only when neither exists (a broken install).
    Needs a QGuiApplication.

    The app calls it at start (``ui/app.py``): once registered, the bundled font takes part in Qt's font
    fallback, so every widget draws the Chinese characters its own font lacks with it, while Latin text
    keeps the platform's UI font; an installed CJK font is found by the same fallback."""
    from PySide6.QtGui import QFontDatabase

    families = set(QFontDatabase.families())
    for fam in CJK_FAMILIES:
        if fam in families:
            return fam
    return bundled_font()


def bundled_font() -> str | None:
    """The family of the font shipped in ``resources/fonts`` (Latin and Chinese), registered with
    ``QFontDatabase`` once; the report draws all its text with it, so its PDF and text layer are the same on
    every machine (an installed font's ligatures, e.g. DejaVu's "fi", would not survive ``pdftotext``).
    None only when the file is missing (a broken install). Needs a QGuiApplication."""
    from PySide6.QtGui import QFontDatabase

    if _registered_cjk:
        return _registered_cjk[0]
    folder = font_dir()
    if folder.is_dir():
        for f in sorted(folder.iterdir()):
            if f.suffix.lower() in (".otf", ".ttf", ".ttc"):
                fid = QFontDatabase.addApplicationFont(str(f))
                fams = QFontDatabase.applicationFontFamilies(fid) if fid >= 0 else []
                if fams:
                    _registered_cjk.append(fams[0])
                    return fams[0]
    return None


class LanguageManager:
    """Installs and swaps the application's translators, keeping references alive (Anki, Vorta)."""

    def __init__(self, app):
        self.app = app
        self.language = "en"
        self._translators: list = []

    def install(self, lang: str) -> bool:
        from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator

        if lang not in LANGUAGES:
            lang = "en"
        for tr in self._translators:
            self.app.removeTranslator(tr)
        self._translators = []
        ok = True
        if lang != "en":
            qt_tr = QTranslator(self.app)
            if qt_tr.load(QLocale(lang), "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
                self.app.installTranslator(qt_tr)
                self._translators.append(qt_tr)
            path = qm_path(lang)
            app_tr = QTranslator(self.app)
            ok = bool(path) and app_tr.load(str(path))
            if ok:
                self.app.installTranslator(app_tr)
                self._translators.append(app_tr)
        QLocale.setDefault(QLocale(lang if lang != "en" else "en_US"))
        self.language = lang
        return ok


#: Contexts of the pure core's marked strings (``CTX``/``_CTX`` in gpuplanner/core and gpuplanner/io). A plain
#: string parameter is looked up in these (after the message's own): e.g. a validator's sentence that reached a
#: plan-file error as text.
CORE_CONTEXTS = ("Plan", "Cost", "Timing", "Checklist", "Topology", "Acceptance", "Tier", "catalog", "PlanFile",
                 "Autosave", "ModelConfig", "Errors", "Project", "Scenario", "Units", "Estimate", "ModelFiles",
                 "HfCache", "SafeRead")


def translate_param(context: str, value):
    """A core message's parameter in the UI language: string parameters are often marked names (rental
    modes, link kinds, component names) that live in the message's context or another core context.
    Anything that is not a translated string (numbers, GPU names, paths) comes back unchanged."""
    if hasattr(value, "context") and hasattr(value, "text") and hasattr(value, "params"):
        return translate_message(value.context, value.text, value.params)  # a nested message
    if isinstance(value, (list, tuple)):  # a list of items: each translated, joined the language's way ("、")
        from .formatting import format_list

        return format_list([translate_param(context, v) for v in value])
    if not isinstance(value, str) or not value:
        return value
    from PySide6.QtCore import QCoreApplication

    for ctx in (context, *CORE_CONTEXTS):
        if not ctx:
            continue
        out = QCoreApplication.translate(ctx, value)
        if out != value:
            return out
    m = re.match(r"^(.*) \(converted at ([0-9.]+) CNY/USD\)$", value)
    if m:  # a price's source with the core's conversion note (cost.default_price)
        return QCoreApplication.translate("Report", "{0} (converted at {1} CNY/USD)").format(m.group(1), m.group(2))
    from .formatting import gpu_display_name

    return gpu_display_name(value)  # a GPU name: its regional suffix ("(China)") in the display language


def translate_message(context: str | None, text: str, params: dict | None) -> str:
    """Translate a core sentence in its context and fill in its (translated) parameters; a broken
    translation falls back to the English sentence rather than losing it."""
    from PySide6.QtCore import QCoreApplication

    params = dict(params or {})
    translated = QCoreApplication.translate(context, text) if context else text
    from .core.messages import english_plurals, money_params

    translated = english_plurals(translated, params)  # an English sentence (no translation) read with its counts
    translated, shown = money_params(translated, params)  # "{cost:,.0f} {cur}" → "¥1,505" (formatting.format_money)
    try:
        return _close_paren_space(
            translated.format(**{k: translate_param(context or "", v) for k, v in shown.items()}))
    except (KeyError, IndexError, ValueError):
        from .core.messages import plain_param

        text, shown = money_params(english_plurals(text, params), params, "en")
        return text.format(**{k: v.render() if hasattr(v, "render") else plain_param(v) for k, v in shown.items()})


# the no-space rule after a full-width bracket lives with the one formatter (pure, no Qt: the CLI's estimate uses it
# without loading this module); kept here under its old name for the UI and report
from .formatting import close_paren_space as _close_paren_space  # noqa: E402

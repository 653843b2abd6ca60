"""Run-time translation of the main window: live switch to 简体中文 and back, no English left behind,
and a pseudo-localisation pass that shows every visible text went through Qt's translation.

Widgets are found by type (QLabel, QAbstractButton, QGroupBox, QTabBar, QHeaderView, QComboBox,
QListWidget, pyqtgraph axes) and walked page by page, so the test follows the UI as it grows instead of
naming particular widgets. Expected Chinese texts are read from the .ts (the catalogue), not typed here.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTranslator
from PySide6.QtGui import QTextDocumentFragment
from PySide6.QtWidgets import (
    QAbstractButton, QApplication, QComboBox, QGroupBox, QHeaderView, QLabel, QListWidget, QMainWindow, QMenu,
    QTableView, QTabBar, QTextEdit, QWidget, QAbstractScrollArea,
)

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "gpuplanner" / "resources" / "i18n" / "gpuplanner_zh_CN.ts"
RES = ROOT / "gpuplanner" / "resources"

OPEN, CLOSE = "［", "］"  # full-width brackets: never part of an English UI string

# Words allowed outside a translation: user data and catalogue data shown verbatim (model and GPU names,
# network names), units and trade abbreviations that read the same in Chinese. Everything else with
# letters must have come through tr().
ALLOWED_WORDS = {
    "GiB", "GB", "MB", "TB", "Gb", "TFLOPS", "FLOPs", "MFU", "TP", "PP", "DP", "CP", "EP", "ZeRO", "NVLink",
    "PCIe", "SXM", "CNY", "USD", "EUR", "RMB", "bf", "fp", "BF", "FP", "AdamW", "Adafactor", "Adam", "SGD",
    "Megatron", "Core", "DeepSpeed", "FSDP", "FlashAttention", "cuDNN", "LM", "HF", "PyTorch", "LoRA", "QLoRA", "MoE", "GQA", "KV", "MLP", "NVIDIA",  # "Core": the product name Megatron-Core (Plans page details)
    "AMD", "GPU", "json", "gpuplan", "InfiniBand", "RoCE", "Ethernet",
    "FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP", "EFLOP", "ZFLOP", "YFLOP",
    # fine-tuning tools (product names, shown as they are) and training objectives (algorithm names)
    "LLaMA", "Factory", "Unsloth", "ms", "swift", "SWIFT", "NeMo", "Bridge", "TRL", "Axolotl", "Nanotron", "GPT", "NeoX", "DPO", "IPO", "KTO", "GRPO",
    # training stacks named as products (recompute policies, FP8 recipes)
    "torchtitan", "torchao", "Transformer", "Engine",
    # a library and its optimizer classes, named as they are (training.paged_optimizer)
    "bitsandbytes", "PagedAdamW",
    # the PyTorch module and library classes named as they are (torch.compile, torch.cuda's memory figures; PEFT
    # LoraConfig, torchtune CEWithChunkedOutputLoss, FSDP CPUOffload: the Training page's advanced rows)
    "torch", "LoraConfig", "CEWithChunkedOutputLoss", "CPUOffload",
    # a kernel library, named as it is (training.liger_kernel)
    "Liger", "Kernel",
    # NVIDIA's NeMo AutoModel library and the Triton kernel language (training.lora_layer)
    "AutoModel", "Triton",
}


def endonyms() -> set[str]:
    """Language names shown in their own language in the language menu ("English", "简体中文")."""
    from gpuplanner.i18n import LANGUAGES

    return set(LANGUAGES.values())


# ------------------------------------------------------------------------------------------- data

def catalogue() -> dict[tuple[str, str], str]:
    out = {}
    for ctx in ET.parse(TS).getroot().findall("context"):
        name = ctx.findtext("name") or ""
        for m in ctx.findall("message"):
            tr = m.find("translation")
            text = tr.findtext("numerusform") if m.get("numerus") == "yes" else tr.text
            out[(name, m.findtext("source"))] = text or ""
    return out


def zh(context: str, source: str) -> str:
    return catalogue()[(context, source)]


def data_words() -> set[str]:
    """Words of the names the app shows as data: GPU, network and model-preset names from the catalogue."""
    words: set[str] = set()

    def add(s):
        words.update(re.findall(r"[A-Za-z][A-Za-z]+", str(s)))

    for g in json.loads((RES / "gpus.json").read_text(encoding="utf-8")).get("gpus", []):
        add(g.get("name", "")), add(g.get("id", "")), add(g.get("vendor", "")), add(g.get("arch", ""))
        add(g.get("form_factor", "")), add(g.get("memory_type", ""))
    nets = json.loads((RES / "networks.json").read_text(encoding="utf-8"))
    for key in ("intra_node", "inter_node"):
        for n in nets.get(key, []):
            add(n.get("name", "")), add(n.get("id", ""))
    for pr in json.loads((RES / "prices.json").read_text(encoding="utf-8")).get("prices", []):
        add(pr.get("source", "")), add(pr.get("provider", "")), add(pr.get("region", ""))
    for p in (RES / "models").glob("*.json"):
        d = json.loads(p.read_text(encoding="utf-8"))
        add(d.get("name", "")), add(d.get("family", "")), add(d.get("id", ""))
    # the MFU ceilings' citations (publication, the run's GPU and layout), quoted as published
    from i18n_scan import data_words as scan_words

    return words | scan_words()


# ---------------------------------------------------------------------------------- text collection

def _plain(text: str) -> str:
    """Plain text of a label; word joiners (U+2060, which keep a legend entry on one line) are dropped so the
    words they join are scanned as words."""
    if re.search(r"<[a-zA-Z/][^>]*>|&[a-z]+;", text):
        text = QTextDocumentFragment.fromHtml(text).toPlainText()
    return text.replace("\u2060", "")


def _where(w: QWidget) -> str:
    """``QLabel 'objectName' in ModelPage``: the widget and the nearest gpuplanner class around it."""
    owner = w.parent()
    while owner is not None and not type(owner).__module__.startswith("gpuplanner"):
        owner = owner.parent()
    name = f" '{w.objectName()}'" if w.objectName() else ""
    return f"{type(w).__name__}{name} in {type(owner).__name__ if owner is not None else '?'}"


def _menu_texts(menu: QMenu, where: str, out: list) -> None:
    for a in menu.actions():
        if a.isSeparator():
            continue
        if a.menu() is not None:
            out.append((where, a.text()))
            _menu_texts(a.menu(), where, out)
        elif a.text():
            out.append((where, a.text()))


def visible_texts(window: QWidget, menus: bool = True) -> list[tuple[str, str]]:
    """(where, text) for every visible text of the window: labels, buttons, group titles, tabs, headers,
    combo items, list items, chart axis labels and titles, menus and the window title."""
    out: list[tuple[str, str]] = [("window title", window.windowTitle().replace("[*]", ""))]

    def shown(w: QWidget) -> bool:
        return w.isVisible() and w.window() is window

    for w in window.findChildren(QLabel):
        if shown(w) and w.text():
            out.append((_where(w), _plain(w.text())))
    for w in window.findChildren(QAbstractButton):
        if shown(w) and w.text():
            out.append((_where(w), w.text()))
    for w in window.findChildren(QGroupBox):
        if shown(w) and w.title():
            out.append((_where(w), w.title()))
    for w in window.findChildren(QTabBar):
        if shown(w):
            out += [(_where(w), w.tabText(i)) for i in range(w.count())]
    for w in window.findChildren(QHeaderView):
        model = w.model()
        if shown(w) and model is not None:
            for s in range(w.count()):
                if not w.isSectionHidden(s):
                    v = model.headerData(s, w.orientation(), Qt.ItemDataRole.DisplayRole)
                    if v:
                        out.append((_where(w), str(v)))
    for w in window.findChildren(QTextEdit):  # QTextBrowser details panes
        if shown(w) and w.toPlainText().strip():
            out += [(_where(w), line) for line in w.toPlainText().splitlines() if line.strip()]
    for w in window.findChildren(QTableView):  # the first rows' cells: texts built by the app, not only data
        model = w.model()
        if shown(w) and model is not None:
            for r in range(min(3, model.rowCount())):
                for c in range(model.columnCount()):
                    if not w.isColumnHidden(c):
                        v = model.data(model.index(r, c), Qt.ItemDataRole.DisplayRole)
                        if isinstance(v, str) and v:
                            out.append((f"cell of {_where(w)}", v))
    for w in window.findChildren(QComboBox):
        if shown(w) and not w.isEditable():
            out += [(_where(w), w.itemText(i)) for i in range(w.count())]
    for w in window.findChildren(QListWidget):
        if shown(w):
            out += [(_where(w), w.item(i).text()) for i in range(w.count())]
    import pyqtgraph as pg

    for w in window.findChildren(pg.PlotWidget):
        if shown(w):
            pi = w.getPlotItem()
            for side in ("left", "bottom", "right", "top"):
                ax = pi.getAxis(side)
                if ax.isVisible() and ax.labelText:
                    out.append((f"{side} axis of {_where(w)}", _plain(ax.labelText)))
                ticks = getattr(ax, "_tickLevels", None) or []
                for level in ticks:
                    out += [(f"{side} ticks of {_where(w)}", str(t[1])) for t in level]
            if pi.titleLabel.isVisible() and pi.titleLabel.text:
                out.append((f"title of {_where(w)}", _plain(pi.titleLabel.text)))
    if menus and isinstance(window, QMainWindow):
        for a in window.menuBar().actions():
            out.append(("menu bar", a.text()))
            if a.menu() is not None:
                _menu_texts(a.menu(), f"menu {a.text()!r}", out)
    return [(where, t) for where, t in out if t and t.strip()]


def untranslated_words(text: str, allowed: set[str]) -> list[str]:
    """Words (2+ letters) outside every ［…］ span, minus the allowed data words."""
    prev = None
    while prev != text:
        prev, text = text, re.sub(OPEN + "[^" + OPEN + CLOSE + "]*" + CLOSE, " ", text)
    words = re.findall(r"[A-Za-z][A-Za-z]+", text)
    return [w for w in words if w not in allowed and w.upper() not in allowed]


# ------------------------------------------------------------------------------------------- fixtures

class PseudoTranslator(QTranslator):
    """Wraps every text Qt translates in full-width brackets (Vorta's TRANS_SCALE idea)."""

    def translate(self, context, source, disambiguation=None, n=-1):  # noqa: D401 - Qt signature
        if not source:
            return source
        return OPEN + source + CLOSE

    def isEmpty(self) -> bool:  # noqa: N802 - Qt: an empty translator is not consulted
        return False


@pytest.fixture
def window(qtbot):
    from gpuplanner.ui.main_window import MainWindow

    w = MainWindow(autosave=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=30000)
    yield w
    w.model.set_dirty(False)
    w.search.shutdown()


def page_count(w) -> int:
    return w.sidebar.count()


def settle(qtbot, ms: int = 50) -> None:
    QApplication.processEvents()
    qtbot.wait(ms)
    QApplication.processEvents()


def select_first_plan(w) -> None:
    """On the Plans page, select the top plan so its details (and their texts) are shown."""
    view = getattr(w.stack.currentWidget(), "view", None)
    if isinstance(view, QTableView) and view.model() is not None and view.model().rowCount() > 0:
        view.selectRow(0)


def walk_pages(w, qtbot):
    """Yield (index, texts) for every wizard page shown in turn (the Plans page with a plan selected)."""
    for i in range(page_count(w)):
        w.go_to(i)
        select_first_plan(w)
        settle(qtbot)
        yield i, visible_texts(w)


# ------------------------------------------------------------------------------------ live switching

def test_switch_to_chinese_and_back_at_run_time(window, language, qtbot):
    w = window
    clipped = []
    for i, _texts in walk_pages(w, qtbot):  # builds every page: the switch must reach existing widgets
        clipped += [f"page {i + 1}: {b}" for b in clipped_texts(w)]
    assert not clipped, "clipped in English at 1280×800:\n" + "\n".join(clipped)
    w.go_to(0)
    settle(qtbot)
    memory, scaling, cost = w.live.charts()
    en = {
        "title": w.windowTitle(),
        "steps": [w.sidebar.item(i).text() for i in range(page_count(w))],
        "heading": w.page("model").heading.text(),
        "file": w.file_menu.title(),
        "next": w.next_btn.text(),
        "scaling_x": scaling.plot.getPlotItem().getAxis("bottom").labelText,
        "cost_x": cost.plot.getPlotItem().getAxis("bottom").labelText,
        "memory_title": memory.title_label.text(),
    }
    assert "Untitled plan" in en["title"] and en["file"] == "&File" and en["scaling_x"] == "GPUs"

    assert language.install("zh_CN")
    settle(qtbot, 100)

    assert zh("MainWindow", "Untitled plan") in w.windowTitle()
    steps = [w.sidebar.item(i).text() for i in range(page_count(w))]
    for i, src in enumerate(("Model", "Training setup", "Data volume", "Time and budget", "Hardware and prices")):
        assert zh("MainWindow", src) in steps[i], (i, steps[i])
        assert src not in steps[i]
    assert w.page("model").heading.text() == zh("ModelPage", "1 · Model")
    assert w.file_menu.title() == zh("MainWindow", "&File") == "文件(&F)"
    assert w.next_btn.text() == zh("MainWindow", "Next →")
    assert scaling.plot.getPlotItem().getAxis("bottom").labelText == zh("ScalingChart", "GPUs")
    # the cost chart's time axis reads in the unit its range suits (hours, days or weeks)
    assert cost.plot.getPlotItem().getAxis("bottom").labelText == zh("CostChart", cost.time_unit)
    assert memory.title_label.text() == zh("MemoryChart", "Memory per GPU (GiB)")
    assert memory.plot.getPlotItem().getAxis("left").labelText == zh("MemoryChart", "GiB")
    # Qt's own strings come from qtbase_zh_CN.qm
    assert QApplication.translate("QPlatformTheme", "Cancel") == "取消"

    language.install("en")
    settle(qtbot, 100)
    back = {
        "title": w.windowTitle(),
        "steps": [w.sidebar.item(i).text() for i in range(page_count(w))],
        "heading": w.page("model").heading.text(),
        "file": w.file_menu.title(),
        "next": w.next_btn.text(),
        "scaling_x": scaling.plot.getPlotItem().getAxis("bottom").labelText,
        "cost_x": cost.plot.getPlotItem().getAxis("bottom").labelText,
        "memory_title": memory.title_label.text(),
    }
    assert back == en


def _all_actions(window: QMainWindow):
    def walk(menu):
        for a in menu.actions():
            yield a
            if a.menu() is not None:
                yield from walk(a.menu())
    for a in window.menuBar().actions():
        yield a
        if a.menu() is not None:
            yield from walk(a.menu())


def test_language_menu_switches_live_and_persists(window, language, qtbot):
    """Settings → Language: an action carrying the language code switches the UI at once and the choice
    is stored in the app's settings (read back at the next start)."""
    actions = {a.data(): a for a in _all_actions(window) if a.data() in ("en", "zh_CN")}
    if "zh_CN" not in actions:
        pytest.xfail("no language action (QAction with data 'zh_CN') in the menus yet")
    title_en = window.windowTitle()
    actions["zh_CN"].trigger()
    settle(qtbot, 100)
    assert zh("MainWindow", "Untitled plan") in window.windowTitle() != title_en
    assert window.file_menu.title() == zh("MainWindow", "&File")
    from gpuplanner.ui import settings

    s = settings.settings()
    assert "zh_CN" in [str(s.value(k)) for k in s.allKeys()], "the language choice is not saved in the settings"
    actions.get("en", None) and actions["en"].trigger()
    settle(qtbot, 100)
    assert window.windowTitle() == title_en


def translated_english() -> set[str]:
    """English sources with letters whose Chinese translation differs (language names excepted)."""
    cat = catalogue()
    english = {src for (_ctx, src), tr in cat.items() if tr and tr != src and re.search(r"[A-Za-z]{2}", src)}
    return english - endonyms()


def switch_and_walk(w, language, qtbot):
    """Build every page in English, switch to Chinese live, then yield (page index, texts) page by page."""
    for i in range(page_count(w)):
        w.go_to(i)
    settle(qtbot)
    assert language.install("zh_CN")
    settle(qtbot, 100)
    yield from walk_pages(w, qtbot)


def test_no_english_left_and_nothing_clipped_after_switching_to_chinese(window, language, qtbot):
    """After a live switch, no visible text may still be an English source the catalogue translates:
    that means a widget did not re-translate, or its string sits under a context Qt never looks up.
    And at 1280×800 no label, button or combo box of any page is cut off in Chinese."""
    english = translated_english()
    left = set()
    clipped = []
    for i, texts in switch_and_walk(window, language, qtbot):
        left |= {f"page {i + 1}: {where}: {t.strip()!r}" for where, t in texts if t.strip() in english}
        clipped += [f"page {i + 1}: {b}" for b in clipped_texts(window)]
    assert not left, "English texts still shown after switching to Chinese:\n" + "\n".join(sorted(left))
    assert not clipped, "clipped in Chinese at 1280×800:\n" + "\n".join(clipped)


def test_no_english_phrase_inside_chinese_sentences(window, language, qtbot):
    """Two-word-or-longer English phrases the catalogue translates must not appear inside Chinese text:
    a sentence filled in with an untranslated value (a core message's parameter) leaks them."""
    phrases = sorted((p for p in translated_english() if re.fullmatch(r"[A-Za-z][A-Za-z'/-]*( [A-Za-z'/-]+)+", p)),
                     key=len, reverse=True)
    phrase_re = [(p, re.compile(r"(?<![A-Za-z])" + re.escape(p) + r"(?![A-Za-z])")) for p in phrases]
    assert any(p == "whole machines per week" for p, _ in phrase_re)
    left = set()
    for i, texts in switch_and_walk(window, language, qtbot):
        for where, text in texts:
            if re.search(r"[\u4e00-\u9fff]", text):
                leaked = next((p for p, rx in phrase_re if rx.search(text)), None)
                if leaked:
                    left.add(f"page {i + 1}: {where}: {leaked!r} inside {text[:100]!r}")
    assert not left, "English phrases inside Chinese sentences:\n" + "\n".join(sorted(left))


# ------------------------------------------------------------------------------ pseudo-localisation

@pytest.mark.parametrize("when", ["before", "after"])
def test_pseudo_localisation_every_visible_text_is_translated(qtbot, qapp, when):
    """Install a translator that brackets every string; all visible text with letters must be bracketed
    (apart from data: model/GPU names, units). ``before``: the window is built under the translator;
    ``after``: the translator arrives later and every widget must re-translate."""
    from gpuplanner.ui.main_window import MainWindow

    pseudo = PseudoTranslator(qapp)
    if when == "before":
        assert qapp.installTranslator(pseudo)
    w = MainWindow(autosave=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    try:
        qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=30000)
        if when == "after":
            for i in range(page_count(w)):
                w.go_to(i)
            assert qapp.installTranslator(pseudo)
            settle(qtbot, 100)
        allowed = ALLOWED_WORDS | data_words()
        bad = set()
        wrapped = 0
        for i, texts in walk_pages(w, qtbot):
            for where, text in texts:
                if text in endonyms():
                    continue
                words = untranslated_words(text, allowed)
                if words:
                    bad.add(f"page {i + 1}: {where}: {text!r} (untranslated: {' '.join(words)})")
                if OPEN in text:
                    wrapped += 1
        assert wrapped > 100, f"only {wrapped} bracketed texts: the pseudo translator was not consulted"
        assert not bad, f"hard-coded English ({len(bad)} texts):\n" + "\n".join(sorted(bad))
    finally:
        qapp.removeTranslator(pseudo)
        QApplication.processEvents()
        w.model.set_dirty(False)
        w.search.shutdown()


def test_pseudo_localisation_custom_gpu_dialog(qtbot, qapp):
    """The hardware page's dialog: title, labels and standard buttons (Qt's own strings) all translated."""
    try:
        from gpuplanner.ui.pages.hardware_page import CustomGpuDialog
    except ImportError:  # pragma: no cover - the dialog moved or was removed
        pytest.skip("no CustomGpuDialog")
    pseudo = PseudoTranslator(qapp)
    assert qapp.installTranslator(pseudo)
    try:
        d = CustomGpuDialog()
        qtbot.addWidget(d)
        d.show()
        settle(qtbot)
        texts = visible_texts(d)
        assert len(texts) >= 5
        bad = [f"{where}: {t!r}" for where, t in texts if untranslated_words(t, ALLOWED_WORDS)]
        assert not bad, "\n".join(bad)
        d.reject()
    finally:
        qapp.removeTranslator(pseudo)
        QApplication.processEvents()


def test_pseudo_checker_flags_english_outside_brackets():
    allowed = {"GiB", "GPU"}
    assert untranslated_words("［Model］", allowed) == []
    assert untranslated_words("［{0} of {1}］ GiB", allowed) == []
    assert untranslated_words("［1  ［Model］］  ⚠", allowed) == []
    assert untranslated_words("［Total］: 12 GiB per GPU", allowed) == ["per"]
    assert untranslated_words("Plans", allowed) == ["Plans"]


# ------------------------------------------------------------------------------------ layouts hold

def clipped_texts(window: QMainWindow) -> list[str]:
    """Visible labels, buttons and combo boxes narrower (or lower) than their text needs, and widgets
    pushed past their parent's edge."""
    out = []
    for lab in window.findChildren(QLabel):
        if not lab.isVisible() or not lab.text():
            continue
        if lab.wordWrap():
            need_h = lab.heightForWidth(lab.width())
            if need_h > lab.height() + 1:
                out.append(f"{_where(lab)}: {lab.text()[:50]!r} is {lab.height()} px high, needs {need_h}")
            continue
        hint = lab.sizeHint()
        if lab.width() < hint.width() - 1 or lab.height() < hint.height() - 1:
            out.append(f"{_where(lab)}: {lab.text()[:50]!r} is {lab.width()}×{lab.height()}, needs "
                       f"{hint.width()}×{hint.height()}")
    for b in window.findChildren(QAbstractButton):
        if b.isVisible() and b.text() and b.width() < b.sizeHint().width() - 1:
            out.append(f"{_where(b)}: {b.text()!r} is {b.width()} px wide, needs {b.sizeHint().width()}")
    for c in window.findChildren(QComboBox):
        if c.isVisible() and c.currentText():
            need = c.fontMetrics().horizontalAdvance(c.currentText()) + 24  # text + arrow and frame
            if c.width() < need:
                out.append(f"{_where(c)}: {c.currentText()!r} is {c.width()} px wide, needs {need}")
    # a layout that cannot fit its minimum sizes pushes children past the parent's edge, which cuts them
    # off (e.g. a chart's axis label); scrolled content is meant to extend past its viewport
    for c in window.findChildren(QWidget):
        p = c.parentWidget()
        if not c.isVisible() or c.isWindow() or p is None or isinstance(p, QAbstractScrollArea):
            continue
        gp = p.parentWidget()
        if isinstance(gp, QAbstractScrollArea) and p is gp.viewport():
            continue
        g, r = c.geometry(), p.rect()
        if g.bottom() > r.bottom() + 1 or g.right() > r.right() + 1:
            out.append(f"{type(c).__name__} in {_where(c).split(' in ')[-1]}: reaches {g.right() + 1}×{g.bottom() + 1} "
                       f"inside a {r.width()}×{r.height()} parent ({type(p).__name__}): cut off")
    return out


def test_clipped_checker_reports_a_squeezed_label(window, qtbot):
    probe = QLabel("a label far too long for twenty pixels", window.stack.currentWidget())
    probe.resize(20, 10)
    probe.show()
    settle(qtbot)
    assert any("far too long" in b for b in clipped_texts(window))
    probe.deleteLater()
    box = QWidget(window.stack.currentWidget())
    box.resize(50, 50)
    child = QWidget(box)
    child.setGeometry(0, 30, 50, 40)
    box.show()
    settle(qtbot)
    assert any("reaches 50×70 inside a 50×50 parent" in b for b in clipped_texts(window))
    box.deleteLater()


def test_core_error_at_its_field_and_in_the_live_panel_is_chinese(window, language, qtbot):
    """A core error (expert parallelism on a dense model) keeps its message id to the display: the field's
    error line, its tooltip and the live panel read Chinese, and the English sentence appears nowhere."""
    from gpuplanner.core.errors import ScenarioError
    from gpuplanner.io.scenario_files import load_scenario

    assert language.install("zh_CN")
    window.model.set("parallel.auto", False)
    window.model.set("parallel.ep", 2)
    errs = []

    def failed() -> bool:
        res = window.estimator.result
        if res is not None and res.error:
            errs.append(res.error)
        return bool(errs)

    qtbot.waitUntil(failed, timeout=10000)
    err = errs[0]
    assert hasattr(err, "context"), f"the live error lost its message id: {err!r}"
    shown = [window.live.error.text()]
    from gpuplanner.ui.fields import FieldBox

    for box in window.findChildren(FieldBox):
        if box.error:
            shown += [box.error_label.text(), box.toolTip()]
    assert any(shown), "the error is shown nowhere"
    english = str(err).split(": ", 1)[-1][:25]
    for text in shown:
        if text:
            assert english not in text, f"English left in {text!r}"
            assert any("\u4e00" <= ch <= "\u9fff" for ch in text), f"no Chinese in {text!r}"

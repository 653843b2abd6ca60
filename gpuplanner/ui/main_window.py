"""The main window: wizard steps in a sidebar, the current page, and the live panel beside it.

The window is the shell: menus, navigation, language, the status bar and the window's own state. The plan file
behind it (open, save, recent files, dirty state, autosave and recovery, the document assembled for Save and the
report) is :class:`gpuplanner.ui.document.DocumentController` (``window.doc``); the few window methods of that name
only delegate to it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QEvent, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QApplication, QFileDialog, QHBoxLayout, QInputDialog, QLabel, QListWidget, QListWidgetItem, QMainWindow,
    QMessageBox, QProgressBar, QPushButton, QSplitter, QStackedWidget, QVBoxLayout, QWidget,
)

from gpuplanner.core.errors import PlannerError

from . import settings
from .settings import (
    language_setting, report_author, resolve_language, save_language_setting, save_report_author,
)
from .document import DocumentController
from .live import LiveEstimator, SearchController
from .model import ScenarioModel
from .text import error_message, warning_box
from .pages.base import AppContext

PAGE_KEYS = ("model", "training", "data", "budget", "hardware", "plans", "verify", "project", "quotes")
SEARCH_BAR_WIDTH = 140  # the status bar's search progress bar, pixels
SELF_TEST_SCREENSHOT_ENV = "GPUPLANNER_SELF_TEST_SCREENSHOT"  # --self-test saves a screen grab there

# which wizard step owns a field path (for the ⚠ marks in the sidebar)
_BUDGET_FIELDS = ("constraints.deadline_days", "constraints.hours_per_week", "constraints.phase",
                  "constraints.budget", "constraints.currency", "constraints.objective", "constraints.max_gpus")


#: vision-language fields shown on the Model page (its "Images" group)
_MODEL_PAGE_FIELDS = ("data.images_per_sample", "data.image_resolution", "training.freeze_vision",
                      "training.freeze_projector")


def page_of_field(path: str) -> int:
    if path.startswith("model") or path.startswith(_MODEL_PAGE_FIELDS):
        return 0
    if path.startswith(("training", "parallel", "hardware.num_gpus", "data.mean_sample_len")):  # by packing
        return 1
    if path.startswith("data"):
        return 2
    if path.startswith(_BUDGET_FIELDS):
        return 3
    if path.startswith(("hardware", "constraints")):
        return 4
    return 1


_PAGE_MODULES = (("model_page", "ModelPage"), ("training_page", "TrainingPage"), ("data_page", "DataPage"),
                 ("budget_page", "BudgetPage"), ("hardware_page", "HardwarePage"), ("plans_page", "PlansPage"),
                 ("verify_page", "VerifyPage"), ("project_page", "ProjectPage"), ("quotes_page", "QuotesPage"))


def _page_class(i: int):
    """Import only the page being built (pages are built lazily, on first visit)."""
    import importlib

    module, name = _PAGE_MODULES[i]
    return getattr(importlib.import_module(f"{__package__}.pages.{module}"), name)


class MainWindow(QMainWindow):
    def __init__(self, parent: QWidget | None = None, model: ScenarioModel | None = None,
                 autosave: bool = True, search_enabled: bool = True):
        super().__init__(parent)
        self.model = model or ScenarioModel(parent=self)
        self.estimator = LiveEstimator(self.model, self)
        self.search = SearchController(self.model, self)
        self.search.enabled = search_enabled
        self.ctx = AppContext(self.model, self.estimator, self.search)
        # the plan file: open/save/recent/dirty/autosave/recovery (File menu actions call it)
        self.doc = DocumentController(self, self.model, self.estimator, self.search, autosave=autosave,
                                      current_page=lambda: PAGE_KEYS[max(0, self.current_index())])
        self.pages: list[QWidget | None] = [None] * len(PAGE_KEYS)
        self._printer = None

        self._build_layout()
        self._build_status_bar()

        self._make_actions()
        self.sidebar.currentRowChanged.connect(self.go_to)
        self.model.errorsChanged.connect(self._update_step_marks)
        self.model.dirtyChanged.connect(self._on_dirty_changed)
        self.model.changed.connect(self._on_model_changed)
        self.doc.message.connect(lambda text, ms: self.statusBar().showMessage(text, ms))
        self.doc.autosaveStateChanged.connect(self._show_autosave_state)
        self.doc.pageRequested.connect(self._go_to_page)
        self.doc.documentChanged.connect(self._update_title)
        self.doc.documentChanged.connect(self._update_search_status)

        self.resize(1280, 800)
        self.retranslate()
        self.go_to(0)
        self._restore_state()
        self.estimator.run_now()
        if search_enabled:
            self.search.restart()
        QTimer.singleShot(20, self._ensure_live)  # after the first paint

    def _build_layout(self) -> None:
        """The window's parts: the step list, the current page with Back/Next, and the live panel's place."""
        self.sidebar = QListWidget()
        self.sidebar.setObjectName("steps")
        self.sidebar.setFixedWidth(200)
        self.sidebar.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.sidebar.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.sidebar.setStyleSheet(
            "#steps { border: none; background: #eef2f6; font-size: 10.5pt; }"
            "#steps::item { padding: 9px 10px; }"
            "#steps::item:selected { background: #1565c0; color: white; }")
        for _ in PAGE_KEYS:
            self.sidebar.addItem(QListWidgetItem())
        self.stack = QStackedWidget()
        for _ in PAGE_KEYS:
            self.stack.addWidget(QWidget())
        nav = QHBoxLayout()
        nav.setContentsMargins(12, 4, 12, 8)
        self.back_btn = QPushButton()
        self.next_btn = QPushButton()
        self.back_btn.clicked.connect(self.go_back)
        self.next_btn.clicked.connect(self.go_next)
        self.next_btn.setDefault(False)
        nav.addWidget(self.back_btn)
        nav.addStretch(1)
        nav.addWidget(self.next_btn)
        center = QWidget()
        cl = QVBoxLayout(center)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.setSpacing(0)
        cl.addWidget(self.stack, 1)
        cl.addLayout(nav)
        # the live panel (pyqtgraph, ~0.3 s to import) is built right after the first paint
        self._live = None
        self._live_holder = QWidget()
        hl = QVBoxLayout(self._live_holder)
        hl.setContentsMargins(0, 0, 0, 0)
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.addWidget(self.sidebar)
        self.split.addWidget(center)
        self.split.addWidget(self._live_holder)
        self.split.setStretchFactor(1, 3)
        self.split.setStretchFactor(2, 2)
        self.split.setCollapsible(0, False)
        self.split.setCollapsible(1, False)
        self.setCentralWidget(self.split)
        self.split.setSizes([200, 630, 450])
        self.setAcceptDrops(True)  # drop a config.json or a model folder to import it (import_model)

    def _build_status_bar(self) -> None:
        """The status bar: autosave state, search state and progress (kept current by the search's signals)."""
        # the search's label and progress bar sit in a box of fixed size (see _size_search_box): their changes on
        # every keystroke (text, bar shown and hidden) re-lay out that box only, not the status bar and the window
        self.search_box = QWidget()
        box = QHBoxLayout(self.search_box)
        box.setContentsMargins(0, 0, 0, 0)
        self.search_label = QLabel()
        self.search_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.search_progress = QProgressBar()
        self.search_progress.setRange(0, 100)
        self.search_progress.setFixedWidth(SEARCH_BAR_WIDTH)
        self.search_progress.setTextVisible(False)
        self.search_progress.setVisible(False)
        box.addWidget(self.search_label, 1)
        box.addWidget(self.search_progress)
        self.autosave_label = QLabel()  # shown while autosave fails: the reason, until a write succeeds
        self.autosave_label.setObjectName("autosave_state")
        self.autosave_label.setStyleSheet("#autosave_state { color: #b71c1c; }")
        self.autosave_label.setTextFormat(Qt.TextFormat.PlainText)
        self.autosave_label.setVisible(False)
        self.statusBar().addPermanentWidget(self.autosave_label)
        self.statusBar().addPermanentWidget(self.search_box)
        self.search.started.connect(self._update_search_status)
        self.search.progress.connect(lambda f: self.search_progress.setValue(int(f * 100)))  # (throttled: live.py)
        self.search.finished.connect(lambda _o: self._update_search_status())
        self.search.finished.connect(self._on_search_finished)
        self.search.failed.connect(lambda _m: self._update_search_status())
        self.search.notice.connect(lambda m: self.statusBar().showMessage(m, 15000))  # the search process died
        self.search.cleared.connect(self._on_search_cleared)

    # ================================================================== live panel
    @property
    def live(self):
        return self._ensure_live()

    def _ensure_live(self):
        if self._live is None:
            from .charts import configure_pyqtgraph
            from .live_panel import LivePanel

            configure_pyqtgraph()
            self._live = LivePanel(self.model, self.estimator, self.search)
            self._live_holder.layout().addWidget(self._live)
            if self.pages[5] is not None:
                self._live.cost_chart.planClicked.connect(self._on_cost_point)
            if self.estimator.result is not None:
                self._live.on_estimate(self.estimator.result)
            self.estimator.run_scaling_now()
        return self._live

    # ================================================================== pages
    def ensure_page(self, i: int) -> QWidget:
        if self.pages[i] is None:
            page = _page_class(i)(self.ctx)
            old = self.stack.widget(i)
            self.stack.insertWidget(i, page)
            self.stack.removeWidget(old)
            old.deleteLater()
            self.pages[i] = page
            if i == 5 and self._live is not None:
                self._live.cost_chart.planClicked.connect(self._on_cost_point)
        return self.pages[i]

    def page(self, key: str):
        return self.ensure_page(PAGE_KEYS.index(key))

    def go_to(self, i: int) -> None:
        if i < 0 or i >= len(PAGE_KEYS):
            return
        self.ensure_page(i)
        self.stack.setCurrentIndex(i)
        if self.sidebar.currentRow() != i:
            self.sidebar.blockSignals(True)
            self.sidebar.setCurrentRow(i)
            self.sidebar.blockSignals(False)
        self.back_btn.setEnabled(i > 0)
        self.next_btn.setEnabled(i < len(PAGE_KEYS) - 1)
        self.model.set_ui("page", i)

    def current_index(self) -> int:
        return self.stack.currentIndex()

    def go_back(self) -> None:
        self.go_to(self.current_index() - 1)

    def go_next(self) -> None:
        self.go_to(self.current_index() + 1)

    def _on_search_finished(self, out) -> None:
        """Keep the chosen plan (by rank) or take the best one; the automatic layout adopts it.

        Only the current document's outcome counts (``search.outcome``; a new document clears it), and the
        plan is taken from that outcome, never from a view: this slot runs before the Plans page refreshes
        its table, which still holds the previous outcome's rows at this point."""
        if out is not self.search.outcome or not out.plans:
            return
        from gpuplanner.app.answer import SCENARIO, decide

        rank = self.model.ui.get("selected_plan")
        sel = next((p for p in out.plans if p.rank == rank), None)
        # the one rule (app.answer.decide); with manual layout the table only browses (the scenario is the plan)
        why, plan = decide(self.model.scenario, sel, lambda: out.plans) if self.model.scenario.parallel.auto else (
            SCENARIO, sel or out.plans[0])
        rank = plan.rank
        self.model.set_ui("selected_plan", rank)
        if why != SCENARIO:
            self.model.apply_plan(dict(plan.values))  # the live charts adopt it; replaces what an earlier plan set
        if self.pages[5] is not None:
            # select the row once the page has the new rows (its own finished slot runs after this one)
            gen = self.search.generation
            QTimer.singleShot(0, lambda: self._select_plan_row(gen, out, rank))

    def _select_plan_row(self, generation: int, out, rank: int) -> None:
        if generation != self.search.generation or out is not self.search.outcome or self.pages[5] is None:
            return  # another search or another document since
        if self.model.ui.get("selected_plan") == rank:
            self.pages[5].select_rank(rank)

    def _on_search_cleared(self) -> None:
        """A new document: the Plans page must not show (or let anyone pick) the previous document's plans."""
        page = self.pages[5]
        if page is not None:
            page.table_model.set_plans([])
            page.retranslate()  # status line and details for the empty table
        self._update_search_status()

    def _on_cost_point(self, index: int) -> None:
        plans = self.live.cost_chart.plans
        if 0 <= index < len(plans):
            self.page("plans").select_rank(plans[index].rank)

    # ================================================================== menus
    def _make_actions(self) -> None:
        mb = self.menuBar()
        self.file_menu = mb.addMenu("")
        self.go_menu = mb.addMenu("")
        self.settings_menu = mb.addMenu("")
        self.help_menu = mb.addMenu("")
        A = {}

        def act(key, slot, shortcut=None, menu=None):
            a = QAction(self)
            a.triggered.connect(slot)
            if shortcut is not None:
                a.setShortcut(shortcut)
            (menu or self.file_menu).addAction(a)
            A[key] = a
            return a

        doc = self.doc
        act("new", doc.file_new, QKeySequence.StandardKey.New)
        act("open", doc.file_open, QKeySequence.StandardKey.Open)
        self.recent_menu = self.file_menu.addMenu("")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        act("save", doc.file_save, QKeySequence.StandardKey.Save)
        act("save_as", doc.file_save_as, QKeySequence.StandardKey.SaveAs)
        act("revert", doc.file_revert)
        act("recover", lambda: doc.offer_recovery(from_menu=True))
        self.file_menu.addSeparator()
        act("export_charts", self.export_charts)
        act("preview", lambda: self._report("print_preview"))
        act("print", lambda: self._report("print_report"), QKeySequence.StandardKey.Print)
        act("pdf", lambda: self._report("export_pdf"))
        self.file_menu.addSeparator()
        act("quit", self.close, QKeySequence.StandardKey.Quit)
        for i in range(len(PAGE_KEYS)):
            act(f"step{i}", lambda _c=False, i=i: self.go_to(i), QKeySequence(f"Ctrl+{i + 1}"), self.go_menu)
        self.go_menu.addSeparator()
        act("back", self.go_back, QKeySequence("Alt+Left"), self.go_menu)
        act("next", self.go_next, QKeySequence("Alt+Right"), self.go_menu)
        act("search", self.search.restart, QKeySequence("F5"), self.go_menu)
        act("about", self.about, None, self.help_menu)
        # Settings → Language (live switch, remembered) and the report's author/team
        self.language_menu = self.settings_menu.addMenu("")
        self.language_group = QActionGroup(self)
        self.language_group.setExclusive(True)
        for code in ("system", "en", "zh_CN"):
            a = QAction(self)
            a.setCheckable(True)
            a.setData(code)
            a.triggered.connect(lambda _c=False, code=code: self.set_language(code))
            self.language_group.addAction(a)
            self.language_menu.addAction(a)
            A[f"lang_{code}"] = a
        A[f"lang_{language_setting()}"].setChecked(True)
        act("author", self.edit_author, None, self.settings_menu)
        self.actions_ = A

    def set_language(self, code: str) -> None:
        """Switch the UI language now (every widget re-translates on LanguageChange) and remember it."""
        save_language_setting(code)
        app = QApplication.instance()
        mgr = getattr(app, "language_manager", None)
        if mgr is None:
            from gpuplanner.i18n import LanguageManager

            mgr = app.language_manager = LanguageManager(app)
        mgr.install(resolve_language(code))
        act = self.actions_.get(f"lang_{code}")
        if act is not None:
            act.setChecked(True)

    def edit_author(self) -> None:
        """The author/team printed in the report's title block."""
        current = report_author()
        text, ok = QInputDialog.getText(self, self.tr("Report author"),
                                        self.tr("Author or team shown on printed plans:"), text=current)
        if ok:
            save_report_author(text.strip())

    def retranslate(self) -> None:
        titles = [self.tr("Model"), self.tr("Training setup"), self.tr("Data volume"), self.tr("Time and budget"),
                  self.tr("Hardware and prices"), self.tr("Plans"), self.tr("Verify server"), self.tr("Project"),
                  self.tr("Vendor quotes")]
        self.step_titles = titles
        self._update_step_marks()
        self.back_btn.setText(self.tr("← Back"))
        self.back_btn.setToolTip(self.tr("Previous step (Alt+Left)"))
        self.next_btn.setText(self.tr("Next →"))
        self.next_btn.setToolTip(self.tr("Next step (Alt+Right)"))
        # the last step's shortcut from the page count (issue 35 r17, ux26: it said Ctrl+7 beside nine steps)
        self.sidebar.setToolTip(self.tr("Steps: click any step, or press Ctrl+1 … Ctrl+{0}").format(len(PAGE_KEYS)))
        self.file_menu.setTitle(self.tr("&File"))
        self.go_menu.setTitle(self.tr("&Go"))
        self.settings_menu.setTitle(self.tr("&Settings"))
        self.language_menu.setTitle(self.tr("&Language"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.recent_menu.setTitle(self.tr("Open &Recent"))
        A = self.actions_
        texts = {"new": self.tr("&New"), "open": self.tr("&Open…"), "save": self.tr("&Save"),
                 "save_as": self.tr("Save &As…"), "revert": self.tr("Re&vert to Saved"),
                 "recover": self.tr("Recover &Unsaved Work…"),
                 "export_charts": self.tr("Export Charts as PNG…"), "preview": self.tr("Print Pre&view…"),
                 "print": self.tr("&Print…"), "pdf": self.tr("Export P&DF…"), "quit": self.tr("&Quit"),
                 "back": self.tr("&Back"), "next": self.tr("&Next"), "search": self.tr("Search &Again"),
                 "about": self.tr("&About GPU Planner"), "author": self.tr("Report &Author…"),
                 "lang_system": self.tr("System Default"), "lang_en": "English", "lang_zh_CN": "简体中文"}
        for k, t in texts.items():
            A[k].setText(t)
        for i, t in enumerate(titles):
            A[f"step{i}"].setText(self.tr("{0}. {1}").format(i + 1, t))
        self._update_title()
        self._size_search_box()
        self._update_search_status()

    # ================================================================== drop a model to import it
    @staticmethod
    def _dropped_model(mime) -> str | None:
        """The local config.json (any .json) or folder a drag carries, if exactly one."""
        if not mime.hasUrls() or len(mime.urls()) != 1 or not mime.urls()[0].isLocalFile():
            return None
        path = Path(mime.urls()[0].toLocalFile())
        if path.is_dir() or path.suffix.lower() == ".json":
            return str(path)
        return None

    def dragEnterEvent(self, ev):  # noqa: N802 (Qt)
        if self._dropped_model(ev.mimeData()):
            ev.acceptProposedAction()
        else:
            super().dragEnterEvent(ev)

    def dragMoveEvent(self, ev):  # noqa: N802 (Qt)
        if self._dropped_model(ev.mimeData()):
            ev.acceptProposedAction()
        else:
            super().dragMoveEvent(ev)

    def dropEvent(self, ev):  # noqa: N802 (Qt)
        path = self._dropped_model(ev.mimeData())
        if not path:
            super().dropEvent(ev)
            return
        ev.acceptProposedAction()
        self.import_model(path)

    def import_model(self, path: str) -> bool:
        """Import a dropped config.json or model folder on the Model page (which shows any error)."""
        self.go_to(PAGE_KEYS.index("model"))
        return self.page("model").import_path(path)

    def changeEvent(self, ev):  # noqa: N802 (Qt)
        if ev.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(ev)

    def _update_step_marks(self) -> None:
        bad = {page_of_field(p): msg for p, msg in self.model.errors().items()}
        for i, t in enumerate(getattr(self, "step_titles", [])):
            item = self.sidebar.item(i)
            item.setText(self.tr("{0}  {1}").format(i + 1, t) + ("  ⚠" if i in bad else ""))
            item.setToolTip(bad.get(i, ""))

    def _update_title(self) -> None:
        name = self.model.path.name if self.model.path else (self.model.title or self.tr("Untitled plan"))
        self.setWindowModified(self.model.dirty)
        self.setWindowTitle(self.tr("{0}[*] — GPU Planner").format(name))
        revert = getattr(self, "actions_", {}).get("revert")
        if revert is not None:  # nothing to revert to before a save, or without changes (it did nothing, silently)
            revert.setEnabled(self.model.path is not None and self.model.dirty)

    def _search_texts(self, n: int) -> dict[str, str]:
        from .text import plural

        return {"running": self.tr("Searching plans…"), "done": plural(self.tr("%n plan(s)", "", n), n),
                "failed": self.tr("Plan search failed")}

    def _size_search_box(self) -> None:
        """Fix the search box to its widest content in the language shown: its label's texts (a plan count of
        three digits) beside the progress bar. A widget of fixed size stops Qt's re-layout from going up to the
        status bar and the window when its content changes (QWidget::updateGeometry)."""
        fm = self.search_label.fontMetrics()
        m = self.search_label.contentsMargins()
        text_w = max(fm.horizontalAdvance(t) for t in self._search_texts(888).values()) + m.left() + m.right() + 4
        gap = self.search_box.layout().spacing()
        h = max(self.search_label.sizeHint().height(), self.search_progress.sizeHint().height())
        size = QSize(text_w + max(gap, 0) + SEARCH_BAR_WIDTH, h)
        if self.search_box.size() != size or self.search_box.minimumSize() != size:
            self.search_box.setFixedSize(size)

    def _update_search_status(self) -> None:
        from .text import set_text

        s = self.search
        running = s.state == "running"
        if running and self.search_progress.isHidden():
            self.search_progress.setValue(0)  # a new search starts from an empty bar, not where the last one ended
        self.search_progress.setVisible(running)
        n = len(s.outcome.plans) if (s.state == "done" and s.outcome is not None) else 0
        text = self._search_texts(n).get(s.state, "") if (s.state != "done" or s.outcome is not None) else ""
        set_text(self.search_label, text)

    def _on_model_changed(self, section: str) -> None:
        if section == "all":
            self._update_title()

    def _on_dirty_changed(self, _dirty: bool) -> None:
        self._update_title()

    def _go_to_page(self, key: str) -> None:
        """The page an opened plan was on ("" or an unknown key: the first page)."""
        self.go_to(PAGE_KEYS.index(key) if key in PAGE_KEYS else 0)

    def _show_autosave_state(self, error: str) -> None:
        """A failed autosave stays visible in the status bar, with its reason, until a write succeeds (or
        nothing is unsaved any more)."""
        if error:
            text = self.tr("Autosave failed: {0}").format(error)
            if self.autosave_label.text() != text or not self.autosave_label.isVisible():
                self.statusBar().showMessage(text, 10000)
            self.autosave_label.setText(text)
            self.autosave_label.setToolTip(self.tr("Your changes are not backed up. Save the plan to keep them."))
            self.autosave_label.setVisible(True)
        elif self.autosave_label.isVisible():
            self.autosave_label.setVisible(False)
            self.autosave_label.setText("")

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        entries = self.doc.recent_files()
        for p in entries:
            a = self.recent_menu.addAction(p.name)
            a.setToolTip(str(p))
            a.triggered.connect(lambda _c=False, p=p: self.doc.open_recent(p))
        if not entries:
            a = self.recent_menu.addAction(self.tr("(none)"))
            a.setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            a = self.recent_menu.addAction(self.tr("Clear list"))
            a.triggered.connect(self.doc.clear_recent)

    # ================================================================== files: thin delegation to self.doc
    # (the app, the report and tests call these on the window; the work is DocumentController's)
    def document(self):
        return self.doc.document()

    def maybe_save(self) -> bool:
        return self.doc.maybe_save()

    def file_new(self) -> None:
        return self.doc.file_new()

    def file_save(self) -> bool:
        return self.doc.file_save()

    def file_save_as(self) -> bool:
        return self.doc.file_save_as()

    def file_revert(self) -> None:
        return self.doc.file_revert()

    def open_path(self, path, show_errors: bool = True) -> bool:
        return self.doc.open_path(path, show_errors)

    def save_to(self, path) -> bool:
        return self.doc.save_to(path)

    def offer_recovery(self, from_menu: bool = False) -> bool:
        return self.doc.offer_recovery(from_menu)

    def clean_temp_files(self) -> list:
        return self.doc.clean_temp_files()

    # ================================================================== charts, report, about
    def export_charts(self) -> list[str]:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Export charts to folder"), settings.last_dir())
        if not folder:
            return []
        out = []
        for name, chart in zip(("memory", "scaling", "cost"), self.live.charts()):
            p = str(Path(folder) / f"gpuplanner-{name}.png")
            try:
                chart.export_png(p)
            except PlannerError as err:  # written atomically: a failed chart leaves no partial file
                warning_box(self, self.tr("Cannot export charts"), error_message(err))
                return out
            out.append(p)
        settings.remember_dir(folder)
        self.statusBar().showMessage(self.tr("Exported {0} charts to {1}").format(len(out), folder), 6000)
        return out

    def _report(self, func: str) -> None:
        """Print preview / print / PDF: :mod:`gpuplanner.ui.report` (the report package loads on first use)."""
        from . import report

        getattr(report, func)(self)

    def about(self) -> None:
        from gpuplanner import __version__

        QMessageBox.about(self, self.tr("About GPU Planner"), self.tr(
            "<b>GPU Planner {0}</b><p>Describe the training task; GPU Planner derives what to rent. "
            "Offline: it never touches the network. Every formula and catalog number names its source.</p>"
        ).format(__version__))

    # ================================================================== window state
    def _restore_state(self) -> None:
        s = settings.settings()
        geo = s.value("window/geometry")
        if isinstance(geo, QByteArray) and not geo.isEmpty():
            self.restoreGeometry(geo)
        sizes = s.value("window/splitter")
        if isinstance(sizes, QByteArray) and not sizes.isEmpty():
            self.split.restoreState(sizes)

    def save_state(self) -> None:
        s = settings.settings()
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/splitter", self.split.saveState())
        s.sync()

    def closeEvent(self, ev):  # noqa: N802 (Qt)
        if not self.doc.maybe_save():
            ev.ignore()
            return
        self.save_state()
        self.search.shutdown()
        self.estimator.shutdown()
        from .offthread import end_worker_threads

        end_worker_threads()
        self.doc.close()
        ev.accept()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt)
        return QSize(1280, 800)

    # ================================================================== self test
    def self_test(self, timeout_s: float = 60.0) -> int:
        """Walk every page with the example plan, render every chart, and report (0 = all good): ui/selftest.py."""
        from .selftest import run_self_test

        return run_self_test(self, timeout_s)

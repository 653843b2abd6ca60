"""The main window: wizard steps in a sidebar, the current page, and the live panel beside it."""

from __future__ import annotations

import os
import time
from pathlib import Path

from PySide6.QtCore import QByteArray, QEvent, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QApplication, QFileDialog, QHBoxLayout, QInputDialog, QLabel, QListWidget, QListWidgetItem, QMainWindow,
    QMessageBox,
    QProgressBar, QPushButton, QSplitter, QStackedWidget, QVBoxLayout, QWidget,
)

from gpuplanner.core.errors import PlannerError

from . import settings
from .settings import (
    language_setting, report_author, resolve_language, save_language_setting, save_report_author,
)
from .live import LiveEstimator, SearchController
from .model import ScenarioModel
from .pages.base import AppContext

PAGE_KEYS = ("model", "training", "data", "budget", "hardware", "plans", "verify", "project")
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
    if path.startswith(("training", "parallel", "hardware.num_gpus")):
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
                 ("verify_page", "VerifyPage"), ("project_page", "ProjectPage"))


def _page_class(i: int):
    """Import only the page being built (pages are built lazily, on first visit)."""
    import importlib

    module, name = _PAGE_MODULES[i]
    return getattr(importlib.import_module(f"{__package__}.pages.{module}"), name)


def _planfile():
    try:
        from gpuplanner.io import planfile
    except ImportError:
        return None
    return planfile


class MainWindow(QMainWindow):
    def __init__(self, parent: QWidget | None = None, model: ScenarioModel | None = None,
                 autosave: bool = True, search_enabled: bool = True):
        super().__init__(parent)
        self.model = model or ScenarioModel(parent=self)
        self.estimator = LiveEstimator(self.model, self)
        self.search = SearchController(self.model, self)
        self.search.enabled = search_enabled
        self.ctx = AppContext(self.model, self.estimator, self.search)
        self._doc = None           # the PlanDocument the model came from (keeps checklist, unknown fields)
        self._disk_stamp = None    # (mtime_ns, size) of model.path when it was last loaded or saved
        self.pages: list[QWidget | None] = [None] * len(PAGE_KEYS)
        self._printer = None

        # ---- layout: sidebar | page + nav | live panel
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

        # ---- status bar
        self.search_label = QLabel()
        self.search_progress = QProgressBar()
        self.search_progress.setRange(0, 100)
        self.search_progress.setMaximumWidth(140)
        self.search_progress.setTextVisible(False)
        self.autosave_label = QLabel()  # shown while autosave fails: the reason, until a write succeeds
        self.autosave_label.setObjectName("autosave_state")
        self.autosave_label.setStyleSheet("#autosave_state { color: #b71c1c; }")
        self.autosave_label.setTextFormat(Qt.TextFormat.PlainText)
        self.autosave_label.setVisible(False)
        self.statusBar().addPermanentWidget(self.autosave_label)
        self.statusBar().addPermanentWidget(self.search_label)
        self.statusBar().addPermanentWidget(self.search_progress)
        self.search.started.connect(self._update_search_status)
        self.search.progress.connect(lambda f: self.search_progress.setValue(int(f * 100)))
        self.search.finished.connect(lambda _o: self._update_search_status())
        self.search.finished.connect(self._on_search_finished)
        self.search.failed.connect(lambda _m: self._update_search_status())
        self.search.notice.connect(lambda m: self.statusBar().showMessage(m, 15000))  # the search process died
        self.search.cleared.connect(self._on_search_cleared)

        self._make_actions()
        self.sidebar.currentRowChanged.connect(self.go_to)
        self.model.errorsChanged.connect(self._update_step_marks)
        self.model.dirtyChanged.connect(self._on_dirty_changed)
        self.model.changed.connect(self._on_model_changed)

        # ---- autosave (debounced; the plan-file layer decides the timing)
        self._autosave = None
        self._autosave_timer = QTimer(self)
        self._autosave_timer.setSingleShot(True)
        self._autosave_timer.timeout.connect(self._autosave_poll)
        if autosave:
            self._setup_autosave()
            QTimer.singleShot(0, self.clean_temp_files)  # temp files of saves killed in earlier runs

        self.resize(1280, 800)
        self.retranslate()
        self.go_to(0)
        self._restore_state()
        self.estimator.run_now()
        if search_enabled:
            self.search.restart()
        QTimer.singleShot(20, self._ensure_live)  # after the first paint

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
        ranks = {p.rank for p in out.plans}
        rank = self.model.ui.get("selected_plan")
        if rank not in ranks:
            rank = out.plans[0].rank
        plan = next(p for p in out.plans if p.rank == rank)
        self.model.set_ui("selected_plan", rank)
        if self.model.scenario.parallel.auto:
            self.model.apply_plan(dict(plan.values))  # replaces what an earlier plan set
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

        act("new", self.file_new, QKeySequence.StandardKey.New)
        act("open", self.file_open, QKeySequence.StandardKey.Open)
        self.recent_menu = self.file_menu.addMenu("")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        act("save", self.file_save, QKeySequence.StandardKey.Save)
        act("save_as", self.file_save_as, QKeySequence.StandardKey.SaveAs)
        act("revert", self.file_revert)
        act("recover", lambda: self.offer_recovery(from_menu=True))
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
                  self.tr("Hardware and prices"), self.tr("Plans"), self.tr("Verify server"), self.tr("Project")]
        self.step_titles = titles
        self._update_step_marks()
        self.back_btn.setText(self.tr("← Back"))
        self.back_btn.setToolTip(self.tr("Previous step (Alt+Left)"))
        self.next_btn.setText(self.tr("Next →"))
        self.next_btn.setToolTip(self.tr("Next step (Alt+Right)"))
        self.sidebar.setToolTip(self.tr("Steps: click any step, or press Ctrl+1 … Ctrl+7"))
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

    def _update_search_status(self) -> None:
        s = self.search
        self.search_progress.setVisible(s.state == "running")
        if s.state == "running":
            self.search_label.setText(self.tr("Searching plans…"))
        elif s.state == "done" and s.outcome is not None:
            from .text import plural

            self.search_label.setText(plural(self.tr("%n plan(s)", "", len(s.outcome.plans)), len(s.outcome.plans)))
        elif s.state == "failed":
            self.search_label.setText(self.tr("Plan search failed"))
        else:
            self.search_label.setText("")

    def _on_model_changed(self, section: str) -> None:
        if section not in ("ui",) or self.model.dirty:
            if self._autosave is not None and self.model.dirty:
                self._autosave.edited()
                rem = self._autosave.remaining()
                if rem is not None:
                    self._autosave_timer.start(int(rem * 1000))
        if section == "all":
            self._update_title()

    def _on_dirty_changed(self, dirty: bool) -> None:
        self._update_title()
        if not dirty:
            self._autosave_reset()

    def _autosave_reset(self) -> None:
        """Nothing unsaved (saved, opened, or edited back to the saved state): no autosave is due and the
        one on disk is not needed for recovery."""
        timer = getattr(self, "_autosave_timer", None)
        if timer is not None:
            timer.stop()
        if getattr(self, "_autosave", None) is not None:
            try:
                self._autosave.saved()
            except PlannerError:
                pass
        if hasattr(self, "autosave_label"):
            self._show_autosave_state()

    # ================================================================== files
    def document(self):
        """The PlanDocument for the current state (for Save and autosave)."""
        pf = _planfile()
        if pf is None:
            return None
        from gpuplanner.io.planfile import SelectedPlan, UiState

        doc = self._doc.model_copy(deep=True) if self._doc is not None else pf.new_document()
        if self._doc is not None:
            doc._unknown = self._doc.unknown_fields
        doc.title = self.model.title
        doc.notes = self.model.notes
        # what the user set (the search's input); an adopted plan is stored as the selected plan
        doc.scenario = self.model.user_scenario()
        doc.ui_state = UiState(current_page=PAGE_KEYS[max(0, self.current_index())])
        plan = self._selected_plan()
        if not doc.scenario.parallel.auto:
            # manual layout: the user's own layout is the choice (the search's plans are suggestions)
            doc.selected_plan = None
        elif plan is not None:
            # the plan's complete scenario: the CLI and the report evaluate exactly this
            doc.selected_plan = SelectedPlan(
                label=f"#{plan.rank}", gpu=plan.gpu, num_gpus=plan.num_gpus, gpus_per_node=plan.gpus_per_node,
                scenario=plan.scenario, currency=plan.currency, calendar_days=plan.calendar_days, cost=plan.cost)
        elif self._doc is None or doc.scenario != self._doc.scenario:
            # no search result for these inputs yet: the file's selected plan was made for other inputs
            doc.selected_plan = None
        checklist = self.model.ui.get("checklist") or {}
        if checklist:
            from gpuplanner.io.planfile import ChecklistItem

            doc.vendor_checklist = [ChecklistItem(id=k, checked=bool(v.get("checked")), note=str(v.get("notes") or ""))
                                    for k, v in checklist.items()]
        project = self.model.ui.get("project")
        if isinstance(project, dict):
            from gpuplanner.core.project import Project

            try:
                doc.project = Project.model_validate(project)
            except ValueError:
                pass  # the Project page shows why; the file keeps its last valid project
        results = dict(doc.results or {})
        res = self.estimator.result
        if res is not None and res.evaluation is not None:
            results["estimate"] = res.evaluation.to_json()
        results["app_ui"] = {k: v for k, v in self.model.ui.items() if k != "project"}  # project: its own key
        doc.results = results
        return doc

    def _selected_plan(self):
        out = self.search.outcome
        if out is None:
            return None
        rank = self.model.ui.get("selected_plan")
        return next((p for p in out.plans if p.rank == rank), None)

    def maybe_save(self) -> bool:
        """Ask to save unsaved changes; False when the user cancels."""
        if not self.model.dirty:
            return True
        btn = QMessageBox.question(
            self, self.tr("Unsaved changes"),
            self.tr("The plan has unsaved changes. Save them first?"),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save)
        if btn == QMessageBox.StandardButton.Save:
            return self.file_save()
        return btn == QMessageBox.StandardButton.Discard

    def load_document(self, scenario, *, doc=None, title: str = "", notes: str = "", ui: dict | None = None,
                      base_dir: Path | None = None, path: Path | None = None, modified: bool = False,
                      stamp: tuple[int, int] | None = None, recovered=None) -> bool:
        """Replace the whole document state (New, Open, Revert, recovery): the running search is cancelled
        and its outcome dropped (a new generation), the model (scenario, title, notes, UI state, adopted
        plan) replaced, the live estimate redone, and the autosave bookkeeping restarted. ``stamp``: the
        file's (mtime_ns, size) as loaded (to notice outside changes before a save). ``modified``: the
        document is not what is on disk (a recovered autosave, ``recovered``): it is autosaved at once,
        and only then is ``recovered``'s file deleted. Returns False when that autosave failed (the old
        file is then kept and the status bar says why)."""
        self.search.reset()
        self._autosave_timer.stop()
        self._doc = doc
        self._disk_stamp = stamp if path is not None else None
        self.model.load(scenario, title=title, notes=notes, ui=ui, base_dir=base_dir, path=path)
        if not modified:
            self._autosave_reset()
        else:
            self.model.mark_modified()
        # nothing of the previous document may be read from the estimator (report, document(), pages)
        self.estimator.run_now()
        self.estimator.schedule()
        self._update_title()
        self._update_search_status()
        if modified and self._autosave is not None:
            # keep the recovered work safe now, not after the next edit: a crash a second later loses nothing
            if recovered is not None:
                self._autosave.take_over(recovered)
            else:
                self._autosave.write_now()
            self._show_autosave_state()
            rem = self._autosave.remaining()
            if rem is not None:  # the write failed: try again after the usual delay
                self._autosave_timer.start(int(rem * 1000) + 10)
            return self._autosave.last_error is None
        return True

    def file_new(self) -> None:
        if not self.maybe_save():
            return
        import copy

        from .model import DEFAULT_UI, default_scenario

        self.load_document(default_scenario(), ui=copy.deepcopy(DEFAULT_UI))
        self.go_to(0)

    def file_open(self) -> None:
        if not self.maybe_save():
            return
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Open plan or scenario"), settings.last_dir(),
            self.tr("GPU Planner plans (*.gpuplan);;Scenario JSON (*.json);;All files (*)"))
        if path:
            self.open_path(path)

    def open_path(self, path: str | Path, show_errors: bool = True) -> bool:
        """Open a .gpuplan or a scenario JSON; errors go to a message box (never a traceback)."""
        path = Path(path)
        pf = _planfile()
        warnings: list[str] = []
        ui = None
        stamp = pf.file_stamp(path) if pf is not None else None  # before reading: a later change is noticed
        try:
            if pf is not None:
                doc, warnings = pf.load(path)
                base = path.resolve().parent
                scenario = pf.scenario_for_estimate(doc, base, path.name)
                ui = (doc.results or {}).get("app_ui") if isinstance(doc.results, dict) else None
                if doc.vendor_checklist:
                    ui = dict(ui) if isinstance(ui, dict) else {}
                    ui["checklist"] = {c.id: {"checked": c.checked, "notes": c.note} for c in doc.vendor_checklist}
                if doc.project is not None:
                    ui = dict(ui) if isinstance(ui, dict) else {}
                    ui["project"] = doc.project.model_dump(mode="json", exclude_none=True)
                is_plan = pf.is_plan_file(path)
                title = doc.title
                notes = doc.notes
                if not is_plan:
                    doc = None
            else:
                from gpuplanner.io.scenario_files import load_scenario

                scenario, base = load_scenario(path)
                title = notes = ""
                is_plan = False
                doc = None
        except PlannerError as err:
            if show_errors:
                QMessageBox.warning(self, self.tr("Cannot open"), str(err))
            self.statusBar().showMessage(str(err), 8000)
            return False
        if not is_plan:
            title = path.stem
        self.load_document(scenario, doc=doc, title=title, notes=notes, ui=ui if isinstance(ui, dict) else None,
                           base_dir=base, path=path if is_plan else None, stamp=stamp)
        if pf is not None:
            pf.clean_stale_temps(path.parent)
        settings.remember_dir(path)
        self._add_recent(path)
        page = self._doc.ui_state.current_page if self._doc is not None else None
        self.go_to(PAGE_KEYS.index(page) if page in PAGE_KEYS else 0)
        if warnings:
            from .text import tr_msg

            self.statusBar().showMessage(" · ".join(tr_msg(w) for w in warnings), 10000)
        return True

    def file_save(self) -> bool:
        if self.model.path is None:
            return self.file_save_as()
        return self.save_to(self.model.path)

    def file_save_as(self) -> bool:
        start = str(self.model.path) if self.model.path else str(Path(settings.last_dir()) / "plan.gpuplan")
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save plan"), start,
                                              self.tr("GPU Planner plans (*.gpuplan)"))
        if not path:
            return False
        if not path.endswith(".gpuplan"):
            path += ".gpuplan"
        return self.save_to(Path(path))

    def _changed_on_disk(self, path: Path) -> bool:
        """Whether ``path`` is the file this document was loaded from or last saved to, and another program
        changed it since (its modification time or size differ). A deleted file is not a change."""
        pf = _planfile()
        if pf is None or self.model.path is None or self._disk_stamp is None:
            return False
        try:
            same = Path(path).resolve() == Path(self.model.path).resolve()
        except OSError:
            same = False
        if not same:
            return False
        now = pf.file_stamp(path)
        return now is not None and now != self._disk_stamp

    def ask_outside_change(self, path: Path) -> str:
        """Another program changed ``path``: "keep" (overwrite it; its version goes to .bak), "reload"
        (open it, dropping the edits here), "save_as" or "cancel"."""
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(self.tr("File changed on disk"))
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(self.tr("“{0}” was changed by another program since you opened or saved it.").format(path.name))
        box.setInformativeText(self.tr(
            "Keep Mine saves your version over it (the other version is kept as {0}.bak). Reload opens the "
            "file as it is now and drops your unsaved changes. Save As… keeps both.").format(path.name))
        keep = box.addButton(self.tr("&Keep Mine"), QMessageBox.ButtonRole.AcceptRole)
        reload_ = box.addButton(self.tr("&Reload"), QMessageBox.ButtonRole.DestructiveRole)
        save_as = box.addButton(self.tr("Save &As…"), QMessageBox.ButtonRole.ActionRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(save_as)
        box.exec()
        clicked = box.clickedButton()
        return {id(keep): "keep", id(reload_): "reload", id(save_as): "save_as"}.get(id(clicked), "cancel")

    def save_to(self, path: Path) -> bool:
        pf = _planfile()
        if pf is None:
            QMessageBox.warning(self, self.tr("Cannot save"), self.tr("Plan files are not available in this build."))
            return False
        path = Path(path)
        if self._changed_on_disk(path):
            choice = self.ask_outside_change(path)
            if choice == "reload":
                self.open_path(path)
                return False
            if choice == "save_as":
                return self.file_save_as()
            if choice != "keep":
                return False
        doc = self.document()
        try:
            warnings = pf.save(doc, path, base_dir=self.model.base_dir)
        except PlannerError as err:
            QMessageBox.warning(self, self.tr("Cannot save"), str(err))
            return False
        self._disk_stamp = pf.file_stamp(path)
        self._doc = doc
        self.model.path = path
        self.model.base_dir = self.model.base_dir or path.resolve().parent
        self.model.mark_clean()
        self._update_title()
        settings.remember_dir(path)
        self._add_recent(path)
        if self._autosave is not None:
            try:
                self._autosave.saved()
            except PlannerError:
                pass
        from .text import tr_msg

        self.statusBar().showMessage(" · ".join([self.tr("Saved {0}").format(path.name),
                                                 *(tr_msg(w) for w in warnings)]), 6000)
        return True

    def file_revert(self) -> None:
        if self.model.path is None or not self.model.dirty:
            return
        btn = QMessageBox.question(self, self.tr("Revert"), self.tr("Discard the changes since the last save?"))
        if btn == QMessageBox.StandardButton.Yes:
            self.open_path(self.model.path)

    def _recent(self):
        try:
            from gpuplanner.io.autosave import RecentFiles
        except ImportError:
            return None
        return RecentFiles()

    def _add_recent(self, path: Path) -> None:
        rf = self._recent()
        if rf is not None:
            rf.add(path)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        rf = self._recent()
        entries = rf.entries(existing_only=True) if rf is not None else []
        for p in entries:
            a = self.recent_menu.addAction(p.name)
            a.setToolTip(str(p))
            a.triggered.connect(lambda _c=False, p=p: self.maybe_save() and self.open_path(p))
        if not entries:
            a = self.recent_menu.addAction(self.tr("(none)"))
            a.setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            a = self.recent_menu.addAction(self.tr("Clear list"))
            a.triggered.connect(lambda: rf.clear())

    # ================================================================== autosave / recovery
    def _setup_autosave(self) -> None:
        try:
            from gpuplanner.io.autosave import AutosaveDriver, AutosaveStore, Debouncer
        except ImportError:
            return
        self._autosave_store = AutosaveStore()
        self._autosave = AutosaveDriver(self._autosave_store, self.document,
                                        source_path=lambda: self.model.path,
                                        source_stamp=lambda: self._disk_stamp if self.model.path else None,
                                        debouncer=Debouncer(delay_s=1.0, max_wait_s=2.0))

    def _autosave_poll(self) -> None:
        if self._autosave is None:
            return
        self._autosave.poll()
        self._show_autosave_state()
        rem = self._autosave.remaining()
        if rem is not None:
            self._autosave_timer.start(int(rem * 1000) + 10)

    def _show_autosave_state(self) -> None:
        """A failed autosave stays visible in the status bar, with its reason, until a write succeeds (or
        nothing is unsaved any more)."""
        error = self._autosave.last_error if self._autosave is not None else None
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

    def clean_temp_files(self) -> list:
        """Remove the temp files killed saves left (our temp-name pattern only, older than a minute) in the
        autosave and settings folders and the folders of recent and open plans."""
        try:
            from gpuplanner.io.autosave import startup_cleanup
        except ImportError:
            return []
        return startup_cleanup([self.model.path.parent] if self.model.path else [])

    def offer_recovery(self, from_menu: bool = False) -> bool:
        """Offer every autosave that crashed sessions left behind (newest first, with time and title).
        Nothing is deleted unless the user discards it or its recovered copy is autosaved here; what the
        user leaves for later is offered again (next start, File › Recover Unsaved Work…). Returns whether
        one was restored."""
        store = getattr(self, "_autosave_store", None)
        if store is None:
            return False
        try:
            pending = store.pending()
        except (PlannerError, OSError):
            return False
        if not pending:
            if from_menu:
                self.statusBar().showMessage(self.tr("No unsaved work to recover."), 6000)
            return False
        from .recovery import RecoveryDialog

        def discard(rec) -> str | None:
            try:
                store.discard(rec.id)
            except PlannerError as err:
                return str(err)
            return None

        dlg = RecoveryDialog(pending, discard, self)
        dlg.exec()
        rec = dlg.chosen
        restored = False
        if rec is not None and rec.document is not None and (not self.model.dirty or self.maybe_save()):
            restored = self._restore(rec)
        left = [r for r in dlg.pending if not (restored and r is rec)]
        if left:
            self.statusBar().showMessage(self.tr(
                "{0} more autosaved plan(s) kept: File › Recover Unsaved Work… offers them again.").format(len(left)),
                10000)
        return restored

    def _restore(self, rec) -> bool:
        pf = _planfile()
        doc = rec.document
        base = rec.source_path.parent if rec.source_path else None
        try:
            scenario = pf.scenario_for_estimate(doc, base, rec.file.name)
        except PlannerError as err:
            QMessageBox.warning(self, self.tr("Cannot recover"), str(err))
            return False
        ui = (doc.results or {}).get("app_ui") if isinstance(doc.results, dict) else None
        self.load_document(scenario, doc=doc, title=doc.title, notes=doc.notes,
                           ui=ui if isinstance(ui, dict) else None, base_dir=base, path=rec.source_path,
                           modified=True, stamp=rec.source_stamp, recovered=rec)
        return True

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
                QMessageBox.warning(self, self.tr("Cannot export charts"), str(err))
                return out
            out.append(p)
        settings.remember_dir(folder)
        self.statusBar().showMessage(self.tr("Exported {0} charts to {1}").format(len(out), folder), 6000)
        return out

    def _report(self, func: str) -> None:
        """Print preview / print / PDF come from gpuplanner.ui.report (written separately)."""
        try:
            from . import report
        except ImportError:
            report = None
        fn = getattr(report, func, None) if report is not None else None
        if fn is None:
            QMessageBox.information(self, self.tr("Report"), self.tr("The printable report is not available yet."))
            return
        fn(self)

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
        if not self.maybe_save():
            ev.ignore()
            return
        self.save_state()
        self.search.shutdown()
        self.estimator.shutdown()
        store = getattr(self, "_autosave_store", None)
        if store is not None:
            store.close()
        ev.accept()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt)
        return QSize(1280, 800)

    # ================================================================== self test
    def _grab_screen(self, path: str, timeout_s: float = 10.0) -> list[str]:
        """Self-test (``GPUPLANNER_SELF_TEST_SCREENSHOT=FILE.png``): once the window system reports the first
        window exposed and it has painted, save what the screen shows, read back from the window system
        (``QScreen.grabWindow(0)``: on X11 the X server's root window), so a check outside the app can see
        that a real window appeared (packaging/build_linux.sh runs it under Xvfb with the xcb platform).
        Wayland lets no client read the screen; there the exposed window's own rendering is saved."""
        app = QApplication.instance()
        t0 = time.monotonic()
        while not (self.windowHandle() and self.windowHandle().isExposed()) and time.monotonic() - t0 < timeout_s:
            app.processEvents()
            time.sleep(0.01)
        if not (self.windowHandle() and self.windowHandle().isExposed()):
            return [f"the window was not exposed within {timeout_s:.0f} s"]
        self.repaint()
        app.processEvents()
        pixmap, what = self.screen().grabWindow(0), "screen"
        if pixmap.isNull():  # Wayland gives clients no screen grab: the exposed window's own rendering
            pixmap, what = self.grab(), "window (no screen grab on this platform)"
        if pixmap.isNull() or not pixmap.save(path, "PNG"):
            return [f"could not save the screen grab to {path}"]
        print(f"self-test: {app.platformName()}: {what} {pixmap.width()}x{pixmap.height()} saved to {path}; "
              f"window at {self.x()},{self.y()} {self.width()}x{self.height()}")
        return []

    def self_test(self, timeout_s: float = 60.0) -> int:
        """Walk every page with the example plan, render every chart, and report (0 = all good)."""
        import sys
        import traceback

        app = QApplication.instance()
        problems: list[str] = []
        old_hook = sys.excepthook

        def hook(etype, value, tb):  # an exception in a slot fails the self-test
            problems.append("".join(traceback.format_exception_only(etype, value)).strip())
            traceback.print_exception(etype, value, tb)

        sys.excepthook = hook
        app.processEvents()
        shot = os.environ.get(SELF_TEST_SCREENSHOT_ENV)
        if shot:
            problems += self._grab_screen(shot)
        for i in range(len(PAGE_KEYS)):
            self.go_to(i)
            app.processEvents()
            if self.grab().isNull():
                problems.append(f"page {PAGE_KEYS[i]} did not render")
        t0 = time.monotonic()
        while self.search.state == "running" and time.monotonic() - t0 < timeout_s:
            app.processEvents()
            time.sleep(0.01)
        if self.search.state != "done":
            problems.append(f"plan search state {self.search.state}: {self.search.error or ''}")
        elif self.search.outcome is not None and self.search.outcome.plans:
            self.page("plans").view.selectRow(0)
            app.processEvents()
        self.estimator.run_now()
        self.estimator.run_scaling_now()
        app.processEvents()
        from pyqtgraph.exporters import ImageExporter

        for chart in self.live.charts():
            img = ImageExporter(chart.plot.getPlotItem()).export(toBytes=True)
            if img is None or img.isNull():
                problems.append(f"{type(chart).__name__} did not render")
        res = self.estimator.result
        if res is None or res.evaluation is None:
            problems.append(f"no estimate: {res.error if res else ''}")
        self.search.shutdown()
        self.estimator.shutdown()
        sys.excepthook = old_hook
        for p in problems:
            print(f"self-test: {p}")
        if not problems:
            print("self-test: ok")
        return 1 if problems else 0

"""The document controller: the plan file behind one window.

New, Open, Save, Save As, Revert, the recent-files list, the dirty state and the check for changes another program
made to the file, autosave (debounced timing, failures shown until a write succeeds) and recovery of the autosaves
crashed sessions left, and the :class:`~gpuplanner.io.planfile.PlanDocument` assembled from the model (for Save,
autosave and the report). The main window keeps menus, navigation and language and calls these.

The controller owns no widget: what the window shows comes out as signals (``message`` for the status bar,
``autosaveStateChanged`` with the reason a write failed or ``""``, ``pageRequested`` with the page an opened plan was
on, ``documentChanged`` after New, Open, Save or a recovery); dialogs are parented to the window.

The app's input state (``ScenarioModel.ui``: how the data volume was described, batch and deadline modes, the
chosen plan's rank) is the plan file's typed ``ui_state`` (:class:`~gpuplanner.io.planfile.UiState`, schema 5); the
vendor checklist and the project have their own sections.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from gpuplanner.core.errors import PlannerError
from gpuplanner.io import planfile
from gpuplanner.io.autosave import AutosaveDriver, AutosaveStore, Debouncer, RecentFiles, startup_cleanup
from gpuplanner.io.planfile import ChecklistItem, PlanDocument, SelectedPlan, UiState
from gpuplanner.io.safe_read import check_path, one_line

from . import settings
from .model import DEFAULT_UI, ScenarioModel, default_scenario
from gpuplanner.formatting import plural_s

from .text import error_message, tr_msg, warning_box


class DocumentController(QObject):
    """One window's document: the model's file, its autosave and its recovery.

    ``current_page``: the key of the page the window shows (written as ``ui_state.current_page``).
    ``autosave``: keep an autosave of unsaved work and clean the temp files killed saves left.
    """

    message = Signal(str, int)             # status-bar text, milliseconds
    autosaveStateChanged = Signal(str)     # why the last autosave failed; "" when nothing is wrong
    pageRequested = Signal(str)            # the page key an opened plan was on ("": the first page)
    documentChanged = Signal()             # New / Open / Save / recovery: file name, title, search state

    def __init__(self, window: QWidget, model: ScenarioModel, estimator, search, *,
                 current_page: Callable[[], str], autosave: bool = True):
        super().__init__(window)
        self.window = window
        self.model = model
        self.estimator = estimator
        self.search = search
        self._current_page = current_page
        self._doc: PlanDocument | None = None   # what the model came from (keeps checklist, project, unknown fields)
        self._disk_stamp: tuple[int, int] | None = None  # (mtime_ns, size) of model.path when loaded or saved
        self.autosave_store: AutosaveStore | None = None
        self._autosave: AutosaveDriver | None = None
        self._autosave_timer = QTimer(self)
        self._autosave_timer.setSingleShot(True)
        self._autosave_timer.timeout.connect(self._autosave_poll)
        model.dirtyChanged.connect(self._on_dirty_changed)
        model.changed.connect(self._on_model_changed)
        if autosave:
            self.autosave_store = AutosaveStore()
            self._autosave = AutosaveDriver(self.autosave_store, self.document,
                                            source_path=lambda: self.model.path,
                                            source_stamp=lambda: self._disk_stamp if self.model.path else None,
                                            debouncer=Debouncer(delay_s=1.0, max_wait_s=2.0))
            QTimer.singleShot(0, self.clean_temp_files)  # temp files of saves killed in earlier runs

    # ================================================================== the document
    def document(self) -> PlanDocument:
        """The PlanDocument for the current state (for Save, autosave and the report)."""
        doc = self._doc.model_copy(deep=True) if self._doc is not None else planfile.new_document()
        if self._doc is not None:
            doc._unknown = self._doc.unknown_fields
        doc.title = self.model.title
        doc.notes = self.model.notes
        # what the user set (the search's input); an adopted plan is stored as the selected plan
        doc.scenario = self.model.user_scenario()
        doc.ui_state = self._ui_state()
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
            doc.vendor_checklist = [ChecklistItem(id=k, checked=bool(v.get("checked")), note=str(v.get("notes") or ""))
                                    for k, v in checklist.items()]
        project = self.model.ui.get("project")
        if isinstance(project, dict):
            from gpuplanner.core.project import Project

            try:
                doc.project = Project.model_validate(project)
            except ValueError:
                pass  # the Project page shows why; the file keeps its last valid project
        self._quotes_into(doc)
        res = self.estimator.result
        if res is not None and res.evaluation is not None:
            doc.results = {**(doc.results or {}), "estimate": res.evaluation.to_json()}
        return doc

    def _quotes_into(self, doc: PlanDocument) -> None:
        """The vendors' quotes edited on the Quotes page (kept as they were when one does not validate)."""
        quotes = self.model.ui.get("quotes")
        if isinstance(quotes, list):
            from gpuplanner.core.quotes import VendorQuote

            try:
                doc.quotes = [VendorQuote.model_validate(q) for q in quotes]
            except ValueError:
                pass  # the Quotes page shows why; the file keeps its last valid quotes

    def _ui_state(self) -> UiState:
        """The typed ``ui_state`` of the model's input state. The pages only store values these fields accept
        (positive counts, the listed modes); one that does not (a count over 2**53) is left out, and the app's
        default stands in for it when the plan is opened again."""
        entries = {k: v for k, v in self.model.ui.items() if k in UiState.model_fields and k != "current_page"}
        good, _bad = UiState.valid_entries(entries)
        return UiState(current_page=self._current_page(), **good)

    @staticmethod
    def ui_of(doc: PlanDocument) -> dict:
        """The model's UI state for ``doc``: its typed input state, checklist and project."""
        ui = doc.ui_state.inputs()
        if doc.vendor_checklist:
            ui["checklist"] = {c.id: {"checked": c.checked, "notes": c.note} for c in doc.vendor_checklist}
        if doc.project is not None:
            ui["project"] = planfile.project_data(doc.project)  # phase scenarios: the fields set (round 16)
        if doc.quotes:
            ui["quotes"] = [q.model_dump(mode="json") for q in doc.quotes]
        return ui

    def _selected_plan(self):
        out = self.search.outcome
        if out is None:
            return None
        rank = self.model.ui.get("selected_plan")
        return next((p for p in out.plans if p.rank == rank), None)

    def load_document(self, scenario, *, doc: PlanDocument | None = None, title: str = "", notes: str = "",
                      ui: dict | None = None, base_dir: Path | None = None, path: Path | None = None,
                      modified: bool = False, stamp: tuple[int, int] | None = None, recovered=None) -> bool:
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
        self.documentChanged.emit()
        if modified and self._autosave is not None:
            # keep the recovered work safe now, not after the next edit: a crash a second later loses nothing
            if recovered is not None:
                self._autosave.take_over(recovered)
            else:
                self._autosave.write_now()
            self._show_autosave_state()
            self._retry_autosave_later()
            return self._autosave.last_error is None
        return True

    # ================================================================== New / Open / Save / Revert
    def maybe_save(self) -> bool:
        """Ask to save unsaved changes; False when the user cancels."""
        if not self.model.dirty:
            return True
        btn = QMessageBox.question(
            self.window, self.tr("Unsaved changes"),
            self.tr("The plan has unsaved changes. Save them first?"),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save)
        if btn == QMessageBox.StandardButton.Save:
            return self.file_save()
        return btn == QMessageBox.StandardButton.Discard

    def file_new(self) -> None:
        if not self.maybe_save():
            return
        self.load_document(default_scenario(), ui=copy.deepcopy(DEFAULT_UI))
        self.pageRequested.emit("")

    def file_open(self) -> None:
        if not self.maybe_save():
            return
        path, _ = QFileDialog.getOpenFileName(
            self.window, self.tr("Open plan or scenario"), settings.last_dir(),
            self.tr("GPU Planner plans (*.gpuplan);;Scenario JSON (*.json);;All files (*)"))
        if path:
            self.open_path(path)

    def open_recent(self, path: Path) -> bool:
        return self.maybe_save() and self.open_path(path)

    def open_path(self, path: str | Path, show_errors: bool = True) -> bool:
        """Open a .gpuplan or a scenario JSON; errors go to a message box (never a traceback)."""
        try:
            path = check_path(path, "plan file")  # the CLI's path check: NUL, length, FIFOs and devices
            stamp = planfile.file_stamp(path)  # before reading: a later change is noticed
            doc, warnings = planfile.load(path)
            base = path.resolve().parent
            # the plan the file stands for, by the CLI's rule (app/answer.decide): a manual layout's selected plan
            from gpuplanner.app.answer import scenario_to_open

            scenario = scenario_to_open(doc, base, path.name)
        except (PlannerError, OSError, ValueError, RecursionError, MemoryError, OverflowError) as err:
            # the CLI's exit 2: one line in a message box, and the app stays open
            # in the UI language (error_message keeps the message id; str(err) is the English sentence)
            text = one_line(error_message(err)) if isinstance(err, PlannerError) else self.tr(
                "{0}: cannot open this file ({1})").format(one_line(Path(str(path).replace("\0", "")).name, 120),
                                                            err.__class__.__name__)
            if show_errors:
                warning_box(self.window, self.tr("Cannot open"), text)
            self.message.emit(text, 8000)
            return False
        is_plan = planfile.is_plan_file(path)
        self.load_document(scenario, doc=doc if is_plan else None, title=doc.title if is_plan else path.stem,
                           notes=doc.notes if is_plan else "", ui=self.ui_of(doc), base_dir=base,
                           path=path if is_plan else None, stamp=stamp)
        planfile.clean_stale_temps(path.parent)
        settings.remember_dir(path)
        RecentFiles().add(path)
        self.pageRequested.emit((doc.ui_state.current_page or "") if is_plan else "")
        if warnings:
            self.message.emit(" · ".join(tr_msg(w) for w in warnings), 10000)
        else:  # replaces what the previous file said (its warnings would otherwise stay on this one)
            self.message.emit(self.tr("Opened {0}").format(path.name), 6000)
        return True

    def file_save(self) -> bool:
        if self.model.path is None:
            return self.file_save_as()
        return self.save_to(self.model.path)

    def file_save_as(self) -> bool:
        start = str(self.model.path) if self.model.path else str(Path(settings.last_dir()) / "plan.gpuplan")
        path, _ = QFileDialog.getSaveFileName(self.window, self.tr("Save plan"), start,
                                              self.tr("GPU Planner plans (*.gpuplan)"))
        if not path:
            return False
        if not path.endswith(planfile.SUFFIX):
            path += planfile.SUFFIX
        return self.save_to(Path(path))

    def save_to(self, path: Path) -> bool:
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
            warnings = planfile.save(doc, path, base_dir=self.model.base_dir)
        except PlannerError as err:
            warning_box(self.window, self.tr("Cannot save"), error_message(err))
            return False
        self._disk_stamp = planfile.file_stamp(path)
        self._doc = doc
        self.model.path = path
        self.model.base_dir = self.model.base_dir or path.resolve().parent
        self.model.mark_clean()
        self.documentChanged.emit()
        settings.remember_dir(path)
        RecentFiles().add(path)
        if self._autosave is not None:
            try:
                self._autosave.saved()
            except PlannerError:
                pass
        self.message.emit(" · ".join([self.tr("Saved {0}").format(path.name), *(tr_msg(w) for w in warnings)]), 6000)
        return True

    def file_revert(self) -> None:
        if self.model.path is None or not self.model.dirty:
            return
        btn = QMessageBox.question(self.window, self.tr("Revert"), self.tr("Discard the changes since the last save?"))
        if btn == QMessageBox.StandardButton.Yes:
            self.open_path(self.model.path)

    def _changed_on_disk(self, path: Path) -> bool:
        """Whether ``path`` is the file this document was loaded from or last saved to, and another program
        changed it since (its modification time or size differ). A deleted file is not a change."""
        if self.model.path is None or self._disk_stamp is None:
            return False
        try:
            same = Path(path).resolve() == Path(self.model.path).resolve()
        except OSError:
            same = False
        if not same:
            return False
        now = planfile.file_stamp(path)
        return now is not None and now != self._disk_stamp

    def ask_outside_change(self, path: Path) -> str:
        """Another program changed ``path``: "keep" (overwrite it; its version goes to .bak), "reload"
        (open it, dropping the edits here), "save_as" or "cancel"."""
        box = QMessageBox(self.window)
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

    # ================================================================== recent files
    @staticmethod
    def recent_files() -> list[Path]:
        """The recently opened or saved plans that still exist, newest first."""
        return RecentFiles().entries(existing_only=True)

    @staticmethod
    def clear_recent() -> None:
        RecentFiles().clear()

    # ================================================================== autosave
    def _on_model_changed(self, section: str) -> None:
        if self._autosave is not None and self.model.dirty:
            self._autosave.edited()
            rem = self._autosave.remaining()
            if rem is not None:
                self._autosave_timer.start(int(rem * 1000))

    def _on_dirty_changed(self, dirty: bool) -> None:
        if not dirty:
            self._autosave_reset()

    def _autosave_reset(self) -> None:
        """Nothing unsaved (saved, opened, or edited back to the saved state): no autosave is due and the
        one on disk is not needed for recovery."""
        self._autosave_timer.stop()
        if self._autosave is not None:
            try:
                self._autosave.saved()
            except PlannerError:
                pass
        self._show_autosave_state()

    def _autosave_poll(self) -> None:
        if self._autosave is None:
            return
        self._autosave.poll()
        self._show_autosave_state()
        self._retry_autosave_later()

    def _retry_autosave_later(self) -> None:
        rem = self._autosave.remaining() if self._autosave is not None else None
        if rem is not None:  # a write is still due (it failed): try again after the usual delay
            self._autosave_timer.start(int(rem * 1000) + 10)

    def _show_autosave_state(self) -> None:
        """A failed autosave stays visible, with its reason, until a write succeeds (or nothing is unsaved)."""
        error = self._autosave.last_error if self._autosave is not None else None
        self.autosaveStateChanged.emit(str(error) if error else "")

    def clean_temp_files(self) -> list:
        """Remove the temp files killed saves left (our temp-name pattern only, older than a minute) in the
        autosave and settings folders and the folders of recent and open plans."""
        return startup_cleanup([self.model.path.parent] if self.model.path else [])

    def close(self) -> None:
        """The window closes (after :meth:`maybe_save`): this session's autosaves are removed."""
        if self.autosave_store is not None:
            self.autosave_store.close()

    # ================================================================== recovery
    def offer_recovery(self, from_menu: bool = False) -> bool:
        """Offer every autosave that crashed sessions left behind (newest first, with time and title).
        Nothing is deleted unless the user discards it or its recovered copy is autosaved here; what the
        user leaves for later is offered again (next start, File › Recover Unsaved Work…). Returns whether
        one was restored."""
        store = self.autosave_store
        if store is None:
            return False
        try:
            pending = store.pending()
        except (PlannerError, OSError):
            return False
        if not pending:
            if from_menu:
                self.message.emit(self.tr("No unsaved work to recover."), 6000)
            return False
        from .recovery import RecoveryDialog

        def discard(rec) -> str | None:
            try:
                store.discard(rec.id)
            except PlannerError as err:
                return error_message(err)
            return None

        dlg = RecoveryDialog(pending, discard, self.window)
        dlg.exec()
        rec = dlg.chosen
        restored = False
        if rec is not None and rec.document is not None and (not self.model.dirty or self.maybe_save()):
            restored = self._restore(rec)
        left = [r for r in dlg.pending if not (restored and r is rec)]
        if left:
            self.message.emit(plural_s(self.tr(
                "{0} more autosaved plan(s) kept: File › Recover Unsaved Work… offers them again."), len(left)).format(len(left)),
                10000)
        return restored

    def _restore(self, rec) -> bool:
        doc = rec.document
        base = rec.source_path.parent if rec.source_path else None
        try:
            scenario = planfile.scenario_for_estimate(doc, base, rec.file.name)
        except (PlannerError, OSError, ValueError, RecursionError, MemoryError, OverflowError) as err:
            # a stranger's autosave: one line, and the app stays open (as open_path)
            warning_box(self.window, self.tr("Cannot recover"),
                        one_line(error_message(err)) if isinstance(err, PlannerError)
                        else self.tr("{0}: cannot open this file ({1})").format(one_line(rec.file.name, 120),
                                                                               err.__class__.__name__))
            return False
        self.load_document(scenario, doc=doc, title=doc.title, notes=doc.notes, ui=self.ui_of(doc), base_dir=base,
                           path=rec.source_path, modified=True, stamp=rec.source_stamp, recovered=rec)
        return True

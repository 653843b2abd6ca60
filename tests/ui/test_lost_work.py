"""Lost work (issue 18): recovery offers every crashed run's autosave and deletes none unseen, a recovered
document is autosaved at once, autosave failures show in the status bar, an outside change to the open
file is noticed before Save overwrites it, and killed saves' temp files are cleaned at start-up."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.io import planfile
from gpuplanner.io.autosave import AutosaveStore


def _autosave_dir() -> Path:
    return Path(os.environ["GPUPLANNER_DATA_DIR"]) / "autosave"


def _crashed_run(session: str, title: str, num_gpus: int, saved_at: str, source: Path | None = None,
                 source_stamp=None) -> Path:
    """What a run that crashed leaves: its autosave (its pid no longer matters: the session is not ours)."""
    doc = planfile.new_document(scenario_from_dict({"model": {"preset": "llama-3-8b"},
                                                    "hardware": {"num_gpus": num_gpus}}), title=title)
    AutosaveStore(_autosave_dir(), session=session).write(doc, source_path=source, source_stamp=source_stamp)
    path = _autosave_dir() / f"{session}-main.autosave"
    record = json.loads(path.read_text(encoding="utf-8"))
    record["saved_at"] = saved_at
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


class RecoveryScript:
    """Stands in for the user in front of the recovery dialog: records what it showed, then acts."""

    def __init__(self, monkeypatch):
        from gpuplanner.ui.recovery import RecoveryDialog

        self.shown: list[list[str]] = []
        self.actions: list = []  # each: callable(dialog); none left = "Later"

        def fake_exec(dlg):
            self.shown.append(dlg.entries())
            if self.actions:
                self.actions.pop(0)(dlg)
            if dlg.chosen is None:
                dlg.reject()  # "Later"
            return dlg.result()

        monkeypatch.setattr(RecoveryDialog, "exec", fake_exec)


@pytest.fixture
def recovery(monkeypatch):
    return RecoveryScript(monkeypatch)


def _own_autosave(w) -> Path:
    return _autosave_dir() / f"{w.doc.autosave_store.record_id()}.autosave"


# ------------------------------------------------------------------------------------------- recovery

def test_two_crashed_runs_are_both_offered_newest_first_and_kept(make_window, recovery, dialogs):
    older = _crashed_run("run1", "Pretraining budget", 16, "2026-01-01T10:00:00+00:00")
    newer = _crashed_run("run2", "LoRA pilot", 4, "2026-01-02T09:30:00+00:00")
    w = make_window(autosave=True)
    assert not w.offer_recovery()  # "Later"
    (shown,) = recovery.shown
    assert len(shown) == 2
    assert shown[0].startswith("LoRA pilot — autosaved ") and shown[1].startswith("Pretraining budget — autosaved ")
    from datetime import datetime

    for line, stamp in zip(shown, ("2026-01-02T09:30:00+00:00", "2026-01-01T10:00:00+00:00")):
        local = datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M:%S")
        assert local in line
    assert "4 × h100-sxm-80gb" in shown[0] and "16 × h100-sxm-80gb" in shown[1]
    assert older.exists() and newer.exists()  # nothing deleted that the user only looked at
    assert "2 more autosaved plans kept" in w.statusBar().currentMessage()

    # the next start (or File › Recover Unsaved Work…) offers both again; recovering one keeps the other
    recovery.actions.append(lambda dlg: dlg.recover(1))
    assert w.offer_recovery(from_menu=True)
    assert recovery.shown[-1] == shown
    assert w.model.title == "Pretraining budget" and w.model.scenario.hardware.num_gpus == 16
    assert w.model.dirty
    assert newer.exists()  # the other run's work is still there
    assert not older.exists()  # only because its content is autosaved under this session now:
    record = json.loads(_own_autosave(w).read_text(encoding="utf-8"))
    assert record["plan"]["title"] == "Pretraining budget"
    assert record["plan"]["scenario"]["hardware"]["num_gpus"] == 16
    assert "1 more autosaved plan kept" in w.statusBar().currentMessage()


def test_recovered_document_survives_a_second_crash(make_window, recovery, qtbot):
    _crashed_run("run1", "Before crash one", 32, "2026-01-01T10:00:00+00:00")
    w1 = make_window(autosave=True)
    recovery.actions.append(lambda dlg: dlg.recover(0))
    assert w1.offer_recovery()
    # no edit, no waiting for the debounce: the recovered work is on disk under the new session already
    assert _own_autosave(w1).exists()
    # "crash" now (the window never closes cleanly): the next start offers the same work again
    w2 = make_window(autosave=True)
    recovery.actions.append(lambda dlg: dlg.recover(0))
    assert w2.offer_recovery()
    assert recovery.shown[-1][0].startswith("Before crash one — autosaved ")
    assert w2.model.title == "Before crash one" and w2.model.scenario.hardware.num_gpus == 32


def test_discarding_asks_and_deletes_only_that_autosave(make_window, recovery, dialogs):
    a = _crashed_run("run1", "Keep me", 8, "2026-01-01T10:00:00+00:00")
    b = _crashed_run("run2", "Throw me away", 8, "2026-01-02T10:00:00+00:00")
    w = make_window(autosave=True)
    dialogs.answer = QMessageBox.StandardButton.Cancel
    recovery.actions.append(lambda dlg: dlg.discard(0))
    w.offer_recovery()
    assert a.exists() and b.exists()  # the confirmation was cancelled
    assert dialogs.calls[-1][0] == "question" and "Throw me away" in dialogs.calls[-1][1]
    dialogs.answer = QMessageBox.StandardButton.Discard
    recovery.actions.append(lambda dlg: (dlg.discard(0), recovery.shown.append(dlg.entries())))
    w.offer_recovery()
    assert not b.exists() and a.exists()
    assert len(recovery.shown[-1]) == 1 and recovery.shown[-1][0].startswith("Keep me — ")


def test_unreadable_autosave_is_offered_not_deleted(make_window, recovery):
    _autosave_dir().mkdir(parents=True, exist_ok=True)
    bad = _autosave_dir() / "broken-main.autosave"
    bad.write_bytes(b'{"autosave_format": 1, "plan": {')
    w = make_window(autosave=True)
    recovery.actions.append(lambda dlg: dlg.recover(0))  # refused: nothing to open
    assert not w.offer_recovery()
    assert recovery.shown[0][0].startswith("Unreadable autosave from ?")
    assert bad.exists()


def test_recovery_failing_to_autosave_keeps_the_old_file(make_window, recovery, monkeypatch):
    old = _crashed_run("run1", "Fragile", 8, "2026-01-01T10:00:00+00:00")
    w = make_window(autosave=True)

    def full(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(planfile, "atomic_write", full)
    recovery.actions.append(lambda dlg: dlg.recover(0))
    assert w.offer_recovery()
    assert w.model.title == "Fragile"
    assert old.exists()  # not yet safe anywhere else: kept
    assert w.autosave_label.isVisible() and "the disk is full" in w.autosave_label.text()


def test_menu_says_when_there_is_nothing_to_recover(make_window, recovery):
    w = make_window(autosave=True)
    assert not w.offer_recovery(from_menu=True)
    assert recovery.shown == []
    assert w.statusBar().currentMessage() == "No unsaved work to recover."


# --------------------------------------------------------------------------------- autosave failures

def test_autosave_failure_is_shown_with_its_reason(make_window, qtbot, tmp_path):
    w = make_window(autosave=True, search_enabled=False)
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the autosave folder should be")
    good_root = w.doc.autosave_store.root
    w.doc.autosave_store.root = blocker / "autosave"
    w.model.set("training.seq_len", 3072)
    qtbot.waitUntil(lambda: w.autosave_label.isVisible(), timeout=4000)
    text = w.autosave_label.text()
    assert text.startswith("Autosave failed: ") and "a file is in the way of the folder" in text
    assert "Autosave failed" in w.statusBar().currentMessage()
    # it stays until a write succeeds
    w.doc.autosave_store.root = good_root
    w.model.set("training.seq_len", 3000)  # (still unsaved: 4096 would be the saved state again)
    qtbot.waitUntil(lambda: not w.autosave_label.isVisible(), timeout=4000)
    assert w.model.dirty
    assert json.loads(_own_autosave(w).read_text(encoding="utf-8"))["plan"]["scenario"]["training"]["seq_len"] == 3000


# ------------------------------------------------------------------------------- outside changes

class ChangeDialog:
    """Answers the "file changed on disk" box by clicking the button whose text is ``answer``."""

    def __init__(self, monkeypatch):
        self.answer = "Cancel"
        self.asked: list[str] = []

        def fake_exec(box):
            self.asked.append(box.text() + " " + box.informativeText())
            for b in box.buttons():
                if b.text().replace("&", "") == self.answer:
                    b.click()
                    break
            else:
                pytest.fail(f"no button {self.answer!r}")
            return 0

        monkeypatch.setattr(QMessageBox, "exec", fake_exec)


@pytest.fixture
def change_dialog(monkeypatch):
    return ChangeDialog(monkeypatch)


def _other_program_rewrites(path: Path, title: str) -> bytes:
    doc, _ = planfile.load(path)
    doc.title = title
    data = planfile.dumps(doc)
    st = path.stat()
    path.write_bytes(data)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))  # a coarse clock still differs
    return data


@pytest.fixture
def saved(make_window, tmp_path):
    w = make_window(search_enabled=False)
    path = tmp_path / "plan.gpuplan"
    w.model.title = "mine"
    assert w.save_to(path)
    w.model.set("training.seq_len", 3072)
    assert w.model.dirty
    return w, path


def test_unchanged_file_saves_without_asking(saved, change_dialog):
    w, path = saved
    assert w.file_save()
    assert change_dialog.asked == []
    assert planfile.load(path)[0].scenario.training.seq_len == 3072
    w.model.set("training.seq_len", 1024)  # a second save compares with what the first one wrote
    assert w.file_save()
    assert change_dialog.asked == []


def test_outside_change_cancel_keeps_both_versions(saved, change_dialog):
    w, path = saved
    theirs = _other_program_rewrites(path, "theirs")
    change_dialog.answer = "Cancel"
    assert not w.file_save()
    assert len(change_dialog.asked) == 1 and "plan.gpuplan" in change_dialog.asked[0]
    assert "changed by another program" in change_dialog.asked[0]
    assert path.read_bytes() == theirs
    assert w.model.dirty and w.model.scenario.training.seq_len == 3072


def test_outside_change_keep_mine_overwrites_and_keeps_theirs_as_bak(saved, change_dialog):
    w, path = saved
    theirs = _other_program_rewrites(path, "theirs")
    change_dialog.answer = "Keep Mine"
    assert w.file_save()
    assert planfile.load(path)[0].title == "mine"
    assert (path.parent / "plan.gpuplan.bak").read_bytes() == theirs
    assert not w.model.dirty
    assert w.file_save() and len(change_dialog.asked) == 1  # what we wrote is the new reference


def test_outside_change_reload_opens_their_version(saved, change_dialog):
    w, path = saved
    _other_program_rewrites(path, "theirs")
    change_dialog.answer = "Reload"
    assert not w.file_save()
    assert w.model.title == "theirs" and not w.model.dirty
    assert w.model.scenario.training.seq_len != 3072


def test_outside_change_save_as_keeps_both(saved, change_dialog, monkeypatch, tmp_path):
    w, path = saved
    theirs = _other_program_rewrites(path, "theirs")
    other = tmp_path / "mine-too.gpuplan"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(other), ""))
    change_dialog.answer = "Save As…"
    assert w.file_save()
    assert path.read_bytes() == theirs
    assert planfile.load(other)[0].scenario.training.seq_len == 3072
    assert w.model.path == other


def test_recovered_document_notices_a_change_made_after_the_crash(make_window, recovery, change_dialog,
                                                                  tmp_path):
    w0 = make_window(search_enabled=False)
    path = tmp_path / "plan.gpuplan"
    w0.model.title = "at crash time"
    assert w0.save_to(path)
    stamp = planfile.file_stamp(path)
    _crashed_run("run1", "at crash time", 8, "2026-01-01T10:00:00+00:00", source=path, source_stamp=stamp)
    _other_program_rewrites(path, "changed after the crash")
    w = make_window(autosave=True, search_enabled=False)
    recovery.actions.append(lambda dlg: dlg.recover(0))
    assert w.offer_recovery()
    assert w.model.path == path.resolve()
    change_dialog.answer = "Cancel"
    assert not w.file_save()
    assert len(change_dialog.asked) == 1
    assert planfile.load(path)[0].title == "changed after the crash"


# ------------------------------------------------------------------------------- temp files

def test_stale_temp_files_are_cleaned_at_start_up(make_window, qtbot, tmp_path):
    from gpuplanner.io.autosave import RecentFiles

    project = tmp_path / "project"
    project.mkdir()
    plan = project / "plan.gpuplan"
    plan.write_text("{}")
    RecentFiles().add(plan)
    old = time.time() - 3600
    stale = [project / ".plan.gpuplan.k3j_a9x2.gpuplanner-tmp", project / ".plan.gpuplan.ab12cd34.tmp",
             project / ".kit.sh.0a1b2c3d.gpuplanner-tmp"]
    _autosave_dir().mkdir(parents=True, exist_ok=True)
    stale.append(_autosave_dir() / ".s-main.autosave.zz99yy88.gpuplanner-tmp")
    fresh = project / ".plan.gpuplan.fresh123.gpuplanner-tmp"   # a save in progress elsewhere
    users = [project / ".notes.txt.ab12cd34.tmp", project / "draft.tmp", project / "plan.gpuplan.bak"]
    for p in stale + users:
        p.write_text("x")
        os.utime(p, (old, old))
    fresh.write_text("x")
    w = make_window(autosave=True, search_enabled=False)
    qtbot.waitUntil(lambda: not any(p.exists() for p in stale), timeout=3000)
    assert fresh.exists() and all(p.exists() for p in users) and plan.exists()
    assert w.clean_temp_files() == []


# ------------------------------------------------------------------------------- chart exports

def test_chart_export_failure_is_one_message_and_leaves_no_partial_file(win, monkeypatch, tmp_path, dialogs):
    target = tmp_path / "charts"
    target.mkdir()
    (target / "gpuplanner-memory.png").write_bytes(b"previous export")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(target))

    def full(src, dst):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as m:
        m.setattr(planfile.os, "replace", full)
        assert win.export_charts() == []
    assert dialogs.calls[-1][0] == "warning" and "the disk is full" in dialogs.calls[-1][1]
    assert sorted(p.name for p in target.iterdir()) == ["gpuplanner-memory.png"]
    assert (target / "gpuplanner-memory.png").read_bytes() == b"previous export"
    out = win.export_charts()
    assert len(out) == 3 and all(Path(p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in out)
    assert not [p for p in target.iterdir() if p.name.startswith(".")]

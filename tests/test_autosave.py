"""Autosave store, debounce timing, crash recovery (SIGKILL'd process) and the recent-files list."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.io import autosave, planfile
from gpuplanner.io.autosave import AutosaveDriver, AutosaveStore, Debouncer, RecentFiles, process_stamp
from gpuplanner.io.planfile import PlanFileError


class FakeClock:
    def __init__(self):
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _doc(num_gpus: int = 8, title: str = "t"):
    return planfile.new_document(scenario_from_dict({"model": {"preset": "llama-3-8b"},
                                                     "hardware": {"num_gpus": num_gpus}}), title=title)


# --------------------------------------------------------------------------------------------- folders

def test_dirs_follow_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("GPUPLANNER_DATA_DIR", str(tmp_path / "d"))
    monkeypatch.setenv("GPUPLANNER_CONFIG_DIR", str(tmp_path / "c"))
    assert autosave.data_dir() == tmp_path / "d"
    assert autosave.config_dir() == tmp_path / "c"
    assert AutosaveStore().root == tmp_path / "d" / "autosave"
    assert RecentFiles().path == tmp_path / "c" / "recent.json"


def test_dirs_default_to_platformdirs(monkeypatch, tmp_path):
    monkeypatch.delenv("GPUPLANNER_DATA_DIR")
    monkeypatch.delenv("GPUPLANNER_CONFIG_DIR")
    if sys.platform.startswith("linux"):  # platformdirs honours XDG_* (set by conftest)
        assert autosave.data_dir() == Path(os.environ["XDG_DATA_HOME"]) / "GPUPlanner"
        assert autosave.config_dir() == Path(os.environ["XDG_CONFIG_HOME"]) / "GPUPlanner"
    else:
        assert autosave.data_dir().name == "GPUPlanner"


# ------------------------------------------------------------------------------------------- debounce

def test_debouncer_waits_for_the_edits_to_settle():
    clock = FakeClock()
    d = Debouncer(delay_s=1.0, max_wait_s=5.0, clock=clock)
    assert d.remaining() is None and not d.due()
    d.touch()
    assert d.remaining() == 1.0
    clock.t += 0.6
    d.touch()  # a second edit restarts the 1 s wait
    assert d.remaining() == pytest.approx(1.0)
    clock.t += 0.99
    assert not d.due()
    clock.t += 0.01
    assert d.due() and d.remaining() == 0.0
    d.reset()
    assert not d.dirty and d.remaining() is None


def test_debouncer_saves_during_continuous_editing():
    clock = FakeClock()
    d = Debouncer(delay_s=1.0, max_wait_s=5.0, clock=clock)
    for _ in range(10):  # an edit every 0.5 s never lets the 1 s delay expire...
        d.touch()
        clock.t += 0.5
    # ...but 5 s after the first edit it is due anyway: first edit at 100.0, now 105.0
    assert d.due()


def test_debouncer_rejects_inconsistent_settings():
    with pytest.raises(ValueError):
        Debouncer(delay_s=3.0, max_wait_s=2.0)


def test_driver_writes_when_due_and_discards_on_save(tmp_path):
    clock = FakeClock()
    store = AutosaveStore(tmp_path)
    doc = _doc()
    driver = AutosaveDriver(store, lambda: doc, debouncer=Debouncer(1.0, 5.0, clock))
    assert driver.poll() is False  # nothing edited
    doc.scenario.hardware.num_gpus = 16
    driver.edited()
    assert driver.remaining() == 1.0 and driver.poll() is False
    clock.t += 1.0
    assert driver.poll() is True
    files = list(tmp_path.glob("*.autosave"))
    assert len(files) == 1
    record = json.loads(files[0].read_text(encoding="utf-8"))
    assert record["plan"]["scenario"]["hardware"]["num_gpus"] == 16
    assert record["pid"] == os.getpid() and record["session"] == store.session
    driver.saved()
    assert list(tmp_path.glob("*.autosave")) == []


def test_driver_keeps_the_edit_pending_when_the_write_fails(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    clock = FakeClock()
    store = AutosaveStore(blocker)
    driver = AutosaveDriver(store, _doc, debouncer=Debouncer(1.0, 5.0, clock))
    driver.edited()
    clock.t += 1.0
    assert driver.poll() is False
    assert driver.last_error == f"{store.session}-main.autosave: cannot autosave (a file is in the way of the folder)"
    assert driver.debouncer.dirty  # still to be saved


# ------------------------------------------------------------------------------------ store, recovery

def test_pending_lists_other_sessions_not_our_own(tmp_path):
    old = AutosaveStore(tmp_path, session="old")
    old.write(_doc(16, "before the crash"), source_path=tmp_path / "work.gpuplan")
    mine = AutosaveStore(tmp_path, session="new")
    mine.write(_doc(8, "current"))
    assert [r.id for r in old.pending()] == ["new-main"]
    (rec,) = mine.pending()
    assert rec.id == "old-main" and rec.error is None
    assert rec.document.title == "before the crash" and rec.document.scenario.hardware.num_gpus == 16
    assert rec.source_path == (tmp_path / "work.gpuplan").resolve()
    text = rec.describe()
    assert text.startswith(f"before the crash ({(tmp_path / 'work.gpuplan').resolve()}): llama-3-8b, full, 16 × ")
    mine.discard(rec.id)
    assert mine.pending() == []


def test_autosave_of_a_running_instance_is_not_offered(tmp_path):
    store = AutosaveStore(tmp_path, session="other")
    store.write(_doc())
    path = tmp_path / "other-main.autosave"
    record = json.loads(path.read_text(encoding="utf-8"))
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        record["pid"] = proc.pid
        record["pid_stamp"] = process_stamp(proc.pid)  # as that process would have written it
        path.write_text(json.dumps(record), encoding="utf-8")
        assert AutosaveStore(tmp_path).pending() == []  # that instance is alive and owns it
    finally:
        proc.kill()
        proc.wait()
    assert [r.id for r in AutosaveStore(tmp_path).pending()] == ["other-main"]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="process start times from /proc (Linux)")
def test_autosave_whose_pid_now_belongs_to_an_unrelated_process_is_offered(tmp_path):
    """A crashed session's pid reused by another live process: the start time and name differ, so the
    autosave is offered (issue #32, hole 9)."""
    store = AutosaveStore(tmp_path, session="other")
    store.write(_doc())
    path = tmp_path / "other-main.autosave"
    record = json.loads(path.read_text(encoding="utf-8"))
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        record["pid"] = proc.pid  # alive, but not the writer: the stamp is of another process
        record["pid_stamp"] = "12345:gpuplanner"
        path.write_text(json.dumps(record), encoding="utf-8")
        assert [r.id for r in AutosaveStore(tmp_path).pending()] == ["other-main"]
    finally:
        proc.kill()
        proc.wait()


def test_pending_newest_first(tmp_path):
    for session, stamp in (("a", "2026-01-01T10:00:00+00:00"), ("b", "2026-01-02T10:00:00+00:00"),
                           ("c", "2025-12-31T10:00:00+00:00")):
        AutosaveStore(tmp_path, session=session).write(_doc())
        path = tmp_path / f"{session}-main.autosave"
        record = json.loads(path.read_text(encoding="utf-8"))
        record["saved_at"] = stamp
        path.write_text(json.dumps(record), encoding="utf-8")
    assert [r.id for r in AutosaveStore(tmp_path).pending()] == ["b-main", "a-main", "c-main"]


def test_damaged_autosave_is_reported_not_raised(tmp_path):
    (tmp_path / "x-main.autosave").write_bytes(b'{"autosave_format": 1, "plan": {"schema_')
    (tmp_path / "y-main.autosave").write_text(json.dumps(
        {"autosave_format": 1, "pid": -1, "saved_at": "2026-01-01T00:00:00+00:00",
         "plan": {"schema_version": 2, "scenario": {"training": {"seq_len": -5}}}}), encoding="utf-8")
    recs = {r.id: r for r in AutosaveStore(tmp_path).pending()}
    assert recs["x-main"].document is None
    assert recs["x-main"].error == "x-main.autosave: not valid JSON: the file ends too early (truncated?)"
    assert recs["y-main"].error == ("y-main.autosave: invalid plan (field scenario.training.seq_len: "
                                    "Input should be greater than 0, got -5)")
    assert recs["x-main"].describe().startswith("Unreadable autosave from ?: x-main.autosave")
    AutosaveStore(tmp_path).discard("x-main")
    assert not (tmp_path / "x-main.autosave").exists()


def test_discard_refuses_paths(tmp_path):
    victim = tmp_path / "victim.autosave"
    victim.write_text("keep")
    store = AutosaveStore(tmp_path / "store")
    for bad in ("../victim", "a/b", "", "x" * 200):
        with pytest.raises(PlanFileError, match="not an autosave id"):
            store.discard(bad)
    assert victim.read_text() == "keep"


def test_close_removes_only_our_files(tmp_path):
    a, b = AutosaveStore(tmp_path, session="a"), AutosaveStore(tmp_path, session="b")
    a.write(_doc(), "one")
    a.write(_doc(), "two")
    b.write(_doc())
    a.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b-main.autosave"]


def test_autosave_keeps_unknown_fields(tmp_path):
    data = planfile.to_data(_doc())
    data["scenario"].setdefault("training", {})["new_knob"] = 3  # (only the set fields are written: round 16)
    doc, _ = planfile.from_data(data, "x")
    AutosaveStore(tmp_path, session="s").write(doc)
    (rec,) = AutosaveStore(tmp_path).pending()
    assert rec.document.unknown_fields == {"scenario": {"training": {"new_knob": 3}}}
    assert rec.warnings and "scenario.training.new_knob" in rec.warnings[0]


_EDITOR = textwrap.dedent(r"""
    import sys, time
    from gpuplanner.io.autosave import AutosaveDriver, AutosaveStore, Debouncer
    from gpuplanner.io import planfile
    from gpuplanner.core.scenario import scenario_from_dict

    doc = planfile.new_document(scenario_from_dict({"model": {"preset": "llama-3-8b"}}), title="crash test")
    store = AutosaveStore()
    driver = AutosaveDriver(store, lambda: doc, debouncer=Debouncer(delay_s=0.05, max_wait_s=0.5),
                            source_path=lambda: sys.argv[1])
    for n in (2, 4, 16):
        doc.scenario.hardware.num_gpus = n
        doc.notes = f"edit {n}"
        driver.edited()
        while not driver.poll():
            time.sleep(0.01)
    print(store.session, flush=True)
    time.sleep(120)  # "working" until killed
""")


def test_recovery_after_sigkill(tmp_path):
    """A process edits, autosaves, is killed with SIGKILL; the next start offers its edits back."""
    source = tmp_path / "plan.gpuplan"
    proc = subprocess.Popen([sys.executable, "-c", _EDITOR, str(source)], stdout=subprocess.PIPE, text=True)
    try:
        session = proc.stdout.readline().strip()
        assert session, "the editor process did not start"
        assert AutosaveStore().pending() == []  # still running: not ours to recover
    finally:
        proc.kill()  # SIGKILL on POSIX: no cleanup handlers run
        proc.wait(timeout=30)
        proc.stdout.close()
    assert proc.returncode != 0
    store = AutosaveStore()  # "the next start"
    (rec,) = store.pending()
    assert rec.id == f"{session}-main"
    assert rec.document.title == "crash test"
    assert rec.document.scenario.hardware.num_gpus == 16 and rec.document.notes == "edit 16"
    assert rec.source_path == source.resolve()
    assert "crash test" in rec.describe() and "16 × h100-sxm-80gb" in rec.describe()
    store.discard(rec.id)
    assert store.pending() == []


# ----------------------------------------------------------------------------------------- recent files

def test_recent_files_order_dedupe_limit(tmp_path):
    recent = RecentFiles(limit=3)
    paths = [tmp_path / f"p{i}.gpuplan" for i in range(5)]
    for p in paths[:3]:
        recent.add(p)
    recent.add(paths[0])  # re-opening moves it to the front, once
    assert recent.entries() == [paths[0], paths[2], paths[1]]
    recent.add(paths[3])
    recent.add(paths[4])
    assert recent.entries() == [paths[4], paths[3], paths[0]]
    recent.remove(paths[3])
    assert recent.entries() == [paths[4], paths[0]]
    # persisted: a new instance reads the same list
    assert RecentFiles(limit=3).entries() == [paths[4], paths[0]]
    paths[0].write_text("{}")
    assert recent.entries(existing_only=True) == [paths[0]]
    recent.clear()
    assert recent.entries() == []


@pytest.mark.parametrize("content", [b"not json", b"[1,2]", b'{"files": "x"}', b'{"files": [1, null, "a"]}'])
def test_recent_files_survives_a_damaged_file(content):
    recent = RecentFiles()
    recent.path.parent.mkdir(parents=True, exist_ok=True)
    recent.path.write_bytes(content)
    expected = [Path("a")] if content.endswith(b'"a"]}') else []
    assert recent.entries() == expected
    recent.add("/tmp/x.gpuplan")
    assert recent.entries()[0] == Path("/tmp/x.gpuplan").resolve()


# ------------------------------------------------------------------------ nothing unseen is deleted

def test_pending_offers_every_crashed_run_and_keeps_them(tmp_path):
    for session, stamp in (("run1", "2026-01-01T10:00:00+00:00"), ("run2", "2026-01-02T10:00:00+00:00")):
        AutosaveStore(tmp_path, session=session).write(_doc(title=session))
        path = tmp_path / f"{session}-main.autosave"
        record = json.loads(path.read_text(encoding="utf-8"))
        record["saved_at"] = stamp
        path.write_text(json.dumps(record), encoding="utf-8")
    store = AutosaveStore(tmp_path)
    assert [(r.id, r.title) for r in store.pending()] == [("run2-main", "run2"), ("run1-main", "run1")]
    assert [r.id for r in store.pending()] == ["run2-main", "run1-main"]  # looking deletes nothing


def test_take_over_writes_this_session_first_then_drops_the_old_file(tmp_path):
    AutosaveStore(tmp_path, session="crashed").write(_doc(32, "recovered"), source_path=tmp_path / "p.gpuplan",
                                                      source_stamp=(123, 456))
    store = AutosaveStore(tmp_path, session="now")
    (rec,) = store.pending()
    assert rec.source_stamp == (123, 456)
    driver = AutosaveDriver(store, lambda: rec.document, source_path=lambda: rec.source_path,
                            source_stamp=lambda: rec.source_stamp)
    assert driver.take_over(rec)  # no edit needed: written at once
    assert sorted(p.name for p in tmp_path.iterdir()) == ["now-main.autosave"]
    record = json.loads((tmp_path / "now-main.autosave").read_text(encoding="utf-8"))
    assert record["plan"]["title"] == "recovered" and record["plan"]["scenario"]["hardware"]["num_gpus"] == 32
    assert record["source_stamp"] == [123, 456]
    # a crash now: the next session finds the same work
    (again,) = AutosaveStore(tmp_path, session="later").pending()
    assert again.id == "now-main" and again.document.title == "recovered" and again.source_stamp == (123, 456)


def test_take_over_keeps_the_old_file_until_a_write_succeeds(tmp_path, monkeypatch):
    AutosaveStore(tmp_path, session="crashed").write(_doc(title="fragile"))
    store = AutosaveStore(tmp_path, session="now")
    (rec,) = store.pending()
    clock = FakeClock()
    driver = AutosaveDriver(store, lambda: rec.document, debouncer=Debouncer(1.0, 5.0, clock))

    def full(*a, **k):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as m:
        m.setattr(planfile, "atomic_write", full)
        assert not driver.take_over(rec)
    assert driver.last_error == "now-main.autosave: cannot autosave (the disk is full)"
    assert (tmp_path / "crashed-main.autosave").exists()
    clock.t += 1.0
    assert driver.poll()  # the retry works: now the old file may go
    assert driver.last_error is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["now-main.autosave"]


def test_saving_the_recovered_document_drops_the_old_autosave(tmp_path, monkeypatch):
    AutosaveStore(tmp_path, session="crashed").write(_doc(title="fragile"))
    store = AutosaveStore(tmp_path, session="now")
    (rec,) = store.pending()
    driver = AutosaveDriver(store, lambda: rec.document)
    with monkeypatch.context() as m:
        m.setattr(planfile, "atomic_write", lambda *a, **k: (_ for _ in ()).throw(OSError(28, "full")))
        driver.take_over(rec)
    assert (tmp_path / "crashed-main.autosave").exists()
    driver.saved()  # the user saved it to a file (or discarded it explicitly)
    assert list(tmp_path.iterdir()) == []
    assert driver.last_error is None


def test_startup_cleanup_removes_only_stale_temp_files(tmp_path):
    recent_folder = tmp_path / "plans"
    recent_folder.mkdir()
    (recent_folder / "p.gpuplan").write_text("{}")
    RecentFiles().add(recent_folder / "p.gpuplan")
    extra = tmp_path / "open"
    extra.mkdir()
    folders = [autosave.data_dir() / "autosave", autosave.config_dir(), recent_folder, extra]
    old = 1_000_000_000
    stale, kept = [], []
    for i, folder in enumerate(folders):
        folder.mkdir(parents=True, exist_ok=True)
        stale += [folder / f".p.gpuplan.abcd{i}_xy.gpuplanner-tmp", folder / f".p.gpuplan.bak.abcd{i}_xy.tmp",
                  folder / f".s-main.autosave.abcd{i}_xy.tmp", folder / f".recent.json.abcd{i}_xy.tmp"]
        kept += [folder / f".notes.txt.abcd{i}_xy.tmp", folder / f"p{i}.tmp", folder / f".p.gpuplan.short.tmp",
                 folder / f"x.gpuplan.abcd{i}_xy.gpuplanner-tmp"]
    for p in stale + kept:
        p.write_text("x")
        os.utime(p, (old, old))
    young = extra / ".kit.sh.young123.gpuplanner-tmp"
    young.write_text("x")
    (extra / ".link.gpuplan.abcd9_xy.gpuplanner-tmp").symlink_to(kept[0])
    (extra / ".dir.gpuplan.abcd9_xy.gpuplanner-tmp").mkdir()
    removed = autosave.startup_cleanup([extra])
    assert sorted(removed) == sorted(stale)
    assert not any(p.exists() for p in stale)
    assert all(p.exists() for p in kept) and young.exists()
    assert (extra / ".link.gpuplan.abcd9_xy.gpuplanner-tmp").is_symlink()
    assert (extra / ".dir.gpuplan.abcd9_xy.gpuplanner-tmp").is_dir()
    assert autosave.startup_cleanup([extra, tmp_path / "missing"]) == []


# ------------------------------------------------------------------ issue #32: each autosave read in isolation

def _bad_autosaves(tmp_path) -> dict[str, str]:
    """Autosaves that made the reader raise before (OverflowError, RecursionError, ValueError)."""
    good = AutosaveStore(tmp_path, session="tmp")
    good.write(_doc())
    base = json.loads((tmp_path / "tmp-main.autosave").read_text(encoding="utf-8"))
    (tmp_path / "tmp-main.autosave").unlink()
    deep = dict(base, plan=dict(base["plan"], extra=json.loads("[" * 1000 + "]" * 1000)))
    return {
        "bigpid": json.dumps(dict(base, session="bigpid", pid=10**20)),
        "negpid": json.dumps(dict(base, session="negpid", pid=-5)),
        "deep": json.dumps(dict(deep, session="deep")),
        "nulpath": json.dumps(dict(base, session="nulpath", source_path="/tmp/a\x00b.gpuplan")),
        "garbage": "{" * 5000,
        "surrogate": json.dumps(dict(base, session="surrogate")).replace('"surrogate"', '"\\ud800"'),
    }


def test_a_valid_autosave_is_offered_beside_corrupt_ones(tmp_path):
    AutosaveStore(tmp_path, session="valid").write(_doc())
    valid = json.loads((tmp_path / "valid-main.autosave").read_text(encoding="utf-8"))
    valid["pid"] = 2**22 + 1  # above Linux's pid_max: no process can hold it
    (tmp_path / "valid-main.autosave").write_text(json.dumps(valid), encoding="utf-8")
    for name, text in _bad_autosaves(tmp_path).items():
        (tmp_path / f"{name}-main.autosave").write_text(text, encoding="utf-8")
    pending = AutosaveStore(tmp_path).pending()  # never raises
    by_id = {r.id: r for r in pending}
    assert by_id["valid-main"].document is not None
    assert by_id["garbage-main"].document is None and by_id["garbage-main"].error
    assert by_id["nulpath-main"].source_path is None
    for rec in pending:  # a document or a one-line reason
        assert rec.document is not None or (rec.error and "\n" not in str(rec.error))


def test_recent_json_entries_are_validated_and_cleanup_never_raises(tmp_path, monkeypatch):
    monkeypatch.setenv("GPUPLANNER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("GPUPLANNER_CONFIG_DIR", str(tmp_path / "cfg"))
    recent = tmp_path / "recent.json"
    good = str(tmp_path / "p.gpuplan")
    recent.write_text(json.dumps({"version": 1, "files": ["/x/a\x00b.gpuplan",
                                                          "/" + "a" * 5000, 5, None, good]}), encoding="utf-8")
    files = RecentFiles(recent)
    assert [str(p) for p in files.entries()] == [good]
    autosave.startup_cleanup(recent=files)  # the NUL path of before raised ValueError here
    for damaged in ("[" * 100_000, '{"files": ["\\ud800"]}'):  # too deep; a lone surrogate: refused as a whole
        recent.write_text(damaged, encoding="utf-8")
        assert files.entries() == []


def test_mutated_autosaves_never_raise_from_the_reader(tmp_path):
    """1,600 mutated autosaves (the probe's count): pending() never raises and each is a document or one line;
    what Recover then runs (the scenario for the estimate) raises only PlannerError."""
    import random

    from gpuplanner.core.errors import PlannerError

    AutosaveStore(tmp_path, session="seed").write(_doc())
    base = json.loads((tmp_path / "seed-main.autosave").read_text(encoding="utf-8"))
    (tmp_path / "seed-main.autosave").unlink()
    rng = random.Random(32)
    hostile = [None, 0, -1, 10**20, 2**63, 1e300, "", "a\x00b", "\ud800", [], {}, [[[[]]]], "x" * 3000, True]

    def mutate(d, depth=0):
        if isinstance(d, dict) and d and depth < 8:
            k = rng.choice(list(d))
            if isinstance(d[k], (dict, list)) and rng.random() < 0.6:
                mutate(d[k], depth + 1)
            else:
                d[k] = rng.choice(hostile)
        elif isinstance(d, list) and d and depth < 8:
            i = rng.randrange(len(d))
            if isinstance(d[i], (dict, list)) and rng.random() < 0.6:
                mutate(d[i], depth + 1)
            else:
                d[i] = rng.choice(hostile)

    n = 1600
    for i in range(n):
        d = json.loads(json.dumps(base))
        d["session"] = f"s{i}"
        for _ in range(rng.randint(1, 3)):
            mutate(d)
        (tmp_path / f"s{i}-main.autosave").write_text(json.dumps(d), encoding="utf-8")
    pending = AutosaveStore(tmp_path).pending()
    assert len(pending) == n
    for rec in pending:
        if rec.document is None:
            assert rec.error and "\n" not in str(rec.error)
            continue
        try:
            planfile.scenario_for_estimate(rec.document, None, rec.file.name)
        except PlannerError:
            pass

"""Autosave, crash recovery and the recent-files list (pure Python: no Qt here).

The UI drives the timing: on every edit it calls :meth:`AutosaveDriver.edited` and arms a single-shot
``QTimer`` for :meth:`AutosaveDriver.remaining` seconds, whose slot calls :meth:`AutosaveDriver.poll`.
With the defaults an edit is on disk within ``delay_s`` (1 s) of the last edit, and at most ``max_wait_s``
(5 s) after the first of a burst of edits, so "within 2 s of the last edit" holds.

Store layout (``<data dir>/autosave/``): one ``<session>-<doc>.autosave`` JSON file per open document,
``{"autosave_format": 1, "session", "pid", "saved_at", "source_path", "source_stamp", "plan": <plan object>}``,
written atomically (temp file, fsync, replace). ``source_stamp`` is ``[mtime_ns, size]`` of the plan file
the document was last loaded from or saved to (so a recovered document still notices an outside change).
A clean shutdown removes its own files; whatever is left by a process that is no longer running is
offered by :meth:`AutosaveStore.pending` on the next start.

Nothing the user has not seen is deleted: every pending autosave stays on disk until the user recovers
it (and its content is autosaved again under the new session first: :meth:`AutosaveDriver.take_over`)
or discards it explicitly (:meth:`AutosaveStore.discard`). Start-up also removes the temp files of
killed saves (:func:`startup_cleanup`).

Folders: :func:`data_dir` is ``$GPUPLANNER_DATA_DIR`` or ``platformdirs.user_data_dir("GPUPlanner")``;
:func:`config_dir` is ``$GPUPLANNER_CONFIG_DIR`` or ``platformdirs.user_config_dir("GPUPlanner")``.
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import platformdirs

from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.messages import MsgStr, error_text
from . import planfile
from .planfile import PlanDocument, PlanFileError

APP_NAME = "GPUPlanner"
AUTOSAVE_FORMAT = 1
AUTOSAVE_SUFFIX = ".autosave"
_CTX = "Autosave"
_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,80}$")


def data_dir() -> Path:
    env = os.environ.get("GPUPLANNER_DATA_DIR")
    return Path(env) if env else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    env = os.environ.get("GPUPLANNER_CONFIG_DIR")
    return Path(env) if env else Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


#: above any process id an OS hands out (Linux's pid_max is at most 2**22; Windows ids are 32-bit)
MAX_PID = 2**31 - 1


def process_stamp(pid: int) -> str | None:
    """What tells process ``pid`` from a later one that reuses its id: its start time (clock ticks after boot,
    field 22 of ``/proc/<pid>/stat``, proc(5)) and its name (``comm``). None where there is no ``/proc`` or the
    process is gone."""
    try:
        with open(f"/proc/{int(pid)}/stat", "rb") as fh:
            raw = fh.read(4096).decode("utf-8", "replace")
    except (OSError, ValueError, OverflowError):
        return None
    left, right = raw.find("("), raw.rfind(")")  # the name may hold spaces and parentheses
    fields = raw[right + 2:].split() if 0 <= left < right else []
    return f"{fields[19]}:{raw[left + 1:right]}" if len(fields) > 19 else None


def _owner_running(record: dict) -> bool:
    """Whether the process that wrote ``record`` still runs: its pid is alive and, where the record has the
    writer's :func:`process_stamp`, the live process is that one (same start time and name), not an unrelated
    process that got the id later."""
    pid = record.get("pid")
    if not isinstance(pid, int) or isinstance(pid, bool) or not 0 < pid <= MAX_PID or pid == os.getpid():
        return False
    if not _pid_alive(pid):
        return False
    stamp = record.get("pid_stamp")
    if isinstance(stamp, str):
        now = process_stamp(pid)
        return now is None or now == stamp
    return True


def _pid_alive(pid: int) -> bool:
    """Whether process ``pid`` is running (never sends a signal that could affect it)."""
    if not 0 < pid <= MAX_PID:
        return False
    if pid == os.getpid():
        return True
    if os.name == "nt":  # pragma: no cover - exercised on Windows only
        import ctypes

        kernel32 = ctypes.windll.kernel32
        handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        code = ctypes.c_ulong()
        ok = kernel32.GetExitCodeProcess(handle, ctypes.byref(code))
        kernel32.CloseHandle(handle)
        return bool(ok) and code.value == 259  # STILL_ACTIVE
    try:
        os.kill(pid, 0)  # signal 0: existence check only
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def _valid_path(value) -> Path | None:
    """``value`` as a path when it passes :func:`~gpuplanner.io.safe_read.check_path` (no NUL, encodable, not
    overlong), else None."""
    from ..core.errors import PlannerError
    from .safe_read import check_path

    if not isinstance(value, str) or not value:
        return None
    try:
        return check_path(value, special=False)
    except PlannerError:
        return None


@dataclass
class Recovery:
    """An autosaved document left behind by a session that did not close cleanly."""

    id: str
    file: Path
    saved_at: datetime | None
    source_path: Path | None
    document: PlanDocument | None
    warnings: list[str] = field(default_factory=list)
    error: str | None = None  # set when the autosave itself cannot be read
    source_stamp: tuple[int, int] | None = None  # the plan file's (mtime_ns, size) when last loaded/saved

    @property
    def title(self) -> str:
        """The document's title ("" when untitled or unreadable)."""
        return self.document.title if self.document is not None else ""

    def describe(self) -> str:
        """One line for the recovery dialog: what was recovered, from where, when."""
        when = self.saved_at.astimezone().strftime("%Y-%m-%d %H:%M:%S") if self.saved_at else "?"
        where = str(self.source_path) if self.source_path else QT_TRANSLATE_NOOP(_CTX, "never saved")
        if self.document is None:
            return MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "Unreadable autosave from {when}: {error}"),
                when=when, error=self.error)
        from .safe_read import one_line

        doc = self.document
        s = doc.scenario
        model = s.model.name or s.model.preset or s.model.hf_config or QT_TRANSLATE_NOOP(_CTX, "custom model")
        title = doc.title or QT_TRANSLATE_NOOP(_CTX, "Untitled plan")
        # one line: the title, the model and the paths come from a stranger's file (probe14: a title with a newline
        # and ESC broke the recovery list's line)
        return MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "{title} ({where}): {model}, {method}, {n} × {gpu}; autosaved {when}"),
            title=one_line(title, 120), where=one_line(where, 200), model=one_line(model, 120), method=s.training.method,
            n=s.hardware.num_gpus, gpu=one_line(s.hardware.gpu, 80), when=when)


def _saved_at(value: Any) -> datetime | None:
    """The record's ``saved_at`` as a time the recovery list can show in local time, else None ("?"): a date at
    the ends of the calendar with a zone ("0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00") or without
    one parses, then ``astimezone()`` in :meth:`Recovery.describe` raised OverflowError/ValueError and the
    recovery list of every autosave failed to open (probe17)."""
    try:
        when = datetime.fromisoformat(str(value))
        when.astimezone()
        when.astimezone(timezone.utc)
    except (ValueError, OverflowError, OSError):
        return None
    return when


class AutosaveStore:
    """Autosave files for this session, and recovery of those other sessions left behind."""

    def __init__(self, root: str | os.PathLike | None = None, session: str | None = None):
        self.root = Path(root) if root is not None else data_dir() / "autosave"
        self.session = session or uuid.uuid4().hex[:16]
        if not _ID_RE.match(self.session):
            raise ValueError("session ids are letters, digits, '-' and '_'")

    def _file(self, record_id: str) -> Path:
        if not _ID_RE.match(record_id):
            raise PlanFileError(record_id, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "not an autosave id")))
        return self.root / f"{record_id}{AUTOSAVE_SUFFIX}"

    def record_id(self, doc_id: str = "main") -> str:
        return f"{self.session}-{doc_id}"

    def write(self, doc: PlanDocument, doc_id: str = "main", source_path: str | os.PathLike | None = None,
              source_stamp: tuple[int, int] | None = None) -> str:
        """Autosave ``doc`` (atomically); returns the record id. Raises :class:`PlanFileError`."""
        rid = self.record_id(doc_id)
        target = self._file(rid)
        record = {
            "autosave_format": AUTOSAVE_FORMAT,
            "session": self.session,
            "pid": os.getpid(),
            "pid_stamp": process_stamp(os.getpid()),
            "saved_at": datetime.now(timezone.utc).isoformat(),
            "source_path": os.fspath(Path(source_path).resolve()) if source_path else None,
            "plan": planfile.to_data(doc),
        }
        if source_stamp is not None:
            record["source_stamp"] = [int(source_stamp[0]), int(source_stamp[1])]
        try:
            payload = (json.dumps(record, sort_keys=True, indent=1, ensure_ascii=False, allow_nan=False) + "\n")
            data = payload.encode("utf-8")
        except (ValueError, TypeError, UnicodeEncodeError) as err:
            raise PlanFileError(target, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot autosave ({why})"), why=err)) from None
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            planfile.atomic_write(target, data, backup=False)
        except OSError as err:
            raise PlanFileError(target, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot autosave ({why})"),
                why=planfile.os_reason(err))) from None
        return rid

    def _read(self, path: Path) -> tuple[dict | None, Recovery]:
        rid = path.name[: -len(AUTOSAVE_SUFFIX)]
        rec = Recovery(id=rid, file=path, saved_at=None, source_path=None, document=None)
        try:
            raw = planfile.read_bytes(path)
            text = planfile._decode(raw, path.name)
            record = planfile._parse(text, path.name)
            if not isinstance(record, dict) or record.get("autosave_format") != AUTOSAVE_FORMAT:
                raise PlanFileError(path, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "not an autosave file of this version")))
        except PlanFileError as err:
            rec.error = error_text(err)
            return None, rec
        rec.saved_at = _saved_at(record.get("saved_at"))
        src = record.get("source_path")
        rec.source_path = _valid_path(src)
        stamp = record.get("source_stamp")
        if (isinstance(stamp, list) and len(stamp) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in stamp)):
            rec.source_stamp = (stamp[0], stamp[1])
        return record, rec

    def _pending_one(self, path: Path) -> Recovery | None:
        """One autosave file, read in isolation: None when it is this session's or a running instance's; a
        file that cannot be read, whatever is wrong with it, is a :class:`Recovery` without a document (listed
        as unreadable), so it never hides the others."""
        rid = path.name[: -len(AUTOSAVE_SUFFIX)]
        try:
            record, rec = self._read(path)
            if record is None:
                return None if rec.id.startswith(self.session + "-") else rec
            if record.get("session") == self.session or _owner_running(record):
                return None  # ours, or another instance is running and owns it
            try:
                rec.document, rec.warnings = planfile.from_data(record.get("plan"), path.name)
            except PlanFileError as err:
                rec.error = error_text(err)
            return rec
        except Exception as err:  # noqa: BLE001 - isolation: any failure of one stranger's file is that file's
            return Recovery(id=rid, file=path, saved_at=None, source_path=None, document=None,
                            error=MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot read this autosave ({why})"),
                                              why=err.__class__.__name__))

    def pending(self) -> list[Recovery]:
        """Autosaves of sessions that are not running any more (newest first), ready to offer."""
        out: list[Recovery] = []
        if not self.root.is_dir():
            return out
        for path in sorted(self.root.glob(f"*{AUTOSAVE_SUFFIX}")):
            rec = self._pending_one(path)
            if rec is not None:
                out.append(rec)
        far_past = datetime.min.replace(tzinfo=timezone.utc)
        out.sort(key=lambda r: r.saved_at if r.saved_at and r.saved_at.tzinfo else far_past, reverse=True)
        return out

    def discard(self, record_id: str) -> None:
        """Delete one autosave: only on the user's explicit word (they discarded it, or its content was
        recovered and autosaved again under this session, or the document was saved)."""
        try:
            self._file(record_id).unlink()
        except FileNotFoundError:
            pass
        except OSError as err:
            raise PlanFileError(record_id, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot delete the autosave ({why})"),
                why=err.strerror or err.__class__.__name__)) from None

    def close(self) -> None:
        """Clean shutdown: remove this session's autosaves."""
        if not self.root.is_dir():
            return
        for path in self.root.glob(f"{self.session}-*{AUTOSAVE_SUFFIX}"):
            try:
                path.unlink()
            except OSError:
                pass


class Debouncer:
    """Decides when a burst of edits has settled (timing only; the caller owns the timer).

    Due ``delay_s`` after the last edit, or ``max_wait_s`` after the first unsaved edit, whichever
    comes first, so continuous editing still autosaves.
    """

    def __init__(self, delay_s: float = 1.0, max_wait_s: float = 5.0, clock: Callable[[], float] = time.monotonic):
        if delay_s < 0 or max_wait_s < delay_s:
            raise ValueError("need 0 <= delay_s <= max_wait_s")
        self.delay_s, self.max_wait_s, self.clock = delay_s, max_wait_s, clock
        self._first: float | None = None
        self._last: float | None = None

    @property
    def dirty(self) -> bool:
        return self._last is not None

    def touch(self) -> None:
        now = self.clock()
        if self._first is None:
            self._first = now
        self._last = now

    def remaining(self) -> float | None:
        """Seconds until due (0 when due now), or ``None`` when nothing is pending."""
        if self._last is None or self._first is None:
            return None
        deadline = min(self._last + self.delay_s, self._first + self.max_wait_s)
        return max(0.0, deadline - self.clock())

    def due(self) -> bool:
        r = self.remaining()
        return r is not None and r <= 0.0

    def reset(self) -> None:
        self._first = self._last = None


class AutosaveDriver:
    """Glue for one open document: ``edited()`` on change, ``poll()`` when the timer fires.

    ``last_error`` is the reason the last write failed (``None`` after a good one); the UI shows it.
    """

    def __init__(self, store: AutosaveStore, get_document: Callable[[], PlanDocument], doc_id: str = "main",
                 source_path: Callable[[], str | os.PathLike | None] | None = None,
                 debouncer: Debouncer | None = None,
                 source_stamp: Callable[[], tuple[int, int] | None] | None = None):
        self.store, self.get_document, self.doc_id = store, get_document, doc_id
        self.source_path = source_path or (lambda: None)
        self.source_stamp = source_stamp or (lambda: None)
        self.debouncer = debouncer or Debouncer()
        self.last_error: str | None = None
        self._adopted: Recovery | None = None  # recovered, but its content not yet written under this session

    def edited(self) -> None:
        self.debouncer.touch()

    def remaining(self) -> float | None:
        return self.debouncer.remaining()

    def poll(self, force: bool = False) -> bool:
        """Write the autosave when due (or ``force``); returns whether it wrote. Errors go to ``last_error``."""
        if not self.debouncer.dirty or not (force or self.debouncer.due()):
            return False
        try:
            self.store.write(self.get_document(), self.doc_id, self.source_path(), self.source_stamp())
        except PlanFileError as err:
            self.last_error = error_text(err)
            self.debouncer.touch()  # try again after the next delay
            return False
        self.last_error = None
        self.debouncer.reset()
        self._drop_adopted()
        return True

    def _drop_adopted(self) -> None:
        adopted, self._adopted = self._adopted, None
        if adopted is not None and adopted.id != self.store.record_id(self.doc_id):
            try:
                self.store.discard(adopted.id)
            except PlanFileError:
                pass  # left on disk: offered again next time, which loses nothing

    def write_now(self) -> bool:
        """Autosave at once, edited or not (a recovered document must be safe before the next edit)."""
        self.debouncer.touch()
        return self.poll(force=True)

    def take_over(self, recovery: Recovery) -> bool:
        """The user recovered ``recovery`` into this session's document: autosave that document now, and
        only once that write succeeded delete the old session's file (its content is then in ours). On a
        failed write the old file stays until a later write (or a save) succeeds, and ``last_error`` says
        why."""
        self._adopted = recovery
        return self.write_now()

    def saved(self) -> None:
        """The document was saved to its file (or the user discarded it): the autosave is no longer needed,
        nor the recovered one it came from."""
        self.debouncer.reset()
        self.last_error = None
        self._drop_adopted()
        self.store.discard(self.store.record_id(self.doc_id))


def startup_cleanup(folders: Iterable[str | os.PathLike] = (), min_age_s: float = planfile.STALE_TEMP_AGE_S,
                    recent: RecentFiles | None = None) -> list[Path]:
    """At start-up: remove the temp files that killed saves left behind (:func:`planfile.clean_stale_temps`:
    our temp-name pattern only, older than ``min_age_s``) in the autosave and config folders, the folders
    of the recent plans and ``folders``. Returns what was removed; never raises."""
    todo: list[Path] = [data_dir() / "autosave", config_dir(), *(Path(f) for f in folders)]
    try:
        todo += [p.parent for p in (recent or RecentFiles()).entries()]
    except (OSError, ValueError):
        pass
    seen: set[str] = set()
    removed: list[Path] = []
    for folder in todo:
        try:
            key = os.path.normcase(os.path.abspath(folder))
        except (OSError, ValueError):
            continue
        if key in seen:
            continue
        seen.add(key)
        try:
            removed += planfile.clean_stale_temps(folder, min_age_s=min_age_s)
        except (OSError, ValueError):  # a folder name the file system refuses: nothing to clean there
            continue
    return removed


RECENT_MAX_BYTES = 1 << 20


class RecentFiles:
    """Most-recently-used plan files, newest first, in ``<config dir>/recent.json``."""

    def __init__(self, path: str | os.PathLike | None = None, limit: int = 10):
        self.path = Path(path) if path is not None else config_dir() / "recent.json"
        self.limit = limit

    def _read(self) -> list[str]:
        """The entries that are file paths (:func:`~gpuplanner.io.safe_read.check_path`: no NUL, encodable,
        not overlong) from a bounded, strictly parsed file; a damaged file is an empty list."""
        from ..core.errors import PlannerError
        from .safe_read import check_path, read_json

        try:
            data = read_json(self.path, RECENT_MAX_BYTES, "JSON file")
        except (PlannerError, OSError, ValueError):  # missing or damaged: start afresh rather than fail
            return []
        files = data.get("files") if isinstance(data, dict) else None
        if not isinstance(files, list):
            return []
        out = []
        for f in files[: 10 * self.limit]:
            try:
                if isinstance(f, str) and check_path(f, special=False):
                    out.append(f)
            except PlannerError:
                continue
        return out[: self.limit]

    def _write(self, files: list[str]) -> None:
        payload = json.dumps({"version": 1, "files": files[: self.limit]}, indent=2, ensure_ascii=False) + "\n"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            planfile.atomic_write(self.path, payload.encode("utf-8", "replace"), backup=False)
        except OSError:
            pass  # the recent list is a convenience: never block the user over it

    def entries(self, existing_only: bool = False) -> list[Path]:
        paths = [Path(f) for f in self._read()]
        return [p for p in paths if p.is_file()] if existing_only else paths

    def add(self, path: str | os.PathLike) -> None:
        key = os.fspath(Path(path).resolve())
        self._write([key] + [f for f in self._read() if f != key])

    def remove(self, path: str | os.PathLike) -> None:
        key = os.fspath(Path(path).resolve())
        self._write([f for f in self._read() if f != key and f != os.fspath(path)])

    def clear(self) -> None:
        self._write([])

"""Autosave, crash recovery and the recent-files list (pure Python: no Qt here).

The UI drives the timing: on every edit it calls :meth:`AutosaveDriver.edited` and arms a single-shot
``QTimer`` for :meth:`AutosaveDriver.remaining` seconds, whose slot calls :meth:`AutosaveDriver.poll`.
With the defaults an edit is on disk within ``delay_s`` (1 s) of the last edit, and at most ``max_wait_s``
(5 s) after the first of a burst of edits, so "within 2 s of the last edit" holds.

Store layout (``<data dir>/autosave/``): one ``<session>-<doc>.autosave`` JSON file per open document,
``{"autosave_format": 1, "session", "pid", "saved_at", "source_path", "plan": <plan object>}``, written
atomically (temp file, fsync, replace). A clean shutdown removes its own files; whatever is left by a
process that is no longer running is offered by :meth:`AutosaveStore.pending` on the next start.

Folders: :func:`data_dir` is ``$GPUPLANNER_DATA_DIR`` or ``platformdirs.user_data_dir("GPUPlanner")``;
:func:`config_dir` is ``$GPUPLANNER_CONFIG_DIR`` or ``platformdirs.user_config_dir("GPUPlanner")``.
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import platformdirs

from ..core.i18n import QT_TRANSLATE_NOOP
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


def _pid_alive(pid: int) -> bool:
    """Whether process ``pid`` is running (never sends a signal that could affect it)."""
    if pid <= 0:
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

    def describe(self) -> str:
        """One line for the recovery dialog: what was recovered, from where, when."""
        when = self.saved_at.astimezone().strftime("%Y-%m-%d %H:%M:%S") if self.saved_at else "?"
        where = str(self.source_path) if self.source_path else QT_TRANSLATE_NOOP(_CTX, "never saved")
        if self.document is None:
            return QT_TRANSLATE_NOOP(_CTX, "Unreadable autosave from {when}: {error}").format(
                when=when, error=self.error)
        doc = self.document
        s = doc.scenario
        model = s.model.name or s.model.preset or s.model.hf_config or QT_TRANSLATE_NOOP(_CTX, "custom model")
        title = doc.title or QT_TRANSLATE_NOOP(_CTX, "Untitled plan")
        return QT_TRANSLATE_NOOP(_CTX, "{title} ({where}): {model}, {method}, {n} × {gpu}; autosaved {when}").format(
            title=title, where=where, model=model, method=s.training.method, n=s.hardware.num_gpus,
            gpu=s.hardware.gpu, when=when)


class AutosaveStore:
    """Autosave files for this session, and recovery of those other sessions left behind."""

    def __init__(self, root: str | os.PathLike | None = None, session: str | None = None):
        self.root = Path(root) if root is not None else data_dir() / "autosave"
        self.session = session or uuid.uuid4().hex[:16]
        if not _ID_RE.match(self.session):
            raise ValueError("session ids are letters, digits, '-' and '_'")

    def _file(self, record_id: str) -> Path:
        if not _ID_RE.match(record_id):
            raise PlanFileError(record_id, QT_TRANSLATE_NOOP(_CTX, "not an autosave id"))
        return self.root / f"{record_id}{AUTOSAVE_SUFFIX}"

    def record_id(self, doc_id: str = "main") -> str:
        return f"{self.session}-{doc_id}"

    def write(self, doc: PlanDocument, doc_id: str = "main", source_path: str | os.PathLike | None = None) -> str:
        """Autosave ``doc`` (atomically); returns the record id. Raises :class:`PlanFileError`."""
        rid = self.record_id(doc_id)
        target = self._file(rid)
        record = {
            "autosave_format": AUTOSAVE_FORMAT,
            "session": self.session,
            "pid": os.getpid(),
            "saved_at": datetime.now(timezone.utc).isoformat(),
            "source_path": os.fspath(Path(source_path).resolve()) if source_path else None,
            "plan": planfile.to_data(doc),
        }
        try:
            payload = (json.dumps(record, sort_keys=True, indent=1, ensure_ascii=False, allow_nan=False) + "\n")
            data = payload.encode("utf-8")
        except (ValueError, TypeError, UnicodeEncodeError) as err:
            raise PlanFileError(target, QT_TRANSLATE_NOOP(_CTX, "cannot autosave ({why})").format(why=err)) from None
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            planfile.atomic_write(target, data, backup=False)
        except OSError as err:
            raise PlanFileError(target, QT_TRANSLATE_NOOP(_CTX, "cannot autosave ({why})").format(
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
                raise PlanFileError(path, QT_TRANSLATE_NOOP(_CTX, "not an autosave file of this version"))
        except PlanFileError as err:
            rec.error = str(err)
            return None, rec
        try:
            rec.saved_at = datetime.fromisoformat(str(record.get("saved_at")))
        except ValueError:
            rec.saved_at = None
        src = record.get("source_path")
        rec.source_path = Path(src) if isinstance(src, str) and src else None
        return record, rec

    def pending(self) -> list[Recovery]:
        """Autosaves of sessions that are not running any more (newest first), ready to offer."""
        out: list[Recovery] = []
        if not self.root.is_dir():
            return out
        for path in sorted(self.root.glob(f"*{AUTOSAVE_SUFFIX}")):
            record, rec = self._read(path)
            if record is not None:
                if record.get("session") == self.session:
                    continue  # ours
                pid = record.get("pid")
                if isinstance(pid, int) and not isinstance(pid, bool) and pid != os.getpid() and _pid_alive(pid):
                    continue  # another instance is running and owns it
                try:
                    rec.document, rec.warnings = planfile.from_data(record.get("plan"), path.name)
                except PlanFileError as err:
                    rec.error = str(err)
            elif rec.id.startswith(self.session + "-"):
                continue
            out.append(rec)
        far_past = datetime.min.replace(tzinfo=timezone.utc)
        out.sort(key=lambda r: r.saved_at if r.saved_at and r.saved_at.tzinfo else far_past, reverse=True)
        return out

    def discard(self, record_id: str) -> None:
        """Delete one autosave (after the user recovered or declined it, or after a successful save)."""
        try:
            self._file(record_id).unlink()
        except FileNotFoundError:
            pass
        except OSError as err:
            raise PlanFileError(record_id, QT_TRANSLATE_NOOP(_CTX, "cannot delete the autosave ({why})").format(
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
    """Glue for one open document: ``edited()`` on change, ``poll()`` when the timer fires."""

    def __init__(self, store: AutosaveStore, get_document: Callable[[], PlanDocument], doc_id: str = "main",
                 source_path: Callable[[], str | os.PathLike | None] | None = None,
                 debouncer: Debouncer | None = None):
        self.store, self.get_document, self.doc_id = store, get_document, doc_id
        self.source_path = source_path or (lambda: None)
        self.debouncer = debouncer or Debouncer()
        self.last_error: str | None = None

    def edited(self) -> None:
        self.debouncer.touch()

    def remaining(self) -> float | None:
        return self.debouncer.remaining()

    def poll(self, force: bool = False) -> bool:
        """Write the autosave when due (or ``force``); returns whether it wrote. Errors go to ``last_error``."""
        if not self.debouncer.dirty or not (force or self.debouncer.due()):
            return False
        try:
            self.store.write(self.get_document(), self.doc_id, self.source_path())
        except PlanFileError as err:
            self.last_error = str(err)
            self.debouncer.touch()  # try again after the next delay
            return False
        self.last_error = None
        self.debouncer.reset()
        return True

    def saved(self) -> None:
        """The document was saved to its file: the autosave is no longer needed."""
        self.debouncer.reset()
        self.store.discard(self.store.record_id(self.doc_id))


class RecentFiles:
    """Most-recently-used plan files, newest first, in ``<config dir>/recent.json``."""

    def __init__(self, path: str | os.PathLike | None = None, limit: int = 10):
        self.path = Path(path) if path is not None else config_dir() / "recent.json"
        self.limit = limit

    def _read(self) -> list[str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):  # missing or damaged: start afresh rather than fail
            return []
        files = data.get("files") if isinstance(data, dict) else None
        if not isinstance(files, list):
            return []
        return [f for f in files if isinstance(f, str) and f][: self.limit]

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

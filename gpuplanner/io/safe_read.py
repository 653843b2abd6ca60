"""Reading strangers' files safely: one reader for scenario files, config.json, safetensors headers, index files
and kit results.

* One check of every path (:func:`check_path`): a file argument or a path field of a stranger's file is text
  without a NUL byte or an unencodable character, at most 4,096 bytes long with parts of at most 255 bytes,
  and, where it exists, a regular file or a folder (never a FIFO, a device or a socket).
* Regular files only: a FIFO or a device (``/dev/zero``) is refused before anything is read (the file is
  opened non-blocking, then ``fstat`` must say "regular file").
* Size limits are enforced by reading at most ``limit + 1`` bytes, not by trusting ``stat`` (which says 0 for
  devices).
* JSON is parsed with a nesting limit (a linear pre-scan: 100,000 ``[`` never reach the recursive parser),
  no ``NaN``/``Infinity``, floats that stay finite, and integers under Python's digit limit.
* Every message is one line, without control characters, capped in length (:func:`one_line`).
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any

from ..core.errors import PlannerError
from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.messages import MsgStr, json_reason

MAX_DEPTH = 64
MAX_PATH_BYTES = 4096  # Linux PATH_MAX (limits.h), the NUL included
MAX_NAME_BYTES = 255  # NAME_MAX: one part of a path
MAX_MESSAGE = 300
CTX = "SafeRead"
#: what callers call the file they read (``what``): marked, so the sentence naming it is shown translated
#: (a message's string parameter is looked up in its context, ``i18n.translate_param``)
FILE_KINDS = (QT_TRANSLATE_NOOP(CTX, "file"), QT_TRANSLATE_NOOP(CTX, "JSON file"),
              QT_TRANSLATE_NOOP(CTX, "scenario file"), QT_TRANSLATE_NOOP(CTX, "ref file"),
              QT_TRANSLATE_NOOP(CTX, "kit result"), QT_TRANSLATE_NOOP(CTX, "text file"),
              QT_TRANSLATE_NOOP(CTX, "kernel log"), QT_TRANSLATE_NOOP(CTX, "tool output"),
              QT_TRANSLATE_NOOP(CTX, "ibstat/ibv_devinfo output"), QT_TRANSLATE_NOOP(CTX, "nvidia-smi topo -m output"),
              QT_TRANSLATE_NOOP(CTX, "quote sheet"), QT_TRANSLATE_NOOP(CTX, "plan file"))


class UnsafeInput(PlannerError):
    """A file that cannot be read safely (not a regular file, too large, malformed JSON)."""


def one_line(text: Any, limit: int = MAX_MESSAGE) -> str:
    """``text`` as one printable line of at most ``limit`` characters (terminal escapes and line breaks
    become spaces)."""
    s = "".join(ch if ch.isprintable() else " " for ch in str(text)).strip()
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _path_error(text: str, name: str, **params: Any) -> UnsafeInput:
    return UnsafeInput(MsgStr.make(CTX, text, file=one_line(name, 120), **params))


def check_path(path: Any, what: str = "file", *, special: bool = True) -> Path:
    """The one check of a path from the user or from a stranger's file, before the file system sees it: text
    (or a path object) without a NUL byte or a character the file system cannot encode (a lone surrogate), at
    most :data:`MAX_PATH_BYTES` bytes with parts of at most :data:`MAX_NAME_BYTES`; with ``special``, a path
    that exists must be a regular file or a folder (a FIFO would block, a device never ends). Returns the
    :class:`Path`; raises :class:`UnsafeInput` with one line."""
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str) or not path:
        raise UnsafeInput(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "expected a file name, got {value}"),
                                      value=one_line(repr(path), 60)))
    if "\0" in path:
        raise _path_error(QT_TRANSLATE_NOOP(CTX, "{file}: a file name cannot hold a NUL byte"), path.replace("\0", "\\0"))
    try:
        raw = os.fsencode(path)
    except UnicodeError:
        raise _path_error(QT_TRANSLATE_NOOP(CTX, "{file}: not a valid file name (unencodable character)"),
                          path.encode("utf-8", "replace").decode("utf-8")) from None
    if len(raw) >= MAX_PATH_BYTES or any(len(part) > MAX_NAME_BYTES for part in raw.split(b"/")):
        raise _path_error(QT_TRANSLATE_NOOP(CTX, "{file}: file name too long (at most {n} bytes, {part} a part)"),
                          path[:60], n=f"{MAX_PATH_BYTES - 1:,}", part=MAX_NAME_BYTES)
    p = Path(path)
    if special:
        try:
            mode = os.stat(p).st_mode
        except (OSError, ValueError):
            return p  # missing or unreadable: the read says so
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            raise _path_error(QT_TRANSLATE_NOOP(CTX, "{file}: not a regular file, not a {what}"), p.name or path,
                              what=what)
    return p


def read_limited(path: str | os.PathLike, limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (more is an error)."""
    p = check_path(path, what, special=False)  # the special file check is the fstat below, on the file opened
    name = one_line(p.name or str(p), 120)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise UnsafeInput(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: not found"), file=name)) from None
    except OSError as err:
        raise UnsafeInput(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: cannot read ({why})"), file=name,
                                      why=one_line(err.strerror or err.__class__.__name__, 80))) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = (MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "a folder")) if stat.S_ISDIR(st.st_mode)
                    else MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "not a regular file")))
            raise UnsafeInput(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: {kind}, not a {what}"), file=name,
                                          kind=kind, what=what))
        chunks, total = [], 0
        while total <= limit:
            try:
                chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            except OSError as err:
                if err.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
                    continue
                raise UnsafeInput(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: cannot read ({why})"), file=name,
                                              why=one_line(err.strerror, 80))) from None
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise UnsafeInput(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: too large for a {what} (over {limit} bytes)"),
                                          file=name, what=what, limit=f"{limit:,}"))
        return b"".join(chunks)
    finally:
        os.close(fd)


def nesting_depth(text: str) -> int:
    """The deepest ``[``/``{`` nesting outside strings (linear, no recursion)."""
    depth = best = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > best:
                best = depth
        elif ch in "]}":
            depth -= 1
    return best


def reject_constant(token: str) -> Any:
    """``json.loads(parse_constant=…)``: NaN and ±Infinity are not numbers a file may hold."""
    raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{token} is not allowed"), token=token))


def finite_float(token: str) -> float:
    """``json.loads(parse_float=…)``: a float literal that overflows to infinity is refused."""
    value = float(token)
    if not math.isfinite(value):
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "number {token} is out of range"), token=token[:20]))
    return value


class NonFinite(str):
    """A ``NaN`` / ``±Infinity`` / overflowing literal kept where it stood while parsing (:func:`loads_finite`),
    so the reader can name the field that held it."""


class Overflow(NonFinite):
    """A float literal that overflows to infinity (``1e999``)."""


class LongInt(NonFinite):
    """An integer literal of more than :data:`MAX_INT_DIGITS` digits (probe16: ``int()`` raised Python's own
    English sentence, "Exceeds the limit (4300 digits) for integer string conversion", naming no field)."""


#: Python's default ``sys.int_info.default_max_str_digits``, fixed here (an interpreter run with the limit off
#: would convert a 10 MB literal in quadratic time)
MAX_INT_DIGITS = 4300


def _float_or_marker(token: str) -> Any:
    value = float(token)
    return value if math.isfinite(value) else Overflow(token[:20])


def _int_or_marker(token: str) -> Any:
    return LongInt(token[:20]) if len(token) - token.startswith("-") > MAX_INT_DIGITS else int(token)


def refuse_long_int(token: str) -> None:
    """The reason a :class:`LongInt` is refused (the field is named by :func:`loads_finite`)."""
    raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "a whole number of more than {n} digits is out of range"),
                                 n=f"{MAX_INT_DIGITS:,}"))


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    """``json.loads(object_pairs_hook=…)`` for our own formats: a key given twice in one object is refused, naming
    it (``json`` keeps the last silently: ``{"model": A, "model": B}`` would plan B with no word)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(one_line(key, 120), MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "given twice")))
            seen.add(key)
    return obj


def loads_finite(text: str, unique_keys: bool = False) -> Any:
    """``json.loads`` that refuses NaN, ±Infinity and floats overflowing to infinity, naming where: raises
    ``ValueError(path, why)`` (``path`` as ``train_step[0].tokens_per_s``, the first in document order; ``why``
    the one-line reason, :func:`reject_constant`'s or :func:`finite_float`'s). ``unique_keys`` (our own formats:
    scenarios, plan files): a key given twice in one object is refused too, ``ValueError(key, why)``; a third
    party's file (config.json) keeps ``json``'s last-one-wins, as transformers reads it."""
    marked: list[bool] = []  # set when the parse kept a NonFinite marker: only then is the tree walked for its path

    def constant(token: str) -> NonFinite:
        marked.append(True)
        return NonFinite(token)

    def number(token: str) -> Any:
        value = _float_or_marker(token)
        if isinstance(value, Overflow):
            marked.append(True)
        return value

    def integer(token: str) -> Any:
        value = _int_or_marker(token)
        if isinstance(value, LongInt):
            marked.append(True)
        return value

    hook = _unique_keys if unique_keys else None
    try:
        data = json.loads(text, parse_constant=constant, parse_float=number, object_pairs_hook=hook)
    except ValueError as err:
        if "integer string conversion" not in str(err):  # Python's digit limit: parsed again to name the field
            raise
        data = json.loads(text, parse_constant=constant, parse_float=number, parse_int=integer, object_pairs_hook=hook)
    if not marked:  # nothing to name (the walk built a path per value: half the time of a large file, probe14)
        return data
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:  # iterative: no recursion on deep input
        path, v = stack.pop()
        if isinstance(v, NonFinite):
            try:
                if isinstance(v, LongInt):
                    refuse_long_int(str(v))
                finite_float(str(v)) if isinstance(v, Overflow) else reject_constant(str(v))
            except ValueError as err:
                raise ValueError(one_line(path or "$", 120), err.args[0]) from None
        if isinstance(v, dict):
            stack.extend(reversed([(f"{path}.{k}" if path else str(k), x) for k, x in v.items()]))
        elif isinstance(v, list):
            stack.extend(reversed([(f"{path}[{i}]", x) for i, x in enumerate(v)]))
    return data


SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")  # a \uD800-\uDFFF escape: checked after parsing


def refuse_lone_surrogates(value: Any) -> None:
    """A string escape ``\\ud800`` without its pair is no character: it cannot be printed, saved as UTF-8 or
    shown (RFC 8259 §8.2 leaves it to the reader); refused like any malformed text (iterative: no recursion)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "a lone surrogate escape in a string"))) from None


def parse_json(data: str | bytes, name: str = "file", max_depth: int = MAX_DEPTH, unique_keys: bool = False) -> Any:
    """Parse untrusted JSON (see the module docstring). Raises :class:`UnsafeInput` with one line. ``unique_keys``:
    :func:`loads_finite`'s."""
    name = one_line(name, 120)
    if isinstance(data, bytes):
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise UnsafeInput(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: UTF-16 text; expected UTF-8"), file=name))
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise UnsafeInput(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: not UTF-8 text (invalid byte at offset {n})"),
                                          file=name, n=err.start)) from None
    if nesting_depth(data) > max_depth:
        raise UnsafeInput(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: JSON nested too deeply (over {n} levels)"),
                                      file=name, n=max_depth))
    try:
        value = loads_finite(data, unique_keys)  # NaN, ±Infinity, 1e999: refused naming the field
        if SURROGATE_ESCAPE.search(data):
            refuse_lone_surrogates(value)
        return value
    except json.JSONDecodeError as err:
        raise UnsafeInput(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: not valid JSON (line {line}, column {col}: {msg})"),
                                      file=name, line=err.lineno, col=err.colno, msg=json_reason(err.msg))) from None
    except RecursionError:
        raise UnsafeInput(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: JSON nested too deeply"), file=name)) from None
    except ValueError as err:  # NaN/Infinity, out-of-range floats, integers over the digit limit
        if len(err.args) == 2:  # loads_finite: (the field, why)
            raise UnsafeInput(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: not valid JSON ({why})"), file=name,
                                          why=MsgStr.make("Errors", "{field}: {message}", field=err.args[0],
                                                          message=err.args[1]))) from None
        inner = err.args[0] if len(err.args) == 1 and isinstance(err.args[0], MsgStr) and len(err.args[0]) <= 80 \
            else one_line(err, 80)
        raise UnsafeInput(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: not valid JSON ({why})"), file=name,
                                      why=inner)) from None


def read_json(path: str | os.PathLike, limit: int, what: str = "JSON file", unique_keys: bool = False) -> Any:
    """:func:`read_limited` then :func:`parse_json` (``unique_keys``: :func:`loads_finite`'s)."""
    return parse_json(read_limited(path, limit, what), Path(path).name, unique_keys=unique_keys)

"""Reading strangers' files safely: one reader for scenario files, config.json, safetensors headers, index files
and kit results.

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
import stat
from pathlib import Path
from typing import Any

from ..core.errors import PlannerError

MAX_DEPTH = 64
MAX_MESSAGE = 300


class UnsafeInput(PlannerError):
    """A file that cannot be read safely (not a regular file, too large, malformed JSON)."""


def one_line(text: Any, limit: int = MAX_MESSAGE) -> str:
    """``text`` as one printable line of at most ``limit`` characters (terminal escapes and line breaks
    become spaces)."""
    s = "".join(ch if ch.isprintable() else " " for ch in str(text)).strip()
    return s if len(s) <= limit else s[: limit - 1] + "…"


def read_limited(path: str | os.PathLike, limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (more is an error)."""
    p = Path(path)
    name = one_line(p.name or str(p), 120)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise UnsafeInput(f"{name}: not found") from None
    except OSError as err:
        raise UnsafeInput(f"{name}: cannot read ({one_line(err.strerror or err.__class__.__name__, 80)})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
            raise UnsafeInput(f"{name}: {kind}, not a {what}")
        chunks, total = [], 0
        while total <= limit:
            try:
                chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            except OSError as err:
                if err.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
                    continue
                raise UnsafeInput(f"{name}: cannot read ({one_line(err.strerror, 80)})") from None
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise UnsafeInput(f"{name}: too large for a {what} (over {limit:,} bytes)")
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
    raise ValueError(f"{token} is not allowed")


def finite_float(token: str) -> float:
    """``json.loads(parse_float=…)``: a float literal that overflows to infinity is refused."""
    value = float(token)
    if not math.isfinite(value):
        raise ValueError(f"number {token[:20]} is out of range")
    return value


def parse_json(data: str | bytes, name: str = "file", max_depth: int = MAX_DEPTH) -> Any:
    """Parse untrusted JSON (see the module docstring). Raises :class:`UnsafeInput` with one line."""
    name = one_line(name, 120)
    if isinstance(data, bytes):
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise UnsafeInput(f"{name}: UTF-16 text; expected UTF-8")
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise UnsafeInput(f"{name}: not UTF-8 text (invalid byte at offset {err.start})") from None
    if nesting_depth(data) > max_depth:
        raise UnsafeInput(f"{name}: JSON nested too deeply (over {max_depth} levels)")
    try:
        return json.loads(data, parse_constant=reject_constant, parse_float=finite_float)
    except json.JSONDecodeError as err:
        raise UnsafeInput(f"{name}: not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})") from None
    except RecursionError:
        raise UnsafeInput(f"{name}: JSON nested too deeply") from None
    except ValueError as err:  # NaN/Infinity, out-of-range floats, integers over the digit limit
        raise UnsafeInput(f"{name}: not valid JSON ({one_line(err, 80)})") from None


def read_json(path: str | os.PathLike, limit: int, what: str = "JSON file") -> Any:
    """:func:`read_limited` then :func:`parse_json`."""
    return parse_json(read_limited(path, limit, what), Path(path).name)

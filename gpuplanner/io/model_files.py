"""Model sources on disk: a Hugging Face ``config.json`` or a local model folder (no weights loaded).

The core never reads files: it asks a :class:`ModelFiles` (its ``ModelSource``, see
:func:`gpuplanner.core.architecture.resolve_arch`) for the architecture of ``model.hf_config``. Reads are
cached by path, size and modification time, so a keystroke in the app does not re-read a model folder's
headers.

A model folder's ``*.safetensors`` files are read only up to their JSON header. Format (safetensors
specification, huggingface/safetensors README "Format"): 8 bytes little-endian unsigned header length N,
then N bytes of UTF-8 JSON mapping tensor names to ``{"dtype", "shape", "data_offsets"}`` plus an
optional ``"__metadata__"``. Summing the products of the shapes gives the exact stored parameter count.
A sharded checkpoint's ``model.safetensors.index.json`` has ``metadata.total_size`` in bytes, used when
the shards themselves are absent.
"""

from __future__ import annotations

import math
import os
import stat
import struct
from collections import Counter
from pathlib import Path

from ..core.architecture import ModelArch, arch_from_hf_config
from ..core.errors import ModelConfigError
from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.messages import MsgStr, error_text
from .safe_read import UnsafeInput, check_path, one_line, parse_json, read_json

CTX = "ModelFiles"

MAX_HEADER_BYTES = 100 * 1024 * 1024  # the safetensors reference implementation's own limit
MAX_CONFIG_BYTES = 10 * 1024 * 1024

DTYPE_BYTES = {
    "F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1, "BOOL": 1,
    "F8_E4M3": 1, "F8_E5M2": 1, "U16": 2, "U32": 4, "U64": 8,
}
TORCH_DTYPE_BYTES = {"float32": 4, "float16": 2, "bfloat16": 2, "float8_e4m3fn": 1}


def read_config_file(path: Path) -> dict:
    """A ``config.json`` (or index) as a dict: a regular file of at most 10 MB, strict JSON."""
    try:
        data = read_json(path, MAX_CONFIG_BYTES, "config.json")
    except UnsafeInput as err:
        raise ModelConfigError(error_text(err), field="model.hf_config") from None
    if not isinstance(data, dict):
        raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: expected a JSON object"),
                                           file=one_line(path.name, 120)), field="model.hf_config")
    return data


MAX_TENSOR_ELEMENTS = 1 << 50  # far beyond any real tensor; guards against lying shapes


def read_safetensors_header(path: Path) -> dict:
    """Return the JSON header of one ``.safetensors`` file (tensor data is not read)."""
    name = one_line(path.name, 120)
    _checked(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as err:
        raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: cannot read ({why})"), file=name,
                                           why=str(err.strerror or err)), field="model.hf_config") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: not a regular file"), file=name),
                                   field="model.hf_config")
        with os.fdopen(os.dup(fd), "rb") as fh:
            head = fh.read(8)
            if len(head) != 8:
                raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: truncated safetensors file"),
                                                   file=name), field="model.hf_config")
            (n,) = struct.unpack("<Q", head)
            if n == 0 or n > MAX_HEADER_BYTES:
                raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                    CTX, "{file}: implausible safetensors header length {n}"), file=name, n=n), field="model.hf_config")
            raw = fh.read(n)
    except OSError as err:
        raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: cannot read ({why})"), file=name,
                                           why=str(err.strerror or err)), field="model.hf_config") from None
    finally:
        os.close(fd)
    if len(raw) != n:
        raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: truncated safetensors header"), file=name),
                               field="model.hf_config")
    try:
        header = parse_json(raw, path.name, max_depth=8)
    except UnsafeInput:
        raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: safetensors header is not valid JSON"),
                                           file=name), field="model.hf_config") from None
    if not isinstance(header, dict):
        raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: safetensors header is not an object"),
                                           file=name), field="model.hf_config")
    return header


def count_safetensors(files: list[Path]) -> tuple[int, str | None]:
    """Exact parameter count and the dominant stored dtype over the given safetensors files."""
    total = 0
    dtypes: Counter[str] = Counter()
    for f in files:
        for name, info in read_safetensors_header(f).items():
            if name == "__metadata__":
                continue
            shape = info.get("shape") if isinstance(info, dict) else None
            dtype = info.get("dtype") if isinstance(info, dict) else None
            if not isinstance(shape, list) or not isinstance(dtype, str) or len(shape) > 8 or not all(
                    isinstance(d, int) and not isinstance(d, bool) and 0 <= d <= MAX_TENSOR_ELEMENTS for d in shape):
                raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                    CTX, "{file}: tensor '{tensor}' has no valid shape/dtype"), file=one_line(f.name, 120),
                    tensor=one_line(name, 60)), field="model.hf_config")
            n = math.prod(shape)
            if n > MAX_TENSOR_ELEMENTS:
                raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                    CTX, "{file}: tensor '{tensor}' is implausibly large"), file=one_line(f.name, 120),
                    tensor=one_line(name, 60)), field="model.hf_config")
            total += n
            dtypes[dtype] += n
    return total, (dtypes.most_common(1)[0][0] if dtypes else None)


def _checked(path) -> Path:
    """:func:`~gpuplanner.io.safe_read.check_path` for a model path (``model.hf_config``, a file in its folder):
    a NUL byte, an unencodable character, an overlong name or a FIFO/device is one line naming the field."""
    try:
        return check_path(path, "config.json")
    except UnsafeInput as err:
        raise ModelConfigError(error_text(err), field="model.hf_config") from None


def _inside(folder: Path, f: Path) -> bool:
    """Whether ``f`` (after following links) stays inside ``folder``."""
    try:
        return f.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):
        return False


def load_model_source(path: Path, name: str | None = None, root: Path | None = None) -> ModelArch:
    """Load a ``config.json`` file or a model folder (config.json + safetensors headers).

    ``name`` names the model (default: the config's ``_name_or_path``, else the folder's name); ``root`` is the
    folder the files may link into (default: the model folder itself; a Hugging Face cache snapshot links its
    files into the model's ``blobs/``, see :mod:`gpuplanner.io.hf_cache`)."""
    path = _checked(path)
    if not path.exists():
        raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: not found"), file=one_line(path, 200)),
                               field="model.hf_config")
    if path.is_dir():
        inside = Path(root) if root is not None else path
        cfg_path = path / "config.json"
        if not cfg_path.exists():
            raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{folder}: the folder has no config.json"),
                                               folder=str(path)), field="model.hf_config")
        if not _inside(inside, cfg_path):
            raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{folder}: config.json links outside the folder"),
                                               folder=one_line(path.name, 120)), field="model.hf_config")
        cfg = read_config_file(cfg_path)
        arch = arch_from_hf_config(cfg, name=name or _name(cfg) or path.name)
        shards = sorted(f for f in path.glob("*.safetensors") if _inside(inside, f))
        index = path / "model.safetensors.index.json"
        if shards:
            n, dtype = count_safetensors(shards)
            return arch.replace(stored_params=n, stored_dtype=dtype)
        if index.exists() and _inside(inside, index):
            idx = read_config_file(index)
            meta = idx.get("metadata")
            total_size = meta.get("total_size") if isinstance(meta, dict) else None
            per = TORCH_DTYPE_BYTES.get(str(cfg.get("torch_dtype", "bfloat16")))
            if isinstance(total_size, int) and not isinstance(total_size, bool) and \
                    0 < total_size <= MAX_TENSOR_ELEMENTS and per:
                return arch.replace(stored_params=int(total_size) // per, stored_dtype=str(cfg.get("torch_dtype")))
        return arch
    cfg = read_config_file(path)
    return arch_from_hf_config(cfg, name=name or _name(cfg) or path.parent.name or path.stem)


def _name(cfg: dict) -> str | None:
    """``_name_or_path`` when it is text (one printable line, at most 200 characters)."""
    v = cfg.get("_name_or_path")
    return one_line(v, 200) or None if isinstance(v, str) else None


class ModelFiles:
    """The model sources a scenario refers to, resolved against ``base_dir`` (the scenario's or plan's folder).

    :meth:`load` returns the :class:`ModelArch` for an ``hf_config`` reference; results are cached by the
    resolved path and the size and modification time of ``config.json`` and the safetensors files, so
    an unchanged folder is read once and a changed one again.
    """

    _cache: dict[tuple, ModelArch] = {}
    _CACHE_MAX = 64

    def __init__(self, base_dir: Path | None = None, *, confine: bool = False):
        self.base_dir = Path(base_dir) if base_dir is not None else None
        self.confine = bool(confine and base_dir is not None)

    def __repr__(self) -> str:
        return f"ModelFiles({str(self.base_dir)!r}{', confine=True' if self.confine else ''})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ModelFiles) and (other.base_dir, other.confine) == (self.base_dir, self.confine)

    def __hash__(self) -> int:
        return hash((self.base_dir, self.confine))

    def allowed(self, ref: str) -> bool:
        """With ``confine`` (a plan file from someone else): only relative references that stay inside the
        plan's folder, links followed. Otherwise any reference."""
        _checked(ref)
        if not self.confine:
            return True
        if self._cache_id(ref):
            return True  # a model id is read from the user's own Hugging Face cache, never from the plan's paths
        p = Path(ref).expanduser()
        if p.is_absolute():
            return False
        return _inside(self.base_dir, self.base_dir / p)

    def _local(self, ref: str) -> Path:
        path = Path(ref).expanduser()
        if not path.is_absolute() and self.base_dir is not None:
            path = self.base_dir / path
        return path

    def _cache_id(self, ref: str) -> bool:
        """Whether ``ref`` is read from the Hugging Face cache: a model id (``org/name``, ``name``,
        ``org/name@revision``) that is not a file or folder next to the scenario (a path wins)."""
        from .hf_cache import is_model_id  # the cache module only when a model is named (not a preset)

        if not is_model_id(ref) or ref.lower().endswith(".json"):
            return False
        try:
            return not self._local(ref).exists()
        except OSError:
            return True

    def path(self, ref: str) -> Path:
        """The file or folder ``ref`` names: a path (relative to ``base_dir``), or a model id's snapshot in the
        local Hugging Face cache (:func:`gpuplanner.io.hf_cache.find_cached`)."""
        _checked(ref)
        if self._cache_id(ref):
            from .hf_cache import find_cached

            return find_cached(ref).snapshot
        return self._local(ref)

    @staticmethod
    def _stamp(path: Path) -> tuple:
        files = [path]
        if path.is_dir():
            files = [path / "config.json", path / "model.safetensors.index.json", *sorted(path.glob("*.safetensors"))]
        out = []
        for f in files:
            try:
                st = f.stat()
            except OSError:
                continue
            out.append((f.name, st.st_size, st.st_mtime_ns))
        return tuple(out)

    def load(self, ref: str) -> ModelArch:
        _checked(ref)
        if not self.allowed(ref):
            raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "model.hf_config '{ref}' points outside the plan's folder; choose the model again on the Model "
                     "page"), ref=one_line(ref, 120)), field="model.hf_config")
        name = root = None
        if self._cache_id(ref):
            from .hf_cache import find_cached

            found = find_cached(ref)
            path, name, root = found.snapshot, found.model_id, found.repo_dir
        else:
            path = self._local(ref)
        key = (str(path.resolve()) if path.exists() else str(path), name, self._stamp(path))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        arch = load_model_source(path, name=name, root=root)
        if len(self._cache) >= self._CACHE_MAX:
            self._cache.pop(next(iter(self._cache)))
        self._cache[key] = arch
        return arch

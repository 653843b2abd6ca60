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

import json
import math
import struct
from collections import Counter
from pathlib import Path

from ..core.architecture import ModelArch, arch_from_hf_config
from ..core.errors import ModelConfigError

MAX_HEADER_BYTES = 100 * 1024 * 1024  # the safetensors reference implementation's own limit
MAX_CONFIG_BYTES = 10 * 1024 * 1024

DTYPE_BYTES = {
    "F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1, "BOOL": 1,
    "F8_E4M3": 1, "F8_E5M2": 1, "U16": 2, "U32": 4, "U64": 8,
}
TORCH_DTYPE_BYTES = {"float32": 4, "float16": 2, "bfloat16": 2, "float8_e4m3fn": 1}


def read_config_file(path: Path) -> dict:
    try:
        size = path.stat().st_size
    except OSError as err:
        raise ModelConfigError(f"{path}: cannot read ({err.strerror or err})", field="model.hf_config") from None
    if size > MAX_CONFIG_BYTES:
        raise ModelConfigError(f"{path.name}: too large for a config.json ({size} bytes)", field="model.hf_config")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ModelConfigError(f"{path.name}: not UTF-8 text", field="model.hf_config") from None
    except json.JSONDecodeError as err:
        raise ModelConfigError(
            f"{path.name}: not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})", field="model.hf_config"
        ) from None
    if not isinstance(data, dict):
        raise ModelConfigError(f"{path.name}: expected a JSON object", field="model.hf_config")
    return data


def read_safetensors_header(path: Path) -> dict:
    """Return the JSON header of one ``.safetensors`` file (tensor data is not read)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(8)
            if len(head) != 8:
                raise ModelConfigError(f"{path.name}: truncated safetensors file", field="model.hf_config")
            (n,) = struct.unpack("<Q", head)
            if n == 0 or n > MAX_HEADER_BYTES:
                raise ModelConfigError(f"{path.name}: implausible safetensors header length {n}",
                                       field="model.hf_config")
            raw = fh.read(n)
    except OSError as err:
        raise ModelConfigError(f"{path.name}: cannot read ({err.strerror or err})", field="model.hf_config") from None
    if len(raw) != n:
        raise ModelConfigError(f"{path.name}: truncated safetensors header", field="model.hf_config")
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ModelConfigError(f"{path.name}: safetensors header is not valid JSON", field="model.hf_config") from None
    if not isinstance(header, dict):
        raise ModelConfigError(f"{path.name}: safetensors header is not an object", field="model.hf_config")
    return header


def count_safetensors(files: list[Path]) -> tuple[int, str | None]:
    """Exact parameter count and the dominant stored dtype over the given safetensors files."""
    total = 0
    dtypes: Counter[str] = Counter()
    for f in files:
        for name, info in read_safetensors_header(f).items():
            if name == "__metadata__":
                continue
            try:
                n = math.prod(int(d) for d in info["shape"])
                dtype = str(info["dtype"])
            except (KeyError, TypeError, ValueError):
                raise ModelConfigError(f"{f.name}: tensor '{name}' has no valid shape/dtype",
                                       field="model.hf_config") from None
            total += n
            dtypes[dtype] += n
    return total, (dtypes.most_common(1)[0][0] if dtypes else None)


def load_model_source(path: Path) -> ModelArch:
    """Load a ``config.json`` file or a model folder (config.json + safetensors headers)."""
    path = Path(path)
    if not path.exists():
        raise ModelConfigError(f"{path}: not found", field="model.hf_config")
    if path.is_dir():
        cfg_path = path / "config.json"
        if not cfg_path.exists():
            raise ModelConfigError(f"{path}: the folder has no config.json", field="model.hf_config")
        cfg = read_config_file(cfg_path)
        arch = arch_from_hf_config(cfg, name=cfg.get("_name_or_path") or path.name)
        shards = sorted(path.glob("*.safetensors"))
        index = path / "model.safetensors.index.json"
        if shards:
            n, dtype = count_safetensors(shards)
            return arch.replace(stored_params=n, stored_dtype=dtype)
        if index.exists():
            idx = read_config_file(index)
            total_size = (idx.get("metadata") or {}).get("total_size")
            per = TORCH_DTYPE_BYTES.get(str(cfg.get("torch_dtype", "bfloat16")))
            if isinstance(total_size, (int, float)) and per:
                return arch.replace(stored_params=int(total_size) // per, stored_dtype=str(cfg.get("torch_dtype")))
        return arch
    cfg = read_config_file(path)
    return arch_from_hf_config(cfg, name=cfg.get("_name_or_path") or path.parent.name or path.stem)


class ModelFiles:
    """The model sources a scenario refers to, resolved against ``base_dir`` (the scenario's or plan's folder).

    :meth:`load` returns the :class:`ModelArch` for an ``hf_config`` reference; results are cached by the
    resolved path and the size and modification time of ``config.json`` and the safetensors files, so
    an unchanged folder is read once and a changed one again.
    """

    _cache: dict[tuple, ModelArch] = {}
    _CACHE_MAX = 64

    def __init__(self, base_dir: Path | None = None):
        self.base_dir = Path(base_dir) if base_dir is not None else None

    def __repr__(self) -> str:
        return f"ModelFiles({str(self.base_dir)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ModelFiles) and other.base_dir == self.base_dir

    def __hash__(self) -> int:
        return hash(self.base_dir)

    def path(self, ref: str) -> Path:
        path = Path(ref).expanduser()
        if not path.is_absolute() and self.base_dir is not None:
            path = self.base_dir / path
        return path

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
        path = self.path(ref)
        key = (str(path.resolve()) if path.exists() else str(path), self._stamp(path))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        arch = load_model_source(path)
        if len(self._cache) >= self._CACHE_MAX:
            self._cache.pop(next(iter(self._cache)))
        self._cache[key] = arch
        return arch

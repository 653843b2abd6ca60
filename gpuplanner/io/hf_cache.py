"""Models in the local Hugging Face cache, found by their model id, offline.

Where the cache is (``huggingface_hub/constants.py``, the same order the ``huggingface_hub`` library uses):
``$HF_HUB_CACHE``, else the legacy ``$HUGGINGFACE_HUB_CACHE``, else ``$HF_HOME/hub``, else
``$XDG_CACHE_HOME/huggingface/hub``, else ``~/.cache/huggingface/hub``.

Layout of one model (huggingface_hub docs, "Manage the cache-system" → "Understand caching")::

    <cache>/models--Qwen--Qwen2.5-7B/
        refs/main                      the commit hash the "main" branch pointed at (40 hex digits)
        snapshots/<commit>/config.json links into ../../blobs/
        snapshots/<commit>/*.safetensors
        blobs/<sha256>

The model id becomes a folder name with ``/`` replaced by ``--`` (``repo_folder_name``). Nothing here trusts
the cache: the id is checked against the Hub's repository-name rules (``validate_repo_id``: letters, digits,
``-``, ``_``, ``.``; no ``--`` or ``..``; at most 96 characters), the ref file is read with
:func:`gpuplanner.io.safe_read.read_limited` and must hold a hexadecimal commit hash, and the snapshot and
its files (after links) must stay inside the model's cache folder.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from ..core.errors import ModelConfigError
from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.messages import MsgStr, error_text
from .safe_read import UnsafeInput, one_line, read_limited

CTX = "HfCache"

#: huggingface_hub ``validate_repo_id``: ``REPO_ID_REGEX`` plus the ``--``/``..`` and length rules
_NAME = r"[A-Za-z0-9_](?:[A-Za-z0-9._-]*[A-Za-z0-9_])?"
REPO_ID = re.compile(rf"^(?:{_NAME}/)?{_NAME}$")
REVISION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
COMMIT = re.compile(r"^[0-9a-f]{40}(?:[0-9a-f]{24})?$")  # sha1 (40) or sha256 (64) hex digits
MAX_REF_BYTES = 256
MAX_CACHE_ENTRIES = 5000  # folders looked at when listing the cache (a real cache holds tens)


def is_model_id(text: str) -> bool:
    """Whether ``text`` is a Hugging Face model id (``org/name`` or ``name``, optionally ``@revision``)."""
    if not isinstance(text, str) or not text or len(text) > 200:
        return False
    repo, _, rev = text.partition("@")
    if rev and not REVISION.match(rev):
        return False
    return bool(REPO_ID.match(repo)) and "--" not in repo and ".." not in repo and len(repo) <= 96


def cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """The hub cache folder, from the environment as ``huggingface_hub`` reads it (see the module docs)."""
    env = os.environ if env is None else env
    for key in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        if env.get(key):
            return Path(env[key]).expanduser()
    if env.get("HF_HOME"):
        return Path(env["HF_HOME"]).expanduser() / "hub"
    xdg = env.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "huggingface" / "hub"


def repo_folder_name(model_id: str) -> str:
    """``Qwen/Qwen2.5-7B`` → ``models--Qwen--Qwen2.5-7B`` (huggingface_hub ``repo_folder_name``)."""
    return "models--" + model_id.replace("/", "--")


@dataclass(frozen=True)
class CachedModel:
    """One model found in the cache: its id, the snapshot folder to read and the folder links must stay in."""

    model_id: str
    snapshot: Path
    repo_dir: Path
    revision: str
    commit: str


def _inside(root: Path, p: Path) -> bool:
    try:
        return p.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):
        return False


def _read_ref(ref_file: Path) -> str:
    try:
        text = read_limited(ref_file, MAX_REF_BYTES, "ref file").decode("ascii", "replace").strip()
    except UnsafeInput as err:
        raise ModelConfigError(error_text(err), field="model.hf_config") from None
    if not COMMIT.match(text):
        raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: the cache's ref does not hold a commit hash"),
                                           file=one_line(ref_file.name, 60)), field="model.hf_config")
    return text


def find_cached(model_id: str, env: Mapping[str, str] | None = None, root: Path | None = None) -> CachedModel:
    """The snapshot of ``model_id`` (``org/name``, optionally ``@revision``) in the local cache.

    The revision defaults to ``main``; a revision that is itself a commit hash names the snapshot directly.
    When ``refs/main`` is missing and the cache holds exactly one snapshot (``snapshot_download`` of a
    pinned commit), that snapshot is used. Raises :class:`ModelConfigError` with one line otherwise.
    """
    if not is_model_id(model_id):
        raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "'{id}' is not a Hugging Face model id"),
                                           id=one_line(model_id, 120)), field="model.hf_config")
    repo, _, revision = model_id.partition("@")
    revision = revision or "main"
    cache = Path(root) if root is not None else cache_dir(env)
    repo_dir = cache / repo_folder_name(repo)
    shown = one_line(repo, 100)
    if not repo_dir.is_dir() or not _inside(cache, repo_dir):
        raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "'{id}' is neither a file here nor a model in the local Hugging Face cache ({cache}); download its "
                 "config.json (huggingface-cli download {id} config.json) or choose the model's folder"),
            id=shown, cache=one_line(cache, 120)), field="model.hf_config")
    snapshots = repo_dir / "snapshots"
    ref_file = repo_dir / "refs" / revision
    if COMMIT.match(revision):
        commit = revision
    elif os.path.lexists(ref_file):
        if not _inside(repo_dir, ref_file):
            raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "'{id}' in the Hugging Face cache: refs/{revision} links outside the model's folder"),
                id=shown, revision=one_line(revision, 40)), field="model.hf_config")
        commit = _read_ref(ref_file)  # regular files only (a FIFO or a device is refused unread)
    else:
        found = _snapshot_names(snapshots, repo_dir)
        if revision != "main" or len(found) != 1:
            why = (MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "no snapshot")) if not found else
                   MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{n} snapshots and no refs/{revision}"), n=len(found),
                               revision=one_line(revision, 40)))
            raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "'{id}' in the Hugging Face cache: {why}; give the commit as {id}@<commit> or choose the "
                     "snapshot folder"), id=shown, why=why), field="model.hf_config")
        commit = found[0]
    snap = snapshots / commit
    if not snap.is_dir() or not _inside(repo_dir, snap):
        raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "'{id}' in the Hugging Face cache: snapshot {commit} is missing"), id=shown, commit=commit[:12]),
            field="model.hf_config")
    if not (snap / "config.json").exists():
        raise ModelConfigError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "'{id}' in the Hugging Face cache has no config.json; download it "
                 "(huggingface-cli download {id} config.json)"), id=shown), field="model.hf_config")
    return CachedModel(model_id=repo, snapshot=snap, repo_dir=repo_dir, revision=revision, commit=commit)


def _snapshot_names(snapshots: Path, repo_dir: Path) -> list[str]:
    try:
        names = []
        for i, p in enumerate(snapshots.iterdir()):
            if i >= MAX_CACHE_ENTRIES:
                break
            if COMMIT.match(p.name) and p.is_dir() and _inside(repo_dir, p):
                names.append(p.name)
        return sorted(names)
    except OSError:
        return []


def list_cached_models(env: Mapping[str, str] | None = None, root: Path | None = None) -> list[CachedModel]:
    """Every model in the local cache with a readable ``config.json`` in its ``main`` snapshot (or its only
    snapshot), sorted by id. Folders that are not models, datasets, and broken entries are skipped."""
    cache = Path(root) if root is not None else cache_dir(env)
    out: list[CachedModel] = []
    try:
        entries = []
        for i, p in enumerate(cache.iterdir()):
            if i >= MAX_CACHE_ENTRIES:
                break
            entries.append(p)
    except OSError:
        return []
    for p in entries:
        if not p.name.startswith("models--"):
            continue
        parts = p.name[len("models--"):].split("--")
        if not 1 <= len(parts) <= 2:
            continue
        model_id = "/".join(parts)
        if not is_model_id(model_id):
            continue
        try:
            out.append(find_cached(model_id, root=cache))
        except ModelConfigError:
            continue
    return sorted(out, key=lambda m: m.model_id.lower())

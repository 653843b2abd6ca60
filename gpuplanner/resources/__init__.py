"""The data GPU Planner ships: GPU, network, price and economics catalogs, model presets, translations,
fonts and icons, each record with its source and date.

This package is the one reader of shipped data. The files are part of the program (immutable, installed with
it), so the core reads them as values, the way it uses constants, through one door (``core/shipped.py``, which
calls :func:`load_json`, :func:`model_preset_documents` and :func:`model_preset_document`); everything the user supplies (scenarios, plans, model folders, kit results, settings) is read
by :mod:`gpuplanner.io`. Nothing here imports the rest of the package.
"""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from typing import Any

#: the folder of the shipped data: this package's own folder (installed as files, or unpacked next to the
#: frozen program by PyInstaller). A plain path, not ``importlib.resources.files``, whose readers import
#: ``zipfile`` and ``threading`` on every command that reads one catalog (issue #20).
_HERE = os.path.dirname(os.path.abspath(__file__))


def _read(*parts: str) -> str:
    with open(os.path.join(_HERE, *parts), encoding="utf-8") as f:
        return f.read()


@lru_cache(maxsize=None)
def load_json(name: str) -> Any:
    """A shipped JSON document (``gpus.json`` …), parsed once. Raises OSError or ValueError."""
    return json.loads(_read(name))


@lru_cache(maxsize=1)
def model_preset_documents() -> tuple[tuple[str, Any], ...]:
    """``(file name, parsed JSON)`` of every model preset in ``models/``, sorted by file name."""
    out = []
    for name in sorted(os.listdir(os.path.join(_HERE, "models"))):
        if name.endswith(".json"):
            try:
                out.append((name, json.loads(_read("models", name))))
            except ValueError as err:
                out.append((name, err))
    return tuple(out)


_PRESET_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


@lru_cache(maxsize=64)
def model_preset_document(preset_id: str) -> tuple[str, Any] | None:
    """``(file name, parsed JSON)`` of the one preset file ``models/<preset_id>.json`` (the shipped files are
    named by their id), or None when the id is not a plain name or there is no such file. A command that needs
    one preset reads one file instead of all of them."""
    if not isinstance(preset_id, str) or not _PRESET_ID.fullmatch(preset_id):
        return None
    name = f"{preset_id}.json"
    if not os.path.isfile(os.path.join(_HERE, "models", name)):
        return None
    try:
        return (name, json.loads(_read("models", name)))
    except ValueError as err:
        return (name, err)

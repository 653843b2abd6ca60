"""The core's one door to the data GPU Planner ships: catalogs (GPUs, networks, prices, economics, CPU prices,
validation bands) and model presets.

The files live in :mod:`gpuplanner.resources`, the one reader of shipped data (it opens and parses them, once);
they are part of the program, installed with it and never edited by the user, so the core takes them as values,
the way it takes its constants. Everything a user supplies (scenarios, plan files, model folders, quote sheets,
kit results) is read by :mod:`gpuplanner.io` and handed to the core.

No other core module imports :mod:`gpuplanner.resources` (import-linter contract "core reads shipped data only
through core/shipped.py", pyproject.toml), and no core module opens a file (tests/test_architecture.py). The
import is made on first use: a command that reads no catalog loads none.
"""

from __future__ import annotations

from typing import Any


def load_json(name: str) -> Any:
    """A shipped JSON document by file name (``gpus.json`` …), parsed once. Raises OSError or ValueError."""
    from gpuplanner.resources import load_json as read

    return read(name)


def model_preset_documents() -> tuple[tuple[str, Any], ...]:
    """``(file name, parsed JSON or the ValueError)`` of every shipped model preset, sorted by file name."""
    from gpuplanner.resources import model_preset_documents as read

    return read()


def model_preset_document(preset_id: str) -> tuple[str, Any] | None:
    """``(file name, parsed JSON or the ValueError)`` of the one preset ``preset_id``, or None."""
    from gpuplanner.resources import model_preset_document as read

    return read(preset_id)

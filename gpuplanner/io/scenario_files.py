"""Scenario files: a scenario JSON or a ``.gpuplan`` plan file, read for the CLI and the report.

:func:`load_scenario` returns the scenario and the :class:`~gpuplanner.io.model_files.ModelFiles` its
``model.hf_config`` is read from (relative paths resolve against the file's folder). A plan file stands for
its selected plan (:func:`gpuplanner.io.planfile.selected_scenario`).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..core.errors import ScenarioError
from ..core.scenario import Scenario, scenario_from_dict
from .model_files import ModelFiles


def load_scenario(path: str | Path) -> tuple[Scenario, ModelFiles]:
    """Load a scenario JSON file or a ``.gpuplan`` plan (migration, embedded model, selected plan)."""
    path = Path(path)
    if path.suffix.lower() == ".gpuplan":
        from .planfile import scenario_from_plan

        scenario, base = scenario_from_plan(path)
        return scenario, ModelFiles(base)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ScenarioError(f"{path}: cannot read ({err.__class__.__name__})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ScenarioError(f"{path}: not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})") from None
    if isinstance(data, dict) and "schema_version" in data:  # a plan file under another name
        from .planfile import scenario_from_plan

        scenario, base = scenario_from_plan(path)
        return scenario, ModelFiles(base)
    try:
        return scenario_from_dict(data), ModelFiles(path.resolve().parent)
    except ScenarioError as err:
        raise ScenarioError(f"{path.name}: {err}") from None

"""Scenario files: a scenario JSON or a ``.gpuplan`` plan file, read for the CLI and the report.

:func:`load_scenario` returns the scenario and the :class:`~gpuplanner.io.model_files.ModelFiles` its
``model.hf_config`` is read from (relative paths resolve against the file's folder); for a plan file, its
selected plan's scenario (:func:`gpuplanner.io.planfile.selected_scenario`). Which plan a document stands for —
the selected plan, the search's #1 with automatic layout, or the scenario — is decided in one place,
:func:`gpuplanner.app.answer.decide`; the commands ask :func:`gpuplanner.app.answer.answer`, not this loader.
"""

from __future__ import annotations

from pathlib import Path

from ..core.errors import ScenarioError
from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.messages import MsgStr, error_text
from ..core.scenario import Scenario, scenario_from_dict
from .model_files import ModelFiles
from .safe_read import UnsafeInput, parse_json, read_limited

MAX_SCENARIO_BYTES = 10 * 1024 * 1024
#: a vendor quote sheet's file types (io.quote_sheets reads them; docs/quotes.md)
SHEET_SUFFIXES = (".csv", ".xlsx")
CTX = "ScenarioFiles"


def load_scenario(path: str | Path) -> tuple[Scenario, ModelFiles]:
    """Load a scenario JSON file or a ``.gpuplan`` plan (migration, embedded model, selected plan)."""
    path = Path(path)
    if path.suffix.lower() == ".gpuplan":
        from .planfile import scenario_from_plan

        scenario, base = scenario_from_plan(path)
        return scenario, ModelFiles(base, confine=True)
    try:
        data = parse_json(read_limited(path, MAX_SCENARIO_BYTES, "scenario file"), path.name, unique_keys=True)
    except UnsafeInput as err:
        if path.suffix.lower() in SHEET_SUFFIXES and path.is_file():
            # a vendor's quote sheet where the task was expected ("plan autodl.csv"): what was meant, not the JSON
            # parser's "line 1, column 1: a value was expected" (issue 35 round 16, ux24)
            raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "{file}: a quote sheet, not a task; give a scenario (.json) or a plan file (.gpuplan), and the "
                     "sheet after it to “gpuplanner quotes”"), file=path.name)) from None
        raise ScenarioError(error_text(err)) from None
    if isinstance(data, dict) and "schema_version" in data:  # a plan file under another name
        from .planfile import scenario_from_plan

        scenario, base = scenario_from_plan(path)
        return scenario, ModelFiles(base, confine=True)
    try:
        return scenario_from_dict(data), ModelFiles(path.resolve().parent)
    except ScenarioError as err:
        # the file's name in front of the sentence, which keeps its message id; marked for the language's colon
        # ("x.json: data.tokens：…" in Chinese before, beside "x.json：不是有效的 JSON"; ux23)
        raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: {error}"), file=path.name, error=error_text(err))) from None

"""The ``.gpuplan`` plan file: format, safe loading, migration and atomic saving.

Format (schema 6, :data:`CURRENT_SCHEMA`)
    UTF-8 JSON, one object, written with sorted keys, 2-space indent and a trailing newline so that
    two versions of a plan diff cleanly. Top-level keys are the fields of :class:`PlanDocument`:
    ``schema_version``, ``app_version``, ``created``/``modified`` (ISO 8601), ``title``, ``notes``,
    ``scenario`` (the six scenario sections plus ``constraints``, see :mod:`gpuplanner.core.scenario`),
    ``price_snapshot`` (the price rows the plan was priced with), ``selected_plan``,
    ``vendor_checklist``, ``benchmarks`` (measured results), ``results`` (the estimate at save time,
    free-form), ``ui_state`` (schema 5: typed, :class:`UiState`: the page shown, the chosen plan's rank and
    how the user described the inputs, e.g. data as samples × length) and ``embedded_model`` (the architecture read from ``model.hf_config``, so
    the plan opens on a machine where that path does not exist), and ``project`` (schema 4: the ordered phases
    of :class:`gpuplanner.core.project.Project`; a phase without a ``scenario`` runs the selected plan's). Fields
    whose value is ``null`` and whose
    default is ``null`` are left out. No pickle, no code: only JSON values are read.

Schema 1 (legacy, read only; migrated by :func:`_migrate_1_to_2`)
    ``name`` instead of ``title``; one ``saved`` timestamp instead of ``created``/``modified``;
    ``scenario`` without ``constraints``, whose deadline/budget lived in a top-level ``goal``
    object (``deadline_days``, ``budget_cny``, ``max_gpus``; the currency was always CNY); the price rows
    as a top-level ``prices`` list; ``selected`` instead of ``selected_plan``; ``checklist`` as an object
    ``{item id: checked}``; ``page`` instead of ``ui_state.current_page``. No ``benchmarks``, ``results``
    or ``embedded_model``.

Schema 3 → 4 (:func:`_migrate_3_to_4`)
    Adds ``project``: a schema 3 file becomes a single-phase project whose one phase runs the plan itself
    (its kind from ``constraints.phase``: research → ``research``, burst → ``burst``, else ``training``).
    ``estimate``, ``plan`` and ``report`` read the selected plan exactly as before.

Schema 4 → 5 (:func:`_migrate_4_to_5`)
    The app's input state moves from the free-form ``results.app_ui`` into the typed ``ui_state``
    (:class:`UiState`). Entries kept elsewhere in the file (``page``: ``ui_state.current_page``; ``checklist``:
    ``vendor_checklist``; ``project``: ``project``) and the never-used ``custom_gpus`` are dropped; an entry that
    is not a valid :class:`UiState` value, or a key it does not know, stays in ``results.app_ui`` and is reported
    on open (:func:`from_data`), so nothing the file holds is lost.

Schema 5 → 6 (:func:`_migrate_5_to_6`)
    Adds ``quotes``: the vendors' quote sheets (:class:`gpuplanner.core.quotes.VendorQuote`), empty for an
    older file. A ``quotes`` already there (a hand-edited file) is kept as it is and validated.

Fields the user set (round 16, ``saved_fields``)
    Every scenario in the file (the document's, the selected plan's, each project phase's) holds only the fields
    the user set, in every section (:func:`scenario_data`: pydantic ``exclude_unset``), and the file says so with
    ``"saved_fields": "set"``. A field left out opens unset, so what depends on it being unset (the memory savers
    the search may try, a tool's own defaults, GRPO's β) means after reopening what it meant before saving. A
    plan file without the key was written by an earlier version, which wrote every field: it opens with
    ``saved_fields: "all"`` and every field it holds is the user's, as before (a value equal to the default cannot
    be told from one the user chose, and such a file's answer must not move on open); where that keeps a memory
    saver off that the search would otherwise try, the open message says so (:data:`ALL_FIELDS_NOTE`). Saving
    writes ``"set"``. Any other value is refused with one line naming the field.

Compatibility rules
    * Backward: every earlier schema opens through the explicit chain of ``@migration(n)`` functions
      (``n`` → ``n + 1``). ``tests/data/plans/v<n>.gpuplan`` keeps one file per schema, forever.
    * Forward: a key this version does not know (anywhere in the known structure, including inside the
      scenario sections) is split off before validation, kept in :attr:`PlanDocument.unknown_fields`,
      reported as a warning on open and written back on save. A *newer schema number* is refused with a
      clear message, because a newer major schema may change the meaning of known fields.

Errors
    Everything that can go wrong raises :class:`PlanFileError` (a :class:`ScenarioError`, hence a
    :class:`PlannerError`) with one line: ``"<file name>: <problem> (field x.y: why)"``. A failed load
    changes nothing; a failed save leaves the file on disk and the document in memory as they were.
"""

from __future__ import annotations

import copy
import dataclasses
import errno
import json
import os
import re
import stat
import tempfile
import time
import types
import typing
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, create_model, field_validator

from .. import __version__
from ..core.architecture import EXPLICIT_FIELDS, WRITE_IF_SET, ModelArch, resolve_arch
from ..core.errors import PlannerError, ScenarioError
from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.messages import MsgStr, error_text, not_negative_price, validation_line, json_reason
from ..core.nobool import NoBoolForNumbers
from ..core.project import Project
from ..core.quotes import VendorQuote
from ..core.scenario import ModelSection, ParallelSection, Scenario
from ..core.units import parse_count
from .model_files import ModelFiles
from .safe_read import MAX_DEPTH, UnsafeInput, check_path, loads_finite, nesting_depth

CURRENT_SCHEMA = 6
SUFFIX = ".gpuplan"
BACKUP_SUFFIX = ".bak"
MAX_BYTES = 20 * 1024 * 1024  # a realistic plan is a few kB; 20 MB leaves room for embedded data
MAX_UNKNOWN_LISTED = 8
MAX_TITLE = 1000  # PlanDocument.title, characters
MAX_LIST = 1000  # PlanDocument.vendor_checklist, .benchmarks: entries
#: PriceSnapshot.prices: rows (the built-in table the snapshot copies holds 66; 150,000 rows, 12 MB, took 20 s
#: to open, all of it validating and copying rows, probe16)
MAX_PRICES = 10_000
#: the vendor checklist's notes, all entries together: the Verify page writes one entry a check (core/checklist.ITEMS:
#: 10), each note at most 10,000 characters; the report prints every note, and 1,000 notes of 10,000 characters
#: (10 MB, each entry within its own bounds) held ``report`` past 300 s laying out ~4,800 pages (probe15)
MAX_CHECKLIST_NOTES = 100_000

_CTX = "PlanFile"


# ------------------------------------------------------------------------------------------------ errors

class PlanFileError(ScenarioError):
    """A plan file that cannot be opened or saved. ``str(err)`` is one line fit for the user.

    Attributes: ``file`` (display name), ``problem``, ``field`` (dotted path or ``None``), ``why``.
    """

    def __init__(self, file: str | os.PathLike | None, problem: str, field: str | None = None,
                 why: str | None = None):
        self.file = _display_name(file)
        self.problem = _keep_id(problem, _one_line(problem))
        self.field = field
        self.why = _keep_id(why, _one_line(why)) if why else None
        # the sentence keeps its message id (and its parts theirs), so the app and ``--lang`` show it translated
        params = {"file": self.file, "problem": self.problem, "field": _one_line(field or ""),
                  "why": self.why or MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "invalid"))}
        if field:
            template = (QT_TRANSLATE_NOOP(_CTX, "{file}: {problem} (field {field}: {why})") if self.file
                        else QT_TRANSLATE_NOOP(_CTX, "{problem} (field {field}: {why})"))
        elif self.why:  # marked: Chinese puts a full-width colon after the file (ux26: "broken.json: 不是…")
            template = (QT_TRANSLATE_NOOP(_CTX, "{file}: {problem} ({why})") if self.file
                        else QT_TRANSLATE_NOOP(_CTX, "{problem} ({why})"))
        else:
            template = QT_TRANSLATE_NOOP(_CTX, "{file}: {problem}") if self.file else "{problem}"
        PlannerError.__init__(self, MsgStr.make(_CTX, template, **params))


def _display_name(file: str | os.PathLike | None) -> str:
    if file is None:
        return ""
    return _one_line(Path(os.fspath(file)).name or os.fspath(file))


def _keep_id(original, text: str):
    """``text`` with ``original``'s message id when making it one line changed nothing."""
    return original if isinstance(original, MsgStr) and text == original else text


def _one_line(text: str, limit: int = 300) -> str:
    text = re.sub(r"[\x00-\x1f\x7f\u2028\u2029]+", " ", str(text)).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ------------------------------------------------------------------------------------------------ model

class _Doc(NoBoolForNumbers):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class PriceRow(NoBoolForNumbers):
    """One row of the price table (same keys as ``resources/prices.json``); extra keys are kept."""

    model_config = ConfigDict(extra="allow", validate_assignment=True)

    gpu: str
    currency: Literal["CNY", "USD"]
    region: str | None = None
    provider: str | None = None
    card_hour: float | None = Field(None, ge=0)
    card_week: float | None = Field(None, ge=0)
    card_month: float | None = Field(None, ge=0)
    spot_card_hour: float | None = Field(None, ge=0)
    machine_gpus: int | None = Field(None, gt=0)
    source: str | None = None
    source_date: str | None = None
    notes: str | None = None

    _price_sign = field_validator("card_hour", "card_week", "card_month", "spot_card_hour",
                                  mode="before")(not_negative_price)


class PriceSnapshot(_Doc):
    """The prices the plan was costed with, copied into the file so the costs can be reproduced."""

    taken: datetime | None = None
    source: str = "built-in defaults"
    exchange_rate_cny_per_usd: float | None = Field(None, gt=0)
    prices: list[PriceRow] = Field(default_factory=list, max_length=MAX_PRICES)


class SelectedPlan(_Doc):
    """The configuration the user chose to rent.

    ``scenario`` is the plan's complete scenario (schema 3): the CLI, the report and the app evaluate it
    as it is. ``gpu``, ``num_gpus``, ``calendar_days`` and ``cost`` are a summary for people reading the
    file. ``parallel`` is the partial layout of schema 2 files whose scenario could not be rebuilt.
    """

    label: str = ""
    gpu: str
    num_gpus: int = Field(gt=0)
    gpus_per_node: int | None = Field(None, gt=0)
    scenario: Scenario | None = None
    parallel: ParallelSection | None = None
    provider: str | None = None
    currency: Literal["CNY", "USD"] | None = None
    card_hour: float | None = Field(None, ge=0)
    calendar_days: float | None = Field(None, ge=0)
    cost: float | None = Field(None, ge=0)


class ChecklistItem(_Doc):
    """One vendor check (e.g. ``nvlink_topology``) and whether it was confirmed."""

    id: str = Field(min_length=1, max_length=200)
    checked: bool = False
    note: str = Field("", max_length=10_000)  # as the Verify page's own notes (core/checklist.ChecklistEntry)


class BenchmarkResult(_Doc):
    """One measured number (from the verification tools), e.g. all-reduce bus bandwidth."""

    name: str = Field(min_length=1)
    value: float
    unit: str = ""
    gpu: str | None = None
    num_gpus: int | None = Field(None, gt=0)
    measured_at: datetime | None = None
    tool: str | None = None
    details: dict[str, Any] = Field(default_factory=dict)


#: the most a JSON number can hold exactly (IEEE double): counts above it are not a person's data description
_MAX_EXACT_INT = 2 ** 53


class UiState(_Doc):
    """How the app showed the plan and how the user described its inputs (schema 5; before: the free-form
    ``results.app_ui``). Every field is optional: a missing one takes the app's default, and a file without the
    input fields (a scenario file, an old plan) has the app describe the scenario's data as tokens.

    The input fields are the app's own way of writing a scenario value (the scenario keeps the value itself):
    the Data page's ``data.tokens`` as tokens (``tokens_text``, as typed), samples × average length, or GB of
    text × tokens per GB, times ``epochs``; whether the batch is given as a global batch or as accumulation
    steps (``batch_mode``); the deadline as days, a date or none; continuous or weekly working hours. Values are
    checked strictly (no text for numbers, no true/false for counts), with the bounds the app's fields accept.
    """

    model_config = ConfigDict(strict=True)

    current_page: str | None = Field(None, max_length=64)
    selected_plan: int | None = Field(None, ge=0, le=1_000_000)  # the chosen plan's rank in the search
    data_mode: Literal["tokens", "samples", "bytes"] | None = None
    tokens_text: str | None = Field(None, min_length=1, max_length=100)
    samples: int | None = Field(None, ge=0, le=_MAX_EXACT_INT)
    avg_len: int | None = Field(None, ge=0, le=_MAX_EXACT_INT)
    dataset_gb: float | None = Field(None, gt=0, allow_inf_nan=False)
    language: Literal["en", "zh", "code"] | None = None    # the text's language (sets tokens per GB)
    tokens_per_gb: float | None = Field(None, gt=0, allow_inf_nan=False)
    epochs: float | None = Field(None, gt=0, allow_inf_nan=False)
    batch_mode: Literal["global", "accum"] | None = None
    deadline_mode: Literal["days", "date", "none"] | None = None
    deadline_date: str | None = Field(None, pattern=r"^([0-9]{4}-[0-9]{2}-[0-9]{2})?$")
    work_mode: Literal["continuous", "weekly"] | None = None

    @field_validator("tokens_text")
    @classmethod
    def _count(cls, v: str | None) -> str | None:
        if v is not None:
            parse_count(v)  # ValueError with one line: "'x' is not a count; use e.g. 300B, 1.5T or 2e9"
        return v

    def inputs(self) -> dict[str, Any]:
        """The input fields the file sets (not the page shown), as the app's UI state dict."""
        return self.model_dump(exclude_none=True, exclude={"current_page"})

    @classmethod
    def valid_entries(cls, entries: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """Split ``entries`` into (those that are valid :class:`UiState` fields, the rest), one key at a time."""
        good: dict[str, Any] = {}
        bad: dict[str, Any] = {}
        for key, value in entries.items():
            if not isinstance(key, str) or key not in cls.model_fields or value is None:
                bad[key] = value
                continue
            try:
                cls.model_validate({key: value})
            except (ValidationError, ValueError, TypeError):
                bad[key] = value
            else:
                good[key] = value
        return good, bad


_ARCH_FIELDS = {f.name for f in dataclasses.fields(ModelArch)}
_ARCH_POSITIVE = {"hidden_size", "num_layers", "num_heads", "num_kv_heads", "head_dim", "vocab_size"}


def _arch_validator() -> type[BaseModel]:
    """A strict pydantic mirror of :class:`ModelArch` (counts non-negative, core sizes positive)."""
    hints = typing.get_type_hints(ModelArch)
    spec: dict[str, Any] = {}
    for f in dataclasses.fields(ModelArch):
        default = ... if f.default is dataclasses.MISSING else f.default
        ann = hints[f.name]
        if ann is int or ann == (int | None):
            spec[f.name] = (ann, Field(default, gt=0) if f.name in _ARCH_POSITIVE else Field(default, ge=0))
        else:
            spec[f.name] = (ann, default)
    # protected_namespaces=(): ModelArch has a ``model_type`` field (pydantic < 2.10 warns about ``model_`` names)
    return create_model("EmbeddedArch", __config__=ConfigDict(strict=True, extra="ignore", protected_namespaces=()),
                        **spec)


_ARCH_MODEL = _arch_validator()


class EmbeddedModel(_Doc):
    """The architecture read from ``scenario.model.hf_config`` when the plan was saved.

    ``arch`` holds ``dataclasses.asdict(ModelArch)``; keys a newer version added are kept as they are.
    """

    source: str
    captured: datetime | None = None
    arch: dict[str, Any]

    @field_validator("arch")
    @classmethod
    def _valid_arch(cls, v: dict[str, Any]) -> dict[str, Any]:
        known = {k: val for k, val in v.items() if k in _ARCH_FIELDS}
        try:
            _ARCH_MODEL.model_validate(known)
        except ValidationError as err:
            from ..core.scenario import format_validation_error

            raise ValueError(format_validation_error(err)) from None  # the field and why, keeping its message id
        return v

    def model_arch(self) -> ModelArch:
        return ModelArch(**{k: v for k, v in self.arch.items() if k in _ARCH_FIELDS})


def _now() -> datetime:
    return datetime.now(timezone.utc)


class PlanDocument(_Doc):
    """One plan: what the user wants to train, what they chose, and what they checked."""

    schema_version: int = CURRENT_SCHEMA
    app_version: str = __version__
    created: datetime = Field(default_factory=_now)
    modified: datetime = Field(default_factory=_now)
    #: a plan's title comes from a file (the app sets it from the file name, at most 255 bytes); the PDF lays it out
    #: as its heading: a 1 MB title held that layout for minutes, a 10 MB one crashed Qt (probe14)
    title: str = Field("", max_length=MAX_TITLE)
    notes: str = ""
    scenario: Scenario = Field(default_factory=Scenario)
    price_snapshot: PriceSnapshot | None = None
    selected_plan: SelectedPlan | None = None
    #: the Verify page writes one entry a check (core/checklist.ITEMS: 10); 100,000 entries took 10 s to open, a
    #: 20 MB file of them minutes (every pass over the file is per entry, probe14)
    vendor_checklist: list[ChecklistItem] = Field(default_factory=list, max_length=MAX_LIST)
    benchmarks: list[BenchmarkResult] = Field(default_factory=list, max_length=MAX_LIST)
    results: dict[str, Any] | None = None
    ui_state: UiState = Field(default_factory=UiState)
    embedded_model: EmbeddedModel | None = None
    project: Project | None = None
    quotes: list[VendorQuote] = Field(default_factory=list)
    #: what the file's scenarios hold (issue 35 round 16): ``"set"`` only the fields the user set (this writer,
    #: :func:`to_data`); ``"all"`` every field (a plan file without the key: the writers before round 16, set by
    #: :func:`from_data`). Both open the same way (every field a file holds is the user's); ``"all"`` also says so
    #: on open where it keeps a memory saver off (:data:`ALL_FIELDS_NOTE`).
    saved_fields: Literal["all", "set"] = "set"

    # keys this version does not know, as a nested dict mirroring the file (list items by int index)
    _unknown: dict = PrivateAttr(default_factory=dict)

    @property
    def unknown_fields(self) -> dict:
        return self._unknown

    @field_validator("schema_version")
    @classmethod
    def _current(cls, v: int) -> int:
        if v != CURRENT_SCHEMA:
            raise ValueError(MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "must be {n} after migration"), n=CURRENT_SCHEMA))
        return v

    @field_validator("created", "modified")
    @classmethod
    def _aware(cls, v: datetime) -> datetime:
        return v if v.tzinfo is not None else v.replace(tzinfo=timezone.utc)

    @field_validator("vendor_checklist")
    @classmethod
    def _notes_in_all(cls, v: list[ChecklistItem]) -> list[ChecklistItem]:
        total = sum(len(item.note) for item in v)
        if total > MAX_CHECKLIST_NOTES:
            raise ValueError(MsgStr.make(_CTX, QT_TRANSLATE_NOOP(
                _CTX, "the notes hold {got} characters in all; at most {n}"), got=total, n=MAX_CHECKLIST_NOTES))
        return v

    def checklist_state(self) -> dict[str, bool]:
        return {item.id: item.checked for item in self.vendor_checklist}


def new_document(scenario: Scenario | None = None, title: str = "", **fields: Any) -> PlanDocument:
    """A fresh plan (timestamps now, current schema and app version)."""
    now = _now()
    return PlanDocument(scenario=scenario or Scenario(), title=title, created=now, modified=now, **fields)


def price_snapshot(gpus: Iterable[str] | None = None, currency: str | None = None) -> PriceSnapshot:
    """Copy the built-in price rows (optionally only those for ``gpus`` / ``currency``) into a snapshot."""
    data = json.loads((resources.files("gpuplanner.resources") / "prices.json").read_text(encoding="utf-8"))
    wanted = set(gpus) if gpus is not None else None
    rows = [
        PriceRow.model_validate(r) for r in data.get("prices", [])
        if (wanted is None or r.get("gpu") in wanted) and (currency is None or r.get("currency") == currency)
    ]
    rate = (data.get("exchange_rate_cny_per_usd") or {}).get("value")
    return PriceSnapshot(taken=_now(), source="built-in defaults (resources/prices.json)",
                         exchange_rate_cny_per_usd=rate, prices=rows)


# ------------------------------------------------------------------------------------------- migrations

MIGRATIONS: dict[int, Callable[[dict], dict]] = {}


def migration(from_version: int) -> Callable[[Callable[[dict], dict]], Callable[[dict], dict]]:
    """Register ``fn(data) -> data`` that upgrades a schema ``from_version`` dict to ``from_version + 1``.

    A migration receives a private deep copy and may raise :class:`MigrationError` for malformed input.
    """

    def register(fn: Callable[[dict], dict]) -> Callable[[dict], dict]:
        if from_version in MIGRATIONS:
            raise RuntimeError(f"two migrations from schema {from_version}")
        MIGRATIONS[from_version] = fn
        return fn

    return register


class MigrationError(ValueError):
    """A field an old schema's plan cannot be upgraded with; ``why`` keeps its message id (shown translated)."""

    def __init__(self, field: str, why: str):
        self.field, self.why = field, why
        super().__init__(MsgStr.make(_CTX, "{field}: {why}", field=field, why=why))


#: what :func:`_take` says a field should have been (marked: the app and ``--lang`` show it translated)
_EXPECTED = {"dict": QT_TRANSLATE_NOOP(_CTX, "expected an object"), "list": QT_TRANSLATE_NOOP(_CTX, "expected a list"),
             "str": QT_TRANSLATE_NOOP(_CTX, "expected text")}


def _take(d: dict, key: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
    v = d.pop(key, None)
    if v is None:
        return default
    if not isinstance(v, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        why = (MsgStr.make(_CTX, _EXPECTED[names]) if names in _EXPECTED
               else MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "expected {kind}"), kind=names))
        raise MigrationError(key, why)
    return v


@migration(1)
def _migrate_1_to_2(d: dict) -> dict:
    """Schema 1 → 2 (see the module docstring for the schema 1 layout)."""
    out: dict[str, Any] = {}
    name = _take(d, "name", str)
    if name is not None:
        out["title"] = name
    saved = d.pop("saved", None)
    if saved is not None:
        out["created"] = out["modified"] = saved
    if "scenario" in d and d["scenario"] is None:
        raise MigrationError("scenario", MsgStr.make(_CTX, _EXPECTED["dict"]))
    scenario = _take(d, "scenario", dict, {})
    goal = _take(d, "goal", dict)
    if goal is not None:
        if "constraints" in scenario:
            raise MigrationError("scenario.constraints", MsgStr.make(_CTX, QT_TRANSLATE_NOOP(
                _CTX, "not allowed in schema 1 (use goal)")))
        goal = dict(goal)
        constraints: dict[str, Any] = {}
        if "deadline_days" in goal:
            constraints["deadline_days"] = goal.pop("deadline_days")
        if "budget_cny" in goal:
            constraints["budget"] = goal.pop("budget_cny")
            constraints["currency"] = "CNY"
        if "max_gpus" in goal:
            constraints["max_gpus"] = goal.pop("max_gpus")
        constraints.update(goal)  # anything else: unknown keys, kept and reported after migration
        scenario = {**scenario, "constraints": constraints}
    out["scenario"] = scenario
    prices = _take(d, "prices", list)
    if prices is not None:
        out["price_snapshot"] = {"source": "schema 1 file", "prices": prices}
    selected = _take(d, "selected", dict)
    if selected is not None:
        out["selected_plan"] = selected
    checklist = _take(d, "checklist", dict)
    if checklist is not None:
        out["vendor_checklist"] = [{"id": k, "checked": v} for k, v in checklist.items()]
    page = _take(d, "page", str)
    if page is not None:
        out["ui_state"] = {"current_page": page}
    d.pop("schema_version", None)
    out.update(d)  # app_version, notes and unknown keys pass through
    out["schema_version"] = 2
    return out


def selection_scenario(scenario: Any, selected: Any, snapshot: Any = None) -> dict | None:
    """The complete scenario of a schema 2 ``selected_plan``: the document's scenario with the selection's
    GPU, count and layout (fields the selection leaves out: sequence parallelism with Megatron tensor
    parallelism, no interleaving, no offload — what that version's search assumed) and the selection's own
    quote (``card_hour``, ``provider``, with the matching price-snapshot row's date) as the GPU's price.
    None when the result is not a valid scenario."""
    if not isinstance(scenario, dict) or not isinstance(selected, dict):
        return None
    out = copy.deepcopy(scenario)
    try:
        hw = dict(out.get("hardware") or {})
        hw["gpu"] = selected["gpu"]
        hw["num_gpus"] = selected["num_gpus"]
        if selected.get("gpus_per_node"):
            hw["gpus_per_node"] = selected["gpus_per_node"]
        out["hardware"] = hw
        par = selected.get("parallel")
        if isinstance(par, dict):
            fw = (out.get("training") or {}).get("framework", "hf")
            keep = {k: v for k, v in (out.get("parallel") or {}).items() if k == "auto"}
            tp = par.get("tp", 1)
            assumed = {"vpp": 1, "offload_optimizer": False, "offload_params": False,
                       "sequence_parallel": bool(fw == "megatron" and isinstance(tp, int) and tp > 1)}
            out["parallel"] = {**keep, **assumed, **par}
        if selected.get("card_hour") is not None:
            cons = dict(out.get("constraints") or {})
            prices = dict(cons.get("prices") or {})
            quote = {"card_hour": selected["card_hour"]}
            for key in ("currency", "provider"):
                if selected.get(key) is not None:
                    quote[key] = selected[key]
            rows = (snapshot or {}).get("prices") if isinstance(snapshot, dict) else None
            for row in rows if isinstance(rows, list) else []:
                if isinstance(row, dict) and row.get("gpu") == selected["gpu"] and \
                        row.get("provider") == selected.get("provider") and row.get("card_hour") == selected["card_hour"]:
                    if row.get("source_date"):
                        quote["date"] = row["source_date"]
                    for key in ("spot_card_hour", "machine_gpus"):
                        if row.get(key) is not None:
                            quote[key] = row[key]
                    break
            prices.setdefault(selected["gpu"], quote)
            cons["prices"] = prices
            out["constraints"] = cons
        return Scenario.model_validate(out).model_dump(mode="json", exclude_none=True)
    except (KeyError, TypeError, ValueError):
        return None


@migration(2)
def _migrate_2_to_3(d: dict) -> dict:
    """Schema 2 → 3: the selected plan carries its complete scenario; ``days`` becomes ``calendar_days``.
    A scenario that names no framework gets ``hf``, the framework schema ≤ 2 assumed (a scenario without one
    now lets the plan search choose it), so an old file keeps its meaning."""
    sc = d.get("scenario")
    if isinstance(sc, dict) and isinstance(sc.get("training", {}), dict):
        sc["training"] = {"framework": "hf", **(sc.get("training") or {})}
    sel = d.get("selected_plan")
    if sel is None:
        return d
    if not isinstance(sel, dict):
        raise MigrationError("selected_plan", MsgStr.make(_CTX, _EXPECTED["dict"]))
    if "days" in sel:
        sel["calendar_days"] = sel.pop("days")
    full = selection_scenario(d.get("scenario"), sel, d.get("price_snapshot"))
    if full is not None:
        sel["scenario"] = full
        sel.pop("parallel", None)
    return d


#: the project phase kind of a schema 3 plan's ``constraints.phase`` word
_KIND_OF_PHASE_WORD = {"research": "research", "burst": "burst", "stable": "training"}


@migration(3)
def _migrate_3_to_4(d: dict) -> dict:
    """Schema 3 → 4: the plan becomes a single-phase project whose phase runs the plan itself (no scenario of
    its own), named after the kind; a ``project`` already there (a hand-edited file) is kept as it is."""
    if "project" in d:
        return d
    sc = d.get("scenario")
    cons = sc.get("constraints") if isinstance(sc, dict) else None
    word = cons.get("phase") if isinstance(cons, dict) else None
    kind = _KIND_OF_PHASE_WORD.get(word if isinstance(word, str) else "stable", "training")
    d["project"] = {"phases": [{"name": kind, "kind": kind}]}
    return d


#: ``results.app_ui`` entries of schema ≤ 4 that the file keeps elsewhere (or that never held anything): dropped
_APP_UI_ELSEWHERE = {"page": "ui_state.current_page", "checklist": "vendor_checklist", "project": "project",
                     "custom_gpus": "scenario.hardware.custom_gpus"}


@migration(4)
def _migrate_4_to_5(d: dict) -> dict:
    """Schema 4 → 5: ``results.app_ui`` (the app's input state, free-form) becomes the typed ``ui_state``.

    Each valid entry moves (one at a time: a bad entry does not cost the good ones); entries the file keeps
    elsewhere are dropped (:data:`_APP_UI_ELSEWHERE`); what is left (an unknown key, a value of the wrong type or
    out of bounds, or an ``app_ui`` that is not an object) stays in ``results.app_ui``, where :func:`from_data`
    reports it. A value ``ui_state`` already holds (a hand-edited file) wins."""
    results = d.get("results")
    if not isinstance(results, dict) or "app_ui" not in results:
        return d
    app_ui = results["app_ui"]
    ui = d.get("ui_state", {})
    if not isinstance(app_ui, dict) or not isinstance(ui, dict):
        return d  # reported by from_data (app_ui) or rejected by validation (ui_state)
    entries = {k: v for k, v in app_ui.items() if k not in _APP_UI_ELSEWHERE and k not in ui}
    good, left = UiState.valid_entries(entries)
    left.update({k: v for k, v in app_ui.items() if k in ui and k not in _APP_UI_ELSEWHERE and ui[k] != v})
    d["ui_state"] = {**ui, **good}
    if left:
        results["app_ui"] = left
    else:
        del results["app_ui"]
    return d


@migration(5)
def _migrate_5_to_6(d: dict) -> dict:
    """Schema 5 → 6: the plan gains ``quotes`` (vendors' quote sheets), empty unless the file already has some."""
    d.setdefault("quotes", [])
    return d


def _short_int(v: int) -> str:
    """A whole number from a stranger's file as a few digits: ``schema_version`` 10**400 put 401 digits in the error
    line, and the one-line cap cut off "this version reads up to 6" (probe17)."""
    text = str(v)
    if len(text) <= 12:
        return text
    return MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "{head}… ({n} digits)"), head=text[:10],
                       n=f"{len(text.lstrip('-')):,}")


def migrate(data: dict, name: str = "") -> tuple[dict, int]:
    """Upgrade a parsed plan dict to :data:`CURRENT_SCHEMA`; returns (new dict, schema it was written in)."""
    version = data.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "not a GPU Planner plan")), "schema_version",
                            MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "must be a whole number")))
    if version < 1:
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "not a GPU Planner plan")), "schema_version",
                            MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "{v} is not a schema number"), v=_short_int(version)))
    if version > CURRENT_SCHEMA:
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "made by a newer GPU Planner (schema {n}); this version reads up to {m}"),
                n=_short_int(version), m=CURRENT_SCHEMA))
    original = version
    data = copy.deepcopy(data)  # a failed migration leaves the caller's dict untouched
    while version < CURRENT_SCHEMA:
        step = MIGRATIONS.get(version)
        if step is None:  # pragma: no cover - guarded by a test over the registry
            raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "no upgrade path from schema {n}"), n=version))
        try:
            data = step(data)
        except MigrationError as err:
            raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot upgrade a schema {n} plan"), n=version),
                                err.field, err.why) from None
        version += 1
        data["schema_version"] = version
    return data, original


# ------------------------------------------------------------------------------ unknown-field handling

def _model_types(annotation: Any) -> tuple[type[BaseModel] | None, bool]:
    """(model class found in the annotation, whether it is a list of them)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            cls, is_list = _model_types(arg)
            if cls is not None:
                return cls, is_list
        return None, False
    if origin is list:
        args = typing.get_args(annotation)
        if args and isinstance(args[0], type) and issubclass(args[0], BaseModel):
            return args[0], True
        return None, False
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation, False
    return None, False


def split_unknown(data: Any, cls: type[BaseModel]) -> tuple[Any, dict]:
    """Remove keys ``cls`` does not declare (recursively); returns (known data, unknown tree).

    Models that allow extra keys keep them (nothing is split there). Values of the wrong type are left
    for pydantic to reject with a field path.
    """
    if not isinstance(data, dict):
        return data, {}
    fields = cls.model_fields
    forbid = cls.model_config.get("extra") == "forbid"
    known: dict[str, Any] = {}
    unknown: dict[Any, Any] = {}
    for key, value in data.items():
        if key not in fields:
            if forbid:
                unknown[key] = value
            else:
                known[key] = value
            continue
        sub, is_list = _model_types(fields[key].annotation)
        if sub is not None and is_list and isinstance(value, list):
            items = []
            for i, item in enumerate(value):
                k, u = split_unknown(item, sub)
                items.append(k)
                if u:
                    unknown.setdefault(key, {})[i] = u
            known[key] = items
        elif sub is not None and not is_list and isinstance(value, dict):
            k, u = split_unknown(value, sub)
            known[key] = k
            if u:
                unknown[key] = u
        else:
            known[key] = value
    return known, unknown


def unknown_field_paths(doc: PlanDocument) -> list[str]:
    """Dotted paths of the unknown keys kept in ``doc`` (for the warning on open)."""
    return sorted(_paths_for(doc.unknown_fields, type(doc), ""))


def _key_text(key: str) -> str:
    """A key as shown in a message: plain names as they are, anything odd JSON-quoted (one line, short)."""
    if re.fullmatch(r"[A-Za-z0-9_\-]{1,60}", key):
        return key
    return json.dumps(key if len(key) <= 40 else key[:40] + "…")


def _paths_for(tree: dict, cls: type[BaseModel], prefix: str) -> list[str]:
    out: list[str] = []
    for key, value in tree.items():
        path = f"{prefix}.{_key_text(str(key))}" if prefix else _key_text(str(key))
        field = cls.model_fields.get(key) if isinstance(key, str) else None
        sub = _model_types(field.annotation) if field is not None else (None, False)
        if field is None or sub[0] is None or not isinstance(value, dict):
            out.append(path)
        elif sub[1]:
            for idx, item in value.items():
                out += _paths_for(item, sub[0], f"{path}[{idx}]") if isinstance(item, dict) else [f"{path}[{idx}]"]
        else:
            out += _paths_for(value, sub[0], path)
    return out


def _merge_unknown(data: Any, tree: dict) -> None:
    """Put the unknown keys back into the dumped ``data`` (in place); known values win."""
    for key, value in tree.items():
        if isinstance(key, int):
            if isinstance(data, list) and 0 <= key < len(data) and isinstance(value, dict):
                _merge_unknown(data[key], value)
            continue
        if not isinstance(data, dict):
            continue
        if key in data:
            if isinstance(data[key], (dict, list)) and isinstance(value, dict):
                _merge_unknown(data[key], value)
        else:
            data[key] = copy.deepcopy(value)


def _prune_nulls(data: Any, cls: type[BaseModel]) -> None:
    """Drop ``null`` values whose field default is ``None`` (they carry no information)."""
    if not isinstance(data, dict):
        return
    for name, field in cls.model_fields.items():
        if name not in data:
            continue
        value = data[name]
        if value is None and field.default is None:
            del data[name]
            continue
        sub, is_list = _model_types(field.annotation)
        if sub is None:
            continue
        if is_list and isinstance(value, list):
            for item in value:
                _prune_nulls(item, sub)
        elif not is_list:
            _prune_nulls(value, sub)


# ------------------------------------------------------------------------------------------------ load

def _decode(raw: bytes, name: str) -> str:
    if len(raw) > MAX_BYTES:
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "too large for a plan file (over {mb} MB)"),
            mb=MAX_BYTES // (1024 * 1024)))
    if not raw.strip():
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "empty file, not a plan")))
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "UTF-16 text; plan files are UTF-8")))
    if b"\x00" in raw:
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "binary data, not a plan file")))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "not UTF-8 text (invalid byte at offset {n})"),
            n=err.start)) from None
    return text[1:] if text.startswith("\ufeff") else text


def _parse(text: str, name: str) -> Any:
    if nesting_depth(text) > MAX_DEPTH:  # the safe reader's limit: what the CLI refuses, the app refuses too
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "not a plan: JSON nested too deeply")))
    try:
        return loads_finite(text, unique_keys=True)  # NaN, ±Infinity, 1e999, a key twice: refused naming it
    except json.JSONDecodeError as err:
        if err.pos >= len(text.rstrip()) or err.msg.startswith("Unterminated string"):
            raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "not valid JSON: the file ends too early (truncated?)"))) \
                from None
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "not valid JSON (line {line}, column {col}: {msg})"),
            line=err.lineno, col=err.colno, msg=json_reason(err.msg))) from None
    except RecursionError:
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "not a plan: JSON nested too deeply"))) from None
    except ValueError as err:  # NaN/Infinity, out-of-range floats, integers over the digit limit
        why = (MsgStr.make("Errors", "{field}: {message}", field=err.args[0], message=err.args[1])
               if len(err.args) == 2 else _one_line(str(err), 80))
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "not valid JSON ({why})"), why=why)) \
            from None


_SCENARIO_KEYS = set(Scenario.model_fields)


#: the open message of a plan an earlier version wrote (every scenario field, ``saved_fields`` absent): its fields
#: stay the user's as written, none is reset to "the tool's default" (issue 35 round 16: a value equal to the
#: default cannot be told from one the user chose, and the answer of an old file must not move on open)
ALL_FIELDS_NOTE = QT_TRANSLATE_NOOP(
    _CTX, "{name}: saved by an earlier GPU Planner, which wrote every field: the memory savers it writes off ({fields}) "
          "stay off as your choice, and the search does not try them; turn one on to plan with it")


def _all_fields_note(data: dict, doc: PlanDocument, name: str) -> list[str]:
    """:data:`ALL_FIELDS_NOTE` for a plan from an all-fields writer (``saved_fields`` absent) whose written-off
    savers are ones the search would otherwise try (``advisor_savers.set_saver_options``); else nothing."""
    if doc.saved_fields != "all":
        return []
    from ..core import advisor_savers
    from ..core.search import searched_frameworks

    s = doc.scenario
    try:
        arch = resolve_arch(s.model, None)  # a preset or explicit fields (a config path: the scenario's own tool)
        fws = searched_frameworks(s, bool(arch.is_moe), arch)[0]
    except (PlannerError, ValueError, TypeError, KeyError, OSError):
        fws = (s.training.framework,)
    try:
        keys = {k for keys, _ in advisor_savers.set_saver_options(s, fws) for k in keys}
    except (PlannerError, ValueError, TypeError, KeyError):  # a scenario the search refuses: nothing to say here
        return []
    off = [".".join(path) for k, path in advisor_savers.SAVER_FIELDS.items()
           if k in keys and advisor_savers.user_set(s, k) and not _at(s, path)]
    return [_warning(ALL_FIELDS_NOTE, name=name, fields=", ".join(off))] if off else []


def _at(m: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        m = getattr(m, part)
    return m


def _field_error(name: str, err: ValidationError) -> PlanFileError:
    first = err.errors()[0]
    if first.get("type") == "string_unicode":  # a lone surrogate in a length-checked field: the sentence of the others
        return PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "contains text that is not valid Unicode")))
    loc = ""
    for part in first.get("loc", ()):
        loc += f"[{part}]" if isinstance(part, int) else (f".{part}" if loc else str(part))
    msg = validation_line(first)  # the validator's own sentence (message id kept), and the value that failed
    return PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "invalid plan")), loc or "(document)", msg)


def _warning(text: str, /, **params: Any) -> MsgStr:
    """A warning about a file: the English sentence (a ``str`` for the CLI and logs) that keeps its message id,
    so the app shows it in the UI language (``ui.text.tr_msg``)."""
    return MsgStr.make(_CTX, text, **params)


def _app_ui_left(data: dict, name: str) -> list[str]:
    """The warning for the entries of a schema ≤ 4 ``results.app_ui`` that the migration could not move."""
    results = data.get("results")
    if not isinstance(results, dict) or "app_ui" not in results:
        return []
    left = results["app_ui"]
    if isinstance(left, dict):
        keys = [_key_text(str(k)) for k in left]
        fields = ", ".join(keys[:MAX_UNKNOWN_LISTED]) + (f" and {len(keys) - MAX_UNKNOWN_LISTED} more"
                                                         if len(keys) > MAX_UNKNOWN_LISTED else "")
    else:
        fields = "(not an object)"
    return [_warning(QT_TRANSLATE_NOOP(
        _CTX, "{name}: input settings that are not valid were left in results.app_ui and not used: {fields}"),
        name=name, fields=fields)]


def _check_list_sizes(data: dict, name: str) -> None:
    """The plan's lists of records bounded before any pass over them (migration, unknown keys, validation each walk
    every entry: 100,000 checklist entries took 10 s to open, probe14); the same bound as the fields'."""
    snapshot = data.get("price_snapshot")
    for key, v, bound in (("vendor_checklist", data.get("vendor_checklist"), MAX_LIST),
                          ("benchmarks", data.get("benchmarks"), MAX_LIST),
                          ("price_snapshot.prices", snapshot.get("prices") if isinstance(snapshot, dict) else None,
                           MAX_PRICES)):
        if isinstance(v, list) and len(v) > bound:
            raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "invalid plan")), key, MsgStr.make(
                _CTX, QT_TRANSLATE_NOOP(_CTX, "at most {n} entries, got {got}"), n=bound, got=len(v)))


def from_data(data: Any, name: str = "") -> tuple[PlanDocument, list[str]]:
    """Build a document from parsed JSON (migrating, splitting unknown keys); returns (doc, warnings)."""
    warnings: list[str] = []
    if not isinstance(data, dict):
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "not a plan: expected a JSON object, found {kind}"),
            kind={list: "a list", str: "text", bool: "true/false", type(None): "null"}.get(type(data), "a number")))
    if "schema_version" not in data:
        if data and set(data) <= _SCENARIO_KEYS:  # a plain scenario JSON: import it as a new plan
            # (its fields are those its writer set: a person, or this version's scenario_data)
            data = {"schema_version": CURRENT_SCHEMA, "scenario": data, "saved_fields": "set"}
            warnings.append(_warning(QT_TRANSLATE_NOOP(_CTX, "{name}: a scenario file, opened as a new plan"),
                                     name=name))
        else:
            raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "not a GPU Planner plan (no schema_version)")))
    _check_list_sizes(data, name)
    data, original = migrate(data, name)
    if "saved_fields" not in data:
        data = {**data, "saved_fields": "all"}  # the writers before round 16 wrote every field
    if original < CURRENT_SCHEMA:
        warnings.append(_warning(QT_TRANSLATE_NOOP(
            _CTX, "{name}: written in plan format {n}; saving will upgrade it to format {m}"),
            name=name, n=original, m=CURRENT_SCHEMA))
    if original < 5:
        warnings += _app_ui_left(data, name)
    known, unknown = split_unknown(data, PlanDocument)
    try:
        doc = PlanDocument.model_validate(known)
    except ValidationError as err:
        raise _field_error(name, err) from None
    except PlannerError as err:  # a validator that raised the project's own error
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "invalid plan")), getattr(err, "field", None) or "scenario",
                            error_text(err)) from None
    except (ValueError, TypeError, OverflowError) as err:  # defensive: never a traceback
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "invalid plan")), None, _one_line(error_text(err), 120)) from None
    doc._unknown = unknown
    warnings += _all_fields_note(data, doc, name)
    if unknown:
        paths = unknown_field_paths(doc)
        shown = ", ".join(paths[:MAX_UNKNOWN_LISTED]) + (f" and {len(paths) - MAX_UNKNOWN_LISTED} more"
                                                          if len(paths) > MAX_UNKNOWN_LISTED else "")
        warnings.append(_warning(QT_TRANSLATE_NOOP(
            _CTX, "{name}: unknown fields kept as they are (made by a newer GPU Planner?): {fields}"),
            name=name, fields=shown))
    try:  # whatever opens must also save
        json.dumps(to_data(doc), ensure_ascii=False, allow_nan=False).encode("utf-8")
    except UnicodeEncodeError:
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "contains text that is not valid Unicode"))) from None
    except (ValueError, TypeError, RecursionError) as err:
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "invalid plan")), None, _one_line(error_text(err), 120)) from None
    return doc, [w if _one_line(w, 1000) == w else _one_line(w, 1000) for w in warnings]


def loads(raw: bytes | str, name: str = "plan") -> tuple[PlanDocument, list[str]]:
    """Parse plan file content; returns (document, warnings). Raises :class:`PlanFileError`."""
    if isinstance(raw, str):
        try:
            raw = raw.encode("utf-8")
        except UnicodeEncodeError:
            raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "not UTF-8 text"))) from None
    return from_data(_parse(_decode(raw, name), name), name)


def read_bytes(path: str | os.PathLike, limit: int | None = None) -> bytes:
    """Read at most ``limit + 1`` bytes (default :data:`MAX_BYTES`) of ``path``; OS errors become
    :class:`PlanFileError`."""
    try:
        path = check_path(path, "plan file", special=False)  # NUL, unencodable, overlong: one line
    except UnsafeInput as err:
        raise PlanFileError(None, error_text(err)) from None  # the message names the file, made printable
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        try:
            if stat.S_ISDIR(os.fstat(fd).st_mode):
                raise IsADirectoryError
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO or a device: never read (it may not end)
                raise PlanFileError(path, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "not a regular file")))
            with os.fdopen(os.dup(fd), "rb") as fh:
                return fh.read((MAX_BYTES if limit is None else limit) + 1)
        finally:
            os.close(fd)
    except FileNotFoundError:
        raise PlanFileError(path, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "file not found"))) from None
    except IsADirectoryError:
        raise PlanFileError(path, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "is a folder, not a plan file"))) from None
    except PermissionError:
        raise PlanFileError(path, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot read the file (permission denied)"))) from None
    except OSError as err:
        raise PlanFileError(path, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot read the file ({why})"),
            why=err.strerror or err.__class__.__name__)) from None


def load(path: str | os.PathLike) -> tuple[PlanDocument, list[str]]:
    """Open a ``.gpuplan`` file; returns (document, warnings). Raises :class:`PlanFileError`."""
    path = Path(path)
    return loads(read_bytes(path), path.name)


# ------------------------------------------------------------------------------------------------ save

def scenario_data(scenario: Scenario) -> dict:
    """A scenario as a file keeps it: only the fields the user set, in every section (pydantic ``exclude_unset``).
    A field left out opens unset again, so what depends on it being unset (the tool's own defaults, the memory
    savers the search may try, GRPO's β) means after reopening what it meant before saving (issue 35 round 16).
    A section whose own fields were assigned in place (``doc.scenario.hardware.num_gpus = 16``: pydantic marks
    the field set, not the section) is written too, so no value set anywhere is lost."""
    return _set_only(scenario)


def _set_only(m: BaseModel) -> dict:
    """``m.model_dump(mode="json", exclude_unset=True)``, plus every nested model that holds a set field."""
    out = m.model_dump(mode="json", exclude_unset=True)
    for name in type(m).model_fields:
        value = getattr(m, name)
        if isinstance(value, BaseModel):
            sub = _set_only(value)
            if sub or name in out:
                out[name] = sub
    return out


def _phase_scenarios_as_set(data: dict, project: Project) -> dict:
    """The dumped ``project`` (``data``, in place) with each phase's own scenario as :func:`scenario_data`, and no
    per-user speed the user did not give (:func:`_speed_as_set`)."""
    phases = data.get("phases")
    for i, phase in enumerate(project.phases if isinstance(phases, list) else ()):
        if not (i < len(phases) and isinstance(phases[i], dict)):
            continue
        if phase.scenario is not None:
            phases[i]["scenario"] = scenario_data(phase.scenario)
        _speed_as_set(phases[i].get("inference"), phase.inference)
    return data


def _speed_as_set(data: Any, spec: Any) -> None:
    """An inference phase's ``tokens_per_s_per_user`` left out of ``data`` (in place) where the user gave none: an
    offline target's resolved "no speed" (``InferenceSpec._check``) is the rule's, not the user's. Written as null it
    read back as the user's choice, so clearing the offline target later kept "no latency target" instead of the
    default 20 tokens/s (issue 35 round 17, review17 #3, fixes17). A speed the user gave, null included, is kept."""
    if isinstance(data, dict) and spec is not None and "tokens_per_s_per_user" not in spec.model_fields_set:
        data.pop("tokens_per_s_per_user", None)


def project_data(project: Project) -> dict:
    """A project as the app keeps and the file writes it: its fields (nulls left out), each phase's own scenario
    with the fields the user set (:func:`scenario_data`)."""
    return _phase_scenarios_as_set(project.model_dump(mode="json", exclude_none=True), project)


def _scenarios_as_set(data: dict, doc: PlanDocument) -> None:
    """Every scenario of the dumped ``data`` (in place) as :func:`scenario_data`: the document's, the selected
    plan's and each project phase's."""
    data["scenario"] = scenario_data(doc.scenario)
    sel = doc.selected_plan
    if sel is not None and sel.scenario is not None and isinstance(data.get("selected_plan"), dict):
        data["selected_plan"]["scenario"] = scenario_data(sel.scenario)
    if doc.project is not None and isinstance(data.get("project"), dict):
        _phase_scenarios_as_set(data["project"], doc.project)


def to_data(doc: PlanDocument) -> dict:
    """The JSON object written for ``doc`` (unknown fields merged back). Its scenarios hold the fields the user set
    (:func:`scenario_data`, ``saved_fields: "set"``); the rest of the document every field."""
    data = doc.model_dump(mode="json")
    _prune_nulls(data, PlanDocument)
    _scenarios_as_set(data, doc)
    _merge_unknown(data, doc.unknown_fields)
    data["schema_version"] = CURRENT_SCHEMA
    data["saved_fields"] = "set"
    return data


def dumps(doc: PlanDocument) -> bytes:
    """Serialise: sorted keys, 2-space indent, UTF-8 (not ASCII-escaped), trailing newline."""
    try:
        text = json.dumps(to_data(doc), sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False)
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        raise PlanFileError(None, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot save: the text contains invalid characters"))) \
            from None
    except (ValueError, TypeError, RecursionError) as err:
        raise PlanFileError(None, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot save: {why}"), why=_one_line(str(err), 120))) \
            from None


def _umask() -> int:
    try:
        mask = os.umask(0o022)
        os.umask(mask)
        return mask
    except OSError:  # pragma: no cover
        return 0o022


_UMASK = _umask()


def _fsync_dir(folder: Path) -> None:
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# Temp files: ``.<target name>.<8 random characters>.gpuplanner-tmp`` next to the target. A save killed
# between creating and renaming its temp file leaves one behind; :func:`clean_stale_temps` removes those
# (and the ``….tmp`` names earlier versions used next to plan, autosave and recent-list files) once they
# are older than a minute, and never touches any other file.
TEMP_SUFFIX = ".gpuplanner-tmp"
STALE_TEMP_AGE_S = 60.0
_TEMP_RE = re.compile(r"^\..+\.[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX) + r"$")
_LEGACY_TEMP_RE = re.compile(r"^\.(?P<target>.+)\.[a-z0-9_]{8}\.tmp$")
_LEGACY_TARGETS = (SUFFIX, SUFFIX + BACKUP_SUFFIX, ".autosave", "recent.json")


def is_temp_name(name: str) -> bool:
    """Whether ``name`` is one of our atomic-write temp files (this version's or an earlier one's)."""
    if _TEMP_RE.match(name):
        return True
    m = _LEGACY_TEMP_RE.match(name)
    return bool(m) and m.group("target").endswith(_LEGACY_TARGETS)


def clean_stale_temps(folder: str | os.PathLike, min_age_s: float = STALE_TEMP_AGE_S,
                      now: float | None = None) -> list[Path]:
    """Delete the temp files killed saves left in ``folder``: only names :func:`is_temp_name` accepts, only
    regular files (no links) owned by this user and last written more than ``min_age_s`` ago (a save in
    progress in another window is younger). Returns what was removed; never raises."""
    removed: list[Path] = []
    now = time.time() if now is None else now
    uid = os.getuid() if hasattr(os, "getuid") else None
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not is_temp_name(entry.name):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(st.st_mode) or (uid is not None and st.st_uid != uid):
                continue
            if now - st.st_mtime < min_age_s:
                continue
            os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
    return removed


def file_stamp(path: str | os.PathLike) -> tuple[int, int] | None:
    """(modification time in ns, size) of ``path``, or ``None`` when it does not exist or cannot be read;
    compared before a save to notice that another program changed the file."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


def atomic_write(path: str | os.PathLike, data: bytes, backup: bool = True, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` atomically: temp file in the same folder, flush, fsync, replace.

    With ``backup``, the previous file is first copied (also atomically) to ``<name>.bak``. On any
    failure (a full disk, a read-only folder) the temp file is removed and ``path`` is untouched: there
    is never a truncated file. The OSError propagates. ``mode``: the new file's permission bits (default:
    the existing file's, else 0o666 less the umask).
    """
    refuse_nul(path)
    path = Path(path)
    if path.is_symlink():
        try:
            path = path.resolve()
        except (RuntimeError, OSError):  # a symlink loop: Python 3.12 raises RuntimeError("Symlink loop …"), a
            # traceback from every "-o"/"--save" onto one (probe17); 3.13 raises OSError(ELOOP)
            raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path)) from None
    folder = path.parent
    try:
        st = path.stat()
        old_mode, exists = stat.S_IMODE(st.st_mode), True
    except FileNotFoundError:
        old_mode, exists = 0o666 & ~_UMASK, False
    if exists and not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
        # a device, FIFO or socket (``-o /dev/null``, a link to one): os.replace would put a regular file in its
        # place (as root, /dev/null itself: probe14 found ``report -o /dev/full`` replacing the device node)
        raise NotRegularFile(errno.EINVAL, "not a regular file", str(path))
    if backup and exists:
        _write_temp_then_replace(path.with_name(path.name + BACKUP_SUFFIX), path.read_bytes(), old_mode, folder)
    _write_temp_then_replace(path, data, old_mode if mode is None else mode, folder)
    _fsync_dir(folder)


def _write_temp_then_replace(target: Path, data: bytes, mode: int, folder: Path) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name[:120]}.", suffix=TEMP_SUFFIX, dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.chmod(tmp, mode)
        except OSError:  # pragma: no cover - e.g. filesystems without permissions
            pass
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_output(path: str | os.PathLike, data: bytes, mode: int | None = None) -> Path:
    """Write an output file (kit script, PDF, PNG) atomically, without a ``.bak``: a complete file or, on
    any failure, the previous file (or none) and a :class:`PlanFileError` with one line saying why."""
    path = Path(path)
    try:
        atomic_write(path, data, backup=False, mode=mode)
    except OSError as err:
        raise PlanFileError(path, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot write ({why}); nothing was written"),
            why=os_reason(err))) from None
    return path


def check_writable_folder(path: str | os.PathLike) -> None:
    """Fail early, before a slow render, when ``path``'s folder cannot take a new file (missing, not a
    folder, or not writable). Raises :class:`PlanFileError`; the atomic write still decides in the end."""
    path = Path(path)
    try:
        refuse_nul(path)
    except NulInName as err:
        raise PlanFileError(path, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot write ({why}); nothing was written"),
            why=os_reason(err))) from None
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.exists():
        raise PlanFileError(path, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot write ({why}); nothing was written"),
            why=os_reason(FileNotFoundError())))
    if not folder.is_dir():
        raise PlanFileError(path, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot write ({why}); nothing was written"),
            why=os_reason(NotADirectoryError())))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PlanFileError(path, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot write ({why}); nothing was written"),
            why=os_reason(PermissionError(errno.EACCES, "Permission denied"))))
    try:
        special = not stat.S_ISREG(path.stat().st_mode) and not path.is_dir()  # links followed, as atomic_write
    except OSError:
        special = False
    if special:
        raise PlanFileError(path, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot write ({why}); nothing was written"),
            why=os_reason(NotRegularFile(errno.EINVAL, "not a regular file"))))


def check_not_input(path: str | os.PathLike, *inputs: str | os.PathLike | None) -> None:
    """Refuse an output path that names one of the command's input files (the same file, links and hard links
    followed): ``report plan.gpuplan -o plan.gpuplan`` replaced the plan with its PDF, and ``kit s.json -o s.json``
    the scenario with a shell script, without a word (probe15). Raises :class:`PlanFileError` before anything is
    rendered or written."""
    out = Path(path)
    for src in inputs:
        if src is None or str(src) in ("", "-"):
            continue
        try:
            same = os.path.samefile(out, src)
        except (OSError, ValueError):
            same = False
        if same:
            raise PlanFileError(out, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(
                _CTX, "cannot write ({why}); nothing was written"), why=MsgStr.make(_CTX, QT_TRANSLATE_NOOP(
                    _CTX, "it is the input file {name}; give the output another name"), name=_one_line(Path(src).name)[:80])))


def _save_error(path: Path, err: OSError) -> PlanFileError:
    return PlanFileError(path, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot save ({why}); the file on disk is unchanged"),
        why=os_reason(err)))


class NotRegularFile(OSError):
    """The output path names a device, FIFO or socket (:func:`atomic_write` never replaces one)."""


class NulInName(OSError):
    """The output path holds a NUL byte: no file system takes one (``os.stat`` raises ValueError, a traceback from
    ``-o``/``--rfq`` with one before probe18); refused as an unwritable name."""

    def __init__(self, path: str | os.PathLike):
        super().__init__(errno.EINVAL, "NUL in a file name", str(path).replace("\0", "\\0"))


def refuse_nul(path: str | os.PathLike) -> None:
    """Raise :class:`NulInName` when ``path`` holds a NUL byte."""
    if "\0" in os.fspath(path):
        raise NulInName(path)


def os_reason(err: OSError) -> str:
    """A short, user-facing reason for a failed write."""
    code = getattr(err, "errno", None)
    if isinstance(err, NotRegularFile):
        why = QT_TRANSLATE_NOOP(_CTX, "not a regular file (a device, pipe or socket); give a file name")
    elif isinstance(err, NulInName):
        why = QT_TRANSLATE_NOOP(_CTX, "a file name cannot hold a NUL byte")
    elif isinstance(err, PermissionError) or code in (errno.EACCES, errno.EPERM):
        why = QT_TRANSLATE_NOOP(_CTX, "permission denied; the folder may be read-only")
    elif code == errno.EROFS:
        why = QT_TRANSLATE_NOOP(_CTX, "the disk is read-only")
    elif code in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
        why = QT_TRANSLATE_NOOP(_CTX, "the disk is full")
    elif isinstance(err, FileNotFoundError) and _folder_is_there(err):
        # the folder is there and refuses a new file all the same (``-o /proc/x.sh``: "the folder does not exist"
        # blamed a folder the user can list; cli18)
        why = QT_TRANSLATE_NOOP(_CTX, "this folder does not take new files")
    elif isinstance(err, FileNotFoundError):
        why = QT_TRANSLATE_NOOP(_CTX, "the folder does not exist")
    elif isinstance(err, (FileExistsError, NotADirectoryError)):
        why = QT_TRANSLATE_NOOP(_CTX, "a file is in the way of the folder")
    else:
        why = err.strerror or err.__class__.__name__
    return why


def _folder_is_there(err: OSError) -> bool:
    """Whether the folder of the file a failed write named (``err.filename``) exists."""
    name = getattr(err, "filename", None)
    if not name:
        return False
    try:
        return Path(os.fsdecode(name)).parent.is_dir()
    except (OSError, ValueError, TypeError):
        return False


def _embed(doc: PlanDocument, base_dir: Path | None) -> tuple[EmbeddedModel | None, list[str]]:
    """The embedded architecture to store for ``doc`` (re-read from the path when it exists)."""
    ms = doc.scenario.model
    if not ms.hf_config:
        return None, []
    files = ModelFiles(base_dir)  # a path next to the plan, or a model id in the local Hugging Face cache
    try:
        path = files.path(ms.hf_config)
    except PlannerError:
        path = None
    if path is not None and path.exists():
        try:
            arch = files.load(ms.hf_config)
        except PlannerError as err:
            return None, [_warning(QT_TRANSLATE_NOOP(_CTX, "model not embedded: {why}"), why=str(err))]
        return EmbeddedModel(source=ms.hf_config, captured=_now(), arch=dataclasses.asdict(arch)), []
    if doc.embedded_model is not None and doc.embedded_model.source == ms.hf_config:
        return doc.embedded_model, []  # path missing here: keep what was embedded elsewhere
    return None, [_warning(QT_TRANSLATE_NOOP(_CTX, "model not embedded: {path} not found"), path=ms.hf_config)]


def save(doc: PlanDocument, path: str | os.PathLike, *, base_dir: str | os.PathLike | None = None,
         backup: bool = True, touch: bool = True) -> list[str]:
    """Save atomically (previous version kept as ``<name>.bak``); returns warnings.

    ``doc.modified``, ``app_version`` and ``embedded_model`` are updated only when the save succeeded.
    Relative ``model.hf_config`` paths resolve against ``base_dir`` (default: the plan's folder).
    """
    path = Path(path)
    base = Path(base_dir) if base_dir is not None else path.resolve().parent
    embedded, warnings = _embed(doc, base)
    updates: dict[str, Any] = {"embedded_model": embedded, "app_version": __version__}
    if touch:
        updates["modified"] = _now()
    staged = doc.model_copy(update=updates)
    staged._unknown = doc.unknown_fields
    try:
        payload = dumps(staged)
    except PlanFileError as err:
        raise PlanFileError(path, err.problem, err.field, err.why) from None
    try:
        atomic_write(path, payload, backup=backup)
    except OSError as err:
        raise _save_error(path, err) from None
    for key, value in updates.items():
        setattr(doc, key, value)
    return warnings


# ------------------------------------------------------------------------------- model resolution

def resolve_model(doc: PlanDocument, base_dir: str | os.PathLike | None = None) -> ModelArch:
    """The plan's model: from ``hf_config`` when the path exists, else from the embedded architecture.

    Explicit fields of ``scenario.model`` override the embedded architecture exactly as they override a
    config read from disk (:func:`gpuplanner.core.architecture.resolve_arch`).
    """
    base = Path(base_dir) if base_dir is not None else None
    ms = doc.scenario.model
    emb = doc.embedded_model
    files = ModelFiles(base, confine=True)  # a plan may come from someone else: its model stays in its folder
    if ms.hf_config and not ms.preset and emb is not None and emb.source == ms.hf_config:
        path = Path(ms.hf_config).expanduser()
        if not path.is_absolute() and base is not None:
            path = base / path
        if not path.exists() or not files.allowed(ms.hf_config):
            return resolve_arch(ms, _Embedded(emb.model_arch()))  # explicit fields override it as usual
    return resolve_arch(ms, files)


class _Embedded:
    """A ModelSource that answers with the plan's embedded architecture (the file it came from is not here)."""

    def __init__(self, arch: ModelArch):
        self.arch = arch

    def load(self, ref: str) -> ModelArch:
        return self.arch


_SECTION_FROM_ARCH = {v: k for k, v in EXPLICIT_FIELDS.items()}
_ARCH_DEFAULTS = {f.name: f.default for f in dataclasses.fields(ModelArch)}
_NORM_TYPES = typing.get_args(typing.get_args(ModelSection.model_fields["norm_type"].annotation)[0])


def selected_scenario(doc: PlanDocument) -> Scenario:
    """The scenario the plan file stands for: its selected plan's complete scenario, else the document's."""
    sel = doc.selected_plan
    return sel.scenario if sel is not None and sel.scenario is not None else doc.scenario


def scenario_for_estimate(doc: PlanDocument, base_dir: str | os.PathLike | None = None,
                          name: str = "", selected: bool = False) -> Scenario:
    """The scenario (``selected``: :func:`selected_scenario`), with a missing ``hf_config`` replaced by the
    embedded architecture's explicit fields.

    Used by :func:`gpuplanner.core.scenario.load_scenario`, which can only hand a :class:`Scenario` to the
    estimate. Architecture details that the scenario cannot express (``router_bias``, ``embedding_norm``,
    ``parallel_attn_mlp``, ``dropout``, the stored parameter count) fall back to their defaults there;
    :func:`resolve_model` keeps them.
    """
    scen = selected_scenario(doc) if selected else doc.scenario
    ms = scen.model
    base = Path(base_dir) if base_dir is not None else None
    if not (ms.hf_config and doc.embedded_model is not None and doc.embedded_model.source == ms.hf_config):
        return scen
    path = Path(ms.hf_config).expanduser()
    if not path.is_absolute() and base is not None:
        path = base / path
    if path.exists() and ModelFiles(base, confine=True).allowed(ms.hf_config):
        return scen
    try:
        arch = resolve_model(doc, base)
    except PlannerError as err:
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "the embedded model cannot be used")), None, error_text(err)) \
            from None
    fields: dict[str, Any] = {"name": arch.name}
    for arch_key, section_key in _SECTION_FROM_ARCH.items():
        value = getattr(arch, arch_key)
        if arch_key == "norm_type" and value not in _NORM_TYPES:
            continue
        if value == 0 and not isinstance(value, bool) and _positive_only(section_key):
            continue  # ModelArch uses 0 for "absent" where the scenario field must be > 0
        if section_key in WRITE_IF_SET and value == _ARCH_DEFAULTS.get(arch_key):
            continue  # text models: no vision or intake fields
        fields[section_key] = value
    try:
        section = ModelSection(**fields)
    except ValidationError as err:
        bad = _field_error(name, err)
        raise PlanFileError(name, MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "the embedded model cannot be used")),
                            f"embedded_model.arch.{bad.field}", bad.why) from None
    return scen.model_copy(update={"model": section})


def _positive_only(section_key: str) -> bool:
    return any(getattr(m, "gt", None) is not None for m in ModelSection.model_fields[section_key].metadata)


def scenario_from_plan(path: str | os.PathLike) -> tuple[Scenario, Path]:
    """Load a plan file for the CLI: (scenario ready to estimate, folder relative paths resolve against)."""
    path = Path(path)
    doc, _warnings = load(path)
    base = path.resolve().parent
    return scenario_for_estimate(doc, base, path.name, selected=True), base


def is_plan_file(path: str | os.PathLike) -> bool:
    return str(path).lower().endswith(SUFFIX)

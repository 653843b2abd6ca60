"""The app's single source of truth: the scenario being edited, plus its title, notes and UI state.

Pages write through :meth:`ScenarioModel.set` (dotted paths such as ``"training.seq_len"``); views
subscribe to :attr:`ScenarioModel.changed` and redraw what the named section touches (the napari /
Anki pattern: the model never knows its views). A value that does not validate is kept as *pending*
with its reason, so nothing typed is lost; the last valid scenario keeps driving the charts.
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QObject, Signal

from gpuplanner.core.messages import validation_reason
from gpuplanner.core.scenario import Scenario, format_validation_error

SECTIONS = ("model", "training", "parallel", "hardware", "data", "assumptions", "constraints")

# Tokens per GB of raw UTF-8 text. English: OpenAI's tokenizer guide ("one token generally corresponds
# to ~4 characters of common English text", help.openai.com, 2024) -> 1e9 bytes / 4 = 2.5e8.
# Chinese: 3 bytes per CJK character in UTF-8 (Unicode Standard §3.9) and roughly 1.4 characters per
# token for tokenizers with large CJK vocabularies (Qwen/GLM-class; a rough rule of thumb, not a
# measurement) -> 1e9 / 4.2 ~ 2.4e8. Code: ~3.5 bytes per token (rough). All editable in the app.
TOKENS_PER_GB = {"en": 2.5e8, "zh": 2.4e8, "code": 2.9e8}

DEFAULT_UI: dict[str, Any] = {
    "data_mode": "tokens",          # tokens | samples | bytes
    "tokens_text": "2B",
    "samples": 1_000_000,
    "avg_len": 1024,
    "dataset_gb": 10.0,
    "language": "en",
    "tokens_per_gb": TOKENS_PER_GB["en"],
    "epochs": 1.0,
    "batch_mode": "global",        # global | accum
    "deadline_mode": "days",        # days | date | none
    "deadline_date": "",
    "work_mode": "continuous",      # continuous | weekly
    "custom_gpus": [],              # list of dicts (shown in the catalog table)
    "checklist": {},                # vendor checklist: item id -> {"checked": bool, "notes": str}
    "project": None,                # the plan file's project (core.project.Project as JSON); None: one phase
    # the vendors' quotes (core.quotes.VendorQuote as JSON; the plan file's ``quotes``): without this entry
    # ``load`` dropped the opened plan's quotes, the Quotes page showed none, and the next edit there saved only the
    # vendors typed since over the file's (probe13)
    "quotes": [],
    "page": 0,
    "selected_plan": 0,
}

# UI keys that describe the session, not the document: changing them is not an edit (the dirty flag)
SESSION_UI_KEYS = ("page", "selected_plan")


DEFAULT_CANDIDATES = ("h100-sxm-80gb", "h800-sxm-80gb", "h20-96gb", "a100-sxm-80gb", "a800-sxm-80gb", "l40s-48gb",
                      "rtx-4090-24gb")


def default_scenario() -> Scenario:
    """The scenario a new document starts from (a small, common fine-tune that fits on one node).

    Its card is the one a Shenzhen team rents by the card-hour for such a job: NVIDIA H800 SXM5, priced from the
    price table's mainland list quote (resources/prices.json: AutoDL's 按量 card-hour rate, autodl.com homepage,
    2026-09-24) and the search's #1 for this very scenario (8 × H800, 7.9 hours, ¥667 on card-hours; issue 35 round
    15, choice15). It was 8 × H100 SXM5, which the mainland table prices only as whole machines by the month: the
    first screen said "¥70,000 (whole machines per month)" for a 10-hour job until the user took the search's #1."""
    return Scenario.model_validate({
        "model": {"preset": "llama-3.1-8b"},
        "training": {"method": "full", "seq_len": 4096, "micro_batch_size": 1, "global_batch_size": 64,
                     "recompute": "selective"},
        "parallel": {"zero": 3, "auto": True},
        "hardware": {"gpu": "h800-sxm-80gb", "num_gpus": 8, "gpus_per_node": 8},
        "data": {"tokens": 2e9},
        "constraints": {"deadline_days": 14, "currency": "CNY", "max_gpus": 64,
                        "gpu_candidates": list(DEFAULT_CANDIDATES)},
    })


def _get_path(data: dict, path: str, missing: Any = None) -> Any:
    """The value at dotted ``path`` in ``data``; ``missing`` where the path is not there."""
    cur: Any = data
    for part in path.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return missing
        cur = cur[part]
    return cur


#: an adopted plan's path the user never set (pydantic ``model_fields_set``): putting the user's value back leaves
#: it unset, so the search still treats it as the user's default (the memory savers the user left unset are search
#: options: core.advisor_savers, issue 35 round 15)
UNSET = object()


def _set_path(data: dict, path: str, value: Any) -> None:
    parts = path.split(".")
    if value is UNSET:
        _drop(data, parts)
        return
    cur = data
    for part in parts[:-1]:
        cur = cur.setdefault(part, {})
    cur[parts[-1]] = value


def _drop(data: dict, parts: list[str], copied: set[tuple[str, ...]] | None = None) -> None:
    """Remove the field at ``parts`` (one the user never set) and each section along the path it leaves empty, so
    the section reads unset again (pydantic ``model_fields_set``: issue 35 round 16; putting an adopted plan's
    ``hardware.gpu`` back left ``hardware: {}``, a section "set" with nothing in it). With ``copied`` (see
    :func:`_with_paths`) the dicts along the path are copied before they change."""
    cur, chain = data, []
    for i, part in enumerate(parts[:-1]):
        nxt = cur.get(part)
        if not isinstance(nxt, dict):
            return  # not there: nothing to remove
        key = tuple(parts[: i + 1])
        if copied is not None and key not in copied:
            nxt = dict(nxt)
            cur[part] = nxt
            copied.add(key)
        chain.append((cur, part, key))
        cur = nxt
    cur.pop(parts[-1], None)
    for parent, part, key in reversed(chain):
        if parent[part]:
            break
        del parent[part]
        if copied is not None:
            copied.discard(key)


def _with_paths(data: dict, values: dict[str, Any]) -> dict:
    """``data`` with each dotted path of ``values`` set, ``data`` itself left as it is: only the dicts along the
    paths are copied (a deep copy of the whole scenario cost ~1 ms per keystroke; validation never mutates its
    input, so the untouched branches can be shared)."""
    out = dict(data)
    copied: set[tuple[str, ...]] = set()
    for path, value in values.items():
        parts = path.split(".")
        if value is UNSET:  # (the user never set it: left unset)
            _drop(out, parts, copied)
            continue
        cur = out
        for i, part in enumerate(parts[:-1]):
            key = tuple(parts[: i + 1])
            nxt = cur.get(part)
            if key not in copied:
                nxt = dict(nxt) if isinstance(nxt, dict) else {}
                cur[part] = nxt
                copied.add(key)
            cur = nxt
        cur[parts[-1]] = value
    return out


class ScenarioModel(QObject):
    """The current document. ``changed(section)`` names what changed: one of :data:`SECTIONS`,
    ``"ui"``, ``"meta"`` (title/notes), ``"plan"`` (a plan was applied) or ``"all"`` (new document).

    Two scenarios live here. :meth:`user_scenario` is what the user set (the fields show it, the plan
    search takes it as input, Save writes it); :attr:`scenario` is what the live charts evaluate: the user's
    scenario with the adopted plan's layout on top (automatic layout). Adopting a plan is not an edit.

    ``dirty`` means "differs from the file on disk": :meth:`saved_state` (user scenario, title, notes and the
    saved UI state) is compared with the snapshot taken when the document was loaded or saved.
    """

    changed = Signal(str)
    errorsChanged = Signal()
    dirtyChanged = Signal(bool)

    def __init__(self, scenario: Scenario | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self._scenario = scenario or default_scenario()
        self._pending: dict[str, Any] = {}
        self._errors: dict[str, str] = {}
        self._core_errors: dict[str, str] = {}
        self.title = ""
        self.notes = ""
        self.ui: dict[str, Any] = copy.deepcopy(DEFAULT_UI)
        self.base_dir: Path | None = None
        self.path: Path | None = None
        self._dirty = False
        # paths a plan set (auto layout) -> the user's own value before it, so the search keeps its inputs
        self._plan_paths: dict[str, Any] = {}
        self._user: tuple[Scenario, dict] | None = None    # cached (user_scenario, its dump)
        self._clean_state: str | None = self.saved_state()  # None: modified whatever the state (recovered)

    # ------------------------------------------------------------------------------------- reading
    @property
    def scenario(self) -> Scenario:
        return self._scenario

    def value(self, path: str) -> Any:
        """The value shown for ``path``: a pending (invalid) entry if there is one, else the user's own value
        (:meth:`user_scenario`; an adopted plan's choices are not the user's and are shown apart)."""
        if path in self._pending:
            return self._pending[path]
        return _get_path(self._user_cached()[1], path)

    def error(self, path: str) -> str | None:
        return self._errors.get(path) or self._core_errors.get(path)

    def errors(self) -> dict[str, str]:
        out = dict(self._core_errors)
        out.update(self._errors)
        return out

    @property
    def dirty(self) -> bool:
        return self._dirty

    def _set_dirty_flag(self, dirty: bool) -> None:
        if dirty != self._dirty:
            self._dirty = dirty
            self.dirtyChanged.emit(dirty)

    def set_dirty(self, dirty: bool) -> None:
        """``False``: the current state is what is on disk (after Save/Open); ``True``: it is not, whatever
        it looks like (a recovered autosave), until the next :meth:`mark_clean`."""
        if dirty:
            self.mark_modified()
        else:
            self.mark_clean()

    def saved_state(self) -> str:
        """A canonical snapshot of what Save writes about the document: the user's scenario, title, notes
        and the UI state kept in the file (not the page shown or the plan selected: session state)."""
        ui = {k: v for k, v in self.ui.items() if k not in SESSION_UI_KEYS}
        from gpuplanner.io.planfile import scenario_data

        # the fields the user set, as Save writes them (round 16): an edit to a field's default value changes the file
        data = {"title": self.title, "notes": self.notes, "scenario": scenario_data(self.user_scenario()), "ui": ui}
        return json.dumps(data, sort_keys=True, default=str, ensure_ascii=False)

    def mark_clean(self) -> None:
        """The document as it is now matches the file (just loaded or saved)."""
        self._clean_state = self.saved_state()
        self._set_dirty_flag(False)

    def mark_modified(self) -> None:
        self._clean_state = None
        self._set_dirty_flag(True)

    def _update_dirty(self) -> None:
        self._set_dirty_flag(self._clean_state is None or self.saved_state() != self._clean_state)

    # ------------------------------------------------------------------------------------- writing
    def set(self, path: str, value: Any) -> str | None:
        """Set one scenario field. Returns the reason it is invalid (kept pending), or None."""
        return self.set_many({path: value}).get(path)

    def set_many(self, values: dict[str, Any], *, from_plan: bool = False) -> dict[str, str]:
        """Set several fields at once (one validation, one ``changed`` per touched section)."""
        before = self._scenario.model_dump()
        if not from_plan:
            if values.get("parallel.auto") is False and self._plan_paths:
                # manual layout: the adopted plan goes; the fields' (the user's) values drive the charts
                values = {**{p: v for p, v in self._plan_paths.items() if p not in values}, **values}
                self._plan_paths.clear()
            for p in values:
                self._plan_paths.pop(p, None)
            self._user = None
        self._pending.update(values)
        draft_paths = list(self._pending)
        errors: dict[str, str] = {}
        good = dict(self._pending)
        scenario = None
        # the fields the user never set stay unset (pydantic ``model_fields_set``): the search applies the memory
        # savers the user left unset where the defaults do not fit (core.advisor_savers, issue 35 round 15)
        written = self._scenario.model_dump(exclude_unset=True)
        for _ in range(len(draft_paths) + 1):
            data = _with_paths(written, good)
            try:
                scenario = Scenario.model_validate(data)
                break
            except ValidationError as err:
                bad = self._blame(err, good, list(values))
                for p, msg in bad.items():
                    errors[p] = msg
                    good.pop(p, None)
                if not bad:  # cannot attribute: reject everything new
                    for p in list(good):
                        errors.setdefault(p, format_validation_error(err))
                    good = {}
        if scenario is None:
            scenario = self._scenario
        self._pending = {p: v for p, v in self._pending.items() if p in errors}
        errors_changed = errors != self._errors
        self._errors = errors
        after = scenario.model_dump()
        after_written = scenario.model_dump(exclude_unset=True)
        self._scenario = scenario
        self._user = None
        # a section changes with its values or with the fields the user set (an edit to a default value: round 16)
        touched = [s for s in SECTIONS if before.get(s) != after.get(s) or written.get(s) != after_written.get(s)]
        if touched and not from_plan:  # adopting a plan leaves the user's scenario (what is saved) as it is
            self._update_dirty()
        for section in touched:
            self.changed.emit(section)
        if errors_changed or any(p in errors for p in values):
            self.errorsChanged.emit()
        return {p: errors[p] for p in values if p in errors}

    @staticmethod
    def _blame(err: ValidationError, good: dict[str, Any], newest: list[str]) -> dict[str, str]:
        """Map pydantic errors to the dotted paths the user edited."""
        out: dict[str, str] = {}
        for e in err.errors():
            loc = ".".join(str(x) for x in e.get("loc", ()))
            # the reason keeps its message id (core/messages.validation_reason): the field says it in the UI's
            # language, a range check ("less than or equal to 1") as much as a cross-field rule
            msg = validation_reason(e)
            target = None
            if loc in good:
                target = loc
            else:
                for p in good:
                    if loc and (p.startswith(loc + ".") or loc.startswith(p + ".")):
                        target = p
                        break
            if target is None:  # a cross-field rule: the field its message names, else an older pending value
                named = [p for p in good if f"{p}=" in msg]
                older = [p for p in good if p not in newest]
                latest = [p for p in reversed(newest) if p in good]
                for cand in (named, older, latest, list(good)[-1:]):
                    if cand:
                        target = cand[0]
                        break
            if target is not None and target not in out:
                out[target] = msg
        return out

    def discard_pending(self, path: str | None = None) -> None:
        if path is None:
            self._pending.clear()
            self._errors.clear()
        else:
            self._pending.pop(path, None)
            self._errors.pop(path, None)
        self.errorsChanged.emit()

    def set_core_errors(self, errors: dict[str, str]) -> None:
        """Errors the core reported for the current (schema-valid) scenario, keyed by field path."""
        if errors != self._core_errors:
            self._core_errors = dict(errors)
            self.errorsChanged.emit()

    def set_ui(self, key: str, value: Any) -> None:
        if self.ui.get(key) != value:
            self.ui[key] = value
            if key not in SESSION_UI_KEYS:
                self._update_dirty()
            self.changed.emit("ui")

    def set_mean_sample_len(self, value: int | None) -> str | None:
        """Set ``data.mean_sample_len``, the one average sample length: the Training page's "Mean sample length"
        and, while the Data page describes the data as samples × length, that page's "Average length". In that
        mode the data volume follows the length (samples × length × epochs, one validation) and the input state
        keeps the same length (``ui["avg_len"]``, what the plan file writes). Returns the reason it is refused."""
        if self.ui.get("data_mode") != "samples":
            return self.set("data.mean_sample_len", value)
        if value is None:
            return self.tr("The Data page gives the data as samples × length: enter the length")
        from gpuplanner.app.engine import unique_tokens

        try:
            tokens = unique_tokens({**self.ui, "avg_len": value}) * float(self.ui.get("epochs") or 1.0)
        except (ValueError, TypeError):
            return self.set("data.mean_sample_len", value)
        errors = self.set_many({"data.mean_sample_len": value, "data.tokens": tokens})
        if not errors:
            self.set_ui("avg_len", int(value))
        return errors.get("data.mean_sample_len") or errors.get("data.tokens")

    def set_meta(self, title: str | None = None, notes: str | None = None) -> None:
        changed = False
        if title is not None and title != self.title:
            self.title, changed = title, True
        if notes is not None and notes != self.notes:
            self.notes, changed = notes, True
        if changed:
            self._update_dirty()
            self.changed.emit("meta")

    def load(self, scenario: Scenario, *, title: str = "", notes: str = "", ui: dict | None = None,
             base_dir: Path | None = None, path: Path | None = None) -> None:
        """Replace the whole document (New/Open/Revert/recovery): scenario, title, notes, UI state, the
        adopted plan's memory and the clean snapshot. Nothing of the previous document stays."""
        self._scenario = scenario
        self._pending.clear()
        self._errors.clear()
        self._core_errors.clear()
        self.title, self.notes = title, notes
        self.ui = copy.deepcopy(DEFAULT_UI)
        given = {k: v for k, v in (ui or {}).items() if k in DEFAULT_UI}
        self.ui.update(given)
        self._describe(scenario, given)
        self.base_dir, self.path = base_dir, path
        self._plan_paths.clear()
        self._user = None
        self._clean_state = self.saved_state()
        self._set_dirty_flag(False)
        self.changed.emit("all")
        self.errorsChanged.emit()
        self.mark_clean()  # what the views may have normalised on "all" is the opened state, not an edit

    def _describe(self, scenario: Scenario, given: dict[str, Any]) -> None:
        """Make the input state describe ``scenario``: the scenario's values are what the plan means, the input
        state only how the user wrote them. What the file does not give (a scenario file, a plan that keeps only
        its checklist or project), or gives in a way that does not add up to the scenario (a damaged or
        hand-edited file, an entry the plan file could not read), is derived from the scenario: the data volume
        as tokens over one epoch, the working hours and the deadline from the constraints. Otherwise the next
        edit on the Data page would recompute the data volume from inputs that never produced it."""
        from gpuplanner.formatting import format_compact

        from gpuplanner.app.engine import unique_tokens

        tokens = scenario.data.tokens
        try:
            described = unique_tokens(self.ui) * float(self.ui.get("epochs") or 1.0)
        except (ValueError, TypeError, OverflowError):
            described = None
        # samples × length: the length is the scenario's mean sample length (one value, :meth:`set_mean_sample_len`)
        other_len = self.ui.get("data_mode") == "samples" and self.ui.get("avg_len") != scenario.data.mean_sample_len
        if ("data_mode" not in given or described is None or not math.isclose(described, tokens, rel_tol=1e-9)
                or other_len):
            self.ui.update(data_mode="tokens", epochs=1.0, tokens_text=format_compact(tokens, 6))
        continuous = scenario.constraints.hours_per_week >= 168
        if "work_mode" not in given or (self.ui["work_mode"] == "continuous") != continuous:
            self.ui["work_mode"] = "continuous" if continuous else "weekly"
        has_deadline = bool(scenario.constraints.deadline_days)
        if "deadline_mode" not in given or (self.ui["deadline_mode"] != "none") != has_deadline:
            self.ui["deadline_mode"] = "days" if has_deadline else "none"

    def apply_plan(self, values: dict[str, Any]) -> None:
        """Adopt a plan's hardware and layout: ``values`` are the dotted paths where the plan differs from
        the user's scenario (the search's input). A previously adopted plan is replaced, not layered: the
        paths it set that this plan leaves alone go back to the user's values. The user's own values are
        remembered so :meth:`user_scenario` (the plan search's input) is unchanged by adopting a plan, and
        adopting is not an edit (the document does not become modified)."""
        values = dict(values)
        restore = {p: v for p, v in self._plan_paths.items() if p not in values}
        written = self._scenario.model_dump(exclude_unset=True)
        for p in values:
            if p not in self._plan_paths:
                # the user's value as written (a section's dict: its set fields only), or UNSET
                self._plan_paths[p] = _get_path(written, p, UNSET)
        for p in restore:
            del self._plan_paths[p]
        self._user = None
        self.set_many({**restore, **values}, from_plan=True)
        self.changed.emit("plan")

    @property
    def plan_adopted(self) -> bool:
        """Whether an adopted plan changes some of the user's values (automatic layout)."""
        return bool(self._plan_paths)

    def _user_cached(self) -> tuple[Scenario, dict]:
        if self._user is None:
            scen = self._scenario
            if self._plan_paths:
                data = self._scenario.model_dump(exclude_unset=True)  # (unset fields stay unset: set_many)
                for p, v in self._plan_paths.items():
                    _set_path(data, p, v)
                try:
                    scen = Scenario.model_validate(data)
                except ValidationError:
                    scen = self._scenario
            self._user = (scen, scen.model_dump())
        return self._user

    def user_scenario(self) -> Scenario:
        """The scenario as the user set it: values an adopted plan changed are put back."""
        return self._user_cached()[0]

    def user_dump(self) -> dict[str, Any]:
        """``user_scenario().model_dump()``, made once per change of the user's inputs and shared: read it, never
        change it (the plan search compares it to decide whether its inputs changed)."""
        return self._user_cached()[1]

    def snapshot(self) -> dict[str, Any]:
        """Everything a plan file stores about the document (the user's scenario, not an adopted plan)."""
        return {"title": self.title, "notes": self.notes, "scenario": self.user_scenario().model_dump(mode="json"),
                "ui": copy.deepcopy(self.ui)}

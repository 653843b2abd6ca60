"""One model system: every file's model is a pydantic ``BaseModel``, every core result a stdlib dataclass.

- the scenario and the project validate as pydantic models: errors name the offending field (``training.seq_len``),
  the error's title is the model's name, ``model_json_schema`` describes the file format, assignments are checked;
- the core's result classes are ``dataclasses.dataclass(slots=True, frozen=True)`` (the few mutable ones are
  listed below with the reason), so a view cannot change a figure it was handed;
- no home-made model layer is back: nothing in the package imports pydantic-core directly or builds classes
  with ``exec``/``eval``.
"""

import copy
import dataclasses
import importlib
import pathlib
import pickle
import pkgutil
import re

import pytest
from pydantic import BaseModel, ValidationError

import gpuplanner.core
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.project import Project
from gpuplanner.core.scenario import Scenario, scenario_from_dict

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "gpuplanner"

#: core dataclasses that stay mutable, each with its reason
MUTABLE = {
    "gpuplanner.core.cost.PriceTable": "user quotes are added with set_quote(); prices are cached per GPU",
    "gpuplanner.core.search.Plan": "run_search fills in the framework's reason, link and warnings after ranking",
    "gpuplanner.core.search.SearchResult": "search() adds the relaxed-rules note and the first pass's counts",
    "gpuplanner.core.quotes.VendorResult": "compare() fills in each vendor's answers, risks, rank and reasons in turn",
}


# ------------------------------------------------------------------------------------------- validation

@pytest.mark.parametrize("data, message", [
    ({"training": {"seq_len": -1}}, "training.seq_len: Input should be greater than 0"),
    ({"training": {"bogus": 1}}, "training.bogus: "),
    ({"hardware": {"num_gpus": "eight"}}, "hardware.num_gpus: "),
    ({"parallel": {"tp": 2}, "hardware": {"num_gpus": 7}}, "hardware.num_gpus=7 is not divisible by tp·pp·cp=2"),
    ({"data": {"tokens": "abc"}}, "data.tokens: 'abc' is not a count"),
    ({"assumptions": {"measured_runs": [{"gpu": "h100_sxm", "mfu": 0.4, "num_gpus": 3, "tp": 2}]}},
     "assumptions.measured_runs.0: num_gpus must be divisible by tp·pp and by nodes"),
    ({"training": {"precision": "fp8_te_delayed", "fp8_recipe": "te_current"}}, "training: precision fp8_te_delayed"),
])
def test_a_validation_error_names_the_field(data, message):
    with pytest.raises(ScenarioError) as info:
        scenario_from_dict(data)
    text = str(info.value)
    assert text.startswith(message), text
    assert "\n" not in text and "function-" not in text


def test_the_error_title_is_the_model_and_the_location_is_the_path():
    with pytest.raises(ValidationError) as info:
        Scenario.model_validate({"training": {"seq_len": 0}})
    assert info.value.title == "Scenario"
    assert info.value.errors()[0]["loc"] == ("training", "seq_len")
    assert "function-after" not in str(info.value)


def test_assignment_is_validated():
    s = Scenario()
    s.training.seq_len = 4096
    assert s.training.seq_len == 4096 and "seq_len" in s.training.model_fields_set
    with pytest.raises(ValidationError):
        s.training.seq_len = -1
    with pytest.raises(ValidationError):
        s.training.micro_batch_size = float("nan")
    with pytest.raises(ValidationError):
        s.training.no_such_field = 1


@pytest.mark.parametrize("model", [Scenario, Project])
def test_model_json_schema_describes_the_file(model):
    schema = model.model_json_schema()
    assert schema["title"] == model.__name__ and schema["type"] == "object"
    assert set(model.model_fields) <= set(schema["properties"])
    if model is Scenario:
        training = schema["$defs"]["TrainingSection"]
        assert training["properties"]["seq_len"]["exclusiveMinimum"] == 0
        assert training["additionalProperties"] is False


def test_a_scenario_round_trips_through_json_copy_and_pickle():
    s = Scenario.model_validate({"training": {"method": "lora", "seq_len": 4096}, "hardware": {"num_gpus": 16}})
    assert Scenario.model_validate_json(s.model_dump_json()) == s
    assert pickle.loads(pickle.dumps(s)) == s and copy.deepcopy(s) == s
    c = s.model_copy(deep=True)
    c.training.seq_len = 1024
    assert s.training.seq_len == 4096


def test_every_model_is_a_pydantic_model():
    """The scenario, the project, the plan file, kit results and the checklist: one model system."""
    from gpuplanner.core import checklist, project, scenario
    from gpuplanner.io import planfile
    from gpuplanner.verify import acceptance, multinode

    found = 0
    for module in (scenario, project, checklist, planfile, acceptance, multinode):
        for obj in vars(module).values():
            if isinstance(obj, type) and obj.__module__ == module.__name__ and hasattr(obj, "model_fields"):
                assert issubclass(obj, BaseModel), obj
                found += 1
    assert found >= 20


# -------------------------------------------------------------------------------------------- results

def _core_dataclasses() -> list[type]:
    out = []
    for info in pkgutil.iter_modules(gpuplanner.core.__path__, "gpuplanner.core."):
        module = importlib.import_module(info.name)
        for obj in vars(module).values():
            if isinstance(obj, type) and obj.__module__ == module.__name__ and dataclasses.is_dataclass(obj):
                out.append(obj)
    return out


CORE_DATACLASSES = _core_dataclasses()


def test_the_core_has_its_result_classes():
    assert len(CORE_DATACLASSES) >= 45
    names = {c.__qualname__ for c in CORE_DATACLASSES}
    assert {"Evaluation", "Layout", "MemoryBreakdown", "TimeEstimate", "GPU", "ModelArch"} <= names


@pytest.mark.parametrize("cls", CORE_DATACLASSES, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_result_classes_are_slotted_frozen_stdlib_dataclasses(cls):
    name = f"{cls.__module__}.{cls.__qualname__}"
    params = cls.__dataclass_params__
    assert "__slots__" in cls.__dict__ and cls.__dictoffset__ == 0, f"{name}: no slots"
    assert params.frozen is (name not in MUTABLE), f"{name}: frozen={params.frozen}"


def test_mutable_list_is_current():
    names = {f"{c.__module__}.{c.__qualname__}" for c in CORE_DATACLASSES}
    assert set(MUTABLE) <= names


def test_an_evaluation_is_frozen_and_pickles():
    from gpuplanner.core.evaluate import evaluate

    ev = evaluate(Scenario.model_validate({"model": {"preset": "llama-3-8b"}}))
    with pytest.raises(dataclasses.FrozenInstanceError):
        ev.compute_days = 0.0
    with pytest.raises((dataclasses.FrozenInstanceError, AttributeError, TypeError)):
        ev.memory.weights = 0.0
    with pytest.raises((dataclasses.FrozenInstanceError, AttributeError, TypeError)):
        ev.note = "a view's own figure"     # no __dict__ to hide a figure in
    back = pickle.loads(pickle.dumps(ev))
    assert back.compute_days == ev.compute_days and back.layout == ev.layout and back.memory == ev.memory


# ------------------------------------------------------------------------------------- no home-made layer

def test_no_home_made_model_layer():
    assert not (PACKAGE / "core" / "record.py").exists() and not (PACKAGE / "core" / "fastclass.py").exists()
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT).as_posix()
        if re.search(r"^\s*(from pydantic_core\b|import pydantic_core\b)", text, re.M):
            offenders.append(f"{rel}: imports pydantic_core")
        if re.search(r"(?<![\w.])(exec|eval)\(", text) and "core/" in rel:
            offenders.append(f"{rel}: exec/eval")
    assert not offenders, offenders


def test_no_field_name_warns_on_the_oldest_pydantic_we_allow():
    """pyproject allows pydantic >= 2.6 (checked: the model, plan-file and hostile-input tests pass on 2.6.0).
    Before 2.10, a field named ``model_*`` warns at class creation unless the model clears
    ``protected_namespaces``: a warning a command would print on stderr."""
    from gpuplanner.core import checklist, project, scenario
    from gpuplanner.io import planfile
    from gpuplanner.verify import acceptance, multinode

    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'"pydantic>=2\.6"', text)
    models = [obj for module in (scenario, project, checklist, planfile, acceptance, multinode)
              for obj in vars(module).values()
              if isinstance(obj, type) and issubclass(obj, BaseModel) and obj.__module__ == module.__name__]
    models.append(planfile._arch_validator())
    for model in models:
        names = [n for n in model.model_fields if n.startswith("model_")]
        protected = model.model_config.get("protected_namespaces", ("model_",))
        clash = [n for n in names if any(n.startswith(ns) for ns in protected if ns == "model_")]
        assert not clash, f"{model.__name__}: {clash} (set protected_namespaces=())"

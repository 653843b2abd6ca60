"""core/record.py: a record validates exactly as the pydantic model of the same declarations would.

The schema check builds, for every record class of the scenario and the project, the pydantic ``BaseModel`` with
the same fields, bounds, defaults and validators, and compares the two pydantic-core schemas (functions and
classes by name; pydantic's JSON-schema metadata and refs left out). The behaviour checks cover what the app
uses of pydantic's model API."""

import copy
import pickle
import types
import typing
from typing import Any, Literal

import pydantic
import pytest
from pydantic_core import PydanticUndefined, ValidationError

from gpuplanner.core import project, scenario
from gpuplanner.core.record import Field, Record, field_validator, model_validator
from gpuplanner.core.scenario import Scenario, TrainingSection


def _records():
    out = []
    for module in (scenario, project):
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, Record) and obj.__module__ == module.__name__:
                out.append(obj)
    return list(dict.fromkeys(out))


RECORDS = _records()


# -------------------------------------------------------------------------------------- pydantic's mirror

def _substitute(annotation: Any, mirrors: dict) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, Record):
        return _mirror(annotation, mirrors)
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        return typing.Union[tuple(_substitute(a, mirrors) for a in args)]
    if origin is list:
        return list[_substitute(args[0], mirrors)]
    if origin is dict:
        return dict[args[0], _substitute(args[1], mirrors)]
    return annotation


def _mirror(cls: type, mirrors: dict) -> type:
    """The pydantic model with ``cls``'s declarations."""
    if cls in mirrors:
        return mirrors[cls]
    ns: dict[str, Any] = {"__annotations__": {}, "__module__": cls.__module__, "__qualname__": cls.__qualname__,
                          "model_config": pydantic.ConfigDict(**cls.model_config)}
    for name, info in cls.model_fields.items():
        ns["__annotations__"][name] = _substitute(info.annotation, mirrors)
        kw = dict(info.bounds, description=info.description)
        if info.default_factory is not None:
            factory = info.default_factory
            kw["default_factory"] = _mirror(factory, mirrors) if isinstance(factory, type) and issubclass(
                factory, Record) else factory
        elif info.default is not PydanticUndefined:
            kw["default"] = info.default
        ns[name] = pydantic.Field(**kw)
    for v in cls.__record_validators__:
        func = classmethod(v.func) if v.is_classmethod else v.func
        deco = (pydantic.model_validator(mode=v.mode) if v.is_model
                else pydantic.field_validator(*v.fields, mode=v.mode))
        ns[v.func.__name__] = deco(func)
    mirrors[cls] = type(cls.__name__, (pydantic.BaseModel,), ns)
    return mirrors[cls]


def _norm(schema: Any, defs: dict | None = None) -> Any:
    defs = {} if defs is None else defs
    if isinstance(schema, dict):
        if schema.get("type") == "definitions":
            defs.update({d["ref"]: d for d in schema["definitions"]})
            return _norm(schema["schema"], defs)
        if schema.get("type") == "definition-ref":
            return _norm(defs[schema["schema_ref"]], defs)
        return {k: _norm(v, defs) for k, v in schema.items() if k not in ("metadata", "ref", "serialization")}
    if isinstance(schema, (list, tuple)):
        return [_norm(x, defs) for x in schema]
    if isinstance(schema, type):
        return "class " + schema.__qualname__
    if callable(schema):
        return "function " + getattr(getattr(schema, "__func__", schema), "__qualname__", repr(schema))
    return schema


def test_every_record_is_found():
    names = {c.__name__ for c in RECORDS}
    assert {"Scenario", "TrainingSection", "ModelSection", "ConstraintsSection", "Project", "Phase"} <= names
    assert len(RECORDS) >= 20


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_schema_is_the_one_pydantic_builds(cls):
    mine = _norm(cls.__record_schema__())
    theirs = _norm(_mirror(cls, {}).__pydantic_core_schema__)
    assert mine == theirs


# -------------------------------------------------------------------------------------- behaviour

class Inner(Record):
    model_config = {"extra": "forbid", "validate_assignment": True, "allow_inf_nan": False}
    n: int = Field(1, gt=0, le=10)
    name: str | None = Field(None, max_length=5)


class Outer(Record):
    model_config = {"extra": "forbid", "validate_assignment": True, "allow_inf_nan": False}
    inner: Inner = Field(default_factory=Inner)
    items: list[Inner] = Field(default_factory=list, max_length=2)
    by_id: dict[str, Inner] | None = None
    x: float = 1.0
    mode: Literal["a", "b"] = "a"
    total: int = 0

    @field_validator("mode", mode="before")
    @classmethod
    def _lower(cls, v: Any) -> Any:
        return v.lower() if isinstance(v, str) else v

    @model_validator(mode="after")
    def _sum(self) -> "Outer":
        if self.x > 100:
            raise ValueError("x too large")
        return self


def test_validation_is_pydantics():
    o = Outer.model_validate({"inner": {"n": "3"}, "items": [{"n": 2}], "by_id": {"k": {"n": 4}}, "mode": "B"})
    assert o.inner.n == 3 and o.items[0].n == 2 and o.by_id["k"].n == 4 and o.mode == "b"
    for bad, loc, kind in [({"inner": {"n": 0}}, ("inner", "n"), "greater_than"),
                           ({"x": float("nan")}, ("x",), "finite_number"),
                           ({"extra": 1}, ("extra",), "extra_forbidden"),
                           ({"items": [{}, {}, {}]}, ("items",), "too_long"),
                           ({"mode": "c"}, ("mode",), "literal_error"),
                           ({"x": 101}, (), "value_error")]:
        with pytest.raises(ValidationError) as info:
            Outer.model_validate(bad)
        err = info.value.errors()[0]
        assert (err["loc"], err["type"]) == (loc, kind)
    assert isinstance(info.value, pydantic.ValidationError)


def test_assignment_is_validated_and_tracked():
    o = Outer()
    assert o.model_fields_set == set()
    o.x = 5
    assert o.x == 5.0 and o.model_fields_set == {"x"}
    with pytest.raises(ValidationError):
        o.x = float("inf")
    with pytest.raises(ValidationError):
        o.inner.n = 11
    with pytest.raises(ValidationError):
        o.nope = 1
    assert o.x == 5.0 and o.inner.n == 1
    with pytest.raises(ValidationError):
        o.x = 500            # the record's own check runs on assignment too, as in pydantic…
    assert o.x == 500        # …which, as pydantic does, has set the field before the check refused it


def test_dump_copy_equality_pickle():
    o = Outer(inner=Inner(n=2), mode="b")
    assert o.model_dump(exclude_unset=True) == {"inner": {"n": 2}, "mode": "b"}
    assert o.model_dump()["items"] == [] and o.model_dump(mode="json")["x"] == 1.0
    assert Outer.model_validate(o.model_dump()) == o
    assert '"mode":"b"' in o.model_dump_json()
    c = o.model_copy(update={"total": 7})
    assert c.total == 7 and o.total == 0 and "total" in c.model_fields_set and c.inner is o.inner
    d = o.model_copy(deep=True)
    assert d == o and d.inner is not o.inner
    assert pickle.loads(pickle.dumps(o)) == o and copy.deepcopy(o) == o
    assert o != Outer() and repr(Inner()) == "Inner(n=1, name=None)"
    with pytest.raises(TypeError):
        hash(o)


def test_a_record_inside_a_pydantic_model():
    class Host(pydantic.BaseModel):
        scenario: Scenario | None = None

    s = Scenario.model_validate({"training": {"method": "lora"}})
    h = Host(scenario=s)
    assert h.scenario is s
    assert Host.model_validate({"scenario": {"training": {"method": "qlora"}}}).scenario.training.method == "qlora"
    assert Host(scenario=s).model_dump()["scenario"]["training"]["method"] == "lora"
    with pytest.raises(ValidationError) as info:
        Host.model_validate({"scenario": {"training": {"seq_len": -1}}})
    assert info.value.errors()[0]["loc"] == ("scenario", "training", "seq_len")


def test_model_fields_describe_the_declarations():
    f = TrainingSection.model_fields["seq_len"]
    assert f.annotation is int and f.default == 2048 and not f.is_required()
    assert any(getattr(m, "gt", None) == 0 for m in f.metadata)
    assert TrainingSection.model_fields["preference"].default_factory is scenario.PreferenceSection
    assert not hasattr(TrainingSection, "seq_len")     # defaults live in model_fields, not on the class


def test_an_unsupported_field_type_is_refused():
    class Odd(Record):
        when: set[int] = Field(default_factory=set)

    with pytest.raises(TypeError, match="unsupported field type"):
        Odd()
    with pytest.raises(TypeError, match="unexpected keyword"):
        Field(1, multiple_of=2)

"""Validated records: the scenario's models, checked by pydantic-core's validator without pydantic's model layer.

Why: every command that reads a scenario imports ``pydantic`` (whose package import is cheap and lazy) and
pydantic-core (the compiled validator). The first ``pydantic.BaseModel`` subclass, however, loads pydantic's
model machinery — ``_model_construction``, ``_generate_schema``, ``types``, ``annotated_types``,
``json_schema``, and ``plugin._loader`` with ``importlib.metadata`` and ``email`` — and then builds each
model's schema in Python: about 0.13 s of the 0.39 s that ``gpuplanner estimate`` took (issue #20;
bench/results/startup-*.md). A :class:`Record` declares its fields the same way (annotations and
:func:`Field`), turns them into the pydantic-core schema pydantic itself would build for them, and hands
validation, assignment checks and serialisation to pydantic-core's ``SchemaValidator`` and
``SchemaSerializer``. So the checks, the lax conversions and the errors are pydantic's own
(``pydantic_core.ValidationError`` *is* ``pydantic.ValidationError``), and the object API the app uses is
pydantic's: ``model_validate``, ``model_dump``, ``model_dump_json``, ``model_copy``, ``model_fields``,
``model_fields_set``, ``model_config``; equality, copy and pickling as pydantic defines them
(pydantic/main.py: ``BaseModel.__copy__``, ``__deepcopy__``, ``__getstate__``, ``__eq__``, ``model_copy``;
pydantic/_internal/_generate_schema.py: the schema layout, model validators "before" around the fields and
"after" around the model). A pydantic model may hold a record as a field (``__get_pydantic_core_schema__``).

What a record field may be (the scenario's vocabulary, nothing more): ``int``, ``float``, ``bool``, ``str``,
``Any``, ``Literal[...]``, another record, ``list[X]``, ``dict[str, X]`` and ``X | None``; constraints
``gt ge lt le`` (numbers) and ``min_length max_length pattern`` (strings, lists). Anything else raises
``TypeError`` when the class is first used, so a new field type cannot slip through unchecked.
``tests/test_record.py`` checks every record's schema against the one pydantic builds for the same class.
"""

import copy as _copy
import sys
import types
from typing import Any, Literal, Union, get_args, get_origin

from pydantic_core import PydanticUndefined, SchemaSerializer, SchemaValidator, core_schema as cs

from .i18n import QT_TRANSLATE_NOOP
from .messages import MsgStr

__all__ = ["Record", "Field", "FieldInfo", "field_validator", "model_validator"]

_NUMBER_BOUNDS = ("gt", "ge", "lt", "le")
_LENGTH_BOUNDS = ("min_length", "max_length")


class _Bound:
    """One constraint as pydantic's ``FieldInfo.metadata`` holds it (an object with the bound as attribute)."""

    def __init__(self, name: str, value: Any) -> None:
        self.name = name
        setattr(self, name, value)

    def __repr__(self) -> str:
        return f"{self.name}={getattr(self, self.name)!r}"


class FieldInfo:
    """A declared field: pydantic's ``FieldInfo`` attributes the app reads (``annotation``, ``default``,
    ``default_factory``, ``description``, ``metadata``, ``is_required``)."""

    __slots__ = ("annotation", "default", "default_factory", "description", "bounds", "metadata")

    def __init__(self, default: Any = PydanticUndefined, *, default_factory: Any = None,
                 description: str | None = None, **bounds: Any) -> None:
        if default is not PydanticUndefined and default_factory is not None:
            raise TypeError("Field(): give a default or a default_factory, not both")
        self.annotation: Any = None
        self.default = default
        self.default_factory = default_factory
        self.description = description
        self.bounds = {k: v for k, v in bounds.items() if v is not None}
        self.metadata = [_Bound(k, v) for k, v in self.bounds.items()]

    def is_required(self) -> bool:
        return self.default is PydanticUndefined and self.default_factory is None

    def __repr__(self) -> str:
        return (f"FieldInfo(annotation={self.annotation!r}, default={self.default!r}, "
                f"required={self.is_required()}, bounds={self.bounds!r})")


def Field(default: Any = PydanticUndefined, *, default_factory: Any = None, description: str | None = None,
          gt: Any = None, ge: Any = None, lt: Any = None, le: Any = None, min_length: int | None = None,
          max_length: int | None = None, pattern: str | None = None) -> Any:
    """A field's default and constraints, as pydantic's ``Field`` takes them."""
    return FieldInfo(default, default_factory=default_factory, description=description, gt=gt, ge=ge, lt=lt,
                     le=le, min_length=min_length, max_length=max_length, pattern=pattern)


class _Validator:
    """A method marked by :func:`field_validator` or :func:`model_validator` (collected by the class)."""

    __slots__ = ("func", "fields", "mode", "is_model", "is_classmethod")

    def __init__(self, func: Any, fields: tuple[str, ...], mode: str, is_model: bool) -> None:
        self.is_classmethod = isinstance(func, classmethod)
        self.func = func.__func__ if self.is_classmethod else func
        self.fields = fields
        self.mode = mode
        self.is_model = is_model


def field_validator(*fields: str, mode: Literal["before", "after"] = "after"):
    """Run the decorated ``(cls, value)`` classmethod on these fields' input (pydantic's ``field_validator``,
    without the ``info`` argument)."""
    def mark(func: Any) -> _Validator:
        return _Validator(func, fields, mode, is_model=False)
    return mark


def model_validator(*, mode: Literal["before", "after"]):
    """``before``: a ``(cls, data)`` classmethod on the raw input; ``after``: a ``(self)`` method on the
    validated record, returning it (pydantic's ``model_validator``)."""
    def mark(func: Any) -> _Validator:
        return _Validator(func, (), mode, is_model=True)
    return mark


_setattr = object.__setattr__


class Record:
    """Base class of validated records (see the module's docstring)."""

    __slots__ = ("__dict__", "__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__")

    model_config: dict[str, Any] = {}
    model_fields: dict[str, FieldInfo] = {}
    __record_validators__: list[_Validator] = []

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        parent_fields: dict[str, FieldInfo] = {}
        parent_validators: dict[str, _Validator] = {}
        config: dict[str, Any] = {}
        for base in reversed(cls.__mro__[1:]):
            if issubclass(base, Record):
                parent_fields.update(base.__dict__.get("model_fields", {}))
                parent_validators.update(base.__dict__.get("_Record__own_validators", {}))
                config.update(base.__dict__.get("model_config", {}))
        config.update(cls.__dict__.get("model_config", {}))
        cls.model_config = config
        own_validators = {name: v for name, v in list(cls.__dict__.items()) if isinstance(v, _Validator)}
        for name, v in own_validators.items():  # the methods stay callable as they were written
            setattr(cls, name, classmethod(v.func) if v.is_classmethod else v.func)
        cls.__own_validators = own_validators
        cls.__record_validators__ = list({**parent_validators, **own_validators}.values())
        cls.model_fields = {**parent_fields, **_own_fields(cls)}
        for v in own_validators.values():
            missing = [f for f in v.fields if f not in cls.model_fields]
            if missing:
                raise TypeError(f"{cls.__name__}: validator for unknown fields {missing}")

    # ------------------------------------------------------------------ schema, validator, serializer

    @classmethod
    def __record_schema__(cls) -> dict[str, Any]:
        """The pydantic-core schema of this record (built once per class; read-only once built)."""
        return _once(cls, "schema", _record_schema)

    @classmethod
    def __record_validator__(cls) -> SchemaValidator:
        return _once(cls, "validator", lambda c: SchemaValidator(c.__record_schema__()))

    @classmethod
    def __record_serializer__(cls) -> SchemaSerializer:
        return _once(cls, "serializer", lambda c: SchemaSerializer(c.__record_schema__()))

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> dict[str, Any]:
        """A pydantic model with a record field validates it with the record's own schema (a fresh copy of
        its dicts and lists: pydantic may annotate the schemas it is given)."""
        return _fresh(cls.__record_schema__())

    # ------------------------------------------------------------------ construction

    def __init__(self, /, **data: Any) -> None:
        type(self).__record_validator__().validate_python(data, self_instance=self)

    @classmethod
    def model_validate(cls, obj: Any, *, strict: bool | None = None) -> Any:
        return cls.__record_validator__().validate_python(obj, strict=strict)

    # ------------------------------------------------------------------ attributes

    def __setattr__(self, name: str, value: Any) -> None:
        cls = type(self)
        if name.startswith("_"):
            _setattr(self, name, value)   # pydantic: a name that is not a field name is set as it is
            return
        attr = getattr(cls, name, None)
        if isinstance(attr, property):
            attr.__set__(self, value)
        elif cls.model_config.get("validate_assignment"):
            cls.__record_validator__().validate_assignment(self, name, value)
        elif name in cls.model_fields:
            self.__dict__[name] = value
            self.__pydantic_fields_set__.add(name)
        else:
            raise ValueError(MsgStr.make("Errors", QT_TRANSLATE_NOOP("Errors", '"{model}" object has no field "{name}"'),
                                         model=cls.__name__, name=name))

    @property
    def model_fields_set(self) -> set[str]:
        """The fields set explicitly (in the input or by assignment), not taken from defaults."""
        return self.__pydantic_fields_set__

    # ------------------------------------------------------------------ output

    def model_dump(self, *, mode: str = "python", include: Any = None, exclude: Any = None,
                   exclude_unset: bool = False, exclude_defaults: bool = False, exclude_none: bool = False,
                   round_trip: bool = False, warnings: bool = True) -> dict[str, Any]:
        return type(self).__record_serializer__().to_python(
            self, mode=mode, include=include, exclude=exclude, exclude_unset=exclude_unset,
            exclude_defaults=exclude_defaults, exclude_none=exclude_none, round_trip=round_trip,
            warnings=warnings)

    def model_dump_json(self, *, indent: int | None = None, include: Any = None, exclude: Any = None,
                        exclude_unset: bool = False, exclude_defaults: bool = False,
                        exclude_none: bool = False) -> str:
        return type(self).__record_serializer__().to_json(
            self, indent=indent, include=include, exclude=exclude, exclude_unset=exclude_unset,
            exclude_defaults=exclude_defaults, exclude_none=exclude_none).decode()

    # ------------------------------------------------------------------ copies (pydantic's semantics)

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Any:
        """A copy; ``update`` values are set without validation (as pydantic's ``model_copy`` does)."""
        if deep and update:
            copied = self.__copy__()
            memo: dict[int, Any] = {id(self): copied}
            for k, v in copied.__dict__.items():
                if k not in update:
                    copied.__dict__[k] = _copy.deepcopy(v, memo)
        else:
            copied = self.__deepcopy__() if deep else self.__copy__()
        if update:
            known = {k: v for k, v in update.items() if k in type(self).model_fields}
            copied.__dict__.update(known)
            copied.__pydantic_fields_set__.update(known)
        return copied

    def __copy__(self) -> Any:
        return _refill(type(self).__new__(type(self)), dict(self.__dict__), _copy.copy(self.__pydantic_extra__),
                       self.__pydantic_fields_set__)

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Any:
        memo = {} if memo is None else memo
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        return _refill(new, _copy.deepcopy(self.__dict__, memo), _copy.deepcopy(self.__pydantic_extra__, memo),
                       self.__pydantic_fields_set__)

    def __getstate__(self) -> dict[str, Any]:
        return {"__dict__": self.__dict__, "__pydantic_extra__": self.__pydantic_extra__,
                "__pydantic_fields_set__": self.__pydantic_fields_set__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        _refill(self, state.get("__dict__", {}), state.get("__pydantic_extra__"),
                state.get("__pydantic_fields_set__", ()))

    # ------------------------------------------------------------------ comparison and text

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        if type(self) is not type(other) or (self.__pydantic_extra__ or {}) != (other.__pydantic_extra__ or {}):
            return False
        if self.__dict__ == other.__dict__:   # pydantic's fast path: the whole dict at once
            return True
        names = type(self).model_fields
        if self.__dict__.keys() <= names.keys() and other.__dict__.keys() <= names.keys():
            return False
        return all(self.__dict__.get(k, PydanticUndefined) == other.__dict__.get(k, PydanticUndefined)
                   for k in names)

    __hash__ = None  # type: ignore[assignment]  # mutable, as pydantic's models

    def __iter__(self):
        yield from ((k, v) for k, v in self.__dict__.items() if k in type(self).model_fields)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self)})"

    def __str__(self) -> str:
        return " ".join(f"{k}={v!r}" for k, v in self)


# ---------------------------------------------------------------------------------------------- building

def _refill(obj: Record, values: dict, extra: Any, fields_set: Any) -> Record:
    """Set the four slots pydantic-core fills on validation (a copy, a deep copy, an unpickled record)."""
    _setattr(obj, "__pydantic_fields_set__", set(fields_set))
    _setattr(obj, "__pydantic_extra__", extra)
    _setattr(obj, "__pydantic_private__", None)
    _setattr(obj, "__dict__", values)
    return obj


def _once(cls: type, what: str, build: Any) -> Any:
    """``build(cls)``, made on first use and kept on this very class (a subclass builds its own)."""
    key = f"_record_{what}"
    value = cls.__dict__.get(key)
    if value is None:
        value = build(cls)
        setattr(cls, key, value)
    return value


def _fresh(schema: Any) -> Any:
    """A copy of a schema's dicts and lists (the functions and classes in it are shared)."""
    if isinstance(schema, dict):
        return {k: _fresh(v) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_fresh(v) for v in schema]
    return schema


def _own_fields(cls: type) -> dict[str, FieldInfo]:
    """The fields this class declares: annotated public names, their defaults taken off the class (pydantic
    keeps them only in ``model_fields``)."""
    annotations = cls.__dict__.get("__annotations__", {})
    module = sys.modules.get(cls.__module__)
    namespace = vars(module) if module is not None else {}
    fields: dict[str, FieldInfo] = {}
    for name, annotation in annotations.items():
        if name.startswith("_") or name in ("model_config", "model_fields"):
            continue
        if isinstance(annotation, str):   # ``from __future__ import annotations``: the names are defined by now
            annotation = eval(annotation, dict(namespace), {})  # noqa: S307 (our own source's annotation text)
        value = cls.__dict__.get(name, PydanticUndefined)
        info = value if isinstance(value, FieldInfo) else FieldInfo(value)
        info.annotation = annotation
        fields[name] = info
        if name in cls.__dict__:
            delattr(cls, name)
    return fields


def _record_schema(cls: type) -> dict[str, Any]:
    """The pydantic-core schema of a record, laid out as pydantic's ``GenerateSchema`` lays out a model."""
    config = cls.model_config
    core_config = cs.CoreConfig(title=cls.__name__)
    if config.get("allow_inf_nan") is not None:
        core_config["allow_inf_nan"] = config["allow_inf_nan"]
    if config.get("extra") is not None:
        core_config["extra_fields_behavior"] = config["extra"]
    if config.get("strict") is not None:
        core_config["strict"] = config["strict"]
    validators = cls.__record_validators__
    fields = {}
    for name, info in cls.model_fields.items():
        schema = _type_schema(info.annotation, info.bounds, f"{cls.__name__}.{name}")
        for v in validators:
            if not v.is_model and name in v.fields:
                schema = _wrap(cls, v, schema)
        if not info.is_required():
            schema = (cs.with_default_schema(schema, default_factory=info.default_factory,
                                             default_factory_takes_data=False)
                      if info.default_factory is not None else cs.with_default_schema(schema, default=info.default))
        fields[name] = cs.model_field(schema)
    inner: dict[str, Any] = cs.model_fields_schema(fields, model_name=cls.__name__, computed_fields=[])
    for v in validators:   # "before" model validators see the raw input, inside the model
        if v.is_model and v.mode == "before":
            inner = _wrap(cls, v, inner)
    schema = cs.model_schema(cls, inner, custom_init=False, root_model=False, config=core_config)
    for v in validators:   # "after" model validators see the record, outside it
        if v.is_model and v.mode != "before":
            schema = _wrap(cls, v, schema)
    return schema


def _wrap(cls: type, v: _Validator, schema: dict[str, Any]) -> dict[str, Any]:
    func = v.func.__get__(cls, type(cls)) if v.is_classmethod else v.func
    if v.mode == "before":
        return cs.no_info_before_validator_function(func, schema)
    if v.mode == "after":
        return cs.no_info_after_validator_function(func, schema)
    raise TypeError(f"{cls.__name__}: unsupported validator mode {v.mode!r}")


def _type_schema(annotation: Any, bounds: dict[str, Any], where: str) -> dict[str, Any]:
    """The schema of one annotation; ``bounds`` apply to the innermost value (a list's or string's length,
    a number's range)."""
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin in (Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1 and len(args) == 2:
            return cs.nullable_schema(_type_schema(rest[0], bounds, where))
        raise TypeError(f"{where}: only `X | None` unions are supported, not {annotation!r}")
    if origin is Literal:
        _only(bounds, (), where)
        return cs.literal_schema(list(args))
    if origin is list:
        _only(bounds, _LENGTH_BOUNDS, where)
        return cs.list_schema(_type_schema(args[0], {}, where), **bounds)
    if origin is dict:
        _only(bounds, (), where)
        return cs.dict_schema(_type_schema(args[0], {}, where), _type_schema(args[1], {}, where))
    if isinstance(annotation, type) and issubclass(annotation, Record):
        _only(bounds, (), where)
        return annotation.__record_schema__()
    if annotation is int:
        _only(bounds, _NUMBER_BOUNDS, where)
        return cs.int_schema(**bounds)
    if annotation is float:
        _only(bounds, _NUMBER_BOUNDS, where)
        return cs.float_schema(**bounds)
    if annotation is str:
        _only(bounds, _LENGTH_BOUNDS + ("pattern",), where)
        return cs.str_schema(**bounds)
    if annotation is bool:
        _only(bounds, (), where)
        return cs.bool_schema()
    if annotation is Any:
        _only(bounds, (), where)
        return cs.any_schema()
    raise TypeError(f"{where}: unsupported field type {annotation!r}")


def _only(bounds: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    extra = set(bounds) - set(allowed)
    if extra:
        raise TypeError(f"{where}: constraints {sorted(extra)} do not apply to this type")

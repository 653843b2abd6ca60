"""``dataclass`` as the standard library defines it, built with one compiled function per class instead of six.

Why: on Python 3.12, ``dataclasses.dataclass(frozen=True)`` writes the source of ``__init__``, ``__repr__``,
``__eq__``, ``__hash__``, ``__setattr__`` and ``__delattr__`` for each class and compiles each with its own
``exec``: about 1 ms per class, 50–70 ms for the 36 result classes ``gpuplanner estimate`` imports, a fifth of
the whole command (issue #20; bench/results/startup-s5-2026-12-02.md). Here the standard library still reads
the fields (``dataclasses.dataclass(init=False, repr=False, eq=False)``: defaults, ``field()``,
``__dataclass_fields__``, so :func:`dataclasses.fields`, :func:`~dataclasses.replace` and
:func:`~dataclasses.asdict` work as before); only ``__init__`` is compiled, and equality, hashing, ``repr`` and
the frozen checks are shared functions driven by each class's field names. What each method does is the
standard library's (Python 3.12 ``dataclasses``: ``_init_fn``, ``_repr_fn``, ``_cmp_fn``, ``_hash_fn``,
``_frozen_get_del_attr``, ``_hash_action``):

- ``__init__(self, <fields in order>)``: defaults and ``default_factory`` as in ``field()``; frozen classes set
  each value with ``object.__setattr__``; ``__post_init__`` runs last when the class has one; fields with
  ``init=False`` and a factory are set from it.
- ``__eq__``: same class, then the tuple of ``compare`` fields; ``__hash__``: hash of that tuple (hash-enabled
  fields) for frozen classes, ``None`` for mutable ones, unless the class defines ``__hash__`` itself.
- ``__repr__``: ``QualName(a=1, b='x')`` over ``repr`` fields, ``...`` on recursion.
- frozen: ``dataclasses.FrozenInstanceError`` on setting or deleting a field (any attribute of the class itself).
- a method the class body defines itself is kept.

Only what this package uses is supported: ``@dataclass`` and ``@dataclass(frozen=True)``; ``InitVar``,
``ClassVar`` and ``kw_only`` fields raise ``TypeError``. ``tests/test_fastclass.py`` compares every class built
here with the standard library's ``dataclass`` of the same fields.
"""

from __future__ import annotations

import dataclasses
from _thread import get_ident
from dataclasses import MISSING, FrozenInstanceError
from operator import attrgetter
from typing import Any

__all__ = ["dataclass"]


class _Factory:
    """The default of a parameter whose field has a ``default_factory`` (as dataclasses' own marker)."""

    def __repr__(self) -> str:
        return "<factory>"


_HAS_FACTORY = _Factory()


def dataclass(cls: type | None = None, /, *, frozen: bool = False) -> Any:
    """``@dataclass`` / ``@dataclass(frozen=True)`` (see the module's docstring)."""
    def wrap(c: type) -> type:
        return _process(c, frozen)
    return wrap if cls is None else wrap(cls)


def _process(cls: type, frozen: bool) -> type:
    own = dict(cls.__dict__)
    had_doc = bool(own.get("__doc__"))
    dataclasses.dataclass(cls, init=False, repr=False, eq=False, match_args=False)
    every = cls.__dict__["__dataclass_fields__"]
    flds = dataclasses.fields(cls)
    if len(flds) != len(every):
        raise TypeError(f"{cls.__qualname__}: ClassVar and InitVar fields are not supported here")
    if any(f.kw_only is True for f in flds):
        raise TypeError(f"{cls.__qualname__}: kw_only fields are not supported here")
    if frozen and ("__setattr__" in own or "__delattr__" in own):
        raise TypeError(f"Cannot overwrite attribute __setattr__ or __delattr__ in class {cls.__name__}")
    if "__init__" not in own:
        cls.__init__ = _init_fn(cls, flds, frozen)
    if not had_doc:
        cls.__doc__ = cls.__name__ + "(" + ", ".join(f.name for f in flds if f.init) + ")"
    cls.__fc_repr_names__ = tuple(f.name for f in flds if f.repr)
    cls.__fc_repr__ = staticmethod(_getter(cls.__fc_repr_names__))
    cls.__fc_compare__ = staticmethod(_getter(tuple(f.name for f in flds if f.compare)))
    if "__repr__" not in own:
        cls.__repr__ = _repr
    if "__eq__" not in own:
        cls.__eq__ = _eq
    _set_hash(cls, own, flds, frozen)
    if frozen:
        cls.__setattr__, cls.__delattr__ = _frozen_methods(cls, frozenset(f.name for f in flds))
    if "__match_args__" not in own:
        cls.__match_args__ = tuple(f.name for f in flds if f.init)
    return cls


def _getter(names: tuple[str, ...]):
    """A function returning the tuple of these attributes (a tuple even for one name, as dataclasses compare)."""
    if len(names) >= 2:
        return attrgetter(*names)
    if len(names) == 1:
        get = attrgetter(names[0])
        return lambda obj: (get(obj),)
    return lambda obj: ()


def _init_fn(cls: type, flds: tuple, frozen: bool):
    """Compile ``__init__`` (the one ``exec`` per class); its parameters are the fields' names."""
    namespace: dict[str, Any] = {"__fc_set": object.__setattr__, "__fc_HAS_FACTORY": _HAS_FACTORY}
    params: list[str] = []
    body: list[str] = []
    seen_default = False
    for f in flds:
        if f.name == "self":
            raise TypeError(f"{cls.__qualname__}: a field named 'self' is not supported here")
        value = f.name
        if f.default_factory is not MISSING:
            namespace[f"__fc_factory_{f.name}"] = f.default_factory
            if f.init:
                params.append(f"{f.name}=__fc_HAS_FACTORY")
                value = f"__fc_factory_{f.name}() if {f.name} is __fc_HAS_FACTORY else {f.name}"
            else:
                value = f"__fc_factory_{f.name}()"
        elif not f.init:
            continue   # read from the class attribute that holds the default
        elif f.default is not MISSING:
            namespace[f"__fc_default_{f.name}"] = f.default
            params.append(f"{f.name}=__fc_default_{f.name}")
        else:
            params.append(f.name)
        if f.init:
            has_default = f.default is not MISSING or f.default_factory is not MISSING
            if seen_default and not has_default:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
            seen_default = seen_default or has_default
        body.append(f"  __fc_set(self, {f.name!r}, {value})" if frozen else f"  self.{f.name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("  self.__post_init__()")
    source = f"def __init__(self{''.join(', ' + p for p in params)}):\n" + ("\n".join(body) or "  pass") + "\n"
    exec(source, namespace)  # noqa: S102 - our own field names, as dataclasses itself does
    fn = namespace["__init__"]
    fn.__qualname__ = f"{cls.__qualname__}.__init__"
    fn.__module__ = cls.__module__
    fn.__annotations__ = {**{f.name: f.type for f in flds if f.init}, "return": None}
    return fn


_repr_running: set[tuple[int, int]] = set()


def _repr(self) -> str:
    key = (id(self), get_ident())
    if key in _repr_running:
        return "..."
    _repr_running.add(key)
    try:
        cls = self.__class__
        return (cls.__qualname__ + "("
                + ", ".join([f"{n}={v!r}" for n, v in zip(cls.__fc_repr_names__, cls.__fc_repr__(self))]) + ")")
    finally:
        _repr_running.discard(key)


def _eq(self, other: Any) -> Any:
    if other.__class__ is self.__class__:
        get = self.__class__.__fc_compare__
        return get(self) == get(other)
    return NotImplemented


def _set_hash(cls: type, own: dict, flds: tuple, frozen: bool) -> None:
    """dataclasses' ``_hash_action`` for ``eq=True``, ``unsafe_hash=False``: a class that defines ``__hash__``
    keeps it; otherwise frozen classes hash their fields and mutable ones are unhashable."""
    class_hash = own.get("__hash__", MISSING)
    explicit = not (class_hash is MISSING or (class_hash is None and "__eq__" in own))
    if explicit:
        return
    if not frozen:
        cls.__hash__ = None
        return
    get = _getter(tuple(f.name for f in flds if (f.compare if f.hash is None else f.hash)))
    cls.__hash__ = lambda self: hash(get(self))


def _frozen_methods(cls: type, names: frozenset):
    """``__setattr__`` and ``__delattr__`` refusing to change a field (any attribute of ``cls`` itself)."""
    def __setattr__(self, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)
    return __setattr__, __delattr__

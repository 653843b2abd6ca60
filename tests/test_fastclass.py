"""core/fastclass.py builds classes that behave as the standard library's ``dataclass`` of the same fields:
the same constructor signature, defaults and factories, equality, hash, repr, frozen checks, ``fields``,
``replace``, ``asdict``, copies and pickling, for hand-made classes and for every class the core builds."""

import copy
import dataclasses
import importlib
import inspect
import pickle
import pkgutil
from dataclasses import FrozenInstanceError, field

import pytest

import gpuplanner.core
from gpuplanner.core import fastclass


def _sample(make, name: str):
    """The same class body under either decorator, as a module-level class (so that it pickles)."""
    @make
    class Sample:
        """A sample."""

        a: int
        b: tuple = field(default_factory=tuple)
        c: float = 1.5
        d: str = field(default="x", compare=False, repr=False)
        e: list = field(default_factory=list, init=False, compare=False, hash=False)
    Sample.__qualname__ = Sample.__name__ = name
    globals()[name] = Sample
    return Sample


SAMPLES = {frozen: (_sample(dataclasses.dataclass(frozen=frozen), f"Std{frozen}"),
                    _sample(fastclass.dataclass(frozen=frozen), f"Fast{frozen}")) for frozen in (True, False)}


def _pair(frozen: bool):
    return SAMPLES[frozen]


@pytest.mark.parametrize("frozen", [True, False])
def test_same_behaviour_as_dataclasses(frozen):
    std, fast = _pair(frozen)
    assert str(inspect.signature(std)) == str(inspect.signature(fast))
    assert [f.name for f in dataclasses.fields(std)] == [f.name for f in dataclasses.fields(fast)]
    assert std.__match_args__ == fast.__match_args__
    for args in [(1,), (2, (3,), 2.5, "y")]:
        s, f = std(*args), fast(*args)
        assert repr(s).replace(std.__name__, "X") == repr(f).replace(fast.__name__, "X")
        assert dataclasses.asdict(s) == dataclasses.asdict(f)
        assert (s == std(*args)) and (f == fast(*args))
        assert f != fast(99) and (f == s) is False          # another class is never equal
        if frozen:
            assert hash(s) == hash(f)
            with pytest.raises(FrozenInstanceError, match="cannot assign to field 'a'"):
                f.a = 5
            with pytest.raises(FrozenInstanceError, match="cannot delete field 'c'"):
                del f.c
        else:
            assert fast.__hash__ is None and std.__hash__ is None
            f.a = 5
            assert f.a == 5
        assert f.e == [] and f.e is not fast(1).e          # a fresh factory value per instance
        assert dataclasses.replace(f, c=9.0).c == 9.0
        assert pickle.loads(pickle.dumps(f)) == f and copy.deepcopy(f) == f and copy.copy(f) == f
    with pytest.raises(TypeError):
        fast()                                             # a required field is required


def test_compare_false_fields_do_not_count():
    _, fast = _pair(True)
    assert fast(1, d="one") == fast(1, d="two") and hash(fast(1, d="one")) == hash(fast(1, d="two"))


def test_post_init_and_own_methods_are_kept():
    @fastclass.dataclass(frozen=True)
    class P:
        n: int = 0

        def __post_init__(self):
            object.__setattr__(self, "double", self.n * 2)

        def __repr__(self):
            return "mine"

    assert P(3).double == 6 and repr(P(3)) == "mine"


def test_recursive_repr():
    @fastclass.dataclass
    class Node:
        child: object = None

    n = Node()
    n.child = n
    assert repr(n) == f"{Node.__qualname__}(child=...)"


def test_unsupported_fields_are_refused():
    with pytest.raises(TypeError, match="non-default argument"):
        @fastclass.dataclass
        class Bad:
            a: int = 1
            b: int
    with pytest.raises(TypeError, match="kw_only"):
        @fastclass.dataclass
        class Kw:
            a: int = field(kw_only=True, default=1)


def _core_classes():
    for info in pkgutil.iter_modules(gpuplanner.core.__path__):
        module = importlib.import_module(f"gpuplanner.core.{info.name}")
        for obj in vars(module).values():
            if isinstance(obj, type) and obj.__module__ == module.__name__ and "__fc_compare__" in obj.__dict__:
                yield obj


CORE = sorted(_core_classes(), key=lambda c: f"{c.__module__}.{c.__qualname__}")


def test_the_core_builds_its_classes_here():
    assert len(CORE) >= 36


@pytest.mark.parametrize("cls", CORE, ids=lambda c: c.__qualname__)
def test_every_core_class_has_the_standard_signature(cls):
    """The standard library's dataclass of the same fields takes the same arguments with the same defaults."""
    flds = dataclasses.fields(cls)
    std = dataclasses.make_dataclass(cls.__name__, [(f.name, f.type, c) for f, c in zip(flds, _copies(flds))])
    assert str(inspect.signature(cls)) == str(inspect.signature(std))


def _copies(flds):
    out = []
    for f in flds:
        kw = dict(init=f.init, repr=f.repr, hash=f.hash, compare=f.compare, metadata=f.metadata)
        if f.default is not dataclasses.MISSING:
            kw["default"] = f.default
        if f.default_factory is not dataclasses.MISSING:
            kw["default_factory"] = f.default_factory
        out.append(field(**kw))
    return out

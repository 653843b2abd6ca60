"""Fuzzing the plan loader (Hypothesis).

Property, for every input: ``planfile.loads`` either returns a document or raises ``PlanFileError`` whose
message is one line naming the file. A document that loads must save, and what it saves must load back
to an equal document (unknown fields included) and save to the same bytes.

The normal suite runs a few hundred examples per strategy (derandomised, so CI is reproducible); the
``slow`` tests run 10,000 per strategy: ``pytest -m slow tests/test_planfile_fuzz.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuplanner.io import planfile
from gpuplanner.io.planfile import PlanDocument, PlanFileError

ROOT = Path(__file__).resolve().parents[1]
SEEDS = [p.read_bytes() for p in sorted((Path(__file__).parent / "data" / "plans").glob("v*.gpuplan"))] + [
    p.read_bytes() for p in sorted((ROOT / "examples").glob("*.gpuplan"))]
NAME = "fuzz.gpuplan"


def _field_names(cls, out: set[str]) -> set[str]:
    for name, field in cls.model_fields.items():
        out.add(name)
        sub, _ = planfile._model_types(field.annotation)
        if sub is not None and sub.__name__ not in out:
            out.add(sub.__name__)
            _field_names(sub, out)
    return out


KEYS = sorted(k for k in _field_names(PlanDocument, set()) if k[0].islower())

scalars = (st.none() | st.booleans() | st.integers(min_value=-(10**30), max_value=10**30)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20)
           | st.sampled_from(["bf16", "lora", "h100-sxm-80gb", "llama-3-8b", "2B", "1e9", "", "2026-01-01T00:00:00Z"]))
keys = st.sampled_from(KEYS) | st.text(max_size=8)
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(keys, children, max_size=5),
    max_leaves=25,
)


def check(raw: bytes) -> None:
    try:
        doc, warnings = planfile.loads(raw, NAME)
    except PlanFileError as err:
        msg = str(err)
        assert msg.startswith(NAME + ": "), msg
        assert "\n" not in msg and "\r" not in msg and len(msg) < 1000, msg
        return
    assert all(isinstance(w, str) and "\n" not in w for w in warnings)
    saved = planfile.dumps(doc)
    again, _ = planfile.loads(saved, NAME)
    # the writer marks what it wrote (round 16): a plan of an earlier writer reopens as "set", the same otherwise
    assert again == doc.model_copy(update={"saved_fields": "set"})
    assert again.saved_fields == "set"
    assert again.unknown_fields == doc.unknown_fields
    assert planfile.dumps(again) == saved


# a dict with a schema_version and real section names: reaches migration and validation
plan_shaped = st.fixed_dictionaries(
    {"schema_version": st.sampled_from([1, 2, 2, 2, 3, 0, "2", None, 2.0, True])},
    optional={k: json_values for k in ("scenario", "title", "name", "goal", "vendor_checklist", "checklist",
                                       "price_snapshot", "prices", "selected_plan", "ui_state", "benchmarks",
                                       "results", "embedded_model", "created", "saved", "notes")},
)


@st.composite
def mutated_valid(draw) -> bytes:
    """A valid seed file with 1-3 structural edits at random paths (delete, replace, insert, retype)."""
    data = json.loads(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 3))):
        node = data
        # walk down a random path
        for _depth in range(draw(st.integers(0, 5))):
            if isinstance(node, dict) and node:
                key = draw(st.sampled_from(sorted(node)))
                if not isinstance(node[key], (dict, list)) or not node[key]:
                    break
                node = node[key]
            elif isinstance(node, list) and node:
                nxt = node[draw(st.integers(0, len(node) - 1))]
                if not isinstance(nxt, (dict, list)) or not nxt:
                    break
                node = nxt
            else:
                break
        op = draw(st.sampled_from(["delete", "replace", "insert", "retype"]))
        if isinstance(node, dict):
            key = draw(st.sampled_from(sorted(node))) if node else None
            if op == "delete" and key is not None:
                del node[key]
            elif op == "insert" or key is None:
                node[draw(keys)] = draw(json_values)
            elif op == "retype":
                value = node[key]
                node[key] = [value] if not isinstance(value, list) else {"v": value}
            else:
                node[key] = draw(json_values)
        elif isinstance(node, list):
            if op == "delete" and node:
                node.pop(draw(st.integers(0, len(node) - 1)))
            elif op == "insert" or not node:
                node.insert(draw(st.integers(0, len(node))), draw(json_values))
            else:
                node[draw(st.integers(0, len(node) - 1))] = draw(json_values)
    return json.dumps(data, ensure_ascii=draw(st.booleans())).encode("utf-8")


@st.composite
def byte_mutated(draw) -> bytes:
    """A seed file with byte-level damage: truncation, deletion, insertion or overwrite."""
    raw = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 3))):
        pos = draw(st.integers(0, len(raw)))
        op = draw(st.sampled_from(["truncate", "delete", "insert", "overwrite"]))
        if op == "truncate":
            del raw[pos:]
        elif op == "delete":
            del raw[pos:pos + draw(st.integers(1, 50))]
        elif op == "insert":
            raw[pos:pos] = draw(st.binary(min_size=1, max_size=8) | st.sampled_from(
                [b"{", b"}", b"[", b"]", b",", b'"', b":", b"null", b"1e999", b"-", b"\\u", b"\xff"]))
        else:
            raw[pos:pos + 1] = draw(st.binary(min_size=1, max_size=1))
    return bytes(raw)


STRATEGIES = {
    "random_bytes": st.binary(max_size=300),
    "random_json": json_values.map(lambda v: json.dumps(v).encode("utf-8")),
    "plan_shaped_json": plan_shaped.map(lambda v: json.dumps(v).encode("utf-8")),
    "mutated_valid_file": mutated_valid(),
    "byte_mutated_file": byte_mutated(),
}

_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                      HealthCheck.filter_too_much])
FAST = settings(max_examples=100, derandomize=True, database=None, **_COMMON)
SLOW = settings(max_examples=10_000, **_COMMON)


def _make(strategy, config):
    @config
    @given(raw=strategy)
    def run(raw: bytes) -> None:
        check(raw)

    return run


@pytest.mark.parametrize("kind", sorted(STRATEGIES))
def test_loader_fuzz(kind):
    _make(STRATEGIES[kind], FAST)()


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(STRATEGIES))
def test_loader_fuzz_10k(kind):
    _make(STRATEGIES[kind], SLOW)()


def test_seeds_load_and_round_trip():
    assert len(SEEDS) >= 6  # v1, v2 fixtures and the four examples
    for raw in SEEDS:
        doc, _ = planfile.loads(raw, NAME)
        check(raw)
        assert doc.scenario is not None


def test_check_catches_a_broken_loader(monkeypatch):
    """The fuzz property can fail: a loader leaking a bare exception is caught by ``check``."""
    monkeypatch.setattr(planfile, "_parse", lambda text, name: 1 // 0)
    with pytest.raises(ZeroDivisionError):
        check(b"{}")
    monkeypatch.undo()
    monkeypatch.setattr(planfile, "to_data", lambda doc: {"schema_version": 2, "title": "changed"})
    with pytest.raises(AssertionError):
        check(SEEDS[1])

"""Golden record of ``architecture.arch_from_hf_config`` (issue #15: the reader became table-driven, and must read
every config exactly as before).

``tests/data/arch_golden/inputs.json`` holds every config.json the test suite gave the reader (recorded while the
tests that call it ran: test_params, test_intake, test_vision, test_memory*, test_hostile_input, test_planfile,
test_flops, test_hf_cache and tests_validate/test_pytorch_vision), every shipped preset and a few hand-written
configs for branches no test reached (Falcon's new decoder, RefinedWeb, LLaVA-NeXT with SigLIP, InternVL
without tiling). Each base config is also read in deterministic variants: every key (top level and one level
down) deleted, set to ``None``, a string, 0, 1, −1, 2.5, ``True``, ``False``, 2⁴¹, ``{}`` and ``[]``; and, for
one config per ``model_type``, every key any config uses added with a small and a boolean value (aliases such as
``n_embd`` beside ``hidden_size`` must keep their precedence).

``tests/data/arch_golden/expected.json`` was written by the reader *before* the refactor: per base config its
result in full (the ModelArch fields that differ from the defaults, or the error: type, field, the English line
and the message id with its parameters) and one digest of all its variants' results. Regenerate only when a
change of behaviour is intended: ``python tests/test_arch_golden.py --write``. Rewritten once since, when the
reader's last plain-English errors got message ids (issue #15): the English lines, error types and fields of all
55,956 configs read were compared before and after and were byte-identical; only the recorded ids are new.
Re-recorded in issue 35 round 10 for configs that describe no model (decoder_sparse_step 0 with experts; then
head_dim 0, moe_intermediate_size 0 on Qwen-MoE/DeepSeekMoE, num_local_experts 0 on Mixtral): every outcome was
compared before and after; only variants holding such a 0 went from read to refused, and no read result changed.
Re-recorded in issue 35 round 14 (probe14: MLA ``kv_lora_rank`` / ``v_head_dim`` must be ≥ 1; fp8block14: the reader
reads ``quantization_config.weight_block_size``): of every outcome compared before and after, 1,041 read results
gained only ``weight_block_n`` / ``weight_block_k``, 19 variants holding a 0 rank or head dim and 20 holding a malformed
block size went from read to refused, and 356 refusals of a bad ``kv_lora_rank`` now say "≥ 1"; nothing else moved.
Re-recorded in issue 35 round 15 (probe15: an error names the key the file holds, e.g. Qwen2-MoE's ``num_experts``,
not its alias ``num_local_experts``): of all 55,670 variants read with the old and the new reader, 330 outcomes differ,
each only in the key its refusal names.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import sys
from pathlib import Path

import pytest

from gpuplanner.core import architecture as A
from gpuplanner.core.errors import PlannerError

DATA = Path(__file__).parent / "data" / "arch_golden"
MUTATIONS: list[object] = ["<delete>", None, "x", 0, 1, -1, 2.5, True, False, 1 << 41, {}, []]
ADDED = [7, True]
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(A.ModelArch) if f.default is not dataclasses.MISSING}


def _msg(m: object) -> object:
    """A message with its id (MsgStr: context, template, parameters; nested messages too), else the string."""
    if hasattr(m, "context") and hasattr(m, "params"):
        return {"s": str(m), "ctx": m.context, "text": m.text, "params": {k: _msg(v) for k, v in m.params.items()}}
    return m if isinstance(m, (int, float, bool, type(None))) else str(m)


def outcome(cfg: object, name: str | None) -> dict:
    """What the reader makes of one config: the fields that differ from ModelArch's defaults, or the error."""
    try:
        a = A.arch_from_hf_config(cfg, name)
    except PlannerError as err:
        return {"error": type(err).__name__, "field": getattr(err, "field", None), "msg": _msg(err.args[0])}
    out = {}
    for f in dataclasses.fields(a):
        v = getattr(a, f.name)
        if f.name not in _DEFAULTS or _DEFAULTS[f.name] != v or type(_DEFAULTS[f.name]) is not type(v):
            out[f.name] = v
    return {"arch": out}


def _key(o: dict) -> str:
    return json.dumps(o, sort_keys=True, ensure_ascii=False)


def _paths(cfg: dict) -> list[tuple[str, ...]]:
    out = []
    for k in sorted(cfg):
        out.append((k,))
        if isinstance(cfg[k], dict):
            out.extend((k, k2) for k2 in sorted(cfg[k]))
    return out


def _set(cfg: dict, path: tuple[str, ...], value: object) -> dict:
    new = copy.deepcopy(cfg)
    d = new
    for k in path[:-1]:
        d = d[k]
    if value == "<delete>" and isinstance(value, str):
        del d[path[-1]]
    else:
        d[path[-1]] = copy.deepcopy(value)
    return new


def variants(cfg: object, universe: list[str], add_keys: bool):
    """The variants of one base config, in a fixed order."""
    if not isinstance(cfg, dict):
        return
    for path in _paths(cfg):
        for m in MUTATIONS:
            yield _set(cfg, path, m)
    if add_keys:
        for k in universe:
            if k not in cfg:
                for v in ADDED:
                    yield {**cfg, k: v}


def _bases() -> list[list]:
    return json.loads((DATA / "inputs.json").read_text(encoding="utf-8"))


def _plan(bases: list[list]) -> tuple[list[str], list[bool]]:
    universe = sorted({k for cfg, _ in bases if isinstance(cfg, dict) for k in cfg})
    first_of_type: set[str] = set()
    add = []
    for cfg, _ in bases:
        mt = str(cfg.get("model_type")) if isinstance(cfg, dict) else "-"
        add.append(isinstance(cfg, dict) and mt not in first_of_type)
        first_of_type.add(mt)
    return universe, add


def record(i: int, cfg: object, name: str | None, universe: list[str], add: bool) -> dict:
    digest = hashlib.sha256()
    n = 0
    for v in variants(cfg, universe, add):
        digest.update(_key(outcome(v, name)).encode())
        digest.update(b"\n")
        n += 1
    return {"i": i, "result": outcome(cfg, name), "variants": n, "digest": digest.hexdigest()[:24]}


def _expected() -> list[dict]:
    return json.loads((DATA / "expected.json").read_text(encoding="utf-8"))


BASES = _bases()
UNIVERSE, ADD = _plan(BASES)
CHUNK = 25


def test_golden_covers_every_preset_and_family():
    types = {str(c.get("model_type")).lower() for c, _ in BASES if isinstance(c, dict)}
    assert {p.config.get("model_type") for p in A.load_presets().values()} <= types
    assert A.OWN_BRANCH_TYPES - {"refinedweb"} <= types  # its twin spellings rw, RefinedWebModel are there
    assert {"llava", "llava_next", "internvl_chat", "qwen2_vl", "qwen2_5_vl", "llama4"} <= types
    assert len(_expected()) == len(BASES) > 250


@pytest.mark.parametrize("start", range(0, len(BASES), CHUNK))
def test_reader_reads_every_config_as_before(start):
    expected = _expected()
    for i in range(start, min(start + CHUNK, len(BASES))):
        cfg, name = BASES[i]
        got = record(i, cfg, name, UNIVERSE, ADD[i])
        assert got["result"] == expected[i]["result"], f"base config {i}: {json.dumps(cfg)[:300]}"
        assert got == expected[i], f"a variant of base config {i} reads differently: {json.dumps(cfg)[:300]}"


if __name__ == "__main__" and "--write" in sys.argv:
    rows = [record(i, c, n, UNIVERSE, ADD[i]) for i, (c, n) in enumerate(BASES)]
    (DATA / "expected.json").write_text(json.dumps(rows, ensure_ascii=False, indent=0, sort_keys=True) + "\n",
                                        encoding="utf-8")
    print(f"{len(rows)} base configs, {sum(r['variants'] for r in rows)} variants")

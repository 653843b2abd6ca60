"""Non-reentrant activation checkpointing's host time (timing.CKPT_NONREENTRANT_LAYER_S) and each tool's default
checkpoint implementation (frameworks.checkpoint_nonreentrant; training.checkpoint_reentrant)."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.core import frameworks as FW
from gpuplanner.core import methods as M
from gpuplanner.core import search as S
from gpuplanner.core import timing as T
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]
RUN3 = ROOT / "bench" / "data" / "h100_measured_2026-12-06_short.jsonl"


@pytest.mark.parametrize("tool,choice,objective,lora,dp,zero,expected", [
    ("hf", None, "sft", False, 1, 0, True),            # transformers >= 5 (#43203)
    ("hf", True, "sft", False, 1, 0, False),           # the user's use_reentrant=True
    ("trl", None, "dpo", True, 8, 2, True),            # TRL #4811
    ("trl", None, "sft", True, 8, 3, False),           # PEFT + ZeRO-3: TRL forces reentrant
    ("trl", None, "sft", False, 8, 3, True),
    ("llamafactory", None, "sft", True, 8, 0, False),  # use_reentrant_gc = True
    ("llamafactory", False, "sft", True, 8, 0, True),
    ("axolotl", None, "sft", True, 1, 0, False),       # cfg.gradient_checkpointing_kwargs = {use_reentrant: True}
    ("axolotl", None, "dpo", True, 1, 0, True),        # rl set: TRL's default
    ("ms-swift", None, "sft", True, 1, 0, False),      # one GPU: reentrant
    ("ms-swift", None, "sft", True, 8, 0, True),       # plain DDP: non-reentrant
    ("ms-swift", None, "sft", True, 8, 2, False),      # DeepSpeed: reentrant
    ("fsdp", None, "sft", False, 8, 1, True),          # checkpoint_wrapper NO_REENTRANT
    ("megatron", None, "sft", False, 8, 1, False),     # Megatron's CheckpointFunction
    ("unsloth", None, "sft", True, 1, 0, False),
    ("deepspeed", None, "sft", False, 8, 1, False),
])
def test_tool_defaults(tool, choice, objective, lora, dp, zero, expected):
    assert bool(FW.checkpoint_nonreentrant(tool, choice, objective, lora, dp, zero)) is expected


def test_defaults_elementwise_over_candidates():
    dp, zero = np.array([1, 8, 8, 4]), np.array([0, 0, 2, 3])
    assert FW.checkpoint_nonreentrant("ms-swift", None, "sft", True, dp, zero).tolist() == [False, True, False, False]
    assert FW.checkpoint_nonreentrant("trl", None, "sft", True, dp, zero).tolist() == [True, True, True, False]


def _layout(reentrant, recompute=1, lora=False):
    from gpuplanner.core.estimate import resolve
    sc = scenario_from_dict({"model": {"preset": "qwen2.5-0.5b"}, "training": {
        "framework": "hf", "method": "lora" if lora else "full", "seq_len": 512, "recompute": "full"},
        "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}})
    kw, _ = T.time_kwargs(resolve(sc))
    kw = {k: v for k, v in kw.items() if k not in T.GPU_TIME_ARGS}
    kw["checkpoint_reentrant"] = reentrant
    return T.time_layout(resolve(sc).facts, **kw, tp=1, pp=1, cp=1, ep=1, dp=1, zero=0, recompute=recompute, mbs=1,
                         sp=False, grad_accum=1, vpp=1, num_gpus=1, gpus_per_node=8)


@pytest.mark.parametrize("lora", [False, True])
def test_host_floor_adds_one_constant_per_checkpointed_layer(lora):
    """Hand-derived: non-reentrant minus reentrant host time = layers × 1.06 ms, with or without LoRA; nothing
    without recompute."""
    from gpuplanner.core.memory import RECOMPUTE_CODES
    full = RECOMPUTE_CODES["full"]
    a, b = _layout(False, full, lora), _layout(True, full, lora)
    assert a["host_mb"] - b["host_mb"] == pytest.approx(24 * 1.06e-3, rel=1e-9)  # Qwen2.5-0.5B: 24 layers
    none = RECOMPUTE_CODES["none"]
    assert _layout(False, none, lora)["host_mb"] == pytest.approx(_layout(True, none, lora)["host_mb"], rel=1e-12)


def test_constant_is_the_tiny_stack_measurement():
    """Run 3's 16-layer Llama of width 64 (GPU work nil), our own H100 measurement: the step's extra host time with
    checkpointing per layer equals the recompute forward's kernels in this model plus the constant, within 5%."""
    rows = [json.loads(x) for x in RUN3.read_text().splitlines()]
    tiny = {r["gc"]: r for r in rows if r.get("case") == "tiny_llama_stack" and not r["lora"]}
    per_layer = (tiny[True]["fwd_bwd_s"] - tiny[False]["fwd_bwd_s"]) / tiny[True]["layers"]
    model = T.EAGER_OPS_FWD_LAYER * M.EAGER_FWD_OP_S + T.CKPT_NONREENTRANT_LAYER_S
    assert model == pytest.approx(per_layer, rel=0.05)
    # the forward alone carries the pack hooks: a share of the constant, not all of it
    fwd_share = (tiny[True]["fwd_s"] - tiny[False]["fwd_s"]) / tiny[True]["layers"]
    assert 0.3 * T.CKPT_NONREENTRANT_LAYER_S < fwd_share < 0.7 * T.CKPT_NONREENTRANT_LAYER_S


@pytest.mark.parametrize("fw,value", [("megatron", True), ("megatron-bridge", False), ("unsloth", False),
                                      ("fsdp", True)])
def test_refused_where_the_tool_has_no_choice(fw, value):
    with pytest.raises(ScenarioError, match="checkpoint_reentrant") as e:
        scenario_from_dict({"model": {"preset": "qwen2.5-0.5b"},
                            "training": {"framework": fw, "checkpoint_reentrant": value}})
    assert "\n" not in str(e.value).strip() and fw in str(e.value)


def test_accepted_choices():
    for fw, value in (("fsdp", False), ("hf", True), ("llamafactory", False), ("deepspeed", False)):
        s = scenario_from_dict({"model": {"preset": "qwen2.5-0.5b"},
                                "training": {"framework": fw, "checkpoint_reentrant": value}})
        assert s.training.checkpoint_reentrant is value


def _same(a, b):
    return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)


@pytest.mark.parametrize("training", [
    {"framework": "ms-swift", "method": "lora", "seq_len": 1024},
    {"framework": "trl", "method": "lora", "seq_len": 1024, "objective": "dpo"},
    {"framework": "hf", "method": "full", "seq_len": 1024, "recompute": "full", "checkpoint_reentrant": True},
])
def test_search_equals_evaluate(training):
    """One answer: the vectorised search's step time equals evaluate() where the default depends on dp/zero."""
    s = scenario_from_dict({"model": {"preset": "qwen2.5-1.5b"}, "training": training, "data": {"tokens": 1e8},
                            "constraints": {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb"]}})
    checked, kinds = 0, set()
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        vec = S.evaluate_candidates(ctx, c)
        for i in range(0, len(c["tp"]), max(1, len(c["tp"]) // 40)):
            if not vec["fits"][i]:
                continue
            sc = S.candidate_scenario(ctx, c, int(i))
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert _same(vec["train_hours"][i] / 24.0, ev.compute_days), (sc.parallel, sc.training.recompute)
            checked += 1
            kinds.add(bool(FW.checkpoint_nonreentrant(training["framework"], training.get("checkpoint_reentrant"),
                                                      training.get("objective", "sft"), True, c["dp"][i], c["zero"][i])))
    assert checked >= 5
    if training["framework"] == "ms-swift":
        assert kinds == {True, False}  # both of ms-swift's defaults among the checked candidates

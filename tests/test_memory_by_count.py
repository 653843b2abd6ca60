"""Memory per GPU against GPU count (the chart "4 or 8 cards?"): every point is the Evaluation of a complete
scenario, the least-memory layout never needs more than the plan's own layout at the same count, and the
ZeRO arithmetic holds by hand (Rajbhandari et al. 2020, arXiv:1910.02054 §5: with stage 3 the model states,
(2 + 2 + K)·Ψ bytes, are divided by the data-parallel degree N_d)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplanner.core.errors import PlannerError
from gpuplanner.core.evaluate import evaluate, memory_by_gpu_count, scaling
from gpuplanner.core.memory import GIB
from gpuplanner.io.scenario_files import load_scenario

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ["llama3-8b-full-8xh100-zero3.json", "llama3-70b-pretrain-64xh800-tp8pp4.json",
            "mixtral-8x7b-ep8-16xa800.json", "7b-lora-1x4090.json"]


def _src(name: str) -> Path:
    """An example by name: examples/, or tests/data/examples_fixed/ for the fixed-layout files that left
    examples/ in issue 35 round 16 (examples16: those examples now let the search choose)."""
    here = ROOT / "examples" / name
    return here if here.exists() else ROOT / "tests" / "data" / "examples_fixed" / name


def _scenario_at(s, n, layout):
    par = s.parallel.model_copy(update={"tp": layout.tp, "pp": layout.pp, "cp": layout.cp, "ep": layout.ep,
                                        "vpp": layout.vpp, "zero": layout.zero,
                                        "sequence_parallel": layout.sequence_parallel})
    return s.model_copy(update={"hardware": s.hardware.model_copy(update={"num_gpus": n}), "parallel": par})


@pytest.mark.parametrize("name", EXAMPLES)
def test_each_point_is_evaluate_of_its_layout(name):
    s, models = load_scenario(_src(name))
    res = memory_by_gpu_count(s, models, counts=[1, 2, 4, 8, 16, 64])
    assert [p.num_gpus for p in res.points] == [1, 2, 4, 8, 16, 64]
    checked = 0
    for p in res.points:
        if p.memory is None:
            continue
        # the public path: evaluate() of the complete scenario at this count with this layout
        ev = evaluate(_scenario_at(s, p.num_gpus, p.layout), models)
        assert ev.memory.total == pytest.approx(p.memory.total, rel=1e-9)
        assert ev.memory.optimizer == pytest.approx(p.memory.optimizer, rel=1e-9)
        assert ev.layout.tp * ev.layout.pp * ev.layout.cp * ev.layout.dp == p.num_gpus
        if p.current is not None:
            assert p.memory.total <= p.current.total + 1e-9  # the least layout is no worse than the plan's own
        checked += 1
    assert checked >= 4
    # the plan's own count, with its own layout, is the plan's Evaluation
    own = memory_by_gpu_count(s, models, counts=[s.hardware.num_gpus]).points[0]
    assert own.current is not None
    assert own.current.total == pytest.approx(evaluate(s, models).memory.total, rel=1e-9)


def test_zero3_divides_model_states_by_the_gpu_count():
    """Llama 3 8B full fine-tune, bf16 + AdamW with fp32 master weights, ZeRO-3 over pure data parallelism:
    optimizer states 12·Ψ/N bytes per GPU, gradients 2·Ψ/N (ZeRO §5.3, K = 12)."""
    s, models = load_scenario(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json")
    res = memory_by_gpu_count(s, models, counts=[2, 4, 8])
    psi = evaluate(s, models).params.total
    for p in res.points:
        assert (p.layout.tp, p.layout.pp, p.layout.zero) == (1, 1, 3)
        assert p.memory.optimizer == pytest.approx(12 * psi / p.num_gpus / GIB, rel=0.02)
    a, b = res.points[0].memory, res.points[1].memory
    assert a.optimizer / b.optimizer == pytest.approx(2.0, rel=1e-6)
    assert a.weights / b.weights == pytest.approx(2.0, rel=1e-6)


def test_no_layout_below_the_model_parallel_minimum_is_invented():
    """70B pretraining: every count is tried; a point exists only where a real layout runs (the plan's own
    TP 8 × PP 4 needs at least 32 cards, so its own series starts there)."""
    s, models = load_scenario(ROOT / "examples" / "llama3-70b-pretrain-64xh800-tp8pp4.json")
    res = memory_by_gpu_count(s, models, counts=[8, 16, 32, 64])
    assert [p.current is None for p in res.points] == [True, True, False, False]
    assert all(p.memory is not None for p in res.points)
    totals = [p.memory.total for p in res.points]
    assert totals == sorted(totals, reverse=True)  # more cards, less memory per card
    assert res.cards and res.cards[0].gpu_id == s.hardware.gpu and res.cards[0].memory_gib == 80


def test_cards_are_the_candidate_gpus_and_scaling_carries_the_curve():
    s, models = load_scenario(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json")
    s = s.model_copy(update={"constraints": s.constraints.model_copy(
        update={"gpu_candidates": ["rtx-4090-24gb", "h20-96gb"], "max_gpus": 16})})
    res = memory_by_gpu_count(s, models)
    assert [c.gpu_id for c in res.cards] == ["h100-sxm-80gb", "rtx-4090-24gb", "h20-96gb"]
    assert [c.memory_gib for c in res.cards] == [80, 24, 96]
    assert [p.num_gpus for p in res.points] == [1, 2, 4, 8, 16]
    sc = scaling(s, models)
    assert sc.memory is not None
    assert [p.memory.total for p in sc.memory.points] == [p.memory.total for p in res.points]


@pytest.mark.parametrize("framework,tp,pp,vpp", [("megatron", 8, 4, 2), ("megatron", 16, 16, 1)])
def test_least_memory_is_never_above_your_layout_70b_on_256(framework, tp, pp, vpp, tmp_path):
    """Issue 36: Llama-3-70B on 256 GPUs: "least memory (best layout)" was drawn far above "your layout" where the
    user's layout lay outside the layouts searched (TP 16 across two servers: the search tries TP up to 8, so its
    best at 256 GPUs was 21.9 GiB against 13.3 GiB for the user's TP 16 × PP 16). The user's own layout is now
    among those searched: best ≤ yours at every count."""
    import json

    d = json.loads((ROOT / "examples" / "llama3-70b-pretrain-64xh800-tp8pp4.json").read_text(encoding="utf-8"))
    d["training"]["framework"] = framework
    d["parallel"].update({"tp": tp, "pp": pp, "vpp": vpp})
    d["hardware"]["num_gpus"] = 256
    f = tmp_path / "s.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    try:
        s, models = load_scenario(f)
        own = evaluate(s, models)
    except (PlannerError, ValueError):
        pytest.skip(f"{framework} does not run TP {tp} × PP {pp} (the advisor's feasible-stacks table)")
    res = memory_by_gpu_count(s, models)
    assert res.points[-1].num_gpus == 256
    compared = 0
    for p in res.points:
        if p.current is not None:
            assert p.memory is not None and p.memory.total <= p.current.total + 1e-9, (p.num_gpus, framework)
            compared += 1
    assert compared >= 1
    assert res.points[-1].memory.total <= own.memory.total + 1e-9

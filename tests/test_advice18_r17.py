"""Issue 35 round 17, advice18: the MFU ceiling compares like with like, and a capped plan says so where its MFU is
shown (verdicts in docs/notes/2026-12-07/issue-35-r17-advice18.md; requests in
docs/notes/2026-12-07/issue-35-r17-advice18-requests/).

The case: ``examples/llama3-70b-pretrain-64xh800-tp8pp4.json`` ranks 256 × A100 by the month first, its table
reading "52% good" and its utilisation line "Estimated utilisation 52% of peak", while the model gives 52.3%, above
the best published run of its class; only the MFU-ceiling check, further down, said it was capped. Why it is
above: the class's best published run (A100 Megatron > 20B) is Narayanan et al. 2021 Table 1, whose figures count
the recomputed forward pass (§5.1: 96·B·s·l·h² FLOPs per iteration "with activation recomputation"), i.e. hardware
FLOPs utilisation, and the check compared a plan's *model* FLOPs utilisation with it. For that #1 (no recompute,
MFU = HFU) the figure it is timed at is right; for a plan with full recomputation (HFU = 4/3 × MFU) the check let
a plan whose GPUs run well above the best published hardware rate pass uncapped. Now:
* a class whose own best run reports HFU (``metric: "hfu"``, bench/mfu_ceilings.py) is compared on the plan's HFU
  (advisor.ceiling_figure), in the search and in evaluate alike;
* the capped plan says it in the table ("52% good (capped)", with a footnote) and on its utilisation line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplanner.core import advisor
from gpuplanner.core import search as S
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import Scenario

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "advice18"
EXAMPLE_70B = ROOT / "examples" / "llama3-70b-pretrain-64xh800-tp8pp4.json"


def _scenario(path: Path) -> Scenario:
    return Scenario.model_validate(json.loads(path.read_text(encoding="utf-8")))


def test_hfu_class_caps_a_full_recompute_plan_on_its_hfu():
    """64 × A100, Megatron TP 8 × PP 4, full recompute: modelled MFU 43.7% (below the 52% figure) but HFU 58.1%,
    above the best published 52% HFU (Narayanan et al. 2021, 530B on 2,520 A100). Timed at HFU 52%: its MFU is
    43.7% × 52 / 58.1 = 39.1%, its training time × 58.1 / 52 = 1.117."""
    ev = evaluate(_scenario(DATA / "a100-70b-full-recompute.json"))
    mod = ev.time_modelled or ev.time
    assert mod.mfu == pytest.approx(0.437, abs=0.01)
    assert mod.hfu / mod.mfu == pytest.approx(4.0 / 3.0, rel=0.03)  # full recompute: one more forward pass
    assert ev.mfu_capped
    assert ev.time.hfu == pytest.approx(0.52, abs=1e-6)
    assert ev.mfu == pytest.approx(mod.mfu * 0.52 / mod.hfu, rel=1e-6)
    assert ev.time.compute_days / mod.compute_days == pytest.approx(mod.hfu / 0.52, rel=1e-6)
    line = next(r for r in ev.rules if r.id == "mfu_ceiling").message.render()
    assert "hardware FLOPs utilisation 58.1%" in line and "52.0%" in line


def test_search_caps_as_evaluate_does():
    """The search's arrays (advisor.capped with timing's hfu_ratio) and evaluate agree on a capped plan's MFU."""
    d = json.loads((DATA / "a100-70b-full-recompute.json").read_text(encoding="utf-8"))
    d["constraints"].update({"gpu_candidates": ["a100-sxm-80gb"], "max_gpus": 64})
    d["parallel"] = {"auto": True}
    res = S.search(Scenario.model_validate(d), top=3)
    assert res.plans
    for p in res.plans:
        ev = evaluate(p.scenario)
        assert p.mfu == pytest.approx(ev.mfu, rel=1e-6)
        if ev.mfu_capped:  # like with like: the HFU it is timed at is the ceiling
            assert ev.time.hfu == pytest.approx(0.52, abs=1e-6)
        else:
            assert ev.time.hfu <= 0.52 + 1e-9


def test_borrowed_and_mfu_classes_are_unchanged():
    """Guards: an MFU class keeps comparing the plan's MFU. advice19 (round 17) changed the borrowed half on
    purpose: a borrowed ceiling is now the lowest *HFU* over classes and is compared on the plan's HFU (like with
    like; tests/test_advice19_r17.py), so this guard now asserts that."""
    own = advisor.mfu_ceiling("a100-sxm-80gb", "megatron", 70e9)
    assert advisor.ceiling_is_hfu(own)
    borrowed = advisor.mfu_ceiling("rtx-5090-32gb", "hf", 7e9)
    assert borrowed["fallback"] and advisor.ceiling_is_hfu(borrowed)
    assert not advisor.ceiling_is_hfu(advisor.mfu_ceiling("h800-sxm-80gb", "megatron", 70e9))
    used, factor = advisor.capped(0.45, 0.52, None, None)
    assert float(used) == 0.45 and float(factor) == 1.0
    used, factor = advisor.capped(0.45, 0.52, None, 4.0 / 3.0)  # HFU 60% > 52%
    assert float(factor) == pytest.approx(0.6 / 0.52)
    assert float(used) == pytest.approx(0.45 * 0.52 / 0.6)


@pytest.fixture(scope="module")
def example_70b_text():
    from gpuplanner.commands.plan import text_lines

    s = _scenario(EXAMPLE_70B)
    res = S.search(s, top=2)
    return res, "\n".join(text_lines(res, s.constraints, s.training.method))


def test_example_70b_capped_number_one_says_so(example_70b_text):
    """#1 (256 × A100, no recompute: MFU = HFU = 52.3% modelled) is timed at 52.0%, and the table and the plan's
    utilisation line say so; before, "52% good" and "Estimated utilisation 52% of peak" read as the model's own."""
    res, text = example_70b_text
    one = res.plans[0]
    assert one.gpu == "a100-sxm-80gb" and one.evaluation.mfu_capped
    assert one.mfu == pytest.approx(0.52, abs=1e-6)
    row = next(ln for ln in text.splitlines() if ln.startswith("1  a100-sxm-80gb"))
    assert "(capped)" in row
    assert "MFU (capped):" in text
    util = next(ln for ln in text.splitlines() if "Estimated utilisation" in ln)
    assert "held at the best published run of its class" in util
    assert "hardware FLOPs utilisation 52.3%" in util
    row2 = next(ln for ln in text.splitlines() if ln.startswith("2  "))
    assert "(capped)" not in row2  # an uncapped plan reads as before


def test_zero_shards_over_context_parallel_ranks_in_the_search():
    """Request 03: LoRA of Qwen2.5-32B at 128k tokens, ≤ 32 GPUs, 10 days. The ZeRO/FSDP group of torchtune
    (torchtitan's ``dp_shard_cp`` mesh) and Megatron (``get_data_parallel_group(with_context_parallel=True)``) is
    data × context parallel, as the memory model counts it (memory.py ``dp_sh``); the search dropped every ZeRO
    layout with one data-parallel rank, CP or not, so CP 8 × DP 1 on one 8 × A800 node (54.7 GiB a card) was
    never tried and a month of 8 × H200 (94,000 CNY) ranked first for a 1.3-day job. By hand: 4 × 32.8e9 × 5e8
    (LoRA: no weight gradients) + 3 × 4 × 65,536 × 5,120 × 64 × 5e8 (causal attention at 128k) ≈ 1.95e20 FLOP;
    / (8 × 312e12 × 0.41) = 2.2 days."""
    res = S.search(_scenario(DATA / "03-sft-128k-lora-32b.json"), top=1)
    one = res.plans[0]
    assert (one.gpu, one.num_gpus, one.nodes, one.cp, one.dp, one.zero) == ("a800-sxm-80gb", 8, 1, 8, 1, 3)
    assert one.rental_mode == "card_hour"
    assert one.cost < 3000
    assert 2.0 < one.calendar_days < 2.5
    assert not one.evaluation.failed_rules


def test_borrowed_ceiling_is_named_as_borrowed_on_the_utilisation_line():
    """Request 05 (a 1.5B decoder of Whisper-large-v3's shape, full SFT, ≤ 8 GPUs): #1 is 8 × RTX 4090 with
    Megatron-Core, modelled 56.0% MFU, timed at 46.0%, the ceiling it borrows (no consumer-card run is published;
    the lowest of the A100 classes, Narayanan et al.'s 7.5B run). advice19 (round 17): the RTX 4090 now has its own
    published run (Answer.AI's 2 × 4090 benchmarks, MFU 47.5%), so the plan is capped at its class's figure, said as
    "the best published run of its class"; the borrowed wording is checked on an RTX 5090 plan in
    test_advice19_r17. Before, the table read "46% good" and the line
    "Estimated utilisation 46% of peak" as if the model gave it; the note's figures are at 0.1% so that a plan just
    over its ceiling does not read "modelled 46%, … timed at 46%"."""
    from gpuplanner.commands.plan import text_lines

    s = _scenario(DATA / "05-asr-whisper-like-1.5b-finetune.json")
    res = S.search(s, top=1)
    one = res.plans[0]
    assert one.gpu == "rtx-4090-24gb" and one.evaluation.mfu_capped
    assert not one.evaluation.mfu_ceiling["fallback"]
    text = "\n".join(text_lines(res, s.constraints, s.training.method))
    assert "47% good (capped)" in text
    util = next(ln for ln in text.splitlines() if "Estimated utilisation" in ln)
    assert "held at the best published run of its class" in util and "47.5%" in util

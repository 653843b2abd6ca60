"""Issue 35 round 17, advice19: like with like for borrowed MFU ceilings, and the RTX 4090's own published runs.

A class with no published run borrows the lowest figure over other classes (advisor.mfu_ceiling). That figure mixed
metrics: Narayanan et al. 2021's 46% is a hardware FLOPs utilisation (arXiv:2104.04473 §5.1 counts the recomputed
forward, 96·B·s·l·h², not 72), llm-foundry's rows an MFU (their README prints MFU and HFU side by side), and the
plan's MFU was set against either. Now the pool is ranked on each run's HFU and the plan's HFU is compared with it.
Applied alone, that capped the 7B LoRA example's 8 × RTX 4090 #1 (55% HFU) at 46% and moved #1 off the 4090 (advice18
saw 2 × H800), yet Answer.AI's published 2 × RTX 4090 runs (AnswerDotAI/fsdp_qlora benchmarks_03_2024.md @4cd69234)
reach 56–68% HFU and 38–47.5% MFU: the 4090 (and the 4090 D, the same die) get their own class, on MFU."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from gpuplanner.core import advisor
from gpuplanner.core import search as S
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import Scenario

ROOT = Path(__file__).resolve().parents[1]


def _lora_1gpu(gpu: str) -> Scenario:
    return Scenario.model_validate({
        "model": {"preset": "qwen2.5-7b"},
        "training": {"method": "lora", "framework": "deepspeed", "recompute": "full", "seq_len": 2048,
                     "micro_batch_size": 2, "global_batch_size": 2},
        "parallel": {"tp": 1, "pp": 1, "zero": 0}, "hardware": {"gpu": gpu, "num_gpus": 1, "gpus_per_node": 8},
        "data": {"tokens": "100M"}, "constraints": {"currency": "CNY"}})


def test_borrowed_ceiling_is_the_lowest_hfu_compared_on_hfu():
    """≤ 20B: the lowest HFU over all classes is Narayanan's 7.5B run, 0.46 (llm-foundry's H100 7B is 0.4644 MFU
    and HFU, no checkpointing). > 20B: the Megatron-LM README's H100 314B, 0.48 (MFU; no HFU printed, so its lower
    bound), not llm-foundry's H100 70B at 0.4257 MFU, whose HFU is 0.5676 (checkpointing on)."""
    small = advisor.mfu_ceiling("rtx-5090-32gb", "deepspeed", 7e9)
    assert small["fallback"] == "no_gpu_run" and advisor.ceiling_is_hfu(small) and small["mfu"] == 0.46
    big = advisor.mfu_ceiling("rtx-5090-32gb", "deepspeed", 70e9)
    assert big["fallback"] and advisor.ceiling_is_hfu(big)
    assert big["mfu"] == 0.48 and big["row"] == "megatron-readme-h100-314b" and big["grade_mfu"] == 0.48
    assert advisor.run_hfu({"mfu": 0.4257, "metric": "mfu", "row": "llmfoundry-h100_80gb-70b-seq2048-64gpu"}) == 0.5676


def test_borrowed_ceiling_caps_the_hardware_rate():
    """An RTX 5090 LoRA with full recomputation, one card: modelled MFU ≈ 0.43, HFU ≈ 0.63 (LoRA: 6 passes of the
    weights a token against 4). Compared on its MFU it passed the borrowed 46% uncapped; on its HFU it is held at
    0.46 HFU, so its MFU is 0.46 / (HFU/MFU)."""
    ev = evaluate(_lora_1gpu("rtx-5090-32gb"))
    tm = ev.time_modelled
    assert tm.mfu < 0.46 < tm.hfu
    assert ev.mfu_capped and ev.time.hfu == pytest.approx(0.46, abs=1e-6)
    assert ev.time.mfu == pytest.approx(0.46 * tm.mfu / tm.hfu, rel=1e-6)
    assert "hardware FLOPs utilisation" in ev.mfu_note.text and "borrow" not in ev.mfu_note.text


@pytest.mark.parametrize("gpu", ["rtx-4090-24gb", "rtx-4090d-24gb"])
def test_4090_uses_its_own_published_run(gpu):
    c = advisor.mfu_ceiling(gpu, "deepspeed", 7e9)
    assert c["class"] == "rtx4090/any/le20b" and not c["fallback"] and not advisor.ceiling_is_hfu(c)
    assert c["mfu"] == 0.4748
    assert advisor.mfu_ceiling(gpu, "megatron", 34e9)["mfu"] == 0.4423


def test_4090_class_figures_are_the_published_rows_by_the_time_model():
    """The class's figures are the Answer.AI rows' tokens/s through the time model's FLOP count (the same count a
    plan's MFU uses): recomputed here, to 0.1%."""
    sys.path.insert(0, str(ROOT / "bench"))
    sys.path.insert(0, str(ROOT))
    import validate_ft_oos9 as v9
    from gpuplanner.core.estimate import estimate

    got = {}
    for r in v9._aai_rows():
        if r.kind != "tps":
            continue
        s = Scenario.model_validate({"model": r.model, "training": r.training, "parallel": r.parallel,
                                     "hardware": {"gpu": r.gpu, "num_gpus": r.num_gpus}, "data": {"tokens": "1M"}})
        t = estimate(s).time
        got[r.id] = t.mfu * r.measured / t.tokens_per_s_per_gpu
    assert got["aai-mistral-7b-qlora-fsdp-offload-24k-tps"] == pytest.approx(0.4748, abs=1e-3)
    assert got["aai-yi-34b-qlora-fsdp-offload-b4-tps"] == pytest.approx(0.4423, abs=1e-3)
    small = [v for k, v in got.items() if "34b" not in k and "70b" not in k]
    assert max(small) == pytest.approx(0.4748, abs=1e-3)


def test_4090_lora_example_keeps_its_4090_plan():
    """examples/7b-lora-1x4090.json: #1 8 × RTX 4090 DeepSpeed DDP, full recomputation, MFU 37% (HFU 55%), 3.9 h,
    ¥62. Its class is the 4090's own (47.5% MFU): not capped, and not moved to an H800 by a borrowed A100 HFU."""
    s = Scenario.model_validate(json.loads((ROOT / "examples" / "7b-lora-1x4090.json").read_text()))
    one = S.search(s, top=1).plans[0]
    assert one.gpu == "rtx-4090-24gb" and not one.evaluation.mfu_capped
    assert one.evaluation.mfu_ceiling["class"] == "rtx4090/any/le20b"
    assert one.cost < 70


def test_rl_capped_note_reads_the_training_passes():
    """Request 09 (GRPO Qwen2.5-1.5B, 16 rollouts per prompt, 4k responses): #1 is 2 × RTX 5090 ms-swift, whose
    training passes are capped (the check line: modelled 63.3%). The utilisation line's note read "modelled 17.7% …
    above 46.0%": the whole step, rollouts included, set against a cap on the training passes. It now reads the
    training passes' figure, as the cap does (advisor.capped)."""
    from gpuplanner.commands.plan import text_lines

    s = Scenario.model_validate(json.loads((ROOT / "tests" / "data" / "advice19" /
                                            "09-grpo-1.5b-math-16-rollouts.json").read_text()))
    res = S.search(s, top=1)
    one = res.plans[0]
    assert one.evaluation.mfu_capped and one.evaluation.rl_training_mfu is not None
    util = next(ln for ln in text_lines(res, s.constraints, s.training.method) if "Estimated utilisation" in ln)
    tm = one.evaluation.time_modelled
    fig = tm.mfu_training * tm.hfu / tm.mfu
    assert f"{fig:.1%}" in util and fig > 0.46
    assert f"{tm.mfu * tm.hfu / tm.mfu:.1%}" not in util

"""Issue 35 round 15 (ftoos15): LitGPT's published LoRA times as out-of-sample step rows, and the FSDP1 mixed-unit
weight gradients (timing.FSDP_MIXED_UNIT_WGRAD)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_ft_oos15 as v  # noqa: E402

EXCERPT = ROOT / "tests" / "data" / "litgpt" / "resource-tables-0cc02afa-lora.md"


def _published_minutes() -> dict[tuple[str, str | None, int, int], float]:
    """'Time 1k iterations' of every timed row of the stored verbatim excerpt, keyed as the bench's rows."""
    names = {"phi-1.5": "phi-1.5", "StableLM Alpha": "stablelm-3b", "Llama 2": None}
    out = {}
    for line in EXCERPT.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 8 or not cells[0] or cells[0].startswith(("Size", "-")):
            continue
        size, model, quant, b = cells[0], cells[1], cells[2], int(cells[3])
        if model not in names:
            continue  # Falcon 40B: OOM only
        key_model = names[model] or ("llama-2-7b" if size.startswith("7") else "llama-2-13b")
        gpus = int(cells[5].split(" x ")[0]) if len(cells) == 9 else 1
        minutes = cells[-2]
        if not minutes.endswith("min"):
            continue  # OOM / N/A rows carry no time
        out[(key_model, None if quant == "None" else quant.removeprefix("bnb."), b, gpus)] = float(minutes.split()[0])
    return out


def test_rows_are_the_page_as_printed():
    published = _published_minutes()
    assert len(published) == len(v.ROWS) == 27
    for model, quant, b, gpus, minutes in v.ROWS:
        assert published[(model, quant, b, gpus)] == minutes


def test_published_step_from_iterations():
    # 1,000 iterations of one micro-batch per device; 128 / b of them make an optimizer step
    assert v.published_step_s(1.62, 1) == pytest.approx(1.62 * 60 / 1000 * 128)  # 12.44 s
    assert v.published_step_s(8.66, 4) == pytest.approx(8.66 * 60 / 1000 * 32)  # 16.63 s


def test_length_assumption_scales_ms_swift_statistic():
    d = v.scenario("llama-2-7b", None, 2, 1)
    assert d["data"]["mean_sample_len"] == round(170.1 * 1304 / 1028) == 216
    assert d["training"]["seq_len"] == 1304 and d["training"]["lora_targets"] == "qv"


def test_mixed_units_add_the_block_weight_gradients():
    # Llama-2-7B: 32 layers of 4 * 4096^2 + 3 * 4096 * 11008 linear weights; the weight gradient repeats their
    # forward FLOPs (2 per weight and token) in hardware FLOPs only
    with_units = v.predict("llama-2-7b", None, 4, 2)
    without = v.predict("llama-2-7b", None, 4, 2, {"fsdp_lora_mixed_units": False})
    per_token = 2 * 32 * (4 * 4096 ** 2 + 3 * 4096 * 11008)
    assert with_units.hardware_flops_per_token - without.hardware_flops_per_token == pytest.approx(per_token)
    assert with_units.flops_per_token == pytest.approx(without.flops_per_token)
    assert with_units.step_time_s > without.step_time_s * 1.15


def test_litgpt_index_list_host_time():
    # Llama-2-7B, LoRA on q and v: 4096 + 4096 integers a forward at 0.1125 s / 1,024,000 (transformers PR #24772)
    from gpuplanner.core import timing
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict

    facts = resolve(scenario_from_dict(v.scenario("llama-2-7b", None, 1, 1))).facts
    assert timing.litgpt_index_seconds(facts, "qv") == pytest.approx(8192 * 0.1125 / 1_024_000)
    assert timing.litgpt_index_seconds(facts, "all_linear") == 0.0  # q, k and v all adapted: no zero_pad
    # host-bound row: the step grows by about the list's time over 128 micro-batches x 32 layers (1 forward each)
    lit = v.predict("llama-2-7b", None, 1, 1)
    peft = v.predict("llama-2-7b", None, 1, 1, {"lora_layer": "peft"})
    assert lit.step_time_s - peft.step_time_s == pytest.approx(128 * 32 * 8192 * 0.1125 / 1_024_000, rel=0.05)


def test_scores_before_and_after(monkeypatch):
    # this round's two mechanisms alone: the ranks' wait for the longest padded micro-batch (z3multi15,
    # timing.padded_rank_factor) is checked in tests/test_mechanics_rank_wait_z3multi15.py; with it the two b4 x 2
    # GPU rows read -14.7% / -24.1% (its note)
    from gpuplanner.core import timing
    monkeypatch.setattr(timing, "padded_rank_factor", lambda *a, **k: 1.0)
    before = json.loads(v.BEFORE.read_text(encoding="utf-8"))
    now = v.errors()
    assert set(before) == set(now) and len(now) == 23
    for rid, err in now.items():
        assert abs(err) <= abs(before[rid]) + 1e-9, rid  # both mechanisms only add time the rows left out
    # the FSDP rows with the most tokens per micro-batch are GPU-bound: within 10% with the weight gradients,
    # 14% to 28% too fast without them
    # (round 16: q/v LoRA leaves the MLP output unadapted, so non-reentrant checkpointing's early stop skips it as
    # in full training: stablelm-3b b4 −9.x% → 11.3% too fast; the bound 10% → 12%)
    for rid in ("stablelm-3b LoRA b4 × 2 GPU", "llama-2-7b LoRA b4 × 2 GPU"):
        assert abs(now[rid]) < 0.12 < abs(before[rid])
    # the host-bound rows stay too fast (the rest not modelled: see the note); a change that closes them must say why
    one = v.summary(now)["one GPU, LoRA"]
    assert 0.25 < one[3] < 0.6 and v.summary(before)["one GPU, LoRA"][3] > 0.8


def test_table_prints_every_row():
    text = "\n".join(v.lines())
    assert all(v.row_id(*r[:4]) in text for r in v.ROWS)
    assert re.search(r"FSDP \(2 or 4 GPUs\): 10 rows", text)

"""Issue 35 round 16 (ftoos16): IBM fms-acceleration's published A100-80GB fine-tuning runs as out-of-sample step and
memory rows, and the Hugging Face stack's FSDP1 LoRA adapter units (core/fsdp1_lora.py ``applies`` with ``hf_fsdp``)."""

from __future__ import annotations

import dataclasses
import json
import statistics
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_ft_oos16 as v  # noqa: E402
import validate_ft_tools as vft  # noqa: E402

#: the CSV's ``train_tokens_per_second`` for the same rows (scripts/benchmarks/refs/a100_80gb.csv @24bdadb), an
#: independent column: runtime x tokens/s must give 100 steps x per-device batch x 4,096 packed tokens
TOKENS_PER_S = (3062.694, 2777.18, 3143.118, 3008.934, 3324.155, 2946.306, 3353.809, 3168.613, 1571.223, 1834.376,
                2903.78, 2949.205, 2987.456, 3398.665, 1528.07, 1579.814, 1690.27, 1880.667, 433.53)


@pytest.fixture(scope="module")
def res():
    return v.results()


def test_rows_transcribed_against_the_tokens_column():
    assert len(TOKENS_PER_S) == len(v.ROWS)
    for (_c, _m, _g, b, runtime, _peak), tps in zip(v.ROWS, TOKENS_PER_S):
        assert runtime * tps == pytest.approx(v.STEPS * b * v.SEQ, rel=2e-4)


def test_entry_follows_the_benchmark_files():
    t = v.training("none-lora", 2, 2)
    assert (t["framework"], t["seq_len"], t["packing"], t["recompute"], t["flash_attention"]) == (
        "trl", 4096, True, "full", True)
    assert (t["lora_rank"], t["lora_targets"], t["lora_dropout"], t["fsdp_version"]) == (16, "attention", 0.1, 1)
    assert t["master_weights"] is True  # PEFT's autocast_adapter_dtype: fp32 adapters
    assert v.training("none-full", 4, 1)["master_weights"] is False  # bf16 parameters and AdamW states
    assert v.training("baseline-peft-bnb", 4, 1)["method"] == "qlora"
    assert v.vrow("none-lora", "mistralai/Mistral-7B-v0.1", 2, 2, "step", 1.0).parallel == {"zero": 3}


def test_hf_stack_fsdp1_lora_units_apply():
    from gpuplanner.core import fsdp1_lora as FL

    assert FL.applies(False, "hf", 1, "lora", hf_fsdp=True)
    assert FL.applies(False, "hf", 1, "qlora", hf_fsdp=True)
    assert not FL.applies(False, "hf", 1, "full", hf_fsdp=True)
    assert not FL.applies(False, "hf", 2, "lora", hf_fsdp=True)  # FSDP2: no per-leaf units
    assert not FL.applies(False, "hf", 1, "lora", hf_fsdp=False)  # DeepSpeed ZeRO
    assert not FL.applies(False, "hf", 1, "lora", hf_fsdp=True, mixed_units=True)  # adapters inside the block unit
    assert FL.applies(True, "fsdp", 1, "lora")  # verl's, unchanged


def test_adapter_unit_host_seconds_by_hand():
    """Mistral-7B, LoRA on q/k/v/o: 4 x 2 units x 32 layers = 256 units; a training micro-batch with full recompute
    runs each unit's forward hooks twice (28 operations) and its backward once (39): 95 x 24 us = 2.28 ms a unit."""
    from gpuplanner.core import timing
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict

    r = v.vrow("none-lora", "mistralai/Mistral-7B-v0.1", 2, 2, "step", 1.0)
    res_ = resolve(scenario_from_dict({"model": r.model, "training": r.training, "parallel": r.parallel,
                                       "hardware": {"gpu": r.gpu, "num_gpus": r.num_gpus}}))
    fl_args = (False, "hf", 1, "lora", True, False)
    train, nograd = timing.fsdp1_lora_host_mb(res_.facts, fl_args, "attention", 1.0, 1)
    assert float(train) == pytest.approx(256 * 95 * 24e-6, rel=1e-9)
    assert float(nograd) == pytest.approx(256 * 25 * 24e-6, rel=1e-9)
    off = timing.fsdp1_lora_host_mb(res_.facts, (False, "hf", 1, "lora", False, False), "attention", 1.0, 1)
    assert float(off[0]) == 0.0


def test_waits_where_the_gpu_cannot_hide_them():
    """b2 x 2 GPUs: the hook pairs of the narrow projections are exposed; b4 x 2: hidden under the matmuls (the model
    on main gave 2.35 and 4.63 s)."""
    def step(b, gpus, **kw):
        r = v.vrow("none-lora", "mistralai/Mistral-7B-v0.1", gpus, b, "step", 1.0)
        return vft.predict(dataclasses.replace(r, training={**r.training, **kw}))

    pub = {rid: p for rid, p, *_ in v.results()}
    assert step(2, 2) > 2.35 and step(2, 2) == pytest.approx(pub["Mistral-7B lora b2 × 2 GPU"], rel=0.10)
    # without round 17's fp32 adapter casts (the entry's training.mixed_precision_off, ftoos17)
    assert step(4, 2, mixed_precision_off=False) == pytest.approx(4.63, rel=0.01)


def test_before_and_after(res):
    first = json.loads(v.BEFORE.read_text(encoding="utf-8"))
    entry = json.loads(v.MAIN_ENTRY.read_text(encoding="utf-8"))
    now = v.errors(res)
    for kind in ("time", "memory"):
        assert set(first[kind]) == set(now[kind]) == set(entry[kind])
    # the corrected entry on main: the one-GPU QLoRA rows take prepare_model_for_kbit_training's path
    qlora_1 = [k for k in now["time"] if " qlora " in k and k.endswith("× 1 GPU")]
    assert all(abs(entry["time"][k]) < abs(first["time"][k]) for k in qlora_1)
    # this round's FSDP1 adapter units touch only the FSDP LoRA / QLoRA rows, and help every one they move; the full
    # rows move by the foreach AdamW step (entered as memoos16 enters the same runs: transformers' "adamw_torch")
    fsdp_adapters = [k for k in now["time"] if k.endswith("× 2 GPU") and " full " not in k]
    assert sum(abs(now["time"][k]) for k in fsdp_adapters) < sum(abs(entry["time"][k]) for k in fsdp_adapters)
    t_now, t_entry = [abs(x) for x in now["time"].values()], [abs(x) for x in entry["time"].values()]
    assert statistics.median(t_now) <= statistics.median(t_entry) and v._p90(t_now) <= v._p90(t_entry)
    # memoos16's HF FSDP1 step / freed-gradient mechanisms: the memory set gets no worse, the full rows exact
    m_now, m_entry = [abs(x) for x in now["memory"].values()], [abs(x) for x in entry["memory"].values()]
    assert statistics.median(m_now) <= statistics.median(m_entry) and v._p90(m_now) <= v._p90(m_entry)
    assert all(abs(e) < 0.005 for k, e in now["memory"].items() if " full " in k)


def test_targets(res):
    errs = v.errors(res)
    t = [abs(x) for x in errs["time"].values()]
    m = [abs(x) for x in errs["memory"].values()]
    assert statistics.median(t) <= 0.06 and v._p90(t) <= 0.15
    assert statistics.median(m) <= 0.06 and v._p90(m) <= 0.15
    # the published OOM runs do not fit the card's 79.15 GiB, but one: FSDP QLoRA of the 70B at b4 (the b2 row's
    # memory is under-predicted by 22% too)
    fits = [rid for rid, gib in v.oom_results() if gib <= v.CARD_GIB]
    assert len(v.oom_results()) == 17 and fits == ["Llama-2-70B qlora b4 × 2 GPU"]


def test_fragment_is_in_the_validation_page():
    text = (ROOT / "bench" / "data" / "ftoos16.md").read_text(encoding="utf-8")
    assert "fms-acceleration" in text and "Mixtral-8x7B qlora b8 × 1 GPU" in text
    assert '*_fragments("ftoos16.md")' in (ROOT / "bench" / "validate_time.py").read_text(encoding="utf-8")

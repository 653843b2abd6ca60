"""bench/validate_mem_oos14.py (issue 35 r14, memoos14): the entered LitGPT figures are the source's, and the rows
are scored as the docstring says.

The source excerpt is verbatim (tests/data/litgpt/resource-tables-0cc02afa-lora.md: Lightning-AI/litgpt
``tutorials/resource-tables.md`` at 0cc02afa, the LoRA tables)."""

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_mem_oos14 as v  # noqa: E402

SRC = ROOT / "tests" / "data" / "litgpt" / "resource-tables-0cc02afa-lora.md"
NAMES = {("1.3 B", "phi-1.5"): "phi-1.5", ("3 B", "StableLM Alpha"): "stablelm-3b",
         ("7 B", "Llama 2"): "llama-2-7b", ("13 B", "Llama 2"): "llama-2-13b"}


def _source_rows() -> dict:
    """{(model, quantize, micro-batch, GPUs): GB or None (OOM)} from the excerpt's LoRA tables."""
    out, gpus_col = {}, False
    for line in SRC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            gpus_col = "Multiple GPUs" in line
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 6 or not re.fullmatch(r"\d+(\.\d+)? B", cells[0]):
            continue
        model = NAMES.get((cells[0], cells[1]))
        if model is None:  # Falcon 40B: not entered (no preset of its architecture here)
            continue
        quant = None if cells[2] == "None" else cells[2].removeprefix("bnb.")
        gpus = int(cells[5].split(" x ")[0]) if gpus_col else 1
        mem = cells[6] if gpus_col else cells[5]
        if mem == "N/A":
            continue
        out[(model, quant, int(cells[3]), gpus)] = None if mem == "OOM" else float(mem.removesuffix(" GB"))
    return out


def test_entered_rows_are_the_source_figures():
    src = _source_rows()
    entered = {(m, q, b, g): gb for m, q, b, g, gb in v.ROWS}
    assert entered == src
    assert len(entered) == 31


def test_figures_converted_from_decimal_gb():
    res = {rid: pub for rid, pub, _pred, _t, _s in v.results()}
    assert res["llama-2-7b LoRA b1 × 1 GPU"] == pytest.approx(21.30e9 / 2 ** 30, rel=1e-12)


def test_single_gpu_lora_rows_within_ten_percent():
    """The one-GPU LoRA rows (no quantisation): LitGPT's bf16-true loop without checkpointing."""
    for rid, pub, pred, _total, scored in v.results():
        if scored and rid.endswith("× 1 GPU") and "QLoRA" not in rid:
            assert abs(pub / pred - 1) <= 0.10, rid


def test_qlora_rows_keep_their_unchecked_inputs():
    """bitsandbytes 0.41.1 without checkpointing: the scored QLoRA rows within 12% (they were 18-23% low before the
    4-bit linears' kept inputs were counted in layers that are not checkpointed)."""
    rows = [(rid, pub, pred) for rid, pub, pred, _t, scored in v.results() if scored and "QLoRA" in rid]
    assert len(rows) == 4
    for rid, pub, pred in rows:
        assert abs(pub / pred - 1) <= 0.12, rid


def test_oom_rows_predicted_oom():
    """The four runs the table marks OOM: what must fit is above the 40 GiB card (the 13B on two GPUs only since
    the FSDP mechanisms: unsharded block gradients under no_sync)."""
    oom = [(rid, total) for rid, pub, _pred, total, _s in v.results() if pub is None]
    assert len(oom) == 4
    assert all(total > v.CARD_GIB for _rid, total in oom)
    # and every run that completed is predicted to fit
    assert all(t < v.CARD_GIB for _r, pub, _p, t, _s in v.results() if pub is not None)

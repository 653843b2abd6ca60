"""bench/validate_ft_oos8.py: the round-8 out-of-sample fine-tuning rows recomputed, with bounds that can fail.

PEFT MetaMathQA (one L40S, Llama-3.2-3B, ~210-token samples): before round 8's L40S factor the LoRA/full rows were
+16…+26% too fast (median 18.4%); the ms-swift v1 same-data ratios (full / LoRA, batch 8 / 2, GA 1 / 16) cancel the
data set's unknown lengths and sit at a 4.3% median.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    for p in (ROOT, ROOT / "bench"):
        if str(p) not in sys.path:
            sys.path.insert(0, str(p))
    import validate_ft_oos8

    return validate_ft_oos8


def test_peft_mmqa_rows():
    b = _bench()
    errs = {r.id: b.peft_predict(r) / r.tokens_per_s - 1.0 for r in b.PEFT_ROWS if not r.shown_only}
    assert len(errs) == 12  # the DoRA row counts since training.dora (round 8, dora8)
    assert statistics.median(abs(e) for e in errs.values()) < 0.15
    # every q/v LoRA and full row is still on the fast side (the rest of the gap is not modelled): a sign check
    assert all(e > 0.0 for k, e in errs.items() if "mlp" not in k and "dora" not in k)
    # DoRA's weight norm (timing.dora_terms): +32% with the plain-LoRA cost before
    assert abs(errs["dora-r32-qv"]) < 0.10


def test_published_tokens_per_sample_is_the_same_data():
    b = _bench()
    # tokens / (1000 samples per 250-step window): one data set, one figure for every row
    assert {round(r.tokens_per_sample, 1) for r in b.PEFT_ROWS} == {209.9}


def test_swift_ratios():
    b = _bench()
    rows = {r.id: r for r in b.swift_rows()}
    assert len(rows) == 15
    rr = b.ratio_rows(rows)
    assert len(rr) == 11
    errs = [abs(pred / pub - 1.0) for _, pub, pred in rr]
    assert statistics.median(errs) < 0.08
    ga = [x for x in rr if "GA 1" in x[0]][0]
    assert abs(ga[2] / ga[1] - 1.0) < 0.05  # published 0.984: the optimizer step is small against 16 micro-batches

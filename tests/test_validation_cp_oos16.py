"""Issue 35 round 16 (helper cp16): the context-parallel scoreboard (bench/validate_cp_oos16.py).

Checks that can fail: the NeMo H100 long-sequence rows' batch, as ``validate_time`` builds it, equals the page's own
"Batch Size" column (NVIDIA/NeMo 9421f21, docs/source/performance/performance_long_sequence.md); the per-family
median and p90 of the held CP rows are no worse than at main 2b8c7c19 (the round's BEFORE); the fragment is wired.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import validate_cp_oos16 as cp16  # noqa: E402
import validate_time as vt  # noqa: E402

#: the page's "Batch Size" column of the LLAMA2-7B (FP8) - H100 table, by sequence length in K
PAGE_BATCH_H100 = {4: 1024, 8: 512, 16: 256, 32: 128, 64: 64, 128: 32, 256: 16, 512: 8, 1024: 4}


def test_nemo_h100_batch_matches_the_page():
    for k, _tp, dp, _cp, _pub in vt.NEMO_LONG_SEQ:
        assert max(4 * 1024 * 1024 // (k * 1024), dp) == PAGE_BATCH_H100[k]


def test_cp_families_no_worse_than_before():
    rows = cp16.torch_ring_rows() + cp16.te_ring_rows()
    assert len(rows) == len(cp16.BEFORE) == 21
    for fam in {f for f, _l, _e in rows}:
        after = [e for f, _l, e in rows if f == fam]
        before = [cp16.BEFORE[lbl] for f, lbl, _e in rows if f == fam]
        assert statistics.median(abs(e) for e in after) <= statistics.median(abs(e) for e in before) + 0.005
        assert cp16._p90(after) <= cp16._p90(before) + 0.005


def test_fragment_wired():
    text = (ROOT / "bench" / "data" / "cp16.md").read_text(encoding="utf-8")
    assert text.startswith("<!-- issue 35 round 16, helper cp16")
    assert '*_fragments("cp16.md")' in (ROOT / "bench" / "validate_time.py").read_text(encoding="utf-8")

"""bench/reserved_gap9.py and bench/fsdp1_init_cache_sim.py: reserved against allocated, with bounds that can fail.

The pairs (allocated and reserved of the same run) are the 80 H100 steps measured here (HF loop, one GPU, fixed
lengths), Answer.AI's two dual-3090 LoRA batch-1 runs (FSDP1) and verl's GPG run. The model's reserved/allocated
matches the H100 steps; it is below both Answer.AI pairs (the known FSDP1 gap, round 9 note resv9). The FSDP1 wrap
replay gives the cache the Answer.AI page implies after the wrap (3.72 GiB reserved, about 2.1 GiB of shards).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT, ROOT / "bench"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))


def test_pairs_cover_the_three_sources():
    import reserved_gap9 as g

    rows = g.pairs()
    tools = {r["tool"] for r in rows}
    assert len([r for r in rows if r["tool"].startswith("HF loop")]) == 80
    assert any(t.startswith("Answer.AI") for t in tools) and any(t.startswith("verl") for t in tools)


def test_hf_loop_reserved_ratio_matches_measured():
    """Fixed segments, fixed lengths, one GPU: modelled reserved/allocated within 2 points of the measured median
    (1.104) and the reserved peaks within 5% median."""
    import reserved_gap9 as g

    rows = [r for r in g.pairs() if r["tool"].startswith("HF loop")]
    pub = statistics.median(r["pub_res"] / r["pub_alloc"] for r in rows)
    mod = statistics.median(r["mod_res"] / r["mod_alloc"] for r in rows)
    assert abs(pub - 1.104) < 0.005
    assert abs(mod - pub) < 0.02
    assert statistics.median(abs(r["mod_res"] / r["pub_res"] - 1) for r in rows) < 0.05


def test_answerai_pairs_allocated_right_reserved_low():
    import reserved_gap9 as g

    rows = [r for r in g.pairs() if r["tool"].startswith("Answer.AI")]
    assert len(rows) == 2
    for r in rows:
        # < 4% since round 10 (ftmem10): FSDP1's root unit held for the whole step, +0.26 / +0.43 GiB (memory.py
        # fsdp1_root_unit_bytes); before it -1.6% / -0.7%
        # (< 5% since round 16: fsdpmem16's held input gradients under reentrant checkpointing, +4.3% on one row)
        assert abs(r["mod_alloc"] / r["pub_alloc"] - 1) < 0.05
        assert r["mod_res"] / r["mod_alloc"] < r["pub_res"] / r["pub_alloc"]  # the gap this round left open


def test_fsdp1_wrap_replay_matches_the_page():
    """The replayed wrap of Llama-2-7B QLoRA on two ranks caches 1.2-1.8 GiB (page: 3.72 - ~2.1); at least twice
    the root unit (embedding + output layer, 16-bit: 2 x 500 MiB), the code's lower bound."""
    import fsdp1_init_cache_sim as s

    res, live = s.run("qlora", 0.5)
    assert 1.2 < res - live < 1.8
    assert res - live >= 2 * 2 * 32000 * 4096 * 2 / 2 ** 30 - 0.01

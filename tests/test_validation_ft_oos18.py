"""bench/validate_ft_oos18.py (issue 35 round 18, ftoos18): fms-acceleration's 8af8fa7 tables (two L40s, one/two
A100-80GB), transcribed and scored; the switch ``training.qlora_no_upcast`` moves only the QLoRA one-GPU rows."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import validate_ft_oos18 as v  # noqa: E402


def test_transcription_steps_from_tokens_per_second():
    """runtime × tokens/s = steps × b × 4,096 per device: 20 steps on the L40s, 100 on the A100 (docstring)."""
    for card, steps in (("L40", 20), ("A100", 100)):
        for _c, _m, _g, b, runtime, tps in v.TABLES[card][1]:
            assert runtime * tps == pytest.approx(steps * b * 4096, rel=2e-5)
    assert len(v.ROWS) == 13 and len(v.A100_ROWS) == 21


def test_entry():
    t = v.training("none-lora", 4, 2)
    assert t["precision"] == "fp16" and t["master_weights"] is False and "mixed_precision_off" not in t
    assert t["lora_dropout"] == 0.0 and t["fsdp_version"] == 1
    q1, q2 = v.training("accelerated-peft-bnb", 4, 1), v.training("accelerated-peft-bnb", 2, 2)
    assert q1["master_weights"] is True and q2["master_weights"] is False
    assert q1["qlora_no_upcast"] is True and q2["qlora_no_upcast"] is True
    assert "qlora_no_upcast" not in v.training("none-full", 4, 1)


def test_before_after():
    before = json.loads(v.BEFORE.read_text(encoding="utf-8"))
    now = v.errors()
    assert set(before) == set(now) and len(now) == 34
    for rid, e in now.items():
        if " qlora " in rid and rid.endswith("× 1 GPU"):
            # the switch takes the fp32 cast off: every one-GPU QLoRA row faster by over 10 points (too slow before)
            assert before[rid] < -0.10 and e - before[rid] > 0.10 and abs(e) < 0.27, rid
        else:
            assert e == pytest.approx(before[rid], abs=1e-9), rid
    a100 = sorted(abs(e) for rid, e in now.items() if rid.startswith("A100"))
    assert a100[len(a100) // 2] < 0.05 and max(a100) < 0.20


def test_fragment(capsys):
    assert v.main(["--fragment"]) == 0
    out = capsys.readouterr().out
    assert "ftoos18" in out and "l40_40gb.csv @8af8fa7" in out and "| A100 Mistral-7B qlora b4 × 1 GPU | 4.82 |" in out
    assert (ROOT / "bench" / "data" / "ftoos18.md").read_text(encoding="utf-8").strip() == out.strip()

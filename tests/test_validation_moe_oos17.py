"""Issue 35 round 17 (moe17): NeMo 2.0's published Mixtral pre-training rows (bench/validate_moe_oos17.py).

Checks the reading of the pages against the model's FLOP count, the recipes' settings as entered, and pins the
predictions scored before any change (main eda76f01), so a later change to the MoE terms shows here."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_moe_oos17 as v  # noqa: E402

#: the pages' "Model TFLOP / sec / GPU" column beside the tokens/s: NeMo 25.02 B200 8x7B 1,282, 8x22B 824;
#: NeMo 25.04 GB200 8x7B 1,598 (the 8x22B figure is cut off in the stored copy)
PAGE_TFLOPS = {"25.02 B200 Mixtral-8x7B": 1282, "25.02 B200 Mixtral-8x22B 64k CP8": 824,
               "25.04 GB200 Mixtral-8x7B": 1598}


@pytest.fixture(scope="module")
def res():
    return {row[0]: (row, *v.predict(row)) for row in v.ROWS}


def test_page_tflops_are_the_models_flop_count(res):
    # TFLOP/s ÷ tokens/s = FLOPs a token. At 64k it is the model's count (causal attention): 824e12 / 2232 = 369.2 G.
    # At 4k NeMo's figure is the model's count plus the causal half of the attention it leaves in:
    # 6 · s · h · L = 6 · 4096 · 4096 · 32 = 3.22 G (82.9 = 79.7 + 3.2)
    for label, tflops in PAGE_TFLOPS.items():
        row, *_rest, t = res[label]
        page = tflops * 1e12 / row[-1]
        extra = 6 * 4096 * 4096 * 32 if "8x7B" in label else 0.0
        assert page == pytest.approx(t.flops_per_token + extra, rel=0.004), label


def test_recipe_settings_entered():
    # MegatronTokenDropCallback (capacity 1.0, padded), MixtralConfig alltoall, EP 8 with expert TP 1
    for row in v.ROWS:
        p = v.scenario(row)["parallel"]
        assert p["moe_dispatcher"] == "alltoall" and p["ep"] == 8 and p["expert_tp"] == 1
        assert p["moe_capacity_factor"] == 1.0 and p["moe_pad_to_capacity"] is True
    # only the 25.04 GB200 8x7B csv row sets cuda_graphs = 1; 25.02 is delayed scaling, 25.04 current scaling
    assert [v.scenario(r)["parallel"]["cuda_graph_scope"] for r in v.ROWS] == [None, None, "layer", None]
    assert [v.scenario(r)["training"]["fp8_recipe"] for r in v.ROWS] == ["te_delayed"] * 2 + ["te_current"] * 2
    # 8x22B: 256 GPUs / (TP 2 · PP 4 · CP 8) = DP 4; GBS 64 / (MBS 1 · DP 4) = the page's GA 16
    r = v.ROWS[1]
    assert r[6] // (r[7] * (r[5] // (r[9] * r[10] * r[11]))) == 16


def test_before_pinned(res):
    assert set(v.BEFORE) == set(res)
    for label, (row, pred, *_rest) in res.items():
        assert pred == pytest.approx(v.BEFORE[label], rel=0.02), label
    # the 4k rows within ±6 %, the 64k CP 8 rows too fast on both systems (the note's open miss)
    err = {k: r[1] / r[0][-1] - 1 for k, r in res.items()}
    assert abs(err["25.02 B200 Mixtral-8x7B"]) < 0.06 and abs(err["25.04 GB200 Mixtral-8x7B"]) < 0.08
    assert err["25.02 B200 Mixtral-8x22B 64k CP8"] > 0.3 and err["25.04 GB200 Mixtral-8x22B 64k CP8"] > 0.2


def test_fragment_wired():
    assert '*_fragments("moe17.md")' in (ROOT / "bench" / "validate_time.py").read_text(encoding="utf-8")
    assert (ROOT / "bench" / "data" / "moe17.md").exists()

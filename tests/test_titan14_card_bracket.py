"""Issue 35 round 14 (helper titan14): bench/titan14_card_bracket.py, the card what-if for torchtitan's H100 rows.

The bench changes no row and no model figure; these tests check its helpers against hand values: the error's sign,
the card mapping (the Grand Teton card's 2.4 TB/s; the NVL peaks as the lower bound), the recomputation increments
of an AC triple, and that the model on the slower card is slower (memory-bound work at 2.4 vs 3.35 TB/s).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _bench():
    sys.path.insert(0, str(ROOT / "bench"))
    import titan14_card_bracket as cb
    return cb


def test_error_sign_is_the_fsdp_bench_convention():
    """Predicted tokens/s / published − 1 = published s / predicted s − 1: + when the model is too fast."""
    cb = _bench()
    assert cb.err(1.1, 1.0) == pytest.approx(0.10)
    assert cb.err(0.9, 1.0) == pytest.approx(-0.10)


def test_grand_teton_mapping_and_nvl_peaks():
    cb = _bench()
    sc = {"hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}, "training": {}}
    gt = cb.gt_card(sc)
    card = gt["hardware"]["custom_gpus"][0]
    assert gt["hardware"]["gpu"] == card["id"]
    assert (card["mem_bw_tbs"], card["bf16_tflops"], card["tdp_w"]) == (2.4, 989, 500)
    assert "inter_node" not in gt["hardware"]  # one node: no fabric
    low = cb.gt_card(sc, cb.NVL_PEAKS)["hardware"]["custom_gpus"][0]
    assert (low["bf16_tflops"], low["fp8_tflops"], low["mem_bw_tbs"]) == (835.5, 1670.5, 2.4)
    assert low["id"] != card["id"]
    assert sc["hardware"]["gpu"] == "h100-sxm-80gb"  # the input is not changed


def test_ac_increments_are_differences_to_the_no_ac_row():
    cb = _bench()
    res = []
    for ac, (pub, cat) in {"no AC": (0.70, 0.60), "AC every 2nd layer": (0.77, 0.68),
                           "full AC": (0.84, 0.76)}.items():
        res.append({"name": f"8B s4096 lbs 1, {ac}, BF16 eager", "pub_s": pub, "cat": cat, "gt": cat + 0.1,
                    "gt_nvl": cat + 0.2})
    out = cb.ac_increments(res)
    assert [(k, ac) for k, ac, *_ in out] == [("BF16 eager", "AC every 2nd layer"), ("BF16 eager", "full AC")]
    _, _, pub, cat, gt, nvl = out[1]
    assert (pub, cat, gt, nvl) == (pytest.approx(0.14), pytest.approx(0.16), pytest.approx(0.16), pytest.approx(0.16))


def test_the_slower_card_is_slower_and_the_rows_are_the_unnamed_ones():
    """The eager triple's no-AC row: the Grand Teton card (2.4 TB/s) is slower than the catalogue SXM, and its NVL
    peaks slower again; the bench takes only the rows whose source names no card."""
    cb = _bench()
    rows = cb.rows()
    assert rows and all(r["group"].startswith(cb.UNNAMED_GROUPS) for r in rows)
    r = next(r for r in rows if r["name"] == "8B s4096 lbs 1, no AC, BF16 eager")
    assert r["cat"] < r["gt"] < r["gt_nvl"]
    assert r["pub_s"] == pytest.approx(4096.0 / 5339.0)


def test_the_logged_capacity_is_the_96_gb_card():
    """torchtitan's ``memory: X GiB(Y%)``: X / Y is the device's total memory. PR #808's three logs and pytorch/ao
    #1802's log give 95.0 GiB (the 96 GB HBM2e card); an 80 GB H100 SXM reports about 79.6 GiB (81,559 MiB)."""
    for gib, pct in ((47.65, 50.16), (47.77, 50.28), (47.32, 49.81), (47.79, 50.30), (40.25, 42.37)):
        assert gib / (pct / 100.0) == pytest.approx(95.0, abs=0.1)
        assert abs(gib / (pct / 100.0) - 81559 / 1024) > 10.0


def test_validate_fsdp_oos_puts_the_meta_rows_on_grand_teton():
    """The 8- and 4-GPU H100 rows by Meta's torchtitan / torchao developers carry the Grand Teton card; the 2026
    compiled-FSDP row (another author, no log) keeps the catalogue SXM."""
    cb = _bench()
    import validate_fsdp_oos as v
    gt_id = v._vt().GRAND_TETON_H100["id"]
    cards = {name: sc["hardware"]["gpu"] for group, name, sc, _pub, _src in v.rows()
             if group.startswith(cb.UNNAMED_GROUPS)}
    assert len(cards) == 15
    assert cards.pop("PR #179937 baseline 8B s4096 bs 2 (Apr 2026)") == "h100-sxm-80gb"
    assert set(cards.values()) == {gt_id}

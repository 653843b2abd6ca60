"""Round 18 (nemorl18): bench/nemorl_parts18.py splits every NeMo RL step row into the model's parts and reads the
on-policy / 1-step-off pairs. The parts must add up to the model's step, and the pair readings must follow from the
published figures by hand."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import nemorl_parts18 as P  # noqa: E402


@pytest.fixture(scope="module")
def table():
    return {rid: {"pub": pub, "kind": P.kind(rid), "parts": P.parts(scn)} for rid, scn, pub in P.all_rows()}


def test_all_43_rows(table):
    assert len(table) == 43
    kinds = [r["kind"] for r in table.values()]
    assert kinds.count("H100 on-policy") == 15 and kinds.count("H100 1-step off, MoE") == 8


def test_parts_add_up_and_are_not_negative(table):
    for rid, r in table.items():
        p = r["parts"]
        assert p["decode"] + p["refit"] + p["host"] + p["lp"] + p["train"] == pytest.approx(p["step"]), rid
        for k in ("decode", "refit", "host", "lp"):
            assert p[k] >= -1e-9, (rid, k)
        assert p["train"] > 0.0, rid


def test_signs_the_brief_names(table):
    on = [r for r in table.values() if r["kind"] == "H100 on-policy"]
    off = [r for r in table.values() if r["kind"] == "H100 1-step off, MoE"]
    assert all(r["pub"] > r["parts"]["step"] for r in on)
    assert sum(r["pub"] < r["parts"]["step"] for r in off) == 7


def test_pair_readings_by_hand(table):
    # the six H100 pairs (the GB200 pairs, which the note leaves open, are present since the merges: 9 in all)
    h100 = [pr for pr in P.PAIRS if "gb200" not in pr[0]]
    pairs = {r["on"]: r for r in P.pair_reading(table, h100)}
    assert len(pairs) == 6 and len(P.pair_reading(table)) == 9
    on, off = "nemo-rl v0.5 deepseek-v3 grpo 256xh100", "nemo-rl v0.5 deepseek-v3 grpo 512xh100 1-step off"
    a, b = table[on]["parts"], table[off]["parts"]
    r = pairs[on]
    # (b): T = 64.9 − the 1-step-off refit; the on-policy generation = 134 − T − refit − host copies
    assert r["b_train_s"] == pytest.approx(64.9 - b["refit"])
    assert r["b_gen_on_s"] == pytest.approx(134.0 - (64.9 - b["refit"]) - a["refit"] - a["host"])
    # (a): g = (64.9 − refit) / (step − refit); t = (134 − refit − host − g·decode) / (lp + train)
    g = (64.9 - b["refit"]) / (b["step"] - b["refit"])
    assert r["g"] == pytest.approx(g)
    assert r["t"] == pytest.approx((134.0 - a["refit"] - a["host"] - g * a["decode"]) / (a["lp"] + a["train"]))
    # every MoE pair needs training + log-probs several times the model's, whichever reading
    for r in pairs.values():
        assert r["t"] > 3.0 and r["b_train_s"] > 3.0 * r["model_s"]

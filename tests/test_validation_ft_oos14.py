"""Issue 35 round 14 (ftoos14): XTuner's published DeepSpeed ZeRO-3 speed benchmark (InternLM/xtuner
docs/zh_cn/acceleration/benchmark.rst at 43ef6ab99 / 7575f2c91), entered in bench/validate_ft_oos14.py. No mechanism
changed this round; these tests keep the rows' settings to their configs, the transcription to the page's own
arithmetic (its TFLOPs column is XTuner's ThroughputHook formula applied to its TGS), and the note's findings checked
against the model's own figures."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT, ROOT / "bench"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import validate_ft_oos14 as B  # noqa: E402

#: the page's rows as printed (model, GPUs, length, TGS, TFLOPs), typed again here so a slip in the bench shows
PAGE = {"xt-l2-7b-8k-8xa100": (8, 8192, 3028.3, 185.3), "xt-l2-7b-32k-8xa100": (8, 32768, 2234.2, 193.0),
        "xt-yi-34b-8k-32xa100": (32, 8192, 485.1, 165.6), "xt-l2-70b-8k-32xa100": (32, 8192, 216.8, 144.7)}


def _rows():
    return {r.id: r for r in B.all_rows()}


def test_rows_are_the_configs_settings():
    rows = _rows()
    assert set(rows) == set(PAGE)
    for rid, r in rows.items():
        n, seq, _tgs, _tf = PAGE[rid]
        t = r.training
        assert (r.num_gpus, t["seq_len"], r.gpu) == (n, seq, "a100-sxm-80gb")
        # batch_size 1 per device, accumulative_counts 1 (SP 1): one micro-batch per GPU per optimizer step
        assert (t["micro_batch_size"], t["global_batch_size"]) == (1, n)
        assert (t["framework"], t["method"], t["precision"], t["master_weights"]) == ("deepspeed", "full", "bf16", True)
        assert t["recompute"] == "full" and t["packing"] and t["flash_attention"]
        assert r.parallel == {"zero": 3}


def test_published_figures_match_the_pages_arithmetic():
    """Step = length / TGS (batch 1, one iteration per step); the page's TFLOPs column is XTuner's formula with the
    checkpointing factor 4 applied to its TGS (to 0.2%; the 7B 32k row to 0.7%), and not with the factor 3: the
    runs recomputed activations, as entered."""
    for rid, r in _rows().items():
        n, seq, tgs, tf = PAGE[rid]
        assert abs(r.measured - seq / tgs) < 1e-9
        preset = r.model["preset"]
        with_ckpt = B.xtuner_tflops(preset, seq, 1, tgs)
        assert abs(with_ckpt / tf - 1.0) < (0.008 if rid == "xt-l2-7b-32k-8xa100" else 0.002), rid
        assert abs(B.xtuner_tflops(preset, seq, 1, tgs, checkpointing=False) / tf - 1.0) > 0.15
    for name, preset, _n, seq, sp, tgs, tf in B.SP_ROWS:
        assert abs(B.xtuner_tflops(preset, seq, sp, tgs) / tf - 1.0) < 0.002, name


def test_one_server_rows_within_five_percent_and_zero2_close():
    """The single-server rows (NVLink only) are predicted within 5%; the unstated ZeRO stage moves them by < 8."""
    res = {r.id: (p, e) for r, p, e in B.results()}
    sens = B.sensitivity()
    for rid in ("xt-l2-7b-8k-8xa100", "xt-l2-7b-32k-8xa100"):
        assert abs(res[rid][1]) < 0.05, rid
        z2 = sens[rid]["ZeRO-2"]
        assert abs(_rows()[rid].measured / z2 - 1.0) < 0.08


def test_four_server_rows_predicted_too_fast_and_network_sensitive():
    """The 32-GPU rows are predicted too fast (+25..+55%) at the catalogue's default fabric; fewer NICs per server
    slow the prediction monotonically, and only about one 200 Gb/s NIC per server (or less) reaches the published
    steps: the unstated network decides how large the miss is."""
    res = {r.id: e for r, _p, e in B.results()}
    sens = B.sensitivity()
    for rid in ("xt-yi-34b-8k-32xa100", "xt-l2-70b-8k-32xa100"):
        assert 0.25 < res[rid] < 0.55, (rid, res[rid])
        preds = [sens[rid][lab] for lab, _hw in B.NETWORKS]
        assert all(a <= b + 1e-9 for a, b in zip(preds, preds[1:])), preds
        # one HDR NIC per server against eight (1.17× / 1.18× since round 15: the compute contention of the hidden
        # collectives is priced at their own rate, timing.contention_rate_share; 1.25× / 1.28× before)
        assert preds[3] > 1.15 * preds[0]
        assert _rows()[rid].measured > preds[2]  # still faster than published at two NICs per server


def test_sequence_parallel_pairs_show_a_cost_the_sp_rows_amortise():
    """The page's own evidence (note §4): on the same 32 GPUs the SP rows do more work per iteration in less time
    per unit of work than the SP 1 rows, although every iteration moves the same ZeRO-3 traffic."""
    pairs = {rid: (t, w) for rid, _n, t, w in B.sp_pairs()}
    t70, w70 = pairs["xt-l2-70b-8k-32xa100"]
    assert t70 < 0.75 and w70 > 1.1  # 70B: SP 4 iteration is 28% shorter for 19% more work
    tyi, wyi = pairs["xt-yi-34b-8k-32xa100"]
    assert wyi / tyi > 1.2


def test_memory_statements():
    """Every scored run completed on an 80 GB card (the model's peak fits, with room); the long-sequence page's
    Yi-34B 128k SP 1 ZeRO-3 runs went out of memory on 16, 32 and 64 GPUs (the model's peak is over the card)."""
    for rid, gib in B.fit_peaks().items():
        assert gib < 74.5, (rid, gib)  # 80 GB = 74.5 GiB
    peaks = B.oom_peaks()
    assert set(peaks) == set(B.OOM_GPUS) and all(g > 80.0 for g in peaks.values())


def test_table_prints_every_part():
    text = "\n".join(B.table())
    assert "all: 4 rows" in text and "one server" in text and "four servers" in text
    assert "1 x HDR 200" in text and "Llama2-70B 32k SP 4" in text and "OOM" in text

"""Issue 35 round 15 (postoos15): open-instruct's backend A/B runs (``bench/validate_post_oos15.py``), scored before
any change. The entered figures are checked against the source's own arithmetic (what a mistyped figure would
break) and the scenarios against the launch scripts' settings; no modelled number is asserted."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import validate_post_oos15 as V  # noqa: E402


def test_dpo_figures_match_the_docs_arithmetic():
    # 651 tok/s/GPU × 32 GPUs is the "20.83k total" the doc prints beside it
    assert V.DS_PACKED_TOK_S_GPU * V.GPUS == pytest.approx(V.DS_PACKED_TOK_S_TOTAL, rel=2e-3)
    # MFU = 6 × parameters × tokens/s over the H100's 989 TFLOP/s (dpo_tune_cache's count): 1.94% and 2.77% for a
    # 7.3B model at 456 and 651 tok/s/GPU (the ratio of the two MFUs is the ratio of the rates)
    assert 1.94 / 2.77 == pytest.approx(V.DS_UNPACKED_TOK_S_GPU / V.DS_PACKED_TOK_S_GPU, rel=0.01)
    assert 6 * 7.3e9 * V.DS_UNPACKED_TOK_S_GPU / 989e12 == pytest.approx(0.0194, rel=0.05)
    # OLMo-core: steps 20→149 in 443.2 s is the log's 3.436 s/step, "matching" wandb's 3.454
    first, last, seconds = V.OC_DPO_WINDOW
    assert seconds / (last - first) == pytest.approx(3.436, abs=5e-4)
    assert seconds / (last - first) == pytest.approx(V.OC_DPO_STEP_S, rel=0.006)
    # "62,940 tok/s total (~1,967/GPU)", MFU 8.56%, "3.0× DeepSpeed" (20.83k), "3.1× MFU" (2.77%)
    assert V.OC_DPO_TOK_S_TOTAL / V.GPUS == pytest.approx(1967, abs=1)
    assert 6 * 7.3e9 * V.OC_DPO_TOK_S_TOTAL / V.GPUS / 989e12 == pytest.approx(0.0856, rel=0.03)
    assert V.OC_DPO_TOK_S_TOTAL / V.DS_PACKED_TOK_S_TOTAL == pytest.approx(3.0, rel=0.02)
    assert 8.56 / 2.77 == pytest.approx(3.1, rel=0.01)
    # "the raw step-time ratio (~8×)": DeepSpeed's ~27 s/step
    assert V.DS_PACKED_STEP_S / V.OC_DPO_STEP_S == pytest.approx(8.0, rel=0.03)
    # 128 pairs a step: 4 nodes × 8 GPUs × one pair × 4 accumulation steps
    assert V.DPO_PAIRS_PER_STEP == 128


def test_dpo_derived_workload_by_hand():
    # 27 s × 20,830 tok/s = 562,410 tokens; over 256 sequences (128 pairs, chosen and rejected) 2,197 each
    assert V.dpo_tokens_per_step() == pytest.approx(562_410.0)
    assert V.dpo_mean_sequence() == 2197
    # the unpacked DeepSpeed step: the same tokens at 456 × 32 tok/s = 38.54 s
    assert V.ds_unpacked_step() == pytest.approx(562_410.0 / (456.0 * 32), rel=1e-9)
    assert V.ds_unpacked_step() == pytest.approx(38.54, abs=0.01)
    # OLMo-core's own count: 62,940 × 3.454 = 217,395 tokens a step, 849 a sequence
    assert V.oc_tokens_per_step() == pytest.approx(217_394.8, abs=0.5)
    assert V.oc_mean_sequence() == 849


def test_grpo_figures_match_the_docs_arithmetic():
    t = V.GRPO_TOKENS
    # 248.5k response + ~37k prompt ≈ the ~286k a step the doc prints; 128 = 8 prompts × 16 samples
    assert t["response"] + t["prompt"] == pytest.approx(t["total"], rel=0.01)
    assert t["samples"] == 8 * 16
    # "tok/s per learner GPU ~2,637 (response-only) / ~3,029 (incl. prompt)" are over OLMo-core's 23.56 s step on
    # 4 learners
    assert t["response"] / (V.GRPO_OC_STEP_S * 4) == pytest.approx(2637, rel=0.01)
    assert t["total"] / (V.GRPO_OC_STEP_S * 4) == pytest.approx(3029, rel=0.01)
    # OLMo-core ~5% faster end-to-end
    assert V.GRPO_DS_STEP_S / V.GRPO_OC_STEP_S - 1.0 == pytest.approx(0.054, abs=0.005)


def test_rows_carry_the_scripts_settings():
    rows = {r[0]: r for r in V.rows()}
    assert len(rows) == 5
    for rid, kind, src, scn, pub, _note in rows.values():
        assert "1c770f21" in src and "backend_ab" in src
        assert scn["hardware"]["gpu"] == "h100-sxm-80gb"
        tr = scn["training"]
        if kind == "dpo":
            # 4 nodes × 8 H100, one pair a GPU, 4 accumulation steps, 16k cut, cached reference, recompute
            assert scn["hardware"]["num_gpus"] == 32 and scn["hardware"]["gpus_per_node"] == 8
            assert tr["seq_len"] == 16384 and tr["micro_batch_size"] == 1 and tr["global_batch_size"] == 128
            assert tr["preference"]["reference"] == "precomputed" and tr["recompute"] == "full"
            assert scn["data"]["mean_sample_len"] == (849 if "OLMo-core" in rid else 2197)
            assert tr["padding_free"] == (" packed" in rid)
            assert (tr["framework"] == "fsdp") == ("OLMo-core" in rid)
            assert tr.get("torch_compile", False) == ("OLMo-core" in rid)
        else:
            rl = tr["rl"]
            # 8 prompts × 16, response ≤ 8,192, 4 + 4 GPUs, vLLM TP 1, no reference (beta 0), rule reward
            assert rl["group_size"] == 16 and tr["global_batch_size"] == 128 and rl["rollout_len"] == 8192
            assert rl["generation_engine"] == "vllm_separate" and rl["generation_gpu_fraction"] == 0.5
            assert rl["rollout_tp"] == 1 and rl["reward"] == "function"
            assert tr["preference"]["reference"] == "none"
            assert rl["mean_response_fraction"] * 8192 == pytest.approx(248_500 / 128)
            assert tr["seq_len"] == 10240 and tr["packing"] is True
            assert scn["parallel"]["zero"] == (2 if "DeepSpeed" in rid else 3)


def test_scoring_uses_the_briefs_sign():
    # published / predicted − 1: a published step twice the model's is +100%
    assert V.err(2.0, 1.0) == pytest.approx(1.0)
    assert V.err(1.0, 2.0) == pytest.approx(-0.5)
    med, p90 = V._stats([0.1, -0.2, 0.3, -0.4, 0.5])
    assert med == pytest.approx(0.3) and p90 == pytest.approx(0.46)


def test_every_row_scores():
    t = V.table()
    assert [r["kind"] for r in t] == ["dpo", "dpo", "dpo", "grpo", "grpo"]
    for r in t:
        for k, (p, m, e) in r["keys"].items():
            assert p > 0 and m > 0 and e == pytest.approx(p / m - 1.0)
    s = V.summary(t)
    assert len(s["all"][2]) == 5 and len(s["dpo"][2]) == 3 and len(s["grpo"][2]) == 2


def test_fragment_is_in_the_validation_page():
    root = Path(__file__).resolve().parents[1]
    frag = (root / "bench" / "data" / "postoos15.md").read_text(encoding="utf-8")
    assert frag.startswith("<!--") and "\n### " in frag and "1c770f21" in frag
    assert '*_fragments("postoos15.md")' in (root / "bench" / "validate_time.py").read_text(encoding="utf-8")

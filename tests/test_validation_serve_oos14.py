"""Issue 35 round 14 (servoos14): the SGLang H20 batch-1 rows of bench/validate_serve_oos14.py — the entered figures
against the source's tables, the benchmark's speed rule by hand, and that the printed sensitivity changes nothing."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import validate_serve_oos14 as S  # noqa: E402
from gpuplanner.core import inference as inf  # noqa: E402
from gpuplanner.core.catalog_hw import get_gpu  # noqa: E402

# Typed again from the source's tables (QwenLM/Qwen2.5 docs/source/getting_started/speed_benchmark.md @ac72724,
# "Qwen3-8B (SGLang)", "Qwen3-30B-A3B (SGLang)", "Qwen3-235B-A22B (SGLang)"): (preset, quantisation, input length)
# -> (GPU Num, Speed (tokens/s)).
SOURCE_SPOTS = {
    ("qwen3-8b", "bf16", 1): (1, 81.73), ("qwen3-8b", "fp8", 129024): (1, 1393.21),
    ("qwen3-8b", "bf16", 30720): (1, 832.67), ("qwen3-30b-a3b", "bf16", 1): (1, 137.18),
    ("qwen3-30b-a3b", "fp8", 63488): (1, 1647.89), ("qwen3-30b-a3b", "bf16", 129024): (1, 1385.65),
    ("qwen3-235b-a22b", "bf16", 1): (8, 74.50), ("qwen3-235b-a22b", "fp8", 14336): (4, 514.23),
    ("qwen3-235b-a22b", "bf16", 129024): (8, 1639.54), ("qwen3-235b-a22b", "fp8", 6144): (4, 275.16),
}


def test_entered_rows_match_the_source():
    """Six models x quantisations, each at the six input lengths of the source's notes (129,024, printed "129042"
    in the tables), 2,048 generated tokens; every spot figure and GPU count as the source prints it."""
    assert S.LENGTHS == (1, 6144, 14336, 30720, 63488, 129024) and S.OUTPUT == 2048 and S.GPU == "h20-96gb"
    rows = S.rows()
    assert len(rows) == 36 and len({r[:4] for r in rows}) == 36
    by_key = {(p, prec, n): (tp, v) for p, prec, tp, n, v in rows}
    for key, want in SOURCE_SPOTS.items():
        assert by_key[key] == want, key
    for p, prec, tp, vals in S.SPEED:  # the source's speeds rise with the prompt up to 63,488 tokens in every table
        assert list(vals[:5]) == sorted(vals[:5]), (p, prec)


def test_speed_is_prompt_plus_output_over_prefill_plus_decode_by_hand():
    """(L + 2048) / (first token + 2,047 batch-1 steps at the mean context L + 1,024), from the planner's own
    functions called here, for a dense and an MoE row."""
    gpu = get_gpu("h20-96gb")
    for preset, prec, tp, prompt in (("qwen3-8b", "bf16", 1, 6144), ("qwen3-30b-a3b", "fp8", 1, 30720)):
        m = S.model(preset)
        first = inf.time_to_first_token_s(m, gpu, prompt_tokens=prompt, precision=prec, tp=tp, loop="overlapped",
                                          chunk=inf.prefill_chunk_tokens("sglang", gpu), kv_precision="bf16",
                                          engine="sglang")
        step = inf.decode_step_s(m, gpu, precision=prec, kv_bytes=inf.KV_BYTES["bf16"], batch=1,
                                 context=prompt + 1024, tp=tp, eff=inf.ServingEfficiency(), loop="overlapped")[0]
        want = (prompt + 2048) / (first + 2047 * step)
        assert S.predicted_speed(preset, prec, tp, prompt) == pytest.approx(want, rel=1e-12)


def test_errors_use_published_over_predicted_and_sensitivity_restores():
    """Each row's error is published / predicted - 1 (the brief's convention); the padded-tile sensitivity leaves
    the module constant as it found it and moves the prompt-1 dense rows (so it can fail if it stops probing)."""
    res = S.scored()
    for (a, e, label, meas, got, share), (p, prec, tp, n, v) in zip(res, S.rows()):
        assert meas == v and e == pytest.approx(meas / got - 1) and a == abs(e) and 0 <= share < 1
    keep = inf.SMALL_M_TILE_ROWS
    sens = S.tile_sensitivity(64)
    assert inf.SMALL_M_TILE_ROWS == keep
    assert sens[0][4] < res[0][4]  # qwen3-8b BF16 prompt 1: a wider pad is slower


def test_fp8_and_moe_rows_are_faster_where_the_weights_are_fewer():
    """Batch-1 decode streams the weights: FP8 Qwen3-8B beats BF16 at a 1-token prompt, and the MoE 30B-A3B (3B
    active) beats the dense 8B, as in the source (150.25 > 81.73; 137.18 > 81.73)."""
    assert S.predicted_speed("qwen3-8b", "fp8", 1, 1) > S.predicted_speed("qwen3-8b", "bf16", 1, 1)
    assert S.predicted_speed("qwen3-30b-a3b", "bf16", 1, 1) > S.predicted_speed("qwen3-8b", "bf16", 1, 1)


def test_fragment_is_registered_and_carries_the_scripts_figures():
    """bench/data/servoos14.md is in bench/validate_time.py's list, starts with its HTML comment, and its headline
    row is what the script computes now (so a model change that moves these rows fails here until the note is
    updated)."""
    root = Path(__file__).resolve().parents[1]
    assert '*_fragments("servoos14.md")' in (root / "bench" / "validate_time.py").read_text(encoding="utf-8")
    text = (root / "bench" / "data" / "servoos14.md").read_text(encoding="utf-8")
    assert text.startswith("<!--")
    a = sorted(x[0] for x in S.scored())
    med = (a[17] + a[18]) / 2
    p90 = a[min(len(a) - 1, int(round(0.9 * (len(a) - 1))))]
    assert f"| all new rows | 36 | {med * 100:.1f}% | {p90 * 100:.1f}% |" in text


def test_gpustack_rows_match_the_source_and_tpot_adds_the_other_prefills():
    """(G): the runs' token totals and a spot figure per engine as the page prints them; TPOT at C = 1 is the bare
    batch-1 step, and at C > 1 it adds (C − 1) prefills of the mean prompt over the 219.6 later tokens."""
    assert (S.G_PROMPT, S.G_OUTPUT, S.G_GPU) == (232.6, 220.61, "h100-sxm-80gb")
    got = {(r[1], r[2], r[3]): (r[4], r[5]) for r in S.GPUSTACK}
    assert got[("vllm", "bf16", 1)] == (7.28, 59.01) and got[("vllm", "bf16", 8)] == (7.71, 74.57)
    assert got[("sglang", "bf16", 4)] == (7.19, 27.70) and got[("sglang", "fp8", 4)] == (5.65, 39.66)
    assert got[("tensorrt-llm", "bf16", 4)] == (7.67, 51.61) and len(S.GPUSTACK) == 7
    m, gpu = S.model("qwen3-8b"), get_gpu("h100-sxm-80gb")
    step = lambda b: inf.decode_step_s(m, gpu, precision="bf16", kv_bytes=inf.KV_BYTES["bf16"], batch=b,  # noqa: E731
                                       context=232.6 + 220.61 / 2, tp=1, eff=inf.ServingEfficiency(),
                                       loop="overlapped")[0]
    assert S.gpustack_modelled("vllm", "bf16", 1)[0] == pytest.approx(step(1), rel=1e-12)
    pre = inf.prefill_s(m, gpu, precision="bf16", prompt=232.6, tp=1, eff=inf.ServingEfficiency(),
                        attn_precision="bf16", engine="vllm")
    assert S.gpustack_modelled("vllm", "bf16", 4)[0] == pytest.approx(step(4) + 3 * pre / 219.61, rel=1e-12)
    # the vLLM first token carries its API wait, SGLang's none: the same prompt, 2 ms apart
    assert S.gpustack_modelled("vllm", "bf16", 1)[1] - S.gpustack_modelled("sglang", "bf16", 4)[1] == \
        pytest.approx(inf.api_request_wait_s("vllm"), abs=1e-9)

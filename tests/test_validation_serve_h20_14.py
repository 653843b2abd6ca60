"""Issue 35 round 14 (h20serve14): the H20 decode rows and the A100 control of bench/validate_serve_h20_14.py — the
entered figures against the sources, the scoring rules by hand, the share diagnostic's round trip, and the finding
that kept the planner unchanged (the H20 rows need no single streaming share, the H20's copy kernel streams at the
planner's share)."""
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import validate_serve_h20_14 as H  # noqa: E402
from gpuplanner.core import inference as inf  # noqa: E402
from gpuplanner.core import timing  # noqa: E402
from gpuplanner.core.catalog_hw import get_gpu  # noqa: E402


def test_entered_rows_match_the_sources():
    """(D) sgl-project/sglang PR #7631's tuned run, (A) the Qwen2.5 speed benchmark's vLLM BF16 rows at a 1-token
    prompt, (K1) cuda-samples issue #366's SM copy: every figure as the sources print it, typed again."""
    assert (H.D_GPU, H.D_ENGINE, H.D_TP, H.D_CONC) == ("h20-96gb", "sglang", 8, 8)
    assert math.isclose(H.D_PROMPT * 200, 103005) and math.isclose(H.D_OUTPUT * 200, 53590)
    assert (H.D_ITL_MEAN_MS, H.D_ITL_MEDIAN_MS, H.D_TTFT_MS) == (22.99, 19.73, 256.53)
    got = {(p, tp): v for p, tp, v in H.A_ROWS}
    assert got == {("qwen2.5-0.5b", 1): 311.55, ("qwen2.5-1.5b", 1): 183.33, ("qwen2.5-7b", 1): 84.28,
                   ("qwen2.5-14b", 1): 46.30, ("qwen2.5-32b", 1): 22.13, ("qwen2.5-72b", 2): 18.19,
                   ("qwen2.5-72b", 4): 31.37}
    assert (H.A_GPU, H.A_ENGINE, H.A_OUTPUT) == ("a100-sxm-80gb", "vllm", 2048)
    assert [v for _, v in H.K_ROWS] == [3.3]


def test_median_itl_is_the_bare_step_and_the_mean_adds_the_other_prefills_by_hand():
    """(D): the median ITL is the planner's batch-8 step over the mean context; the mean adds 7 prefills of the mean
    prompt over a request's 267 later tokens; error = published / predicted − 1."""
    m, gpu = H.model("deepseek-v3"), get_gpu("h20-96gb")
    step = inf.decode_step_s(m, gpu, precision="fp8", kv_bytes=inf.KV_BYTES["bf16"], batch=8,
                             context=515.025 + 267.95 / 2, tp=8, eff=inf.ServingEfficiency(),
                             loop=inf.ENGINE_LOOP["sglang"],  # round 15 (h20dec15): the engine's tiles, as a plan
                             tile_rows=inf.dense_tile_rows("sglang", gpu, "fp8", m),
                             pad_rows=inf.block_tile_rows("sglang", gpu, "fp8", m))[0]
    pre = inf.prefill_s(m, gpu, precision="fp8", prompt=515.025, tp=8, eff=inf.ServingEfficiency(),
                        attn_precision="bf16", engine="sglang")
    rows = H.d_scored()
    assert math.isclose(rows[0][4], step * 1e3, rel_tol=1e-9)
    assert math.isclose(rows[1][4], (step + 7 * pre / (267.95 - 1)) * 1e3, rel_tol=1e-9)
    for a, e, _, meas, got in rows:
        assert math.isclose(e, meas / got - 1) and math.isclose(a, abs(e))


def test_a100_speed_is_2049_tokens_over_first_token_plus_2047_steps():
    """(A): a 1-token prompt's speed = 2,049 tokens / (first token + 2,047 batch-1 steps at context 1,025)."""
    preset, tp, meas = H.A_ROWS[2]
    first = H.first_token_s(preset, "a100-sxm-80gb", "vllm", "bf16", 1, tp)
    step = H.step_s(preset, "a100-sxm-80gb", "vllm", "bf16", 1, 1025, tp)
    row = H.a_scored()[2]
    assert math.isclose(row[4], 2049 / (first + 2047 * step), rel_tol=1e-9)
    assert math.isclose(row[1], meas / row[4] - 1)


def test_required_share_round_trips():
    """The share diagnostic: asked for the model's own step it returns the model's share; the step it returns a
    share for is the step the model gives at that share."""
    args = ("qwen2.5-7b", "a100-sxm-80gb", "vllm", "bf16", 1, 1025, 1)
    own = H.step_s(*args)
    assert math.isclose(H.required_share(own, *args), inf.ServingEfficiency().memory_bandwidth, rel_tol=1e-3)
    s = H.required_share(1.5 * own, *args)
    assert s < inf.ServingEfficiency().memory_bandwidth
    assert math.isclose(H.step_s(*args, share=s), 1.5 * own, rel_tol=1e-3)


def test_no_single_h20_share_while_the_copy_kernel_streams_at_the_planners_share():
    """Why nothing changed: the H20 engine rows need streaming shares more than 2x apart (no one card constant fits
    them), the A100 control (same publisher and method, 7B and up) needs one near the model's, and the H20's SM copy
    kernel (K1) is within 10% of the planner's streaming share of its datasheet."""
    table = H.share_table()
    h20 = [s for label, _, s in table if label.startswith("H20")]
    a100 = [s for label, _, s in table if label.startswith("A100") and "0.5b" not in label and "1.5b" not in label]
    assert len(h20) == 7 and len(a100) == 5
    assert max(h20) / min(h20) > 2.0
    assert statistics.median(h20) < 0.5 * inf.ServingEfficiency().memory_bandwidth
    assert all(0.55 < s < inf.ServingEfficiency().memory_bandwidth for s in a100)
    (a, e, _, meas, bw), = H.k_scored()
    assert math.isclose(bw, timing.MEM_BW_EFFICIENCY * 4.0) and a < 0.10


def test_fragment_is_registered_and_carries_the_scripts_figures():
    """bench/data/h20serve14.md is in bench/validate_time.py's list, starts with its HTML comment, and carries the
    (D) median-ITL error the script computes now (a model change that moves it fails here until the note is
    updated)."""
    root = Path(__file__).resolve().parents[1]
    assert '*_fragments("h20serve14.md")' in (root / "bench" / "validate_time.py").read_text(encoding="utf-8")
    text = (root / "bench" / "data" / "h20serve14.md").read_text(encoding="utf-8")
    assert text.startswith("<!--")
    d = H.d_scored()
    assert f"{d[0][3]:.2f} | {d[0][4]:.2f} | {d[0][1]:+.1%}" in text

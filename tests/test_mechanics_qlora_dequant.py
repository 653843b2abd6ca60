"""bitsandbytes' NF4 dequantisation kernel at the GPU's integer issue rate (timing.qlora_dequant_seconds).

Hand-derived figures, the GPU facts, and the published A100 rows it moves (bench/validate_ft_oos.py,
bench/validate_ft_tools.py)."""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import pytest

from gpuplanner.core import timing
from gpuplanner.core.arrayops import ScalarOps
from gpuplanner.core.catalog_hw import lookup_gpu
from gpuplanner.core.memory import QLORA_NF4_BYTES

ROOT = Path(__file__).resolve().parents[1]
LLAMA2_7B_LINEAR = 32 * (4 * 4096 * 4096 + 3 * 4096 * 11008)  # 6,476,005,376 base linear weights


def _lay(n: float, bnb: bool = True) -> dict:
    return {"ops": ScalarOps, "deq_elems": n, "deq_bytes": n * (QLORA_NF4_BYTES + 4.0), "deq_bnb": bnb}


def test_constant_is_the_published_h100_measurement():
    # bitsandbytes 0.45.2 dequantize_nf4, 0.1517 ms for a 4096 x 14336 bf16 weight on an H100 SXM (132 SMs x 1.98 GHz):
    # 0.676 SM cycles per element
    assert timing.BNB_NF4_DEQUANT_SM_CYCLES_PER_ELEM == pytest.approx(0.6761, abs=1e-4)


H100_SHAPE = 4096 * 14336  # the measured weight: 58,720,256 elements


def _traffic_s(n: float, out_bytes: float, mem_bw: float) -> float:
    # read NF4 + its constants, write the output: the kernel's own traffic at the model's achievable bandwidth
    return n * (QLORA_NF4_BYTES + out_bytes) / mem_bw


def test_published_h100_card_is_an_sxm():
    """The same docstring's Triton LUT kernel wrote fp32 in 0.0978 ms and bf16 in 0.0580 ms: 265 / 148 MB moved,
    2.7 / 2.5 TB/s, above an H100 PCIe's 2.0 TB/s datasheet peak and below an SXM's 3.35 TB/s. So the 0.1517 ms is
    divided by the SXM's SM cycle rate (132 x 1.98 GHz), not the PCIe's (114 x 1.755 GHz, which would give 0.515)."""
    pcie, sxm = lookup_gpu("h100-pcie-80gb"), lookup_gpu("h100-sxm-80gb")
    for out_bytes, t in ((4.0, 0.0978e-3), (2.0, 0.0580e-3)):
        tbs = H100_SHAPE * (QLORA_NF4_BYTES + out_bytes) / t / 1e12
        assert pcie.mem_bw_tbs < tbs < sxm.mem_bw_tbs, (out_bytes, tbs)


def test_published_h100_times_are_issue_bound_not_traffic_bound():
    """bitsandbytes 0.45.2 dequantize_nf4 on the H100 SXM: 0.1517 ms to bf16, 0.1492 ms to fp32. Doubling the written
    bytes did not lengthen it, and both times are well above the traffic time, so the old kernel is issue-bound; the
    model gives 0.1517 ms for either output dtype."""
    g = lookup_gpu("h100-sxm-80gb")
    mem_bw = g.mem_bw_tbs * 1e12 * timing.MEM_BW_EFFICIENCY
    issue = H100_SHAPE * timing.BNB_NF4_DEQUANT_SM_CYCLES_PER_ELEM / timing.sm_cycle_rate(g)
    assert issue == pytest.approx(0.1517e-3, rel=1e-6)
    for out_bytes, published in ((2.0, 0.1517e-3), (4.0, 0.1492e-3)):
        assert _traffic_s(H100_SHAPE, out_bytes, mem_bw) < 0.7 * published
        assert max(issue, _traffic_s(H100_SHAPE, out_bytes, mem_bw)) == pytest.approx(published, rel=0.02)


# issue-bound (old kernel slower at every size, PR #1747: A100, H100) or memory-bound at large sizes (RTX 4090, L40S)
PR1747_SPLIT = [("a100-sxm-80gb", True), ("a100-pcie-40gb", True), ("h100-sxm-80gb", True),
                ("h100-pcie-80gb", True), ("rtx-4090-24gb", False), ("l40s-48gb", False)]


@pytest.mark.parametrize("gpu,issue_bound", PR1747_SPLIT)
def test_pr1747_split_follows_sm_count_times_clock(gpu, issue_bound):
    """bitsandbytes PR #1747 (2025-09-05): the lookup kernel is 1.36-2.07x faster on P100/A100/H100 at every size,
    faster only for small sizes on sm86/sm89. The old kernel's issue rate against its memory speed (1 = balanced):
    A100 SXM 0.35, A100 PCIe 0.46, H100 SXM 0.36, H100 PCIe 0.46, RTX 4090 1.49, L40S 1.93."""
    g = lookup_gpu(gpu)
    issue_rate = timing.sm_cycle_rate(g) / timing.BNB_NF4_DEQUANT_SM_CYCLES_PER_ELEM  # elements/s
    mem_rate = g.mem_bw_tbs * 1e12 * timing.MEM_BW_EFFICIENCY / (QLORA_NF4_BYTES + 2.0)
    assert (issue_rate < 0.6 * mem_rate) if issue_bound else (issue_rate > 1.3 * mem_rate), issue_rate / mem_rate


def test_bandwidth_scaling_alternative_contradicts_pr1747():
    """Scaling the H100 time by HBM bandwidth instead puts every GPU at the same 0.36 of its memory speed, so the
    lookup kernel would gain as much on an RTX 4090 or L40S at large sizes as on an A100, which PR #1747 did not see."""
    h = lookup_gpu("h100-sxm-80gb")
    h_rate = timing.sm_cycle_rate(h) / timing.BNB_NF4_DEQUANT_SM_CYCLES_PER_ELEM
    for gpu in ("rtx-4090-24gb", "l40s-48gb"):
        g = lookup_gpu(gpu)
        alt = h_rate * g.mem_bw_tbs / h.mem_bw_tbs
        mem_rate = g.mem_bw_tbs * 1e12 * timing.MEM_BW_EFFICIENCY / (QLORA_NF4_BYTES + 2.0)
        assert alt / mem_rate == pytest.approx(0.36, abs=0.01)


def test_fp32_rate_alternative_differs_only_on_64_lane_parts():
    """Scaling by FP32 TFLOPS instead agrees wherever an SM has 128 FP32 lanes (H100, RTX 4090, L40S) and halves
    the rate on GA100 (A100: 113e9 against 225e9 elements/s). PR #1747's summary cannot tell the two apart; the A100
    bench rows disagree (see the note issue-35-r6-nf4src.md)."""
    h = lookup_gpu("h100-sxm-80gb")
    per_fp32 = H100_SHAPE / (0.1517e-3 * h.fp32_tflops)  # elements/s per FP32 TFLOPS
    for gpu, ratio in (("h100-sxm-80gb", 1.0), ("rtx-4090-24gb", 1.0), ("l40s-48gb", 1.0), ("a100-sxm-80gb", 0.5)):
        g = lookup_gpu(gpu)
        sm = timing.sm_cycle_rate(g) / timing.BNB_NF4_DEQUANT_SM_CYCLES_PER_ELEM
        assert per_fp32 * g.fp32_tflops / sm == pytest.approx(ratio, rel=0.01), gpu


@pytest.mark.parametrize("gpu,sm_ghz", [("a100-sxm-80gb", 152.3), ("h100-sxm-80gb", 261.7),
                                        ("rtx-4090-24gb", 322.7), ("rtx-a6000-48gb", 151.2), ("mi300x-192gb", 0.0)])
def test_sm_cycle_rate_from_the_catalog(gpu, sm_ghz):
    # A100: 108 SMs x 1.41 GHz; H100 SXM: 132 x 1.98; RTX 4090: 128 x 2.52; RTX A6000: 84 x 1.80; AMD: not modelled
    g = lookup_gpu(gpu)
    assert timing.sm_cycle_rate(g) / 1e9 == pytest.approx(sm_ghz, abs=0.1)
    # the time model runs GeForce SMs at the sustained clock (issue 35 r7 geserve7): RTX 4090 128 x 2.73 GHz = 349.4
    held = sm_ghz * (2730 / 2520 if gpu.startswith("rtx-4090") else 1.0)
    assert timing.gpu_time_facts(g, "bf16").kwargs("bf16")["sm_ghz"] == pytest.approx(held, abs=0.1)


def test_a100_one_pass_by_hand():
    mem_bw = 2.039e12 * timing.MEM_BW_EFFICIENCY
    t = timing.qlora_dequant_seconds(_lay(LLAMA2_7B_LINEAR), mem_bw, 152.3)
    kernel = LLAMA2_7B_LINEAR * 0.6761 / 152.3e9  # 28.7 ms: issue-bound (its traffic is 10.0 ms)
    read_back = LLAMA2_7B_LINEAR * 2.0 / mem_bw  # 7.9 ms
    assert kernel == pytest.approx(0.0287, rel=0.01)
    assert t == pytest.approx(kernel + read_back, rel=1e-3)


def test_memory_bound_where_the_issue_rate_is_high():
    # RTX 4090: 322.7e9 SM cycles/s against 1.008 TB/s: 13.6 ms of issue, 20.2 ms of traffic -> traffic, as before
    mem_bw = 1.008e12 * timing.MEM_BW_EFFICIENCY
    lay = _lay(LLAMA2_7B_LINEAR)
    assert timing.qlora_dequant_seconds(lay, mem_bw, 322.7) == pytest.approx(lay["deq_bytes"] / mem_bw)


def test_traffic_only_without_bitsandbytes_or_a_known_rate():
    mem_bw = 2.039e12 * timing.MEM_BW_EFFICIENCY
    lay = _lay(LLAMA2_7B_LINEAR, bnb=False)  # torchtune's torchao NF4Tensor
    assert timing.qlora_dequant_seconds(lay, mem_bw, 152.3) == pytest.approx(lay["deq_bytes"] / mem_bw)
    assert timing.qlora_dequant_seconds(_lay(LLAMA2_7B_LINEAR), mem_bw, 0.0) == pytest.approx(
        lay["deq_bytes"] / mem_bw)


def test_which_tools_run_bitsandbytes():
    assert {"hf", "trl", "axolotl", "llamafactory", "ms-swift", "unsloth"} <= set(timing.BNB_QLORA_TOOLS)
    assert "fsdp" not in timing.BNB_QLORA_TOOLS and "megatron" not in timing.BNB_QLORA_TOOLS


def test_ms_swift_qlora_pair_moves_towards_published():
    """ms-swift Benchmark.md @4692215: bnb int4 against bf16 LoRA on one A100, the same data and max_length. The
    added time per sample is 183 ms (Qwen-7B) and 351 ms (Qwen-14B); the model gave 49 / 98 ms before this
    mechanism (-73%). It now gives about 60% of it (the note: the rest is unexplained)."""
    sys.path.insert(0, str(ROOT / "bench"))
    import validate_ft_oos as v

    rows = {r.id: r for r in v.rows()}
    for q, b in (("qwen-7b-int4-bnb", "qwen-7b-lora-2048"), ("qwen-14b-int4-bnb", "qwen-14b-lora-2048")):
        pub = 1 / rows[q].published - 1 / rows[b].published
        pred = 1 / v.predict(rows[q]) - 1 / v.predict(rows[b])
        assert -0.5 < pred / pub - 1 < -0.3, (q, pub, pred)


def test_llamafactory_wiki_qlora_short_rows():
    """LLaMA-Factory wiki long-context table, LLaMA2-7B QLoRA on an A100 40GB: the 1,024-4,096-token rows were
    +0.5…+15% too fast with the dequantisation at HBM speed; within ±8% now."""
    sys.path.insert(0, str(ROOT / "bench"))
    import validate_ft_tools as vft

    rows = [r for r in vft.all_rows() if r.table == "lf-wiki-longctx" and r.kind == "tps" and r.training["seq_len"]
            <= 4096]
    errs = [vft.error(r, vft.predict(r)) for r in rows]
    assert len(errs) == 6 and max(abs(e) for e in errs) < 0.08, errs
    assert statistics.median(abs(e) for e in errs) < 0.05

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
    # 0.1517 ms for a 4096 x 14336 weight on an H100 SXM (132 SMs x 1.98 GHz): 0.676 SM cycles per element
    assert timing.BNB_NF4_DEQUANT_SM_CYCLES_PER_ELEM == pytest.approx(0.6761, abs=1e-4)


@pytest.mark.parametrize("gpu,sm_ghz", [("a100-sxm-80gb", 152.3), ("h100-sxm-80gb", 261.7),
                                        ("rtx-4090-24gb", 322.7), ("rtx-a6000-48gb", 151.2), ("mi300x-192gb", 0.0)])
def test_sm_cycle_rate_from_the_catalog(gpu, sm_ghz):
    # A100: 108 SMs x 1.41 GHz; H100 SXM: 132 x 1.98; RTX 4090: 128 x 2.52; RTX A6000: 84 x 1.80; AMD: not modelled
    g = lookup_gpu(gpu)
    assert timing.sm_cycle_rate(g) / 1e9 == pytest.approx(sm_ghz, abs=0.1)
    assert timing.gpu_time_facts(g, "bf16").kwargs("bf16")["sm_ghz"] == pytest.approx(sm_ghz, abs=0.1)


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

"""Issue 35 round 16 (ac16): non-reentrant checkpointing's early stop, and llm-foundry's attention kernel per table.

Hand-derived: MPT-13B (h = 5120, L = 40, GeLU 4h MLP) at 2,048 tokens. Whole-layer recompute re-runs the forward of
every layer, 24·h²·L matmul FLOPs a token plus the attention core; under ``torch.utils.checkpoint(use_reentrant=False)``
(PyTorch >= 2.1, early stop on by default: pytorch/pytorch#96866) the MLP's output linear (2·4h·h·L = 8·h²·L) is not
re-run, so the recompute adds 16·h²·L + attention. A reentrant checkpoint (DeepSpeed's) adds the whole 24·h²·L."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_time as vt  # noqa: E402

from gpuplanner.core.estimate import resolve, time_estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

H, L = 5120, 40
# an H100 row of the #543 table (PyTorch 2.1.0: early stop on); the A100 40GB rows ran PyTorch 1.13.1 (off)
ROW = {**next(r for r in vt.throughput_rows() if r["id"] == "llmfoundry-h100_80gb-13b-seq2048-8gpu")}
# the attention core's forward a token: 2 × attended context (causal: (s + 1) / 2) × (q + v widths) × layers
ATTN = 2.0 * (2048 + 1) / 2.0 * (2 * H) * L


def _hw(**training) -> float:
    sc = copy.deepcopy(vt.foundry_scenario(ROW)[0])
    sc["training"].update(training)
    return time_estimate(resolve(scenario_from_dict(sc))).hardware_flops_per_token


def test_nonreentrant_recompute_skips_the_mlp_output_gemm():
    extra = _hw(recompute="full") - _hw(recompute="none")
    assert extra == pytest.approx(16.0 * H * H * L + ATTN, rel=2e-3)


def test_reentrant_checkpoint_reruns_everything():
    extra = _hw(framework="deepspeed", recompute="full") - _hw(framework="deepspeed", recompute="none")
    assert extra == pytest.approx(24.0 * H * H * L + ATTN, rel=2e-3)


def test_lora_keeps_the_whole_recompute():
    full = dict(method="lora", lora_rank=16, lora_targets="all_linear")
    extra = _hw(recompute="full", **full) - _hw(recompute="none", **full)
    assert extra > 24.0 * H * H * L


def test_lora_that_leaves_the_mlp_output_unadapted_skips_it_as_full_training_does():
    """Round 16 (lead, at the merge): LoRA on q/v only leaves ``down_proj`` frozen and unadapted; a frozen linear's
    backward needs its weight, not its input or output, so the recompute ends before it as in full training (the
    ms-swift full / LoRA ratios of ``validate_ft_oos8`` read it: median 10.6% with the whole recompute kept, 7.5% with
    the skip). The LoRA rows' own adapter FLOPs are in both runs, so the difference is the attention core plus the
    16·h² a token of q/k/v/o and gate/up per layer, as in :func:`test_nonreentrant_recompute_skips_the_mlp_output_gemm`
    plus the two rank-8 adapters."""
    qv = dict(method="lora", lora_rank=8, lora_targets="qv")
    extra = _hw(recompute="full", **qv) - _hw(recompute="none", **qv)
    adapters = 2.0 * 8 * (H + H) * 2 * L  # q and v: A (h → r) and B (r → h), 2 FLOPs a multiply-add
    assert extra == pytest.approx(16.0 * H * H * L + ATTN + adapters, rel=2e-3)
    assert extra < 24.0 * H * H * L


def test_the_foundry_tables_attention_kernels():
    """sweep.py @5e85bd62 (large-scale H100 table): --attn_impl flash (FlashAttention-2) for 1b/3b/7b/70b, triton for
    13b/30b; every other table ran submit_benchmarks.py's default, triton."""
    k = {r["id"]: vt.foundry_attention_kernel(r) for r in vt.throughput_rows() if r["id"].startswith("llmfoundry")}
    assert k["llmfoundry-h100_80gb-70b-seq2048-512gpu"] == "flash2"
    assert k["llmfoundry-h100_80gb-7b-seq2048-512gpu"] == "flash2"
    assert k["llmfoundry-h100_80gb-3b-seq2048-128gpu"] == "flash2"
    assert k["llmfoundry-h100_80gb-70b-seq2048-64gpu"] == "flash1"
    assert k["llmfoundry-a100_40gb-13b-seq2048-64gpu"] == "flash1"
    assert sum(v == "flash1" for v in k.values()) == 15


def test_early_stop_off_reruns_everything():
    """``training.checkpoint_early_stop: false`` (PyTorch 1.13/2.0, torchtitan since August 2025): the whole layer."""
    extra = _hw(recompute="full", checkpoint_early_stop=False) - _hw(recompute="none")
    assert extra == pytest.approx(24.0 * H * H * L + ATTN, rel=2e-3)


def test_the_torch113_rows_state_it():
    ids = {r["id"] for r in vt.throughput_rows() if r["id"].startswith("llmfoundry") and vt.foundry_torch113(r)}
    assert ids == {"llmfoundry-a100_80gb-70b-seq2048-64gpu", "llmfoundry-a100_40gb-70b-seq2048-128gpu",
                   "llmfoundry-a100_40gb-13b-seq2048-64gpu", "llmfoundry-a100_40gb-7b-seq2048-8gpu"}
    row = next(r for r in vt.throughput_rows() if r["id"] == "llmfoundry-a100_40gb-7b-seq2048-8gpu")
    assert vt.foundry_scenario(row)[0]["training"]["checkpoint_early_stop"] is False


def test_public_foundry_family_not_worse():
    """The public llm-foundry family: 6.1% / 12.7% in-sample before round 16; after, the median no worse and the p90
    10.9%."""
    res = [vt.run_row(r) for r in vt.throughput_rows() if r["id"].startswith("llmfoundry")]
    errs = sorted(abs(r["err"]) for r in res)
    med = (errs[8] + errs[9]) / 2.0
    assert len(errs) == 18 and med <= 0.0615
    k = (len(errs) - 1) * 0.9  # the p90 as validate_time.py computes it (linear between ranks)
    p90 = errs[int(k)] + (errs[int(k) + 1] - errs[int(k)]) * (k - int(k))
    assert p90 == pytest.approx(0.109, abs=0.003) and p90 < 0.127


def test_the_fragment_is_included():
    assert '*_fragments("ac16.md")' in (ROOT / "bench" / "validate_time.py").read_text(encoding="utf-8")
    frag = (ROOT / "bench" / "data" / "ac16.md").read_text(encoding="utf-8")
    assert "| llm-foundry unseen rows (198) | 10.2% / 51.7% / +4.6% | 6.9% / 14.8% / −4.6% |" in frag

"""Published FSDP2 (torchtitan-style) throughputs not in the Dec-2024 torchtitan table: out-of-sample rows.

Issue 35 round 7 (helper fsdp7). Each row is filled the way a torchtitan user fills the scenario: the source's
layout, local batch, activation checkpointing, compile, float8 recipe and card. Nothing here is fitted: the rows
were scored before any model change (``BEFORE``, main 5873fca) and are printed before → now.

Run: ``python bench/validate_fsdp_oos.py``. Imported by bench/validate_time.py for its section.
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gpuplanner.core.evaluate import evaluate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402


def _vt():
    """bench/validate_time.py (``_tt``, ``_grand_teton``, ``_F8``)."""
    name = "validate_time_for_fsdp_oos"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("validate_time.py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _root(sc: dict) -> dict:
    """torchtitan before 83e694105 (July 2025): the embedding in FSDP2's root unit (``fsdp_root_embedding``), and
    checkpointing's early stop on (before 25413d224: :func:`_es_on`)."""
    return _es_on({**sc, "training": {**sc["training"], "fsdp_root_embedding": True}})


def _es_on(sc: dict) -> dict:
    """torchtitan before 25413d224 (2025-08-29): PyTorch's early stop, on (validate_time.titan_early_stop_on)."""
    return _vt().titan_early_stop_on(sc)


def _early(sc: dict) -> dict:
    """torchtitan before February 2025: foreach AdamW and the root-unit layout (validate_time._titan_early)."""
    return _vt()._titan_early(sc)


def _on(sc: dict, gpu: str) -> dict:
    return {**sc, "hardware": {**sc["hardware"], "gpu": gpu}}


# ---- sources (repo + path + commit) ----
SRC_DEC24 = ("pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md Table 3, third row (torchtitan 9dec370, "
             "torch 1963fc8; Grand Teton H100 96 GB HBM2e 2.4 TB/s, 500 W)")
SRC_405B = ("pytorch/torchtitan docs/performance.md 'Llama 3.1 performance numbers' (9515a140b, Aug 2024: BF16 118; "
            "1d5815c4b, Oct 2024: BF16 109; Float8 177, Float8 + Async TP 185 in both): 405B, 128 H100 'HBM2e based "
            "lower TDP SXM H100', FSDP 16 TP 8, local batch 2, seq 8192, full AC; train_configs/llama3_405b.toml: "
            "compile, float8 dynamic tensorwise with FP8 all-gather")
SRC_A100 = ("pytorch/torchtitan docs/performance.md (f38766edb, Apr 2024): 64 A100 80GB, FSDP2 only; "
            "train_configs/llama3_8b.toml / llama2_13b.toml at f38766edb: compile = false, norm_type fused_rmsnorm "
            "(a Triton kernel: not a scenario choice, so the eager rows' norm passes are counted unfused), "
            "'selective layer' = every 2nd layer")
SRC_ASYNCTP = ("pytorch/torchtitan benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md (torchtitan 820504e, torch "
               "38410cf9, June 2025; Grand Teton H100 96 GB HBM2e, 500 W): compile (model and loss: bbb1b616), "
               "FP8 all-gather off (llama3_*.toml at 820504e)")
SRC_TRAINY = ("pytorch/torchtitan benchmarks/llama3-8b_h200_202506_trainy-whitefiber.md (torchtitan e7c0cae): H200, "
              "local batch 2 × 8192, compile, float8 tensorwise + FP8 all-gather, per-op SAC")
SRC_7A04 = ("pytorch/torchtitan docs/float8.md (7a04053, Jan 2025): Llama 3 8B, 8 H100 (the card from PR #808's logs "
            "of the same figures: Grand Teton), per-op SAC, batch 1 × 8192, compile")
SRC_AO_H100 = ("pytorch/ao docs/source/workflows/training.md 'e2e training benchmarks', NVIDIA H100 (torchtitan 0.0.2, "
               "torch 2.7.0a0 b98af95): Llama 3 8B, 8 H100 (Grand Teton: the benchmark script's PR pytorch/ao "
               "#1802 logs '47.79GiB(50.30%)' = 95.0 GiB for the rowwise run, the README's 47.79 GB peak), batch "
               "1 × 8192, compile, per-op SAC")
SRC_AO_MI300 = ("pytorch/ao docs/source/workflows/training.md 'e2e training benchmarks', AMD MI300x (torchtitan 2c8b594, "
                "Aug 2025): Llama 3 8B, 8 MI300X, batch 1 × 8192, compile (model and loss), per-op SAC")
SRC_NOCOMP = ("pytorch/ao torchao/prototype/float8nocompile/README.md (d99785c0f, Feb 2025; torchtitan PR #778): "
              "Llama 3 8B, 8 H100 (card not named: Grand Teton ASSUMED, the same author's log 17 days later, "
              "pytorch/ao #1802, gives 95.0 GiB), batch 1 × 4096, loss eager; float8 = tensorwise, FP8 all-gather "
              "off (ASSUMED: not stated, off by default)")
SRC_B200 = ("pytorch/torchtitan torchtitan/components/quantization/mxfp8.md 'Dense Models' (6fc499f, Aug 2025): Llama 3 "
            "8B, 8 'power limited' B200 (limit not stated: the catalogue's B200 bounds from above), batch 1 × 8192, "
            "compile, per-op SAC")
SRC_NVFP4 = ("pytorch/torchtitan torchtitan/components/quantization/nvfp4.md (73aed7f6c, Aug 2026): FSDP 4, seq 2048, "
             "compile (model), chunked CE; ASSUMED GB200 (the logged memory share puts the device at 184 GiB); "
             "MXFP8 mapped as fp8_rowwise")
SRC_TT1207 = ("pytorch/torchtitan issue #1207 'float8 rowwise vanilla TP low throughput' (danielvegamyhre, 2025-05-20): "
              "Llama3 8b on 4 H100 (card not named: Grand Teton ASSUMED, the same author's Feb-2025 log (pytorch/ao "
              "#1802, 95.0 GiB) and June-2025 benchmark), per-op SAC, FSDP 2, TP 2: bf16 5,378 TPS, float8 rowwise "
              "5,189 "
              "TPS; torch 2.8.0a0+gite21ad6e, torchao 0.11.0, torchtitan HEAD; batch 1 × 8192 and compile from "
              "pytorch/ao benchmarks/float8/training/torchtitan_benchmark.sh at 04fb450 (--training.compile, "
              "BATCH_SIZE 1) and torchtitan's llama3_8b.toml (seq_len 8192, per-op SAC); root-unit layout (before "
              "83e694105), fused AdamW (after PR #881)")
SRC_PT149990 = ("pytorch/pytorch issue #149990 '[Async TP] all-gather-matmuls not fusing properly when rowwise scales "
                "are used' (danielvegamyhre, 2025-03-25; the same figures in pytorch/torchtitan issue #1185): Llama3 70b "
                "on 128 H100s, full AC, FSDP 16, TP 8: bf16 598 / async TP 673, float8 tensorwise 820 / 950, float8 "
                "rowwise (vanilla) 540 TPS; compile (AsyncTP needs it); local batch 16 and the Grand Teton card "
                "ASSUMED (the same author's June-2025 benchmark of this model and AC); root-unit layout, fused AdamW")
SRC_TT808 = ("pytorch/torchtitan PR #808 'add configuration for float8 with rowwise scaling' (vkuzo, 2025-01-27): LLaMa 3 "
             "8B on 8 H100 (Grand Teton: the PR's logs '47.65GiB(50.16%)', '47.77GiB(50.28%)', '47.32GiB(49.81%)' = "
             "95.0 GiB, the 96 GB card), compile, llama3_8b.toml (batch 1 × 8192, per-op SAC): float8 rowwise "
             "6,468 tps (its bf16 5,760 and tensorwise 7,186 figures are already in, from docs/float8.md); torchtitan "
             "before February 2025 (foreach AdamW, root unit)")
SRC_CE2026 = ("pytorch/pytorch PR #179937 '[overlap] using copyengine collectives' (IvanKobzarev, 2026-04-10), 'TP "
              "Sweep' baseline row: Llama3 8B, 8 × H100 NVLink, 'inductor + transformer_block_bucketing' (torchtitan's "
              "compiled FSDP, graph trainer / SimpleFSDP: ASSUMED from the bucketing mode's name), seq 4096, bs 2, "
              "TP 1: 9,369 TPS (MFU 48.76%); torchtitan 2026 defaults: selective AC, fused AdamW, embedding unit")


def rows() -> list[tuple[str, str, dict, float, str]]:
    """(group, label, scenario, published tokens/s/GPU, source)."""
    vt = _vt()
    tt, gt, f8 = vt._tt, vt._grand_teton, vt._F8
    out = [("H100 Grand Teton, compile + float8", "Dec-2024 T3 8B 128 GPUs, lbs 2, compile + Float8",
            gt(_early(tt("llama-3.1-8b", 128, 8192, 2, mbs=2, precision=f8))), 8380, SRC_DEC24)]
    for pub, date in ((118, "Aug 2024"), (109, "Oct 2024")):
        out.append(("H100 Grand Teton, 2D compile BF16", f"405B 128 GPUs FSDP 16 TP 8, BF16 ({date})",
                    gt(_early(tt("llama-3.1-405b", 128, 8192, 2, mbs=2, rec="full", tp=8))), pub, SRC_405B))
    out.append(("H100 Grand Teton, 2D compile + float8", "405B 128 GPUs FSDP 16 TP 8, Float8",
                gt(_early(tt("llama-3.1-405b", 128, 8192, 2, mbs=2, rec="full", tp=8, precision=f8,
                             fp8_all_gather=True))), 177, SRC_405B))
    out.append(("H100 Grand Teton, 2D compile + float8", "405B 128 GPUs FSDP 16 TP 8, Float8 + AsyncTP",
                gt(_early(tt("llama-3.1-405b", 128, 8192, 2, mbs=2, rec="full", tp=8, precision=f8,
                             fp8_all_gather=True, tp_comm_overlap=True))), 185, SRC_405B))
    for model, lbs, seq, rec, label, pub in (
            ("llama-3-8b", 1, 8192, "layer_sac", "Llama 3 8B lbs 1, AC every 2nd layer", 2904),
            ("llama-3-8b", 1, 8192, "op_sac", "Llama 3 8B lbs 1, per-op SAC", 2973),
            ("llama-3-70b", 1, 8192, "full", "Llama 3 70B lbs 1, full AC", 331),
            ("llama-2-13b", 2, 4096, "none", "Llama 2 13B lbs 2, no AC", 2162),
            ("llama-2-13b", 2, 4096, "layer_sac", "Llama 2 13B lbs 2, AC every 2nd layer", 1914),
            ("llama-2-13b", 2, 4096, "op_sac", "Llama 2 13B lbs 2, per-op SAC", 1904),
            ("llama-2-70b", 1, 4096, "op_sac", "Llama 2 70B lbs 1, per-op SAC", 355),
            ("llama-2-70b", 2, 4096, "full", "Llama 2 70B lbs 2, full AC", 353)):
        sc = _on(_early(tt(model, 64, seq, lbs, mbs=lbs, rec=rec, compile_=False)), "a100-sxm-80gb")
        out.append(("A100 64 GPUs, eager BF16", label, sc, pub, SRC_A100))
    for prec, label, van, asy in ((None, "BF16", 597.3, 652.4), (f8, "float8 tensorwise", 809.8, 942.4),
                                  ("fp8_rowwise", "float8 rowwise", 599.6, 624.8)):
        for overlap, pub in ((False, van), (True, asy)):
            sc = tt("llama-3.1-70b", 256, 8192, 16, mbs=16, rec="full", tp=8, precision=prec or "bf16",
                    compile_loss=None, tp_comm_overlap=overlap)
            grp = "H100 Grand Teton, 2D compile BF16" if prec is None else "H100 Grand Teton, 2D compile + float8"
            out.append((grp, f"70B 256 GPUs FSDP 32 TP 8, {label}{', AsyncTP' if overlap else ''} (Jun 2025)",
                        gt(_root(sc)), pub, SRC_ASYNCTP))
    for prec, label, van, asy in ((None, "BF16", 4378, 4809.4), (f8, "float8 tensorwise", 5078.1, 5570.1),
                                  ("fp8_rowwise", "float8 rowwise", 3708.5, 3914.9)):
        for overlap, pub in ((False, van), (True, asy)):
            sc = tt("llama-3.1-8b", 64, 8192, 12, mbs=12, tp=8, precision=prec or "bf16", compile_loss=None,
                    tp_comm_overlap=overlap)
            grp = "H100 Grand Teton, 2D compile BF16" if prec is None else "H100 Grand Teton, 2D compile + float8"
            out.append((grp, f"8B 64 GPUs FSDP 8 TP 8, {label}{', AsyncTP' if overlap else ''} (Jun 2025)",
                        gt(_root(sc)), pub, SRC_ASYNCTP))
    for prec, overlap, label, pub in ((None, False, "BF16", 598), (None, True, "BF16, AsyncTP", 673),
                                      (f8, False, "float8 tensorwise", 820), (f8, True, "float8 tensorwise, AsyncTP", 950),
                                      ("fp8_rowwise", False, "float8 rowwise", 540)):
        sc = tt("llama-3.1-70b", 128, 8192, 16, mbs=16, rec="full", tp=8, precision=prec or "bf16", compile_loss=None,
                tp_comm_overlap=overlap)
        grp = "H100 Grand Teton, 2D compile BF16" if prec is None else "H100 Grand Teton, 2D compile + float8"
        out.append((grp, f"70B 128 GPUs FSDP 16 TP 8, {label} (Mar 2025)", gt(_root(sc)), pub, SRC_PT149990))
    out += _rows_8gpu(tt, f8)
    return out


def _rows_8gpu(tt, f8) -> list[tuple[str, str, dict, float, str]]:
    """The single-node and small rows (H100 on Meta's Grand Teton card, H200, MI300X, B200, GB200).

    The 8- and 4-GPU H100 rows by Meta's torchtitan / torchao developers run on ``validate_time.GRAND_TETON_H100``
    (issue 35 round 14, titan14): torchtitan logs ``memory: X GiB(Y%)`` against the device's total memory, and
    their logs give X / Y = 95.0 GiB, the 96 GB HBM2e card (an 80 GB SXM gives about 79.6): PR #808's own logs
    for the 7a04053 / #808 figures, pytorch/ao #1802's log of the script behind torchao's H100 table; the float8nocompile
    and #1207 rows by the same author ASSUMED. PR #179937 (another author, 2026) stays on the catalogue card."""
    gt = _vt()._grand_teton
    out = []
    for n, pub in ((32, 10938), (64, 10753)):
        sc = _on(_root(tt("llama-3.1-8b", n, 8192, 2, mbs=2, precision=f8, fp8_all_gather=True, compile_loss=None)),
                 "h200-sxm-141gb")
        out.append(("H200, compile + float8", f"Trainy 8B {n} H200, float8 + FP8 all-gather", sc, pub, SRC_TRAINY))
    out.append(("H100 8 GPUs, compile + float8", "7a04053 8B float8 rowwise",
                gt(_early(tt("llama-3.1-8b", 8, 8192, 1, precision="fp8_rowwise"))), 6424, SRC_7A04))
    out.append(("H100 8 GPUs, compile + float8", "PR #808 8B float8 rowwise (Jan 2025)",
                gt(_early(tt("llama-3.1-8b", 8, 8192, 1, precision="fp8_rowwise"))), 6468, SRC_TT808))
    out.append(("H100 8 GPUs, compile + float8", "7a04053 8B float8 tensorwise + FP8 all-gather",
                gt(_early(tt("llama-3.1-8b", 8, 8192, 1, precision=f8, fp8_all_gather=True))), 7186,
                SRC_7A04))
    out.append(("H100 8 GPUs, compile BF16", "torchao H100 8B BF16", gt(_root(tt("llama-3.1-8b", 8, 8192, 1))), 6150,
                SRC_AO_H100))
    out.append(("H100 8 GPUs, compiled FSDP BF16 (2026)", "PR #179937 baseline 8B s4096 bs 2 (Apr 2026)",
                tt("llama-3.1-8b", 8, 4096, 2, mbs=2, compile_loss=None), 9369, SRC_CE2026))
    out.append(("H100 8 GPUs, compile + float8", "torchao H100 8B float8 tensorwise + FP8 all-gather",
                gt(_root(tt("llama-3.1-8b", 8, 8192, 1, precision=f8, fp8_all_gather=True))), 7689.5,
                SRC_AO_H100))
    out.append(("H100 8 GPUs, compile + float8", "torchao H100 8B float8 rowwise",
                gt(_root(tt("llama-3.1-8b", 8, 8192, 1, precision="fp8_rowwise"))), 6768, SRC_AO_H100))
    for rec, label, eager, comp in (("none", "no AC", 5339.0, 6667.6), ("layer_sac", "AC every 2nd layer", 4882.4,
                                                                         6199.6), ("full", "full AC", 4502.0, 5775.2)):
        out.append(("H100 8 GPUs, eager BF16", f"8B s4096 lbs 1, {label}, BF16 eager",
                    gt(_early(tt("llama-3.1-8b", 8, 4096, 1, rec=rec, compile_=False))), eager, SRC_NOCOMP))
        out.append(("H100 8 GPUs, compile + float8", f"8B s4096 lbs 1, {label}, float8 + compile",
                    gt(_early(tt("llama-3.1-8b", 8, 4096, 1, rec=rec, precision=f8))), comp, SRC_NOCOMP))
    for prec, label, pub in (("bf16", "BF16", 5378), ("fp8_rowwise", "float8 rowwise", 5189)):
        sc = gt(_root(tt("llama-3.1-8b", 4, 8192, 1, tp=2, precision=prec, compile_loss=None)))
        out.append(("H100 4 GPUs, FSDP 2 TP 2, compile", f"#1207 8B FSDP 2 TP 2, {label} (May 2025)", sc, pub,
                    SRC_TT1207))
    for prec, extra, label, pub in (("bf16", {}, "BF16", 5376.5), (f8, {"fp8_all_gather": True},
                                                                    "float8 tensorwise + FP8 all-gather", 6166.0),
                                    ("fp8_rowwise", {}, "float8 rowwise", 5891.0)):
        sc = _on(_es_on(tt("llama-3.1-8b", 8, 8192, 1, precision=prec, compile_loss=None, **extra)), "mi300x-192gb")
        out.append(("MI300X 8 GPUs, compile", f"torchao MI300X 8B {label}", sc, pub, SRC_AO_MI300))
    for prec, extra, label, pub in (("bf16", {}, "BF16", 8307.5), (f8, {"fp8_all_gather": True},
                                                                    "float8 tensorwise", 10417.0),
                                    ("fp8_rowwise", {}, "MXFP8 (cublas)", 9969.0)):
        sc = _on(_es_on(tt("llama-3.1-8b", 8, 8192, 1, precision=prec, compile_loss=None, **extra)), "b200-180gb")
        out.append(("B200 8 GPUs (power-limited), compile", f"B200 8B {label}", sc, pub, SRC_B200))
    for model, lbs, prec, label, pub in (("llama-3.1-8b", 32, "bf16", "Llama 3 8B BF16", 21919),
                                         ("llama-3.1-8b", 32, "fp8_rowwise", "Llama 3 8B MXFP8", 28084),
                                         ("qwen3-8b", 16, "bf16", "Qwen3 8B BF16", 20913),
                                         ("qwen3-8b", 16, "fp8_rowwise", "Qwen3 8B MXFP8", 27587)):
        sc = _on(tt(model, 4, 2048, lbs, mbs=lbs, precision=prec, compile_loss=False, chunked_loss=True),
                 "gb200-186gb")
        out.append(("GB200 4 GPUs, compile", f"nvfp4 docs {label}", sc, pub, SRC_NVFP4))
    return out


#: tokens/s/GPU predicted on main 5873fca, before this branch (filled from the first run)
BEFORE: dict[str, float] = {
    'Dec-2024 T3 8B 128 GPUs, lbs 2, compile + Float8': 8242.5, '405B 128 GPUs FSDP 16 TP 8, BF16 (Aug 2024)': 121.0,
    '405B 128 GPUs FSDP 16 TP 8, BF16 (Oct 2024)': 121.0, '405B 128 GPUs FSDP 16 TP 8, Float8': 152.6,
    '405B 128 GPUs FSDP 16 TP 8, Float8 + AsyncTP': 179.4, 'Llama 3 8B lbs 1, AC every 2nd layer': 3016.0,
    'Llama 3 8B lbs 1, per-op SAC': 3094.5, 'Llama 3 70B lbs 1, full AC': 322.4, 'Llama 2 13B lbs 2, no AC': 2205.8,
    'Llama 2 13B lbs 2, AC every 2nd layer': 1903.5, 'Llama 2 13B lbs 2, per-op SAC': 1936.5,
    'Llama 2 70B lbs 1, per-op SAC': 376.2, 'Llama 2 70B lbs 2, full AC': 336.0,
    '70B 256 GPUs FSDP 32 TP 8, BF16 (Jun 2025)': 597.2,
    '70B 256 GPUs FSDP 32 TP 8, BF16, AsyncTP (Jun 2025)': 731.5,
    '70B 256 GPUs FSDP 32 TP 8, float8 tensorwise (Jun 2025)': 711.5,
    '70B 256 GPUs FSDP 32 TP 8, float8 tensorwise, AsyncTP (Jun 2025)': 910.5,
    '70B 256 GPUs FSDP 32 TP 8, float8 rowwise (Jun 2025)': 706.2,
    '70B 256 GPUs FSDP 32 TP 8, float8 rowwise, AsyncTP (Jun 2025)': 901.9,
    '8B 64 GPUs FSDP 8 TP 8, BF16 (Jun 2025)': 4839.3, '8B 64 GPUs FSDP 8 TP 8, BF16, AsyncTP (Jun 2025)': 6450.4,
    '8B 64 GPUs FSDP 8 TP 8, float8 tensorwise (Jun 2025)': 5369.4,
    '8B 64 GPUs FSDP 8 TP 8, float8 tensorwise, AsyncTP (Jun 2025)': 7427.8,
    '8B 64 GPUs FSDP 8 TP 8, float8 rowwise (Jun 2025)': 5308.1,
    '8B 64 GPUs FSDP 8 TP 8, float8 rowwise, AsyncTP (Jun 2025)': 7311.0,
    'Trainy 8B 32 H200, float8 + FP8 all-gather': 9342.8, 'Trainy 8B 64 H200, float8 + FP8 all-gather': 9351.0,
    '7a04053 8B float8 rowwise': 8131.1, '7a04053 8B float8 tensorwise + FP8 all-gather': 8522.5,
    'torchao H100 8B BF16': 7180.1, 'torchao H100 8B float8 tensorwise + FP8 all-gather': 8522.5,
    'torchao H100 8B float8 rowwise': 8131.1, '8B s4096 lbs 1, no AC, BF16 eager': 7238.3,
    '8B s4096 lbs 1, no AC, float8 + compile': 8976.3, '8B s4096 lbs 1, AC every 2nd layer, BF16 eager': 6382.0,
    '8B s4096 lbs 1, AC every 2nd layer, float8 + compile': 8074.5, '8B s4096 lbs 1, full AC, BF16 eager': 5706.9,
    '8B s4096 lbs 1, full AC, float8 + compile': 7337.4, 'torchao MI300X 8B BF16': 7745.4,
    'torchao MI300X 8B float8 tensorwise + FP8 all-gather': 9671.0, 'torchao MI300X 8B float8 rowwise': 9341.3,
    'B200 8B BF16': 18165.6, 'B200 8B float8 tensorwise': 22034.9, 'B200 8B MXFP8 (cublas)': 20893.5,
    'nvfp4 docs Llama 3 8B BF16': 23352.4, 'nvfp4 docs Llama 3 8B MXFP8': 27927.2,
    'nvfp4 docs Qwen3 8B BF16': 22626.8, 'nvfp4 docs Qwen3 8B MXFP8': 26737.8,
    # added in issue 35 round 8 (helper fsdp8), scored on main 79a48cb before its change
    'PR #179937 baseline 8B s4096 bs 2 (Apr 2026)': 7874.9,
}

#: tokens/s/GPU on main 79a48cb (issue 35 round 8), before helper fsdp8's overlap contention (the printed
#: figures of the table above, to the unit)
BEFORE_R8: dict[str, float] = {
    'Dec-2024 T3 8B 128 GPUs, lbs 2, compile + Float8': 8157.0, '405B 128 GPUs FSDP 16 TP 8, BF16 (Aug 2024)': 120.0,
    '405B 128 GPUs FSDP 16 TP 8, BF16 (Oct 2024)': 120.0, '405B 128 GPUs FSDP 16 TP 8, Float8': 151.0,
    '405B 128 GPUs FSDP 16 TP 8, Float8 + AsyncTP': 177.0, 'Llama 3 8B lbs 1, AC every 2nd layer': 2978.0,
    'Llama 3 8B lbs 1, per-op SAC': 3054.0, 'Llama 3 70B lbs 1, full AC': 321.0, 'Llama 2 13B lbs 2, no AC': 2196.0,
    'Llama 2 13B lbs 2, AC every 2nd layer': 1896.0, 'Llama 2 13B lbs 2, per-op SAC': 1929.0,
    'Llama 2 70B lbs 1, per-op SAC': 375.0, 'Llama 2 70B lbs 2, full AC': 335.0,
    '70B 256 GPUs FSDP 32 TP 8, BF16 (Jun 2025)': 597.0, '70B 256 GPUs FSDP 32 TP 8, BF16, AsyncTP (Jun 2025)': 730.0,
    '70B 256 GPUs FSDP 32 TP 8, float8 tensorwise (Jun 2025)': 711.0,
    '70B 256 GPUs FSDP 32 TP 8, float8 tensorwise, AsyncTP (Jun 2025)': 909.0,
    '70B 256 GPUs FSDP 32 TP 8, float8 rowwise (Jun 2025)': 705.0,
    '70B 256 GPUs FSDP 32 TP 8, float8 rowwise, AsyncTP (Jun 2025)': 900.0,
    '8B 64 GPUs FSDP 8 TP 8, BF16 (Jun 2025)': 4813.0, '8B 64 GPUs FSDP 8 TP 8, BF16, AsyncTP (Jun 2025)': 6404.0,
    '8B 64 GPUs FSDP 8 TP 8, float8 tensorwise (Jun 2025)': 5337.0,
    '8B 64 GPUs FSDP 8 TP 8, float8 tensorwise, AsyncTP (Jun 2025)': 7366.0,
    '8B 64 GPUs FSDP 8 TP 8, float8 rowwise (Jun 2025)': 5276.0,
    '8B 64 GPUs FSDP 8 TP 8, float8 rowwise, AsyncTP (Jun 2025)': 7251.0,
    'Trainy 8B 32 H200, float8 + FP8 all-gather': 9258.0, 'Trainy 8B 64 H200, float8 + FP8 all-gather': 9265.0,
    '7a04053 8B float8 rowwise': 7872.0, '7a04053 8B float8 tensorwise + FP8 all-gather': 8238.0,
    'torchao H100 8B BF16': 7090.0, 'torchao H100 8B float8 tensorwise + FP8 all-gather': 8396.0,
    'torchao H100 8B float8 rowwise': 8016.0, '8B s4096 lbs 1, no AC, BF16 eager': 6837.0,
    '8B s4096 lbs 1, no AC, float8 + compile': 8368.0, '8B s4096 lbs 1, AC every 2nd layer, BF16 eager': 6068.0,
    '8B s4096 lbs 1, AC every 2nd layer, float8 + compile': 7579.0, '8B s4096 lbs 1, full AC, BF16 eager': 5455.0,
    '8B s4096 lbs 1, full AC, float8 + compile': 6926.0, 'torchao MI300X 8B BF16': 7685.0,
    'torchao MI300X 8B float8 tensorwise + FP8 all-gather': 9578.0, 'torchao MI300X 8B float8 rowwise': 9254.0,
    'B200 8B BF16': 17478.0, 'B200 8B float8 tensorwise': 21031.0, 'B200 8B MXFP8 (cublas)': 19989.0,
    'nvfp4 docs Llama 3 8B BF16': 23124.0, 'nvfp4 docs Llama 3 8B MXFP8': 27601.0,
    'nvfp4 docs Qwen3 8B BF16': 22351.0, 'nvfp4 docs Qwen3 8B MXFP8': 26354.0,
    'PR #179937 baseline 8B s4096 bs 2 (Apr 2026)': 7874.9,
}


#: tokens/s/GPU on main 837da9d (issue 35 round 9), before helper fsdp9's torchtitan float8 TP terms (timing.tp_fp8_gather_scale,
#: tp_replicated_cast_bytes, tp_async_unfused_share); the round's eight new rows were scored there before any change
BEFORE_R9: dict[str, float] = {
    'Dec-2024 T3 8B 128 GPUs, lbs 2, compile + Float8': 7982.2, '405B 128 GPUs FSDP 16 TP 8, BF16 (Aug 2024)': 110.4,
    '405B 128 GPUs FSDP 16 TP 8, BF16 (Oct 2024)': 110.4, '405B 128 GPUs FSDP 16 TP 8, Float8': 139.6,
    '405B 128 GPUs FSDP 16 TP 8, Float8 + AsyncTP': 161.7, 'Llama 3 8B lbs 1, AC every 2nd layer': 2914.4,
    'Llama 3 8B lbs 1, per-op SAC': 2987.5, 'Llama 3 70B lbs 1, full AC': 314.5, 'Llama 2 13B lbs 2, no AC': 2137.3,
    'Llama 2 13B lbs 2, AC every 2nd layer': 1852.2, 'Llama 2 13B lbs 2, per-op SAC': 1883.4,
    'Llama 2 70B lbs 1, per-op SAC': 357.0, 'Llama 2 70B lbs 2, full AC': 328.1,
    '70B 256 GPUs FSDP 32 TP 8, BF16 (Jun 2025)': 590.8,
    '70B 256 GPUs FSDP 32 TP 8, BF16, AsyncTP (Jun 2025)': 721.9,
    '70B 256 GPUs FSDP 32 TP 8, float8 tensorwise (Jun 2025)': 702.4,
    '70B 256 GPUs FSDP 32 TP 8, float8 tensorwise, AsyncTP (Jun 2025)': 895.7,
    '70B 256 GPUs FSDP 32 TP 8, float8 rowwise (Jun 2025)': 697.3,
    '70B 256 GPUs FSDP 32 TP 8, float8 rowwise, AsyncTP (Jun 2025)': 887.4,
    '8B 64 GPUs FSDP 8 TP 8, BF16 (Jun 2025)': 4766.8, '8B 64 GPUs FSDP 8 TP 8, BF16, AsyncTP (Jun 2025)': 6322.1,
    '8B 64 GPUs FSDP 8 TP 8, float8 tensorwise (Jun 2025)': 5280.2,
    '8B 64 GPUs FSDP 8 TP 8, float8 tensorwise, AsyncTP (Jun 2025)': 7258.2,
    '8B 64 GPUs FSDP 8 TP 8, float8 rowwise (Jun 2025)': 5221.0,
    '8B 64 GPUs FSDP 8 TP 8, float8 rowwise, AsyncTP (Jun 2025)': 7146.7,
    '70B 128 GPUs FSDP 16 TP 8, BF16 (Mar 2025)': 590.9,
    '70B 128 GPUs FSDP 16 TP 8, BF16, AsyncTP (Mar 2025)': 722.0,
    '70B 128 GPUs FSDP 16 TP 8, float8 tensorwise (Mar 2025)': 702.5,
    '70B 128 GPUs FSDP 16 TP 8, float8 tensorwise, AsyncTP (Mar 2025)': 895.9,
    '70B 128 GPUs FSDP 16 TP 8, float8 rowwise (Mar 2025)': 697.4,
    'Trainy 8B 32 H200, float8 + FP8 all-gather': 9141.5, 'Trainy 8B 64 H200, float8 + FP8 all-gather': 9132.8,
    '7a04053 8B float8 rowwise': 7682.5, 'PR #808 8B float8 rowwise (Jan 2025)': 7682.5,
    '7a04053 8B float8 tensorwise + FP8 all-gather': 8086.1, 'torchao H100 8B BF16': 6936.3,
    'PR #179937 baseline 8B s4096 bs 2 (Apr 2026)': 7675.3,
    'torchao H100 8B float8 tensorwise + FP8 all-gather': 8238.4, 'torchao H100 8B float8 rowwise': 7819.9,
    '8B s4096 lbs 1, no AC, BF16 eager': 6556.7, '8B s4096 lbs 1, no AC, float8 + compile': 7951.3,
    '8B s4096 lbs 1, AC every 2nd layer, BF16 eager': 5846.2,
    '8B s4096 lbs 1, AC every 2nd layer, float8 + compile': 7235.5, '8B s4096 lbs 1, full AC, BF16 eager': 5274.6,
    '8B s4096 lbs 1, full AC, float8 + compile': 6637.9, '#1207 8B FSDP 2 TP 2, BF16 (May 2025)': 6250.9,
    '#1207 8B FSDP 2 TP 2, float8 rowwise (May 2025)': 6978.6, 'torchao MI300X 8B BF16': 7462.6,
    'torchao MI300X 8B float8 tensorwise + FP8 all-gather': 9320.3, 'torchao MI300X 8B float8 rowwise': 8933.1,
    'B200 8B BF16': 16896.7, 'B200 8B float8 tensorwise': 20400.7, 'B200 8B MXFP8 (cublas)': 19232.3,
    'nvfp4 docs Llama 3 8B BF16': 23012.9, 'nvfp4 docs Llama 3 8B MXFP8': 27443.0,
    'nvfp4 docs Qwen3 8B BF16': 22141.3, 'nvfp4 docs Qwen3 8B MXFP8': 26062.4,
}


def predict(sc: dict) -> float:
    return evaluate(scenario_from_dict(sc)).time_modelled.tokens_per_s_per_gpu


def _p90(errs: list[float]) -> float:
    return sorted(errs)[int(0.9 * (len(errs) - 1) + 0.5)]


def results() -> list[dict]:
    out = []
    for grp, label, sc, pub, src in rows():
        now = predict(sc)
        before = BEFORE.get(label, now)
        out.append({"group": grp, "label": label, "published": pub, "before": before, "now": now, "source": src})
    return out


def markdown(res: list[dict] | None = None) -> list[str]:
    res = results() if res is None else res
    lines = ["| group | row | published tok/s/GPU | before | error | now | error |", "|---|---|---:|---:|---:|---:|---:|"]
    for r in res:
        lines.append(f"| {r['group']} | {r['label']} | {r['published']:,.0f} | {r['before']:,.0f} | "
                     f"{r['before'] / r['published'] - 1:+.1%} | {r['now']:,.0f} | {r['now'] / r['published'] - 1:+.1%} |")
    lines += ["", "| group | rows | median before → now | p90 before → now | signed median before → now |",
              "|---|---:|---|---|---|"]
    groups: dict[str, list[dict]] = {}
    for r in res:
        groups.setdefault(r["group"], []).append(r)
    bounded = [r for r in res if not r["group"].startswith("B200")]
    for g, rs in {**groups, "all": res, "all but the power-limited B200 (limit not stated)": bounded}.items():
        b = [r["before"] / r["published"] - 1 for r in rs]
        n = [r["now"] / r["published"] - 1 for r in rs]
        lines.append(f"| {g} | {len(rs)} | {statistics.median(map(abs, b)):.1%} → {statistics.median(map(abs, n)):.1%}"
                     f" | {_p90([abs(x) for x in b]):.1%} → {_p90([abs(x) for x in n]):.1%} | "
                     f"{statistics.median(b):+.1%} → {statistics.median(n):+.1%} |")
    lines += ["", "Issue 35 round 8 (helper fsdp8, the compute slowed by the hidden data-parallel collectives, "
              "timing.OVERLAP_COMPUTE_SLOWDOWN): main 79a48cb → now.", "",
              "| group | rows | median 79a48cb → now | p90 79a48cb → now | signed median 79a48cb → now |",
              "|---|---:|---|---|---|"]
    for g, rs in {**groups, "all": res, "all but the power-limited B200 (limit not stated)": bounded}.items():
        b = [BEFORE_R8.get(r["label"], r["now"]) / r["published"] - 1 for r in rs]
        n = [r["now"] / r["published"] - 1 for r in rs]
        lines.append(f"| {g} | {len(rs)} | {statistics.median(map(abs, b)):.1%} → {statistics.median(map(abs, n)):.1%}"
                     f" | {_p90([abs(x) for x in b]):.1%} → {_p90([abs(x) for x in n]):.1%} | "
                     f"{statistics.median(b):+.1%} → {statistics.median(n):+.1%} |")
    lines += _r9_table(res, groups, bounded)
    lines += ["", "Sources: " + "; ".join(sorted({r["source"] for r in res}))]
    return lines


def _r9_table(res: list[dict], groups: dict[str, list[dict]], bounded: list[dict]) -> list[str]:
    """Issue 35 round 9 (helper fsdp9): main 837da9d → now, per group."""
    lines = ["", "Issue 35 round 9 (helper fsdp9, torchtitan's float8 tensor parallelism: FP8 all-gathers with "
             "tensorwise scaling, casts of the gathered tensors and no AsyncTP gather fusion with rowwise scaling): "
             "main 837da9d → now.", "",
             "| group | rows | median 837da9d → now | p90 837da9d → now | signed median 837da9d → now |",
             "|---|---:|---|---|---|"]
    for g, rs in {**groups, "all": res, "all but the power-limited B200 (limit not stated)": bounded}.items():
        b = [BEFORE_R9.get(r["label"], r["now"]) / r["published"] - 1 for r in rs]
        n = [r["now"] / r["published"] - 1 for r in rs]
        lines.append(f"| {g} | {len(rs)} | {statistics.median(map(abs, b)):.1%} → {statistics.median(map(abs, n)):.1%}"
                     f" | {_p90([abs(x) for x in b]):.1%} → {_p90([abs(x) for x in n]):.1%} | "
                     f"{statistics.median(b):+.1%} → {statistics.median(n):+.1%} |")
    return lines

if __name__ == "__main__":
    print("\n".join(markdown()))

"""Transformers' SDPA on a padded batch: the memory-efficient kernel's rate against FlashAttention-2 (published
figures), and what the model makes of it (a check, not fitted).

Usage: python bench/validate_sdpa_mask.py

Mechanism (core/timing.py ``hf_sdpa_masked_core``, ``sdpa_masked``, ``SDPA_MEM_EFF_TIME_FACTOR``): on the Hugging Face
stack with ``attn_implementation="sdpa"`` (Transformers' default), a micro-batch whose samples are padded to the
longest passes SDPA a 4-D mask; PyTorch's flash backend refuses a mask (``sdp_utils_cpp.h`` ``check_for_attn_mask``)
and the memory-efficient backend (the xFormers "cutlass" kernel) multiplies the whole square. No published step time
of a padded SDPA fine-tuning run was found; the published figures are kernel ratios, listed below with their source.
The model's side: the step time with ``attn_implementation`` ``sdpa`` against ``flash_attention_2`` for a few
ordinary LoRA runs (padded batches of 4, mean sample = half the cut), and the unpadded controls that must not move.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: (source, setting, memory-efficient time / FlashAttention-2 time)
KERNEL_ROWS = [
    ("FlashAttention-2 paper (Dao 2023, arXiv:2307.08691) §4.1, Fig. 4",
     "A100 80GB SXM4, forward + backward, head dim 64/128, 512-16k tokens: FA2 'around 2x faster than ... "
     "FlashAttention in xformers (the cutlass implementation)'", 2.0),
    ("PyTorch tutorial intermediate/scaled_dot_product_attention_tutorial, published output",
     "Ampere GPU, fp16, forward, 32 x 32 heads x 1024 x 32, no mask: 4197.082 us / 2304.600 us", 4197.082 / 2304.600),
    ("Dao-AILab/flash-attention issue #416, a user's benchmarks/benchmark_flash_attention.py output",
     "GPU not stated, causal, head dim 64, 4 x 4096, forward + backward: Flash2 52.27 / xformers 30.63 TFLOP/s",
     52.27 / 30.63),
    ("Dao-AILab/flash-attention issue #416 (same run)",
     "causal, head dim 64, 2 x 8192, forward + backward: Flash2 54.58 / xformers 26.34 TFLOP/s", 54.58 / 26.34),
]

#: (model preset, seq_len) of the model-side table
CASES = [("llama-2-7b", 1024), ("llama-2-7b", 2048), ("qwen2.5-7b", 4096)]
GPUS = ("a100-sxm-80gb", "h100-sxm-80gb")


def step_s(preset: str, seq: int, gpu: str, impl: str, mbs: int = 4, mean: int | None = -1, **training) -> float:
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.scenario import scenario_from_dict

    d = {"model": {"preset": preset},
         "training": {"framework": "hf", "method": "lora", "seq_len": seq, "micro_batch_size": mbs,
                      "global_batch_size": 8 * mbs, "recompute": "full", "attn_implementation": impl, **training},
         "data": {"mean_sample_len": seq // 2 if mean == -1 else mean}, "hardware": {"gpu": gpu, "num_gpus": 1}}
    return evaluate(scenario_from_dict(d)).time.step_time_s


def model_rows() -> list[tuple]:
    out = []
    for preset, seq in CASES:
        for gpu in GPUS:
            fa2, sdpa = step_s(preset, seq, gpu, "flash_attention_2"), step_s(preset, seq, gpu, "sdpa")
            controls = [step_s(preset, seq, gpu, "sdpa", **kw) / step_s(preset, seq, gpu, "flash_attention_2", **kw)
                        for kw in ({"mbs": 1}, {"mean": None}, {"packing": True})]
            out.append((preset, seq, gpu, fa2, sdpa, sdpa / fa2, max(abs(c - 1.0) for c in controls)))
    return out


def main() -> int:
    from gpuplanner.core.timing import SDPA_MEM_EFF_TIME_FACTOR

    lines = ["Published: memory-efficient (cutlass) kernel time / FlashAttention-2 time", "",
             "| source | setting | ratio |", "|---|---|---:|"]
    lines += [f"| {src} | {setting} | {r:.2f} |" for src, setting, r in KERNEL_ROWS]
    ratios = [r for _s, _t, r in KERNEL_ROWS]
    lines += ["", f"model constant SDPA_MEM_EFF_TIME_FACTOR = {SDPA_MEM_EFF_TIME_FACTOR:.2f}; published median "
              f"{statistics.median(ratios):.2f}, range {min(ratios):.2f}-{max(ratios):.2f}", "",
              "Model: HF Trainer LoRA, full recompute, batch 4 padded (mean sample = seq/2): step time (s)", "",
              "| model | seq | GPU | flash_attention_2 | sdpa (padded) | ratio | unpadded controls, max |diff| |",
              "|---|---:|---|---:|---:|---:|---:|"]
    for preset, seq, gpu, fa2, sdpa, ratio, ctrl in model_rows():
        lines.append(f"| {preset} | {seq} | {gpu} | {fa2:.3f} | {sdpa:.3f} | {ratio:.3f} | {ctrl:.1e} |")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

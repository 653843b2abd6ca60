"""Issue 35 round 8 (helper cp8): published torch context-parallel step times never used before, scored out of
sample.

Usage: python bench/validate_cp_oos.py

The rows were entered from their sources and scored before any change (main 12a09d1); this round changes no model
code, so the figures are the model's as merged. Every row runs PyTorch's own ring attention
(``torch.distributed.tensor.experimental.context_parallel``, reached through Accelerate's ``cp_size`` on FSDP2), the
ring that torchtitan's CP rows run, at one or more nodes of 8 × H100, so they test the ring's per-step cost at CP 8
to CP 32 and the SDPA backend each ring step calls.

Sources (GitHub pull-request descriptions, 2026-08):

* huggingface/transformers#48324 ("[Umbrella] Long-context SFT fixes", 2026-08-26): Qwen3-8B at 1,048,576 tokens on
  one 8×H100 node "goes from 606 s to 373 s per step, MFU 21.4% to 34.7%" when SDPA prefers the cuDNN backend on
  Hopper (transformers#48163) instead of falling back to FlashAttention; memory unchanged at 56.2 GB.
* huggingface/trl#6846 (merged, 2026-08-21): the same run as TRL's example ``examples/sft_qwen3_8b_1m_context/``:
  "One 8xH100 node, bf16, per_device_train_batch_size=1, loss_type=chunked_nll (the default). Qwen3-8B at 1,048,576
  tokens: 380 s/step, 56.2 GB per GPU"; it needs transformers >= 5.16 for gradient checkpointing ``offload``. The
  author's correction: his first numbers "came from machines where the system CUDA shadowed the cuDNN bundled with
  torch, so torch fell back to FlashAttention".
* huggingface/trl#6845 (closed first version of the same PR): "Qwen3-8B: 1M on 1 node at 364 s, 2M on 2 nodes at
  696 s, 4M on 4 nodes at 1346 s", each GPU keeping the same shard. Its backend is not stated (see the correction
  above), so only the ratios between its rows are scored; they hardly depend on the backend (attention is > 95%).

Entered as the model's ``fsdp`` framework (FSDP2 over dp × cp, torch's all-gather ring with its fp32 merges, eager:
no ``torch.compile`` in the HF Trainer), full recompute (gradient checkpointing), chunked loss, one sequence per CP
group, ``attention_kernel`` ``flash2`` or ``cudnn`` as the source says. ASSUMED: the H100 SXM (the sources say
"8xH100"); gradient checkpointing's CPU offload is entered as ``activation_offload`` (it changes memory, not the
modelled step time here).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gpuplanner.core.evaluate import evaluate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

MIB_TOKENS = 1024 * 1024


def hf_torch_cp(kernel: str, nodes: int = 1, model: str = "qwen3-8b") -> dict:
    """Accelerate FSDP2 + torch CP over ``8 × nodes`` H100s, one sequence of ``nodes`` × 1M tokens per step."""
    gpus = 8 * nodes
    return {"model": {"preset": model},
            "training": {"framework": "fsdp", "seq_len": nodes * MIB_TOKENS, "micro_batch_size": 1,
                         "global_batch_size": 1, "recompute": "full", "torch_compile": False, "precision": "bf16",
                         "chunked_loss": True, "activation_offload": True, "attention_kernel": kernel,
                         # transformers' non-reentrant checkpoint, PyTorch's early stop (not torchtitan's: the
                         # fsdp row's default since issue 35 round 16, titan16)
                         "checkpoint_early_stop": True},
            "parallel": {"zero": 3, "tp": 1, "pp": 1, "cp": gpus},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": gpus}}


#: (label, scenario, published seconds per step, source)
ROWS = [
    ("Qwen3-8B 1M, CP 8, SDPA FlashAttention fallback", hf_torch_cp("flash2"), 606.0, "transformers#48324"),
    ("Qwen3-8B 1M, CP 8, SDPA cuDNN", hf_torch_cp("cudnn"), 373.0, "transformers#48324"),
    ("Qwen3-8B 1M, CP 8, SDPA cuDNN (TRL example)", hf_torch_cp("cudnn"), 380.0, "trl#6846"),
]
#: trl#6845's weak-scaling rows: (nodes, published seconds per step); scored as ratios to the 1-node row
SCALING = [(1, 364.0), (2, 696.0), (4, 1346.0)]


def step_seconds(sc: dict) -> float:
    """The model's seconds per optimizer step for ``sc`` (tokens per GPU over modelled tokens/s/GPU)."""
    t = sc["training"]
    tokens_per_gpu = t["seq_len"] * t["global_batch_size"] / sc["hardware"]["num_gpus"]
    return tokens_per_gpu / evaluate(scenario_from_dict(sc)).time_modelled.tokens_per_s_per_gpu


def rows() -> tuple[list[str], list[float]]:
    """Markdown lines and tokens/s errors (model / published − 1) of :data:`ROWS`."""
    out = ["| row | source | published s/step | model s/step | tokens/s error |", "|---|---|---:|---:|---:|"]
    errs = []
    for label, sc, pub, src in ROWS:
        model = step_seconds(sc)
        err = pub / model - 1.0
        errs.append(err)
        out.append(f"| {label} | {src} | {pub:,.0f} | {model:,.0f} | {err:+.1%} |")
    return out, errs


def scaling_rows() -> list[str]:
    """trl#6845's 1/2/4-node rows as step-time ratios to the 1-node row, published vs model (both kernels)."""
    base = {k: step_seconds(hf_torch_cp(k)) for k in ("flash2", "cudnn")}
    out = ["| nodes (CP) | published ratio | model ratio, flash2 | model ratio, cudnn |", "|---|---:|---:|---:|"]
    for nodes, pub in SCALING:
        cells = [step_seconds(hf_torch_cp(k, nodes)) / base[k] for k in ("flash2", "cudnn")]
        out.append(f"| {nodes} ({8 * nodes}) | {pub / SCALING[0][1]:.2f} | {cells[0]:.2f} | {cells[1]:.2f} |")
    return out


def main() -> int:
    lines, errs = rows()
    print("\n".join(lines))
    abs_errs = sorted(abs(e) for e in errs)
    print(f"\n{len(errs)} rows: |error| median {statistics.median(abs_errs):.1%}, max {abs_errs[-1]:.1%}\n")
    print("\n".join(scaling_rows()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

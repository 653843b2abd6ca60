"""Round 14 (nemoauto14): NeMo AutoModel's LoRA linears (``training.lora_layer``) on AutoModel's H100 LoRA rows.

Usage: python bench/validate_nemoauto14.py

The rows are round 13's (bench/validate_ft_oos13.py, NVIDIA-NeMo/Automodel ``docs/performance-summary.md`` at 507bfb751
and 2013a4dd6). Per row: before (``lora_layer`` peft, PEFT's adapter traffic: round 13's entry), after (``automodel``,
AutoModel's ``LinearLoRA``: what ``patch_linear_module`` runs with Transformer Engine installed), and the what-if
``automodel_triton`` (``TritonLinearLoRA``: the recipes' ``use_triton: true`` without Transformer Engine), each with the
model's adapter line (``parts["lora_adapters"]``). Then the terms AutoModel's code shows and the model does not price
for these rows (printed, not scored): its eager fp32 ``MaskedCrossEntropy`` beside Liger's layers.

Error = published / predicted - 1 (+ = predicted too fast).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import validate_ft_oos13 as B  # noqa: E402
import validate_ft_tools as vft  # noqa: E402

LAYERS = ("peft", "automodel", "automodel_triton")


def resolved(row, layer: str):
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict

    r = B.with_layer(row, layer)
    d = {"model": r.model, "training": r.training, "parallel": r.parallel, "hardware": B._hardware(r)}
    return resolve(scenario_from_dict(d))


def estimate(row, layer: str):
    from gpuplanner.core.timing import time_estimate

    return time_estimate(resolved(row, layer))


def results() -> dict[str, dict[str, tuple[float, float, float]]]:
    """Per row id and layer: (predicted s/step, error, adapter seconds)."""
    out: dict[str, dict[str, tuple[float, float, float]]] = {}
    for r in B.all_rows():
        out[r.id] = {}
        for layer in LAYERS:
            t = estimate(r, layer)
            out[r.id][layer] = (t.step_time_s, r.measured / t.step_time_s - 1.0, t.parts.get("lora_adapters", 0.0))
    return out


def eager_loss_seconds(row) -> float:
    """What AutoModel's ``MaskedCrossEntropy`` (fp32 upcast of the full logits, ``F.cross_entropy``) would add over the
    fused loss ``liger_kernel`` prices (8 bytes per logit): ``timing.HF_EAGER_CE_BYTES`` per logit, at the card's
    modelled HBM rate, over the step's tokens on one GPU (single-GPU rows); the vocabulary and the card from the
    row's resolved scenario."""
    from gpuplanner.core import timing as T
    from gpuplanner.core.catalog_hw import get_gpu

    rs = resolved(row, "automodel")
    t = estimate(row, "automodel")
    tokens = t.tokens_per_step / row.num_gpus
    bw = float(get_gpu(rs.scenario.hardware.gpu).mem_bw_tbs) * 1e12
    return (T.HF_EAGER_CE_BYTES - 8.0) * rs.arch.vocab_size * tokens / (bw * T.MEM_BW_EFFICIENCY)


def _stats(errs: list[float]) -> str:
    a = sorted(abs(e) for e in errs)
    return f"median {statistics.median(a):.1%}, p90 {vft._pct(a, 0.9):.1%}, signed median {statistics.median(errs):+.1%}"


def table() -> list[str]:
    res = results()
    lines = [f"Source: {B.SRC}", "",
             "| run | published s/step | before (peft) | error | after (automodel) | error | adapters before → after "
             "(s) | what-if automodel_triton | error |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in B.all_rows():
        p, a, t = (res[r.id][k] for k in LAYERS)
        lines.append(f"| {r.id} | {r.measured:.2f} | {p[0]:.2f} | {p[1]:+.1%} | {a[0]:.2f} | {a[1]:+.1%} | "
                     f"{p[2]:.2f} → {a[2]:.2f} | {t[0]:.2f} | {t[1]:+.1%} |")
    lines.append("")
    for k in LAYERS:
        lines.append(f"{k}: 6 rows, {_stats([res[r.id][k][1] for r in B.all_rows()])}")
    lines += ["", "Not priced (printed): AutoModel's eager fp32 MaskedCrossEntropy under Liger's layers, over the fused "
              "loss the liger_kernel entry prices:"]
    for r in B.all_rows():
        if r.num_gpus == 1:
            s = eager_loss_seconds(r)
            a = res[r.id]["automodel"][0]
            lines.append(f"  {r.id}: +{s:.2f} s a step (error {r.measured / (a + s) - 1:+.1%} with it)")
    return lines


def main() -> int:
    print("\n".join(table()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

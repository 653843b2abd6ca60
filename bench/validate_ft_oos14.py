"""Out-of-sample fine-tuning step time, round 14: XTuner's published DeepSpeed ZeRO-3 speed benchmark (not fitted).

Usage: python bench/validate_ft_oos14.py [--before FILE] [--write-before FILE]

Before entering the source I grepped ``bench/``, ``tests/``, ``docs/`` and ``shared/reference`` for its figures
(3028.3, 2234.2, 485.1, 216.8, 948.6, 300.9) and for "xtuner": none was held (round 11's ptoos11 looked at a different
XTuner page, ``configs/llama/llama3_8b/README.md``, which names no card).

Source: InternLM/xtuner ``docs/zh_cn/acceleration/benchmark.rst`` ("速度基准"), first at 43ef6ab99 (2024-06-12), GPU
count of the 1M row fixed at 7575f2c91 (2024-07-09), kept unchanged at ``docs/zh_cn/legacy/acceleration/
benchmark.rst`` (ca1ec48af, 2025-08-26). Stated: NVIDIA A100-SXM4-80GB, Xeon Gold 6348, PyTorch 1.13, CUDA 11.7,
NCCL 2.14.3; Alpaca (en + zh) "packed to the maximum length" (every row full); "TGS" = tokens per GPU per second; the
config of every row (``xtuner/configs/llama_speed_benchmark/``). The configs (read at 43ef6ab99): the Hugging Face
model (``AutoModelForCausalLM``) in ``SupervisedFinetune`` (``use_activation_checkpointing=True`` by default:
``gradient_checkpointing_enable()``), ``use_varlen_attn = False`` (causal attention over the whole packed row),
``batch_size = 1`` per device, ``accumulative_counts = 1`` for the SP 1 rows (= SP otherwise), ``torch.optim.AdamW``,
``clip_grad max_norm 1``. The figures come from ``xtuner/engine/hooks/throughput_hook.py`` (43ef6ab99):
``tokens_per_sec_per_gpu = batch x sequence_len / iter_time`` (per iteration = per micro-batch of one GPU) and
``tflops`` from Megatron's formula with ``(3 + use_activation_checkpointing)`` passes; the page's TFLOPs column is that
formula applied to its TGS for every row to 0.1% (the 7B 32k row to 0.7%), with the factor 4: checkpointing was on
(tested). So published seconds per optimizer step = sequence length / TGS for the SP 1 rows.

Entered as a user would enter the run: ``framework: deepspeed`` (mmengine's ``DeepSpeedStrategy`` runs
``deepspeed.initialize`` on the Transformers model), ``zero: 3``, full fine-tuning, ``precision: bf16`` with the fp32
master copy (``xtuner/tools/train.py`` ``auto_dtype_of_deepspeed_config``: bf16 where the card supports it;
``deepspeed_zero3.json``: ``"bf16": {"enabled": "auto"}``), ``recompute: full``, ``flash_attention: true``
(``dispatch_modules``; PyTorch 1.13 has no SDPA, so FlashAttention 2 from ``flash-attn``; the page's 185 TFLOPs at
8k rules out eager attention), ``packing: true``, micro-batch 1, global batch = GPUs. ZeRO-3: the config is not named
on the page, but the same docs' long-sequence page (``train_extreme_long_sequence.rst``, table 1) runs this benchmark
series' Yi-34B with ZeRO-3, and 34B/70B bf16 weights (68/138 GB) cannot sit whole on an 80 GB card (ZeRO-1/2);
ASSUMED ZeRO-3 for the 7B rows too (ZeRO-2 moves them by < 5 points, printed). The 32-GPU rows span 4 servers over a
network the page does not state: ENTERED with the catalogue's A100 default (``timing.DEFAULT_FABRIC``: one 200 Gb/s
HDR InfiniBand NIC per GPU, DGX A100's fabric); the sensitivity to fewer NICs is printed and tested.

Not scored: the sequence-parallel rows (SP 2 to 64, DeepSpeed-Ulysses-style all-to-all; ``core/frameworks.py``:
"Ulysses sequence parallelism is not modelled"); printed with their per-iteration seconds, because they bear on the
32-GPU miss (see the note). Table 1 of the long-sequence page (Yi-34B, 128k, SP 1, ZeRO-3, 16 / 32 / 64 GPUs: "OOM")
is checked as a memory statement: the model's peak must exceed the card.

Error = published s/step / predicted s/step - 1 (= predicted TGS / published TGS - 1; + = predicted too fast).
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import validate_ft_tools as vft  # noqa: E402

SRC = ("InternLM/xtuner docs/zh_cn/acceleration/benchmark.rst (43ef6ab99; 7575f2c91), A100-SXM4-80GB, "
       "configs xtuner/configs/llama_speed_benchmark/ @43ef6ab99")
GPU = "a100-sxm-80gb"
#: what every scored row shares (module docstring)
BASE = {"framework": "deepspeed", "method": "full", "precision": "bf16", "master_weights": True,
        "recompute": "full", "flash_attention": True, "packing": True, "micro_batch_size": 1,
        "optimizer": "adamw"}

#: XTuner ``ThroughputHook`` inputs per model (the checkpoints' ``config.json``): hidden, layers, intermediate, vocab
XT_ARCH = {"llama-2-7b": (4096, 32, 11008, 32000), "yi-34b": (7168, 60, 20480, 64000),
           "llama-2-70b": (8192, 80, 28672, 32000)}

#: (id, preset, GPUs, sequence length, SP, published TGS, published TFLOPs, config file, assumed)
TABLE = (
    ("xt-l2-7b-8k-8xa100", "llama-2-7b", 8, 8192, 1, 3028.3, 185.3, "llama2_7b_full_alpaca_enzh_8k_sp1.py",
     ("ZeRO-3 assumed for 7B (not named; ZeRO-2 printed)",)),
    ("xt-l2-7b-32k-8xa100", "llama-2-7b", 8, 32768, 1, 2234.2, 193.0, "llama2_7b_full_alpaca_enzh_32k_sp1.py",
     ("ZeRO-3 assumed for 7B (not named; ZeRO-2 printed)",)),
    ("xt-yi-34b-8k-32xa100", "yi-34b", 32, 8192, 1, 485.1, 165.6, "yi_34b_200k_full_alpaca_enzh_8k_sp1.py",
     ("Yi-34B-200K entered as the yi-34b preset (same architecture; only RoPE base and context differ)",
      "4 servers; network not stated: the catalogue's A100 default (8 x HDR 200 Gb/s per server)")),
    ("xt-l2-70b-8k-32xa100", "llama-2-70b", 32, 8192, 1, 216.8, 144.7, "llama2_70b_full_alpaca_enzh_8k_sp1.py",
     ("4 servers; network not stated: the catalogue's A100 default (8 x HDR 200 Gb/s per server)",)),
)
#: printed, not scored (Ulysses-style sequence parallelism is not modelled): (row, GPUs, seq, SP, TGS, TFLOPs)
SP_ROWS = (
    ("Llama2-7B 128k SP 8", "llama-2-7b", 8, 131072, 8, 948.6, 180.3),
    ("Llama2-7B 256k SP 8", "llama-2-7b", 8, 262144, 8, 540.1, 176.9),
    ("Llama2-7B 1M SP 16", "llama-2-7b", 32, 1048576, 16, 133.6, 153.9),
    ("Yi-34B 32k SP 2", "yi-34b", 32, 32768, 2, 491.5, 209.1),
    ("Yi-34B 128k SP 8", "yi-34b", 32, 131072, 8, 251.1, 191.8),
    ("Yi-34B 256k SP 8", "yi-34b", 32, 262144, 8, 119.7, 145.3),
    ("Llama2-70B 32k SP 4", "llama-2-70b", 32, 32768, 4, 300.9, 239.6),
    ("Llama2-70B 128k SP 8", "llama-2-70b", 32, 131072, 8, 144.7, 189.7),
    ("Llama2-70B 256k SP 16", "llama-2-70b", 32, 262144, 16, 63.8, 127.6),
    ("Llama2-70B 1M SP 64", "llama-2-70b", 64, 1048576, 64, 21.8, 133.5),
)
#: ``train_extreme_long_sequence.rst`` table 1: Yi-34B at 128k, SP 1, ZeRO-3, these GPU counts: "OOM"
OOM_GPUS = (16, 32, 64)
OOM_SEQ = 131072


def xtuner_tflops(preset: str, seq: int, sp: int, tgs: float, checkpointing: bool = True) -> float:
    """The TFLOPs XTuner logs for a TGS (``ThroughputHook.after_train_iter`` @43ef6ab99, batch 1, causal): per
    iteration ``(3 + ckpt) x (8 s h^2 + 4 s^2 h sp / 2 + 4 (1.5 i / h) s h^2) x L + 6 s h V`` over the local
    length ``s = seq / sp``, divided by the iteration time ``s / TGS``."""
    h, layers, inter, vocab = XT_ARCH[preset]
    s = seq / sp
    per_layer = 8 * s * h * h + 4 * s * s * h * sp / 2 + 4 * (1.5 * inter / h) * s * h * h
    flops = (3 + int(checkpointing)) * per_layer * layers + 6 * s * h * vocab
    return flops / (s / tgs) / 1e12


def all_rows() -> list[vft.Row]:
    return [vft.Row(rid, "xtuner", "step", seq / sp / tgs, {"preset": preset},
                    {**BASE, "seq_len": seq, "global_batch_size": n}, gpu=GPU, num_gpus=n,
                    parallel={"zero": 3}, data={}, assumed=assumed)
            for rid, preset, n, seq, sp, tgs, _tf, _cfg, assumed in TABLE]


def _scenario(row: vft.Row, hardware: dict | None = None, parallel: dict | None = None, training: dict | None = None):
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict

    d = {"model": row.model, "training": {**row.training, **(training or {})},
         "parallel": {**row.parallel, **(parallel or {})},
         "hardware": {"gpu": row.gpu, "num_gpus": row.num_gpus, "gpus_per_node": 8, **(hardware or {})}}
    return resolve(scenario_from_dict(d))


def predict(row: vft.Row, **over) -> float:
    """Predicted seconds per optimizer step (one micro-batch per GPU), optionally with scenario overrides."""
    from gpuplanner.core.timing import time_estimate

    return time_estimate(_scenario(row, **over)).step_time_s


def results() -> list[tuple[vft.Row, float, float]]:
    return [(r, p, vft.error(r, p)) for r in all_rows() for p in (predict(r),)]


#: same model, same 32 GPUs, SP 1 row against an SP row of the page (module docstring): (SP 1 id, SP row name)
SP_PAIRS = (("xt-l2-70b-8k-32xa100", "Llama2-70B 32k SP 4"), ("xt-yi-34b-8k-32xa100", "Yi-34B 32k SP 2"))


def sp_pairs() -> list[tuple[str, str, float, float]]:
    """Per pair: (SP 1 id, SP row, its iteration time / the SP 1 row's, its work per iteration / the SP 1 row's),
    work = the page's TFLOPs x seconds per iteration (XTuner's own count, so the pair is compared like for like).
    Both rows run the same per-micro-batch ZeRO-3 gathers and reduce-scatter over the same 32 GPUs."""
    tab = {t[0]: t for t in TABLE}
    sp = {t[0]: t for t in SP_ROWS}
    out = []
    for rid, name in SP_PAIRS:
        _r, _p, _n, seq1, sp1, tgs1, tf1, _c, _a = tab[rid]
        _nm, _pp, _nn, seq2, sp2, tgs2, tf2 = sp[name]
        t1, t2 = seq1 / sp1 / tgs1, seq2 / sp2 / tgs2
        out.append((rid, name, t2 / t1, tf2 * t2 / (tf1 * t1)))
    return out


def fit_peaks() -> dict[str, float]:
    """The model's peak (GiB, device view) for every scored row: each run completed on an 80 GB card, so each must fit."""
    from gpuplanner.core.estimate import memory_breakdown

    return {r.id: memory_breakdown(_scenario(r)).metric("device") for r in all_rows()}


def oom_peaks() -> dict[int, float]:
    """The model's peak (GiB, device view) for table 1's Yi-34B 128k SP 1 ZeRO-3 runs, by GPU count."""
    from gpuplanner.core.estimate import memory_breakdown

    base = next(r for r in all_rows() if r.id == "xt-yi-34b-8k-32xa100")
    out = {}
    for n in OOM_GPUS:
        r = dataclasses.replace(base, num_gpus=n, training={**base.training, "seq_len": OOM_SEQ,
                                                            "global_batch_size": n})
        out[n] = memory_breakdown(_scenario(r)).metric("device")
    return out


#: network what-ifs for the 32-GPU rows: (label, hardware overrides)
NETWORKS = (("8 x HDR 200 per server (entered)", {}),
            ("4 x HDR 200", {"inter_node": "ib-hdr-200", "nics_per_node": 4}),
            ("2 x HDR 200", {"inter_node": "ib-hdr-200", "nics_per_node": 2}),
            ("1 x HDR 200", {"inter_node": "ib-hdr-200", "nics_per_node": 1}),
            ("1 x EDR 100", {"inter_node": "ib-edr-100", "nics_per_node": 1}))


def sensitivity() -> dict[str, dict[str, float]]:
    """Per row, predicted s/step under the unstated settings' alternatives (printed, not scored)."""
    out: dict[str, dict[str, float]] = {}
    for r in all_rows():
        if r.num_gpus == 8:
            out[r.id] = {"ZeRO-2": predict(r, parallel={"zero": 2})}
        else:
            out[r.id] = {lab: predict(r, hardware=hw) for lab, hw in NETWORKS}
    return out


def _stats(errs: list[float]) -> str:
    a = sorted(abs(e) for e in errs)
    return (f"{len(a)} rows, median {statistics.median(a):.1%}, p90 {vft._pct(a, 0.9):.1%}, "
            f"signed median {statistics.median(errs):+.1%}")


def table(before: dict | None = None) -> list[str]:
    lines = [f"Source: {SRC}", "",
             "| run | GPUs | seq | published TGS | TFLOPs (page / XTuner formula) | published s/step | predicted s/step "
             "| error | before |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    tab = {t[0]: t for t in TABLE}
    res = results()
    for r, p, e in res:
        _rid, preset, n, seq, sp, tgs, tf, _cfg, _a = tab[r.id]
        b = "" if not before or r.id not in before else f"{before[r.id]:+.1%}"
        lines.append(f"| {r.id} | {n} | {seq:,} | {tgs:,.1f} | {tf:.1f} / {xtuner_tflops(preset, seq, sp, tgs):.1f} "
                     f"| {r.measured:.2f} | {p:.2f} | {e:+.1%} | {b} |")
    errs = [e for _r, _p, e in res]
    one = [e for r, _p, e in res if r.num_gpus == 8]
    four = [e for r, _p, e in res if r.num_gpus > 8]
    lines += ["", f"all: {_stats(errs)}", f"one server (8 GPUs): {_stats(one)}",
              f"four servers (32 GPUs): {_stats(four)}", "",
              "Unstated settings (printed, not scored): ZeRO-2 for the 7B rows; the 32-GPU rows' network", "",
              "| run | published | entered | alternative | predicted | error |", "|---|---:|---:|---|---:|---:|"]
    pred = {r.id: p for r, p, _e in res}
    sens = sensitivity()
    for r in all_rows():
        for lab, v in sens[r.id].items():
            lines.append(f"| {r.id} | {r.measured:.2f} | {pred[r.id]:.2f} | {lab} | {v:.2f} | "
                         f"{r.measured / v - 1:+.1%} |")
    lines += ["", "Sequence-parallel rows (not scored: Ulysses not modelled), per iteration (one micro-batch; "
              "accumulation = SP):", "", "| row | GPUs | published TGS | s/iteration | TFLOPs page / formula |",
              "|---|---:|---:|---:|---:|"]
    for name, preset, n, seq, sp, tgs, tf in SP_ROWS:
        lines.append(f"| {name} | {n} | {tgs:,.1f} | {seq / sp / tgs:.2f} | {tf:.1f} / "
                     f"{xtuner_tflops(preset, seq, sp, tgs):.1f} |")
    lines += ["", "Same model on the same 32 GPUs, SP 1 against SP > 1 (same ZeRO-3 traffic per micro-batch; accumulation "
              "= SP): " + "; ".join(f"{n}: time per iteration x{t:.2f} for work x{w:.2f} ({rid})"
                                   for rid, n, t, w in sp_pairs())]
    fits = fit_peaks()
    lines += ["", "Memory statements (both published by running): the scored runs completed on 80 GB cards, model's "
              "peak " + ", ".join(f"{k} {v:.1f} GiB" for k, v in fits.items())]
    peaks = oom_peaks()
    lines += ["Long-sequence page, table 1 (Yi-34B 128k, SP 1, ZeRO-3: published OOM): model's peak "
              + ", ".join(f"{n} GPUs {g:.0f} GiB" for n, g in peaks.items()) + " (card 80 GB)"]
    for r in all_rows():
        if r.assumed:
            lines.append(f"ASSUMED {r.id}: " + "; ".join(r.assumed))
    return lines


def main(argv: list[str] | None = None) -> int:
    return vft.before_main(__doc__.splitlines()[0], table, results, argv)


if __name__ == "__main__":
    raise SystemExit(main())

"""Our estimates against steps measured on one H100 here (a validation table; nothing is fitted to it).

Usage: python bench/validate_h100_measured.py [--data-dir DIR]

Data: ``bench/data/h100_measured_2026-12-06.jsonl``, the raw output of ``bench/device/measure_h100.py`` on one NVIDIA
H100 80GB HBM3 (SXM, 700 W, driver 580.159.04), PyTorch 2.11.0+cu130 (cuDNN 9.19), transformers 5.17.0, PEFT 0.21.0,
Python 3.12, 2026-12-06. Models are built from their configs with random weights (Qwen2.5-0.5B/1.5B/3B from
``gpuplanner/resources/models``, Llama-3.2-1B from its Hugging Face ``config.json``); each training row is the median
of 5 timed optimizer steps after 2 warm-ups of the loop the HF Trainer runs (bf16 autocast, ``loss.backward()``,
``clip_grad_norm_(1.0)``, ``torch.optim.AdamW(fused=True)``, ``zero_grad(set_to_none=True)``), one micro-batch per
step, SDPA attention (the default backend order: with cuDNN 9.19 bundled, PyTorch 2.11 prefers cuDNN attention,
which the ``sdpa`` rows confirm), ``max_memory_allocated``/``max_memory_reserved`` over the steps. ``mixed`` = fp32
weights and AdamW states under bf16 autocast (Trainer ``bf16=True`` on an fp32-loaded model: the scenario's
``master_weights=True``); ``bf16`` = weights and states in bf16 (``master_weights=False``); ``lora`` = bf16 base, PEFT
r=16 alpha 32 fp32 adapters (PEFT's ``autocast_adapter_dtype``), ``all-linear`` or q/k/v/o. ``trainer`` rows ran
``transformers.Trainer`` itself (its default ``adamw_torch_fused``) on a synthetic dataset; step time between
consecutive ``on_step_end`` callbacks after synchronising.

Three device calls, each on a fresh machine. Run 1 (``h100_measured_2026-12-06.jsonl``) timed every family, but
its launch cases had started ``torch.profiler`` first in the same process, and the profiler's CUDA callbacks stay
registered: every later kernel launch costs more host time, so run 1's host-bound steps (short micro-batches) came
out 1.5–2.5× slower than the same steps in run 3 (``h100_measured_2026-12-06_short.jsonl``), which never starts the
profiler. Step times are therefore validated on run 3; run 1 serves for memory (allocator peaks do not depend on
the host), GEMM, SDPA and the GPU-bound rows. Run 2 (``_probe``) counted the kernels a real model's forward and
backward launch (torch.profiler), reentrant and non-reentrant checkpointing included.

The scenario for each row: framework ``hf``, the row's method, sequence, micro-batch (= global batch, one GPU),
``recompute`` full/none for gradient checkpointing on/off, ``attention_kernel: cudnn`` (what ran). Error convention
as the other validation tables: measured / predicted − 1 for time (positive: we predict too fast), predicted /
measured − 1 for memory.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data" / "h100_measured_2026-12-06.jsonl"  # run 1: every family
DATA_PROBE = ROOT / "bench" / "data" / "h100_measured_2026-12-06_probe.jsonl"  # run 2: kernels per layer
DATA_SHORT = ROOT / "bench" / "data" / "h100_measured_2026-12-06_short.jsonl"  # run 3: steps, no profiler

#: Llama-3.2-1B (meta-llama/Llama-3.2-1B config.json; no preset in gpuplanner/resources/models)
LLAMA_32_1B = {"name": "Llama-3.2-1B", "hidden_size": 2048, "num_hidden_layers": 16, "num_attention_heads": 32,
               "num_key_value_heads": 8, "intermediate_size": 8192, "vocab_size": 128256, "tie_word_embeddings": True}


def load(path: Path = DATA) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


#: Qwen2.5-3B (Qwen/Qwen2.5-3B config.json: the architecture bench/device/measure_h100.py built; no preset either)
QWEN_25_3B = {"name": "Qwen2.5-3B", "hidden_size": 2048, "num_hidden_layers": 36, "num_attention_heads": 16,
              "num_key_value_heads": 2, "intermediate_size": 11008, "vocab_size": 151936, "tie_word_embeddings": True,
              "attention_bias": True}


def model_section(name: str) -> dict:
    return dict({"llama-3.2-1b": LLAMA_32_1B, "qwen2.5-3b": QWEN_25_3B}.get(name) or {"preset": name})


def scenario(row: dict) -> dict:
    """The scenario the measured row ran (module docstring)."""
    lora = row["mode"] == "lora"
    t = {"framework": "hf", "method": "lora" if lora else "full", "seq_len": row["seq"],
         "micro_batch_size": row["mb"], "global_batch_size": row["mb"], "recompute": "full" if row["gc"] else "none",
         "flash_attention": True, "attention_kernel": "cudnn", "optimizer": "adamw",
         "master_weights": row["mode"] != "bf16"}
    if row["gc"]:
        t["checkpoint_reentrant"] = False  # transformers 5.17's default (huggingface/transformers#43203)
    if lora:
        targets = row.get("targets") or "all-linear"
        t.update(lora_rank=16, lora_dropout=0.0,
                 lora_targets="all_linear" if targets == "all-linear" else "attention")
    return {"model": model_section(row["model"]), "training": t, "parallel": {"zero": 0},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}}


def predict(row: dict) -> dict:
    from gpuplanner.core.estimate import estimate
    from gpuplanner.core.scenario import scenario_from_dict

    e = estimate(scenario_from_dict(scenario(row)))
    return {"step_s": e.time.step_time_s, "allocated_gib": e.memory.allocated, "reserved_gib": e.memory.reserved,
            "parts": e.time.parts}


def train_rows(rows: list[dict]) -> list[dict]:
    """Every measured training step (``train`` and ``trainer``) with our estimate beside it."""
    out = []
    for r in rows:
        if r.get("kind") not in ("train", "trainer") or "step_s" not in r:
            continue
        p = predict(r)
        item = {"kind": r["kind"], "model": r["model"], "mode": r["mode"], "targets": r.get("targets"),
                "fused": r.get("fused", True), "seq": r["seq"], "mb": r["mb"], "gc": r["gc"],
                "measured_s": r["step_s"], "predicted_s": p["step_s"], "time_err": r["step_s"] / p["step_s"] - 1.0,
                "parts": p["parts"]}
        if "max_alloc_gib" in r and p["allocated_gib"]:
            item.update(measured_alloc=r["max_alloc_gib"], predicted_alloc=p["allocated_gib"],
                        alloc_err=p["allocated_gib"] / r["max_alloc_gib"] - 1.0,
                        measured_reserved=r["max_reserved_gib"], predicted_reserved=p["reserved_gib"],
                        reserved_err=p["reserved_gib"] / r["max_reserved_gib"] - 1.0)
        out.append(item)
    return out


def family(item: dict) -> str:
    if item["kind"] == "trainer":
        return "HF Trainer"
    if item["mode"] == "lora":
        return "LoRA all-linear" if item["targets"] in (None, "all-linear") else "LoRA q/k/v/o"
    if item["mode"] == "bf16":
        return "full, pure bf16"
    return "full, mixed" + ("" if item["fused"] else " (foreach AdamW)")


def _p90(v: list[float]) -> float:
    s = sorted(v)
    pos = 0.9 * (len(s) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def summary(items: list[dict], key: str) -> dict[str, tuple[int, float, float, float]]:
    """Per family: (n, median |err|, p90 |err|, median signed err)."""
    fams: dict[str, list[float]] = {}
    for it in items:
        if key in it:
            fams.setdefault(family(it), []).append(it[key])
    allv = [v for vs in fams.values() for v in vs]
    if allv:
        fams["all"] = allv
    return {f: (len(v), statistics.median(abs(x) for x in v), _p90([abs(x) for x in v]), statistics.median(v))
            for f, v in fams.items()}


def gemm_rows(rows: list[dict]) -> list[dict]:
    """Measured bf16 GEMM efficiency (of the 989 TFLOP/s dense peak) beside the time model's
    ``GEN_EFFICIENCY × 1/(1 + D0/width) × 1/(1 + T0/tokens)`` for that shape (width = the smaller of N, K)."""
    from gpuplanner.core import timing as T

    peak = 989.4
    out = []
    for r in rows:
        if r.get("kind") != "gemm" or "tflops" not in r:
            continue
        width = min(r["n"], r["k"])
        model = T.GEN_EFFICIENCY["hopper"] / (1 + T.D0 / width) / (1 + T.T0 / r["m"])
        out.append({"m": r["m"], "n": r["n"], "k": r["k"], "tflops": r["tflops"], "measured_eff": r["tflops"] / peak,
                    "model_eff": model, "us": r["s"] * 1e6})
    return out


def launch_facts(rows: list[dict]) -> dict:
    """Host seconds per launched kernel and kernels per layer from the tiny 16-layer Llama (GPU work ≈ 0)."""
    from gpuplanner.core import methods as M
    from gpuplanner.core import timing as T

    out = {"EAGER_FWD_OP_S": M.EAGER_FWD_OP_S, "EAGER_OP_S": M.EAGER_OP_S,
           "ops_fwd_layer": T.EAGER_OPS_FWD_LAYER, "ops_bwd_layer": T.EAGER_OPS_BWD_LAYER}
    for r in rows:
        if r.get("kind") != "launch":
            continue
        if r["case"] == "elementwise_loop":
            out["python_op_us"] = r["add_issue_us_per_kernel"]
            continue
        tag = "lora" if r["lora"] else ("gc" if r["gc"] else "plain")
        L = r["layers"]
        bwd_launch = r["fwd_bwd_launches"] - r["fwd_launches"]
        out[tag] = {"fwd_us_per_launch": r["fwd_s"] / r["fwd_launches"] * 1e6,
                    "bwd_us_per_launch": (r["fwd_bwd_s"] - r["fwd_s"]) / bwd_launch * 1e6,
                    "fwd_launch_per_layer": r["fwd_launches"] / L, "bwd_launch_per_layer": bwd_launch / L,
                    "fwd_bwd_ms_per_layer": r["fwd_bwd_s"] / L * 1e3}
    return out


def probe_rows(rows: list[dict]) -> list[dict]:
    """Kernels per decoder layer of real models (run 2): forward, backward (forward+backward − forward)."""
    out = []
    for r in rows:
        if r.get("kind") != "probe" or "fwd_launches" not in r:
            continue
        L = r["layers"]
        out.append({"model": r["model"], "mode": r["mode"], "gc": r["gc"], "fwd_per_layer": r["fwd_launches"] / L,
                    "bwd_per_layer": (r["fb_launches"] - r["fwd_launches"]) / L})
    return out


def gpu_bound(item: dict) -> bool:
    """Run 1 rows the profiler's launch overhead hardly touches: 8192 tokens per micro-batch, models of 1B and up."""
    return item["seq"] * item["mb"] >= 8192 and item["model"] != "qwen2.5-0.5b"


def sdpa_rows(rows: list[dict]) -> list[dict]:
    return [r for r in rows if r.get("kind") == "sdpa" and "fwd_bwd_tflops" in r]


def _pct(x: float) -> str:
    return f"{x * 100:+.0f}%"


def _train_table(items: list[dict]) -> list[str]:
    out = ["| family | model | seq | mb | GC | measured ms | predicted ms | time err | alloc GiB meas/pred | err |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for it in items:
        mem = (f"{it['measured_alloc']:.1f} / {it['predicted_alloc']:.1f} | {_pct(it['alloc_err'])}"
               if "alloc_err" in it else "– | –")
        out.append(f"| {family(it)} | {it['model']} | {it['seq']} | {it['mb']} | {'on' if it['gc'] else 'off'} | "
                   f"{it['measured_s'] * 1e3:.0f} | {it['predicted_s'] * 1e3:.0f} | {_pct(it['time_err'])} | {mem} |")
    return out


def _summary_table(items: list[dict]) -> list[str]:
    out = ["| family | n | time median | time p90 | time signed median | allocated median | allocated p90 |"
           " reserved median | reserved p90 |", "|---|---|---|---|---|---|---|---|---|"]
    t, a, r = summary(items, "time_err"), summary(items, "alloc_err"), summary(items, "reserved_err")
    for f, (n, med, p90, sgn) in t.items():
        am = a.get(f, (0, float("nan"), float("nan"), 0))
        rm = r.get(f, (0, float("nan"), float("nan"), 0))
        out.append(f"| {f} | {n} | {med:.0%} | {p90:.0%} | {_pct(sgn)} | {am[1]:.1%} | {am[2]:.1%} | "
                   f"{rm[1]:.1%} | {rm[2]:.1%} |")
    return out


def _short_long(items: list[dict]) -> list[str]:
    """Host-bound (tokens per micro-batch ≤ 2048) against GPU-bound (8192) rows."""
    out = ["| tokens per micro-batch | n | time median | time p90 | signed median |", "|---|---|---|---|---|"]
    for label, sel in (("≤ 2048 (512×1, 512×4, 2048×1)", lambda it: it["seq"] * it["mb"] <= 2048),
                       ("8192 (2048×4)", lambda it: it["seq"] * it["mb"] > 2048)):
        errs = [it["time_err"] for it in items if sel(it)]
        if errs:
            out.append(f"| {label} | {len(errs)} | {statistics.median(abs(e) for e in errs):.0%} | "
                       f"{_p90([abs(e) for e in errs]):.0%} | {_pct(statistics.median(errs))} |")
    return out


def _time_summary(items: list[dict]) -> list[str]:
    out = ["| rows | n | median |err| | p90 |err| | signed median |", "|---|---|---|---|---|"]
    groups: dict[str, list[float]] = {}
    for it in items:
        groups.setdefault(f"{family(it)}, GC {'on' if it['gc'] else 'off'}", []).append(it["time_err"])
    groups["all"] = [it["time_err"] for it in items]
    for g, v in groups.items():
        out.append(f"| {g} | {len(v)} | {statistics.median(abs(x) for x in v):.0%} | {_p90([abs(x) for x in v]):.0%} |"
                   f" {_pct(statistics.median(v))} |")
    return out


def _mem_summary(items: list[dict]) -> list[str]:
    out = ["| rows | n | allocated median |err| | allocated p90 | reserved median | reserved p90 |",
           "|---|---|---|---|---|---|"]
    a, r = summary(items, "alloc_err"), summary(items, "reserved_err")
    for f, (n, med, p90, _s) in a.items():
        rm = r.get(f, (0, float("nan"), float("nan"), 0))
        out.append(f"| {f} | {n} | {med:.1%} | {p90:.1%} | {rm[1]:.1%} | {rm[2]:.1%} |")
    return out


def _launch_lines(run1: list[dict], run3: list[dict], probe: list[dict]) -> list[str]:
    from gpuplanner.core import methods as M
    from gpuplanner.core import timing as T

    counts = launch_facts(run1)  # profiled: launch counts (the count does not depend on the profiler's slowdown)
    clean = {r["case"] + str(r.get("lora")) + str(r.get("gc")): r for r in run3 if r.get("kind") == "launch"}
    lines = ["| quantity | measured | model |", "|---|---|---|"]
    py = next((r["add_issue_us_per_kernel"] for r in run3 if r.get("case") == "elementwise_loop"), float("nan"))
    lines.append(f"| bare Python op loop, µs per kernel (run 3) | {py:.1f} | – |")
    for tag, lora, gc, name in (("plain", False, False, "full"), ("lora", True, False, "LoRA all-linear"),
                                ("gc", False, True, "full + GC (non-reentrant)")):
        c, r = counts.get(tag), clean.get(f"tiny_llama_stack{lora}{gc}")
        if not (c and r):
            continue
        L = r["layers"]
        n_f, n_b = c["fwd_launch_per_layer"] * L, c["bwd_launch_per_layer"] * L
        lines.append(f"| {name}: forward µs per launched kernel | {r['fwd_s'] / n_f * 1e6:.1f} | "
                     f"{M.EAGER_FWD_OP_S * 1e6:.0f} (EAGER_FWD_OP_S) |")
        lines.append(f"| {name}: backward µs per launched kernel | {(r['fwd_bwd_s'] - r['fwd_s']) / n_b * 1e6:.1f} | "
                     f"{M.EAGER_OP_S * 1e6:.0f} (EAGER_OP_S) |")
        lines.append(f"| {name}: host ms per layer, forward+backward | {r['fwd_bwd_s'] / L * 1e3:.2f} | – |")
    for p in probe_rows(probe):
        # the model's count for a Qwen2.5 layer: 7 linears and 3 q/k/v biases (autocast casts), 7 LoRA modules
        f, b = T.EAGER_OPS_FWD_LAYER, T.EAGER_OPS_BWD_LAYER
        if p["mode"] == "mixed":
            f, b = f + 10 * T.EAGER_OPS_AUTOCAST_PARAM, b + 10 * T.EAGER_OPS_AUTOCAST_PARAM
        elif p["mode"] == "lora":
            f = f + 7 * (T.EAGER_OPS_LORA_FWD + T.EAGER_OPS_LORA_AUTOCAST_FWD)
            b = b + 7 * (T.EAGER_OPS_LORA_BWD + T.EAGER_OPS_LORA_AUTOCAST_BWD)
        model = f"{f:.0f} / {b + (f if p['gc'] != 'none' else 0):.0f}"
        lines.append(f"| kernels per layer fwd / bwd: {p['model']} {p['mode']}, checkpointing {p['gc']} (run 2) | "
                     f"{p['fwd_per_layer']:.1f} / {p['bwd_per_layer']:.1f} | {model} |")
    return lines


def report(run1: list[dict], run3: list[dict], probe: list[dict]) -> list[str]:
    env = next((r for r in run1 if r.get("kind") == "env"), {})
    clean = train_rows(run3)
    all1 = train_rows(run1)
    lines = [f"Device: {env.get('gpu')}, torch {env.get('torch')}, cuDNN {env.get('cudnn')}, transformers "
             f"{env.get('transformers')}, PEFT {env.get('peft')}; run 1 at {env.get('date')} UTC.", "",
             "### Step time, run 3 (no profiler in the process); err = measured / predicted − 1", ""]
    lines += _time_summary(clean) + ["", "### Step time, run 1, GPU-bound rows (8192 tokens, models ≥ 1B)", ""]
    lines += _time_summary([it for it in all1 if gpu_bound(it)])
    lines += ["", "### Peak memory, run 1 (every row; err = predicted / measured − 1)", ""] + _mem_summary(all1)
    lines += ["", "### Eager host time and kernel counts", ""] + _launch_lines(run1, run3, probe)
    lines += ["", "### bf16 GEMM efficiency (of 989 TFLOP/s); below ~60 µs the host's issue time dominates", "",
              "| M×N×K | µs | TFLOP/s | measured | model (GEN_EFFICIENCY × size factor) |", "|---|---|---|---|---|"]
    for g in gemm_rows(run1):
        lines.append(f"| {g['m']}×{g['n']}×{g['k']} | {g['us']:.0f} | {g['tflops']:.0f} | {g['measured_eff']:.0%} | "
                     f"{g['model_eff']:.0%} |")
    lines += ["", "### Grouped expert GEMMs (torch._grouped_mm vs a loop of matmuls), TFLOP/s", "",
              "| experts × tokens each × h × f | loop | grouped |", "|---|---|---|"]
    for r in run1:
        if r.get("kind") == "grouped" and "loop_tflops" in r:
            lines.append(f"| {r['experts']} × {r['tok_per_expert']} × {r['h']} × {r['f']} | {r['loop_tflops']:.0f} |"
                         f" {r.get('grouped_tflops', float('nan')):.0f} |")
    lines += ["", "### Causal SDPA, bf16 (TFLOP/s forward / forward+backward)", "",
              "| backend | b × heads/kv × seq × d | forward | fwd+bwd |", "|---|---|---|---|"]
    for r in sdpa_rows(run1):
        lines.append(f"| {r['backend']} | {r['b']} × {r['heads']}/{r['kv_heads']} × {r['seq']} × {r['d']} | "
                     f"{r['fwd_tflops']:.0f} | {r['fwd_bwd_tflops']:.0f} |")
    lines += ["", "### Every step of run 3", ""] + _train_table(clean)
    lines += ["", "### Every step of run 1 (host-bound rows slowed by the profiler: memory columns hold)", ""]
    return lines + _train_table(all1)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, default=DATA.parent)
    args = ap.parse_args(argv)
    try:
        run1, run3, probe = (load(args.data_dir / p.name) for p in (DATA, DATA_SHORT, DATA_PROBE))
    except (OSError, ValueError) as e:
        print(f"cannot read the measurements: {e}", file=sys.stderr)
        return 2
    print("\n".join(report(run1, run3, probe)))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())

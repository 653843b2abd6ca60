"""Published pre-training step times the project had not used, round 12: an out-of-sample check (issue 35, ptoos12).

Usage: python bench/validate_pt_oos12.py [--md]

Every row was entered and scored BEFORE any model change (``BEFORE`` holds those predictions, main 4e4cf1ff). No
constant was chosen from these rows. Error = predicted / published − 1 in tokens/s per GPU, which equals
published step / predicted step − 1 (+ = the model is too fast). Before entering a source I grepped ``bench/``,
``tests/`` and ``docs/`` for its repository and release: none of these releases was held
(``bench/validate_bridge_oos.py`` holds dgxc v25.02 / v25.02.01 only).

Source: NVIDIA's DGX Cloud benchmarking recipes, github.com/NVIDIA/dgxc-benchmarking (read with ``git show`` of the
release tags), each README's "Performance" tables ("Training step time (seconds per step)", "Throughput in tokens per
second" over all GPUs: divided here by the GPU count) and the layout tables of the same README, checked against the
release's ``launch.sh``:

1. **v25.04.01** (``llama3.1/README.md``, ``launch.sh`` ``FW_VERSION=25.02.01``, ``pretrain_llama31.py``,
   ``llama31_utils.py`` ``llama31_auto_configs``), DGX H100: Llama 3.1 70B FP8 at TP 4 × PP 8 × CP 1 × VP 5 (the
   FP8 layout; BF16 keeps v25.02's TP 4 × PP 4 × CP 2, a re-run of rows already held: left out) and Llama 3.1 405B
   BF16/FP8 at TP 8 × PP 8 × CP 2 × VP 8 (v25.02 ran PP 9 × VP 7 on 576 GPUs). MBS 1, sequence 8,192, GBS 2 per GPU
   (70B) and ½ per GPU (405B). NeMo 2.0 ``pretrain_recipe(performance_mode=True)``: FP8 = ``bf16_with_fp8_mixed()``
   (Transformer Engine delayed scaling, ``fp8_params`` on: FP8 weight gather), TP userbuffers overlap
   (``userbuffers_*_h100_*`` configs), distributed optimizer with both overlaps, no recompute; the 405B recipe counts
   the embedding and the loss in the pipeline split (``llama31_405b.py``). Smallest and largest published scale.
2. **v25.05.01** (``llama3.1/README.md``, ``launch.sh`` ``FW_VERSION=25.04.01``: NeMo's
   ``scripts/performance/llm/pretrain_llama31_405b.py`` at NeMo v2.3.1 with ``-tp/-pp/-cp/-vp/-mb/-gb/-fsdp 0`` given;
   ``--fp8_recipe`` not passed: its default ``ds``, ``argument_parser.py``; ``recompute_layers`` 0 and ``cuda_graphs``
   0 in ``recommended_model_configs/model_configs_gb200.csv``), DGX GB200: Llama 3.1 405B BF16/FP8, TP 4 × PP 8 × CP 2
   × VP 8, GBS ½ per GPU, at 128 and 512 GPUs. (The H100 512-GPU rows of this release repeat v25.04.01's layout with
   a newer container: left out as re-runs. The 128-GPU FP8 row has the layout of NeMo 25.04's published GB200 row,
   held in ``validate_bridge_dense.py`` with current scaling; it is kept here, delayed scaling, and flagged.)
3. **v25.05.01** (``nemotron/README.md``, ``launch.sh`` ``FW_VERSION=25.04.00``): Nemotron-4 15B on 16 H100 (TP 2,
   MBS 2, GBS 64; v25.02.01 ran TP 4 MBS 4), Nemotron-4 340B on 256 H100 (TP 8 × PP 8 × VP 12, GBS 64), and 340B on
   GB200 (TP 8 × PP 4 × VP 12, GBS ¼ per GPU "weak scaling" and GBS 512 "strong scaling", 128 and 512 GPUs) with
   ``--cuda_graphs true`` (launch.sh, GB200 only: Megatron-Core ``enable_cuda_graph``, whole-layer graphs: entered as
   ``cuda_graph_scope: layer``). BF16 and FP8 (delayed, the scripts' default); no recompute
   (``model_configs_*.csv`` ``recompute_layers`` 0).

Left out (settings that would have to be guessed, or not independent): v25.04.01's Llama 3.1 8B and 70B BF16 rows
(same layouts as v25.02, held) — 4 at the smallest/largest scale; its "405b-Proxy" rows (8/30/62 layers on 32–128
GPUs: a truncated model, 6 rows); v25.05.01's H100 405B rows (re-run of v25.04.01's layout, 2 rows); the intermediate
scales of every table (the same layout at more data-parallel replicas: entered at both ends only, as
``validate_bridge_oos.py`` does); v25.08 onwards (the READMEs no longer print figures).
"""
from __future__ import annotations

import importlib.util
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _vbd():
    name = "validate_bridge_dense_for_pt_oos12"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("validate_bridge_dense.py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


A, B, C = "dgxc v25.04.01 (NeMo 25.02.01)", "dgxc v25.05.01 (NeMo 25.04.01)", "dgxc v25.05.01 (NeMo 25.04.00)"
#: (source, system, model, precision, GPUs, GBS, MBS, sequence, FSDP, TP, PP, CP, VP, published tokens/s/GPU) — the
#: ``validate_bridge_dense.ROWS`` format; tokens/s/GPU = the README's "Throughput in tokens per second" / GPUs.
ROWS = [
    (A, "H100", "llama-3.1-70b", "ds", 64, 128, 1, 8192, 0, 4, 8, 1, 5, 106346 / 64),
    (A, "H100", "llama-3.1-70b", "ds", 2048, 4096, 1, 8192, 0, 4, 8, 1, 5, 3305855 / 2048),
    (A, "H100", "llama-3.1-405b", "bf16", 512, 256, 1, 8192, 0, 8, 8, 2, 8, 106024 / 512),
    (A, "H100", "llama-3.1-405b", "bf16", 2048, 1024, 1, 8192, 0, 8, 8, 2, 8, 422175 / 2048),
    (A, "H100", "llama-3.1-405b", "ds", 512, 256, 1, 8192, 0, 8, 8, 2, 8, 169535 / 512),
    (A, "H100", "llama-3.1-405b", "ds", 2048, 1024, 1, 8192, 0, 8, 8, 2, 8, 667883 / 2048),
    (B, "GB200", "llama-3.1-405b", "bf16", 128, 64, 1, 8192, 0, 4, 8, 2, 8, 56092 / 128),
    (B, "GB200", "llama-3.1-405b", "bf16", 512, 256, 1, 8192, 0, 4, 8, 2, 8, 220567 / 512),
    (B, "GB200", "llama-3.1-405b", "ds", 128, 64, 1, 8192, 0, 4, 8, 2, 8, 85514 / 128),
    (B, "GB200", "llama-3.1-405b", "ds", 512, 256, 1, 8192, 0, 4, 8, 2, 8, 335867 / 512),
    (C, "H100", "nemotron4-15b", "bf16", 16, 64, 2, 4096, 0, 2, 1, 1, 1, 95463 / 16),
    (C, "H100", "nemotron4-15b", "ds", 16, 64, 2, 4096, 0, 2, 1, 1, 1, 131863 / 16),
    (C, "H100", "nemotron4-340b", "bf16", 256, 64, 1, 4096, 0, 8, 8, 1, 12, 56913 / 256),
    (C, "H100", "nemotron4-340b", "ds", 256, 64, 1, 4096, 0, 8, 8, 1, 12, 84372 / 256),
    (C, "GB200", "nemotron4-340b", "bf16", 128, 32, 1, 4096, 0, 8, 4, 1, 12, 59877 / 128),
    (C, "GB200", "nemotron4-340b", "bf16", 512, 128, 1, 4096, 0, 8, 4, 1, 12, 235212 / 512),
    (C, "GB200", "nemotron4-340b", "ds", 128, 32, 1, 4096, 0, 8, 4, 1, 12, 88383 / 128),
    (C, "GB200", "nemotron4-340b", "ds", 512, 128, 1, 4096, 0, 8, 4, 1, 12, 338468 / 512),
    (C, "GB200", "nemotron4-340b", "bf16", 128, 512, 1, 4096, 0, 8, 4, 1, 12, 64211 / 128),
    (C, "GB200", "nemotron4-340b", "bf16", 512, 512, 1, 4096, 0, 8, 4, 1, 12, 247656 / 512),
    (C, "GB200", "nemotron4-340b", "ds", 128, 512, 1, 4096, 0, 8, 4, 1, 12, 96067 / 128),
    (C, "GB200", "nemotron4-340b", "ds", 512, 512, 1, 4096, 0, 8, 4, 1, 12, 369998 / 512),
]

#: Families for the summary: framework-and-system groups (the issue's "Megatron-Core / NeMo with TE FP8 on Hopper /
#: Blackwell" family split by system and precision).
def family(row) -> str:
    return f"NeMo (dgxc) {row[1]} {'BF16' if row[3] == 'bf16' else 'FP8 delayed'}"


def scenario(row) -> dict:
    """As ``validate_bridge_dense.scenario``; the GB200 Nemotron runs add whole-layer CUDA graphs (launch.sh)."""
    sc = _vbd().scenario(row)
    if row[1] == "GB200" and row[2] == "nemotron4-340b":
        sc["parallel"]["cuda_graph_scope"] = "layer"
    return sc


#: Predicted tokens/s/GPU on main 4e4cf1ff, before any change of this round (filled from the first run).
BEFORE: dict[int, float] = {i: v for i, v in enumerate([
    1422.7, 1421.8, 188.5, 188.4, 306.6, 306.4, 470.4, 470.7, 756.9, 757.9, 5224.3, 7480.1, 204.0, 313.8, 539.6,
    538.4, 843.3, 842.6, 564.9, 559.3, 893.1, 882.4])}


def _pct(values, q):
    v = sorted(values)
    k = (len(v) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def main() -> int:
    res = _vbd().results(ROWS, scenario)
    md = "--md" in sys.argv
    hdr = ("| # | source | system | model | prec | GPUs | GBS | TP/PP/CP/VP | published tok/s/GPU | before | now | "
           "error before | error now | top part |")
    print(hdr if md else hdr.replace("|", " "))
    if md:
        print("|---" * 14 + "|")
    fams: dict[str, list[tuple[float, float]]] = {}
    for i, r in enumerate(res):
        row = r["row"]
        if r["pred"] is None:
            print(f"{i} {row[0]} {row[2]} refused: {r['why']}")
            continue
        before = BEFORE.get(i, r["pred"])
        eb, en = before / r["pub"] - 1, r["pred"] / r["pub"] - 1
        fams.setdefault(family(row), []).append((eb, en))
        fams.setdefault("all", []).append((eb, en))
        print(f"| {i} | {row[0]} | {row[1]} | {row[2]} | {row[3]} | {row[4]} | {row[5]} | "
              f"{row[9]}/{row[10]}/{row[11]}/{row[12]} | {r['pub']:.0f} | {before:.0f} | {r['pred']:.0f} | "
              f"{eb:+.1%} | {en:+.1%} | {r['top']} |")
    print()
    print("| family | rows | median abs before | p90 before | signed median before | median abs now | p90 now | "
          "signed median now |")
    if md:
        print("|---" * 8 + "|")
    for name, pairs in sorted(fams.items()):
        b = [abs(p[0]) for p in pairs]
        n = [abs(p[1]) for p in pairs]
        print(f"| {name} | {len(pairs)} | {statistics.median(b):.1%} | {_pct(b, 0.9):.1%} | "
              f"{statistics.median([p[0] for p in pairs]):+.1%} | {statistics.median(n):.1%} | {_pct(n, 0.9):.1%} | "
              f"{statistics.median([p[1] for p in pairs]):+.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

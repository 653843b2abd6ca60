"""Issue 35, round 17 (servoos17): NEW out-of-sample batch-1 decode rows — tenstorrent/tt-inference-server's GPU
reference runs of the Qwen3 family (an A100 and an RTX 4090, the consumer card the brief asks for), which no earlier
round entered — scored with the model BEFORE any change of this round (this round's change, the p95 latencies under
load and the offline target, does not touch the decode step). Run: ``python bench/validate_serve_oos17.py``
(``--rows``: every row).

None of these figures is in scripts/validate_inference.py, bench/, tests/, docs/ or /work/shared/reference: servoos16
entered issues #143 and #125 (Qwen2.5) and cited #340 only for its TTFT column, which it left out (grepped for
"Qwen3-14B", "Qwen3-4B", "Qwen3-1.7B", "#394", "24.3", "10.5").

Sources (the client is vLLM's ``benchmark_serving`` at ``--max-concurrency 1``; the figure taken is the mean TPOT, ms)
-------
(Q1) tenstorrent/tt-inference-server issue #340 "Qwen3 Family: GPU Benchmarks": "Performance Benchmark Sweeps for
     Qwen3-14B on A100" and "... Qwen3-30B-A3B on A100" (comments of 2025-07-18) and "... Qwen3-1.7B on A100"
     (2025-06-24; metadata ``"model_repo": "Qwen/Qwen3-1.7B"``, ``"device": "gpu"``). The 30B-A3B run (61 GB of BF16
     weights on one card) says the card has 80 GB.
(Q2) the same project's issue #394 "[Model Readiness Support]: Qwen3-4B", "Performance Benchmark Sweeps for
     Qwen_Qwen3-4B on 4090" (comment of 2025-11-12).
Models: Qwen3-30B-A3B is the ``qwen3-30b-a3b`` preset (MoE); no preset holds Qwen3-14B, 4B or 1.7B, so each is entered as a user would, from the ``qwen3-8b`` preset with
the checkpoint's ``config.json`` dimensions (huggingface.co/Qwen/Qwen3-14B, -4B, -1.7B): 14B hidden 5120, 40 layers,
40 heads, intermediate 17408, untied; 4B 2560 / 36 / 32 / 9728, tied; 1.7B 2048 / 28 / 16 / 6144, tied; all 8 KV
heads of 128, vocabulary 151,936.
ASSUMED (the issues are silent): vLLM V1 of those months (0.9–0.11, no async scheduling by default: loop
``serial``), BF16 weights and KV cache (the HF checkpoints), A100 = A100-SXM4-80GB, TP 1. Context: prompt + half the
output (as servoos16's rows).
Left out: the TTFT columns (servoos16: not monotonic in the prompt, #340's own 14B runs take 284 ms at 1,024 tokens
and 217 ms at 4,096), and the Tenstorrent-hardware rows.

Error convention: published / predicted - 1 (the brief's).
"""
from __future__ import annotations

import statistics
import sys

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario

A100, RTX4090 = "a100-sxm-80gb", "rtx-4090-24gb"
# config.json of each checkpoint (huggingface.co/Qwen/<name>), over the qwen3-8b preset
DIMS = {"qwen3-14b": dict(name="Qwen3 14B", hidden_size=5120, num_hidden_layers=40, num_attention_heads=40,
                          num_key_value_heads=8, head_dim=128, intermediate_size=17408, tie_word_embeddings=False),
        "qwen3-4b": dict(name="Qwen3 4B", hidden_size=2560, num_hidden_layers=36, num_attention_heads=32,
                         num_key_value_heads=8, head_dim=128, intermediate_size=9728, tie_word_embeddings=True),
        "qwen3-1.7b": dict(name="Qwen3 1.7B", hidden_size=2048, num_hidden_layers=28, num_attention_heads=16,
                           num_key_value_heads=8, head_dim=128, intermediate_size=6144, tie_word_embeddings=True)}
# (source, model, gpu, tp, [(isl, osl, published mean TPOT ms)])
ROWS = [("tt-inference-server #340", "qwen3-14b", A100, 1,
         [(128, 128, 24.3), (128, 1024, 28.2), (1024, 128, 28.9), (2048, 128, 27.6), (3072, 128, 29.1),
          (4096, 128, 22.8), (8192, 128, 28.3)]),
        ("tt-inference-server #340", "qwen3-1.7b", A100, 1,
         [(128, 128, 4.6), (128, 1024, 4.7), (1024, 128, 4.8), (2048, 128, 5.0)]),
        ("tt-inference-server #340", "qwen3-30b-a3b", A100, 1,
         [(128, 128, 9.6), (128, 1024, 9.7), (1024, 128, 9.8), (2048, 128, 9.9), (3072, 128, 10.1),
          (4096, 128, 10.3), (8192, 128, 10.6)]),
        ("tt-inference-server #394", "qwen3-4b", RTX4090, 1,
         [(128, 128, 10.5), (128, 1024, 10.4), (1024, 128, 10.3), (2048, 128, 10.8), (3072, 128, 10.8),
          (4096, 128, 10.9)])]
_MODELS: dict = {}


def model(name):
    if name not in _MODELS:
        spec = {"preset": name} if name not in DIMS else {"preset": "qwen3-8b", "vocab_size": 151936, **DIMS[name]}
        r = resolve(Scenario.model_validate({"model": spec}))
        _MODELS[name] = inf.ServingModel.of(r.arch, r.params)
    return _MODELS[name]


def rows(a100=A100):
    """[(group, label, published ms, predicted ms)]: the batch-1 decode step at the mean context (vLLM V1, serial);
    ``a100``: the catalog card the issues' "A100" is taken as (ASSUMED SXM4 80 GB; the others printed as a
    sensitivity)."""
    out = []
    for src, p, g, tp, vals in ROWS:
        g = a100 if g == A100 else g
        for i, o, ms in vals:
            t, _ = inf.decode_step_s(model(p), get_gpu(g), precision="bf16", kv_bytes=inf.KV_BYTES["bf16"], batch=1,
                                     context=i + o / 2, tp=tp, eff=inf.ServingEfficiency(), loop="serial")
            out.append((f"batch-1 {p} {g}", f"{src} {p} {g} BF16 TP{tp} {i}/{o} TPOT", ms, t * 1e3))
    return out


def err(pub, pred):
    return (pub / pred - 1) if pred > 0 else float("inf")


def p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]


def stats(errs):
    a = [abs(e) for e in errs]
    return len(a), statistics.median(a) * 100, p90(a) * 100, statistics.median(errs) * 100


def group_stats(rs):
    groups: dict = {}
    for grp, _, pub, pred in rs:
        for key in ("all new rows", grp):
            groups.setdefault(key, []).append(err(pub, pred))
    return {k: stats(v) for k, v in groups.items()}


def main(argv):
    rs = rows()
    print("set | rows | median |err| % | p90 % | signed median %")
    for k, (n, med, p9, sm) in group_stats(rs).items():
        print(f"{k} | {n} | {med:.1f} | {p9:.1f} | {sm:+.1f}")
    print("sensitivity: the issues' A100 taken as each catalog A100 (A100 rows only)")
    for card in ("a100-sxm-80gb", "a100-sxm-40gb", "a100-pcie-80gb", "a100-pcie-40gb"):
        a = [r for r in rows(card) if "a100" in r[0]]
        n, med, p9, sm = stats([err(pub, pred) for _, _, pub, pred in a])
        print(f"  {card} | {n} | {med:.1f} | {p9:.1f} | {sm:+.1f}")
    if "--rows" in argv:
        for _, lab, pub, pred in rs:
            print(f"{lab}: published {pub:.1f} ms, predicted {pred:.2f} ms, err {err(pub, pred) * 100:+.1f}%")


if __name__ == "__main__":
    main(sys.argv[1:])

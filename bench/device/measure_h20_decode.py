"""Device kit for issue 35 round 15 (h20dec15): what one H20 (or any card) does with a decode step's GEMMs at 1-128
token rows. It settles what the notes could not from sources: whether cuBLAS's BF16 ``F.linear`` at one token streams
its weights (~3 TB/s on an H20) or pays a tensor-core tile of 64 rows (then its time does not fall below M = 64's),
and the same for DeepGEMM's block-FP8 GEMM (this round's ``inference.BLOCK_FP8_TILE_ROWS``: 64 rows for m <= 64).

Usage (on the GPU machine, PyTorch with CUDA; DeepGEMM optional): ``python measure_h20_decode.py --out DIR``
(``--tiny``: CPU dry run at toy sizes). Every case prints one JSON line and appends it to DIR/results.jsonl.

Cases:
* ``copy``: a 2 GiB device copy (``Tensor.copy_``, an SM copy kernel): read + write bytes / time (h20serve14's K1: 3.3
  TB/s on an H20).
* ``linear``: ``torch.nn.functional.linear`` in BF16 for Qwen3-8B's shapes (QKV 6144x4096, O 4096x4096, gate/up
  24576x4096, down 4096x12288, LM head 151936x4096) at M = 1, 2, 4, 8, 16, 32, 64, 128; the weight rotated over copies
  that together exceed twice the 60 MB L2, so every call reads HBM. Reports us, weight GB/s and t(M) / t(64).
* ``kernels``: the CUDA kernel names one gate/up ``F.linear`` launches at M = 1 and 64 (torch.profiler): cuBLAS's names
  carry its tile (``..._tilesize64x...``, ``gemv...``, ``nvjet_...``).
* ``deepgemm``: ``deep_gemm.gemm_fp8_fp8_bf16_nt`` with 128x128 weight scales at the same M (skipped without DeepGEMM).

Reading the result (planner, Qwen3-8B, H20): the BF16 step is 7.7 ms modelled (weights streamed at 3.2 TB/s plus 16
padded rows) against 12.2 ms published (Qwen3 speed benchmark, SGLang 0.4.6.post1). If ``linear`` at M = 1 takes
about its M = 64 time (gate/up: ~2*64*24576*4096 / (0.6 * 148e12) = 145 us) the dense BF16 GEMMs are tile-bound and a
BF16 pad of 64 rows for the engines' cuBLAS path is the mechanism; if it takes ~bytes / 3 TB/s (gate/up 201 MB: ~65
us) they stream and the gap is outside the GEMMs — then time the engine itself, same card:
``python -m sglang.bench_one_batch --model-path Qwen/Qwen3-8B --batch-size 1 --input-len 1 --output-len 256``
(SGLang 0.4.6.post1; its decode median latency is the step) and the same with ``Qwen/Qwen3-8B-FP8`` and with
``SGL_ENABLE_JIT_DEEPGEMM=0``; add ``--profile`` for one trace of the kernels of a decode step.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import torch

ARGS = None
DEV = "cuda" if torch.cuda.is_available() else "cpu"
#: Qwen3-8B's linear shapes (N out, K in), its public config.json: hidden 4096, 32 heads / 8 KV heads of 128,
#: intermediate 12288, vocab 151936
SHAPES = {"qkv": (6144, 4096), "o": (4096, 4096), "gate_up": (24576, 4096), "down": (4096, 12288),
          "lm_head": (151936, 4096)}
ROWS = (1, 2, 4, 8, 16, 32, 64, 128)
L2_BYTES = 60 * 2**20  # H20: 60 MB L2 (gpuplanner/resources/gpus.json notes)


def emit(rec: dict) -> None:
    line = json.dumps(rec)
    print(line, flush=True)
    with open(os.path.join(ARGS.out, "results.jsonl"), "a", encoding="utf-8") as f:
        f.write(line + "\n")


def timed(fn, iters: int) -> float:
    """Seconds per call: CUDA events around ``iters`` calls after 3 warm-ups (wall clock on CPU)."""
    for _ in range(3):
        fn()
    if DEV == "cuda":
        torch.cuda.synchronize()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(iters):
            fn()
        b.record()
        torch.cuda.synchronize()
        return a.elapsed_time(b) / 1e3 / iters
    t = time.perf_counter()
    for _ in range(iters):
        fn()
    return (time.perf_counter() - t) / iters


def case_copy() -> None:
    n = (2 * 2**30 if not ARGS.tiny else 2**20) // 2
    src = torch.empty(n, dtype=torch.bfloat16, device=DEV)
    dst = torch.empty_like(src)
    s = timed(lambda: dst.copy_(src), 20)
    emit({"case": "copy", "bytes": 4 * n, "s": s, "tb_s": 4 * n / s / 1e12})


def weights(n: int, k: int, dtype) -> list:
    copies = max(2, -(-2 * L2_BYTES // (n * k * 2))) if not ARGS.tiny else 2
    return [torch.randn(n, k, device=DEV).to(dtype) for _ in range(copies)]


def case_linear() -> None:
    for name, (n, k) in SHAPES.items():
        n, k = (n // 64, k // 64) if ARGS.tiny else (n, k)
        ws = weights(n, k, torch.bfloat16)
        ref = None
        for m in sorted(ROWS, key=lambda r: r != 64):  # M = 64 first: the ratio's reference
            x = torch.randn(m, k, device=DEV, dtype=torch.bfloat16)
            it = iter(range(10**9))
            s = timed(lambda: torch.nn.functional.linear(x, ws[next(it) % len(ws)]), 50)
            ref = s if m == 64 else ref
            emit({"case": "linear", "shape": name, "n": n, "k": k, "m": m, "us": s * 1e6,
                  "weight_gb_s": n * k * 2 / s / 1e9, "tflops": 2 * m * n * k / s / 1e12, "t_over_t64": s / ref})


def case_kernels() -> None:
    n, k = SHAPES["gate_up"] if not ARGS.tiny else (384, 64)
    w = torch.randn(n, k, device=DEV, dtype=torch.bfloat16)
    acts = [torch.profiler.ProfilerActivity.CPU] + ([torch.profiler.ProfilerActivity.CUDA] if DEV == "cuda" else [])
    for m in (1, 64):
        x = torch.randn(m, k, device=DEV, dtype=torch.bfloat16)
        torch.nn.functional.linear(x, w)
        with torch.profiler.profile(activities=acts) as prof:
            torch.nn.functional.linear(x, w)
            if DEV == "cuda":
                torch.cuda.synchronize()
        names = sorted({e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA})
        emit({"case": "kernels", "shape": "gate_up", "m": m, "cuda_kernels": names})


def case_deepgemm() -> None:
    try:
        import deep_gemm  # noqa: F401
    except ImportError as e:
        emit({"case": "deepgemm", "skipped": str(e)})
        return
    for name, (n, k) in SHAPES.items():
        if name == "lm_head":
            continue  # the LM head stays BF16 in Qwen3-*-FP8
        w = torch.randn(n, k, device=DEV).to(torch.float8_e4m3fn)
        ws = torch.ones((n + 127) // 128, (k + 127) // 128, device=DEV, dtype=torch.float32)
        for m in ROWS:
            x = torch.randn(m, k, device=DEV).to(torch.float8_e4m3fn)
            xs = torch.ones(m, (k + 127) // 128, device=DEV, dtype=torch.float32)
            out = torch.empty(m, n, device=DEV, dtype=torch.bfloat16)
            s = timed(lambda: deep_gemm.gemm_fp8_fp8_bf16_nt((x, xs), (w, ws), out), 50)
            emit({"case": "deepgemm", "shape": name, "m": m, "us": s * 1e6, "weight_gb_s": n * k / s / 1e9})


CASES = {"copy": case_copy, "linear": case_linear, "kernels": case_kernels, "deepgemm": case_deepgemm}


def main() -> None:
    global ARGS
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--tiny", action="store_true", help="toy sizes (CPU dry run)")
    p.add_argument("--cases", default=",".join(CASES))
    ARGS = p.parse_args()
    os.makedirs(ARGS.out, exist_ok=True)
    emit({"case": "device", "name": torch.cuda.get_device_name() if DEV == "cuda" else "cpu",
          "torch": torch.__version__, "cuda": torch.version.cuda})
    for c in ARGS.cases.split(","):
        try:
            CASES[c]()
        except Exception as e:  # one failed case (OOM included) is recorded and skipped
            emit({"case": c, "error": repr(e)})


if __name__ == "__main__":
    main()

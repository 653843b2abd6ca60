"""Investigation (issue 35 r5): PyTorch's caching allocator with variable-length batches, fixed segments.

Usage: python bench/allocator_varlen_sim.py

Not used by the core. A small re-implementation of the large/small pool rules of ``c10/cuda/CUDACachingAllocator.cpp``
(PyTorch 2.1, ``expandable_segments`` off, the default; also the "CUDA semantics → Optimizing memory usage with
PYTORCH_CUDA_ALLOC_CONF" page): requests rounded to 512 bytes; a new segment of 2 MiB for requests up to 1 MiB,
20 MiB up to 10 MiB, otherwise the request rounded up to 2 MiB; best fit over the free blocks of the pool
(``get_free_block``); a block is split when more than 1 MiB (large pool) would remain; freed blocks merge with free
neighbours of the same segment only; segments are never returned (no ``empty_cache``, no OOM retry).

It replays a coarse allocation trace of one HF + PEFT LoRA step with full gradient checkpointing for Qwen-1.8B and
Qwen-7B (the ms-swift Benchmark.md runs: Qwen v1's bf16 logits, autocast's fp32 log-softmax, Accelerate's fp32 copy
of the output logits, the backward's fp32 gradients) over sample lengths drawn from a log-normal fitted to the
dataset's published statistics (cls-fudan-news-zh: 3234 ± 2548 tokens, 4,959 samples; samples above max_length
dropped; 1,000 sampled above 2,048, as ``scripts/benchmark/test_memory_time/run_single.py`` does) and prints the
reserved peak against the same trace run once at the longest kept length.

What it shows: the excess of reserved over a fixed-length run is set by the vocabulary-sized tensors (the same for
both model sizes, as in the published table), because every longer record length needs new segments for its fp32
logits-sized tensors while the shorter segments stay cached. What it does not give: the published magnitudes (it is
below them at 512–1,024 tokens and far above at 4,096–8,192), so the trace, the length order and the OOM-time
release of cached blocks all matter; a constant taken from it would be a fit. Hence no core mechanism."""

from __future__ import annotations

import math
import random

MiB = 1 << 20


def round_size(n: int) -> int:
    return 512 if n < 512 else 512 * math.ceil(n / 512)


def segment_size(n: int) -> int:
    if n <= MiB:
        return 2 * MiB
    if n < 10 * MiB:
        return 20 * MiB
    return 2 * MiB * math.ceil(n / (2 * MiB))


class Pool:
    """Segments as lists of [size, free] blocks in address order."""

    def __init__(self):
        self.segs: list[tuple[bool, list]] = []
        self.reserved = self.max_reserved = self.live = self.max_live = 0

    def malloc(self, n: int):
        n = round_size(n)
        small = n <= MiB
        best = None
        for si, (pool_small, blocks) in enumerate(self.segs):
            if pool_small != small:
                continue
            for blk in blocks:
                if blk[1] and blk[0] >= n and (best is None or blk[0] < best[1][0]):
                    best = (si, blk)
        if best is None:
            size = segment_size(n)
            self.segs.append((small, [[size, True]]))
            self.reserved += size
            self.max_reserved = max(self.max_reserved, self.reserved)
            best = (len(self.segs) - 1, self.segs[-1][1][0])
        si, blk = best
        blocks = self.segs[si][1]
        rest = blk[0] - n
        if (rest >= 512) if small else (rest > MiB):
            blk[0] = n
            blocks.insert(blocks.index(blk) + 1, [rest, True])
        blk[1] = False
        self.live += blk[0]
        self.max_live = max(self.max_live, self.live)
        return si, blk

    def free(self, handle) -> None:
        si, blk = handle
        blocks = self.segs[si][1]
        i = next(k for k, b in enumerate(blocks) if b is blk)
        self.live -= blk[0]
        blk[1] = True
        if i + 1 < len(blocks) and blocks[i + 1][1]:
            blk[0] += blocks.pop(i + 1)[0]
        if i > 0 and blocks[i - 1][1]:
            blocks[i - 1][0] += blocks.pop(i)[0]


def step(p: Pool, s: int, V: int, h: int, f: int, layers: int) -> None:
    """One micro-step (batch 1, bf16): checkpointed forward, Qwen v1's loss, recompute + backward."""
    kept = []
    for _ in range(layers):
        t = [p.malloc(2 * s * h), p.malloc(6 * s * h)]  # norm out, fused q/k/v
        rot = [p.malloc(4 * s * h), p.malloc(4 * s * h)]  # Qwen's fp32 rotary of q and k
        for x in rot:
            p.free(x)
        t += [p.malloc(2 * s * h), p.malloc(2 * s * f), p.malloc(2 * s * f), p.malloc(2 * s * f)]
        for x in t:
            p.free(x)
        kept.append(p.malloc(2 * s * h))  # the layer's output, kept for the recompute
    logits = p.malloc(2 * s * V)
    shifted = p.malloc(2 * s * V)
    up = p.malloc(4 * s * V)  # log_softmax's fp32 cast under autocast
    logp = p.malloc(4 * s * V)  # saved fp32 log-softmax
    p.free(up)
    p.free(shifted)
    out32 = p.malloc(4 * s * V)  # Accelerate's convert_outputs_to_fp32
    p.free(logits)
    p.free(out32)
    g1 = p.malloc(4 * s * V)
    g2 = p.malloc(4 * s * V)
    p.free(g1)
    p.free(logp)
    g3 = p.malloc(2 * s * V)
    p.free(g2)
    g4 = p.malloc(2 * s * V)
    p.free(g3)
    gh = p.malloc(2 * s * h)
    p.free(g4)
    for i in reversed(range(layers)):
        r = [p.malloc(2 * s * h), p.malloc(6 * s * h), p.malloc(2 * s * h), p.malloc(2 * s * h),
             p.malloc(2 * s * f), p.malloc(2 * s * f), p.malloc(2 * s * f)]
        g = [p.malloc(2 * s * f), p.malloc(2 * s * f)]
        for x in g:
            p.free(x)
        nxt = p.malloc(2 * s * h)
        p.free(gh)
        gh = nxt
        for x in r:
            p.free(x)
        p.free(kept[i])
    p.free(gh)


def run(V, h, f, layers, max_len, n_kept, seed=0, mu=7.84, sigma=0.695):
    rnd = random.Random(seed)
    lengths = []
    while len(lengths) < n_kept:
        x = int(math.exp(rnd.gauss(mu, sigma)))
        if 91 <= x <= max_len:
            lengths.append(x)
    varlen = Pool()
    for s in lengths:
        step(varlen, s, V, h, f, layers)
    fixed = Pool()
    step(fixed, max(lengths), V, h, f, layers)
    return varlen.max_reserved / 2 ** 30, fixed.max_reserved / 2 ** 30


def main() -> int:
    # kept samples out of 4,959 (or the 1,000 sampled above 2,048) under the fitted log-normal
    cases = ((512, 53), (1024, 470), (2048, 1880), (4096, 750), (8192, 950))
    print("| model | max_length | kept | reserved, variable lengths (GiB) | reserved, longest only | excess |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, h, f, layers in (("Qwen-1.8B", 2048, 5504, 24), ("Qwen-7B", 4096, 11008, 32)):
        for max_len, n in cases:
            var, fix = run(151936, h, f, layers, max_len, n)
            print(f"| {name} | {max_len} | {n} | {var:.2f} | {fix:.2f} | {var - fix:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

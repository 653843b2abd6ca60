"""Investigation (issue 35 r9, resv9): what FSDP1's construction leaves cached in the default stream's pool.

Usage: python bench/fsdp1_init_cache_sim.py

Not used by the core. It replays, with ``allocator_varlen_sim.Pool`` (PyTorch's fixed-segment rules: 512-byte
rounding, 2 MiB / 20 MiB / rounded-to-2-MiB segments, best fit, split only when more than 1 MiB stays, frees merge
within a segment only), the allocations FSDP1 makes on the current (default) stream while it wraps a model unit by
unit, as in ``torch/distributed/fsdp/_init_utils.py`` (PyTorch 2.2-2.5):

1. ``_move_module_to_device``: each parameter of the unit not yet managed by a child is copied to the GPU;
2. ``_sync_module_params_and_buffers`` (with ``sync_module_states``): ``_sync_params_and_buffers`` ->
   ``dist._broadcast_coalesced`` flattens buckets of at most ``PARAM_BROADCAST_BUCKET_SIZE`` (250 MiB), broadcasts
   and copies back (the flat bucket is freed);
3. ``FlatParamHandle.flatten_tensors_into_flat_param``: ``torch.cat`` of the unit's parameters (one block of the
   unit's size); the originals become views of it and their blocks are freed;
4. ``FlatParamHandle.shard``: ``_get_shard`` clones this rank's chunk, the unsharded flat parameter is freed;
5. ``init_flat_param_attributes``: ``_full_param_padded = torch.empty(padded_unsharded_numel)`` then
   ``_free_storage`` (one more block of the unit's size, allocated and freed).

Training later allocates the gathered parameters on FSDP1's unshard stream (``_unshard_stream``), whose pool cannot
use these cached default-stream blocks (the caching allocator keeps one pool per stream: ``get_free_block`` looks
only in blocks of the request's stream). The default stream's activations can.

Model: Llama-2-7B, two ranks, Answer.AI's wrapping (each decoder layer a unit; LoRA modules their own tiny units,
left out; the root holds the embedding, the final norm and the output layer). Compared with the one published
figure: Answer.AI ``benchmarks_03_2024.md``: QLoRA 7B "3.72 GiB reserved after model wrap" against about 2.1 GiB of
shards (train.py logs ``memory/reserved_after_model_wrap``; it calls ``empty_cache`` after loading, before the wrap).

What it shows: the replayed wrap leaves 1.48 GiB cached for QLoRA (the page implies about 1.6), without any tuning,
and twice the root unit (0.98 GiB) is a lower bound. But a coarse batch-1 training step on the same pool re-uses
all of it (the second table: the step needs no new segment), so by the allocator's rules this cache should not
add to the training peak, while the page's peak (4.98 GiB) is the wrap's 3.72 plus about all the model's
non-weight allocated memory (1.25 GiB). Hence no core mechanism: what keeps the step from re-using the cache
(a trace detail, another stream, the root unit FSDP1 keeps unsharded from forward to backward) is not settled.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from allocator_varlen_sim import MiB, Pool  # noqa: E402

BUCKET = 250 * MiB
GiB = 1 << 30


def wrap_unit(p: Pool, params: list[int], ranks: int, sync: bool, kept: list) -> None:
    """One FSDP1 unit's construction on the default stream (steps 1-5 of the docstring)."""
    on_gpu = [p.malloc(n) for n in params]
    if sync:
        bucket, size = [], 0
        for n in params + [0]:
            if n == 0 or size + n > BUCKET:
                if size:
                    p.free(p.malloc(size))
                size = 0
            size += n
    total = sum(params)
    flat = p.malloc(total)
    for h in on_gpu:
        p.free(h)
    kept.append(p.malloc(-(-total // ranks)))
    p.free(flat)
    p.free(p.malloc(total))


def llama2_7b(bytes_per_weight: float, layers: int = 32, h: int = 4096, f: int = 11008, v: int = 32000):
    layer = [int(h * h * bytes_per_weight)] * 4 + [int(h * f * bytes_per_weight)] * 3
    root = [v * h * 2, v * h * 2, h * 2]  # embedding, output layer (16-bit, not quantised), final norm
    return [layer] * layers, root


def run(label: str, bytes_per_weight: float, ranks: int = 2, sync: bool = True) -> tuple[float, float]:
    p, kept = Pool(), []
    layers, root = llama2_7b(bytes_per_weight)
    for u in layers:
        wrap_unit(p, u, ranks, sync, kept)
    wrap_unit(p, root, ranks, sync, kept)
    return p.reserved / GiB, p.live / GiB


def train_step(p: Pool, s: int, b: int, bytes_per_weight: float, layers: int = 32, h: int = 4096, f: int = 11008,
               v: int = 32000) -> None:
    """A coarse default-stream trace of one step of Answer.AI's loop after the wrap (full reentrant checkpointing,
    bf16): per layer the 16-bit weight of each linear (a QLoRA layer dequantises it: bitsandbytes ``MatMul4Bit``;
    a LoRA layer's is the gathered flat parameter's view, on the unshard stream, so none here), its output, the
    layer's kept input; the loss's bf16 logits and fp32 upcast; backward recomputes each layer (its saved
    tensors, about 34 bytes per token and hidden unit as in Korthikanti et al. 2022 without attention scores)."""
    t = s * b
    shapes = [(h, h)] * 4 + [(h, f)] * 2 + [(f, h)]
    kept = []

    def layer_pass(save: bool):
        saved = []
        for o, i in shapes:
            w = p.malloc(int(2 * o * i)) if bytes_per_weight < 2 else None
            saved.append(p.malloc(2 * t * o))
            if w is not None:
                p.free(w)
        if not save:
            for x in saved:
                p.free(x)
        return saved

    for _ in range(layers):
        layer_pass(False)
        kept.append(p.malloc(2 * t * h))
    logits = p.malloc(2 * t * v)
    up = p.malloc(4 * t * v)
    grad = p.malloc(4 * t * v)
    p.free(up)
    p.free(logits)
    g16 = p.malloc(2 * t * v)
    p.free(grad)
    p.free(g16)
    for k in reversed(kept):
        saved = layer_pass(True)
        gx = p.malloc(2 * t * h)
        for x in saved:
            p.free(x)
        p.free(k)
        p.free(gx)


def main() -> int:
    print("| model | reserved after wrap (GiB) | live shards (GiB) | cached (GiB) | published |")
    print("|---|---:|---:|---:|---|")
    for label, bpw, pub in (("Llama-2-7B QLoRA (NF4 packed in bf16 storage)", 0.5, "3.72 reserved"),
                            ("Llama-2-7B LoRA (bf16)", 2.0, "not published")):
        res, live = run(label, bpw)
        print(f"| {label} | {res:.2f} | {live:.2f} | {res - live:.2f} | {pub} |")
    print("\nThe default stream's pool after one training step (batch 1), with and without the wrap's cache:\n")
    print("| model | context | reserved growth in the step, after the wrap (GiB) | the same from an empty pool | "
          "cache the step re-used |")
    print("|---|---:|---:|---:|---:|")
    for label, bpw in (("QLoRA", 0.5), ("LoRA", 2.0)):
        for ctx in (512, 2048):
            p, kept = Pool(), []
            layers, root = llama2_7b(bpw)
            for u in layers + [root]:
                wrap_unit(p, u, 2, True, kept)
            before = p.reserved
            train_step(p, ctx, 1, bpw)
            grown = (p.reserved - before) / GiB
            q = Pool()
            train_step(q, ctx, 1, bpw)
            alone = q.max_reserved / GiB
            print(f"| {label} | {ctx} | {grown:.2f} | {alone:.2f} | {alone - grown:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

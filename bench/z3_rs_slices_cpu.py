"""DeepSpeed ZeRO-3's ``reduce_scatter_coalesced`` (``deepspeed/runtime/comm/coalesced_collectives.py``, v0.15.4): the
host time of its per-rank, per-tensor Python loop, measured on this machine's CPU against a ``narrow`` (a view op)
in the same process (round 12, helper z3host12). Not part of the test suite: it needs torch and deepspeed.

Usage: python bench/z3_rs_slices_cpu.py

The collective itself is replaced by a no-op and ``dist.get_rank`` / ``get_world_size`` return 0 / W, so what is
timed is DeepSpeed's own Python around it: per tensor a ``view`` and W slices, per (rank, tensor) a list append, a
``numel`` and (where a tensor does not split evenly) a padding ``torch.empty``, then one ``torch.cat`` of W × tensors
pieces, a ``div_``, a ``chunk`` and per tensor a ``narrow``. The tensors are small (hidden 64 shapes of one Llama
layer's 9 gradients) so that the ``cat``'s copy is negligible. Printed: microseconds per (rank, tensor) pair, as a
multiple of one ``narrow``.
"""
from __future__ import annotations

import time


def main() -> None:
    import torch
    import deepspeed.runtime.comm.coalesced_collectives as cc

    torch.set_num_threads(1)
    h, inter, kv = 64, 224, 16
    shapes = [(h, h), (kv, h), (kv, h), (h, h), (inter, h), (inter, h), (h, inter), (h,), (h,)]
    grads = [torch.randn(s) for s in shapes]
    x = torch.randn(4096)

    def narrow_s(n=20000):
        t0 = time.perf_counter()
        for _ in range(n):
            x.narrow(0, 8, 64)
        return (time.perf_counter() - t0) / n

    cc._torch_reduce_scatter_fn = lambda *a, **k: None
    for world in (1, 8, 32, 64):
        cc.dist.get_rank = lambda group=None: 0
        cc.dist.get_world_size = lambda group=None, w=world: w
        best = []
        for _ in range(7):
            t0 = time.perf_counter()
            for _ in range(200):
                cc.reduce_scatter_coalesced(grads, None)
            best.append((time.perf_counter() - t0) / 200)
        best_n = min(narrow_s() for _ in range(5))
        print(f"world {world:3d}: {min(best) * 1e6:8.1f} us a call of {len(grads)} tensors; one narrow "
              f"{best_n * 1e6:.2f} us")


if __name__ == "__main__":
    main()

"""DeepSpeed ZeRO-3's reuse-distance walk at every release, and why it is not a per-micro-batch cost (an analysis
table; the model is not changed by it).

Usage: python bench/z3_release_walk.py

Round 11 (helper z3dpo11), looking for open-instruct's missing 1.6x per micro-batch (HF Transformers + Accelerate +
DeepSpeed v0.15.4 ZeRO-3, one pair per GPU, 32 H100).

What the code does (deepspeedai/DeepSpeed ``runtime/zero/partitioned_param_coordinator.py``, the same at v0.10.3,
v0.11.1, v0.12.6, v0.14.4, v0.15.4 and v0.16.4): ``release_sub_module`` runs after every hooked module's forward and
backward. Once the trace is complete it calls ``__params_to_release(submodule, step_id)``, which walks the recorded
trace from ``step_id`` on and reads every module's parameters until ``stage3_max_reuse_distance`` elements (1e9 in
every config the project's rows use) have been seen: ``for module in self.__submodule_order[step_id:]: if
params_traversed >= self.__max_reuse_dist_in_numel: break; for param in iter_params(module, ...): ...``. The walk
does not stop when nothing is left to keep. For Llama-3.1-8B under reentrant recompute a micro-batch has 1,257
releases and the walks visit about 73,800 modules (1e9 elements is 4.6 decoder layers of 218M, 13 hooked modules each).

Priced as measured on CPU (torch 2.5.1, the same ``iter_params`` with its ``torch.compiler.disable`` wrapper over real
``nn.Module`` objects; 3.2-4.6 times a ``narrow`` in the same process, about 10 us at the 2.5 us per view op that
core/zero3.py uses), that would be 0.74 s per micro-batch: more than the whole open-instruct gap (0.39 s).

But ``__params_to_release`` is decorated with ``@functools.lru_cache(maxsize=None)`` (since PR #1901, 2022; in all the
versions above): the walk runs once per (module, step id) for the life of the coordinator, i.e. in the first
micro-batch whose trace is complete, and is a cache lookup after that. Checked on the real code
(``bench/z3_ds_cpu_harness.py``: DeepSpeed 0.15.4 on its CPU accelerator, one rank, a 4-layer Transformers Llama with
reentrant checkpointing): 13,131 module visits in the first complete micro-batch, none in the next six.

The published rows agree: if the walk ran every micro-batch, the Qwen README's Qwen-1.8B full fine-tuning rows (one
A100, ZeRO-3, the same ``stage3_max_reuse_distance`` 1e9: the walk covers most of a 1.8B model's trace at every release)
would take 12.6 s a step against the published 2.1-2.3 s, and the ms-swift Qwen1.5-MoE ZeRO-3 row 176 s against 24 s.
This script prints those rows with and without the walk (as the model would price it uncached) next to the published
figure, the open-instruct rows too.
"""

from __future__ import annotations

import sys
from bisect import bisect_left
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

#: stage3_max_reuse_distance in every shipped config the rows use (DeepSpeed's default too)
REUSE_DISTANCE = 1e9
#: the walk's host cost per module visited, in core/zero3.py's view ops (measured ratio to ``narrow``, CPU)
VISIT_VIEW_OPS = 4.0


def walk_visits(trace: list[float], distance: float = REUSE_DISTANCE) -> int:
    """Modules visited by the releases of one trace (each entry a module's parameter elements): after each entry the
    walk from the next one until the elements seen reach ``distance`` (the module that reaches it included) or the
    trace ends."""
    cum = [0.0]
    for n in trace:
        cum.append(cum[-1] + n)
    t, visits = len(trace), 0
    for s in range(1, t):
        k = bisect_left(cum, cum[s] + distance, lo=s + 1) - 1
        visits += min(k, t - 1) - s + 1
    return visits


def micro_batch_trace(arch, tool=None, method="full", lora_rank=0, lora_targets="all", recompute=True) -> list:
    """The hooked modules of one training micro-batch in trace order, as parameter elements: the model and base
    containers, the embedding and the rotary module, the decoder layers (core/zero3.py ``_hooked_weights``), the norm
    and the output layer; then the backward: the output layer, the norm, each layer from the last (its recompute
    forward, then its modules in reverse), the embedding."""
    from gpuplanner.core import zero3 as z

    _lora, n_ad, ad_part = z._adapters(arch, "hf", method, lora_rank, lora_targets)
    layers = []
    for moe, share in z._layer_kinds(arch):
        layers += [z._hooked_weights(arch, moe, n_ad, ad_part, lora_targets, lora_rank)] * int(round(share))
    vh = float(arch.vocab_size) * float(arch.hidden_size)
    fwd = [0.0, 0.0, vh, 0.0] + [n for lay in layers for n in lay] + [0.0, vh]
    bwd = [vh, 0.0]
    for lay in reversed(layers):
        bwd += (lay if recompute else []) + lay[::-1]
    return fwd + bwd + [vh]


def _with_walk(seconds_per_mb_layer):
    """A context in which core/zero3.py's coalesced-loop host term also carries ``seconds_per_mb_layer(arch)``."""
    import contextlib

    from gpuplanner.core import zero3 as z

    @contextlib.contextmanager
    def ctx():
        orig = z.z3_coalesced_host_seconds_layer

        def patched(a, framework, tool, method, lora_rank, lora_targets, n_dp, rec_whole):
            return orig(a, framework, tool, method, lora_rank, lora_targets, n_dp, rec_whole) + (
                seconds_per_mb_layer(a, tool, method, lora_rank, lora_targets) if framework in z.Z3_ENGINES else 0.0)

        z.z3_coalesced_host_seconds_layer = patched
        try:
            yield
        finally:
            z.z3_coalesced_host_seconds_layer = orig
    return ctx()


def walk_seconds_layer(a, tool, method, lora_rank, lora_targets) -> float:
    """Host seconds per decoder layer and micro-batch of an uncached walk (reentrant recompute assumed)."""
    from gpuplanner.core.zero3 import Z3_VIEW_OP_S

    v = walk_visits(micro_batch_trace(a, tool, method, int(lora_rank), lora_targets))
    return v / max(float(a.num_layers), 1.0) * VISIT_VIEW_OPS * Z3_VIEW_OP_S


def rows() -> list[tuple]:
    """(row, published s, model s, model s with an uncached walk, walk visits per micro-batch or None)."""
    import validate_ft_tools as ft
    import validate_post_time as pt
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    out = []
    for name, hours, _before, d, steps in pt.OPEN_INSTRUCT_RUNS:
        r = resolve(scenario_from_dict(d))
        base = time_estimate(r).step_time_s
        with _with_walk(walk_seconds_layer):
            walk = time_estimate(resolve(scenario_from_dict(d))).step_time_s
        out.append((f"open-instruct {name}", hours * 3600.0 / steps, base, walk,
                    walk_visits(micro_batch_trace(r.facts.arch))))
    for row in ft.all_rows():
        if row.kind != "step" or row.parallel.get("zero") != 3:
            continue
        base = ft.predict(row)
        with _with_walk(walk_seconds_layer):
            walk = ft.predict(row)
        out.append((row.id, row.measured, base, walk, None))
    return out


def main() -> int:
    print("| row | published s | model s (as built) | error | model s if the walk ran every micro-batch | error | "
          "walk visits per micro-batch |\n|---|---:|---:|---:|---:|---:|---:|")
    for name, pub, base, walk, visits in rows():
        v = f"{visits:,}" if visits is not None else "—"
        print(f"| {name} | {pub:.2f} | {base:.2f} | {pub / base - 1.0:+.1%} | {walk:.2f} | {pub / walk - 1.0:+.1%} | "
              f"{v} |")
    print("\nThe walk is cached (functools.lru_cache on __params_to_release): the model keeps the 'as built' column.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

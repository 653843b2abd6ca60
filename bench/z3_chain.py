"""How far DeepSpeed ZeRO-3 lets the host run ahead of the GPU, and what step time that gives (an analysis table;
the model is not changed by it).

Usage: python bench/z3_chain.py

Round 9 (helper z3sync9). pref10 found that open-instruct's published seconds per micro-batch are about
1.31 x the model's host time + its GPU time, while the model takes max(host, GPU). This script asks whether
DeepSpeed's own waits turn the max into a sum. It reads the waits from DeepSpeed's code (v0.12.6, v0.14.4, v0.16.4 of
deepspeedai/DeepSpeed; the lines below are the same in all three) and runs a chain of modules through them.

Where the host blocks on the GPU, per module or bucket (the full list is in the round-9 note
docs/notes/2026-12-06/issue-35-r9-z3sync9.md):

* forward and backward, every hooked module: ``partitioned_param_coordinator.py`` ``fetch_sub_module`` syncs on the
  oldest fetch event once more than ``__max_ongoing_fetch_events`` = 2 are open. The event is recorded on the
  all-gather stream after the gather's ``wait()``. The all-gather stream never waits for the compute stream
  (``__all_gather_params_`` issues under ``with stream(__allgather_stream)``; ``free_param`` only calls
  ``record_stream``). So in the forward this wait follows the gathers, not the compute: the host is not held back
  by the GPU's compute (:data:`FWD_LOOKAHEAD` = None).
* backward, every reduce bucket: ``stage3.py`` ``__add_grad_to_ipg_bucket`` makes the reduce stream wait for the
  compute stream; ``__reduce_and_partition_ipg_grads`` syncs on the oldest reduce event once more than
  ``max_param_reduce_events`` = 2 are open. The flush of bucket m runs at the first gradient hook of bucket m+1 and
  waits for bucket m-3's event. With the HF ``auto`` bucket (hidden squared) that is about one bucket per linear, so
  the host at linear j's gradient hook waits for the GPU to finish linear j-4 (:data:`BWD_LOOKAHEAD_LINEARS` = 4).
  (The gathers of the backward's prefetch share the process group's NCCL stream with these reduce-scatters, so
  the fetch-event wait there follows the compute too, but about four layers back: looser than the reduce wait.)
* end of every backward: ``independent_gradient_partition_epilogue`` calls ``reduce_and_partition_stream
  .synchronize()``: the micro-batch ends drained.
* after the forward, in open-instruct's ``dpo_tune_cache.py`` (686a521a3): the cached reference log-probabilities
  are moved with ``.to(p_device)`` from pageable CPU memory, a blocking copy that syncs the stream (PyTorch
  ``copy_`` without ``non_blocking``). So the forward also ends drained there (:func:`micro_batch_seconds`,
  ``drain_after_forward``).

The chain (:func:`chain_seconds`): task i has host time h_i and GPU time g_i. The host issues tasks in order; before
it starts task i it may have to wait until the GPU has finished task ``wait_for[i]``. The GPU runs task i once the
host has issued it and task i-1 is done. Both start idle. This is the standard bounded-buffer recurrence:
``H_i = max(H_{i-1}, G_{wait_for[i]}) + h_i``, ``G_i = max(G_{i-1}, H_i) + g_i``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

#: the forward: no wait on the compute stream (fetch events follow the all-gather stream only)
FWD_LOOKAHEAD = None
#: the backward: the host at linear j's gradient hook waits for linear j-4's backward (max_param_reduce_events = 2,
#: one reduce bucket per linear with the HF ``auto`` reduce bucket)
BWD_LOOKAHEAD_LINEARS = 4

#: a Llama-style decoder layer as DeepSpeed hooks it, forward order: (name, is a linear with a partitioned weight)
LAYER_MODULES = (("layer", False), ("input_layernorm", False), ("self_attn", False), ("q_proj", True),
                 ("k_proj", True), ("v_proj", True), ("o_proj", True), ("post_attention_layernorm", False),
                 ("mlp", False), ("gate_proj", True), ("up_proj", True), ("act_fn", False), ("down_proj", True))


def chain_seconds(h, g, wait_for=None) -> float:
    """When the GPU finishes the last task of the chain (see the module docstring). ``wait_for[i]``: the task whose
    GPU end the host waits for before it starts task i (None or negative: no wait)."""
    t_host = t_gpu = 0.0
    ends = []
    for i, (hi, gi) in enumerate(zip(h, g)):
        w = None if wait_for is None else wait_for[i]
        start = t_host if w is None or w < 0 else max(t_host, ends[w])
        t_host = start + hi
        t_gpu = max(t_gpu, t_host) + gi
        ends.append(t_gpu)
    return t_gpu


def layer_profile(h_pass: float, g_pass: float, dims: tuple, tokens: float, seq: float, profile: str) -> tuple:
    """Per-module (host, GPU) seconds of one layer for one pass, forward order. ``h_pass`` / ``g_pass``: the
    layer's totals for the pass. ``dims``: (hidden, kv width, ffn). ``profile``:

    * ``counts``: host split by DeepSpeed's hook ops per module (core/zero3.py: 5 per hooked module, + 3 + 4 for a
      partitioned weight); GPU split by FLOPs (each linear 2·tokens·in·out, attention 2·tokens·seq·hidden on the
      attention module), the element-wise rest spread evenly;
    * ``split``: the worst case for a bounded look-ahead: all host time on the modules without weights, all GPU
      time on the linears."""
    h, kv, f = dims
    lin = {"q_proj": h * h, "k_proj": h * kv, "v_proj": h * kv, "o_proj": h * h, "gate_proj": h * f,
           "up_proj": h * f, "down_proj": h * f}
    if profile == "split":
        hw = [0.0 if is_lin else 1.0 for _, is_lin in LAYER_MODULES]
        gw = [float(lin.get(n, 0.0)) for n, _ in LAYER_MODULES]
    else:
        hw = [12.0 if is_lin else 5.0 for _, is_lin in LAYER_MODULES]
        attn = tokens * seq * h
        gw = [2.0 * tokens * lin.get(n, 0.0) + (2.0 * attn if n == "self_attn" else 0.0) for n, _ in LAYER_MODULES]
        rest = 0.1 * sum(gw) / len(gw)  # element-wise work: a tenth of the mean, spread evenly
        gw = [x + rest for x in gw]
    sh, sg = sum(hw), sum(gw)
    return [h_pass * x / sh for x in hw], [g_pass * x / sg for x in gw]


def _waits(flags: list, look: int | None, shift: int) -> list:
    """The task each task's host waits for: at a flagged task, ``shift`` tasks from the flagged task ``look`` flags
    back (None: no wait)."""
    out, seen = [], []
    for i, flag in enumerate(flags):
        out.append(seen[-look] + shift if flag and look is not None and len(seen) >= look else None)
        if flag:
            seen.append(i)
    return out


def micro_batch_seconds(host: tuple, gpu: tuple, layers: int, dims: tuple, tokens: float, seq: float,
                        profile: str = "counts", drain_after_forward: bool = True, overlap_comm: bool = True,
                        bwd_bound: bool = True, unpad_sync: bool = False) -> float:
    """One micro-batch through DeepSpeed's waits. ``host`` / ``gpu``: (forward, recompute forward, backward) seconds
    of the whole model; the layers are alike. The backward phase runs each layer's recompute forward, then its
    backward in reverse module order. The micro-batch ends drained (``independent_gradient_partition_epilogue``);
    ``drain_after_forward``: a sync between forward and backward.

    * ``overlap_comm`` true: the forward has no bound (:data:`FWD_LOOKAHEAD`); in the backward the host at each
      linear's gradient hook waits for the linear :data:`BWD_LOOKAHEAD_LINEARS` back.
    * ``overlap_comm`` false (``parameter_offload.py``: the all-gather stream is the default stream; ``stage3.py``:
      so is the reduce stream): the fetch events are compute-stream events recorded before each linear's compute,
      so at each linear's fetch the host waits for the GPU to reach the linear 3 back (more than 2 open events);
      in the backward the reduce events land on the compute stream too, 3 linears back.
    * ``bwd_bound`` false: no wait at all (the model's max form, for comparison).
    * ``unpad_sync``: FlashAttention-2 through Transformers with a padded mask unpads in every attention call
      (``_get_unpad_data``: ``torch.nonzero`` and ``.max().item()``), a full host sync per layer in each forward
      pass: the host at ``o_proj`` waits for the GPU to finish ``v_proj``."""
    per = [(x / layers, y / layers) for x, y in zip(host, gpu)]
    fh, fg = layer_profile(*per[0], dims, tokens, seq, profile)
    rh, rg = layer_profile(*per[1], dims, tokens, seq, profile)
    bh, bg = layer_profile(*per[2], dims, tokens, seq, profile)
    lin = [m[1] for m in LAYER_MODULES]
    fwd_h, fwd_g = fh * layers, fg * layers
    bwd_h = (rh + bh[::-1]) * layers
    bwd_g = (rg + bg[::-1]) * layers
    bwd_lin = ([False] * len(lin) + lin[::-1]) * layers
    rec_lin = (lin + [False] * len(lin)) * layers
    if not bwd_bound:
        wait_f, wait_b = [None] * len(fwd_h), [None] * len(bwd_h)
    elif overlap_comm:
        wait_f, wait_b = _waits(lin * layers, FWD_LOOKAHEAD, 0), _waits(bwd_lin, BWD_LOOKAHEAD_LINEARS, 0)
    else:
        wait_f = _waits(lin * layers, 3, -1)
        wait_b = _waits([a or b for a, b in zip(rec_lin, bwd_lin)], 3, 0)
    if unpad_sync:
        at_o = [n == "o_proj" for n, _ in LAYER_MODULES]
        wait_f = [i - 1 if at_o[i % len(at_o)] else w for i, w in enumerate(wait_f)]
        per_l = 2 * len(at_o)
        wait_b = [i - 1 if (i % per_l) < len(at_o) and at_o[i % per_l] else w for i, w in enumerate(wait_b)]
    if drain_after_forward:
        return chain_seconds(fwd_h, fwd_g, wait_f) + chain_seconds(bwd_h, bwd_g, wait_b)
    off = len(fwd_h)
    wait = wait_f + [None if w is None else w + off for w in wait_b]
    return chain_seconds(fwd_h + bwd_h, fwd_g + bwd_g, wait)


def _capture(d: dict) -> dict:
    """The model's per-micro-batch host and GPU terms for scenario ``d`` (read at ``timing.host_waits``, an x86
    host) and its ZeRO-3 hook seconds per layer (``zero3.z3_host_seconds_layer``)."""
    import gpuplanner.core.timing as tm
    from gpuplanner.core import zero3
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict

    got, orig_hw, orig_z3 = {}, tm.host_waits, tm._z3.z3_host_seconds_layer

    def hw(lay, hcf, t_mb_gpu, *rest):
        if float(hcf) == 1.0:
            got.update(lay=lay, G=float(t_mb_gpu))
        return orig_hw(lay, hcf, t_mb_gpu, *rest)

    def z3h(*a, **k):
        got["hook_layer"] = float(orig_z3(*a, **k))
        return got["hook_layer"]

    tm.host_waits, zero3.z3_host_seconds_layer = hw, z3h
    try:
        t = tm.time_estimate(resolve(scenario_from_dict(d)))
    finally:
        tm.host_waits, zero3.z3_host_seconds_layer = orig_hw, orig_z3
    lay, m = got["lay"], got["lay"]["m"]
    G, fs, H, h_e = got["G"], float(lay["fwd_share"]), float(lay["host_mb"]), float(lay["host_fwd_mb"])
    hooks_pass = got.get("hook_layer", 0.0) * m.L / 3.0  # fwd, recompute and bwd hook the same modules
    h_f = h_e + hooks_pass
    return {"step": t.step_time_s, "m_acc": float(lay["m_acc"]), "G": G, "H": H, "L": m.L,
            "dims": (m.h, m.kv_dim, m.f), "tokens": float(lay["tokens_mb"]),
            "host": (h_f, h_f, max(H - 2.0 * h_f, 0.0)), "gpu": (G * fs, G * fs, G * (1.0 - 2.0 * fs))}


def rows() -> list[tuple]:
    """(row, published s per micro-batch, model's max(G, H, H_f + G_b), chain with DeepSpeed's waits (hook-count
    profile), chain (worst-case profile), chain with no wait, chain with FA2's unpad syncs, host + GPU, model host, model GPU)."""
    import validate_post_time as vpt

    cases = [(name, hours * 3600.0 / steps, d) for name, hours, _b, d, steps in vpt.OPEN_INSTRUCT_RUNS]
    for r in vpt.all_rows()[:2]:
        d = {"model": r.model, "training": r.training, "parallel": r.parallel,
             "hardware": {"gpu": r.gpu, "num_gpus": r.num_gpus}, "data": r.data,
             "assumptions": dict(getattr(r, "assumptions", {}))}
        cases.append((r.id, r.measured, d))
    out = []
    for name, step_pub, d in cases:
        c = _capture(d)
        seq = float(d["data"].get("mean_sample_len", c["tokens"]))
        args = (c["host"], c["gpu"], c["L"], c["dims"], c["tokens"], min(seq, c["tokens"]))
        g_b = c["gpu"][1] + c["gpu"][2]
        now = max(c["G"], c["H"], c["host"][0] + g_b)  # the model's rule, its forward host with the hooks
        ov = d["training"].get("framework") != "ms-swift"  # DS_TOOL_OVERLAP: ms-swift ships overlap_comm false
        out.append((name, step_pub / c["m_acc"], now, micro_batch_seconds(*args, overlap_comm=ov),
                    micro_batch_seconds(*args, profile="split", overlap_comm=ov),
                    micro_batch_seconds(*args, bwd_bound=False),
                    micro_batch_seconds(*args, overlap_comm=ov, unpad_sync=True),
                    c["G"] + c["H"], c["H"], c["G"]))
    return out


def main() -> int:
    print("| row | published s per micro-batch | max(G, H, H_f + G_b) | chain, DeepSpeed's waits (hook counts) "
          "| chain, worst-case profile | chain, no wait | chain + FA2 unpad syncs | H + G | model H | model G |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, pub, now, ch, worst, free, unpad, tot, h, g in rows():
        print(f"| {name} | {pub:.3f} | {now:.3f} | {ch:.3f} | {worst:.3f} | {free:.3f} | {unpad:.3f} | {tot:.3f} "
              f"| {h:.3f} | {g:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

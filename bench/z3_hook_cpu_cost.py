"""DeepSpeed ZeRO-3's host time per hooked module, measured on DeepSpeed's CPU accelerator against plain eager PyTorch
in the same process (round 12, helper z3host12). Not part of the test suite: it needs torch, deepspeed and
transformers (run with torch 2.5.1, deepspeed 0.15.4 and transformers 4.47.1, the versions open-instruct 686a521a3
pins; the venv of round 11's ``bench/z3_ds_cpu_harness.py``).

Usage: DS_ACCELERATOR=cpu python bench/z3_hook_cpu_cost.py [LAYERS] [REPEATS]

A tiny Transformers Llama (hidden 64, Llama-3.1-8B's head and MLP ratios) is run twice in one process, the same
weights and the same tokens: once as plain eager PyTorch, once wrapped by ``deepspeed.initialize`` with ZeRO-3 (one
rank, gloo on the loopback, the HF ``auto`` sizes of open-instruct's config scaled to hidden 64, its 1e9-element live and reuse
limits as 4.6 layers, as for Llama-3.1-8B). Both run
Transformers' reentrant gradient checkpointing, the way open-instruct's ``dpo_tune_cache.py`` does, and a
forward-only ``no_grad`` pass in eval mode (its cached reference pass). The kernels of a hidden-64 model cost a few
µs each, so each pass's time is nearly all host time; the ZeRO-3 pass minus the plain pass is what DeepSpeed's hooks
add on the host. It prints:

* per pass: plain and ZeRO-3 seconds, the difference, the hooked module passes (forward pre-hook calls) and the
  autograd ``Function`` applications DeepSpeed's hooks make (one per tensor among each module's positional inputs and
  outputs: ``apply_to_tensors_only``);
* the aten ops the plain pass dispatches (a ``TorchDispatchMode`` count) and its seconds per op;
* DeepSpeed's added seconds per hooked module pass, in this process's plain seconds per aten op.

One rank takes ``_no_gather_coalesced`` (no all-gather, no per-rank loop) and DeepSpeed's CPU accelerator resolves
data dependencies itself (no fetch events, no ``wait_stream``): the measured figure is DeepSpeed's Python
bookkeeping and the autograd ``Function`` wrappers, without the CUDA calls a GPU rank adds. A CPU VM's Python is not
a datacenter host's: only the ratio to an eager op in the same process is used.

Environment: ``ARCH=olmo2`` (OLMo 2's layer), ``REUSE_LAYERS`` (default 4.6), ``CLOCK=thread`` (main-thread CPU time),
``RANK`` / ``WORLD_SIZE`` / ``MASTER_PORT`` (two ranks: start two processes).

Round 12 results (shared 2-vCPU AMD EPYC VM; per decoder layer from the 8- and 16-layer slopes, the minimum of 12
interleaved repeats; two runs, wall clock and thread time; docs/notes/2026-12-07/issue-35-r12-z3host12.md):
plain eager 0.66 ms a forward-only layer and 2.9–4.0 ms a training layer (forward, reentrant recompute, backward);
ZeRO-3 adds 1.8–2.5 ms and 7.0–7.2 ms, i.e. 2.8–3.8 and 1.8–2.4 eager layers (the model's counts at 24 µs an op
and 10 µs a reduce-path op, one rank: 2.8 and 3.6). Hooked module passes per layer: Llama 13 forward, 13 recompute,
13 backward; OLMo 2 16 / 16 / 15 (q_norm, k_norm and 4.47.1's per-attention ``rotary_emb``). DeepSpeed's autograd
``Function`` applications: 1.9–2.2 per module pass; NVTX ranges (``instrument_w_nvtx``): 9–10 per module pass.
Two ranks (thread time, 16 layers): 138–180 µs more main-thread time per gathered weight, besides the time inside
gloo's collectives.
"""
from __future__ import annotations

import collections
import os
import sys
import time

from z3_ds_cpu_harness import ds_config  # the same ZeRO-3 config as round 11's harness

#: CLOCK=thread: the main thread's CPU time (time.thread_time), not the wall clock: on a shared 2-core VM with two
#: ranks it leaves out time spent descheduled or blocked in a collective's wait, and the gloo threads' own work
CLOCK = time.thread_time if os.environ.get("CLOCK") == "thread" else time.perf_counter


def _models(layers: int):
    os.environ.setdefault("DS_ACCELERATOR", "cpu")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29536")
    for k, v in (("RANK", "0"), ("WORLD_SIZE", "1"), ("LOCAL_RANK", "0")):
        os.environ.setdefault(k, v)
    import deepspeed
    import torch
    from deepspeed.accelerator import get_accelerator
    from transformers import LlamaConfig, LlamaForCausalLM, Olmo2Config, Olmo2ForCausalLM

    torch.set_num_threads(1)
    get_accelerator().device_count = lambda: 1
    h, inter, vocab = 64, 224, 256
    # ARCH=olmo2: OLMo 2's layer (q_norm and k_norm modules, as many KV heads as query heads, post-norms)
    olmo = os.environ.get("ARCH") == "olmo2"
    conf, cls = (Olmo2Config, Olmo2ForCausalLM) if olmo else (LlamaConfig, LlamaForCausalLM)
    cfg = conf(hidden_size=h, intermediate_size=inter, num_hidden_layers=layers, num_attention_heads=8,
               num_key_value_heads=8 if olmo else 2, vocab_size=vocab, max_position_embeddings=256,
               tie_word_embeddings=False)
    cfg._attn_implementation = "sdpa"
    torch.manual_seed(0)
    plain = cls(cfg)
    z3m = cls(cfg)
    z3m.load_state_dict(plain.state_dict())
    for m in (plain, z3m):
        m.gradient_checkpointing_enable()  # Transformers 4.47: use_reentrant True
        m.config.use_cache = False
    # stage3_max_live_parameters / stage3_max_reuse_distance: open-instruct's 1e9 elements is 4.6 decoder layers of
    # Llama-3.1-8B (218M each); the same number of this model's layers (REUSE_LAYERS), as round 11's harness did
    layer = sum(p.numel() for p in z3m.model.layers[0].parameters())
    reuse = int(float(os.environ.get("REUSE_LAYERS", "4.6")) * layer)
    ds = ds_config(h, reuse, 1000)
    engine, _, _, _ = deepspeed.initialize(model=z3m, optimizer=torch.optim.AdamW(z3m.parameters(), lr=1e-5),
                                           config=ds)
    return torch, plain, engine, vocab


class _Counts:
    """Counts the forward pre-hook calls and DeepSpeed's autograd Function applications."""

    def __init__(self, torch, engine):
        self.n = collections.Counter()
        off = engine.optimizer.parameter_offload
        self._off = off
        orig_pre, orig_pbwd = off.pre_sub_module_forward_function, off.pre_sub_module_backward_function
        n = self.n

        def pre(sub):
            n["fwd_hook"] += 1
            return orig_pre(sub)

        def pbwd(sub):
            n["bwd_hook"] += 1
            return orig_pbwd(sub)

        off.pre_sub_module_forward_function, off.pre_sub_module_backward_function = pre, pbwd
        from deepspeed.runtime.zero import parameter_offload as po

        orig_apply = po.apply_to_tensors_only

        def apply(function, value, warning_msg_fn=None):
            def counted(t):
                n["fn_apply"] += 1
                return function(t)
            return orig_apply(counted, value, warning_msg_fn)

        po.apply_to_tensors_only = apply
        self._wrap_comm(n)

    @staticmethod
    def _wrap_comm(n) -> None:
        """Counts and times the collectives (issue and wait), the gathered and released weights, the NVTX ranges."""
        from deepspeed.comm import comm as dcomm

        cdb = dcomm.cdb

        class _Timed:
            def __init__(self, work):
                self.work = work

            def wait(self, *a, **k):
                t0 = CLOCK()
                out = self.work.wait(*a, **k)
                n["comm_s"] += CLOCK() - t0
                return out

            def __getattr__(self, name):
                return getattr(self.work, name)

        def timed(kind, fn):
            def call(*a, **k):
                n[kind] += 1
                t0 = CLOCK()
                out = fn(*a, **k)
                n["comm_s"] += CLOCK() - t0
                return _Timed(out) if out is not None else out
            return call

        from deepspeed.runtime.zero import partitioned_param_coordinator as ppc

        c = ppc.PartitionedParameterCoordinator
        orig_ag, orig_rel = c._PartitionedParameterCoordinator__all_gather_params, \
            c._PartitionedParameterCoordinator__release_param

        def ag(self, params, forward):
            n["gathered"] += sum(1 for p in params if p.ds_status == ppc.ZeroParamStatus.NOT_AVAILABLE)
            return orig_ag(self, params, forward)

        def rel(self, param):
            n["released"] += 1
            return orig_rel(self, param)

        c._PartitionedParameterCoordinator__all_gather_params = ag
        from deepspeed.accelerator import get_accelerator

        acc, orig_push = get_accelerator(), get_accelerator().range_push

        def push(msg):  # instrument_w_nvtx's NVTX range (torch.cuda.nvtx.range_push on a GPU; a no-op on CPU)
            n["nvtx"] += 1
            return orig_push(msg)

        acc.range_push = push
        c._PartitionedParameterCoordinator__release_param = rel
        cdb.all_gather_function = timed("all_gather", cdb.all_gather_function)
        cdb.reduce_scatter_function = timed("reduce_scatter", cdb.reduce_scatter_function)


def _ops(torch, fn) -> int:
    from torch.utils._python_dispatch import TorchDispatchMode

    class Count(TorchDispatchMode):
        n = 0

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            Count.n += 1
            return func(*args, **(kwargs or {}))

    with Count():
        fn()
    return Count.n


def main(layers: int, repeats: int) -> None:
    torch, plain, engine, vocab = _models(layers)
    counts = _Counts(torch, engine)
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(0, vocab, (2, 48), generator=g)
    mask = torch.ones_like(ids)

    def loss(out):
        return out.logits.float().log_softmax(-1).mean()

    def p_train():
        plain.train()
        loss(plain(input_ids=ids, attention_mask=mask)).backward()
        plain.zero_grad(set_to_none=True)

    def z_train():
        engine.train()
        engine.backward(loss(engine(input_ids=ids, attention_mask=mask)))

    def p_ref():
        plain.eval()
        with torch.no_grad():
            plain(input_ids=ids, attention_mask=mask)

    def z_ref():
        engine.eval()
        with torch.no_grad():
            engine(input_ids=ids, attention_mask=mask)

    for _ in range(4):  # trace recorded and complete
        z_train(), p_train(), z_ref(), p_ref()
    ops = {"train": _ops(torch, p_train), "ref": _ops(torch, p_ref)}
    z_ops = {"train": _ops(torch, z_train), "ref": _ops(torch, z_ref)}
    t = collections.defaultdict(list)
    for _ in range(repeats):  # interleaved, the minimum of each kept
        for name, fn in (("p_train", p_train), ("z_train", z_train), ("p_ref", p_ref), ("z_ref", z_ref)):
            if name.startswith("z"):
                counts.n.clear()
            t0 = CLOCK()
            fn()
            t[name].append(CLOCK() - t0)
            if name.startswith("z") and t[name][-1] == min(t[name]):
                t[name + "_n"] = dict(counts.n)  # the counts of the fastest repeat
    for kind in ("train", "ref"):
        p, z = min(t["p_" + kind]), min(t["z_" + kind])
        n = t["z_" + kind + "_n"]
        per_op = p / ops[kind]
        mods = n.get("fwd_hook", 0) + n.get("bwd_hook", 0)
        print(f"{kind}: plain {p * 1e3:.2f} ms ({ops[kind]} aten ops, {per_op * 1e6:.2f} us/op), ZeRO-3 "
              f"{z * 1e3:.2f} ms, added {(z - p) * 1e3:.2f} ms; hooked module passes {n.get('fwd_hook', 0)} forward "
              f"+ {n.get('bwd_hook', 0)} backward, Function applications {n.get('fn_apply', 0)}; added per module "
              f"pass {(z - p) / mods * 1e6:.1f} us = {(z - p) / mods / per_op:.1f} plain aten ops; collectives "
              f"{n.get('all_gather', 0)} all-gathers + {n.get('reduce_scatter', 0)} reduce-scatters, "
              f"{n.get('comm_s', 0.0) * 1e3:.2f} ms inside them (issue and wait); added less that "
              f"{(z - p - n.get('comm_s', 0.0)) * 1e3:.2f} ms = {(z - p - n.get('comm_s', 0.0)) / mods * 1e6:.1f} us "
              f"a module pass; aten ops added {z_ops[kind] - ops[kind]}; weights gathered {n.get('gathered', 0)}, released {n.get('released', 0)}; NVTX ranges {n.get('nvtx', 0)}")


if __name__ == "__main__":
    a = sys.argv[1:]
    main(int(a[0]) if a else 4, int(a[1]) if len(a) > 1 else 15)

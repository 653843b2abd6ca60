"""DeepSpeed ZeRO-3 on its CPU accelerator (one rank, gloo on the loopback), a tiny Transformers Llama with reentrant
gradient checkpointing, run the way open-instruct's loop runs it (forward, backward, step per micro-batch): counts,
per micro-batch, what the host does. Not part of the test suite: it needs torch, deepspeed and transformers, which
the project does not depend on (round 11, helper z3dpo11, ran them with torch 2.5.1, deepspeed 0.15.4 and
transformers 4.47.1, the versions open-instruct 686a521a3 pins for DeepSpeed and Transformers).

Usage: DS_ACCELERATOR=cpu python bench/z3_ds_cpu_harness.py [walk|gathers]

* ``walk``: how many modules ``__params_to_release``'s reuse-distance walk visits in each micro-batch (replayed from
  the recorded trace) against how many times the walk really runs (``iter_params`` calls inside it). Result in round
  11, 4 layers: the first complete micro-batch walks 13,131 modules; every later one 0 (``functools.lru_cache``).
* ``gathers``: the weights each phase gathers once the trace is complete, with ``stage3_max_reuse_distance`` and
  ``stage3_max_live_parameters`` set to as many decoder layers as 1e9 elements is for Llama-3.1-8B (4.6 layers).
  Result in round 11, 32 layers (226 partitioned weights): 231 gathers issued from forward hooks (5 of them
  prefetches for the backward) and 191 from backward hooks, 422 a micro-batch: 1.87 per weight, the recompute's
  re-gather; the backward itself gathers nothing more (no third fetch). Before the trace is complete (the first
  micro-batch) every phase gathers (291 / 288 / 291).

Host times from this script are not used: on a 2-core shared machine the CPU kernels of even a tiny model dominate.
"""
from __future__ import annotations

import collections
import os
import sys


def ds_config(h: int, reuse: int, grad_accum: int) -> dict:
    """The ZeRO-3 config of the CPU harnesses (this one and bench/z3_hook_cpu_cost.py): open-instruct's ZeRO-3 file
    with the HF ``auto`` buckets of hidden size ``h`` and ``reuse`` elements live / reuse distance."""
    return {"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": grad_accum,
            "zero_allow_untested_optimizer": True, "zero_force_ds_cpu_optimizer": False,
            "zero_optimization": {"stage": 3, "overlap_comm": True, "contiguous_gradients": True,
                                  "reduce_bucket_size": h * h, "stage3_prefetch_bucket_size": int(0.9 * h * h),
                                  "stage3_param_persistence_threshold": 10 * h, "stage3_max_live_parameters": reuse,
                                  "stage3_max_reuse_distance": reuse}}


def _setup(layers: int, reuse_layers: float | None):
    os.environ.setdefault("DS_ACCELERATOR", "cpu")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29535")
    for k, v in (("RANK", "0"), ("WORLD_SIZE", "1"), ("LOCAL_RANK", "0")):
        os.environ.setdefault(k, v)
    import deepspeed
    import torch
    from deepspeed.accelerator import get_accelerator
    from transformers import LlamaConfig, LlamaForCausalLM

    get_accelerator().device_count = lambda: 1  # one rank (its NUMA probe needs numactl)
    h, inter, vocab = 64, 224, 256  # Llama-3.1-8B's ratios: 3.5 h MLP, 8 query / 2 KV heads
    cfg = LlamaConfig(hidden_size=h, intermediate_size=inter, num_hidden_layers=layers, num_attention_heads=8,
                      num_key_value_heads=2, vocab_size=vocab, max_position_embeddings=256, tie_word_embeddings=False)
    cfg._attn_implementation = "sdpa"
    model = LlamaForCausalLM(cfg)
    model.gradient_checkpointing_enable()  # Transformers 4.47: use_reentrant True
    model.config.use_cache = False
    layer = sum(p.numel() for p in model.model.layers[0].parameters())
    reuse = int(reuse_layers * layer) if reuse_layers else int(1e9)
    ds = ds_config(h, reuse, 4)
    engine, _, _, _ = deepspeed.initialize(model=model, optimizer=torch.optim.AdamW(model.parameters(), lr=1e-5),
                                           config=ds)
    return torch, engine, model, vocab, reuse


def _micro_batch(torch, engine, vocab, g, phase=None):
    ids = torch.randint(0, vocab, (2, int(torch.randint(20, 60, (1,), generator=g))), generator=g)
    if phase is not None:
        phase["p"] = "forward"
    out = engine(input_ids=ids, attention_mask=torch.ones_like(ids))
    if phase is not None:
        phase["p"] = "recompute"
    engine.backward(out.logits.float().log_softmax(-1).mean())
    engine.step()


def walk() -> None:
    torch, engine, _model, vocab, reuse = _setup(4, None)
    from deepspeed.runtime.zero import partitioned_param_coordinator as ppc

    c = ppc.PartitionedParameterCoordinator
    orig_ptr, orig_iter = c._PartitionedParameterCoordinator__params_to_release, ppc.iter_params
    n = collections.Counter()

    def counting_iter(module, recurse=False):
        n["iter"] += 1
        return orig_iter(module, recurse)

    def ptr(self, sub, step_id):
        trav, v = 0, 0
        for m in self._PartitionedParameterCoordinator__submodule_order[step_id:]:
            if trav >= reuse:
                break
            v += 1
            trav += sum(p.ds_numel for p in m.parameters(recurse=False))
        n["replay"] += v
        before = n["iter"]
        out = orig_ptr(self, sub, step_id)
        n["walked"] += max(n["iter"] - before - 2, 0)  # less the two calls on the released module itself
        return out

    c._PartitionedParameterCoordinator__params_to_release = ptr
    ppc.iter_params = counting_iter
    g = torch.Generator().manual_seed(0)
    coord = engine.optimizer.parameter_offload.get_param_coordinator()
    for mb in range(8):
        n.clear()
        _micro_batch(torch, engine, vocab, g)
        print(f"micro-batch {mb}: trace complete {coord.is_complete_trace()}, walk visits if run: {n['replay']}, "
              f"visits really walked: {n['walked']}")


def gathers() -> None:
    torch, engine, model, vocab, reuse = _setup(int(os.environ.get("LAYERS", "32")), 4.6)
    from deepspeed.runtime.zero import partitioned_param_coordinator as ppc

    c = ppc.PartitionedParameterCoordinator
    orig = c._PartitionedParameterCoordinator__all_gather_params
    phase, n = {"p": "forward"}, collections.Counter()

    def ag(self, params, forward):
        n[phase["p"] if forward else "backward"] += sum(
            1 for p in params if p.ds_status == ppc.ZeroParamStatus.NOT_AVAILABLE)
        return orig(self, params, forward)

    c._PartitionedParameterCoordinator__all_gather_params = ag
    big = sum(1 for p in model.parameters() if p.ds_numel >= 640)
    print(f"partitioned weights {big}, reuse distance and max live {reuse} elements")
    g = torch.Generator().manual_seed(0)
    coord = engine.optimizer.parameter_offload.get_param_coordinator()
    for mb in range(6):
        n.clear()
        _micro_batch(torch, engine, vocab, g, phase)
        print(f"micro-batch {mb}: trace complete {coord.is_complete_trace()}, weights gathered from forward hooks "
              f"{n['forward']}, recompute-forward hooks {n['recompute']}, backward hooks {n['backward']}")


if __name__ == "__main__":
    (gathers if sys.argv[1:] == ["gathers"] else walk)()

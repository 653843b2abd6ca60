"""FSDP1's root unit held gathered for the whole step (issue 35 r10, ftmem10; ``memory.fsdp1_root_unit_bytes``).

PyTorch ``fsdp/_runtime_utils.py`` ``_post_forward_reshard``: the root's flat parameter is not freed after forward
(``not state._is_root``); a frozen root has no post-backward hook and is resharded when backward ends. Under
Accelerate's and Answer.AI's transformer wrap policies the root holds the embedding, the final norm and the head.
By hand."""

from __future__ import annotations

from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.memory import fsdp1_root_unit_bytes
from gpuplanner.core.scenario import scenario_from_dict

GIB = 2 ** 30
V, H = 32000, 4096  # Llama-2 7B


def scn(framework="fsdp", version=1, zero=3, method="lora", seq=512, mbs=1, preset="llama-2-7b"):
    t = {"method": method, "lora_rank": 64, "lora_targets": "all_linear", "seq_len": seq, "micro_batch_size": mbs,
         "global_batch_size": 2 * mbs, "framework": framework, "recompute": "full", "flash_attention": True}
    if framework in ("fsdp", "hf"):
        t["fsdp_version"] = version
    return resolve(scenario_from_dict({"model": {"preset": preset}, "training": t, "parallel": {"zero": zero},
                                       "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 2}}))


def forced(r, root: bool) -> float:
    """Allocated bytes with the FSDP1 root term forced on or off (the other arguments as the estimate's)."""
    from gpuplanner.core.estimate import memory_kwargs
    from gpuplanner.core.memory import RECOMPUTE_CODES, memory_arrays

    s, p, t = r.scenario, r.scenario.parallel, r.scenario.training
    kw = dict(memory_kwargs(r), fsdp1_root=root)
    arr = memory_arrays(r.facts, **kw, tp=p.tp, pp=p.pp, cp=p.cp, ep=p.ep, dp=s.dp, zero=p.zero,
                        recompute=RECOMPUTE_CODES[t.recompute], mbs=t.micro_batch_size, sp=False,
                        grad_accum=s.grad_accum, vpp=p.vpp, offload=p.offload_optimizer)
    return float(arr["allocated"])


def alloc(r) -> float:
    return memory_breakdown(r).metric("allocated")


def test_root_bytes_by_hand():
    m = scn().facts
    emb, root = fsdp1_root_unit_bytes(m, 1, "bf16")
    assert emb == 2.0 * V * H
    assert root == 2.0 * V * H * 2 + 2.0 * H  # embedding, head, final norm
    # tied embeddings: one matrix
    mt = scn(preset="qwen2.5-0.5b").facts
    assert fsdp1_root_unit_bytes(mt, 1, "bf16")[0] == 0.0


def test_fsdp1_adds_at_most_the_root_and_fsdp2_or_deepspeed_nothing():
    root = fsdp1_root_unit_bytes(scn().facts, 1, "bf16")[1] / GIB
    d = alloc(scn(version=1)) - alloc(scn(version=2))
    assert 0.5 * root < d <= root + 1e-9, (d, root)
    # short batch-1 step: a recomputed block's moment is the peak, the whole root comes on top
    # the HF stack entered as FSDP1 (fsdp_version 1) gets the same; DeepSpeed ZeRO-3 and ZeRO-2 nothing
    assert alloc(scn(framework="hf", version=1)) > alloc(scn(framework="hf", version=2))
    from gpuplanner.core.estimate import memory_kwargs

    assert memory_kwargs(scn(framework="deepspeed"))["fsdp1_root"] is False
    assert memory_kwargs(scn(version=2))["fsdp1_root"] is False
    assert forced(scn(version=1, zero=2), True) == forced(scn(version=1, zero=2), False)


def test_long_batches_hide_it_behind_the_loss():
    """At the loss the root sits beside one prefetched block instead of two: the larger the loss, the less it adds."""
    short = alloc(scn(version=1)) - alloc(scn(version=2))
    long = alloc(scn(version=1, seq=4096, mbs=4)) - alloc(scn(version=2, seq=4096, mbs=4))
    assert 0.0 <= long < short


def test_full_finetuning_unchanged():
    r = scn(method="full", version=1)
    assert forced(r, True) == forced(r, False)

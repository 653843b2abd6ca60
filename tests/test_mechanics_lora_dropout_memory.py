"""PEFT ``lora_dropout`` > 0 in memory (issue 35 r10, ftmem10): each adapted linear saves its own dropped copy of
its input and a 1-byte mask (PEFT ``tuners/lora/layer.py``; ``memory.lora_dropout_bytes_per_token``). By hand; the
exact CPU measurement is ``tests_validate/test_lora_dropout_memory.py``."""

from __future__ import annotations

import pytest

from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.memory import lora_dropout_bytes_per_token, lora_dropout_elements
from gpuplanner.core.scenario import scenario_from_dict

GIB = 2 ** 30
H, F, L = 4096, 11008, 32  # Llama-2 7B


def scn(dropout=0.05, recompute="none", targets="all_linear", framework="hf", master=False, mbs=2, seq=1024,
        method="lora", preset="llama-2-7b"):
    t = {"method": method, "lora_rank": 16, "lora_targets": targets, "lora_dropout": dropout, "seq_len": seq,
         "micro_batch_size": mbs, "global_batch_size": mbs, "framework": framework, "recompute": recompute,
         "master_weights": master, "flash_attention": True}
    return resolve(scenario_from_dict({"model": {"preset": preset}, "training": t,
                                       "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}}))


def test_elements_by_hand():
    a = scn().arch
    # all_linear: q, k, v, o read h; gate, up read h; down reads f. Inputs only the adapters save: the norm output
    # (q/k/v), the MLP input (gate/up) and down's input; o_proj's input is attention's saved output
    assert lora_dropout_elements(a, "all_linear") == (L * (6.0 * H + F), L * (2.0 * H + F))
    assert lora_dropout_elements(a, "qkv_mlp") == (L * (5.0 * H + F), L * (2.0 * H + F))
    assert lora_dropout_elements(a, "qv") == (L * 2.0 * H, L * 1.0 * H)
    # 16-bit: 3 bytes per adapted input element, less the 2 bytes of each shared input already counted
    assert float(lora_dropout_bytes_per_token(a, "all_linear", 2.0, False)) == 14 * H + F
    assert float(lora_dropout_bytes_per_token(a, "qkv_mlp", 2.0, False)) == 11 * H + F
    assert float(lora_dropout_bytes_per_token(a, "qv", 2.0, False)) == 4 * H
    # autocast over fp32 adapters: each adapter already saved its own 16-bit cast; only the bool mask is new
    assert float(lora_dropout_bytes_per_token(a, "all_linear", 2.0, True)) == 6 * H + F


def test_every_layer_keeps_the_copies_without_checkpointing():
    r0, r1 = scn(dropout=0.0), scn(dropout=0.05)
    d = memory_breakdown(r1).metric("allocated") - memory_breakdown(r0).metric("allocated")
    assert d * GIB == pytest.approx(L * 2 * 1024 * (14 * H + F), rel=1e-6)
    # autocast (HF Trainer with fp32 adapters, no ZeRO): the masks only
    r0, r1 = scn(dropout=0.0, master=True), scn(dropout=0.05, master=True)
    d = memory_breakdown(r1).metric("allocated") - memory_breakdown(r0).metric("allocated")
    assert d * GIB == pytest.approx(L * 2 * 1024 * (6 * H + F), rel=1e-6)


def test_checkpointing_keeps_them_for_the_recomputed_layer_only():
    r0, r1 = scn(dropout=0.0, recompute="full"), scn(dropout=0.05, recompute="full")
    d = memory_breakdown(r1).metric("allocated") - memory_breakdown(r0).metric("allocated")
    one_layer = 2 * 1024 * (14 * H + F) / GIB
    assert -1e-9 <= d <= one_layer + 1e-9


def test_dropout_zero_and_full_finetuning_unchanged():
    base = memory_breakdown(scn(dropout=0.0)).metric("allocated")
    assert memory_breakdown(scn(dropout=0.0)).metric("allocated") == base
    full0 = memory_breakdown(scn(dropout=0.0, method="full")).metric("allocated")
    assert memory_breakdown(scn(dropout=0.3, method="full")).metric("allocated") == full0


def test_old_bitsandbytes_keeps_the_shared_input():
    """bitsandbytes < 0.43.2 ``MatMul4Bit`` keeps its input (``ctx.tensors = (A, B)``): nothing is subtracted."""
    a = scn().arch
    assert float(lora_dropout_bytes_per_token(a, "all_linear", 2.0, False, base_keeps_input=True)) == \
        3 * (6 * H + F)
    assert float(lora_dropout_bytes_per_token(a, "all_linear", 2.0, True, base_keeps_input=True)) == 6 * H + F

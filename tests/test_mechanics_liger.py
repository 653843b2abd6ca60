"""Liger Kernel (``training.liger_kernel``; core/frameworks.tool_mechanics, core/memory.liger_layer_saving).

Hand-derived savings and the Liger README's benchmark (linkedin/Liger-Kernel: LLaMA 3-8B, batch 8, bf16, AdamW,
gradient checkpointing, FSDP1 on 8 A100s): Hugging Face "starts to OOM at a 4K context length", Liger "scales up to
16K".
"""

from __future__ import annotations

import pytest

from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.frameworks import tool_mechanics
from gpuplanner.core.memory import liger_layer_saving
from gpuplanner.core.scenario import scenario_from_dict

GIB = 1024**3


def _mem(seq: int, liger: bool, **t):
    d = {"model": {"preset": "llama-3-8b"},
         "training": {"framework": "fsdp", "fsdp_version": 1, "method": "full", "seq_len": seq, "micro_batch_size": 8,
                      "recompute": "full", "flash_attention": True, "liger_kernel": liger, **t},
         "parallel": {"zero": 3}, "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 8}}
    r = resolve(scenario_from_dict(d))
    return r, memory_breakdown(r)


def test_tool_mechanics():
    assert tool_mechanics("trl", liger=True)["loss_kernel"] == "cce"
    assert tool_mechanics("trl", liger=True)["fused"] is True
    assert tool_mechanics("trl")["loss_kernel"] == "standard"
    assert tool_mechanics("megatron", liger=True)["loss_kernel"] == "standard"  # not Hugging Face models


def test_layer_saving_hand_derived():
    r, _ = _mem(4096, True)
    f = r.facts
    # full fine-tuning, bf16 residual: two norms save 4h each less (fp32 upcast and the normalised tensor), SwiGLU one
    # f-wide tensor less
    assert liger_layer_saving(f, 4096, 8, False, 2.0, 2.0) == pytest.approx((8 * f.h + 2 * f.f) * 4096 * 8)
    # LoRA (frozen norms): 2h per norm
    assert liger_layer_saving(f, 4096, 8, True, 2.0, 2.0) == pytest.approx((4 * f.h + 2 * f.f) * 4096 * 8)


def test_liger_readme_benchmark():
    _, hf4k = _mem(4096, False)
    _, hf2k = _mem(2048, False)
    _, lig16k = _mem(16384, True)
    _, lig32k = _mem(32768, True)
    card = 80.0  # GiB: the A100 80GB holds 81,920 MiB (gpus.json capacity)
    assert hf2k.total < card < hf4k.total * 1.05  # HF: 4K at the card's edge (OOM), 2K fits
    assert lig16k.total <= card * 1.02 and lig32k.total > card  # Liger: 16K fits, 32K does not
    assert lig16k.total < hf4k.total * 1.1  # four times the context in the same memory


def test_liger_refused_where_models_are_not_hugging_face():
    with pytest.raises((ScenarioError, ValueError)):
        scenario_from_dict({"model": {"preset": "llama-3-8b"},
                            "training": {"framework": "megatron", "liger_kernel": True},
                            "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 8}})


def test_no_norm_saving_on_an_fp32_residual_under_kbit():
    # TRL QLoRA: PEFT's kbit preparation makes the residual fp32, so Liger's RMSNorm saves X in fp32 too (4h):
    # only the SwiGLU's f-wide tensor is saved less per layer
    def run(liger):
        d = {"model": {"preset": "llama-3-8b"},
             "training": {"framework": "trl", "method": "qlora", "seq_len": 4096, "micro_batch_size": 1,
                          "recompute": "none", "flash_attention": True, "liger_kernel": liger},
             "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 1}}
        r = resolve(scenario_from_dict(d))
        return r, memory_breakdown(r)
    r, a = run(False)
    _, b = run(True)
    f = r.facts
    layers = f.L * 2.0 * f.f * 4096  # one 16-bit f-wide tensor per layer, every layer kept (no recompute)
    logits_gone = a.activations - b.activations - layers / GIB
    assert logits_gone > 0  # the rest is the loss path (no logits tensor)
    assert liger_layer_saving(f, 4096, 1, True, 2.0, 4.0) == pytest.approx(2.0 * f.f * 4096)


def test_search_keeps_hugging_face_stacks_with_liger():
    from gpuplanner.core.search import searched_frameworks

    s = scenario_from_dict({"model": {"preset": "llama-3-8b"}, "training": {"method": "full", "liger_kernel": True},
                            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}})
    fws, chooses = searched_frameworks(s)
    assert chooses and "megatron" not in fws and "hf" in fws
    s0 = scenario_from_dict({"model": {"preset": "llama-3-8b"}, "training": {"method": "full"},
                             "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}})
    assert "megatron" in searched_frameworks(s0)[0]

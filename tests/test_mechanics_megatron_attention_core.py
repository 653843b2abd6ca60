"""Megatron's attention core without FlashAttention (issue 35 round 5, helper mlm2021): the score tensor's traffic
counted from Megatron-LM's kernels (fused causal softmax reads half the square, dropout mask 1 byte; backward
8.5 element passes, not twice the forward) and the baddbmm/bmm GEMMs over the whole s × s square. Hand-derived
values; the SC21 artifact's Table 1 settings checked in the bench mapping."""
import dataclasses
import sys
from pathlib import Path

import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.arrayops import ScalarOps
from gpuplanner.core.estimate import resolve
from gpuplanner.core.memory import model_facts
from gpuplanner.core.params import count_params
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]


def _gpt(framework="megatron", flash=False, recompute="full", dropout=True):
    r = resolve(scenario_from_dict({
        "model": {"name": "gpt-1.7b", "hidden_size": 2304, "num_hidden_layers": 24, "num_attention_heads": 24,
                  "intermediate_size": 9216, "vocab_size": 51200, "gated_mlp": False, "norm_type": "layernorm",
                  "position_embedding": "learned", "max_position_embeddings": 2048},
        "training": {"method": "pretrain", "precision": "fp16", "framework": framework, "seq_len": 2048,
                     "micro_batch_size": 1, "global_batch_size": 8, "recompute": recompute,
                     "flash_attention": flash},
        "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 8, "gpus_per_node": 8},
    }))
    if dropout:
        arch = r.arch.replace(dropout=True)
        r = dataclasses.replace(r, arch=arch, facts=model_facts(arch, count_params(arch)))
    return r


def test_core_terms_hand_derived():
    m = _gpt().facts
    # with dropout and full recompute (1 recomputed forward): generic 6.5 × 4 = 26 element passes per score,
    # Megatron's 6 × 2 + 8.5 = 20.5: 5.5 × 2 bytes × 24 heads × 2048 keys per token and layer
    saving, extra = T.megatron_attention_core(m, 2048, 2048, 1.0, ScalarOps)
    assert saving == pytest.approx(5.5 * 2 * 24 * 2048)  # 540,672 bytes
    # full square: 2 · (2048 − 2049/2) · (2304 + 2304) · 24 layers per forward pass
    assert extra == pytest.approx(2 * 1023.5 * 4608 * 24)  # 226,394,112 FLOPs
    # no dropout, no recompute: generic 4 × 3 = 12, Megatron 3.5 + 6 = 9.5
    m0 = _gpt(dropout=False).facts
    saving0, _ = T.megatron_attention_core(m0, 2048, 2048, 0.0, ScalarOps)
    assert saving0 == pytest.approx(2.5 * 2 * 24 * 2048)


def _layout(r):
    kw, _ = T.time_kwargs(r)
    common = dict(tp=1, pp=1, cp=1, ep=1, dp=8, sp=False, grad_accum=1, vpp=1, num_gpus=8, gpus_per_node=8,
                  offload=False, recompute=2, mbs=1, zero=0)  # 2: full
    return T.time_layout(r.facts, **{k: v for k, v in kw.items() if k not in T.GPU_TIME_ARGS}, **common)


def test_layout_applies_the_core_only_to_megatron_without_flash():
    meg, base = _layout(_gpt()), _layout(_gpt(framework="megatron", flash=True))
    plain = _layout(_gpt(framework="fsdp"))
    passes = 3 + 1  # forward, backward (2), recompute forward
    # attention FLOPs: the causal count plus the square's other half on every pass
    causal_attn = base["attn_tok"]
    assert meg["attn_tok"] - causal_attn == pytest.approx(passes * 2 * 1023.5 * 4608 * 24)
    assert meg["hflops_tok"] - base["hflops_tok"] == pytest.approx(passes * 2 * 1023.5 * 4608 * 24)
    # a non-Megatron stack without flash keeps the causal count
    assert plain["attn_tok"] == pytest.approx(causal_attn)
    # the score traffic: Megatron moves 5.5 element passes less per score, 24 layers (eager FSDP: generic)
    meg_ew = meg["mem_tok_bytes"]
    base_no_core = meg_ew + 5.5 * 2 * 24 * 2048 * 24
    flash_free_generic = base["mem_tok_bytes"] + 26 * 2 * 24 * 2048 * 24  # flash drops the scores entirely
    assert base_no_core == pytest.approx(flash_free_generic)


def test_sc21_table1_settings_in_the_bench():
    sys.path.insert(0, str(ROOT / "bench"))
    import validate_time as V

    row = {"id": "megatron-ptdp-t1-76.1b", "hidden_size": 10240, "num_layers": 60, "num_heads": 80,
           "num_gpus": 512, "tp": 8, "pp": 4, "micro_batch_size": None, "zero_stage": 0,
           "method_details": "interleaved pipeline schedule + scatter/gather optimization",
           "global_batch_size": 1792, "model_name": "gpt-76b", "vocab_size": 51200, "seq_len": 2048, "dp": 16}
    d, _ = V.megatron_scenario(row)
    # run_table_1.sh: MBS 2, --num-layers-per-virtual-pipeline-stage 5 → 15 layers per stage / 5 = 3 chunks
    assert d["training"]["micro_batch_size"] == 2 and d["parallel"]["vpp"] == 3
    assert d["training"]["overlap_grad_reduce"] is False
    small = dict(row, id="megatron-ptdp-t1-18.4b", hidden_size=6144, num_layers=40, num_heads=48, num_gpus=256,
                 pp=1, global_batch_size=1024)
    d, _ = V.megatron_scenario(small)
    # MBS 8, DDP-impl torch: PyTorch DDP's bucketed all-reduce runs during the (last) backward
    assert d["training"]["micro_batch_size"] == 8 and d["training"]["overlap_grad_reduce"] is True
    assert d["parallel"]["vpp"] == 1

"""Published peak-memory figures of pretraining runs outside the shared calibration set (torchtitan), as scenarios.

Each row: (family, row id, scenario, published GiB, source). torchtitan's logged memory reads
``torch.cuda.max_memory_reserved`` (torchtitan ``metrics.py``/``DeviceMemoryMonitor``: "memory: {max_reserved_gib}GiB"),
so the core's reserved figure is compared; Megatron-LM's rows are max allocated (their scenario's
``assumptions.memory_metric``). Imported by bench/validate_memory.py.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def _validate_time():
    """bench/validate_time.py (its ``_tt`` scenario builder and the December 2024 torchtitan table)."""
    name = "validate_time_for_memory"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("validate_time.py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def rows() -> list[tuple[str, str, dict, float, str]]:
    vt = _validate_time()
    tt, f8 = vt._tt, vt._F8
    out = []
    src = ("pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md (torchtitan 9dec370, torch 1963fc8; "
           "96 GB H100s; max over all ranks)")
    for label, sc, _tps, gib, _bt, _bg in vt.TORCHTITAN_SANITY:
        out.append(("torchtitan Dec 2024 table", label, sc, gib, src))
    src = "torchtitan 7a04053 float8 docs (docs/float8.md, Jan 2025): Llama 3 8B, 8 H100, per-op SAC, batch 1 × 8192"
    out.append(("torchtitan 7a04053 (8B, 8 H100)", "7a04053 8B BF16", tt("llama-3.1-8b", 8, 8192, 1), 47.65, src))
    out.append(("torchtitan 7a04053 (8B, 8 H100)", "7a04053 8B FP8 tensorwise + FP8 all-gather",
                tt("llama-3.1-8b", 8, 8192, 1, precision=f8, fp8_all_gather=True), 47.32, src))
    # e7c0cae (June 2025) and 6fc499f (Aug 2025) compile the loss with the model (compile_loss: torchtitan's default)
    src = ("pytorch/torchtitan benchmarks/llama3-8b_h200_202506_trainy-whitefiber.md (torchtitan e7c0cae): local "
           "batch 2 × 8192, compile, float8 tensorwise with FP8 all-gather, per-op SAC (llama3_8b.toml)")
    for n, gib in ((32, 47.96), (64, 46.97)):
        sc = tt("llama-3.1-8b", n, 8192, 2, mbs=2, precision=f8, fp8_all_gather=True, compile_loss=None)
        sc["hardware"]["gpu"] = "h200-sxm-141gb"
        out.append(("torchtitan Trainy H200 (Jun 2025)", f"Trainy 8B {n} H200 FP8", sc, gib, src))
    src = ("pytorch/ao torchao/prototype/mx_formats/README.md, 'Training e2e benchmarks on NVIDIA B200' (torchtitan "
           "6fc499f, Aug 2025; also torchtitan mxfp8 docs): Llama 3 8B, 8 B200, batch 1 × 8192, compile, FSDP2, "
           "per-op SAC; 'Peak Memory (GB)' as torchtitan logs it (GiB)")
    for label, prec, extra, gib in (("bf16", "bf16", {}, 33.71),
                                    ("FP8 tensorwise + FP8 all-gather", f8, {"fp8_all_gather": True}, 33.38),
                                    ("FP8 rowwise", "fp8_rowwise", {}, 33.72)):
        sc = tt("llama-3.1-8b", 8, 8192, 1, precision=prec, compile_loss=None, **extra)
        sc["hardware"]["gpu"] = "b200-180gb"
        out.append(("torchao B200 (torchtitan Aug 2025)", f"B200 8B {label}", sc, gib, src))
    # Megatron-LM's functional tests record each run's memory from the tensorboard log, which the last rank
    # writes (``global_vars._set_tensorboard_writer``: rank == world_size − 1), as torch.cuda.max_memory_allocated
    src = ("NVIDIA/Megatron-LM tests/functional_tests/test_cases/gpt/gpt3_7b_tp1_pp4_memory_speed and "
           "gpt3_7b_tp4_pp1_memory_speed (model_config.yaml; golden_values_dev_dgx_h100.json / _a100.json, "
           "'mem-max-allocated-bytes' at step 25, commit 6e091e1b68, May 2026): "
           "8 GPUs, 32 layers × 4096, GQA 8, GELU 4h MLP, untied 131,073-token vocabulary, sequence 8192, global "
           "batch 8, bf16, distributed optimizer, no recompute; compared as max allocated on the last rank")
    for tp, pp, vpp, mbs, gpu, pub in (("tp1_pp4", 4, 8, 1, "h100", 56.55), ("tp1_pp4", 4, 8, 1, "a100", 56.33),
                                       ("tp4_pp1", 1, 1, 2, "h100", 53.22), ("tp4_pp1", 1, 1, 2, "a100", 54.19)):
        out.append(("Megatron-LM functional tests (7B, 8 GPUs)", f"gpt3_7b_{tp} {gpu.upper()}",
                    megatron_7b_test(int(tp[2]), pp, vpp, mbs, gpu), pub, src))
    return out


def megatron_7b_test(tp: int, pp: int, vpp: int, mbs: int, gpu: str) -> dict:
    """Megatron-LM's ``gpt3_7b_*_memory_speed`` functional test as a scenario: the arguments Megatron's defaults
    fill in (``megatron/training/arguments.py``): ``--ffn-hidden-size`` 4 × hidden, GELU, LayerNorm, learned
    absolute positions, biases, dropout 0.1; the vocabulary padded to a multiple of 128 × TP
    (``--make-vocab-size-divisible-by`` 128); ``--num-layers-per-virtual-pipeline-stage 1`` on PP 4 = 8 model
    chunks per rank. The GPT-3 preset supplies the GPT-2-style layer (learned positions, biases, dropout)."""
    vocab = -(-131073 // (128 * tp)) * 128 * tp
    return {"model": {"preset": "gpt3-175b", "name": "Megatron functional-test GPT 7B", "hidden_size": 4096,
                      "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
                      "intermediate_size": 16384, "vocab_size": vocab, "tie_word_embeddings": False,
                      "max_position_embeddings": 8192},
            "training": {"framework": "megatron", "seq_len": 8192, "micro_batch_size": mbs, "global_batch_size": 8,
                         "recompute": "none", "precision": "bf16"},
            "parallel": {"tp": tp, "pp": pp, "vpp": vpp, "zero": 1, "sequence_parallel": False},
            "hardware": {"gpu": {"h100": "h100-sxm-80gb", "a100": "a100-sxm-80gb"}[gpu], "num_gpus": 8},
            "assumptions": {"memory_metric": "allocated"}}

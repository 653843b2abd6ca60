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


def _root_unit(sc: dict) -> dict:
    """A copy of a torchtitan scenario from before 83e694105 (July 2025), whose ``apply_fsdp`` left the token
    embedding in the root unit with the final norm and output (``training.fsdp_root_embedding``)."""
    return {**sc, "training": {**sc["training"], "fsdp_root_embedding": True}}


def rows() -> list[tuple[str, str, dict, float, str]]:
    vt = _validate_time()
    tt, f8 = vt._tt, vt._F8
    out = []
    src = ("pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md (torchtitan 9dec370, torch 1963fc8; "
           "96 GB H100s; max over all ranks)")
    # the source's own card (96 GB Grand Teton H100, TORCHTITAN_SANITY_CARD): the rows reach 84 GiB reserved, more
    # than the catalogue's 80 GiB H100 holds (issue 35 round 18, memoos18: the allocator's free segments are capped
    # at what the scenario's card leaves, memory.allocator_cache_bytes)
    for label, sc, _tps, gib, _bt, _bg in vt.TORCHTITAN_SANITY_CARD:
        out.append(("torchtitan Dec 2024 table", label, _root_unit(sc), gib, src))
    src = "torchtitan 7a04053 float8 docs (docs/float8.md, Jan 2025): Llama 3 8B, 8 H100, per-op SAC, batch 1 × 8192"
    out.append(("torchtitan 7a04053 (8B, 8 H100)", "7a04053 8B BF16", _root_unit(tt("llama-3.1-8b", 8, 8192, 1)), 47.65, src))
    out.append(("torchtitan 7a04053 (8B, 8 H100)", "7a04053 8B FP8 tensorwise + FP8 all-gather",
                _root_unit(tt("llama-3.1-8b", 8, 8192, 1, precision=f8, fp8_all_gather=True)), 47.32, src))
    # e7c0cae (June 2025) and 6fc499f (Aug 2025) compile the loss with the model (compile_loss: torchtitan's default)
    src = ("pytorch/torchtitan benchmarks/llama3-8b_h200_202506_trainy-whitefiber.md (torchtitan e7c0cae): local "
           "batch 2 × 8192, compile, float8 tensorwise with FP8 all-gather, per-op SAC (llama3_8b.toml)")
    for n, gib in ((32, 47.96), (64, 46.97)):
        sc = tt("llama-3.1-8b", n, 8192, 2, mbs=2, precision=f8, fp8_all_gather=True, compile_loss=None)
        sc["hardware"]["gpu"] = "h200-sxm-141gb"
        out.append(("torchtitan Trainy H200 (Jun 2025)", f"Trainy 8B {n} H200 FP8", _root_unit(sc), gib, src))
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
            "assumptions": {"memory_metric": "allocated_last"}}


def rows_r6() -> list[tuple[str, str, dict, float, str]]:
    """Issue 35 round 6: published pretraining peaks not used before (same tuple as :func:`rows`). What a source
    does not state is the tool's default, or marked ASSUMED in the row's source text."""
    vt = _validate_time()
    tt, f8 = vt._tt, vt._F8
    out = []
    # torchao docs/source/workflows/training.md, 'e2e training benchmarks', NVIDIA H100 (torch 2.7.0a0 b98af95,
    # torchtitan 0.0.2, i.e. before the loss was compiled, bbb1b616): the bf16 row (47.65) is the 7a04053 row above
    src = ("pytorch/ao docs/source/workflows/training.md 'e2e training benchmarks', NVIDIA H100 (torchao 0.10.0+git890e0ac8,"
           " torch 2.7.0a0+gitb98af95, torchtitan 0.0.2): Llama 3 8B, 8 H100, batch 1 × 8192, compile (model; the loss "
           "was compiled from bbb1b616, April 2025, later than 0.0.2), FSDP2, per-op SAC; 'Peak Memory (GB)' as "
           "torchtitan logs it (GiB, max reserved)")
    out.append(("torchao docs H100 (torchtitan 0.0.2)", "H100 8B FP8 tensorwise + FP8 all-gather",
                _root_unit(tt("llama-3.1-8b", 8, 8192, 1, precision=f8, fp8_all_gather=True)), 47.77, src))
    out.append(("torchao docs H100 (torchtitan 0.0.2)", "H100 8B FP8 rowwise",
                _root_unit(tt("llama-3.1-8b", 8, 8192, 1, precision="fp8_rowwise")), 47.79, src))
    src = ("pytorch/ao docs/source/workflows/training.md 'e2e training benchmarks', AMD MI300x (torch 2.9.0.dev20250811"
           "+rocm6.4, torchao 0.13.0+git4fc4068d6, torchtitan 2c8b594, Aug 2025): Llama 3 8B, 8 MI300X, batch 1 × 8192, "
           "compile (model and loss: torchtitan's default then), FSDP2, per-op SAC; GiB as torchtitan logs it; no expandable "
           "segments on ROCm before PyTorch 2.11 (pytorch#177974)")
    for label, prec, extra, gib in (("bf16", "bf16", {}, 39.09),
                                    ("FP8 tensorwise + FP8 all-gather", f8, {"fp8_all_gather": True}, 39.07),
                                    ("FP8 rowwise", "fp8_rowwise", {}, 39.32)):
        sc = tt("llama-3.1-8b", 8, 8192, 1, precision=prec, compile_loss=None, **extra)
        sc["hardware"]["gpu"] = "mi300x-192gb"
        # PyTorch's caching allocator had no expandable segments on ROCm before pytorch#173330 / #177974 (2026,
        # release 2.11: the HIP virtual-memory calls); torch 2.9.0.dev + ROCm 6.4 ignored run_train.sh's
        # expandable_segments:True and kept fixed segments (the allocator's fragmentation share)
        sc["assumptions"] = {**sc["assumptions"], "expandable_segments": False}
        out.append(("torchao docs MI300X (torchtitan Aug 2025)", f"MI300X 8B {label}", sc, gib, src))
    src = ("pytorch/torchtitan torchtitan/components/quantization/mxfp8.md 'Dense Models' (torchtitan 6fc499f, Aug 2025; "
           "the torchao B200 table): Llama 3 8B, 8 B200, batch 1 × 8192, compile, FSDP2, per-op SAC, mxfp8_cublas; "
           "ASSUMED: mapped as torchao's dynamic-cast recipe (fp8_rowwise: nothing kept between steps, 16-bit inputs "
           "saved), the nearest recipe the scenario offers")
    sc = tt("llama-3.1-8b", 8, 8192, 1, precision="fp8_rowwise", compile_loss=None)
    sc["hardware"]["gpu"] = "b200-180gb"
    out.append(("torchao B200 (torchtitan Aug 2025)", "B200 8B MXFP8 (cublas)", sc, 33.88, src))
    # torchao torchao/prototype/float8nocompile/README.md (Feb 2025; torchtitan PR #778, Jan 2025): eager bf16
    # against float8 + torch.compile under three activation-checkpointing settings
    src = ("pytorch/ao torchao/prototype/float8nocompile/README.md 'Performance benchmarks' (d99785c0f, Feb 2025; "
           "torchtitan PR #778): Llama 3 8B (named in PR #778), 8 H100 (the README; the PR's text says 4, which the "
           "full-AC figures rule out), batch 1 (llama3_8b.toml), sequence 4096; 'Peak memory (GB)' as torchtitan logs "
           "it (GiB, max reserved); the loss not compiled (Jan 2025); float8 = torchao tensorwise without FP8 "
           "all-gather (ASSUMED: not stated, off by default)")
    for rec, label, eager, comp in (("none", "no AC", 53.12, 46.64), ("layer_sac", "AC every 2nd layer", 40.6, 37.38),
                                    ("full", "full AC", 28.07, 28.03)):
        out.append(("torchao float8nocompile (8B, 8 H100, Feb 2025)", f"8B s4096 {label}, bf16 eager",
                    _root_unit(tt("llama-3.1-8b", 8, 4096, 1, rec=rec, compile_=False)), eager, src))
        out.append(("torchao float8nocompile (8B, 8 H100, Feb 2025)", f"8B s4096 {label}, float8 + compile",
                    _root_unit(tt("llama-3.1-8b", 8, 4096, 1, rec=rec, precision=f8)), comp, src))
    # torchtitan torchtitan/components/quantization/nvfp4.md (73aed7f6c, Aug 2026): the BF16 and MXFP8 baselines
    src = ("pytorch/torchtitan torchtitan/components/quantization/nvfp4.md (73aed7f6c, Aug 2026; torch 2.14.0a0, torchao "
           "0.18.0): 'eager + torch.compile' runs, FSDP 4, sequence 2048, llama3_8b / qwen3_8b configs: per-op SAC "
           "(SelectiveAC), torchtitan's chunked cross-entropy (ChunkedCELoss, 8 chunks, default since 786e26f8e, "
           "April 2026), compile.components ['model'] (loss eager); Llama 3 8B local batch 32, Qwen3 8B local batch "
           "16; 'Memory' / 'Peak Reserved Memory' GiB. ASSUMED: GB200 (the logged share puts the device at 184.3 GiB); "
           "MXFP8 mapped as torchao's dynamic cast (fp8_rowwise). Left out: Llama MXFP8 (179.94 GiB, 97.6% of the "
           "device: the allocator at its limit)")
    for model, lbs, label, prec, gib in (("llama-3.1-8b", 32, "Llama 3 8B BF16", "bf16", 174.49),
                                          ("qwen3-8b", 16, "Qwen3 8B BF16", "bf16", 112.88),
                                          ("qwen3-8b", 16, "Qwen3 8B MXFP8", "fp8_rowwise", 112.63)):
        sc = tt(model, 4, 2048, lbs, mbs=lbs, precision=prec, compile_loss=False, chunked_loss=True)
        sc["hardware"]["gpu"] = "gb200-186gb"
        out.append(("torchtitan nvfp4 docs (Aug 2026, FSDP 4)", label, sc, gib, src))
    # Megatron-LM gpt3_15b_8t_release: logged on the last rank (tensorboard writer), PP 1
    src = ("NVIDIA/Megatron-LM tests/functional_tests/test_cases/gpt/gpt3_15b_8t_release(_sm) (model_config.yaml; "
           "golden_values_dev_dgx_h100.json, _lts_dgx_a100.json, _sm/_dev_dgx_gb200.json, 'mem-max-allocated-bytes' "
           "from step 5, d98e8a64dd, Aug 2026): 32 layers × 6144, 48 heads, GQA 8, squared-ReLU 4h MLP, no biases, "
           "LayerNorm (1p), RoPE, untied 256,000-token vocabulary (nemotron_2_256k), sequence 4096, micro-batch 4, "
           "batch 384, TP 8 + SP, PP 1, distributed optimizer, bf16, no recompute, no dropout. ASSUMED: 128 GPUs "
           "(DP 16; not in the config: the logged allocation after the step, 13.27 GB, is the model states at DP 16)")
    for gpu, pub_b in (("h100-sxm-80gb", 28157253632), ("a100-sxm-80gb", 28391901184), ("gb200-186gb", 28107184128)):
        out.append(("Megatron-LM gpt3_15b_8t release test", f"15B TP8 mbs4 {gpu.split('-')[0].upper()}",
                    megatron_15b_test(gpu), pub_b / 2**30, src))
    return out


def megatron_15b_test(gpu: str) -> dict:
    """Megatron-LM's ``gpt3_15b_8t_release`` test as a scenario (arguments in :func:`rows_r6`'s source). The
    vocabulary is padded to a multiple of 128 × TP (``--make-vocab-size-divisible-by`` 128); the layer is a
    Llama-style one with a plain squared-ReLU MLP and LayerNorm, without dropout (``--hidden-dropout 0``)."""
    return {"model": {"preset": "llama-3.1-8b", "name": "Megatron functional-test GPT 15B", "hidden_size": 6144,
                      "num_hidden_layers": 32, "num_attention_heads": 48, "num_key_value_heads": 8,
                      "intermediate_size": 24576, "gated_mlp": False, "hidden_act": "relu2", "norm_type": "layernorm",
                      "vocab_size": -(-256000 // 1024) * 1024, "tie_word_embeddings": False,
                      "attention_bias": False, "attention_out_bias": False, "mlp_bias": False,
                      "position_embedding": "rope", "max_position_embeddings": 4096},
            "training": {"framework": "megatron", "seq_len": 4096, "micro_batch_size": 4, "global_batch_size": 384,
                         "recompute": "none", "precision": "bf16"},
            "parallel": {"tp": 8, "pp": 1, "zero": 1, "sequence_parallel": True},
            "hardware": {"gpu": gpu, "num_gpus": 128},
            "assumptions": {"memory_metric": "allocated_last"}}


def megatron_mixtral_test(preset: str, vocab: int, tp: int, pp: int, vpp: int, ep: int, etp: int, gbs: int,
                          gpu: str, num_gpus: int) -> dict:
    """A Megatron-LM Mixtral release test (``tests/functional_tests/test_cases/mixtral/*_release``) as a scenario:
    mbs 1, sequence 4096, TP + SP, the distributed optimizer, no recompute, bf16, alltoall dispatcher, grouped GEMM,
    top-2 of 8 experts, untied embeddings, RMSNorm, SwiGLU, no biases, RoPE (the model_config.yaml). The vocabulary
    is padded to a multiple of 128 × TP (``--make-vocab-size-divisible-by`` 128); ``--expert-tensor-parallel-size``
    defaults to TP (megatron/training/arguments.py)."""
    return {"model": {"preset": preset, "vocab_size": -(-vocab // (128 * tp)) * 128 * tp,
                      "max_position_embeddings": 4096},
            "training": {"framework": "megatron", "seq_len": 4096, "micro_batch_size": 1, "global_batch_size": gbs,
                         "recompute": "none", "precision": "bf16"},
            "parallel": {"tp": tp, "pp": pp, "vpp": vpp, "ep": ep, "expert_tp": etp, "zero": 1,
                         "sequence_parallel": True, "moe_dispatcher": "alltoall"},
            "hardware": {"gpu": gpu, "num_gpus": num_gpus},
            "assumptions": {"memory_metric": "allocated_last"}}


#: Megatron-LM's Mixtral release tests (NVIDIA/Megatron-LM@d98e8a64dd, golden values last changed 93ebf8d72f,
#: Aug 2026): (test case, preset, tokenizer vocabulary, tp, pp, vpp, ep, etp, global batch, ASSUMED GPUs,
#: {gpu: (the largest 'mem-max-allocated-bytes' over the logged steps, 'mem-allocated-bytes' at the last one)}).
#: The 8x7B alltoall run resumes from checkpoints (ft_launcher): its peak restarts with each job (last step:
#: 25,603,858,432 B on H100, 25,339,500,544 B on A100); the largest logged is taken, as for the other two
MIXTRAL_RELEASE = (
    ("mixtral_8x7b_alltoall_tp2pp4ep4_release", "mixtral-8x7b", 256000, 2, 4, 1, 4, 2, 1024, 128,
     {"h100-sxm-80gb": (26495959040.0, 17703634944.0), "a100-sxm-80gb": (26760161280.0, 17448753152.0)}),
    ("mixtral_8x7b_tp1pp4ep8vpp8_release", "mixtral-8x7b", 32000, 2, 4, 8, 8, 1, 256, 64,
     {"h100-sxm-80gb": (35505844224.0, 19743387648.0), "a100-sxm-80gb": (35900022784.0, 19085930496.0)}),
    ("mixtral_8x22b_tp2pp8ep8vpp1_release", "mixtral-8x22b", 32768, 2, 8, 1, 8, 2, 256, 128,
     {"h100-sxm-80gb": (28533706752.0, 23002929152.0), "a100-sxm-80gb": (28168466432.0, 22284785664.0)}),
)


def rows_r11() -> list[tuple[str, str, dict, float, str]]:
    """Issue 35 round 11 (memoos11): Megatron-LM's Mixtral release tests, scored before any change (same tuple as
    :func:`rows`; the published figure in GiB)."""
    src = ("NVIDIA/Megatron-LM@d98e8a64dd tests/functional_tests/test_cases/mixtral/{mixtral_8x7b_alltoall_tp2pp4ep4,"
           "mixtral_8x7b_tp1pp4ep8vpp8,mixtral_8x22b_tp2pp8ep8vpp1}_release (model_config.yaml; "
           "golden_values_dev_dgx_h100.json / _lts_dgx_a100.json, the largest 'mem-max-allocated-bytes' logged, "
           "written by the tensorboard writer on the last rank, i.e. the last pipeline stage): Mixtral 8x7B / 8x22B "
           "layers, sequence 4096, micro-batch 1, TP 2 + SP, distributed optimizer, bf16, no recompute, alltoall, "
           "grouped GEMM. ASSUMED: the GPU count (not in the config; chosen so the logged allocation after the step, "
           "'mem-allocated-bytes' = the model states, matches the distributed optimizer's shard); the tokenizer "
           "vocabularies (nemotron_2_256k: 256,000; the Llama2Tokenizer model files: Mixtral's own 32,000 / 32,768)")
    out = []
    for case, preset, vocab, tp, pp, vpp, ep, etp, gbs, n, figs in MIXTRAL_RELEASE:
        for gpu, (peak, _states) in figs.items():
            out.append(("Megatron-LM Mixtral release tests", f"{case.replace('_release', '')} {gpu.split('-')[0].upper()}",
                        megatron_mixtral_test(preset, vocab, tp, pp, vpp, ep, etp, gbs, gpu, n), peak / 2**30, src))
    return out

"""Vision-language models: the vision encoder and projector counted module by module (against published totals),
image tokens from resolution, patch and merge sizes, the tower frozen or trained, and its activations."""

from __future__ import annotations

import copy

import pytest

from gpuplanner.core.architecture import arch_from_hf_config, get_preset
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.memory import GIB
from gpuplanner.core.params import count_params, vision_layer_params, vision_params, vision_tokens_per_image
from gpuplanner.core.scenario import scenario_from_dict

QWEN2_VL_7B = get_preset("qwen2-vl-7b").config
# huggingface.co/Qwen/Qwen2-VL-2B-Instruct config.json: Qwen2-1.5B decoder (tied embeddings), the same ViT with
# a merger into 1536
QWEN2_VL_2B = {**copy.deepcopy(QWEN2_VL_7B), "hidden_size": 1536, "intermediate_size": 8960,
               "num_attention_heads": 12, "num_key_value_heads": 2, "vocab_size": 151936, "tie_word_embeddings": True}
QWEN2_VL_2B["vision_config"]["hidden_size"] = 1536
# huggingface.co/Qwen/Qwen2.5-VL-7B-Instruct config.json (vision_config keys)
QWEN25_VL_7B = {**copy.deepcopy(QWEN2_VL_7B), "model_type": "qwen2_5_vl", "vision_config": {
    "depth": 32, "hidden_act": "silu", "hidden_size": 1280, "intermediate_size": 3420, "num_heads": 16,
    "in_chans": 3, "out_hidden_size": 3584, "patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2,
    "window_size": 112, "fullatt_block_indexes": [7, 15, 23, 31]}}
# huggingface.co/llava-hf/llava-1.5-7b-hf config.json (text_config gives only what differs from LlamaConfig)
LLAVA_15_7B = {
    "architectures": ["LlavaForConditionalGeneration"], "model_type": "llava", "ignore_index": -100,
    "image_token_index": 32000, "projector_hidden_act": "gelu", "tie_word_embeddings": False,
    "text_config": {"_name_or_path": "lmsys/vicuna-7b-v1.5", "architectures": ["LlamaForCausalLM"],
                    "max_position_embeddings": 4096, "model_type": "llama", "rms_norm_eps": 1e-05,
                    "torch_dtype": "float16", "vocab_size": 32064},
    "vision_config": {"hidden_size": 1024, "image_size": 336, "intermediate_size": 4096,
                      "model_type": "clip_vision_model", "num_attention_heads": 16, "num_hidden_layers": 24,
                      "patch_size": 14, "projection_dim": 768, "vocab_size": 32000},
    "vision_feature_layer": -2, "vision_feature_select_strategy": "default", "vocab_size": 32064}


def test_qwen2_vl_7b_exact_against_its_checkpoint():
    a = arch_from_hf_config(QWEN2_VL_7B)
    p = count_params(a)
    assert a.vision_kind == "qwen2_vl" and a.unrecognised == "" and a.uncounted == ""
    # by hand (modeling_qwen2_vl.py): block = 2 LayerNorms 2·2·1280 + qkv 1280·3840+3840 + proj 1280²+1280
    # + fc1 1280·5120+5120 + fc2 5120·1280+1280 = 19,677,440; 32 blocks; Conv3d 3·2·14·14·1280 = 1,505,280
    block = 2 * 2 * 1280 + (1280 * 3840 + 3840) + (1280 * 1280 + 1280) + (1280 * 5120 + 5120) + (5120 * 1280 + 1280)
    assert vision_layer_params(a) == block == 19_677_440
    assert p.vision == 32 * block + 3 * 2 * 14 * 14 * 1280
    # merger: LayerNorm(1280) + Linear(5120, 5120) + Linear(5120, 3584), biases
    assert p.projector == 2 * 1280 + (5120 * 5120 + 5120) + (5120 * 3584 + 3584)
    # Qwen2-VL paper: a 675M vision encoder; the language model is Qwen2-7B's 7,615,616,512
    assert (p.vision + p.projector) / 1e6 == pytest.approx(675, abs=1)
    assert p.language == get_preset("qwen2.5-7b").published_total
    # published: model.safetensors.index.json total_size 16,582,751,232 bytes in bf16 (8.29B on the model card)
    assert p.total == 16_582_751_232 // 2


@pytest.mark.parametrize("cfg, published", [
    (QWEN2_VL_2B, 2.21e9),     # Qwen/Qwen2-VL-2B-Instruct model card: 2.21B params
    (QWEN25_VL_7B, 8.29e9),    # Qwen/Qwen2.5-VL-7B-Instruct model card: 8.29B params
    (LLAVA_15_7B, 7.06e9),     # llava-hf/llava-1.5-7b-hf model card: 7.06B params
])
def test_published_totals_within_one_percent(cfg, published):
    p = count_params(arch_from_hf_config(cfg))
    assert p.total == pytest.approx(published, rel=0.01)
    assert p.vision > 0 and p.projector > 0


def test_llava_by_hand():
    a = arch_from_hf_config(LLAVA_15_7B)
    p = count_params(a)
    # CLIP ViT-L/14-336: class embedding 1024, Conv2d 3·14·14·1024, 577 positions, pre/post LayerNorm, 24 layers
    # of q,k,v,o with biases, 2 LayerNorms and fc1/fc2 with biases
    layer = 4 * (1024 * 1024 + 1024) + 2 * 2 * 1024 + (1024 * 4096 + 4096) + (4096 * 1024 + 1024)
    assert p.vision == 1024 + 3 * 14 * 14 * 1024 + 577 * 1024 + 2 * 2 * 1024 + 24 * layer
    assert p.projector == (1024 * 4096 + 4096) + (4096 * 4096 + 4096)
    # Vicuna-7B: LlamaConfig defaults for what text_config does not give, vocabulary 32,064
    assert (a.hidden_size, a.num_layers, a.intermediate_size, a.vocab_size) == (4096, 32, 11008, 32064)
    assert p.language == get_preset("llama-2-7b").published_total + 64 * 4096 * 2


def test_image_tokens_from_resolution_patch_and_merge():
    q = arch_from_hf_config(QWEN2_VL_7B)
    # 448 px: 448/28 = 16 → 16² = 256 tokens from 32² = 1024 patches (2×2 merge)
    assert vision_tokens_per_image(q, 448) == (1024, 256)
    # smart_resize rounds each side to the nearest multiple of 28: 500 → 504 = 18·28
    assert vision_tokens_per_image(q, 500) == (18 * 18 * 4, 18 * 18)
    # LLaVA-1.5: CLIP at 336 px, patch 14 → 576 tokens whatever the input size
    assert vision_tokens_per_image(arch_from_hf_config(LLAVA_15_7B), 1000) == (576, 576)
    assert vision_tokens_per_image(get_preset("llama-2-7b").arch, 448) == (0, 0)


def _vl(**training):
    data = {"images_per_sample": training.pop("images", 1), "image_resolution": training.pop("res", 448)}
    s = {"model": {"preset": "qwen2-vl-7b"}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1},
         "training": {"seq_len": 2048, "framework": "deepspeed", **training}, "data": data}
    return evaluate(scenario_from_dict(s))


def test_frozen_tower_keeps_weights_only_and_trains_the_rest():
    frozen = _vl()
    trained = _vl(freeze_vision=False, freeze_projector=False)
    p = frozen.params
    assert frozen.trainable == p.language and trained.trainable == p.total
    # DeepSpeed convention (ZeRO paper): 2 bytes of 16-bit weights for every parameter; gradients (2) and
    # Adam with fp32 master (12) for the trained ones only
    assert frozen.memory.weights * GIB == pytest.approx(2 * p.total)
    assert frozen.memory.gradients * GIB == pytest.approx(2 * p.language)
    assert trained.memory.gradients * GIB == pytest.approx(2 * p.total)
    assert (trained.memory.optimizer - frozen.memory.optimizer) * GIB == pytest.approx(
        12 * (p.vision + p.projector))


def test_vision_activations_only_when_the_tower_trains():
    base = _vl(images=0)
    frozen = _vl()
    assert frozen.memory.activations == pytest.approx(base.memory.activations)  # autograd saves nothing
    trained = _vl(freeze_vision=False, freeze_projector=False)
    w, i, heads, layers = 1280, 5120, 16, 32
    patches, tokens = 1024, 256  # one 448 px image
    # bf16, SDPA, per patch and block (memory.vision_block_bytes_per_patch; measured exactly on small towers in
    # tests_validate/test_pytorch_vision.py): 2 LayerNorms (input 2w + stats 4), their outputs read by qkv
    # and fc1 (2·2w), the fused qkv output (6w) and q, k after RoPE (4w), attention output and proj input
    # (4w), log-sum-exp (4·heads), QuickGELU's fc1 output, sigmoid and product (6i)
    block = 2 * (2 * w + 4) + 4 * w + 10 * w + 4 * w + 4 * heads + 6 * i
    assert block == 22 * w + 6 * i + 8 + 4 * heads
    pixels = 2 * 3 * 2 * 14 * 14  # the Conv3d's input
    rope = 2 * 4 * (w // heads)   # cos and sin in fp32
    merger = patches * ((2 * w + 4) + 2 * w) + tokens * 2 * 2 * (4 * w)  # ln_q input/stats/output; GELU in/out
    assert (trained.memory.activations - base.memory.activations) * GIB == pytest.approx(
        patches * (layers * block + pixels + rope) + merger, rel=1e-9)
    # full recomputation keeps each block's input only
    rc = _vl(freeze_vision=False, freeze_projector=False, recompute="full")
    rc0 = _vl(images=0, recompute="full")
    assert (rc.memory.activations - rc0.memory.activations) * GIB == pytest.approx(
        patches * (layers * 2 * w + pixels + rope) + merger, rel=1e-9)
    # four images: four times the tower's activations
    four = _vl(freeze_vision=False, freeze_projector=False, images=4)
    assert (four.memory.activations - base.memory.activations) == pytest.approx(
        4 * (trained.memory.activations - base.memory.activations), rel=1e-6)


def test_lora_keeps_the_tower_frozen():
    lo = _vl(method="lora", freeze_vision=False)
    assert lo.trainable < 100e6
    assert lo.memory.activations == pytest.approx(_vl(method="lora", images=0).memory.activations)
    # the same language model without the tower (Qwen2.5-7B has Qwen2-VL-7B's decoder): the difference is the
    # tower's 16-bit weights (LoRA loads the model in bf16 and adapts the language model only)
    text = evaluate(scenario_from_dict({"model": {"preset": "qwen2.5-7b"}, "hardware": {"gpu": "h100-sxm-80gb"},
                                        "training": {"seq_len": 2048, "framework": "deepspeed", "method": "lora"}}))
    assert lo.trainable == text.trainable
    assert (lo.memory.weights - text.memory.weights) * GIB == pytest.approx(
        2 * (lo.params.vision + lo.params.projector), rel=1e-9)


def test_too_many_image_tokens_is_said():
    ev = _vl(images=4, res=896, seq_len=2048)  # 4 × 32² = 4,096 tokens
    assert any("images take 4,096 tokens" in w.render() for w in ev.warnings)
    assert not _vl(images=1).warnings


@pytest.mark.parametrize("training", [
    {"freeze_vision": False, "freeze_projector": False, "recompute": "full"},
    {"freeze_vision": True, "method": "full", "framework": "fsdp"},
    {"method": "lora", "framework": "hf"},
    {"freeze_vision": False, "framework": "megatron", "recompute": "selective"},
])
def test_vectorised_search_equals_evaluate_for_a_vlm(training):
    """One plan, one answer for a vision-language model: the search's candidate arrays equal ``evaluate`` of
    each candidate's complete scenario (TP, PP, ZeRO, recompute vary across candidates)."""
    import math
    from dataclasses import replace

    import numpy as np

    from gpuplanner.core import search as S

    s = scenario_from_dict({"model": {"preset": "qwen2-vl-7b"}, "training": {"seq_len": 4096, **training},
                            "data": {"images_per_sample": 2, "image_resolution": 672},
                            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8},
                            "constraints": {"max_gpus": 32, "gpu_candidates": ["h100-sxm-80gb", "rtx-4090-24gb"]}})
    rng = np.random.default_rng(3)
    checked = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        if not len(c["tp"]):
            continue
        vec = S.evaluate_candidates(ctx, c)
        for i in rng.choice(len(c["tp"]), size=min(60, len(c["tp"])), replace=False):
            sc = S.candidate_scenario(ctx, c, int(i))
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert math.isclose(vec["mem_gib"][i], ev.memory.total, rel_tol=1e-9), (sc.parallel, sc.training)
            checked += 1
    assert checked >= 100


def test_a_moved_plan_keeps_the_vision_tower_and_the_intake_notes(tmp_path):
    """A plan whose model folder is missing estimates from its embedded architecture: the vision encoder and what
    the intake did not know travel with it (the scenario's explicit model fields), nothing is dropped silently."""
    import json as _json
    import shutil

    from gpuplanner.io import planfile
    from gpuplanner.io.model_files import ModelFiles
    from gpuplanner.io.scenario_files import load_scenario

    def plan_for(cfg: dict, name: str) -> tuple:
        folder = tmp_path / name / "model"
        folder.mkdir(parents=True)
        (folder / "config.json").write_text(_json.dumps(cfg))
        doc = planfile.PlanDocument(scenario=scenario_from_dict(
            {"model": {"hf_config": "model"}, "training": {"freeze_vision": False, "seq_len": 8192},
             "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}))
        planfile.save(doc, tmp_path / name / "p.gpuplan")
        here = evaluate(*load_scenario(tmp_path / name / "p.gpuplan"))
        shutil.rmtree(folder)  # the plan travels without the model
        moved = evaluate(*load_scenario(tmp_path / name / "p.gpuplan"))
        return here, moved

    here, moved = plan_for(QWEN2_VL_7B, "vl")
    assert moved.params.total == here.params.total == 16_582_751_232 // 2
    assert moved.params.vision == here.params.vision and moved.trainable == here.trainable
    assert moved.memory.total == pytest.approx(here.memory.total, rel=1e-12)
    here, moved = plan_for({"model_type": "olmo_new", "hidden_size": 256, "num_hidden_layers": 2,
                            "num_attention_heads": 4, "intermediate_size": 512, "vocab_size": 1000,
                            "max_position_embeddings": 4096}, "unknown")
    for ev in (here, moved):
        texts = [w.render() for w in ev.warnings]
        assert any("'olmo_new' not recognised" in t for t in texts), texts
        assert any("context of 4,096" in t for t in texts), texts


# OpenGVLab/InternVL2_5-8B config.json (remote code: InternViT-300M-448px-V2_5 + internlm2_5-7b-chat)
INTERNVL25_8B = {
    "architectures": ["InternVLChatModel"], "model_type": "internvl_chat", "downsample_ratio": 0.5,
    "force_image_size": 448, "dynamic_image_size": True, "max_dynamic_patch": 12, "use_thumbnail": True,
    "select_layer": -1, "ps_version": "v2", "template": "internvl2_5",
    "llm_config": {"architectures": ["InternLM2ForCausalLM"], "model_type": "internlm2", "hidden_size": 4096,
                   "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 32,
                   "num_key_value_heads": 8, "vocab_size": 92553, "max_position_embeddings": 32768,
                   "rope_scaling": {"type": "dynamic", "factor": 2.0}, "bias": False,
                   "tie_word_embeddings": False, "hidden_act": "silu"},
    "vision_config": {"architectures": ["InternVisionModel"], "model_type": "intern_vit_6b", "hidden_size": 1024,
                      "intermediate_size": 4096, "num_attention_heads": 16, "num_hidden_layers": 24,
                      "image_size": 448, "patch_size": 14, "num_channels": 3, "qkv_bias": True,
                      "qk_normalization": False, "norm_type": "layer_norm", "hidden_act": "gelu"}}


def test_internvl_2_5_8b_by_hand_and_published():
    a = arch_from_hf_config(INTERNVL25_8B)
    p = count_params(a)
    assert a.vision_kind == "intern_vit" and a.unrecognised == "" and a.uncounted == ""
    w, i = 1024, 4096
    # InternViT block: 2 LayerNorms, qkv with bias, proj, fc1/fc2 with biases, ls1/ls2
    layer = 2 * 2 * w + (w * 3 * w + 3 * w) + (w * w + w) + (w * i + i) + (i * w + w) + 2 * w
    assert p.vision == 24 * layer + w + (3 * 14 * 14 * w + w) + (32 * 32 + 1) * w
    assert (p.vision / 1e6) == pytest.approx(300, rel=0.02)  # "InternViT-300M"
    m = 4 * w
    assert p.projector == 2 * m + (m * 4096 + 4096) + (4096 * 4096 + 4096)
    # InternLM2.5-7B: 7.74B; InternVL2.5-8B model page: 8.08B params
    assert p.language / 1e9 == pytest.approx(7.74, abs=0.005)
    assert p.total == pytest.approx(8.08e9, rel=0.01)
    # the language model's RoPE scaling (inside llm_config): dynamic ×2 → 65,536 tokens
    assert a.context_length == 65536


@pytest.mark.parametrize("res, tiles", [(448, 1), (896, 5), (1344, 10), (4000, 10), (600, 1)])
def test_internvl_dynamic_tiles(res, tiles):
    """dynamic_preprocess: a square image takes the k×k grid it covers more than half of (at most 12 tiles),
    plus a thumbnail when split; 1,025 patches and 256 tokens per tile (pixel shuffle 0.5)."""
    a = arch_from_hf_config(INTERNVL25_8B)
    assert vision_tokens_per_image(a, res) == (tiles * 1025, tiles * 256)

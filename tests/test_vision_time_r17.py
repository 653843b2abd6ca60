"""Issue 35 round 17 (rlstep17): a vision-language model's vision encoder and projector in the step's FLOPs
(``timing.vision_tok_flops``). Before, the time model counted the language model's linears only, so every ViT
pass was free while the memory model held the tower's activations. Checked by hand from the parameter counts
(``bench/data/post18``: Qwen2.5-VL-7B-Instruct's config.json) and ``params.vision_tokens_per_image``."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from gpuplanner.core.estimate import estimate, resolve
from gpuplanner.core.params import vision_tokens_per_image
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.io.model_files import ModelFiles

MODELS = Path(__file__).resolve().parents[1] / "bench" / "data" / "post18"
BASE = {
    "model": {"hf_config": "qwen2.5-vl-7b/config.json"},
    "data": {"images_per_sample": 1, "image_resolution": 512},
    "training": {"objective": "sft", "method": "full", "framework": "fsdp", "precision": "bf16",
                 "seq_len": 2048, "micro_batch_size": 1, "global_batch_size": 64, "recompute": "full",
                 "freeze_vision": False, "freeze_projector": False},
    "parallel": {"zero": 3},
    "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8},
}


def _run(**changes):
    scn = copy.deepcopy(BASE)
    for path, value in changes.items():
        section, key = path.split("__")
        scn[section][key] = value
    return estimate(scenario_from_dict(scn), ModelFiles(MODELS))


def _tower_per_token() -> float:
    """Forward FLOPs of the ViT (every patch) and the merger (every merged token) per language-model token."""
    r = resolve(scenario_from_dict(copy.deepcopy(BASE)), ModelFiles(MODELS))
    p = r.params
    patches, tokens = vision_tokens_per_image(r.arch, 512)
    assert (patches, tokens) == (1296, 324)  # 512 px → 504 = 36 patches of 14 a side; 2×2 merged
    return 2.0 * (float(p.vision) * patches + float(p.projector) * tokens) / 2048.0


def test_trained_tower_costs_forward_backward_and_recompute():
    v = _tower_per_token()
    trained, frozen = _run(), _run(training__freeze_vision=True, training__freeze_projector=True)
    # trained: forward + backward (2×) + the whole-layer recompute = 4 forwards; frozen: the forward alone
    d = trained.time.hardware_flops_per_token - frozen.time.hardware_flops_per_token
    assert d == pytest.approx(3.0 * v, rel=1e-9)
    # model FLOPs (what MFU counts) take no recompute: 3 against 1
    dm = trained.time.flops_per_token - frozen.time.flops_per_token
    assert dm == pytest.approx(2.0 * v, rel=1e-9)


def test_no_image_no_tower_flops_and_frozen_is_one_forward():
    v = _tower_per_token()
    none = _run(data__images_per_sample=0, training__freeze_vision=True, training__freeze_projector=True)
    frozen = _run(training__freeze_vision=True, training__freeze_projector=True)
    d = frozen.time.hardware_flops_per_token - none.time.hardware_flops_per_token
    assert d == pytest.approx(v, rel=1e-9)
    # ~2 × 0.63 B × 1,296 / 2,048 ≈ 0.8 GFLOP a token, against the language model's ~2 × 6.5 B ≈ 13 GFLOP
    assert 0.7e9 < v < 0.9e9


def test_more_images_cost_more_and_the_step_slows():
    one, two = _run(), _run(data__images_per_sample=2)
    assert two.time.hardware_flops_per_token > one.time.hardware_flops_per_token
    assert two.time.step_time_s > one.time.step_time_s

"""Vision encoders against PyTorch itself: what a trained Qwen2-VL / Qwen2.5-VL / SigLIP vision tower saves for
backward, measured with ``saved_tensors_hooks`` on the CPU, against ``gpuplanner.core.memory``.

Each tower is built from a small config with random weights (``_from_config``, nothing downloaded), in bf16,
and runs forward on one image. Saved tensors are counted once per storage (views share their base) and
tagged by the module running: the patch embedding, each block, the merger. The parameter counts of the same
towers are compared with ``core.params.vision_params``.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from gpuplanner.core.architecture import arch_from_hf_config  # noqa: E402
from gpuplanner.core.memory import model_facts, vision_activation_bytes, vision_block_bytes_per_patch  # noqa: E402
from gpuplanner.core.params import count_params  # noqa: E402

TEXT = dict(hidden_size=256, intermediate_size=512, num_hidden_layers=2, num_attention_heads=4,
            num_key_value_heads=2, vocab_size=1000, max_position_embeddings=4096)
CASES = {
    "qwen2_vl": dict(model_type="qwen2_vl", **TEXT, vision_config=dict(
        depth=2, embed_dim=128, mlp_ratio=4, num_heads=4, hidden_size=256, patch_size=14, spatial_merge_size=2,
        temporal_patch_size=2, in_chans=3)),
    "qwen2_5_vl": dict(model_type="qwen2_5_vl", **TEXT, vision_config=dict(
        depth=2, hidden_size=128, intermediate_size=344, num_heads=4, out_hidden_size=256, patch_size=14,
        spatial_merge_size=2, temporal_patch_size=2, in_chans=3, window_size=112, fullatt_block_indexes=[0, 1])),
}
GRID = (1, 32, 32)  # one 448 px image: 1,024 patches, 256 language-model tokens


def _tower(kind: str, attn: str):
    cfg = CASES[kind]["vision_config"]
    if kind == "qwen2_vl":
        from transformers.models.qwen2_vl.configuration_qwen2_vl import Qwen2VLVisionConfig as C
        from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VisionTransformerPretrainedModel as M
    else:
        from transformers.models.qwen2_5_vl.configuration_qwen2_5_vl import Qwen2_5_VLVisionConfig as C
        from transformers.models.qwen2_5_vl.modeling_qwen2_5_vl import Qwen2_5_VisionTransformerPretrainedModel as M
    c = C(**cfg)
    c._attn_implementation = attn
    torch.manual_seed(0)
    m = M._from_config(c, dtype=torch.bfloat16)
    m.train()
    return m


def _measure(kind: str, attn: str) -> dict[str, float]:
    m = _tower(kind, attn)
    params = {p.untyped_storage().data_ptr() for p in m.parameters()}
    grid = torch.tensor([GRID])
    n = int(grid.prod())
    c = CASES[kind]["vision_config"]
    pix = torch.randn(n, c["in_chans"] * c["temporal_patch_size"] * c["patch_size"] ** 2, dtype=torch.bfloat16)
    tag = ["embed"]
    for k, blk in enumerate(m.blocks):
        blk.register_forward_pre_hook(lambda mod, a, k=k: tag.__setitem__(0, f"block{k}"))
        blk.register_forward_hook(lambda mod, a, o: tag.__setitem__(0, "merger"))
    saved: dict[int, tuple[int, str]] = {}

    def pack(t):
        st = t.untyped_storage()
        if st.data_ptr() not in params and st.data_ptr() not in saved:
            saved[st.data_ptr()] = (st.nbytes(), tag[0])
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        m(pix, grid_thw=grid)
    parts: dict[str, float] = {"params": float(sum(p.numel() for p in m.parameters()))}
    for nbytes, t in saved.values():
        parts[t] = parts.get(t, 0.0) + nbytes
    parts["total"] = sum(v for k, v in parts.items() if k != "params")
    return parts


@pytest.mark.parametrize("kind", sorted(CASES))
def test_vision_tower_parameters_exact(kind):
    a = arch_from_hf_config(CASES[kind])
    p = count_params(a)
    assert _measure(kind, "sdpa")["params"] == p.vision + p.projector


@pytest.mark.parametrize("attn", ["sdpa", "eager"])
@pytest.mark.parametrize("kind", sorted(CASES))
def test_vision_block_saved_bytes(kind, attn):
    a = arch_from_hf_config(CASES[kind])
    n = GRID[0] * GRID[1] * GRID[2]
    meas = _measure(kind, attn)
    est = vision_block_bytes_per_patch(a, "bf16", attn == "sdpa", n) * n
    # the CPU's LayerNorm keeps mean/rstd in bf16 (4 bytes a patch), as the core assumes; CUDA keeps fp32
    assert meas["block1"] == pytest.approx(est, rel=0.01), (meas, est)


@pytest.mark.parametrize("kind", sorted(CASES))
def test_whole_tower_saved_bytes(kind):
    """Patch embedding + blocks + merger for one image, through the core's vision_activation_bytes."""
    a = arch_from_hf_config(CASES[kind])
    facts = model_facts(a, count_params(a))
    n = GRID[0] * GRID[1] * GRID[2]
    meas = _measure(kind, "sdpa")
    est = vision_activation_bytes(facts, n, n // 4, 1, 1, 1, 0, "bf16", True, True, True)
    assert meas["total"] == pytest.approx(est, rel=0.01), (meas, est)


def _measure_clip_like(kind: str, attn: str) -> dict[str, float]:
    """A CLIP or SigLIP vision tower (LLaVA's), 224 px, patch 14: 256 patches (+ CLIP's class token)."""
    from transformers import CLIPVisionConfig, CLIPVisionModel, SiglipVisionConfig, SiglipVisionModel

    C, M = (CLIPVisionConfig, CLIPVisionModel) if kind == "clip" else (SiglipVisionConfig, SiglipVisionModel)
    cfg = C(hidden_size=128, intermediate_size=512, num_hidden_layers=2, num_attention_heads=4, image_size=224,
            patch_size=14)
    cfg._attn_implementation = attn
    torch.manual_seed(0)
    m = M._from_config(cfg, dtype=torch.bfloat16)
    m.train()
    params = {p.untyped_storage().data_ptr() for p in m.parameters()}
    layers = [mod for name, mod in m.named_modules() if name.rsplit(".", 2)[-2:-1] == ["layers"]]
    assert len(layers) == 2
    tag = ["embed"]
    for k, blk in enumerate(layers):
        blk.register_forward_pre_hook(lambda mod, a, k=k: tag.__setitem__(0, f"block{k}"))
        blk.register_forward_hook(lambda mod, a, o: tag.__setitem__(0, "post"))
    saved: dict[int, tuple[int, str]] = {}

    def pack(t):
        st = t.untyped_storage()
        if st.data_ptr() not in params and st.data_ptr() not in saved:
            saved[st.data_ptr()] = (st.nbytes(), tag[0])
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        m(pixel_values=torch.randn(1, 3, 224, 224, dtype=torch.bfloat16))
    parts: dict[str, float] = {}
    for nbytes, t in saved.values():
        parts[t] = parts.get(t, 0.0) + nbytes
    return parts


@pytest.mark.parametrize("attn", ["sdpa", "eager"])
@pytest.mark.parametrize("kind", ["clip", "siglip"])
def test_clip_and_siglip_block_saved_bytes(kind, attn):
    a = arch_from_hf_config({
        "model_type": "llava", "text_config": {"model_type": "llama", **TEXT},
        "vision_config": {"model_type": f"{kind}_vision_model", "hidden_size": 128, "intermediate_size": 512,
                          "num_hidden_layers": 2, "num_attention_heads": 4, "image_size": 224, "patch_size": 14}})
    n = 256 + (1 if kind == "clip" else 0)
    meas = _measure_clip_like(kind, attn)
    assert meas["block1"] == pytest.approx(vision_block_bytes_per_patch(a, "bf16", attn == "sdpa", n) * n, rel=0.01)

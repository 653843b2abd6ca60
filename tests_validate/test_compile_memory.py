"""A compiled decoder block's saved activations against ``gpuplanner.core.memory.compiled_layer_bytes``.

torchtune (``training.compile_model``) and torchtitan compile each block; AOTAutograd's min-cut partitioner keeps
the matmuls' and attention's inputs and recomputes element-wise ops in backward. One bf16 Hugging Face Llama
block (SDPA) is compiled with inductor on the CPU and what it saves is read with ``saved_tensors_hooks``
(parameters and the block's input aside; the rotary cos/sin, computed once per model, aside).
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from gpuplanner.core.architecture import ModelArch  # noqa: E402
from gpuplanner.core.memory import compiled_layer_bytes, model_facts  # noqa: E402

SHAPES = [(512, 1408, 8, 2, 512, 2), (768, 2048, 12, 4, 256, 2), (1024, 2816, 16, 16, 256, 1)]


def _saved_per_token(layer, rope, h, s, b, head_dim):
    x = torch.randn(b, s, h, dtype=torch.bfloat16, requires_grad=True)
    pos = torch.arange(s).unsqueeze(0).expand(b, s)
    cos, sin = rope(x, pos)
    skip = {x.untyped_storage().data_ptr(), cos.untyped_storage().data_ptr(), sin.untyped_storage().data_ptr()}
    skip |= {p.untyped_storage().data_ptr() for p in layer.parameters()}
    seen = {}

    def pack(t):
        st = t.untyped_storage()
        if st.data_ptr() not in skip:
            seen[st.data_ptr()] = st.nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = layer(x, position_embeddings=(cos, sin), attention_mask=None, position_ids=pos)
        out = out[0] if isinstance(out, tuple) else out
    out.float().sum().backward()
    # cos/sin may be saved as views broadcast per head: their storages are skipped above
    return sum(seen.values()) / (b * s)


@pytest.mark.parametrize("h,f,nh,kv,s,b", SHAPES)
def test_compiled_block_saves_what_the_formula_says(h, f, nh, kv, s, b):
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaDecoderLayer, LlamaRotaryEmbedding

    torch.manual_seed(0)
    cfg = LlamaConfig(hidden_size=h, intermediate_size=f, num_attention_heads=nh, num_key_value_heads=kv,
                      num_hidden_layers=1, max_position_embeddings=4096, vocab_size=1000)
    cfg._attn_implementation = "sdpa"
    layer = LlamaDecoderLayer(cfg, 0).to(torch.bfloat16)
    rope = LlamaRotaryEmbedding(cfg)
    eager = _saved_per_token(layer, rope, h, s, b, h // nh)
    try:
        compiled_layer = torch.compile(layer)
        _saved_per_token(compiled_layer, rope, h, s, b, h // nh)  # compile
    except Exception as exc:  # no C++ toolchain for inductor's CPU backend
        pytest.skip(f"torch.compile unavailable: {exc}")
    measured = _saved_per_token(compiled_layer, rope, h, s, b, h // nh)
    arch = ModelArch(name="t", model_type="llama", hidden_size=h, num_layers=1, num_heads=nh, num_kv_heads=kv,
                     head_dim=h // nh, intermediate_size=f, vocab_size=1000)
    expected = compiled_layer_bytes(model_facts(arch), 1, 1, 2.0)
    assert measured == pytest.approx(expected, rel=0.01)
    assert measured < 0.7 * eager

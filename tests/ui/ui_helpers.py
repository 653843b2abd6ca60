"""Shared helpers for the UI tests (importable: pytest puts this folder on sys.path)."""

from __future__ import annotations

import json
import struct

# A tiny Llama-style model whose parameter count is derived by hand in the tests.
TINY_CONFIG = {
    "model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 64, "num_hidden_layers": 2,
    "num_attention_heads": 4, "num_key_value_heads": 4, "intermediate_size": 256, "vocab_size": 1000,
    "tie_word_embeddings": False, "hidden_act": "silu", "rms_norm_eps": 1e-5, "torch_dtype": "bfloat16",
}
# per layer: q,k,v,o 4·64·64 = 16,384; gated MLP 3·64·256 = 49,152; two RMSNorms 2·64 = 128 -> 65,664
# 2 layers = 131,328; embeddings 1000·64 = 64,000; untied lm_head 64,000; final norm 64
TINY_PARAMS = 2 * (4 * 64 * 64 + 3 * 64 * 256 + 2 * 64) + 1000 * 64 * 2 + 64  # = 259,392


def write_safetensors(path, tensors: dict[str, list[int]], dtype: str = "BF16") -> int:
    """A valid safetensors file of zeros; returns the element count."""
    header, offset, count = {}, 0, 0
    for name, shape in tensors.items():
        n = 1
        for d in shape:
            n *= d
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + 2 * n]}
        offset += 2 * n
        count += n
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + bytes(offset))
    return count


def never_ready(conn, wanted) -> None:
    """A search process's stand-in that never says "ready" (tests/ui/test_search_process.py)."""
    import time

    time.sleep(3600)

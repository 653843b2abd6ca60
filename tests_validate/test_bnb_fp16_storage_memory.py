"""A QLoRA base stored fp16 under bf16 autocast, on the CPU (issue 35 r7, ``training.bnb_fp16_storage``).

What is checked against the core (``memory.bnb_kept_input_bytes``, ``memory.bnb_fp16_storage_kept_bytes`` and the
``2·V·h`` head copy of ``memory_arrays``):

* a frozen fp16 LM head under bf16 autocast: autograd saves a bf16 copy of the whole weight for the input gradient
  (a bf16 head saves the parameter itself, no new memory);
* 4-bit linears written the way bitsandbytes 0.41.0 to 0.43.1 is (``Linear4bit.forward`` casts its input with
  ``x.to(compute_dtype)``, ``MatMul4Bit.forward`` keeps the input as the context attribute ``ctx.tensors``), inside
  non-reentrant ``torch.utils.checkpoint``: with a bf16 residual stream each shared input is kept once; with an fp16
  residual stream every linear keeps its own bf16 copy; reentrant checkpointing keeps none.

The 4-bit weights are plain frozen bf16 matrices here: the kept inputs do not depend on the weight format. Our own
stand-ins, not bitsandbytes' code. Needs torch (CPU); skipped otherwise.
"""

from __future__ import annotations

import weakref

import pytest

torch = pytest.importorskip("torch")

from gpuplanner.core.estimate import resolve  # noqa: E402
from gpuplanner.core.memory import bnb_fp16_storage_kept_bytes, bnb_kept_input_bytes, model_facts  # noqa: E402
from gpuplanner.core.params import count_params  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

H, F, S, L, V = 256, 704, 512, 3, 4000
_KEPT: list = []


class _MatMulKeepsInput(torch.autograd.Function):
    """Forward ``A @ W.T`` and keep ``A`` as a context attribute, outside ``save_for_backward``."""

    @staticmethod
    def forward(ctx, a, w):
        out = a @ w.t()
        ctx.tensors = (a, w) if any(ctx.needs_input_grad[:2]) else (None, None)
        if ctx.tensors[0] is not None:
            _KEPT.append(weakref.ref(a))
        return out

    @staticmethod
    def backward(ctx, grad):
        _, w = ctx.tensors
        return grad @ w, None


class _Linear4bitLike(torch.nn.Module):
    def __init__(self, fan_in, fan_out):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(fan_out, fan_in, dtype=torch.bfloat16) * 0.02,
                                         requires_grad=False)

    def forward(self, x):
        inp_dtype = x.dtype
        return _MatMulKeepsInput.apply(x.to(torch.bfloat16), self.weight).to(inp_dtype)


class _Block(torch.nn.Module):
    """Qwen-1's layer shape: one fused c_attn, c_proj, then w1 and w2 on the same input and the MLP's c_proj."""

    def __init__(self):
        super().__init__()
        self.c_attn = _Linear4bitLike(H, 3 * H)
        self.attn_proj = _Linear4bitLike(H, H)
        self.w1, self.w2 = _Linear4bitLike(H, F), _Linear4bitLike(H, F)
        self.mlp_proj = _Linear4bitLike(F, H)

    def forward(self, x):
        y = self.c_attn(x)  # sliced, not chunked: chunk's backward is a cat, which CPU autocast refuses on fp16
        q, k, v = y[..., :H], y[..., H:2 * H], y[..., 2 * H:]
        x = x + self.attn_proj(q * torch.sigmoid(k) + v)
        return x + self.mlp_proj(self.w1(x) * torch.nn.functional.silu(self.w2(x)))


def _kept_bytes(dtype, reentrant: bool) -> int:
    torch.manual_seed(0)
    _KEPT.clear()
    blocks = [_Block() for _ in range(L)]
    x = torch.randn(1, S, H, dtype=dtype, requires_grad=True)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        h = x
        for b in blocks:
            h = torch.utils.checkpoint.checkpoint(b, h, use_reentrant=reentrant)
        seen, total = set(), 0
        for ref in _KEPT:
            t = ref()
            if t is not None and t.untyped_storage().data_ptr() not in seen:
                seen.add(t.untyped_storage().data_ptr())
                total += t.untyped_storage().nbytes()
        h.float().sum().backward()
    return total


def _facts():
    d = {"model": {"name": "tiny", "hidden_size": H, "num_hidden_layers": L, "num_attention_heads": 4,
                   "num_key_value_heads": 4, "intermediate_size": F, "vocab_size": V},
         "training": {"method": "qlora"}}
    arch = resolve(scenario_from_dict(d)).arch.replace(fused_qkv=True)
    return model_facts(arch, count_params(arch))


def test_bf16_stream_keeps_each_shared_input_once():
    assert _kept_bytes(torch.bfloat16, reentrant=False) == pytest.approx(L * bnb_kept_input_bytes(_facts(), S, 1))


def test_fp16_stream_keeps_one_copy_per_linear():
    m = _facts()
    want = L * (bnb_kept_input_bytes(m, S, 1) + bnb_fp16_storage_kept_bytes(m, S, 1))
    assert _kept_bytes(torch.float16, reentrant=False) == pytest.approx(want)


def test_reentrant_keeps_nothing():
    assert _kept_bytes(torch.float16, reentrant=True) == 0


def _head_saved_bytes(weight_dtype) -> int:
    head = torch.nn.Linear(H, V, bias=False).to(weight_dtype).requires_grad_(False)
    params = {head.weight.untyped_storage().data_ptr()}
    x = torch.randn(S, H, dtype=weight_dtype, requires_grad=True)
    saved: dict[int, int] = {}

    def pack(t):
        ptr = t.untyped_storage().data_ptr()
        if ptr not in params and ptr != x.untyped_storage().data_ptr():
            saved[ptr] = t.untyped_storage().nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            head(x).float().sum().backward()
    return sum(saved.values())


def test_fp16_head_saves_a_bf16_copy():
    # the bf16 copy of the weight (2·V·h); the input's cast is not saved (the frozen weight needs no gradient)
    assert _head_saved_bytes(torch.float16) == 2 * V * H
    assert _head_saved_bytes(torch.bfloat16) == 0

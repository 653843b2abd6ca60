"""The output layer's loss against PyTorch on the CPU: bytes per logit at the peak, eager and compiled.

What is checked (``gpuplanner.core.memory``):

* ``ce_backward_bytes_per_logit``: unchunked cross-entropy on upcast logits (HF ``ForCausalLMLoss``, torchtune's
  ``TransformerDecoder`` with ``.float()``) peaks at the start of backward with the saved fp32 log-softmax, its
  gradient from ``nll_loss`` and the logits' fp32 gradient: 12 bytes per logit.
* ``chunked_loss_bytes_per_logit(False)``: torchtune's ``CEWithChunkedOutputLoss`` run eagerly keeps every chunk's
  fp32 log-softmax beside the 16-bit logits: 6.5 bytes per logit at the last chunk.
* ``chunked_loss_bytes_per_logit(True)``: compiled (``training.compile_loss`` compiles ``compute_cross_entropy``),
  a chunk saves only its 16-bit input and two fp32 values per row; the eager chunk saves its fp32 log-softmax.

The peak is measured as the largest sum of live storages created during the step (a ``TorchDispatchMode`` sees
every allocation; a weak reference on each storage sees it freed); the saved tensors with
``torch.autograd.graph.saved_tensors_hooks`` (which also see what a compiled graph saves for backward).
"""

from __future__ import annotations

import weakref

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

from gpuplanner.core.memory import ce_backward_bytes_per_logit, chunked_loss_bytes_per_logit  # noqa: E402

N, V, H, CHUNKS = 2048, 32000, 64, 8


class _LivePeak(torch.utils._python_dispatch.TorchDispatchMode):
    """Peak bytes of the storages created while active; a storage leaves the count when it is freed."""

    def __init__(self):
        super().__init__()
        self.cur = self.peak = 0
        self.live: dict[int, int] = {}

    def _free(self, key):
        self.cur -= self.live.pop(key, 0)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for t in torch.utils._pytree.tree_flatten(out)[0]:
            if isinstance(t, torch.Tensor):
                st = t.untyped_storage()
                key = st.data_ptr()
                if key and key not in self.live:
                    self.live[key] = st.nbytes()
                    self.cur += st.nbytes()
                    weakref.finalize(st, self._free, key)
                    self.peak = max(self.peak, self.cur)
        return out


def _ce_chunk(logits, labels):  # torchtune CEWithChunkedOutputLoss.compute_cross_entropy
    return F.cross_entropy(logits.float(), labels, reduction="sum")


def _step(chunked: bool):
    torch.manual_seed(0)
    h = torch.randn(N, H, dtype=torch.bfloat16, requires_grad=True)
    w = torch.randn(V, H, dtype=torch.bfloat16, requires_grad=True)
    labels = torch.randint(0, V, (N,))

    def run():
        if chunked:  # TransformerDecoder.chunked_output, then the loss chunk by chunk; the recipe's ``del logits``
            logits = [F.linear(c, w) for c in h.chunk(CHUNKS, dim=0)]
            loss = sum(_ce_chunk(x, y) for x, y in zip(logits, labels.chunk(CHUNKS))) / N
        else:  # TransformerDecoder: ``self.output(h).float()``; torch.nn.CrossEntropyLoss
            logits = F.linear(h, w).float()
            loss = F.cross_entropy(logits, labels)
        del logits
        loss.backward()

    mode = _LivePeak()
    with mode:
        run()
    # the weight's and the input's 16-bit gradients are not the loss's: take them out
    return (mode.peak - 2.0 * (V * H + N * H)) / (N * V)


def test_unchunked_cross_entropy_peaks_at_backward_with_12_bytes_per_logit():
    measured = _step(chunked=False)
    assert abs(measured - ce_backward_bytes_per_logit()) / ce_backward_bytes_per_logit() < 0.02, measured


def test_eager_chunked_loss_keeps_every_chunks_fp32_log_softmax():
    measured = _step(chunked=True)
    expected = chunked_loss_bytes_per_logit(False)
    assert abs(measured - expected) / expected < 0.03, measured
    assert measured > chunked_loss_bytes_per_logit(True) + 3.0  # the compiled figure would be wrong here


def _saved_beyond_input(ce) -> float:
    x = torch.randn(N, V, dtype=torch.bfloat16, requires_grad=True)
    logits = x * 1.0  # a non-leaf 16-bit chunk, as the output projection returns it
    labels = torch.randint(0, V, (N,))
    seen = {}

    def pack(t):
        st = t.untyped_storage()
        seen[st.data_ptr()] = st.nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = ce(logits, labels)
    loss.backward()
    seen.pop(logits.untyped_storage().data_ptr(), None)  # the 16-bit logits themselves (counted as 2 bytes)
    return sum(seen.values()) / (N * V)


def test_compiled_chunk_saves_only_its_16_bit_input():
    eager = _saved_beyond_input(_ce_chunk)
    assert abs(eager - 4.0) < 0.01  # the fp32 log-softmax
    try:
        compiled = torch.compile(_ce_chunk)
        compiled(torch.randn(8, 16, dtype=torch.bfloat16), torch.zeros(8, dtype=torch.long))
    except Exception as exc:  # no C++ toolchain for inductor's CPU backend
        pytest.skip(f"torch.compile unavailable: {exc}")
    saved = _saved_beyond_input(compiled)
    assert saved < 0.01, saved  # per-row fp32 max and log-sum-exp only
    # the model's compiled figure: the 16-bit logits and one chunk's 16-bit gradient
    assert chunked_loss_bytes_per_logit(True) == pytest.approx(2.0 + 2.0 / CHUNKS)

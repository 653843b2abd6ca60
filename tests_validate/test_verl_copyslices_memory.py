"""verl's actor loss head on the CPU: the in-place temperature division on a view (issue 35 round 11, verl11).

``verl/workers/actor/dp_actor.py`` ``_forward_micro_batch`` with ``use_remove_padding`` (volcengine/verl v0.3.0.post1
to v0.4.1): ``logits_rmpad = output.logits.squeeze(0)`` then ``logits_rmpad.div_(temperature)``, then flash-attn's
``cross_entropy_loss`` (emulated: it saves the logits and per-row values; its backward writes ``dlogits = logits``
in place, or ``torch.empty_like(logits)`` with ``inplace_backward=False`` when the entropy is computed) and the
compiled ``entropy_from_logits`` (emulated as Inductor's CUDA kernels run it: it saves the logits and per-row values
and its backward writes one 16-bit gradient, row block by row block).

The in-place op on the view puts autograd's ``CopySlices`` on the output (the view's ``grad_fn`` becomes
``AsStridedBackward0``); its backward holds the incoming gradient, a copy of it (``result``), ``grad_slice.clone()``
and the division's output: 8 bytes per 16-bit logit (``memory.verl_loss_bytes_per_logit(True)``). An out-of-place
division stays at 4 without the entropy and 6 with it (the 16-bit logits and two gradients).

Peak: the largest sum of live storages created during the step (``_LivePeak``, a ``TorchDispatchMode`` with a weak
reference on each storage), less the input's and weight's own storages and gradients.
"""

from __future__ import annotations

import weakref

import pytest

torch = pytest.importorskip("torch")

from gpuplanner.core.memory import verl_loss_bytes_per_logit  # noqa: E402

N, V, H, ROWS = 1024, 16000, 64, 16


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


class _FlashCE(torch.autograd.Function):
    """flash_attn/ops/triton/cross_entropy.py's memory: saves (logits, lse, labels); row-block backward."""

    @staticmethod
    def forward(ctx, logits, labels, inplace_backward):
        lse = torch.empty(logits.shape[0])
        for i in range(0, logits.shape[0], ROWS):
            lse[i:i + ROWS] = torch.logsumexp(logits[i:i + ROWS].float(), -1)
        ctx.save_for_backward(logits, lse, labels)
        ctx.inplace = inplace_backward
        return lse - logits.gather(-1, labels[:, None]).squeeze(-1).float()

    @staticmethod
    def backward(ctx, g):
        logits, lse, labels = ctx.saved_tensors
        d = logits if ctx.inplace else torch.empty_like(logits)
        for i in range(0, logits.shape[0], ROWS):
            p = torch.exp(logits[i:i + ROWS].float() - lse[i:i + ROWS, None])
            p[torch.arange(p.shape[0]), labels[i:i + ROWS]] -= 1
            d[i:i + ROWS] = (p * g[i:i + ROWS, None]).to(d.dtype)
        return d, None, None


class _Entropy(torch.autograd.Function):
    """The compiled entropy as CUDA Inductor runs it: no (rows, vocab) fp32 buffer, one 16-bit gradient."""

    @staticmethod
    def forward(ctx, x):
        lse = torch.empty(x.shape[0])
        s = torch.empty(x.shape[0])
        for i in range(0, x.shape[0], ROWS):
            xf = x[i:i + ROWS].float()
            lse[i:i + ROWS] = torch.logsumexp(xf, -1)
            s[i:i + ROWS] = (torch.softmax(xf, -1) * xf).sum(-1)
        ctx.save_for_backward(x, lse, s)
        return lse - s

    @staticmethod
    def backward(ctx, g):
        x, lse, s = ctx.saved_tensors
        d = torch.empty_like(x)
        for i in range(0, x.shape[0], ROWS):
            xf = x[i:i + ROWS].float()
            p = torch.exp(xf - lse[i:i + ROWS, None])
            d[i:i + ROWS] = (g[i:i + ROWS, None] * p * (s[i:i + ROWS, None] - xf)).to(x.dtype)
        return d


def _peak_bytes_per_logit(view_div: bool, entropy: bool) -> float:
    torch.manual_seed(0)
    w = torch.randn(V, H, dtype=torch.bfloat16)
    h = torch.randn(1, N, H, dtype=torch.bfloat16, requires_grad=True)
    labels = torch.randint(0, V, (N,))

    def run():
        out = torch.nn.functional.linear(h, w)           # output.logits, (1, N, V)
        if view_div:
            logits = out.squeeze(0)
            logits.div_(1.0)                              # verl: in place on the squeezed view
        else:
            logits = out.squeeze(0) / 1.0
        del out
        loss = _FlashCE.apply(logits, labels, not entropy).mean()
        if entropy:
            loss = loss - 0.001 * _Entropy.apply(logits).mean()
        del logits
        loss.backward()

    mode = _LivePeak()
    with mode:
        run()
    return (mode.peak - 2.0 * N * H) / (N * V)           # less the input's 16-bit gradient


def test_view_division_runs_through_copyslices():
    out = torch.randn(1, 4, 3, requires_grad=True) * 2.0
    logits = out.squeeze(0)
    logits.div_(1.0)
    assert type(logits.grad_fn).__name__ == "AsStridedBackward0"
    assert type(out.grad_fn).__name__ == "CopySlices"


@pytest.mark.parametrize("entropy", [True, False])
def test_verl_head_peaks_at_eight_bytes_a_logit(entropy):
    measured = _peak_bytes_per_logit(True, entropy)
    assert abs(measured - verl_loss_bytes_per_logit(True)) < 0.3, measured


def test_out_of_place_division_stays_lower():
    """Without the in-place division on a view: about 6 with the entropy (logits + two gradients; the emulated kernels'
    row-block temporaries add a few tenths), about 4 without; both clearly under CopySlices' 8."""
    with_entropy, without = _peak_bytes_per_logit(False, True), _peak_bytes_per_logit(False, False)
    assert 5.7 < with_entropy < 7.0, with_entropy
    assert 3.7 < without < 4.7, without

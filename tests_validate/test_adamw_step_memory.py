"""Issue 35 round 15 (memoos15): what torch.optim.AdamW's step allocates beside the model states, measured on the CPU
with the profiler's allocation events, against core.memory.adamw_foreach_step_bytes.

foreach (``_multi_tensor_adam``): ``torch._foreach_sqrt(exp_avg_sqs)`` makes one list the size of the second moments;
the single-tensor loop: the square root and the quotient of one tensor at a time (two copies of the largest);
fused (``_fused_adamw_``): nothing."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from torch.profiler import ProfilerActivity, profile  # noqa: E402

from gpuplanner.core.memory import adamw_foreach_step_bytes  # noqa: E402

SIZES = (1_000_000, 300_000, 4096)


def _step_peak(dtype, **kw) -> tuple[int, int, int]:
    """(peak bytes allocated during the second step, bytes of the second moments, bytes of the largest tensor)."""
    torch.manual_seed(0)
    ps = [torch.nn.Parameter(torch.randn(n, dtype=dtype)) for n in SIZES]
    opt = torch.optim.AdamW(ps, lr=1e-3, weight_decay=0.1, **kw)
    for p in ps:
        p.grad = torch.randn_like(p)
    opt.step()  # the first step makes the states
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        opt.step()
    events = sorted((e.start_ns(), e.nbytes()) for e in prof.profiler.kineto_results.events()
                    if e.name() == "[memory]")
    cur = peak = 0
    for _t, b in events:
        cur += b
        peak = max(peak, cur)
    sq = sum(opt.state[p]["exp_avg_sq"].numel() * opt.state[p]["exp_avg_sq"].element_size() for p in ps)
    return peak, sq, max(SIZES) * ps[0].element_size()


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=["fp32", "bf16"])
def test_foreach_holds_the_second_moments(dtype):
    peak, sq, _big = _step_peak(dtype, foreach=True)
    assert peak == pytest.approx(sq, rel=1e-3)
    # the core: pure 16-bit / fp32 states (no master), moments 2 × element size
    el = 2.0 if dtype == torch.bfloat16 else 4.0
    opt_bytes = sum(SIZES) * 2 * el
    assert float(adamw_foreach_step_bytes(opt_bytes, 0.0, 2 * el, 1.0, np)) == pytest.approx(peak, rel=1e-3)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=["fp32", "bf16"])
def test_single_tensor_two_copies_of_the_largest(dtype):
    peak, _sq, big = _step_peak(dtype, foreach=False)
    assert peak == pytest.approx(2 * big, rel=1e-3)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=["fp32", "bf16"])
def test_fused_allocates_nothing(dtype):
    peak, sq, _big = _step_peak(dtype, fused=True)
    assert peak < 1e-3 * sq

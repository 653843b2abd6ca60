"""TRL's per-token log-probabilities on fp32 logits against PyTorch on the CPU (issue 35 r5).

Under the HF Trainer's mixed precision Accelerate hands TRL fp32 logits (``convert_outputs_to_fp32``), and
``selective_log_softmax`` (``trl/trainer/utils.py``) takes its fp32 branch: ``gather`` plus a per-row
``logsumexp``. The core counts 4 bytes per logit saved (``trl_amp_saved_bytes_per_logit``) and 8 more in backward
(``trl_amp_backward_extra_bytes_per_logit``): 12 at the peak.

Measured as the process's peak resident memory in a fresh interpreter (large CPU tensors are mmap'ed, so the
peak RSS follows the live tensors), not with ``test_loss_memory``'s ``TorchDispatchMode`` counter: while a
dispatch mode is active PyTorch treats every tensor as subclass-like, and ``gather_backward`` then takes its
out-of-place ``scatter_add`` (``TensorAdvancedIndexing.cpp``), 4 bytes per logit that a real run does not hold
(that counter reads 16)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

torch = pytest.importorskip("torch")

from gpuplanner.core.memory import (  # noqa: E402
    trl_amp_backward_extra_bytes_per_logit,
    trl_amp_saved_bytes_per_logit,
)

_SCRIPT = textwrap.dedent("""
    import resource, sys, torch
    F = torch.nn.functional
    B, N, V, H = 2, 1024, 32000, 64
    torch.manual_seed(0)
    h = torch.randn(B, N, H, dtype=torch.bfloat16, requires_grad=True)
    w = torch.randn(V, H, dtype=torch.bfloat16, requires_grad=True)
    lab = torch.randint(0, V, (B, N))

    def sls(lg, idx):  # TRL's selective_log_softmax, both branches
        if lg.dtype == torch.float32:
            p = torch.gather(lg, -1, idx.unsqueeze(-1)).squeeze(-1)
            return p - torch.stack([torch.logsumexp(r, dim=-1) for r in lg])
        return torch.stack([F.log_softmax(r, dim=-1).gather(-1, i.unsqueeze(-1)).squeeze(-1)
                            for r, i in zip(lg, idx)])

    x = F.linear(h[:, :8], w).float()  # warm-up: kernels and thread pools loaded before the baseline
    (-sls(x, lab[:, :8]).sum()).backward()
    del x
    w.grad = torch.zeros_like(w)  # the 16-bit gradients of the head's weight and input, outside the loss
    h.grad = torch.zeros_like(h)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kind = sys.argv[1]
    lg = F.linear(h, w)
    if kind in ("amp", "lf_dpo", "hf445"):  # convert_to_fp32 / .to(torch.float32) / the model's .float()
        lg = lg.float()
    if kind == "lf_dpo":  # LLaMA-Factory get_batch_logps: gather(logits.log_softmax(-1))
        loss = -torch.gather(lg.log_softmax(-1), 2, lab.unsqueeze(2)).sum()
    elif kind == "hf445":  # Transformers <= 4.45 LlamaForCausalLM: shifted contiguous copy, CrossEntropyLoss
        loss = F.cross_entropy(lg[..., :-1, :].contiguous().view(-1, V), lab[..., 1:].contiguous().view(-1))
    else:
        loss = -sls(lg, lab).sum()
    del lg  # the trainer drops the outputs when compute_loss returns, before backward
    loss.backward()
    print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) * 1024 / (B * N * V))
""")


#: Linux carries the forking process's resident high-water mark into the child's ``ru_maxrss`` across ``exec``
#: (``exec_mmap``: ``setmax_mm_hiwater_rss``): forked straight from a pytest process that has grown large, the
#: measuring script would read that process's peak as its own and every delta as 0. This small interpreter forks
#: it instead (as tests/test_hostile_reproducers.py's LAUNCHER does), so it reads its own peak.
_LAUNCHER = textwrap.dedent("""
    import os, sys
    pid = os.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-c", sys.argv[1], sys.argv[2]])
    _, status = os.waitpid(pid, 0)
    sys.exit(os.waitstatus_to_exitcode(status))
""")


def _peak(kind: str) -> float:
    out = subprocess.run([sys.executable, "-c", _LAUNCHER, _SCRIPT, kind], capture_output=True, text=True, check=True,
                         timeout=600)
    return float(out.stdout.strip().splitlines()[-1])


def test_fp32_branch_peaks_at_12_bytes_per_logit():
    measured = _peak("amp")
    expected = trl_amp_saved_bytes_per_logit() + trl_amp_backward_extra_bytes_per_logit()
    assert abs(measured - expected) / expected < 0.05, measured


def test_16_bit_branch_holds_far_less():
    assert _peak("bf16") < 0.5 * _peak("amp")


def test_llamafactory_dpo_logps_peak_at_12_bytes_per_logit():
    # LLaMA-Factory's concatenated_forward + get_batch_logps (memory.FP32_LOGPS_TOOLS): the same 4 + 8
    measured = _peak("lf_dpo")
    expected = trl_amp_saved_bytes_per_logit() + trl_amp_backward_extra_bytes_per_logit()
    assert abs(measured - expected) / expected < 0.05, measured


def test_transformers_445_loss_path_peaks_at_12_not_18():
    # the pre-4.46 model-side upcast and shifted copy, with the outputs dropped before backward as the HF Trainer
    # does: the same peak as today's ForCausalLMLoss (ce_backward_bytes_per_logit), not 18 bytes per logit
    from gpuplanner.core.memory import ce_backward_bytes_per_logit

    measured = _peak("hf445")
    assert abs(measured - ce_backward_bytes_per_logit()) / ce_backward_bytes_per_logit() < 0.05, measured

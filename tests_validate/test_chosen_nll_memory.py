"""TRL's NLL on the chosen rows against PyTorch on the CPU (``memory.chosen_nll_bytes_per_logit``).

TRL's CPO/SimPO (``cpo_alpha``) and ORPO compute the chosen rows' NLL with their own cross-entropy on a copy of the
chosen half of the concatenated logits before the per-token log-probabilities; DPO with ``rpo_alpha`` after them
(huggingface/trl v0.19.0 ``trl/trainer/{cpo,orpo,dpo}_trainer.py`` ``concatenated_forward``). The log-probabilities
are taken as ``selective_log_softmax`` takes them (16 bits: ``log_softmax`` row by row; fp32: ``gather`` minus a
per-row ``logsumexp``). The peak over the step is measured with ``test_loss_memory._LivePeak`` (every storage created,
freed through a weak reference), in bytes per logit of the chosen + rejected logits, less the head's weight and
input gradients. Our own code, TRL's operations in TRL's order.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

from gpuplanner.core.memory import chosen_nll_bytes_per_logit  # noqa: E402
from test_loss_memory import _LivePeak  # noqa: E402

L, V, H = 1024, 16000, 64


def _logps(logits, index):
    if logits.dtype == torch.float32:
        picked = torch.gather(logits, dim=-1, index=index.unsqueeze(-1)).squeeze(-1)
        return picked - torch.stack([torch.logsumexp(row, dim=-1) for row in logits])
    rows = [F.log_softmax(row, dim=-1).gather(-1, i.unsqueeze(-1)).squeeze(-1) for row, i in zip(logits, index)]
    return torch.stack(rows)


def _cpo_ce(logits, labels):  # CPOTrainer / ORPOTrainer ``cross_entropy_loss``
    logits = logits[..., :-1, :].contiguous()
    labels = labels[..., 1:].contiguous()
    return torch.nn.CrossEntropyLoss()(logits.view(-1, logits.shape[-1]), labels.view(-1))


def _cpo_logps(logits, labels):  # CPOTrainer.get_batch_logps, average_log_prob (SimPO)
    labels = labels[:, 1:].clone()
    mask = labels != -100
    return (_logps(logits[:, :-1, :], labels) * mask).sum(-1) / mask.sum(-1)


def _peak(trainer: str, fp32: bool, nll: bool) -> float:
    torch.manual_seed(0)
    h = torch.randn(2, L, H, dtype=torch.bfloat16, requires_grad=True)
    w = torch.randn(V, H, dtype=torch.bfloat16, requires_grad=True)
    labels = torch.randint(0, V, (2, L))

    def run():
        logits = F.linear(h, w)  # row 0 chosen, row 1 rejected: one concatenated forward
        if fp32:  # the HF Trainer's AMP hands TRL fp32 logits
            logits = logits.float()
        if trainer == "cpo":
            nll_loss = _cpo_ce(logits[:1], labels[:1]) if nll else 0.0
            lp = _cpo_logps(logits, labels)
            loss = -F.logsigmoid(2.0 * (lp[0] - lp[1]) - 0.5) + nll_loss
        else:  # DPOTrainer: labels rolled, logps, then rpo's cross-entropy
            lab = torch.roll(labels, shifts=-1, dims=1)
            lp = _logps(logits, lab).sum(-1)
            loss = -F.logsigmoid(0.1 * (lp[0] - lp[1]))
            if nll:
                loss = loss + F.cross_entropy(torch.flatten(logits[:1, :-1], end_dim=1),
                                              torch.flatten(lab[:1, :-1], end_dim=1), ignore_index=0)
        del logits
        loss.backward()

    mode = _LivePeak()
    with mode:
        run()
    return (mode.peak - 2.0 * (V * H + 2 * L * H)) / (2 * L * V)


@pytest.mark.parametrize("trainer", ["cpo", "dpo"])
@pytest.mark.parametrize("fp32", [False, True])
def test_chosen_nll_adds_the_models_bytes_per_logit(trainer, fp32):
    without, with_nll = _peak(trainer, fp32, False), _peak(trainer, fp32, True)
    # without the NLL, the model's TRL figures: 16-bit logits + saved 16-bit log-softmax (4); fp32 4 saved + 12
    assert without == pytest.approx(16.0 if fp32 else 4.0, abs=0.05)
    expected = chosen_nll_bytes_per_logit(fp32, after_logps=trainer == "dpo")
    assert with_nll - without == pytest.approx(expected, abs=0.05)

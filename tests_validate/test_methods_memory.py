"""DPO memory against PyTorch: a tiny policy, its frozen reference and paired sequences, one step on the CPU.

The step does what TRL's ``DPOTrainer`` does (``trl/trainer/dpo_trainer.py``): chosen and rejected sequences
are concatenated along the batch and run in one forward of ``2 × batch``; the reference model's log-
probabilities come from a ``torch.no_grad`` forward of the same batch (a frozen 16-bit copy, or — for a PEFT
policy with ``ref_model=None`` — the policy with its adapters disabled); the per-token log-probabilities are
taken as TRL takes them (``trl/trainer/utils.py`` ``selective_log_softmax``: 16-bit logits row by row through a
log-softmax in their own dtype, no fp32 copy of the logits; :func:`selective_logps`); the loss is
``-logsigmoid(β·((π_c − π_r) − (ref_c − ref_r)))``.

Measured as in :mod:`harness` (``saved_tensors_hooks`` for activations, storages for weights, ``p.grad``,
``optimizer.state``) and compared with the core's DPO scenario (``training.objective = "dpo"``): policy
weights, gradients, optimizer, the ``reference`` part and the saved activations, each within 5%.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

import harness
from harness import Case, build_model, hf_config, rel_err

TOLERANCE = 0.05

CASES = [
    (Case("llama", seq=256, batch=1, precision="bf16"), "separate"),
    (Case("qwen2", seq=128, batch=2, precision="bf16"), "separate"),
    (Case("mistral", seq=256, batch=1, precision="bf16"), "separate"),
    (Case("llama", seq=256, batch=1, precision="bf16", method="lora"), "lora_base"),
    (Case("llama", seq=512, batch=1, precision="bf16", checkpoint=True), "separate"),
]


def measure_dpo(case: Case, reference: str) -> dict[str, float]:
    import torch
    import torch.nn.functional as F

    policy = build_model(case)
    params = {}
    for p in policy.parameters():
        params[p.untyped_storage().data_ptr()] = (p.untyped_storage().nbytes(), p)
    ref_bytes = 0.0
    ref = None
    if reference == "separate":
        torch.manual_seed(0)
        ref = build_model(case)
        ref.eval()
        for p in ref.parameters():
            p.requires_grad_(False)
        ref_bytes = float(sum(p.untyped_storage().nbytes() for p in
                              {p.untyped_storage().data_ptr(): p for p in ref.parameters()}.values()))
    weights = float(sum(n for n, _ in params.values()))
    trainable = [p for _, p in params.values() if p.requires_grad]

    g = torch.Generator().manual_seed(1)
    vocab = hf_config(case).vocab_size
    prompt = torch.randint(0, vocab, (case.batch, case.seq // 2), generator=g)
    chosen = torch.randint(0, vocab, (case.batch, case.seq - case.seq // 2), generator=g)
    rejected = torch.randint(0, vocab, (case.batch, case.seq - case.seq // 2), generator=g)
    ids = torch.cat([torch.cat([prompt, chosen], 1), torch.cat([prompt, rejected], 1)], 0)  # 2B × seq
    labels = ids.clone()
    labels[:, : case.seq // 2] = -100  # the loss covers the completions only

    def logps(model, x):
        logits = model(input_ids=x).logits[:, :-1]
        lab = labels[:, 1:]
        mask = lab != -100  # TRL: masked labels set to 0 for the gather, their log-probabilities zeroed after
        return (selective_logps(logits, lab.clamp(min=0)) * mask).sum(-1)

    saved: dict[int, int] = {}

    def pack(t):
        key = t.untyped_storage().data_ptr()
        if key not in params and key not in saved:
            saved[key] = t.untyped_storage().nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        with torch.no_grad():
            if ref is not None:
                ref_lp = logps(ref, ids)
            else:
                with policy.disable_adapter():  # TRL: PEFT policy, ref_model=None
                    ref_lp = logps(policy, ids)
        assert not saved, "the reference forward must save nothing for backward"
        pol_lp = logps(policy, ids)
        b = case.batch
        margin = (pol_lp[:b] - pol_lp[b:]) - (ref_lp[:b] - ref_lp[b:])
        loss = -F.logsigmoid(0.1 * margin).mean()
    activations = float(sum(saved.values()))
    loss.backward()
    grads = float(sum(p.grad.untyped_storage().nbytes() for p in trainable if p.grad is not None))
    opt = torch.optim.AdamW(trainable, lr=1e-6)
    opt.step()
    seen, opt_bytes = set(), 0.0
    for st in opt.state.values():
        for v in st.values():
            if torch.is_tensor(v) and v.untyped_storage().data_ptr() not in seen:
                seen.add(v.untyped_storage().data_ptr())
                opt_bytes += v.untyped_storage().nbytes()
    return {"weights": weights, "gradients": grads, "optimizer": opt_bytes, "reference": ref_bytes,
            "activations": activations}


def selective_logps(logits, index):
    """Per-token log-probabilities the way TRL computes them (``trl/trainer/utils.py``, ``selective_log_softmax``):
    fp32/fp64 logits gather the label's logit and subtract a row-wise logsumexp; 16-bit logits go row by row
    through ``log_softmax`` in their own dtype, so no fp32 copy of the logits is made or saved for backward."""
    import torch
    import torch.nn.functional as F

    if logits.dtype in (torch.float32, torch.float64):
        picked = torch.gather(logits, -1, index.unsqueeze(-1)).squeeze(-1)
        return picked - torch.stack([torch.logsumexp(row, dim=-1) for row in logits])
    return torch.stack([F.log_softmax(row, dim=-1).gather(-1, i.unsqueeze(-1)).squeeze(-1)
                        for row, i in zip(logits, index)])


def estimate_dpo(case: Case, reference: str) -> dict[str, float]:
    from gpuplanner.core.estimate import memory_kwargs, resolve
    from gpuplanner.core.memory import RECOMPUTE_CODES, memory_arrays
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.io.model_files import ModelFiles

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "config.json"
        path.write_text(json.dumps(hf_config(case).to_dict()), encoding="utf-8")
        d = harness.scenario_dict(case, str(path))
        d["training"].update(objective="dpo", preference={"reference": reference})
        sc = scenario_from_dict(d)
        r = resolve(sc, ModelFiles(Path(tmp)))
    t = sc.training
    arr = memory_arrays(r.facts, **memory_kwargs(r), tp=1, pp=1, cp=1, ep=1, dp=1, zero=0,
                        recompute=RECOMPUTE_CODES[t.recompute], mbs=t.micro_batch_size, sp=False, grad_accum=1,
                        vpp=1, offload=False)
    return {"weights": float(arr["weights"]), "gradients": float(arr["gradients_all"]),
            "optimizer": float(arr["optimizer"]), "reference": float(arr.get("reference", 0.0)),
            "activations": float(arr["activations_saved"])}


@pytest.mark.parametrize("case,reference", CASES, ids=[f"{c.id}-ref-{r}" for c, r in CASES])
def test_dpo_memory_within_tolerance(case, reference):
    meas = measure_dpo(case, reference)
    est = estimate_dpo(case, reference)
    print(f"\n{case.id} ref={reference}: " + ", ".join(
        f"{k} {meas[k] / 2**20:.2f}/{est[k] / 2**20:.2f} MiB ({rel_err(meas[k], est[k]) * 100:+.1f}%)" for k in meas))
    bad = {k: (meas[k], est[k]) for k in meas if abs(rel_err(meas[k], est[k])) > TOLERANCE}
    assert not bad, bad
    if reference == "lora_base":
        assert meas["reference"] == 0.0 == est["reference"]


# ------------------------------------------------------------------------------------------ reward models

def measure_reward(case: Case) -> dict[str, float]:
    """One reward-model step as TRL's ``RewardTrainer`` runs it: ``AutoModelForSequenceClassification`` with
    ``num_labels=1`` (a ``hidden × 1`` score head instead of the LM head), chosen and rejected sequences scored,
    loss ``-logsigmoid(r_chosen - r_rejected)``."""
    import torch
    import torch.nn.functional as F
    from transformers import AutoModelForSequenceClassification

    torch.manual_seed(0)
    cfg = hf_config(case)
    cfg.num_labels = 1
    cfg.pad_token_id = 0
    model = AutoModelForSequenceClassification.from_config(cfg, attn_implementation=case.attn,
                                                           dtype=torch.bfloat16)
    model.train()
    params = {p.untyped_storage().data_ptr(): (p.untyped_storage().nbytes(), p) for p in model.parameters()}
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(1, cfg.vocab_size, (2 * case.batch, case.seq), generator=g)
    saved: dict[int, int] = {}

    def pack(t):
        key = t.untyped_storage().data_ptr()
        if key not in params and key not in saved:
            saved[key] = t.untyped_storage().nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        r = model(input_ids=ids).logits.float().view(-1)
        loss = -F.logsigmoid(r[: case.batch] - r[case.batch:]).mean()
    activations = float(sum(saved.values()))
    loss.backward()
    trainable = [p for _, p in params.values()]
    grads = float(sum(p.grad.untyped_storage().nbytes() for p in trainable if p.grad is not None))
    opt = torch.optim.AdamW(trainable, lr=1e-6)
    opt.step()
    opt_bytes = float(sum(v.untyped_storage().nbytes() for st in opt.state.values() for v in st.values()
                          if torch.is_tensor(v) and v.dim() > 0))
    return {"weights": float(sum(n for n, _ in params.values())), "gradients": grads, "optimizer": opt_bytes,
            "activations": activations}


def estimate_reward(case: Case) -> dict[str, float]:
    from gpuplanner.core.estimate import memory_kwargs, resolve
    from gpuplanner.core.memory import RECOMPUTE_CODES, memory_arrays
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.io.model_files import ModelFiles

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "config.json"
        path.write_text(json.dumps(hf_config(case).to_dict()), encoding="utf-8")
        d = harness.scenario_dict(case, str(path))
        d["training"].update(objective="reward")
        sc = scenario_from_dict(d)
        r = resolve(sc, ModelFiles(Path(tmp)))
    t = sc.training
    arr = memory_arrays(r.facts, **memory_kwargs(r), tp=1, pp=1, cp=1, ep=1, dp=1, zero=0,
                        recompute=RECOMPUTE_CODES[t.recompute], mbs=t.micro_batch_size, sp=False, grad_accum=1,
                        vpp=1, offload=False)
    return {"weights": float(arr["weights"]), "gradients": float(arr["gradients_all"]),
            "optimizer": float(arr["optimizer"]), "activations": float(arr["activations_saved"])}


REWARD_CASES = [Case("llama", seq=256, batch=1, precision="bf16"), Case("qwen2", seq=128, batch=2, precision="bf16")]


@pytest.mark.parametrize("case", REWARD_CASES, ids=[c.id for c in REWARD_CASES])
def test_reward_model_memory_within_tolerance(case):
    meas = measure_reward(case)
    est = estimate_reward(case)
    print(f"\nreward {case.id}: " + ", ".join(
        f"{k} {meas[k] / 2**20:.2f}/{est[k] / 2**20:.2f} MiB ({rel_err(meas[k], est[k]) * 100:+.1f}%)" for k in meas))
    bad = {k: (meas[k], est[k]) for k in meas if abs(rel_err(meas[k], est[k])) > TOLERANCE}
    assert not bad, bad


# ----------------------------------------------------------------------------------------------- GRPO

def measure_grpo_step(case: Case, prompt: int) -> float:
    """The saved activations of GRPO's policy step as TRL's ``GRPOTrainer`` runs it: prompt + completion through
    the model with ``logits_to_keep`` = the completion (+1), per-token log-probabilities of the completion as TRL's
    ``selective_log_softmax`` takes them (:func:`selective_logps`: 16-bit logits, no fp32 copy),
    the clipped-ratio loss with ``beta = 0`` (no reference)."""
    import torch
    import torch.nn.functional as F

    model = build_model(case)
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    g = torch.Generator().manual_seed(1)
    vocab = hf_config(case).vocab_size
    ids = torch.randint(0, vocab, (case.batch, case.seq), generator=g)
    comp = case.seq - prompt
    adv = torch.randn(case.batch, 1, generator=g)
    saved: dict[int, int] = {}

    def pack(t):
        key = t.untyped_storage().data_ptr()
        if key not in params and key not in saved:
            saved[key] = t.untyped_storage().nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        logits = model(input_ids=ids, logits_to_keep=comp + 1).logits[:, :-1]
        logp = selective_logps(logits, ids[:, -comp:])  # TRL's GRPOTrainer: selective_log_softmax of the logits
        ratio = torch.exp(logp - logp.detach())
        loss = -(torch.min(ratio * adv, torch.clamp(ratio, 0.8, 1.2) * adv)).mean()
    del loss
    return float(sum(saved.values()))


def estimate_grpo_step(case: Case, prompt: int) -> float:
    from gpuplanner.core.estimate import memory_kwargs, resolve
    from gpuplanner.core.memory import RECOMPUTE_CODES, memory_arrays
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.io.model_files import ModelFiles

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "config.json"
        path.write_text(json.dumps(hf_config(case).to_dict()), encoding="utf-8")
        d = harness.scenario_dict(case, str(path))
        d["training"].update(objective="grpo", rl={"prompt_len": prompt, "rollout_len": case.seq - prompt})
        sc = scenario_from_dict(d)
        r = resolve(sc, ModelFiles(Path(tmp)))
    t = sc.training
    arr = memory_arrays(r.facts, **memory_kwargs(r), tp=1, pp=1, cp=1, ep=1, dp=1, zero=0,
                        recompute=RECOMPUTE_CODES[t.recompute], mbs=t.micro_batch_size, sp=False, grad_accum=1,
                        vpp=1, offload=False)
    return float(arr["activations_saved"])


GRPO_CASES = [(Case("llama", seq=384, batch=2, precision="bf16"), 128),
              (Case("qwen2-tied", seq=256, batch=2, precision="bf16"), 192)]


@pytest.mark.parametrize("case,prompt", GRPO_CASES, ids=[f"{c.id}-p{p}" for c, p in GRPO_CASES])
def test_grpo_policy_step_activations_within_tolerance(case, prompt):
    meas = measure_grpo_step(case, prompt)
    est = estimate_grpo_step(case, prompt)
    print(f"\ngrpo {case.id} prompt {prompt}: activations {meas / 2**20:.2f}/{est / 2**20:.2f} MiB "
          f"({rel_err(meas, est) * 100:+.1f}%)")
    assert abs(rel_err(meas, est)) <= TOLERANCE

"""Issue 35 round 16, scale16: Megatron's tied word-embedding gradient all-reduce between the first and the last
pipeline stage (timing.tied_embedding_grad_bytes / tied_embedding_sync_seconds; NVIDIA/Megatron-LM
megatron/core/distributed/finalize_model_grads.py @c3d057f5 ``_allreduce_word_embedding_grads``), hand-derived."""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate, resolve
from gpuplanner.core.scenario import scenario_from_dict

#: a GPT-3-like model with tied input / output embeddings (GPT-3 175B's preset ties them too)
TIED = {"name": "GPT tied", "hidden_size": 8192, "num_hidden_layers": 32, "num_attention_heads": 64,
        "num_key_value_heads": 64, "intermediate_size": 32768, "vocab_size": 51200, "gated_mlp": False,
        "tie_word_embeddings": True}


def scn(model=None, **sections):
    base = {"model": model or TIED, "training": {"framework": "megatron", "seq_len": 2048, "micro_batch_size": 1,
                                                  "global_batch_size": 256, "method": "pretrain"},
            "parallel": {"tp": 8, "pp": 4, "zero": 1, "sequence_parallel": True},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 256}, "data": {"tokens": 1e9}}
    for k, v in sections.items():
        base[k] = {**base.get(k, {}), **v}
    return scenario_from_dict(base)


def _without(monkeypatch, s):
    with monkeypatch.context() as mp:
        mp.setattr(T, "tied_embedding_grad_bytes", lambda *a, **k: 0.0)
        return estimate(s).time


def test_tied_embedding_all_reduce_hand_derived(monkeypatch):
    """TP 8 fills an 8-GPU server, so the first and the last of 4 stages sit on different servers: the two-rank
    all-reduce moves 51,200 × 8,192 / 8 fp32 gradients once over one NIC a GPU, plus NCCL's base latency and two
    network steps; it lands in the pipeline's part and nowhere else."""
    s = scn()
    on = estimate(s).time
    off = _without(monkeypatch, s)
    _kw, gf = T.time_kwargs(resolve(s))
    assert T.grad_reduce_bytes("megatron", "bf16", True, False) == 4.0
    expected = 51200 * 8192 / 8 * 4.0 / (gf.nic_gbs_per_gpu * 1e9) + 8.4e-6 + 2 * 14e-6
    assert on.seconds["pp_bubble"] - off.seconds["pp_bubble"] == pytest.approx(expected, rel=1e-9)
    assert on.step_time_s - off.step_time_s == pytest.approx(expected, rel=1e-9)
    for k in ("compute", "dp_comm", "tp_comm", "other"):
        assert on.seconds[k] == pytest.approx(off.seconds[k], rel=1e-12)
    assert 0.003 < expected < 0.02  # 210 MB over one 400 Gb/s NIC: 4.4 ms, not noise and not a bubble


def test_no_all_reduce_without_a_pipeline_or_a_tie_or_megatron(monkeypatch):
    """PP 1 (one stage holds both ends), an untied model, and FSDP / DeepSpeed (no embedding group): nothing."""
    untied = {**TIED, "name": "GPT untied", "tie_word_embeddings": False}
    for s in (scn(parallel={"pp": 1}, hardware={"num_gpus": 64}), scn(model=untied),
              scn(training={"framework": "fsdp"}, parallel={"pp": 1, "tp": 1, "zero": 3, "sequence_parallel": False},
                  hardware={"num_gpus": 64}),
              scn(training={"framework": "deepspeed"}, parallel={"pp": 1, "tp": 1, "zero": 2,
                                                                  "sequence_parallel": False},
                  hardware={"num_gpus": 64})):
        assert estimate(s).time.step_time_s == pytest.approx(_without(monkeypatch, s).step_time_s, rel=1e-12)


def test_bytes_by_hand_scalar_and_arrays():
    """vocab × h / tp × gradient bytes where Megatron, tied and PP > 1; element-wise over layouts."""
    m = resolve(scn()).facts
    assert T.tied_embedding_grad_bytes(m, "megatron", False, 4.0, 8, 4) == pytest.approx(51200 * 8192 / 8 * 4)
    assert T.tied_embedding_grad_bytes(m, "megatron", False, 4.0, 8, 1) == 0.0
    assert T.tied_embedding_grad_bytes(m, "fsdp", False, 4.0, 8, 4) == 0.0
    tp, pp = np.array([1.0, 4.0, 8.0, 8.0]), np.array([2.0, 8.0, 1.0, 4.0])
    mf = np.array([False, False, False, True])  # the last one Megatron-FSDP
    got = T.tied_embedding_grad_bytes(m, "megatron", mf, 2.0, tp, pp, T._ArrayOps)
    assert got == pytest.approx([51200 * 8192 * 2.0, 51200 * 8192 / 4 * 2.0, 0.0, 0.0])
    lay = {"ops": T._ArrayOps, "tied_emb_bytes": got, "crosses_nodes": np.array([False, True, True, True])}
    sec = T.tied_embedding_sync_seconds(lay, np.array([1e11, 5e10, 5e10, 5e10]))
    assert sec == pytest.approx([got[0] / 1e11 + 8.4e-6 + 2 * 3.4e-6, got[1] / 5e10 + 8.4e-6 + 2 * 14e-6, 0.0, 0.0])

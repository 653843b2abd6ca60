"""A QLoRA base whose unquantised layers are stored fp16 under bf16 autocast (issue 35 r7, ``training.bnb_fp16_storage``,
``memory.bnb_fp16_storage_kept_bytes``), and the ms-swift v1 Benchmark's 4-bit rows that ran that way.

transformers' bitsandbytes loader turns ``torch_dtype=None`` into float16, so the embeddings, norms, LM head and
biases are fp16 (ms-swift v1's ``get_model_tokenizer_qwen`` passed None until f52dfd35c, 2024-01-06). Under bf16
autocast the frozen fp16 head is cast to bf16 on every forward and the copy is saved (2·V·h bytes); the residual
stream is fp16, so each 4-bit linear casts its own bf16 copy of its input, and bitsandbytes < 0.43.2 under
non-reentrant checkpointing keeps each copy. ms-swift v1 made unset ``use_reentrant`` False
(``fix_gradient_checkpointing_warning``), so the Benchmark rows state ``checkpoint_reentrant`` false. Hand-derived
values below."""

import sys
from pathlib import Path

import pytest

from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.memory import bnb_fp16_storage_readers, model_facts
from gpuplanner.core.params import count_params
from gpuplanner.core.scenario import scenario_from_dict

# Llama 3 8B: 32 layers, hidden 4096, vocabulary 128256, q/k/v and gate/up separate
L, H, V = 32, 4096, 128256
GIB = 2.0 ** 30


def _mb(framework="ms-swift", **kw):
    t = {"framework": framework, "method": "qlora", "seq_len": 2048, "micro_batch_size": 1,
         "recompute": "full", "flash_attention": True, "checkpoint_reentrant": False}
    t.update(kw)
    d = {"model": {"preset": "llama-3-8b"}, "training": t, "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 1}}
    return memory_breakdown(resolve(scenario_from_dict(d)))


def test_head_copy_by_hand():
    # bitsandbytes >= 0.43.2 keeps no linear input: only the bf16 copy of the fp16 head is added
    base, fp16 = _mb(), _mb(bnb_fp16_storage=True)
    assert fp16.activations - base.activations == pytest.approx(2.0 * V * H / GIB, rel=1e-9)  # 0.98 GiB
    assert fp16.weights == pytest.approx(base.weights, rel=1e-12)  # fp16 and bf16 are both 2 bytes


def test_kept_casts_by_hand():
    # legacy bitsandbytes, non-reentrant: q, k, v cast three copies of the attention input, gate and up two of the
    # MLP input: 3 more h-wide bf16 tensors per layer than bnb_kept_input_bytes, plus the head copy
    base = _mb(legacy_bnb_4bit=True)
    fp16 = _mb(legacy_bnb_4bit=True, bnb_fp16_storage=True)
    want = (L * 2.0 * 2048 * H * 3 + 2.0 * V * H) / GIB  # 1.5 + 0.98 GiB
    assert fp16.activations - base.activations == pytest.approx(want, rel=1e-9)


def test_reader_counts():
    from gpuplanner.core.estimate import resolve as _r

    llama = _r(scenario_from_dict({"model": {"preset": "llama-3-8b"}, "training": {"method": "qlora"}})).arch
    assert bnb_fp16_storage_readers(model_facts(llama, count_params(llama))) == 3
    fused = llama.replace(fused_qkv=True)  # Qwen-1's c_attn: only w1/w2 read one input twice
    assert bnb_fp16_storage_readers(model_facts(fused, count_params(fused))) == 1
    both = fused.replace(fused_gate_up=True)
    assert bnb_fp16_storage_readers(model_facts(both, count_params(both))) == 0


def test_off_where_dtypes_match():
    # fp16 training: storage and compute agree
    assert _mb(precision="fp16", bnb_fp16_storage=True).total == pytest.approx(_mb(precision="fp16").total, rel=1e-12)
    # PEFT's kbit preparation (HF Trainer path) casts the unquantised layers to fp32 first: the kbit terms count it
    assert _mb("hf", bnb_fp16_storage=True).total == pytest.approx(_mb("hf").total, rel=1e-12)


def test_refused_without_qlora():
    with pytest.raises(ScenarioError, match="bnb_fp16_storage needs method qlora"):
        _mb(method="lora", bnb_fp16_storage=True)


def _swift():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import validate_ft_tools as vft

    return vft


def test_swift_v1_rows_state_non_reentrant_checkpointing():
    vft = _swift()
    rows = [r for r in vft.all_rows() if r.table == "swift-bench-mem"]
    assert rows and all(r.training.get("checkpoint_reentrant") is False for r in rows)


def test_published_swift_int4_rows():
    """ms-swift Benchmark.md (97e4d198b): Qwen-7B/14B/72B-Chat int4 (bnb) 23.85 / 30.05 / 74.87 GiB reserved. Round 6
    left the 7B and 14B rows 41% and 40% low; the 72B row was entered this round (32% low with the old mapping). The
    7B and 14B rows share the LoRA rows' own miss at 2,048 tokens (-15% / -9%)."""
    vft = _swift()
    rows = {r.id: r for r in vft.all_rows() if r.id.endswith("int4-bnb")}
    errs = {rid: vft.error(r, vft.predict(r)) for rid, r in rows.items()}
    assert -0.25 <= errs["swift-qwen-7B-int4-bnb"] <= 0.0
    assert -0.20 <= errs["swift-qwen-14B-int4-bnb"] <= 0.0
    assert abs(errs["swift-qwen-72B-int4-bnb"]) <= 0.08


def test_vectorised_search_equals_evaluate_with_the_flag():
    """The search's memory arrays and ``evaluate`` agree candidate by candidate (tests/test_one_answer.py's rule),
    with ms-swift's default checkpoint kind (non-reentrant only under plain DDP) and ZeRO candidates (no autocast)."""
    import math
    from dataclasses import replace

    from gpuplanner.core import search as S
    from gpuplanner.core.evaluate import evaluate

    d = {"model": {"preset": "llama-3-8b"},
         "training": {"framework": "ms-swift", "method": "qlora", "seq_len": 4096, "recompute": "full",
                      "legacy_bnb_4bit": True, "bnb_fp16_storage": True},
         "data": {"tokens": 1e8}, "constraints": {"max_gpus": 8, "gpu_candidates": ["a100-sxm-80gb"]}}
    s = scenario_from_dict(d)
    checked, totals = 0, set()
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        vec = S.evaluate_candidates(ctx, c)
        for i in range(len(c["tp"])):
            sc = S.candidate_scenario(ctx, c, i)
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert math.isclose(float(vec["mem_gib"][i]), ev.memory.total, rel_tol=1e-9)
            checked += 1
            totals.add(round(ev.memory.total, 3))
    assert checked >= 4 and len(totals) >= 2

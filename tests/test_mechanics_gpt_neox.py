"""GPT-NeoX v1.0 as a tool (``training.framework: gpt-neox``; issue 35 round 10, helper neox11).

Counts read in EleutherAI/gpt-neox at tag v1.0 (71df4d5017f9) ``megatron/model/transformer.py``: each output bias
added by its own kernel (``bias_dropout_fusion`` off: +2 × 2h, replicated), the partial-rotary ``torch.cat`` of q and
k (+2(q + k) = 4h, split), the flash path's layout copies (3 transposes 6h + concat 6h + output permute 2h = 14h with
a micro-batch > 1; the concat's 6h alone at 1), and with ``gpt_j_residual`` one TP all-reduce in the forward
(``self.reduce``), two in the backward (the two column-parallel inputs), one in the recompute.
"""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from gpuplanner.core import frameworks as FW
from gpuplanner.core import memory as M
from gpuplanner.core import search as S
from gpuplanner.core import timing as T
from gpuplanner.core.estimate import resolve
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import validate_pretrain_oos10 as V  # noqa: E402

PY14 = V.PYTHIA[2]  # Pythia 1.4B: h 2048, 24 layers, TP1, mbs 16, flash


def _scn(framework: str, flash: bool = True, mbs: int = 16, tp: int = 1, gptj: bool = False) -> dict:
    sc = V.pythia_scenario(PY14, megatron=True)
    t = {k: v for k, v in sc["training"].items() if k != "fused_cross_entropy"}
    t.update(framework=framework, flash_attention=flash, micro_batch_size=mbs)
    if not flash:
        t.pop("attention_kernel", None)
    if gptj:
        t["gpt_j_residual"] = True
    return {**sc, "training": t, "parallel": {**sc["parallel"], "tp": tp}}


def test_copy_bytes_by_hand():
    """h = 2048, 16-bit: replicated 2 bytes × 4h; split 2 bytes × (4h rotary + 14h layout) with b > 1, × (4h + 6h)
    at b = 1, 4h alone without flash; nothing for any other tool."""
    m = resolve(scenario_from_dict(_scn("gpt-neox"))).facts
    h = 2048
    assert m.h == h
    rep, split = T.gpt_neox_copies_bytes(m, "gpt-neox", True, 16.0)
    assert rep == pytest.approx(2 * 4 * h) and split == pytest.approx(2 * 18 * h)
    assert T.gpt_neox_copies_bytes(m, "gpt-neox", True, 1.0)[1] == pytest.approx(2 * 10 * h)
    assert T.gpt_neox_copies_bytes(m, "gpt-neox", False, 16.0)[1] == pytest.approx(2 * 4 * h)
    assert T.gpt_neox_copies_bytes(m, "megatron", True, 16.0) == (0.0, 0.0)
    assert T.gpt_neox_copies_bytes(m, "nanotron", True, 16.0) == (0.0, 0.0)


def _lay(sc: dict, tp: int = 1):
    r = resolve(scenario_from_dict(sc))
    kw, _ = T.time_kwargs(r)
    kw = {k: v for k, v in kw.items() if k not in T.GPU_TIME_ARGS}
    return T.time_layout(r.facts, **kw, tp=tp, pp=1, cp=1, ep=1, dp=64 // tp, zero=1, recompute=2, mbs=16,
                         sp=False, grad_accum=1, vpp=1, num_gpus=64, gpus_per_node=8, offload=False)


def test_memory_bound_bytes_in_the_time_model():
    """The tool's bytes per token add to the engine's: (rep + split) × 4 passes (forward, backward 2×, full recompute)
    × 24 layers at TP1."""
    h, L = 2048, 24
    meg, neox = _lay(_scn("megatron")), _lay(_scn("gpt-neox"))
    extra = (2 * 4 * h + 2 * 18 * h) * 4 * L
    assert float(neox["mem_tok_bytes"]) - float(meg["mem_tok_bytes"]) == pytest.approx(extra, rel=1e-9)


def test_gpt_j_residual_collectives_by_hand():
    """Full recompute: Megatron 4 + 2 = 6 all-reduces per layer; GPT-NeoX's parallel residual 1 + 2 + 1 = 4."""
    assert T.tp_layer_collectives(1.0, 0.0) == 6.0
    assert T.gpt_neox_tp_collectives(1.0) == 4.0 and T.gpt_neox_tp_collectives(0.0) == 3.0
    plain = _lay(_scn("gpt-neox", tp=2), tp=2)
    gptj = _lay(_scn("gpt-neox", tp=2, gptj=True), tp=2)
    assert float(plain["n_layer_coll"]) == pytest.approx(6.0 * 24)
    assert float(gptj["n_layer_coll"]) == pytest.approx(4.0 * 24)


def test_refusals_and_gating():
    with pytest.raises(Exception):
        scenario_from_dict({**_scn("megatron"), "training": {**_scn("megatron")["training"], "gpt_j_residual": True}})
    with pytest.raises(Exception):
        scenario_from_dict({**_scn("gpt-neox"), "training": {**_scn("gpt-neox")["training"], "precision": "fp8"}})
    f = FW.FRAMEWORKS["gpt-neox"]
    assert f.engine == "megatron" and f.zero_stages == (0, 1) and not f.sequence_parallel and not f.fp8_recipes
    # offered only when named, as Nanotron (core/frameworks.frameworks_for)
    assert "gpt-neox" not in FW.frameworks_for("pretrain")
    assert "gpt-neox" not in FW.frameworks_for("full", objective="dpo")
    assert "gpt-neox" in FW.frameworks_for("pretrain", ("megatron", "gpt-neox"))
    # its loss is Megatron's unfused vocab-parallel cross-entropy
    assert FW.megatron_ce_fused("gpt-neox", "sft") is False


def test_memory_deepspeed_states():
    """DeepSpeed's convention under GPT-NeoX: 16-bit gradients (2 bytes) where Megatron keeps fp32 main gradients (4),
    plus DeepSpeed's ZeRO-1 reduce bucket: the peak differs from Megatron's by about −2·Ψ + 2·min(5e8, Ψ) bytes
    before the step's fp32 partition (the 1.4B model: Ψ ≈ 1.41e9 over the single TP rank)."""
    assert M.gpt_neox_state_bytes("gpt-neox", "fp16", "adamw", True, (2.0, 4.0, 4.0, 0.0)) == (2.0, 2.0, 4.0, 0.0)
    assert M.gpt_neox_state_bytes("megatron", "fp16", "adamw", True, (2.0, 4.0, 4.0, 0.0)) == (2.0, 4.0, 4.0, 0.0)
    meg = evaluate(scenario_from_dict(_scn("megatron"))).memory
    neox = evaluate(scenario_from_dict(_scn("gpt-neox"))).memory
    psi = V.pythia_params(PY14)  # 12 h² + 13 h per layer, embeddings untied (bench/validate_pretrain_oos10.py)
    assert (meg.gradients - neox.gradients) * 2**30 == pytest.approx(2.0 * psi, rel=0.01)
    assert meg.weights == pytest.approx(neox.weights) and meg.optimizer == pytest.approx(neox.optimizer)
    assert neox.total < meg.total


def _same(a, b, rel=1e-9) -> bool:
    return a == b or math.isclose(float(a), float(b), rel_tol=rel, abs_tol=1e-12)


def test_search_equals_evaluate_gpt_neox():
    """The search's arrays equal ``evaluate`` of each candidate under the tool (tests/test_one_answer.py's rule)."""
    d = {"model": V.pythia_model(V.PYTHIA[4]),
         "training": {"framework": "gpt-neox", "method": "pretrain", "precision": "fp16", "seq_len": 2048,
                      "micro_batch_size": 8, "global_batch_size": 1024, "recompute": "full", "gpt_j_residual": True,
                      "attention_kernel": "flash1"},
         "parallel": {"zero": 1}, "data": {"tokens": 2e9},
         "constraints": {"max_gpus": 16, "gpu_candidates": ["a100-sxm-80gb"]}}
    s = scenario_from_dict(d)
    checked = fitting = 0
    for ctx in S.iter_contexts(s):
        assert ctx.framework == "gpt-neox"
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        vec = S.evaluate_candidates(ctx, c)
        for i in range(0, len(c["tp"]), max(1, len(c["tp"]) // 10)):
            sc = S.candidate_scenario(ctx, c, int(i))
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert bool(vec["fits"][i]) == ev.fits
            if ev.fits:
                fitting += 1
                assert _same(vec["train_hours"][i] / 24.0, ev.compute_days), sc.parallel
                assert _same(vec["mfu"][i], ev.mfu_modelled), sc.parallel
            checked += 1
    assert checked >= 4 and fitting >= 1, (checked, fitting)


def test_pythia_rows_improve_with_the_tool():
    """Every Pythia row is predicted slower (closer to the published rate, all are too fast) under the tool than as
    Megatron-LM mechanics, and none crosses below the published rate by more than 10%; the median |error| drops."""
    res = {r["label"]: r for r in V.results() if r["group"] == "pythia"}
    meg = V.megatron_entry_preds()
    errs_now, errs_meg = [], []
    for lab, r in res.items():
        assert r["pred"] < meg[lab], lab
        assert r["pred"] > r["pub"] * 0.9, lab
        errs_now.append(abs(r["pred"] / r["pub"] - 1))
        errs_meg.append(abs(meg[lab] / r["pub"] - 1))
    errs_now.sort(), errs_meg.sort()
    assert errs_now[len(errs_now) // 2] < errs_meg[len(errs_meg) // 2] - 0.05

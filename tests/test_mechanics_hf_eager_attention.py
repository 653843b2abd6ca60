"""Transformers' eager attention on the HF stack (timing.hf_eager_attention_core, HF_EAGER_SCORES_ELEMS).

Hand-derived figures from the op list of ``LlamaAttention.forward`` (Transformers v4.36.0) / ``eager_attention_forward``
(v4.48+), the engines it applies to, and the published rows it moves (bench/validate_ft_oos.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gpuplanner.core import timing
from gpuplanner.core.arrayops import ScalarOps
from gpuplanner.core.estimate import resolve
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.memory import model_facts
from gpuplanner.core.params import count_params
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]


def test_score_passes_from_the_op_list():
    # forward, 16-bit element passes: matmul writes 1; scale r+w 2; + mask r+w 2; softmax(dtype=fp32) r 1 + w 2;
    # .to(bf16) r 2 + w 1; dropout p=0 none; matmul with V reads 1
    fwd = 1 + 2 + 2 + (1 + 2) + (2 + 1) + 0 + 1
    # backward: PV matmul (write dP, read P) 2; cast back r 1 + w 2; softmax backward: SoftMax.cu's
    # ``tmp = grad * output`` (fp32 r 2 + r 2 + w 2, issue 35 round 17) then its kernel r 2 + r 2 + w 1; mask add 0;
    # scale 2; QK matmul reads dS twice 2
    bwd = 2 + (1 + 2) + (2 + 2 + 2) + (2 + 2 + 1) + 0 + 2 + 2
    assert timing.HF_EAGER_SCORES_ELEMS[False] == (fwd, bwd) == (12.0, 20.0)
    # p > 0: native_dropout reads, writes and a 1-byte mask (2.5) each way
    assert timing.HF_EAGER_SCORES_ELEMS[True] == (fwd + 2.5, bwd + 2.5)


def _facts(preset: str = "llama-2-7b"):
    r = resolve(scenario_from_dict({"model": {"preset": preset}, "training": {"method": "lora"}}))
    return model_facts(r.arch, count_params(r.arch))


def test_hand_figure_llama2_7b_1024_full_recompute():
    m = _facts()
    assert (m.heads, m.L, m.q_dim, m.v_dim, bool(m.dropout)) == (32, 32, 4096, 4096, False)
    extra_b, extra_f = timing.hf_eager_attention_core(m, 1024, 1024, 1.0, ScalarOps)
    # 2 bytes × 32 heads × 1024 keys × (12 × 2 forwards + 20 backward − 4 × 4 generic passes) = 1,835,008 B/token/layer
    assert extra_b == pytest.approx(2 * 32 * 1024 * 28)
    # the upper triangle of QKᵀ and PV: 2 · (1024 − 512.5) · 8192 · 32 FLOPs per token and forward pass
    assert extra_f == pytest.approx(2 * (1024 - 512.5) * 8192 * 32)


def _step(framework: str, flash: bool, **training) -> float:
    d = {"model": {"preset": "llama-2-7b"},
         "training": {"framework": framework, "method": "lora", "seq_len": 2048, "micro_batch_size": 1,
                      "global_batch_size": 8, "recompute": "full", "flash_attention": flash, **training},
         "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 1}}
    return evaluate(scenario_from_dict(d)).time.step_time_s


def test_hf_stack_eager_costs_more_than_the_generic_count():
    base = _step("hf", True)
    eager = _step("hf", False)
    assert eager > base * 1.15  # Llama-2-7B at 2048 tokens: the score passes are a large share
    assert _step("llamafactory", False) == pytest.approx(eager, rel=1e-9)
    # Unsloth runs its own attention; torch.compile fuses the element-wise ops: neither takes the eager count
    assert _step("hf", False, torch_compile=True) < eager


def _bench(name):
    sys.path.insert(0, str(ROOT / "bench"))
    return __import__(name)


def test_ms_swift_eager_ratio_published():
    # ms-swift Benchmark.md @4692215, Qwen-7B-Chat at max_length 2048: use_flash_attn false 3.13 samples/s against
    # 4.31 (ratio 0.726; with checkpointing off 4.45 / 4.31 = 1.032). Before this mechanism: +24.5% both.
    v = _bench("validate_ft_oos")
    res = v.results()
    ratios = {rid: err for rid, _p, _q, err in v.ratio_results(res)}
    # Issue 35 round 17 (the softmax backward's tmp kernel): +6.9% / +3.4% → +3.6% / −0.9%
    for rid in ("qwen-7b-noflash / default", "qwen-7b-noflash-nogc / default"):
        assert -0.05 < ratios[rid] < 0.06


def test_llamafactory_eager_against_fa2_published():
    # LLaMA-Factory wiki Dec 2023 (via the Unsloth README): HF 2392 against HF+FA2 2954 tokens/GPU/s (0.810);
    # before this mechanism the model gave 0.914
    v = _bench("validate_ft_oos")
    eager, fa2 = v.lfs_predict("llamafactory", 16, False), v.lfs_predict("llamafactory", 16, True)
    assert eager / fa2 == pytest.approx(2392 / 2954, rel=0.05)


@pytest.mark.parametrize("fw,compile_", [("llamafactory", False), ("trl", False), ("hf", True)])
def test_vectorised_search_equals_evaluate_with_eager_attention(fw, compile_):
    # the random scenarios of test_one_answer never turn flash off: check the eager path's parity here
    from dataclasses import replace

    from gpuplanner.core import search as S

    s = scenario_from_dict({
        "model": {"preset": "llama-2-7b"},
        "training": {"framework": fw, "method": "lora", "seq_len": 2048, "micro_batch_size": 2,
                     "global_batch_size": 16, "recompute": "full", "flash_attention": False,
                     "torch_compile": compile_},
        "data": {"tokens": 1e8},
        "constraints": {"max_gpus": 8, "gpu_candidates": ["a100-sxm-80gb", "h100-sxm-80gb", "rtx-4090-24gb"]}})
    checked = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        if not len(c["tp"]):
            continue
        vec = S.evaluate_candidates(ctx, c)
        for i in range(min(6, len(c["tp"]))):
            if not vec["fits"][i]:
                continue
            sc = S.candidate_scenario(ctx, c, i)
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            step = vec["train_hours"][i] / ev.time_modelled.compute_days / 24.0 * ev.time_modelled.step_time_s
            assert step == pytest.approx(ev.time.step_time_s, rel=1e-9)
            checked += 1
    assert checked >= 5


def test_opt_350m_eager_minus_sdpa_published():
    # Transformers' OPT docs (L40S, PyTorch 2.4.0, fp16): eager − SDPA forward+backward time per batch, 8 rows off the
    # host floor. Before this mechanism the model gave 28% of it (median error −71%); round 6 62% (−37%); round 17
    # (the softmax backward's tmp kernel) −23%: still short
    v = _bench("validate_eager_attention")
    errs = [r[4] for r in v.results()]
    med = sorted(abs(e) for e in errs)[len(errs) // 2]
    assert med < 0.45
    assert all(e < 0.0 for e in errs)  # every row still under-costed: see the note's "Left out"

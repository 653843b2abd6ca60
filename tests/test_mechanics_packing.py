"""Sequence packing and padding-free batches (issue 35 round 2): ``data.mean_sample_len`` with
``training.packing`` / ``training.padding_free`` (TRL SFTConfig; core/flops.sample_shape)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from gpuplanner.core import flops as F
from gpuplanner.core import search as S
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict

BASE = {"model": {"preset": "llama-3.1-8b"},
        "training": {"method": "lora", "seq_len": 4096, "micro_batch_size": 4, "recompute": "full"},
        "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}}


def _ev(mean=None, packing=False, padding_free=False, flash=True, **training):
    d = {**BASE, "training": {**BASE["training"], "packing": packing, "padding_free": padding_free,
                              "flash_attention": flash, **training}}
    if mean is not None:
        d["data"] = {"mean_sample_len": mean}
    return evaluate(scenario_from_dict(d))


def test_defaults_are_trl_defaults_and_change_nothing():
    sc = scenario_from_dict(BASE)
    assert sc.training.packing is False and sc.training.padding_free is False  # TRL SFTConfig defaults
    assert sc.data.mean_sample_len is None
    a, b = evaluate(sc), _ev(mean=4096, packing=True)  # samples that fill the row: nothing to pack
    assert a.time.tokens_per_s_per_gpu == pytest.approx(b.time.tokens_per_s_per_gpu, rel=1e-12)
    assert a.memory.total == pytest.approx(b.memory.total, rel=1e-12)


def test_sample_shape_cases():
    assert F.sample_shape(4096, None, False, False, True) == F.SampleShape(4096.0, 4096.0, 1.0)
    # padded: rows of seq_len at most; a batch of several pads to its expected longest (round 8: spread_cv)
    assert F.sample_shape(4096, 1024, False, False, True) == F.SampleShape(4096.0, 4096.0, 0.25, 1024.0,
                                                                           F.DEFAULT_SAMPLE_LEN_CV)
    assert F.sample_shape(4096, 1024, False, False, True, 512.0).spread_cv == 0.5
    assert F.sample_shape(4096, 1024, True, False, True) == F.SampleShape(4096.0, 1024.0, 1.0)  # packed, varlen
    assert F.sample_shape(4096, 1024, True, False, False) == F.SampleShape(4096.0, 4096.0, 1.0)  # packed, masked
    # flattened: no padding; the spread stays for the ranks' imbalance (round 15, z3multi15)
    assert F.sample_shape(4096, 1024, False, True, True) == F.SampleShape(1024.0, 1024.0, 1.0, None,
                                                                          F.DEFAULT_SAMPLE_LEN_CV)
    assert F.sample_shape(4096, 1024, False, True, True, 512.0).spread_cv == 0.5
    assert F.sample_shape(4096, 9000, False, True, True) == F.SampleShape(4096.0, 4096.0, 1.0)  # cut at seq_len


def test_padding_wastes_the_padded_share_of_the_step():
    """Padded rows cost a row of the batch's longest sample (round 8: the expected longest of the micro-batch's 4
    samples, core/flops.expected_longest; before, a full seq_len row); only the real tokens count as throughput.
    (With FlashAttention-2 as the attention implementation: under Transformers' default SDPA a padded batch's mask
    sends the attention to PyTorch's memory-efficient kernel over the whole square, issue 35 round 6,
    tests/test_mechanics_hf_sdpa_mask.py.)"""
    fa2 = {"attn_implementation": "flash_attention_2"}
    row = F.expected_longest(1024.0, F.DEFAULT_SAMPLE_LEN_CV, 4, 4096.0)
    rows = evaluate(scenario_from_dict({**BASE, "training": {**BASE["training"], "seq_len": round(row), **fa2}}))
    pad = _ev(mean=1024, **fa2)
    assert pad.time.step_time_s == pytest.approx(rows.time.step_time_s, rel=2e-3)  # the row rounded to a token
    assert _ev(mean=1024).time.step_time_s > pad.time.step_time_s  # the default SDPA pays for the mask
    assert pad.time.tokens_per_s_per_gpu == pytest.approx(rows.time.tokens_per_s_per_gpu * 1024.0 / row, rel=2e-3)
    assert pad.memory.total == pytest.approx(_ev(**fa2).memory.total, rel=1e-9)  # memory keeps seq_len


def test_packing_keeps_rows_full_and_shortens_attention():
    full, packed = _ev(), _ev(mean=1024, packing=True)
    # same tokens per row, so the same activations; attention over 1024-token samples is cheaper
    assert packed.memory.total == pytest.approx(full.memory.total, rel=1e-9)
    assert packed.time.tokens_per_s_per_gpu > full.time.tokens_per_s_per_gpu
    assert packed.time.flops_per_token < full.time.flops_per_token
    # without a flash kernel the masked attention spans the row: no saving
    masked = _ev(mean=1024, packing=True, flash=False)
    assert masked.time.flops_per_token == pytest.approx(_ev(flash=False).time.flops_per_token, rel=1e-12)


def test_padding_free_sets_activations_by_real_tokens():
    full, pf, pad = _ev(), _ev(mean=1024, padding_free=True), _ev(mean=1024)
    assert pf.memory.activations < 0.4 * full.memory.activations
    # padded rows run the expected longest of 4 samples (round 8; before, seq_len: 4× the tokens): at most the
    # padding-free rate × mean / row, less under the default SDPA's masked kernel
    row = F.expected_longest(1024.0, F.DEFAULT_SAMPLE_LEN_CV, 4, 4096.0)
    assert pad.time.tokens_per_s_per_gpu < pf.time.tokens_per_s_per_gpu * 1024.0 / row
    # the flattened row at mean 1024 is the same work per token as 1024-token rows
    short = evaluate(scenario_from_dict({**BASE, "training": {**BASE["training"], "seq_len": 1024}}))
    assert pf.time.tokens_per_s_per_gpu == pytest.approx(short.time.tokens_per_s_per_gpu, rel=1e-9)


@pytest.mark.parametrize("training", [{"packing": True}, {"padding_free": True}, {}])
def test_vectorised_search_equals_evaluate_with_short_samples(training):
    """The plan search's arrays and ``evaluate`` agree on packed, padding-free and padded scenarios."""
    d = {"model": {"preset": "llama-3.1-8b"},
         "training": {"method": "full", "framework": "fsdp", "seq_len": 8192, **training},
         "data": {"tokens": 2e9, "mean_sample_len": 1500},
         "constraints": {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb", "a100-sxm-80gb"]}}
    s = scenario_from_dict(d)
    rng = np.random.default_rng(3)
    checked = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        if not len(c["tp"]):
            continue
        vec = S.evaluate_candidates(ctx, c)
        for i in rng.choice(len(c["tp"]), size=min(15, len(c["tp"])), replace=False):
            sc = S.candidate_scenario(ctx, c, int(i))
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            checked += 1
            assert math.isclose(vec["mem_gib"][i], ev.memory.total, rel_tol=1e-9)
            if vec["fits"][i]:
                assert math.isclose(vec["train_hours"][i] / 24.0, ev.compute_days, rel_tol=1e-9)
                assert math.isclose(vec["mfu"][i], ev.mfu, rel_tol=1e-9)
    assert checked >= 15


def test_one_sequence_per_micro_batch_is_not_padded():
    """The collators pad to the batch's longest sample: a micro-batch of one sequence runs its own length (time);
    peak memory keeps seq_len, the longest sample of a run."""
    one_pad = _ev(mean=1024, micro_batch_size=1)
    one_flat = _ev(mean=1024, padding_free=True, micro_batch_size=1)
    assert one_pad.time.tokens_per_s_per_gpu == pytest.approx(one_flat.time.tokens_per_s_per_gpu, rel=1e-9)
    assert one_pad.memory.total == pytest.approx(_ev(micro_batch_size=1).memory.total, rel=1e-9)
    assert one_pad.memory.total > one_flat.memory.total
    assert F.sample_shape(4096, 1024, False, False, True).single_len == 1024.0

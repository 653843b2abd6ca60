"""FSDP's gradient sync off while accumulating (``training.fsdp_no_sync``, ``memory.fsdp_no_sync_on``) and LoRA
inside its block's FSDP1 unit (``training.fsdp_lora_mixed_units``, ``memory.fsdp_lora_unit_params``), issue 35
r14 (memoos14).

torch FSDP ``no_sync``: "FSDP will accumulate the full model gradients (instead of gradient shards) until the
eventual sync"; FSDP1 with ``use_orig_params=True`` flattens frozen and trainable parameters into one flat
parameter that requires grad as a whole. Hand-derived values below; the published check is LitGPT's resource table
(bench/validate_mem_oos14.py: Lightning Fabric FSDP, LoRA, 2 and 4 A100s)."""

import sys
from pathlib import Path

import pytest

from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.scenario import scenario_from_dict

GIB = 2.0 ** 30
# Llama 2 7B: 32 blocks of 202,383,360 parameters; embedding and head 32000 × 4096 each, final norm 4096
P7, BLOCKS7 = 6_738_415_616, 32 * 202_383_360


def _mb(framework="hf", method="full", gpus=8, ga=4, zero=3, **kw):
    t = {"framework": framework, "method": method, "seq_len": 2048, "micro_batch_size": 1,
         "global_batch_size": gpus * ga, "recompute": "full", "flash_attention": True, "fsdp_version": 1}
    t.update(kw)
    d = {"model": {"preset": "llama-2-7b"}, "training": t, "parallel": {"zero": zero},
         "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": gpus}}
    return memory_breakdown(resolve(scenario_from_dict(d)))


def test_hf_trainer_on_fsdp1_accumulates_unsharded_gradients_by_hand():
    on, off = _mb(fsdp_no_sync=True), _mb(fsdp_no_sync=False)
    # every unit's unsharded bf16 gradient (2 bytes a parameter) in place of FSDP1's shard in the flat parameter's
    # fp32 (4 bytes / 8 GPUs). Round 15 (consist15, frameworks.hf_sharded_by_fsdp): the HF stack on FSDP1 holds
    # FSDP's states, as its time is priced; before, the shard was DeepSpeed's 16-bit one (2 bytes / 8)
    assert on.gradients == pytest.approx(P7 * 2.0 / GIB, rel=1e-9)
    assert off.gradients == pytest.approx(P7 * 4.0 / 8 / GIB, rel=1e-9)


def test_default_is_the_hf_trainer_on_fsdp1_only():
    assert _mb().gradients == pytest.approx(_mb(fsdp_no_sync=True).gradients, rel=1e-12)  # HF Trainer, FSDP1
    # torchtitan / torchtune / Composer (framework fsdp) sync every micro-batch
    assert _mb("fsdp").gradients == pytest.approx(_mb("fsdp", fsdp_no_sync=False).gradients, rel=1e-12)
    assert _mb("fsdp").gradients < _mb("fsdp", fsdp_no_sync=True).gradients


def test_no_accumulation_no_effect():
    assert _mb(ga=1, fsdp_no_sync=True).total == pytest.approx(_mb(ga=1, fsdp_no_sync=False).total, rel=1e-12)


def test_lora_mixed_units_by_hand():
    base = _mb("fsdp", "lora", gpus=2, ga=1)
    sharded = _mb("fsdp", "lora", gpus=2, ga=1, fsdp_lora_mixed_units=True)
    unsharded = _mb("fsdp", "lora", gpus=2, ga=8, fsdp_lora_mixed_units=True, fsdp_no_sync=True)
    base8 = _mb("fsdp", "lora", gpus=2, ga=8)
    # the blocks' bf16 gradient: sharded over 2 GPUs, or whole under no_sync (the root unit has no adapter)
    assert sharded.gradients - base.gradients == pytest.approx(BLOCKS7 * 2.0 / 2 / GIB, rel=1e-9)
    assert unsharded.gradients - base8.gradients == pytest.approx(BLOCKS7 * 2.0 / GIB, rel=1e-9)
    # adapters as units of their own (the default): no_sync keeps only their tiny gradients
    assert _mb("fsdp", "lora", gpus=2, ga=8, fsdp_no_sync=True).gradients == pytest.approx(base8.gradients,
                                                                                           rel=1e-12)


@pytest.mark.parametrize("kw, msg", [
    (dict(zero=0, fsdp_no_sync=True), "fsdp_no_sync needs FSDP"),
    (dict(framework="deepspeed", fsdp_no_sync=True), "fsdp_no_sync needs FSDP"),
    (dict(method="qlora", fsdp_lora_mixed_units=True), "fsdp_lora_mixed_units needs method lora"),
    (dict(method="lora", zero=0, fsdp_lora_mixed_units=True), "fsdp_lora_mixed_units needs method lora"),
])
def test_refused_outside_fsdp(kw, msg):
    with pytest.raises(ScenarioError, match=msg):
        _mb(**kw)


def test_litgpt_fsdp_rows_close():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import validate_mem_oos14 as v

    rows = [(rid, pub, pred) for rid, pub, pred, _t, sc in v.results() if sc and not rid.endswith("× 1 GPU")]
    assert len(rows) == 10
    errs = sorted(abs(pub / pred - 1) for _rid, pub, pred in rows)
    # before: +19% to +281% (median +106%); now the median within 5%, every row within 25% (phi-1.5 at batch 4,
    # −20%, the farthest)
    assert errs[len(errs) // 2] <= 0.05 and errs[-1] <= 0.25

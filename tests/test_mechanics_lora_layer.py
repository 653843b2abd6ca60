"""``training.lora_layer``: NeMo AutoModel's LoRA linears (issue 35 round 14, nemoauto14). NVIDIA-NeMo/Automodel
``components/_peft/lora.py`` (commits 507bfb751 and 2013a4dd6): ``LinearLoRA`` scales the rank-wide product
(``lora_B(lora_A(x) * scale)``) and drops out the adapter's output ("post"); ``TritonLinearLoRA``'s backward reads x
once more (flops.AUTOMODEL_LORA_FWD_OUT). Checked by hand against the element counts, and against PEFT's default."""

from __future__ import annotations

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core import flops as F
from gpuplanner.core import timing as T
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.core.timing import time_estimate

H, KV, FF, L = 4096, 1024, 14336, 32  # Llama-3.1-8B (config.json)
D_IN = L * (6 * H + FF)  # q, k, v, gate, up read h; down reads the MLP width
D_OUT = L * (3 * H + 2 * KV + 2 * FF)  # q, o, down write h; k, v the KV width; gate, up the MLP width
TOKENS = 32 * 4096  # global batch 32 of 4,096 tokens on one GPU
H100_BW = 3.35e12 * T.MEM_BW_EFFICIENCY


def _scn(layer: str | None = "automodel", dropout: float = 0.1, **training) -> dict:
    t = {"framework": "fsdp", "method": "lora", "lora_rank": 16, "lora_targets": "all_linear", "seq_len": 4096,
         "micro_batch_size": 2, "global_batch_size": 32, "precision": "bf16", "master_weights": False,
         "liger_kernel": True, "lora_dropout": dropout, **training}
    if layer is not None:
        t["lora_layer"] = layer
    return {"model": {"preset": "llama-3.1-8b"}, "training": t,
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}}


def _est(d: dict):
    return time_estimate(resolve(scenario_from_dict(d)))


def test_element_counts_by_hand():
    # LinearLoRA: forward x into lora_A (1 fan_in), lora_B's output and the add (1 + 3 fan_out); backward the
    # unscaled output gradient read twice (2 fan_out), dx written, x read, the sum into the base's (5 fan_in)
    assert F.lora_traffic_elements(3.0, 7.0, False, False, layer="automodel") == (3.0 + 4 * 7.0, 5 * 3.0 + 2 * 7.0)
    # dropout "post": read and write the output plus a 1-byte mask, each pass, on fan_out
    assert F.lora_traffic_elements(3.0, 7.0, True, False, layer="automodel") == (
        3.0 + 4 * 7.0 + 2.5 * 7.0, 5 * 3.0 + 2 * 7.0 + 2.5 * 7.0)
    # TritonLinearLoRA: x read twice more in the backward (torch.matmul(xt, dyb) and lora_db's A xᵀ)
    assert F.lora_traffic_elements(3.0, 7.0, False, False, layer="automodel_triton") == (
        3.0 + 4 * 7.0, 6 * 3.0 + 2 * 7.0)
    # PEFT's count is untouched: the scaled full-width output (6 fan_out forward, 4 backward)
    assert F.lora_traffic_elements(3.0, 7.0, False, False) == (3.0 + 6 * 7.0, 5 * 3.0 + 4 * 7.0)
    # no fp32 casts (adapters in the weight's dtype) and no defensive clone on the 4-bit path
    assert F.lora_traffic_elements(3.0, 7.0, False, False, True, True, True, layer="automodel") == (
        3.0 + 4 * 7.0, 5 * 3.0 + 2 * 7.0)


def test_adapter_seconds_by_hand_llama_8b_one_h100():
    """The adapters' line of the 8B row of NeMo AutoModel's summary (no recompute, dropout 0.1): the element counts
    over every adapted linear, 2 bytes each, over the step's tokens at the H100's modelled HBM rate."""
    got = _est(_scn()).parts["lora_adapters"]
    fwd = D_IN + 4 * D_OUT + 2.5 * D_OUT
    bwd = 5 * D_IN + 2 * D_OUT + 2.5 * D_OUT
    assert got == pytest.approx(2.0 * (fwd + bwd) * TOKENS / H100_BW, rel=1e-9)
    peft = _est(_scn(layer=None)).parts["lora_adapters"]
    assert peft == pytest.approx(2.0 * ((D_IN + 6 * D_OUT + 2.5 * D_IN) + (5 * D_IN + 4 * D_OUT + 2.5 * D_IN))
                                 * TOKENS / H100_BW, rel=1e-9)
    assert got < 0.9 * peft


def test_default_is_peft_and_step_moves_by_the_adapter_line_alone():
    peft, default = _est(_scn(layer="peft")), _est(_scn(layer=None))
    assert default.step_time_s == peft.step_time_s
    am = _est(_scn())
    # only the adapters' traffic changes: the step moves by exactly the adapters' line
    assert peft.step_time_s - am.step_time_s == pytest.approx(
        peft.parts["lora_adapters"] - am.parts["lora_adapters"], rel=1e-6)
    tri = _est(_scn(layer="automodel_triton"))
    assert tri.parts["lora_adapters"] - am.parts["lora_adapters"] == pytest.approx(
        2.0 * D_IN * TOKENS / H100_BW, rel=1e-9)


def test_compiled_rows_lose_the_scaled_gradient_only():
    """Under torch.compile PEFT's forward scale and add are fused (4 fan_out, as AutoModel's); the backward's scaled
    gradient copy (2 fan_out) is what AutoModel still saves: no dropout, whole-layer recompute re-runs the forward."""
    kw = {"torch_compile": True, "recompute": "full", "liger_kernel": False}
    peft = _est(_scn(layer="peft", dropout=0.0, **kw)).parts["lora_adapters"]
    am = _est(_scn(dropout=0.0, **kw)).parts["lora_adapters"]
    assert peft - am == pytest.approx(2.0 * 2.0 * D_OUT * TOKENS / H100_BW, rel=1e-9)


@pytest.mark.parametrize("training, words", [
    ({"method": "full"}, "lora_layer automodel is a LoRA layer"),
    ({"dora": True, "framework": "hf"}, "lora_layer automodel is a LoRA layer"),
    ({"framework": "unsloth", "liger_kernel": False}, "framework unsloth runs its own LoRA layers"),
    ({"framework": "megatron-bridge", "liger_kernel": False}, "framework megatron-bridge runs its own LoRA layers"),
])
def test_refused_where_it_is_not_automodel_lora(tmp_path, capsys, training, words):
    d = _scn()
    d["training"].update(training)
    with pytest.raises(Exception):
        scenario_from_dict(d)
    import json

    f = tmp_path / "s.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    rc = run_cli(["estimate", str(f)])
    err = capsys.readouterr().err
    assert rc == 2 and words in err and len(err.strip().splitlines()) == 1, err
    d["training"]["lora_layer"] = "nemo"  # not a layer the tool knows
    d["training"].update({"method": "lora", "dora": False, "framework": "fsdp"})
    with pytest.raises(Exception):
        scenario_from_dict(d)


def test_layer_of_plans_on_other_engines_is_peft():
    """The plan search may try Megatron's or Unsloth's rows for the same scenario: their own adapters, not AutoModel's."""
    s = scenario_from_dict(_scn()).training
    assert T.lora_layer_of(s, "fsdp") == "automodel" and T.lora_layer_of(s, "hf") == "automodel"
    assert T.lora_layer_of(s, "megatron") == "peft"
    assert T.lora_layer_of(s.model_copy(update={"framework": "unsloth"}), "hf") == "peft"
    assert T.lora_layer_of(s.model_copy(update={"method": "full"}), "fsdp") == "peft"


def test_search_keeps_the_stacks_that_run_it():
    """A framework search with AutoModel's layer tries only the stacks on Hugging Face models (as Liger's switch):
    Megatron-Bridge's and Unsloth's plans would be refused when estimated (scenario._check_lora_layer)."""
    from gpuplanner.core.search import searched_frameworks

    d = _scn()
    d["constraints"] = {"search_frameworks": True, "framework_candidates": ["fsdp", "hf", "megatron-bridge", "unsloth"]}
    d["training"]["liger_kernel"] = False
    fws, chosen = searched_frameworks(scenario_from_dict(d))
    assert chosen and set(fws) == {"fsdp", "hf"}
    d["training"]["lora_layer"] = "peft"
    assert {"megatron-bridge", "unsloth"} <= set(searched_frameworks(scenario_from_dict(d))[0])


def test_one_list_of_layers():
    """The scenario's choices (``LoraLayer``; the Training page's combo reads them) and the time model's
    (flops.LORA_LAYERS, whose non-PEFT entries :func:`flops.automodel_lora_elements` prices) are the same list
    (review14)."""
    from typing import get_args

    from gpuplanner.core.scenario import LoraLayer

    assert get_args(LoraLayer) == F.LORA_LAYERS
    # every layer is priced by exactly one set of counts: PEFT's (PEFT, LitGPT's LoRAQKVLinear) or AutoModel's
    assert set(F.AUTOMODEL_LORA_BWD_IN) == set(F.LORA_LAYERS) - set(F.PEFT_COUNT_LAYERS)
    assert not set(F.AUTOMODEL_LORA_BWD_IN) & set(F.PEFT_COUNT_LAYERS)

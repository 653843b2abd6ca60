"""Round 15 (consist15): choices one part of the product honoured and another ignored.

1. ``training.lora_layer`` in the memory model: what each LoRA layer keeps for backward (memory.LORA_KEEPS_RANK_WIDE,
   memory.LORA_DROPOUT_ON_OUTPUT), by hand from Llama-3.1-8B's widths.
3. ``hardware.gpus_per_node`` in the plan search (catalog_hw.server_gpus), said in the plan.
4. A GB200 NVL72 plan inside its NVLink domain names the NVLink it crosses, not a network it does not use.
"""

from __future__ import annotations

import copy

import pytest

from gpuplanner.core import memory as M
from gpuplanner.core.catalog_hw import get_gpu, server_gpus
from gpuplanner.core.evaluate import evaluate, plan_links
from gpuplanner.core.scenario import scenario_from_dict

H, KV, FF, L = 4096, 1024, 14336, 32  # Llama-3.1-8B (config.json)
D_IN = 6 * H + FF  # per layer: q, k, v, o, gate, up read h; down reads the MLP width
D_OUT = 3 * H + 2 * KV + 2 * FF  # q, o, down write h; k, v the KV width; gate, up the MLP width
SHARED = 2 * H + FF  # inputs only the adapters save: the attention norm's output, the MLP norm's, down's input
N_LIN = 7  # adapted linears per layer (all_linear)
SEQ, RANK = 4096, 16
GIB = 2 ** 30


def _lora(layer: str, dropout: float) -> dict:
    t = {"framework": "fsdp", "method": "lora", "lora_rank": RANK, "lora_targets": "all_linear", "seq_len": SEQ,
         "micro_batch_size": 1, "global_batch_size": 1, "precision": "bf16", "master_weights": False,
         "recompute": "none", "flash_attention": True, "lora_dropout": dropout, "lora_layer": layer}
    return {"model": {"preset": "llama-3.1-8b"}, "training": t, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}}


def _acts(layer: str, dropout: float) -> float:
    """Activation bytes of the plan (the memory breakdown is in GiB)."""
    return evaluate(scenario_from_dict(_lora(layer, dropout))).memory.activations * GIB


def test_automodel_post_dropout_keeps_the_fan_out_mask_not_peft_input_copies():
    # PEFT: per adapted linear a 16-bit dropped copy of its input and its 1-byte mask, less the shared input the
    # model already counts; AutoModel ("post"): the 1-byte mask of the adapter's output, no copy
    peft = 3 * D_IN - 2 * SHARED
    automodel = 1 * D_OUT
    want = (peft - automodel) * SEQ * L
    got = _acts("peft", 0.1) - _acts("automodel", 0.1)
    assert got == pytest.approx(want, rel=1e-6)


def test_rank_wide_input_kept_except_by_the_triton_function():
    # lora_B saves its rank-wide input (16-bit, r per adapted linear); LoRATritonFunction saves (x, A, B) only
    want = 2 * RANK * N_LIN * SEQ * L
    assert _acts("automodel", 0.0) - _acts("automodel_triton", 0.0) == pytest.approx(want, rel=1e-6)
    assert _acts("automodel", 0.1) - _acts("automodel_triton", 0.1) == pytest.approx(want, rel=1e-6)
    # without dropout PEFT and LinearLoRA keep the same tensors
    assert _acts("peft", 0.0) == pytest.approx(_acts("automodel", 0.0), rel=1e-9)


def test_rank_wide_term_by_hand():
    a = scenario_from_dict(_lora("peft", 0.0))
    from gpuplanner.core.estimate import resolve

    arch = resolve(a).arch
    assert M.lora_adapted_count(arch, "all_linear") == N_LIN * L
    got = M.lora_layer_saved_bytes_per_token(arch, "all_linear", RANK, 2.0, "peft", 0.0, False)
    assert float(got) == pytest.approx(2.0 * RANK * N_LIN)
    got = M.lora_layer_saved_bytes_per_token(arch, "all_linear", RANK, 2.0, "automodel", 0.1, False)
    assert float(got) == pytest.approx(2.0 * RANK * N_LIN + D_OUT)


# ---- 3. hardware.gpus_per_node in the search

def test_server_gpus_rule():
    h100, gb200, pcie = get_gpu("h100-sxm-80gb"), get_gpu("gb200-186gb"), get_gpu("a100-pcie-80gb")
    assert server_gpus(h100, 4) == 4  # the user's smaller servers
    assert server_gpus(h100, 8) == 8
    assert server_gpus(h100, 16) == 8  # no H100 SXM server holds 16
    assert server_gpus(gb200, 8) == 4  # the default changes nothing: GB200 trays hold 4
    assert server_gpus(pcie, 2) == 2  # no catalogued server: the user's


SEARCH = {
    "model": {"preset": "llama-3-8b"},
    "training": {"method": "full", "precision": "bf16", "optimizer": "adamw", "seq_len": 4096,
                 "micro_batch_size": 2, "global_batch_size": 256, "recompute": "full", "flash_attention": True},
    "parallel": {"auto": True},
    "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 16, "gpus_per_node": 4},
    "data": {"tokens": "20B"},
    "constraints": {"deadline_days": 3, "currency": "CNY", "max_gpus": 32, "gpu_candidates": ["h100-sxm-80gb"],
                    "objective": "fastest"},
}


@pytest.fixture(scope="module")
def four_gpu_plans():
    from gpuplanner.core.search import search

    return search(scenario_from_dict(copy.deepcopy(SEARCH))).plans


def test_search_layouts_use_the_users_servers(four_gpu_plans):
    assert four_gpu_plans
    for p in four_gpu_plans:
        assert p.gpus_per_node == 4
        assert p.nodes == -(-p.num_gpus // 4)
        assert p.evaluation.scenario.hardware.gpus_per_node == 4
    multi = [p for p in four_gpu_plans if p.num_gpus > 4]
    assert multi, "a fastest search over up to 32 H100 must reach several servers"
    for p in multi:
        texts = [str(m) for m in p.evaluation.messages]
        assert any("Servers of 4 GPUs" in t and "comes 8 to a server" in t for t in texts), texts


# ---- 4. GB200 NVL72 inside its NVLink domain

def _gb200(n: int) -> dict:
    return {"model": {"preset": "llama-3-8b"},
            "training": {"method": "full", "precision": "bf16", "seq_len": 4096, "micro_batch_size": 2,
                         "global_batch_size": 2 * n, "recompute": "full", "flash_attention": True,
                         "framework": "fsdp"},
            "parallel": {"tp": 1, "pp": 1, "zero": 3},
            "hardware": {"gpu": "gb200-186gb", "num_gpus": n, "gpus_per_node": 4},
            "data": {"tokens": "5B"}}


def test_gb200_inside_the_rack_names_nvlink_not_nics():
    ev = evaluate(scenario_from_dict(_gb200(16)))
    links = plan_links(ev)
    assert links.inter_node is not None and "NVLink" in links.inter_node
    # NVLink 5: 900 GB/s each way per GPU (1,800 bidirectional), 4 GPUs a tray, in Gb/s
    assert links.inter_node_gbps_per_node == pytest.approx(900 * 8 * 4)
    assert not any("NIC" in str(m) or "InfiniBand" in str(m) for m in ev.messages)


def test_gb200_beyond_the_rack_still_names_its_network():
    ev = evaluate(scenario_from_dict(_gb200(144)))
    links = plan_links(ev)
    assert links.inter_node is not None and "NVLink" not in links.inter_node
    assert any("NIC" in str(m) for m in ev.messages)


# ---- 2. the HF stack's ZeRO 2/3: one decision (frameworks.hf_sharded_by_fsdp) for memory and time

def _hf(fw: str, version: int, zero: int) -> dict:
    return {"model": {"preset": "llama-3-8b"},
            "training": {"method": "full", "precision": "bf16", "seq_len": 4096, "micro_batch_size": 2,
                         "global_batch_size": 64, "recompute": "full", "flash_attention": True, "framework": fw,
                         "fsdp_version": version, "fsdp_no_sync": False},
            "parallel": {"tp": 1, "pp": 1, "zero": zero},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 16, "gpus_per_node": 8},
            "data": {"tokens": "5B"}}


def test_hf_sharding_decision_table():
    from gpuplanner.core.frameworks import hf_sharded_by_fsdp

    assert bool(hf_sharded_by_fsdp("hf", 1, 3)) and bool(hf_sharded_by_fsdp("trl", 1, 2))
    assert not bool(hf_sharded_by_fsdp("hf", 1, 1))  # FSDP has no ZeRO-1: DeepSpeed's
    assert not bool(hf_sharded_by_fsdp("hf", 2, 3))  # the default: DeepSpeed ZeRO
    assert not bool(hf_sharded_by_fsdp("deepspeed", 1, 3)) and not bool(hf_sharded_by_fsdp("fsdp", 1, 3))


def test_hf_on_fsdp1_holds_fsdp1_states_and_pays_fsdp1_passes():
    hf = evaluate(scenario_from_dict(_hf("hf", 1, 2)))
    fsdp = evaluate(scenario_from_dict(_hf("fsdp", 1, 2)))
    ds = evaluate(scenario_from_dict(_hf("hf", 2, 2)))
    for part in ("weights", "gradients", "optimizer"):  # FSDP1's fp32 shards, SHARD_GRAD_OP's kept 16-bit copy
        assert getattr(hf.memory, part) == pytest.approx(getattr(fsdp.memory, part), rel=1e-9), part
    assert hf.memory.weights != pytest.approx(ds.memory.weights, rel=1e-3)  # DeepSpeed's 16-bit weights
    # the time model runs the same FSDP1: its gradient cast/divide passes, not DeepSpeed's once-a-step reduction
    for zero in (2, 3):
        t_fs = evaluate(scenario_from_dict(_hf("hf", 1, zero))).time_modelled.parts
        t_ds = evaluate(scenario_from_dict(_hf("hf", 2, zero))).time_modelled.parts
        assert t_fs.get("fsdp1_grad_passes", 0.0) > 0.0
        assert t_ds.get("fsdp1_grad_passes", 0.0) == 0.0


def test_gb200_inside_the_rack_quotes_ask_for_no_network():
    from gpuplanner.core.quotes import VendorQuote, compare_vendor, plan_figures

    inside = plan_figures(evaluate(scenario_from_dict(_gb200(16))))
    assert inside.nodes == 4 and inside.nvlink_domain and inside.inter_node is None
    beyond = plan_figures(evaluate(scenario_from_dict(_gb200(144))))
    assert not beyond.nvlink_domain and beyond.inter_node == "ib"
    q = VendorQuote(provider="x", network="ethernet")
    net = compare_vendor(q, inside).network_check
    assert [c["status"] for c in net] == ["ok"] and "NVLink domain" in str(net[0]["message"])
    assert any(c["status"] == "fail" for c in compare_vendor(q, beyond).network_check)


def test_fsdp_version_choice_rule():
    # review15: the Training page's row reads this (the Hugging Face stack's ZeRO 2/3: hf_sharded_by_fsdp)
    from gpuplanner.core.frameworks import fsdp_version_choice

    assert fsdp_version_choice("fsdp", 0, False, 2) == "fsdp"
    assert fsdp_version_choice("hf", 3, False, 2) == "hf"
    assert fsdp_version_choice("hf", 0, True, 2) == "hf"  # the search tries ZeRO 2/3
    assert fsdp_version_choice("trl", 0, False, 1) == "hf"  # FSDP1 set: seen
    assert fsdp_version_choice("hf", 1, False, 2) is None
    assert fsdp_version_choice("deepspeed", 3, True, 1) is None and fsdp_version_choice("megatron", 3, True, 2) is None


# ---- review15: the FSDP switches follow the HF stack's sharding decision (hf_sharded_by_fsdp)

def _switches(fw: str, version: int, **t) -> dict:
    return {"model": {"preset": "llama-3.1-8b"},
            "training": {"method": "lora", "framework": fw, "fsdp_version": version, "global_batch_size": 64,
                         "micro_batch_size": 1, **t},
            "parallel": {"zero": 3, "tp": 1, "pp": 1}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}


@pytest.mark.parametrize("fw, version, field", [
    ("hf", 2, "fsdp_no_sync"),  # the HF stack at fsdp_version 2 runs DeepSpeed ZeRO: no FSDP no_sync
    ("hf", 2, "fsdp_lora_mixed_units"),
    ("trl", 2, "fsdp_lora_mixed_units"),
    ("fsdp", 2, "fsdp_lora_mixed_units"),  # FSDP2 shards per parameter: a frozen weight has no gradient
])
def test_fsdp_switches_refused_where_no_fsdp1_runs(fw, version, field):
    from gpuplanner.core.errors import ScenarioError

    with pytest.raises(ScenarioError, match=field):
        scenario_from_dict(_switches(fw, version, **{field: True}))


def test_fsdp_switches_memory_and_time_agree_on_fsdp1():
    # Accelerate's FSDP1 (fsdp_version 1) accepts both switches; the time model charges the mixed units' weight
    # gradients there (the memory model their 13 GiB of block gradients): both models see the same FSDP1
    off = evaluate(scenario_from_dict(_switches("hf", 1)))
    on = evaluate(scenario_from_dict(_switches("hf", 1, fsdp_no_sync=True, fsdp_lora_mixed_units=True)))
    assert on.memory.gradients > off.memory.gradients + 10.0
    # round 16 (ftoos16): without the switch PEFT's wrap policy makes every adapter its own FSDP1 unit (their hooks
    # are named apart); with it the adapters sit in their block's unit and the block weights' gradients are computed
    def compute_s(t):
        return t.breakdown["compute"] * t.step_time_s

    assert compute_s(on.time) > compute_s(off.time) * 1.2
    assert off.time.breakdown["fsdp1_lora_units"] > 0 and on.time.breakdown.get("fsdp1_lora_units", 0.0) == 0.0
    assert evaluate(scenario_from_dict(_switches("fsdp", 2, fsdp_no_sync=True))).memory.gradients > 0  # FSDP2's sync

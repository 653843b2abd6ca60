"""The older scenario fields a plan file could set but no control could (session 3's "found, not done"): each
control writes its field, a bad value is refused with one line at the field and not stored, and a value nobody
touched stays exactly as the file gave it (another edit, a save)."""

from __future__ import annotations

import json

import pytest

from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.ui.model import default_scenario
from tests.ui.test_issue35_fields_ui import choose, refused, type_text


@pytest.fixture
def win(make_window):
    return make_window(search_enabled=False)


def _adv(win):
    win.go_to(1)
    return win.page("training").advanced.fields


def user(win):
    return win.model.user_scenario()


def test_switches_and_overlap_write_the_training_section(win):
    f = _adv(win)
    for key, default in (("master_weights", True), ("optimizer_in_backward", False), ("activation_offload", False),
                         ("chunked_loss", False), ("torch_compile", False)):
        assert getattr(user(win).training, key) is default and f[key].isChecked() is default
        f[key].setChecked(not default)
        assert getattr(user(win).training, key) is (not default)
    for key in ("overlap_grad_reduce", "overlap_param_gather", "tp_comm_overlap", "overlap_p2p_comm",
                "compile_loss", "checkpoint_reentrant", "checkpoint_early_stop"):
        assert getattr(user(win).training, key) is None and f[key].currentData() == "default"
        choose(f[key], "off")
        assert getattr(user(win).training, key) is False
        choose(f[key], "on")
        assert getattr(user(win).training, key) is True
        choose(f[key], "default")
        assert getattr(user(win).training, key) is None


def test_lora_dropout_is_a_probability_for_lora_only(win):
    f = _adv(win)
    assert not f["lora_dropout"].isEnabled()  # full fine-tune: no adapters
    win.model.set("training.method", "lora")
    assert f["lora_dropout"].isEnabled()
    type_text(f["lora_dropout"], "0.05")
    assert user(win).training.lora_dropout == 0.05
    for bad in ("1", "-0.1", "abc"):
        type_text(f["lora_dropout"], bad)
        refused(f["lora_dropout"])
        assert user(win).training.lora_dropout == 0.05
    type_text(f["lora_dropout"], "")  # empty: the framework's own default (frameworks.lora_dropout_of; review r12)
    assert user(win).training.lora_dropout is None


def test_vpp_and_parameter_offload(win):
    f = _adv(win)
    win.model.set_many({"parallel.auto": False, "parallel.pp": 2, "parallel.zero": 0, "hardware.num_gpus": 8})
    type_text(f["vpp"], "4")
    assert user(win).parallel.vpp == 4
    type_text(f["vpp"], "0")
    refused(f["vpp"])
    assert user(win).parallel.vpp == 4
    f["offload_params"].setChecked(True)  # needs ZeRO-3: refused, not stored
    assert "zero=3" in refused(f["offload_params"])
    assert user(win).parallel.offload_params is False
    win.model.set("parallel.zero", 3)
    f["offload_params"].setChecked(False)
    f["offload_params"].setChecked(True)
    assert user(win).parallel.offload_params is True and not f["offload_params"].box.error


def test_moe_dispatcher_choice(win):
    """parallel.moe_dispatcher: Megatron's token dispatcher; refused with one line for another framework."""
    f = _adv(win)
    win.model.set_many({"model.preset": "qwen3-30b-a3b", "parallel.auto": False, "parallel.ep": 8,
                        "parallel.zero": 1, "hardware.num_gpus": 8})
    assert user(win).parallel.moe_dispatcher is None and f["moe_dispatcher"].currentData() is None
    if user(win).training.framework != "megatron":
        choose(f["moe_dispatcher"], "flex")
        assert "Megatron-Core setting" in refused(f["moe_dispatcher"])
        assert user(win).parallel.moe_dispatcher is None
        win.model.set("training.framework", "megatron")
    choose(f["moe_dispatcher"], "flex")
    assert user(win).parallel.moe_dispatcher == "flex"
    choose(f["moe_dispatcher"], None)
    assert user(win).parallel.moe_dispatcher is None


def test_assumptions_write_and_refuse(win):
    f = _adv(win)
    cases = {"mfu": ("0.42", 0.42, "1.5"), "memory_headroom_gib": ("4", 4.0, "-1"),
             "cuda_context_gib": ("1.25", 1.25, "-2"), "fragmentation": ("0.1", 0.1, "2")}
    for key, (good, value, bad) in cases.items():
        type_text(f[key], good)
        assert getattr(user(win).assumptions, key) == value
        type_text(f[key], bad)
        refused(f[key])
        assert getattr(user(win).assumptions, key) == value
    for key in ("mfu", "cuda_context_gib", "fragmentation"):  # empty: the default (the scenario keeps null)
        type_text(f[key], "")
        assert getattr(user(win).assumptions, key) is None and not f[key].box.error
    type_text(f["memory_headroom_gib"], "")  # no null here: a number is needed
    refused(f["memory_headroom_gib"])
    choose(f["memory_metric"], "allocated_last")
    assert user(win).assumptions.memory_metric == "allocated_last"
    choose(f["memory_metric"], "allocated")
    assert user(win).assumptions.memory_metric == "allocated"


def test_hardware_link_and_host_memory(win):
    win.go_to(4)
    adv = win.page("hardware").advanced
    assert adv.intra.currentData() is None and adv.host_ram.text() == ""
    choose(adv.intra, "pcie")
    assert user(win).hardware.intra_node == "pcie"
    choose(adv.intra, None)
    assert user(win).hardware.intra_node is None
    type_text(adv.host_ram, "1024")
    assert user(win).hardware.host_ram_gib == 1024.0
    type_text(adv.host_ram, "0")
    refused(adv.host_ram)
    assert user(win).hardware.host_ram_gib == 1024.0


ODD = {"training": {"method": "lora", "master_weights": False, "optimizer_in_backward": True,
                    "activation_offload": True, "chunked_loss": True, "torch_compile": True,
                    "lora_dropout": 0.123456789, "overlap_grad_reduce": False, "overlap_param_gather": True,
                    "tp_comm_overlap": False, "overlap_p2p_comm": True},
       "parallel": {"vpp": 3, "zero": 3, "offload_params": True},
       "hardware": {"intra_node": "pcie", "host_ram_gib": 503.123456789},
       "assumptions": {"mfu": 0.4123456789, "memory_headroom_gib": 2.718281828, "cuda_context_gib": 0.987654321,
                       "fragmentation": 0.0333333333, "memory_metric": "allocated"}}
PATHS = [f"{sec}.{k}" for sec, d in ODD.items() for k in d if k not in ("method", "zero")]


def _get(scenario, path):
    sec, key = path.split(".")
    return getattr(getattr(scenario, sec), key)


def test_untouched_values_stay_exactly_as_given(win, tmp_path):
    base = default_scenario().model_dump(mode="json")
    for sec, d in ODD.items():
        base[sec].update(d)
    s = scenario_from_dict(base)
    win.model.load(s)
    _adv(win)
    win.go_to(4)
    want = {p: _get(s, p) for p in PATHS}
    # the controls show the values (the finer ones rounded for display only)
    f = win.page("training").advanced.fields
    assert not f["master_weights"].isChecked() and f["torch_compile"].isChecked()
    assert f["overlap_grad_reduce"].currentData() == "off" and f["vpp"].text() == "3"
    assert f["lora_dropout"].text() == "0.123457" and f["mfu"].text() == "0.412346"
    assert win.page("hardware").advanced.intra.currentData() == "pcie"
    win.model.set("training.seq_len", 1024)  # another edit
    assert {p: _get(user(win), p) for p in PATHS} == want
    path = tmp_path / "odd.gpuplan"
    assert win.save_to(path)
    saved = json.loads(path.read_text(encoding="utf-8"))["scenario"]
    assert {p: saved[p.split(".")[0]][p.split(".")[1]] for p in PATHS} == want


def test_pp_account_embedding_loss_choice(win):
    """parallel.pp_account_embedding_loss: Megatron's account-for-embedding/loss split; refused for another tool."""
    f = _adv(win)
    win.model.set_many({"model.preset": "qwen3-235b-a22b", "parallel.auto": False, "parallel.pp": 2,
                        "parallel.zero": 1, "hardware.num_gpus": 8})
    assert user(win).parallel.pp_account_embedding_loss is False and not f["pp_account_embedding_loss"].isChecked()
    if user(win).training.framework != "megatron":
        f["pp_account_embedding_loss"].setChecked(True)
        assert "Megatron-Core setting" in refused(f["pp_account_embedding_loss"])
        assert user(win).parallel.pp_account_embedding_loss is False
        win.model.set("training.framework", "megatron")
        f["pp_account_embedding_loss"].setChecked(False)
    f["pp_account_embedding_loss"].setChecked(True)
    assert user(win).parallel.pp_account_embedding_loss is True and not f["pp_account_embedding_loss"].box.error
    f["pp_account_embedding_loss"].setChecked(False)
    assert user(win).parallel.pp_account_embedding_loss is False


def test_cuda_graph_scope_choice(win):
    """parallel.cuda_graph_scope: Megatron's per-layer CUDA graphs; refused with one line for another framework."""
    f = _adv(win)
    win.model.set_many({"model.preset": "qwen3-30b-a3b", "parallel.auto": False, "parallel.ep": 8,
                        "parallel.zero": 1, "hardware.num_gpus": 8})
    assert user(win).parallel.cuda_graph_scope is None and f["cuda_graph_scope"].currentData() is None
    if user(win).training.framework != "megatron":
        choose(f["cuda_graph_scope"], "attn")
        assert "Megatron-Core setting" in refused(f["cuda_graph_scope"])
        assert user(win).parallel.cuda_graph_scope is None
        win.model.set("training.framework", "megatron")
    choose(f["cuda_graph_scope"], "attn_moe_router")
    assert user(win).parallel.cuda_graph_scope == "attn_moe_router"
    choose(f["cuda_graph_scope"], None)
    assert user(win).parallel.cuda_graph_scope is None


def test_moe_token_drop_choice(win):
    """parallel.moe_capacity_factor / moe_pad_to_capacity: Megatron's token dropping; padding needs a factor."""
    f = _adv(win)
    win.model.set_many({"model.preset": "qwen3-30b-a3b", "parallel.auto": False, "parallel.ep": 8,
                        "parallel.zero": 1, "hardware.num_gpus": 8, "training.framework": "megatron"})
    assert user(win).parallel.moe_capacity_factor is None and not f["moe_pad_to_capacity"].isChecked()
    f["moe_pad_to_capacity"].setChecked(True)
    assert "moe_capacity_factor" in refused(f["moe_pad_to_capacity"])
    assert user(win).parallel.moe_pad_to_capacity is False
    f["moe_pad_to_capacity"].setChecked(False)
    type_text(f["moe_capacity_factor"], "1.0")
    assert user(win).parallel.moe_capacity_factor == 1.0
    f["moe_pad_to_capacity"].setChecked(True)
    assert user(win).parallel.moe_pad_to_capacity is True and not f["moe_pad_to_capacity"].box.error
    choose(f["cuda_graph_scope"], "layer")
    assert user(win).parallel.cuda_graph_scope == "layer"
    type_text(f["moe_capacity_factor"], "-1")
    refused(f["moe_capacity_factor"])
    assert user(win).parallel.moe_capacity_factor == 1.0


def test_checkpoint_early_stop_only_where_pytorch_checkpoints(win):
    """Issue 35 round 16 (ac16): the early-stop switch means nothing for Megatron's, DeepSpeed's or Unsloth's own
    checkpoint functions (core/frameworks.early_stop_switch); a set value stays enabled."""
    f = _adv(win)
    win.model.set("training.framework", "fsdp")
    assert f["checkpoint_early_stop"].isEnabled()
    win.model.set("training.framework", "megatron")
    assert not f["checkpoint_early_stop"].isEnabled()

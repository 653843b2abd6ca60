"""Issue 35 round 16 (titanadv16): the torchtitan row offers and defaults to what the tool runs.

1. pytorch/torchtitan 114151ad4 (#2357, 2026-03-23) removed every-N-th-layer selective AC (``selective_ac_option``,
   ``_layer_sac_count``): the search and the memory alternatives offer only none / per-op SAC / full for the ``fsdp``
   row; a scenario that states ``layer_sac`` (a run of an older torchtitan) is estimated as entered, with a warning
   naming the commit and its date, never changed.
2. torchtitan's own AC when none is configured: ``SelectiveAC.Config`` (per-op) at b5bcd76c6 (``torchtitan/trainer.py``),
   ``mode = "selective"`` (per-op once the layer option went) at 114151ad4: an ``fsdp`` FSDP2 full-training
   scenario that leaves ``training.recompute`` out runs per-op SAC, the field stays unset (savefile16's rule). LoRA on
   the row (torchtune: ``enable_activation_checkpointing`` False), FSDP1 (Composer, fms-fsdp) and preference/RL
   objectives (not torchtitan) keep the field default, none.
3. GPT-NeoX (DeepSpeed's ``CheckpointFunction``, ``megatron/mpu/random.py``) and nanotron (``torch.utils.checkpoint``
   with no ``use_reentrant``, ``src/nanotron/utils.py`` @17468b22) checkpoint reentrantly: no saved-tensor-hook
   host cost (``timing.CKPT_NONREENTRANT_LAYER_S``) unless the user asks for non-reentrant."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_time as vt  # noqa: E402

from gpuplanner.core import frameworks  # noqa: E402
from gpuplanner.core.evaluate import evaluate, retired_recompute_message  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402


def _titan(**training):
    sc = copy.deepcopy(vt._tt("llama-3.1-8b", 8, 4096, 1, rec="full", compile_=False))
    sc["training"].pop("recompute")
    sc["training"].update(training)
    return scenario_from_dict(sc)


def test_search_offers_only_what_current_torchtitan_runs():
    assert frameworks.FRAMEWORKS["fsdp"].recompute == ("none", "op_sac", "full")
    assert frameworks.TORCHTITAN_RETIRED_RECOMPUTE == {"layer_sac": ("114151ad4", "2026-03-23")}


def test_unset_recompute_is_torchtitans_per_op_default_and_stays_unset():
    s = _titan()
    assert s.training.recompute == "op_sac"
    assert "recompute" not in s.training.model_fields_set
    assert "recompute" not in s.model_dump(exclude_unset=True)["training"]


def test_other_programs_on_the_row_keep_none():
    assert _titan(method="lora").training.recompute == "none"  # torchtune
    assert _titan(fsdp_version=1).training.recompute == "none"  # Composer / fms-fsdp
    assert _titan(objective="dpo").training.recompute == "none"  # OLMo-core, not torchtitan
    assert frameworks.tool_default_recompute("hf", 2, "full", "sft") is None


def test_the_users_choice_wins():
    for rc in ("none", "full", "layer_sac"):
        s = _titan(recompute=rc)
        assert s.training.recompute == rc and "recompute" in s.training.model_fields_set


def test_a_previous_tools_default_is_not_kept():
    """Switching the framework of a scenario whose recompute is a tool default: the new tool's own default."""
    s = _titan()
    d = s.model_dump(exclude_unset=True)
    d["training"]["framework"] = "hf"
    d["training"]["recompute"] = s.training.recompute  # as an in-memory copy would carry it…
    s2 = scenario_from_dict(d)
    assert s2.training.recompute == "op_sac"  # …explicit, so kept
    t = s.training.model_copy(update={"framework": "hf"})
    t.model_fields_set.discard("recompute")
    from gpuplanner.core.scenario import _apply_tool_defaults
    _apply_tool_defaults(t)
    assert t.recompute == "none"


def test_layer_sac_entered_is_estimated_and_warned_with_the_version():
    s = _titan(recompute="layer_sac", recompute_every_n=2)
    msgs = retired_recompute_message(s)
    assert len(msgs) == 1
    assert msgs[0].params == {"n": 2, "commit": "114151ad4", "date": "2026-03-23"}
    ev = evaluate(s)
    assert ev.scenario.training.recompute == "layer_sac"
    assert any(getattr(m, "params", None) == msgs[0].params for m in ev.messages)
    assert retired_recompute_message(_titan(recompute="op_sac")) == []
    assert retired_recompute_message(_titan(recompute="layer_sac", method="lora")) == []


def test_reentrant_tools_pay_no_nonreentrant_host_cost():
    for tool in ("gpt-neox", "nanotron", "deepspeed", "megatron"):
        assert frameworks.checkpoint_nonreentrant(tool, None, "sft", False, 8, 0) is False
        assert frameworks.checkpoint_nonreentrant(tool, False, "sft", False, 8, 0) is True
    assert frameworks.checkpoint_nonreentrant("fsdp", None, "sft", False, 8, 3) is True
    dp = np.array([1, 8])
    assert frameworks.checkpoint_nonreentrant("nanotron", None, "sft", False, dp, dp * 0) is False


"""One document, one answer: ``plan --json``'s #1 == ``estimate --json`` of #1's scenario == ``answer()`` (plangap17).

For documents covering RL (verl, TRL, OpenRLHF), DPO, LoRA/QLoRA, Megatron pretraining and a serving-free project,
the search's #1 (``gpuplanner plan --json``), ``gpuplanner estimate --json`` of the complete scenario #1 writes
out, and the app's :func:`gpuplanner.app.answer.answer` of the same document give the same memory per GPU (total
and every part), compute and calendar days and cost — exactly (JSON floats round-trip), not to the displayed
precision.

Before plangap17 the GRPO documents that leave ``training.preference.beta`` out failed: the search resolved TRL's
``GRPOConfig.beta = 0.0`` (no reference model) from pydantic's ``model_fields_set``, while the scenario #1 wrote
out carried the field default ``beta: 0.1`` as a value the user set, so ``estimate`` loaded a 16-bit reference
(verl GRPO 7B, both offloads off: 61.7 vs 58.0 GiB). The scenario now resolves the objective's beta itself
(``scenario._apply_objective_defaults``), so every path reads one value. And #1 depended on ``--top``: the search's
reducer kept a pool of ``top`` rows per chunk, which could drop the plan the "fastest" tie ranks first
(``hf-fastest-setup-bound``: ``plan --top 1`` named 128 GPUs, the app 56); the pool is now kept at the app's
full length (``search._search``).
"""

from __future__ import annotations

import copy
import json
import math
import sys
from pathlib import Path

import pytest

from gpuplanner.app.answer import answer
from gpuplanner.cli import run_cli
from gpuplanner.core.methods import method_profile
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_fixes17_r17 import VERL_OFF  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _h100(n: int) -> dict:
    return {"max_gpus": n, "gpu_candidates": ["h100-sxm-80gb"]}


def _rl(**kw) -> dict:
    return {"group_size": 4, "rollout_len": 512, "prompt_len": 256, **kw}


DOCS = {
    "verl-grpo-both-offloads-off": VERL_OFF,
    "verl-grpo-kl": {**copy.deepcopy(VERL_OFF), "training": {
        **copy.deepcopy(VERL_OFF["training"]), "preference": {"beta": 0.001}}},
    "trl-grpo-vllm-colocated": {
        "model": {"preset": "qwen2.5-1.5b"},
        "training": {"objective": "grpo", "method": "full", "framework": "trl", "seq_len": 1024,
                     "global_batch_size": 64, "rl": _rl(generation_engine="vllm_colocated", engine_sleep=True,
                                                         generation_gpu_fraction=0.3)},
        "data": {"tokens": 5e6}, "constraints": _h100(8)},
    "trl-grpo-lora-hf-generate": {
        "model": {"preset": "qwen2.5-7b"},
        "training": {"objective": "grpo", "method": "lora", "framework": "trl", "seq_len": 1024,
                     "global_batch_size": 32, "rl": _rl(generation_engine="training")},
        "data": {"tokens": 2e6}, "constraints": _h100(8)},
    # OpenRLHF: DeepSpeed ZeRO-3 actor/critic, --colocate_all_models with vLLM (--vllm_enable_sleep),
    # --ref_reward_offload (the planner's OpenRLHF is framework deepspeed with these flags)
    "openrlhf-ppo": {
        "model": {"preset": "qwen2.5-1.5b"},
        "training": {"objective": "ppo", "method": "full", "framework": "deepspeed", "seq_len": 1024,
                     "global_batch_size": 64, "preference": {"beta": 0.01, "reference_offload": True},
                     "rl": _rl(generation_engine="vllm_colocated", engine_sleep=True)},
        "parallel": {"zero": 3}, "data": {"tokens": 5e6}, "constraints": _h100(8)},
    "openrlhf-grpo-unset-beta": {
        "model": {"preset": "qwen2.5-1.5b"},
        "training": {"objective": "grpo", "method": "full", "framework": "deepspeed", "seq_len": 1024,
                     "global_batch_size": 64, "rl": _rl(generation_engine="vllm_colocated", engine_sleep=True)},
        "parallel": {"zero": 3}, "data": {"tokens": 5e6}, "constraints": _h100(8)},
    "dpo-full": json.loads((ROOT / "examples" / "8b-dpo-full.json").read_text(encoding="utf-8")),
    "dpo-lora-unset-beta": {
        "model": {"preset": "llama-3.1-8b"},
        "training": {"objective": "dpo", "method": "lora", "seq_len": 2048, "global_batch_size": 32},
        "data": {"tokens": 5e7}, "constraints": _h100(8)},
    "lora": {"model": {"preset": "qwen2.5-7b"}, "training": {"method": "lora", "seq_len": 4096},
             "data": {"tokens": 1e8}, "constraints": _h100(8)},
    "qlora": {"model": {"preset": "llama-3-70b"}, "training": {"method": "qlora", "seq_len": 2048},
              "data": {"tokens": 5e7}, "constraints": _h100(8)},
    # found by a random sweep (tests/test_one_answer.random_scenario, seed 5): the setup hours dominate the calendar,
    # so every plan is within the "fastest" tie and the cheapest ranks first; a `plan --top 1` pool lost it
    "hf-fastest-setup-bound": {
        "model": {"preset": "gpt2-xl"},
        "training": {"method": "full", "framework": "hf", "seq_len": 4096, "recompute": "full",
                     "optimizer": "adamw_8bit"},
        "parallel": {"vpp": 1, "offload_optimizer": True}, "data": {"tokens": 1e8},
        "constraints": {"max_gpus": 128, "hours_per_week": 168, "phase": "research", "objective": "fastest",
                        "currency": "USD", "budget": 1e6}},
    "megatron-pretrain": {
        "model": {"preset": "llama-3.1-8b"},
        "training": {"method": "pretrain", "framework": "megatron", "seq_len": 8192, "global_batch_size": 512},
        "data": {"tokens": 2e10}, "constraints": _h100(64)},
}


def _write(tmp_path: Path, name: str, data: dict) -> Path:
    f = tmp_path / name
    f.write_text(json.dumps(data), encoding="utf-8")
    return f


def _serving_free_project(tmp_path: Path) -> Path:
    """The Shenzhen example project without its serving phase and its selected plan, layout automatic."""
    d = json.loads((ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan").read_text(encoding="utf-8"))
    d["project"]["phases"] = [p for p in d["project"]["phases"] if p["kind"] != "inference"]
    d["scenario"]["parallel"]["auto"] = True
    for key in ("selected_plan", "results"):
        d.pop(key, None)
    return _write(tmp_path, "project.gpuplan", d)


def _cli_json(args: list[str], capsys) -> dict:
    assert run_cli(args) == 0
    return json.loads(capsys.readouterr().out)


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return float(a) == float(b) or math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)


def _figures(j: dict) -> dict:
    out = {f"mem.{k}": v for k, v in j["memory_per_gpu_gib"].items()}
    out.update({k: j[k] for k in ("compute_days", "calendar_days", "cost", "currency", "gpu", "num_gpus", "fits")})
    out["layout"] = j["layout"]
    return out


def _diff(a: dict, b: dict) -> list:
    bad = []
    for k in sorted(set(a) | set(b)):
        x, y = a.get(k, "<absent>"), b.get(k, "<absent>")
        ok = _same(x, y) if isinstance(x, (int, float)) and isinstance(y, (int, float)) else x == y
        if not ok:
            bad.append((k, x, y))
    return bad


def _check(path: Path, tmp_path: Path, capsys) -> None:
    # --top 1, the smallest list: #1 must not depend on how many plans are asked (answer() lists 10)
    plan = _cli_json(["plan", str(path), "--json", "--top", "1"], capsys)
    assert plan["plans"], path
    top = plan["plans"][0]
    est = _cli_json(["estimate", str(_write(tmp_path, "top.json", top["scenario"])), "--json"], capsys)
    assert _diff(_figures(top), _figures(est)) == [], "plan #1 vs estimate of its scenario"
    ev = answer(path).evaluation  # the app's answer for the same document: the search's #1 (automatic layout)
    assert _diff(_figures(top), _figures(json.loads(json.dumps(ev.to_json())))) == [], "plan #1 vs answer()"


@pytest.mark.parametrize("name", sorted(DOCS))
def test_plan_top_equals_estimate_of_its_scenario_and_answer(name, tmp_path, capsys):
    d = copy.deepcopy(DOCS[name])
    d.setdefault("parallel", {})["auto"] = True  # the document asks for the search's layout: answer() is #1
    _check(_write(tmp_path, "doc.json", d), tmp_path, capsys)


def test_serving_free_project_plan_top_equals_estimate_and_answer(tmp_path, capsys):
    _check(_serving_free_project(tmp_path), tmp_path, capsys)


def test_grpo_unset_beta_is_resolved_in_the_scenario_and_survives_a_round_trip():
    """The hand-derived rule: GRPO with beta left out loads no reference (TRL GRPOConfig.beta = 0.0), and the
    scenario written out (every field) reads the same; DPO keeps DPOConfig.beta = 0.1 and its reference; a user's
    beta is kept; the resolved default stays unset, so another objective later gets its own."""
    s = scenario_from_dict(copy.deepcopy(VERL_OFF))
    assert s.training.preference.beta == 0.0 and "beta" not in s.training.preference.model_fields_set
    assert method_profile(s.training).reference == "none"
    again = scenario_from_dict(json.loads(json.dumps(s.model_dump(mode="json"))))
    assert again.training.preference.beta == 0.0
    assert method_profile(again.training).reference == "none"
    dpo = scenario_from_dict({"training": {"objective": "dpo", "method": "full"}})
    assert dpo.training.preference.beta == 0.1 and method_profile(dpo.training).reference == "separate"
    kl = copy.deepcopy(VERL_OFF)
    kl["training"]["preference"] = {"beta": 0.001}
    k = scenario_from_dict(kl)
    assert k.training.preference.beta == 0.001 and method_profile(k.training).reference == "separate"
    d = s.model_dump(mode="json", exclude_unset=True)
    assert "beta" not in d["training"].get("preference", {})
    d["training"]["objective"] = "dpo"
    d["training"].pop("rl", None)
    assert scenario_from_dict(d).training.preference.beta == 0.1

"""Round 7 of the expert review (docs/notes/2026-12-06/issue-35-r7-advice6.md): a senior infrastructure engineer
reads plan #1 of everyday requests and signs it only if a team would run it as said. Each test is one defect found
in that review, asserted as the expert would; each fails on main at 8a44638."""

from __future__ import annotations

import json
from pathlib import Path

from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.frameworks import FRAMEWORKS, interleaves
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.core.search import search

DATA = Path(__file__).parent / "data" / "expert_review"


def _load(name: str):
    return scenario_from_dict(json.loads((DATA / name).read_text(encoding="utf-8")))


# ------------------------------------------------------------------ Megatron-SWIFT GRPO runs no VPP (frameworks.py)

def test_megatron_swift_grpo_plans_no_interleaved_pipeline():
    """GRPO of Qwen2.5-7B on up to 8 × H800: plan #1 on main was 4 × H800 Megatron-SWIFT TP 2 × PP 2 with VPP 2 (and
    GRPO of Qwen3-30B-A3B: TP 4 × PP 2 × VPP 8). ms-swift's Megatron GRPO trainer asserts "GRPO currently does not
    support VPP." (swift/megatron/trainers/grpo_trainer.py): the run stops. No plan may interleave, and every
    pipelined Megatron-SWIFT plan says why VPP was not tried."""
    for name in ("grpo-7b-8xh800.json", "grpo-qwen3-30b-a3b-vllm.json"):
        res = search(_load(name), top=5)
        assert res.plans, name
        assert all(p.evaluation.layout.vpp == 1 for p in res.plans), \
            [(p.gpu, p.num_gpus, p.pp, p.evaluation.layout.vpp) for p in res.plans]
        piped = [p for p in res.plans if p.framework == "megatron-swift" and p.pp > 1]
        for p in piped:
            lines = [m.render() for m in p.framework_reason]
            assert any("VPP) is not tried" in t and "GRPO" in t for t in lines), lines


def test_megatron_swift_dpo_and_sft_keep_vpp_and_an_entered_grpo_vpp_is_warned():
    """Its DPO trainer runs one reference model per virtual stage (dpo_trainer.py ``ref_models[vp_stage]``) and SFT is
    Megatron's own schedule: both still interleave. A GRPO layout the user enters with VPP is kept, with a warning."""
    assert interleaves("megatron-swift", "dpo") and interleaves("megatron-swift", "sft")
    assert not interleaves("megatron-swift", "grpo") and interleaves("megatron", "grpo")
    assert FRAMEWORKS["megatron-swift"].no_vpp_objectives == ("grpo",)
    base = {"model": {"preset": "qwen2.5-7b"},
            "training": {"framework": "megatron-swift", "method": "full", "objective": "grpo",
                         "global_batch_size": 64, "rl": {"generation_engine": "vllm_colocated"}},
            "hardware": {"gpu": "h800-sxm-80gb", "num_gpus": 4},
            "parallel": {"tp": 2, "pp": 2, "vpp": 2}}
    said = [m.render() for m in evaluate(scenario_from_dict(base)).warnings]
    assert any("VPP 2" in t and "interleaved" in t for t in said), said
    dpo = json.loads(json.dumps(base))
    dpo["training"]["objective"] = "dpo"
    dpo["training"].pop("rl")
    assert not any("VPP 2" in m.render() for m in evaluate(scenario_from_dict(dpo)).warnings)


# ------------------------------------------------------------------ what fits instead: the loss kernels (search.py)

def test_qlora_14b_at_4k_on_one_24gb_card_names_the_switches_that_fit_it():
    """QLoRA of Qwen2.5-14B at 4,096 tokens, rank 64, on one RTX 4090 (max_gpus 1): main said only "No candidate fits
    in memory: allow more GPUs (max_gpus) or larger cards" — the team has one card. The largest activation is the
    152k-vocabulary logits (upcast to fp32 for the loss); Liger Kernel's fused linear cross-entropy builds none, and
    Unsloth (Cut Cross-Entropy) runs 14B QLoRA on 16 GB: both fit the same card. The user's choice is kept."""
    res = search(_load("qlora-14b-4k-one-24gb.json"), top=3)
    assert not res.plans
    notes = [m.render() for m in res.notes]
    liger = [t for t in notes if "training.liger_kernel" in t]
    unsloth = [t for t in notes if "training.framework unsloth" in t]
    assert liger and "1 × NVIDIA GeForce RTX 4090" in liger[0] and "Your choice is kept" in liger[0], notes
    assert unsloth and "(Unsloth)" in unsloth[0], notes


def test_a_switch_already_on_is_not_offered_again():
    """With Liger Kernel already on (and still no fit at 16k tokens), the Liger line is not offered as a change."""
    d = json.loads((DATA / "qlora-14b-4k-one-24gb.json").read_text(encoding="utf-8"))
    d["training"]["liger_kernel"] = True
    d["training"]["seq_len"] = 65536
    res = search(scenario_from_dict(d), top=1)
    assert not res.plans
    assert not any("training.liger_kernel" in m.render() for m in res.notes)


# ------------------------------------------------------------------ the likely range names its runs (evaluate.py)

def test_the_likely_range_names_the_published_runs_it_comes_from(capsys):
    """The CLI said "p10–p90 of the model's error on 55 published DeepSpeed runs" (the set has no DeepSpeed run: the
    band is all rows), "18 published PyTorch FSDP2 (torchtitan) runs" (they are MosaicML llm-foundry's) and "12
    published Hugging Face Trainer / Accelerate runs" (torchtune's README runs): bench/validation_bands.py FAMILIES.
    An expert reads that as evidence the stack was measured; the line names the runs as they are."""
    from gpuplanner.cli import run_cli  # noqa: PLC0415
    from gpuplanner.core.evaluate import validation_band  # noqa: PLC0415

    assert validation_band("deepspeed")["runs"] == "Megatron-LM, llm-foundry and torchtune"
    assert validation_band("fsdp")["runs"] == "MosaicML llm-foundry (PyTorch FSDP)"
    assert validation_band("hf")["runs"] == "torchtune"
    assert run_cli(["plan", "--top", "2", "--lang", "en", str(DATA / "full-7b-deepspeed.json")]) == 0
    out = capsys.readouterr().out
    ranges = [ln for ln in out.splitlines() if "likely range" in ln]
    assert ranges and all("published DeepSpeed runs" not in ln for ln in ranges), ranges
    assert any("published Megatron-LM, llm-foundry and torchtune runs" in ln for ln in ranges), ranges


# ------------------------------------------------------------------ serving on GeForce cards (project.py)

def _serving_phase(capsys, name: str) -> dict:
    from gpuplanner.cli import run_cli  # noqa: PLC0415

    assert run_cli(["project", str(DATA / name), "--json", "--lang", "en"]) == 0
    out = json.loads(capsys.readouterr().out)
    return next(ph for ph in out["phases"] if ph.get("kind") == "inference")


def test_serving_on_geforce_cards_says_the_licence_and_the_missing_p2p(capsys):
    """Serving Qwen2.5-72B int4 to 200 users on the cards the team can get (4090, 5090, L20, L40S): the project chose
    80 × RTX 5090 at TP 2 for 13 weeks of production and said nothing of either: NVIDIA's GeForce driver licence
    (§2.1.3 "No Datacenter Deployment") and TP over cards without P2P (all-reduces through host memory). Both said."""
    ph = _serving_phase(capsys, "serve-72b-int4-geforce.gpuplan")
    # a GeForce card wins either way (80 x 5090 or, since the serving GEMMs run at the training model's GeForce
    # share, 134 x 4090, both at TP 2 and within 3% of each other's cost); the lines name the card chosen
    assert ph["gpu"] in ("rtx-5090-32gb", "rtx-4090-24gb"), ph["gpu"]
    msgs = ph["messages"]
    assert any("GeForce driver licence excludes datacenter deployment" in m for m in msgs), msgs
    tp = ph["inference"]["tp"]
    assert tp > 1
    assert any(m.startswith(f"TP {tp} on {ph['device_name']}") and "without P2P" in m for m in msgs), msgs
    # TP 1 replicas need no P2P (serving Qwen2.5-32B int4 on 5090s): only the licence line
    ph = _serving_phase(capsys, "serve-32b-consumer.gpuplan")
    assert any("GeForce driver licence" in m for m in ph["messages"])
    assert not any("without P2P" in m for m in ph["messages"]), ph["messages"]

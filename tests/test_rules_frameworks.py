"""The search chooses the framework when the user leaves it open; the framework table drives the layouts;
an explicit framework is the user's choice and is kept; issue 17's done-when test for a 70B pretraining."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core import frameworks as F
from gpuplanner.core import search as S
from gpuplanner.core import timing as T
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.memory import RECOMPUTE_CODES
from gpuplanner.core.scenario import scenario_from_dict


def _70b(**training):
    """Issue 17: 70B pretraining, 1T tokens, a month, 8M CNY, no framework given."""
    return {"model": {"preset": "llama-3-70b"}, "training": {"method": "pretrain", "seq_len": 4096, **training},
            "data": {"tokens": "1T"},
            "constraints": {"deadline_days": 30, "budget": 8_000_000, "currency": "CNY", "max_gpus": 2048}}


# ------------------------------------------------------------------------------------------- the schema


def test_search_frameworks_defaults_from_whether_the_framework_is_named():
    assert scenario_from_dict({}).constraints.search_frameworks is True
    named = scenario_from_dict({"training": {"framework": "hf"}})
    assert named.constraints.search_frameworks is False  # an explicit framework is the user's choice
    both = scenario_from_dict({"training": {"framework": "fsdp"}, "constraints": {"search_frameworks": True}})
    assert both.constraints.search_frameworks is True
    off = scenario_from_dict({"constraints": {"search_frameworks": False}})
    assert off.constraints.search_frameworks is False and off.training.framework == "hf"
    # the resolved value survives a save and reload (the app dumps every field, the framework included)
    again = scenario_from_dict(scenario_from_dict({}).model_dump(mode="json"))
    assert again.constraints.search_frameworks is True and again.training.framework == "hf"


def test_searched_frameworks_follow_the_method_and_the_users_list():
    s = scenario_from_dict({"training": {"method": "lora"}})
    assert S.searched_frameworks(s) == (("hf", "deepspeed", "fsdp"), True)  # Megatron-LM has no LoRA
    s = scenario_from_dict({"training": {"method": "pretrain"},
                            "constraints": {"framework_candidates": ["megatron", "fsdp"]}})
    assert S.searched_frameworks(s) == (("fsdp", "megatron"), True)
    s = scenario_from_dict({"training": {"method": "pretrain", "framework": "deepspeed"}})
    assert S.searched_frameworks(s) == (("deepspeed",), False)


# ---------------------------------------------------------------------------------------- the one table


def test_framework_table_is_what_the_search_enumerates():
    assert S.ZERO_BY_FRAMEWORK == {k: f.zero_stages for k, f in F.FRAMEWORKS.items()}
    assert set(S.TP_FRAMEWORKS) == {"fsdp", "megatron"} and set(S.PP_FRAMEWORKS) == {"deepspeed", "fsdp", "megatron"}
    for fw, sup in F.FRAMEWORKS.items():
        assert sup.source and sup.setup and sup.name
        # the time model's defaults agree with the table: fused kernels, context parallelism in the DP group
        assert T.cp_joins_dp(fw) == sup.context_parallel
        s = scenario_from_dict({"model": {"preset": "llama-2-7b"}, "training": {"framework": fw, "method": "full"},
                                "constraints": {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb"]}})
        ctx = next(S.iter_contexts(s))
        assert ctx.time_kwargs["fused"] == sup.fused_kernels
        c = S.enumerate_candidates(ctx, 16)
        assert set(np.unique(c["zero"])) <= set(sup.zero_stages)
        assert set(np.unique(c["recompute"])) <= {RECOMPUTE_CODES[r] for r in sup.recompute}
        # (TP the search tries: DeepSpeed's AutoTP is entered only, frameworks.FrameworkSupport.tp_searched)
        assert (c["tp"].max() > 1) == (sup.tensor_parallel and sup.tp_searched)
        # DeepSpeed's pipeline needs a PipelineModule: searched for pretraining only (pp_searched_methods)
        pp_searched = sup.pipeline_parallel and (sup.pp_searched_methods is None or "full" in sup.pp_searched_methods)
        assert (c["pp"].max() > 1) == pp_searched
        assert not ((c["pp"] > 1) & (c["zero"] > sup.pipeline_max_zero)).any()
        assert bool(c["sp"].any()) == sup.sequence_parallel
        assert bool((c["vpp"] > 1).any()) == sup.interleaved_pipeline
    # overlap defaults are read from the time model (one copy)
    assert F.overlap_defaults("megatron", 1, 2, 4, True) == {"overlap_grad_reduce": True, "overlap_param_gather": True,
                                                            "tp_comm_overlap": True, "overlap_p2p_comm": True}
    assert F.overlap_defaults("deepspeed", 2, 1, 1, False)["overlap_grad_reduce"] is False
    assert set(F.to_json()) == set(F.ORDER + F.TOOLS)  # the engines, then the fine-tuning tools


# --------------------------------------------------------------------------------------------- searching


def test_each_context_is_one_gpu_and_one_framework_and_both_paths_agree():
    s = scenario_from_dict({"model": {"preset": "llama-2-7b"}, "training": {"method": "full"}, "data": {"tokens": "2B"},
                            "constraints": {"max_gpus": 16, "gpu_candidates": ["a800-sxm-80gb", "h20-96gb"]}})
    ctxs = list(S.iter_contexts(s))
    assert [(c.gpu.id, c.framework) for c in ctxs] == [(g, f) for g in ("a800-sxm-80gb", "h20-96gb")
                                                       for f in ("hf", "deepspeed", "fsdp", "megatron")]
    rng = np.random.default_rng(3)
    for ctx in ctxs:
        c = S.enumerate_candidates(ctx, 16)
        vec = S.evaluate_candidates(ctx, c)
        for i in rng.choice(len(c["tp"]), size=8, replace=False):
            sc = S.candidate_scenario(ctx, c, int(i))
            assert sc.training.framework == ctx.framework
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table, overheads=ctx.overheads,
                          rent_vs_build=False)
            assert ev.memory.total == pytest.approx(vec["mem_gib"][i], rel=1e-9)
            if vec["fits"][i]:
                assert ev.cost == pytest.approx(vec["cost"][i], rel=1e-9)
                assert ev.mfu_modelled == pytest.approx(vec["mfu"][i], rel=1e-9)
                assert ev.mfu == pytest.approx(vec["mfu_used"][i], rel=1e-9)


def test_explicit_framework_is_kept_and_said():
    r = S.search(scenario_from_dict(_70b(framework="megatron")), top=3)
    assert r.frameworks == ("megatron",)
    assert all(p.framework == "megatron" and not p.framework_searched for p in r.plans)
    assert "as set in the scenario" in r.plans[0].framework_reason[0].render()


def test_issue17_70b_month_no_framework_given(tmp_path, capsys):
    """Done when: plan #1 uses TP/PP or FSDP with ≥80 GB cards, MFU ≥ 30%, and costs no more than the best plan
    found with the framework fixed to Megatron by hand."""
    auto = S.search(scenario_from_dict(_70b()), top=5)
    fixed = S.search(scenario_from_dict(_70b(framework="megatron")), top=5)
    best = auto.plans[0]
    assert auto.feasible and auto.frameworks == ("hf", "deepspeed", "fsdp", "megatron")
    assert best.tp * best.pp > 1 or best.framework == "fsdp"
    assert best.gpu_memory_gib >= 80 and best.mfu >= 0.30 and best.mfu_grade in ("good", "fair", "optimistic")
    assert best.meets_deadline and best.within_budget
    assert best.cost <= fixed.plans[0].cost * (1 + 1e-9)
    # it says which framework and why: chosen by the search, against the best plan of each other framework
    why = [m.render() for m in best.framework_reason]
    assert best.framework_searched and "chosen by the search" in why[0]
    others = {F.FRAMEWORKS[f].name for f in F.ORDER if f != best.framework}
    assert all(any(w.startswith(name + ":") for w in why) for name in others)
    # the same through the CLI: framework, grade and rules on every plan
    f = tmp_path / "s.json"
    f.write_text(json.dumps(_70b()))
    assert run_cli(["plan", str(f), "--json", "--top", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    p0 = out["plans"][0]
    assert p0["framework"] == best.framework and p0["framework_searched"] is True and p0["framework_reason"]
    assert p0["mfu_grade"] == best.mfu_grade and {r["id"] for r in p0["rules"]} >= {"mfu_grade", "card_class"}
    # the plan's scenario reproduces with estimate (its framework travels in it)
    sc = tmp_path / "p.json"
    sc.write_text(json.dumps(p0["scenario"]))
    assert run_cli(["estimate", str(sc), "--json"]) == 0
    est = json.loads(capsys.readouterr().out)
    assert est["layout"]["framework"] == p0["framework"] and est["cost"] == pytest.approx(p0["cost"], rel=1e-9)


def test_lora_never_picks_megatron():
    s = scenario_from_dict({"model": {"preset": "llama-2-7b"}, "training": {"method": "lora"}, "data": {"tokens": "100M"},
                            "constraints": {"max_gpus": 8, "gpu_candidates": ["a800-sxm-80gb"]}})
    r = S.search(s, top=5)
    assert r.plans and all(p.framework != "megatron" for p in r.plans)
    assert any("Megatron-Core" in m.render() and "(does not run LoRA fine-tuning)" in m.render()
               for m in r.plans[0].framework_reason)

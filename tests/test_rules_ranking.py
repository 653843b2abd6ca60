"""Planning rules in the ranking: MFU grade, card class, consumer cards across nodes, even pipeline stages —
each switchable in ``constraints.rules``, carried by every Evaluation (and so by every view) and by each plan in
``gpuplanner plan --json``; the search's vectorised verdicts equal ``evaluate``'s."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np

from gpuplanner.cli import run_cli
from gpuplanner.core import rules as R
from gpuplanner.core import search as S
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict


def _7b(**constraints):
    c = {"max_gpus": 16, "gpu_candidates": ["rtx-4090-24gb", "a800-sxm-80gb"],
         "prices": {"rtx-4090-24gb": {"card_hour": 0.8}}, **constraints}
    return scenario_from_dict({"model": {"preset": "llama-2-7b"}, "training": {"method": "full", "framework": "deepspeed"},
                               "data": {"tokens": "2B"}, "constraints": c,
                               "parallel": {"offload_optimizer": False}})  # (savers written off: round 15 searches the unset ones; tests/savers_off.py)


def test_mfu_grades_at_the_guides_boundaries():
    """The guide's bounds (below 30% poor, 30–40% fair, 40–55% good, above 55% optimistic) on the MFU as printed,
    to the whole percent (rules.printed_mfu; docs/notes/2026-12-06/issue-35-r5-advice3.md): 29.6% prints "30%"
    and grades fair, 55.4% prints "55%" and grades good."""
    assert [R.mfu_grade(m) for m in (0.10, 0.2949, 0.2951, 0.30, 0.3949, 0.3951, 0.40, 0.55, 0.5549, 0.5551,
                                     0.9)] == \
        ["poor", "poor", "fair", "fair", "fair", "good", "good", "good", "good", "optimistic", "optimistic"]
    assert R.mfu_grade(None) is None and R.mfu_grade(float("nan")) is None
    assert R.mfu_grade_codes(np.array([0.2, 0.35, 0.45, 0.6, np.nan])).tolist() == [0, 1, 2, 3, -1]


def test_poor_plans_rank_after_acceptable_ones_and_the_rule_switches_off():
    on = S.search(_7b(), top=S.RANKED_LIST_LENGTH)  # the whole list: its first rows are all acceptable
    grades = [p.mfu_grade for p in on.plans]
    # round 6, advice5: a plan failing the rule ranks after the best plan graded above poor, then by cost with the
    # others (one sort key: search._poor_lift); plan #1 is that best plan
    assert grades[0] != "poor"
    failing = [p for p in on.plans if any(r.id == "mfu_grade" and r.status == "failed" for r in p.rules)]
    assert all(p is not on.plans[0] for p in failing)
    off = S.search(_7b(rules={"mfu_grade": False}), top=S.RANKED_LIST_LENGTH)
    # cost order again among the plans no other rule ranks after (round 9: with the 14.4% memory headroom some of
    # the list's rows are tight, and ``memory_headroom`` ranks those after the others)
    costs = [p.cost for p in off.plans if p.meets_deadline
             and not any(r.status == "failed" for r in p.rules if r.id != "mfu_grade")]
    assert len(costs) >= 3 and costs == sorted(costs)
    # (since round 6, advice5 the DeepSpeed pipeline layouts, poor ones among them, are not searched for a fine-tune)
    assert all(r.status == "allowed" for p in off.plans for r in p.rules if r.id == "mfu_grade" and p.mfu_grade == "poor")


def test_rank_keeps_poor_plans_first_when_nothing_else_meets_the_deadline():
    days = np.array([5.0, 1.0, 2.0, 6.0])
    cost = np.array([10.0, 50.0, 40.0, 5.0])
    poor = np.array([False, True, True, False])
    # deadline 3: only the poor plans meet it -> they rank by cost as usual
    order, feasible, _, _ = S._rank("cheapest", days, cost, cost, 3.0, None, poor)
    assert feasible and order.tolist() == [2, 1]
    # deadline 5.5: an acceptable plan meets it too -> it comes first although it costs more... or less
    order, _, _, _ = S._rank("cheapest", days, cost, cost, 5.5, None, poor)
    assert order.tolist() == [0, 2, 1]
    order, _, _, _ = S._rank("cheapest", days, cost, cost, 5.5, None, None)  # rule off
    assert order.tolist() == [0, 2, 1]
    cost2 = np.array([60.0, 50.0, 40.0, 5.0])
    assert S._rank("cheapest", days, cost2, cost2, 5.5, None, poor)[0].tolist() == [0, 2, 1]
    assert S._rank("cheapest", days, cost2, cost2, 5.5, None, None)[0].tolist() == [2, 1, 0]


def test_card_class_leaves_small_cards_out_unless_allowed():
    s = {"model": {"preset": "llama-3-70b"}, "training": {"method": "pretrain", "framework": "megatron"},
         "data": {"tokens": "20B"},
         "constraints": {"max_gpus": 128, "gpu_candidates": ["l20-48gb", "a800-sxm-80gb"]}}
    r = S.search(scenario_from_dict(s), top=5)
    assert r.plans and all(p.gpu == "a800-sxm-80gb" for p in r.plans)
    reason = r.skipped_gpus["l20-48gb"].render()
    assert "card class" in reason and "≥80 GB" in reason
    assert all(x.status == "passed" for p in r.plans for x in p.rules if x.id == "card_class")
    s["constraints"]["rules"] = {"card_class": False}
    r2 = S.search(scenario_from_dict(s), top=10, distinct=False)
    assert "l20-48gb" not in r2.skipped_gpus
    # no card of the class among the candidates: nothing is left out, and the plans say they fail the rule
    s["constraints"] = {"max_gpus": 128, "gpu_candidates": ["a100-sxm-40gb"], "currency": "USD"}
    r3 = S.search(scenario_from_dict(s), top=3)
    assert r3.plans and all(x.status == "failed" for p in r3.plans for x in p.rules if x.id == "card_class")
    # MoE and LoRA are exempt
    assert not R.card_class_applies(70e9, True, "pretrain") and not R.card_class_applies(70e9, False, "lora")
    assert R.card_class_applies(65e9, False, "full") and not R.card_class_applies(30e9, False, "full")


def test_consumer_cards_without_p2p_stay_in_one_node_for_chatty_layouts():
    s = {"model": {"preset": "llama-2-13b"}, "training": {"method": "full", "framework": "fsdp"},
         "data": {"tokens": "1B"},
         "constraints": {"max_gpus": 32, "gpu_candidates": ["rtx-4090-24gb"],
                         "prices": {"rtx-4090-24gb": {"card_hour": 0.8}}}}
    ctx = next(S.iter_contexts(scenario_from_dict(s)))
    c = S.enumerate_candidates(ctx, 32)
    multi = c["nodes"] > 1
    assert multi.any()  # data parallelism may cross nodes ...
    assert not (multi & R.communicates_every_step(c["tp"], c["pp"], c["cp"], c["ep"], c["zero"])).any()  # ... not more
    off = next(S.iter_contexts(scenario_from_dict(s), rules_on=False))
    c2 = S.enumerate_candidates(off, 32)
    assert (c2["nodes"] > 1).sum() > multi.sum()
    patched = type("G", (), {"gpu_class": "consumer", "p2p": True})()  # e.g. a 4090 with the P2P driver patch
    assert R.consumer_without_p2p(ctx.gpu) and not R.consumer_without_p2p(patched)


def test_pipeline_stages_divide_the_layers():
    s = {"model": {"preset": "llama-3-70b"}, "training": {"method": "pretrain", "framework": "megatron"},
         "data": {"tokens": "20B"}, "constraints": {"max_gpus": 256, "gpu_candidates": ["h100-sxm-80gb"]}}
    ctx = next(S.iter_contexts(scenario_from_dict(s)))
    pps = set(np.unique(S.enumerate_candidates(ctx, 256)["pp"]).tolist())
    assert pps and all(80 % p == 0 for p in pps)
    s["constraints"]["rules"] = {"pipeline_layers": False}
    ctx2 = next(S.iter_contexts(scenario_from_dict(s)))
    assert {3, 6, 12} <= set(np.unique(S.enumerate_candidates(ctx2, 256)["pp"]).tolist())


def test_vectorised_rule_verdicts_equal_evaluate():
    """The element-wise rules the search applies give the verdicts ``evaluate`` puts in the Evaluation."""
    rng = np.random.default_rng(5)
    cases = [
        {"model": {"preset": "llama-2-13b"}, "training": {"method": "full", "framework": "fsdp"},
         "constraints": {"max_gpus": 32, "gpu_candidates": ["rtx-4090-24gb"], "prices": {"rtx-4090-24gb": {"card_hour": 1}}}},
        {"model": {"preset": "llama-3-70b"}, "training": {"method": "pretrain", "framework": "megatron"},
         "constraints": {"max_gpus": 96, "gpu_candidates": ["l40s-48gb", "h100-sxm-80gb"], "currency": "USD"}},
    ]
    checked = 0
    for d in cases:
        d["data"] = {"tokens": "5B"}
        s = scenario_from_dict(d)
        for ctx in S.iter_contexts(s, rules_on=False):
            c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
            vec = S.evaluate_candidates(ctx, c)
            fits = np.flatnonzero(vec["fits"])
            if not len(fits):
                continue
            arch = ctx.resolved.arch
            grade = R.mfu_grade_codes(vec["mfu"])
            cons = R.consumer_multinode_fails(ctx.gpu, c["nodes"], c["tp"], c["pp"], c["cp"], c["ep"], c["zero"])
            pipe = R.pipeline_layers_fails(c["pp"], arch.num_layers)
            card = R.card_class_fails(float(ctx.facts.params.total), arch.is_moe, s.training.method,
                                      ctx.gpu.memory_gib)
            for i in rng.choice(fits, size=min(20, len(fits)), replace=False):
                sc = S.candidate_scenario(ctx, c, int(i))
                ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                              overheads=ctx.overheads, rent_vs_build=False)
                st = {r.id: r.status for r in ev.rules}
                assert ev.mfu_grade == R.GRADES[int(grade[i])]
                assert (st["mfu_grade"] == "failed") == (grade[i] == 0)
                assert (st["consumer_multinode"] == "failed") == bool(cons[i])
                assert (st["pipeline_layers"] == "failed") == bool(pipe[i])
                assert (st["card_class"] == "failed") == bool(card)
                checked += 1
    assert checked >= 30


def test_nothing_passes_the_rules_the_search_says_so_and_shows_what_breaks_them():
    s = {"model": {"preset": "llama-3-70b"}, "training": {"method": "full"}, "data": {"tokens": "1B"},
         "constraints": {"max_gpus": 64, "gpu_candidates": ["rtx-4090-24gb"],
                         "prices": {"rtx-4090-24gb": {"card_hour": 1.0}}}}
    r = S.search(scenario_from_dict(s), top=3)
    assert r.plans and set(r.rules_relaxed) == {"card_class", "consumer_multinode", "pipeline_layers"}
    assert "No plan passes the planning rules" in r.notes[0].render()
    assert any(x.status == "failed" and x.id == "consumer_multinode" for x in r.plans[0].rules)


def test_plan_json_carries_framework_grade_rules_and_skipped(tmp_path, capsys):
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"model": {"preset": "llama-2-7b"}, "training": {"method": "full"},
                             "data": {"tokens": "1B"},
                             "constraints": {"max_gpus": 8, "gpu_candidates": ["a800-sxm-80gb", "l40-48gb"]}}))
    assert run_cli(["plan", str(f), "--json", "--top", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    for p in out["plans"]:
        assert p["framework"] in ("hf", "deepspeed", "fsdp", "megatron") and p["framework_reason"]
        assert p["mfu_grade"] in ("good", "fair", "poor", "optimistic")
        ids = [r["id"] for r in p["rules"]]
        assert ids == list(R.RULE_IDS)
        assert all(r["status"] in ("passed", "failed", "allowed", "not_applicable") and r["message"] for r in p["rules"])
    assert {"gpu": "l40-48gb", "gpu_name": "NVIDIA L40 48GB",
            "reason": "no price — enter a quote"} in out["skipped"]
    assert out["skipped_gpus"]["l40-48gb"] == "no price — enter a quote"
    # and in the text output
    assert run_cli(["plan", str(f), "--top", "1"]) == 0
    text = capsys.readouterr().out
    assert "skipped: NVIDIA L40 48GB (l40-48gb)" in text and "no price — enter a quote" in text
    assert "framework" in text and "MFU" in text


def test_every_catalog_gpu_left_out_of_the_default_list_is_listed():
    s = scenario_from_dict({"model": {"preset": "llama-2-7b"}, "training": {"method": "lora"},
                            "data": {"tokens": "100M"}, "constraints": {"max_gpus": 1}})
    r = S.search(s, top=3)
    from gpuplanner.core.catalog_hw import load_gpus

    considered = {p.gpu for p in r.plans} | set(r.skipped_gpus)
    ranked = {ctx.gpu.id for ctx in S.iter_contexts(s)}
    assert set(load_gpus()) <= considered | ranked
    assert r.skipped_gpus["l40-48gb"].render() == "no price — enter a quote"
    assert r.skipped_gpus["mlu590"].render() == "memory size unknown"

"""Megatron-Core choices as scenario fields (issue 35 round 12, mgfields12): the EP all-to-all overlap
(``parallel.ep_a2a_overlap``: ``--overlap-moe-expert-parallel-comm --delay-wgrad-compute``) and selective recompute
by module (``training.recompute_modules``: ``--recompute-modules``). Every expected figure is derived by hand in the
test from the model's own definitions (the overlap's layer-pair rule, Megatron's warm-up count, the saved tensors
and FLOPs of each module); none is read back from the code under test."""
from __future__ import annotations

import json

import pytest

from gpuplanner.core import recompute as rc
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.memory import activation_parts_per_layer
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.core.timing import (EP_OVERLAP_COMM_SM_SHARE, a2a_overlap_ep_seconds, a2a_overlap_pair_span,
                                    a2a_overlap_pairs, a2a_overlap_warmup,
                                    time_estimate)


def _moe(training: dict | None = None, parallel: dict | None = None, model: str = "qwen3-30b-a3b",
         gpu: str = "h100-sxm-80gb", n: int = 8) -> dict:
    return {"model": {"preset": model},
            "training": {"framework": "megatron", "precision": "bf16", "seq_len": 4096, "micro_batch_size": 1,
                         "global_batch_size": 64, "recompute": "megatron_selective", **(training or {})},
            "parallel": {"tp": 1, "pp": 1, "ep": 8, "expert_tp": 1, "zero": 1, "moe_dispatcher": "flex",
                         **(parallel or {})},
            "hardware": {"gpu": gpu, "num_gpus": n}}


def _time(sc: dict):
    return time_estimate(resolve(scenario_from_dict(sc)))


# ------------------------------------------------------------------------------------ EP all-to-all overlap

def test_overlap_default_off_and_refusals():
    assert scenario_from_dict(_moe()).parallel.ep_a2a_overlap is False  # Megatron's default
    bad = [  # each as Megatron-LM d98e8a64 transformer_config.py __post_init__ asserts
        ({"framework": "deepspeed", "recompute": "none"}, {"moe_dispatcher": None}, "Megatron-Core setting"),
        ({"recompute": "full"}, {}, "full recompute"),
        ({"recompute_modules": ["moe"]}, {}, "recompute the MoE layer"),
        ({}, {"moe_dispatcher": "allgather"}, "alltoall or flex"),
        ({}, {"ep": 1, "moe_dispatcher": "alltoall"}, "ep > 1"),
        ({}, {"pp": 2, "vpp": 1, "ep": 4}, "vpp > 1"),
    ]
    for training, parallel, words in bad:
        with pytest.raises(ScenarioError) as e:
            scenario_from_dict(_moe(training, {**parallel, "ep_a2a_overlap": True}))
        assert words in str(e.value) and "\n" not in str(e.value).strip().splitlines()[-1]
    # allowed: PP with interleaving, and PP 1
    scenario_from_dict(_moe({}, {"pp": 2, "vpp": 2, "ep": 4, "ep_a2a_overlap": True}))
    scenario_from_dict(_moe({}, {"ep_a2a_overlap": True}))


def test_overlap_refused_by_the_cli_with_exit_2(tmp_path, capsys):
    from gpuplanner.cli import run_cli

    f = tmp_path / "bad.json"
    f.write_text(json.dumps(_moe({"recompute": "full"}, {"ep_a2a_overlap": True})), encoding="utf-8")
    assert run_cli(["estimate", str(f)]) == 2
    err = capsys.readouterr().err
    assert "ep_a2a_overlap" in err and len([ln for ln in err.splitlines() if ln.strip()]) == 1, err


def test_warmup_chunks_by_hand():
    # schedules.get_pp_rank_microbatches, rank 0: 2(pp − 1) + (vpp − 1)·pp, + 1 for the overlap
    assert a2a_overlap_warmup(1, 1) == 1.0
    assert a2a_overlap_warmup(8, 4) == 14 + 24 + 1
    assert a2a_overlap_warmup(2, 2) == 2 + 2 + 1


def test_layer_pair_exposure_by_hand():
    share = 20.0 / 132.0
    assert EP_OVERLAP_COMM_SM_SHARE == pytest.approx(share)
    lay = {"a2a_ovl_warm": 1.0, "vpp": 1.0}
    # compute-bound: each all-to-all c = 1 fits under its compute (attention 21: forward, dgrad, wgrad 7 each;
    # experts 9: a third 3), nothing exposed but the SMs held: 20/132 × 4c per pair; the first micro-batch alone
    got = a2a_overlap_ep_seconds(lay, 4.0, 30.0, 9.0, 10.0)
    assert got == pytest.approx(4.0 + 9 * share * 4.0)
    # communication-bound, one layer (round 13, moe13: the code's stream and event order, by hand):
    # combine_bwd 0–10 | attention fwd 0–7; experts' dgrad 10–13 (after combine_bwd); dispatch_fwd 10–20; their
    # wgrad 13–16; dispatch_bwd 20–30 (after dispatch_fwd on the comm stream); experts' fwd 20–23 (after
    # dispatch_fwd); combine_fwd 30–40; attention dgrad 30–37 (after dispatch_bwd), its wgrad 37–44.
    # 44 against 30 of compute: 14 exposed, plus 20/132 of the 40 − 14 run together
    got = a2a_overlap_ep_seconds(lay, 40.0, 30.0, 9.0, 10.0)
    assert got == pytest.approx(40.0 + 9 * (14.0 + share * 26.0))


def test_layer_pairs_chain_within_a_chunk_by_hand():
    # three MoE layers in the chunk (vpp 1), the same per-layer values as the communication-bound case above.
    # Pair 2 starts from pair 1's ends (combine_fwd 40, attention dgrad 37, compute stream 44): combine_bwd 40–50
    # (it waits for the dgrad only: the delayed wgrad 37–44 runs beside it), attention fwd 44–51, experts' dgrad
    # 51–54, dispatch_fwd 51–61, wgrad 54–57, dispatch_bwd 61–71, experts' fwd 61–64, combine_fwd 71–81,
    # attention dgrad 71–78, wgrad 78–85: 41 a pair from then on. Chunk: 44 + 2 × 41 = 126 for 3 × 30 of compute
    share = 20.0 / 132.0
    assert a2a_overlap_pair_span(3.0, 10.0, 7.0, 7.0, 7.0, 3.0, 3.0, 3.0) == pytest.approx(126.0)
    lay = {"a2a_ovl_warm": 1.0, "vpp": 1.0, "n_moe_stage": 3.0}
    got = a2a_overlap_ep_seconds(lay, 120.0, 90.0, 27.0, 10.0)
    per_layer = 126.0 / 3.0 - 30.0  # 12 exposed per layer pair
    assert got == pytest.approx(120.0 + 9 * 3 * (per_layer + share * (40.0 - per_layer)))
    # the same three layers over three chunks (vpp 3: one layer a chunk, each from a standing start) expose more
    lay3 = {"a2a_ovl_warm": 3.0, "vpp": 3.0, "n_moe_stage": 3.0}
    assert a2a_overlap_ep_seconds(lay3, 120.0, 90.0, 27.0, 10.0) > got


def test_delayed_wgrad_runs_beside_dispatch_bwd_by_hand():
    # models/common/utils.py TransformerLayerNode.backward_dw records no event, so dispatch_bwd waits for the
    # experts' dgrad only: c = 5, attention 1 + 1 + 1, experts' forward 1, dgrad 1, wgrad 10 (one layer):
    # combine_bwd 0–5 | attention fwd 0–1; dgrad 5–6; dispatch_fwd 5–10; wgrad 6–16; dispatch_bwd 10–15;
    # experts' fwd 16–17; combine_fwd 17–22; attention dgrad 17–18, wgrad 18–19: 22 (waiting for the wgrad: 26)
    assert a2a_overlap_pair_span(1.0, 5.0, 1.0, 1.0, 1.0, 1.0, 1.0, 10.0) == pytest.approx(22.0)


def test_no_pairs_hide_nothing_and_say_so():
    # one micro-batch (PP 1): the first forward and the last backward alone (combined_1f1b_schedule_for_no_pipelining)
    assert a2a_overlap_pairs(1, 1, 1) == 0.0 and a2a_overlap_pairs(1, 1, 8) == 7.0
    # PP 2 × VP 2: 5 forward chunks before the first combined step = 2.5 micro-batches
    assert a2a_overlap_pairs(2, 2, 2) == 0.0 and a2a_overlap_pairs(2, 2, 4) == pytest.approx(1.5)
    lay = {"a2a_ovl_warm": 1.0, "vpp": 1.0}
    assert a2a_overlap_ep_seconds(lay, 4.0, 30.0, 9.0, 1.0) == pytest.approx(4.0)  # all of it exposed
    one = _moe({"global_batch_size": 8}, {"ep_a2a_overlap": True})  # 8 GPUs, MBS 1: one micro-batch a step
    t = _time(one)
    assert t.hidden.get("ep_comm", 0.0) == 0.0
    msgs = [m.render() for m in evaluate(scenario_from_dict(one)).messages]
    said = [m for m in msgs if "hides nothing" in m]
    assert len(said) == 1 and "1 chunk in all (1 per model chunk)" in said[0], msgs
    many = [m.render() for m in evaluate(scenario_from_dict(_moe({}, {"ep_a2a_overlap": True}))).messages]
    assert not [m for m in many if "hides nothing" in m]
    off = [m.render() for m in evaluate(scenario_from_dict(_moe({"global_batch_size": 8}))).messages]
    assert not [m for m in off if "hides nothing" in m]
    # a searched plan carries it among its warnings too; the PDF's plan section says it once
    from types import SimpleNamespace

    from gpuplanner.core.evaluate import a2a_overlap_pairless_message
    from gpuplanner.report.content import plan_from_evaluation

    ev = evaluate(scenario_from_dict(one))
    plan = SimpleNamespace(explanation=[], warnings=a2a_overlap_pairless_message(ev.scenario))
    info = plan_from_evaluation(ev, "A", plan)
    assert len([w for w in info.warnings if "hides nothing" in w.render()]) == 1


def test_overlap_hides_the_all_to_all_and_reports_it():
    off = _time(_moe())
    on = _time(_moe({}, {"ep_a2a_overlap": True}))
    assert off.hidden.get("ep_comm", 0.0) == 0.0
    e_off, e_on, hid = off.seconds["ep_comm"], on.seconds["ep_comm"], on.hidden["ep_comm"]
    assert 0.0 < e_on < e_off and hid > 0.0
    # the hidden part is what was exposed less what still is: the SM cost only adds to the exposed side
    assert hid == pytest.approx(e_off - e_on + (e_on - e_off + hid), rel=1e-9)
    assert e_on + hid >= e_off * (1.0 - 1e-9)
    assert on.communication["ep_comm"] == {"exposed": e_on, "hidden": hid}
    assert on.step_time_s < off.step_time_s


def test_overlap_on_hopper_turns_off_te_tp_overlap():
    # Megatron-LM training/arguments.py: Hopper and before, TP with the overlap wants CUDA_DEVICE_MAX_CONNECTIONS > 1
    sc = _moe({"global_batch_size": 32}, {"tp": 2, "ep": 4, "sequence_parallel": True, "ep_a2a_overlap": True})
    assert _time(sc).overlap["tp_comm_overlap"] is False
    sc_b = _moe({"global_batch_size": 32}, {"tp": 2, "ep": 4, "sequence_parallel": True, "ep_a2a_overlap": True},
                gpu="b200-180gb")
    assert _time(sc_b).overlap["tp_comm_overlap"] is True
    # the user's own choice wins
    sc["training"]["tp_comm_overlap"] = True
    assert _time(sc).overlap["tp_comm_overlap"] is True


def test_overlap_pipeline_warmup_keeps_more_exposed():
    # PP 2 × VP 2 (warm-up 5 chunks = 2.5 micro-batches alone) exposes more than PP 1 (1 alone) per micro-batch
    pp1 = _time(_moe({}, {"ep": 4, "ep_a2a_overlap": True}, n=8))
    pp2 = _time(_moe({}, {"ep": 4, "pp": 2, "vpp": 2, "ep_a2a_overlap": True}, n=8))
    r1 = pp1.seconds["ep_comm"] / (pp1.seconds["ep_comm"] + pp1.hidden["ep_comm"])
    r2 = pp2.seconds["ep_comm"] / (pp2.seconds["ep_comm"] + pp2.hidden["ep_comm"])
    assert r2 > r1


# ------------------------------------------------------------------------------------------- recompute modules

def test_modules_default_and_refusals():
    assert scenario_from_dict(_moe()).training.recompute_modules is None  # Megatron's default: ["core_attn"]
    assert rc.MEGATRON_DEFAULT_MODULES == ("core_attn",)
    for training, words in (({"framework": "deepspeed", "recompute": "none"}, "Megatron-Core setting"),
                            ({"recompute": "full"}, "megatron_selective"),
                            ({"precision": "fp8", "fp8_recipe": "te_delayed"}, "te_delayed")):
        with pytest.raises(ScenarioError) as e:
            par = {"moe_dispatcher": None} if training.get("framework") == "deepspeed" else {}
            scenario_from_dict(_moe({**training, "recompute_modules": ["layernorm"]}, par))
        assert words in str(e.value)
    with pytest.raises(ScenarioError):
        scenario_from_dict(_moe({"recompute_modules": ["attention"]}))  # not a Megatron module
    with pytest.raises(ScenarioError, match="multi-latent"):
        resolve(scenario_from_dict(_moe({"recompute_modules": ["mla_up_proj"]})))  # Qwen3: no MLA
    # the default written out changes nothing
    a = _time(_moe())
    b = _time(_moe({"recompute_modules": ["core_attn"]}))
    assert a.step_time_s == b.step_time_s


def _facts():
    r = resolve(scenario_from_dict(_moe()))
    return r.facts


def test_moe_act_frees_the_activation_output_by_hand():
    m = _facts()  # Qwen3-30B-A3B: every layer MoE, top-8 of 128 experts, 768 wide
    assert (m.moe_frac, m.k_active, m.f_moe) == (1.0, 8, 768)
    s, b = 4096, 1
    keep0 = activation_parts_per_layer(m, s, b, 1, False, True, rc.MEGATRON_SELECTIVE, "megatron")[0]
    keep1 = activation_parts_per_layer(m, s, b, 1, False, True, rc.MEGATRON_SELECTIVE, "megatron",
                                       recompute_modules=("core_attn", "moe_act"))[0]
    # the SwiGLU output: 8 routed copies × 768 × 2 bytes per token
    assert keep0 - keep1 == pytest.approx(8 * 768 * 2 * s * b)
    # layernorm: the MoE layer's own pre-MLP norm (the dense layers' norms are fused into TE's linears): 2h bytes;
    # split by TP only with sequence parallelism
    keep2 = activation_parts_per_layer(m, s, b, 2, True, True, rc.MEGATRON_SELECTIVE, "megatron",
                                       recompute_modules=("core_attn", "layernorm"))[0]
    keep2_0 = activation_parts_per_layer(m, s, b, 2, True, True, rc.MEGATRON_SELECTIVE, "megatron")[0]
    assert keep2_0 - keep2 == pytest.approx(2 * 2048 * s * b / 2)
    # a row without selective recompute is untouched by the modules
    k_none = activation_parts_per_layer(m, s, b, 1, False, True, rc.NONE, "megatron",
                                        recompute_modules=("moe_act",))[0]
    assert k_none == activation_parts_per_layer(m, s, b, 1, False, True, rc.NONE, "megatron")[0]


def test_moe_module_memory_and_time_by_hand():
    base = _moe()
    mods = _moe({"recompute_modules": ["core_attn", "moe"]})
    t0, t1 = _time(base), _time(mods)
    # the MoE layer's forward again: router 2048 × 128, eight experts' gate, up, down 3 × 2048 × 768, × 2 FLOPs,
    # over 48 layers, per token
    per_layer = 2 * (2048 * 128 + 8 * 3 * 2048 * 768)
    assert t1.hardware_flops_per_token - t0.hardware_flops_per_token == pytest.approx(48 * per_layer, rel=1e-9)
    # its dispatch and combine run again (flex: no count exchange): 6 transfers against 4
    assert t1.seconds["ep_comm"] == pytest.approx(1.5 * t0.seconds["ep_comm"], rel=1e-9)
    m0 = memory_breakdown(resolve(scenario_from_dict(base)))
    m1 = memory_breakdown(resolve(scenario_from_dict(mods)))
    assert m1.activations < m0.activations


def test_without_core_attn_the_attention_core_is_not_rerun():
    t0 = _time(_moe())
    t1 = _time(_moe({"recompute_modules": ["layernorm", "moe_act"]}))
    # the attention core forward (2 · attended context · (q + v) · L) leaves; norms and activation are element-wise
    s = 4096
    attended = (s + 1) / 2  # causal: the mean context of a token
    core = 2 * attended * (32 * 128 + 32 * 128) * 48
    assert t0.hardware_flops_per_token - t1.hardware_flops_per_token == pytest.approx(core, rel=1e-3)


# ------------------------------------------------------------------------------------------------- the search

def _search_scenario(parallel: dict, training: dict | None = None) -> dict:
    return {"model": {"preset": "qwen3-30b-a3b"},
            "training": {"method": "pretrain", "framework": "megatron", "precision": "bf16", "seq_len": 4096,
                         **(training or {})},
            "parallel": parallel,
            "data": {"tokens": 2e10}, "constraints": {"max_gpus": 32, "gpu_candidates": ["h100-sxm-80gb"],
                                                      "prices": {"h100-sxm-80gb": {"card_hour": 30.0,
                                                                                   "machine_month": 120000.0,
                                                                                   "currency": "CNY"}}}}


def test_search_equals_evaluate_with_the_fields():
    """The search's vectorised step equals ``evaluate()`` of each candidate's scenario with the overlap on (and with
    recompute modules), and every candidate is one Megatron runs: EP > 1, PP 1 or interleaved, no full recompute;
    the candidate's scenario validates again (a plan the user keeps is not refused)."""
    import math

    import numpy as np

    from tests.search_helpers import sampled_candidates, vectorised_step_s

    for parallel, training in (({"ep_a2a_overlap": True, "auto": True}, None),
                               ({"auto": True}, {"recompute": "megatron_selective",
                                                 "recompute_modules": ["layernorm", "moe_act"]})):
        s = scenario_from_dict(_search_scenario(parallel, training))
        checked = 0
        for ctx, vec, i, sc, ev in sampled_candidates(s, np.random.default_rng(5), 80):
            step = vectorised_step_s(vec, i, ev)
            assert math.isclose(step, ev.time.step_time_s, rel_tol=1e-9), (ctx.gpu.id, sc.parallel)
            p = sc.parallel
            if parallel.get("ep_a2a_overlap"):
                assert p.ep > 1 and (p.pp == 1 or p.vpp > 1) and sc.training.recompute != "full", p
            else:
                assert sc.training.recompute == "megatron_selective"
            d = sc.model_dump()
            d["parallel"]["auto"] = False
            scenario_from_dict(d)  # "use this layout": still a valid scenario
            checked += 1
        assert checked >= 5

"""Training objectives (core/methods.py) and fine-tuning tool profiles (core/frameworks.py): small cases derived
by hand from the mechanisms the docstrings cite."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gpuplanner.core import frameworks as F
from gpuplanner.core import methods as M
from gpuplanner.core import scenario as S
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.evaluate import evaluate, memory_alternatives
from gpuplanner.core.memory import GIB
from gpuplanner.core.scenario import scenario_from_dict

# a small Llama-style model: every count below follows from these numbers
SMALL = dict(name="tiny-llama", hidden_size=1024, num_hidden_layers=8, num_attention_heads=16,
             num_key_value_heads=4, intermediate_size=2816, vocab_size=32000, tie_word_embeddings=False)


def _ev(training=None, parallel=None, hardware=None, model=None):  # noqa: D401
    d = {"model": model or dict(SMALL), "training": {"framework": "deepspeed", "seq_len": 1024, **(training or {})},
         "parallel": {"zero": 3, **(parallel or {})},
         "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8, **(hardware or {})}, "data": {"tokens": 1e8}}
    return evaluate(scenario_from_dict(d))


def test_dpo_holds_a_frozen_reference_and_doubles_the_sequences():
    sft1 = _ev({"micro_batch_size": 1})
    sft2 = _ev({"micro_batch_size": 2})
    dpo = _ev({"micro_batch_size": 1, "objective": "dpo"})
    P = dpo.params.total
    # the same trainable parameters and model states as full fine-tuning
    assert dpo.trainable == sft1.trainable == P
    for k in ("weights", "gradients", "optimizer"):
        assert getattr(dpo.memory, k) == pytest.approx(getattr(sft1.memory, k))
    # chosen + rejected in one forward: the activations of two sequences per example (TRL concatenated batch),
    # except the loss: TRL's selective_log_softmax on the bf16 logits saves a 16-bit log-softmax beside the 16-bit
    # logits (4 bytes per logit at its peak) where SFT's cross-entropy peaks at 12 at backward's start (fp32
    # log-softmax, its gradient and the logits' gradient: memory.ce_backward_bytes_per_logit): 8 bytes per logit
    # less, 2 × 1024 tokens × 32,000 logits
    assert dpo.memory.activations == pytest.approx(sft2.memory.activations - 8.0 * 2 * 1024 * 32000 / GIB)
    # the reference: 2 bytes per parameter, sharded over the 8 ranks by ZeRO-3
    assert dpo.memory.extra["reference"] == pytest.approx(2.0 * P / 8 / GIB)
    # other = context + 5% fragmentation of everything else (the reference included); SFT's eager fp32
    # cross-entropy leaves the allocator's hole at the loss, 2 bytes per logit (memory.loss_reserved_extra_bytes_per_
    # logit), a free segment: in ``cached`` (reserved, device), not in other or what fits (issue 35 round 18,
    # memoos18: memory.allocator_cache_bytes); TRL's 16-bit loss has none
    logits = 8.0 * 2 * 1024 * 32000 / GIB
    hole = 2.0 * 2 * 1024 * 32000 / GIB
    assert dpo.memory.other - sft2.memory.other == pytest.approx(
        0.05 * (dpo.memory.extra["reference"] - logits))
    assert dpo.memory.total == pytest.approx(
        sft2.memory.total + 1.05 * (dpo.memory.extra["reference"] - logits))
    assert sft2.memory.cached == pytest.approx(hole) and dpo.memory.cached == 0.0
    j = dpo.to_json()
    assert j["memory_per_gpu_gib"]["reference"] == pytest.approx(dpo.memory.extra["reference"])
    assert j["objective"]["models_held"] == ["reference"]
    # one reference forward per token besides the policy's forward+backward: model FLOPs 3F + F = 4/3 × SFT
    assert dpo.flops_per_token == pytest.approx(sft1.flops_per_token * 4.0 / 3.0, rel=1e-9)


def test_reference_without_zero3_is_a_full_copy_and_offload_streams_two_layers():
    z1 = _ev({"objective": "ipo"}, {"zero": 1})
    P = z1.params.total
    assert z1.memory.extra["reference"] == pytest.approx(2.0 * P / GIB)
    off = _ev({"objective": "dpo", "preference": {"reference_offload": True}}, {"zero": 1})
    layer = off.params.dense_layer
    assert off.memory.extra["reference"] == pytest.approx(2 * 2.0 * layer / GIB)


def test_lora_policy_uses_its_base_as_reference_and_precomputed_holds_none():
    lora = _ev({"method": "lora", "objective": "dpo"}, {"zero": 0})
    assert "reference" not in lora.memory.extra  # TRL: ref_model=None with PEFT -> adapters disabled
    assert lora.to_json()["objective"]["reference"] == "lora_base"
    sep = _ev({"method": "lora", "objective": "dpo", "preference": {"reference": "separate"}}, {"zero": 0})
    assert sep.memory.extra["reference"] == pytest.approx(2.0 * sep.params.total / GIB)
    pre = _ev({"objective": "dpo", "preference": {"reference": "precomputed"}})
    dpo = _ev({"objective": "dpo"})
    assert "reference" not in pre.memory.extra
    # the precompute pass runs the same reference forward per token (before training): the same days
    assert pre.compute_days == pytest.approx(dpo.compute_days)
    none = _ev({"objective": "simpo"})
    assert none.time.step_time_s < dpo.time.step_time_s  # no reference forward at all


def test_orpo_simpo_no_reference_kto_unpaired_reward_value_head():
    sft2 = _ev({"micro_batch_size": 2})
    for obj in ("orpo", "simpo"):
        e = _ev({"objective": obj})
        assert "reference" not in e.memory.extra
        # paired sequences; TRL's 16-bit selective log-softmax: 8 bytes per logit less than SFT's loss (12 → 4),
        # plus TRL's NLL on the chosen rows (memory.chosen_nll_bytes_per_logit, 16-bit: 2): 12 → 6
        assert e.memory.activations == pytest.approx(sft2.memory.activations - 6.0 * 2 * 1024 * 32000 / GIB)
    kto = _ev({"objective": "kto"})
    sft1 = _ev({})
    # one sequence per example
    assert kto.memory.activations == pytest.approx(sft1.memory.activations - 8.0 * 1024 * 32000 / GIB)
    # KTO: a no_grad policy forward of the KL sequence + two reference forwards: 3F + 3F = 2 × SFT
    assert kto.flops_per_token == pytest.approx(2.0 * sft1.flops_per_token, rel=1e-9)
    rm = _ev({"objective": "reward"})
    p = rm.params
    assert rm.trainable == p.total - p.lm_head + 1024  # score head hidden×1 replaces the LM head
    # no vocabulary-sized logits: less activation memory than the LM on the same two sequences
    assert rm.memory.activations < sft2.memory.activations
    assert rm.memory.weights == pytest.approx(sft1.memory.weights * rm.trainable / p.total)


def test_ppo_holds_reference_reward_and_critic():
    e = _ev({"objective": "ppo", "rl": {"rollout_len": 256, "prompt_len": 256}}, {"zero": 1})
    P, p = e.params.total, e.params
    ratio = (P - p.lm_head + 1024) / P
    ex = e.memory.extra
    assert set(ex) == {"reference", "reward", "critic", "kv_cache"}
    assert ex["reference"] == pytest.approx(2.0 * P / GIB)
    assert ex["reward"] == pytest.approx(2.0 * P * ratio / GIB)
    states = e.memory.weights + e.memory.gradients + e.memory.optimizer
    assert ex["critic"] == pytest.approx(states * ratio)
    assert e.time.seconds["generation"] > 0
    assert e.time.breakdown["generation"] == pytest.approx(e.time.seconds["generation"] / e.time.step_time_s)


def test_grpo_kv_cache_and_generation_by_hand():
    # 64 rollouts per GPU per step (mbs 8 x accumulation 8), prompt 256 + completion 768, HF generate
    t = {"objective": "grpo", "micro_batch_size": 8, "global_batch_size": 512,
         "rl": {"rollout_len": 768, "prompt_len": 256}}
    e = _ev(t, {"zero": 2})
    kv_tok = 2 * 8 * 4 * 64 * 2.0  # K and V, 8 layers, 4 KV heads of 64, bf16
    assert M.kv_bytes_per_token(e.arch) == kv_tok
    kv = 64 * (256 + 768) * kv_tok
    assert e.memory.extra["kv_cache"] == pytest.approx(max(kv / GIB - e.memory.activations, 0.0))
    assert "reference" not in e.memory.extra  # TRL GRPO beta = 0: no reference model
    js = e.to_json()
    assert js["time_seconds_per_step"]["generation"] > 0
    parts = sum(v for k, v in js["time_seconds_per_step"].items())
    assert parts == pytest.approx(js["step_time_s"], rel=1e-9)
    # beta > 0: a reference, as the user asked
    e2 = _ev({**t, "preference": {"beta": 0.04}}, {"zero": 2})
    assert e2.memory.extra["reference"] == pytest.approx(2.0 * e2.params.total / GIB)


def test_grpo_vllm_colocated_reserves_its_share():
    e = _ev({"objective": "grpo", "rl": {"generation_engine": "vllm_colocated", "generation_gpu_fraction": 0.3}})
    cap = e.gpu_memory_gib
    w = 2.0 * e.params.total / GIB
    assert e.memory.extra["rollout_weights"] == pytest.approx(w)
    assert e.memory.extra["kv_cache"] == pytest.approx(0.3 * cap - w)
    sep = _ev({"objective": "grpo", "rl": {"generation_engine": "vllm_separate", "generation_gpu_fraction": 0.25}})
    assert not ({"rollout_weights", "kv_cache"} & set(sep.memory.extra))


def test_generation_seconds_decode_is_bandwidth_bound_by_hand():
    arch = _ev({}).arch
    prof = M.MethodProfile(objective="grpo", rl=True, prompt_len=100, rollout_len=50, group_size=4,
                           engine="vllm_colocated")
    P, N = 1e9, 1e9
    bw, peak, eff = 1e12, 1e15, 0.5
    sec, waves = M.generation_seconds(prof, arch=arch, params_total=P, active_params=N, seqs=8, tp=1,
                                      peak_flops=peak, eff=eff, mem_bw=bw, kv_pool_bytes=1e12)
    kv_tok = M.kv_bytes_per_token(arch)
    q_dim = 16 * 64
    prefill = 2 * 100 * (2 * N + 2 * 100 * q_dim * 8) / (peak * eff)  # 8 / 4 = 2 distinct prompts (shared)
    step = (2 * P + 8 * (100 / 4 + 25) * kv_tok) / bw  # weights + the batch's mean KV context
    step += (11 * 8 + 12) * 2.7e-6  # the kernels' fixed GPU time, 8 layers (issue 35 round 5)
    # + the sampler's passes over the 8 sequences' logits, + vLLM's host time per step
    step += 8 * arch.vocab_size * M.SAMPLER_BYTES_PER_LOGIT / bw + M.ENGINE_STEP_S + 8 * M.ENGINE_SEQ_S
    assert waves == 1
    assert sec == pytest.approx(prefill + 50 * step)
    # a KV pool that holds half the rollouts: two waves of four
    _, w2 = M.generation_seconds(prof, arch=arch, params_total=P, active_params=N, seqs=8, tp=1, peak_flops=peak,
                                 eff=eff, mem_bw=bw, kv_pool_bytes=(2 * 100 + 8 * 50) * kv_tok / 2)
    assert w2 == 2


def test_memory_alternatives_keep_the_extra_parts():
    e = _ev({"objective": "dpo"})
    alts = memory_alternatives(e)
    assert all("reference" in a.memory.extra for a in alts)
    z0 = next(a for a in alts if a.kind == "zero" and a.value == 0)
    assert z0.memory.extra["reference"] == pytest.approx(2.0 * e.params.total / GIB)


def test_scenario_validation_one_line():
    with pytest.raises(ScenarioError, match="objective=dpo needs method"):
        scenario_from_dict({"training": {"method": "pretrain", "objective": "dpo"}})
    with pytest.raises(ScenarioError, match="rollout_len=512 leaves no room for the prompt in seq_len=512"):
        scenario_from_dict({"training": {"objective": "grpo", "seq_len": 512, "rl": {"rollout_len": 512}}})
    with pytest.raises(ScenarioError, match="lora_base"):
        scenario_from_dict({"training": {"objective": "dpo", "preference": {"reference": "lora_base"}}})
    with pytest.raises(ScenarioError):
        scenario_from_dict({"training": {"objective": "grpo", "rl": {"generation_gpu_fraction": 1.0}}})
    with pytest.raises(ScenarioError):
        scenario_from_dict({"training": {"preference": {"beta": -1}}})


# ------------------------------------------------------------------------------------------- tool profiles


def test_tool_default_recompute_follows_the_documented_defaults():
    assert S._TOOL_RECOMPUTE == {k: F.FRAMEWORKS[k].default_recompute for k in F.TOOLS}
    expect = {"llamafactory": "full", "unsloth": "full", "ms-swift": "full", "megatron-swift": "megatron_selective",
              "trl": "full", "axolotl": "none"}
    for tool, rc in expect.items():
        s = scenario_from_dict({"training": {"framework": tool}})
        assert s.training.recompute == rc, tool
        # the user's own choice wins
        s = scenario_from_dict({"training": {"framework": tool, "recompute": "none"}})
        assert s.training.recompute == "none"
    assert F.engine_of("megatron-swift") == "megatron" and F.engine_of("unsloth") == "hf"


def test_llamafactory_default_equals_hf_with_checkpointing():
    lf = _ev({"framework": "llamafactory", "method": "lora", "seq_len": 4096}, {"zero": 0}, {"num_gpus": 1})
    hf = _ev({"framework": "hf", "method": "lora", "seq_len": 4096, "recompute": "full"}, {"zero": 0},
             {"num_gpus": 1})
    hf_none = _ev({"framework": "hf", "method": "lora", "seq_len": 4096}, {"zero": 0}, {"num_gpus": 1})
    assert lf.memory.total == pytest.approx(hf.memory.total)
    assert lf.memory.activations < hf_none.memory.activations
    # on a 7B at 4k the recompute default is the difference between ~1 and several GiB per sequence
    kw = dict(model={"preset": "llama-2-7b"}, parallel={"zero": 0}, hardware={"num_gpus": 1})
    lf7 = _ev({"framework": "llamafactory", "method": "lora", "seq_len": 4096}, **kw)
    hf7 = _ev({"framework": "hf", "method": "lora", "seq_len": 4096}, **kw)
    assert hf7.memory.activations > 4 * lf7.memory.activations


def test_unsloth_offloads_checkpoints_and_has_no_logits():
    kw = ({"method": "qlora", "seq_len": 16384}, {"zero": 0}, {"num_gpus": 1})
    un = _ev({"framework": "unsloth", **kw[0]}, *kw[1:])
    hf = _ev({"framework": "hf", "recompute": "full", **kw[0]}, *kw[1:])
    s, h, V, L = 16384, 1024, 32000, 8
    # the HF run keeps every layer's input (2sh per layer) and the logits at the loss (≥ 10 bytes per logit
    # with the fp32 upcast and log-softmax); Unsloth keeps two layers' inputs and no logits
    saved = hf.memory.activations - un.memory.activations
    assert saved * GIB > (L - 2) * 2.0 * s * h + 8.0 * s * V
    assert un.time.seconds["compute"] < hf.time.seconds["compute"]  # fused kernels


def test_megatron_swift_runs_megatron_conventions():
    ms = _ev({"framework": "megatron-swift"}, {"zero": 1, "tp": 2}, {"num_gpus": 8})
    mg = _ev({"framework": "megatron", "recompute": "selective"}, {"zero": 1, "tp": 2}, {"num_gpus": 8})
    # the same model states; the loss differs: Megatron-SWIFT's default fused cross-entropy holds 10 bytes per logit
    # where Megatron-LM's unfused one holds 6 (tests/test_mechanics_megatron_fused_ce.py)
    for part in ("weights", "gradients", "optimizer"):
        assert getattr(ms.memory, part) == pytest.approx(getattr(mg.memory, part)), part
    assert ms.memory.activations > mg.memory.activations
    # and so does its time: Megatron-LM's default loss is unfused (52 bytes per vocabulary entry per token against the
    # fused 8, round 8's xent8); with the fused loss set on Megatron-LM the two steps are the same. Megatron-SWIFT
    # keeps the overlap switches off (overlap.NO_OVERLAP_TOOLS, swiftmoe9): the Megatron runs set them off too
    off = {"overlap_grad_reduce": False, "overlap_param_gather": False, "tp_comm_overlap": False}
    mgo = _ev({"framework": "megatron", "recompute": "selective", **off}, {"zero": 1, "tp": 2}, {"num_gpus": 8})
    assert ms.time.step_time_s < mgo.time.step_time_s
    mgf = _ev({"framework": "megatron", "recompute": "selective", "fused_cross_entropy": True, **off},
              {"zero": 1, "tp": 2}, {"num_gpus": 8})
    assert ms.time.step_time_s == pytest.approx(mgf.time.step_time_s)


def test_cli_json_shows_reference_and_generation(tmp_path):
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"model": dict(SMALL), "training": {"objective": "grpo", "preference": {"beta": 0.04}},
                             "hardware": {"gpu": "h100-sxm-80gb"}}))
    out = subprocess.run([sys.executable, "-m", "gpuplanner", "estimate", str(f), "--json"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    j = json.loads(out.stdout)
    assert j["memory_per_gpu_gib"]["reference"] > 0 and j["time_seconds_per_step"]["generation"] > 0
    f.write_text(json.dumps({"training": {"objective": "nope"}}))
    bad = subprocess.run([sys.executable, "-m", "gpuplanner", "estimate", str(f)], capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


# ------------------------------------------------------------------------------------ one plan, one answer


@pytest.mark.parametrize("training", [
    {"objective": "dpo", "method": "full", "framework": "deepspeed"},
    {"objective": "grpo", "method": "lora", "framework": "hf", "preference": {"beta": 0.04},
     "rl": {"generation_engine": "vllm_colocated"}},
    {"objective": "ppo", "method": "full", "framework": "fsdp"},
    {"objective": "sft", "method": "qlora", "framework": "unsloth", "seq_len": 8192},
    {"objective": "kto", "method": "full", "framework": "megatron-swift"},
], ids=["dpo", "grpo-vllm", "ppo-fsdp", "unsloth", "kto-megatron-swift"])
def test_search_arrays_equal_evaluate_for_objectives_and_tools(training):
    """The plan search ranks with the same formulas: its arrays equal ``evaluate`` of each candidate."""
    import math
    from dataclasses import replace

    import numpy as np

    from gpuplanner.core import search as SE

    s = scenario_from_dict({"model": {"preset": "qwen2.5-1.5b"}, "training": {"seq_len": 2048, **training},
                            "data": {"tokens": 1e8},
                            "constraints": {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb"]}})
    rng = np.random.default_rng(3)
    checked = 0
    for ctx in SE.iter_contexts(s):
        c = SE.enumerate_candidates(ctx, 16)
        vec = SE.evaluate_candidates(ctx, c)
        for i in rng.choice(len(c["tp"]), size=min(25, len(c["tp"])), replace=False):
            sc = SE.candidate_scenario(ctx, c, int(i))
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert math.isclose(vec["mem_gib"][i], ev.memory.total, rel_tol=1e-9), (sc.parallel, sc.training)
            if vec["fits"][i]:
                assert math.isclose(vec["train_hours"][i] / 24.0, ev.compute_days, rel_tol=1e-9)
                assert math.isclose(vec["mfu"][i], ev.mfu, rel_tol=1e-9)
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("framework", ["llamafactory", "unsloth", "megatron-swift"])
def test_plan_search_runs_with_a_tool_and_an_objective(framework, tmp_path, capsys):
    """A scenario naming a fine-tuning tool is planned with that tool (the user's choice), and each plan
    reproduces with ``estimate`` (one plan, one answer)."""
    from gpuplanner.cli import run_cli

    d = {"model": {"preset": "qwen2.5-1.5b"},
         "training": {"framework": framework, "method": "lora" if framework != "megatron-swift" else "full",
                      "objective": "dpo", "seq_len": 2048},
         "data": {"tokens": 1e8}, "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}}
    f = tmp_path / "s.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    assert run_cli(["plan", str(f), "--json", "--top", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["plans"]
    for p in out["plans"]:
        assert p["layout"]["framework"] == framework
        assert p["scenario"]["training"]["objective"] == "dpo"
        g = tmp_path / "p.json"
        g.write_text(json.dumps(p["scenario"]), encoding="utf-8")
        assert run_cli(["estimate", str(g), "--json"]) == 0
        e = json.loads(capsys.readouterr().out)
        assert f"{e['memory_per_gpu_gib']['total']:.2f}" == f"{p['memory_per_gpu_gib']['total']:.2f}"
        assert set(e["memory_per_gpu_gib"]) == set(p["memory_per_gpu_gib"])


def test_vllm_share_too_small_for_the_weights_is_said():
    e = _ev({"objective": "grpo", "rl": {"generation_engine": "vllm_colocated", "generation_gpu_fraction": 0.01}},
            model={"preset": "llama-3.1-8b"})
    assert any("does not hold the model's 16-bit weights" in m.render() for m in e.messages)
    assert e.memory.extra["kv_cache"] == 0.0
    ok = _ev({"objective": "grpo", "rl": {"generation_engine": "vllm_colocated", "generation_gpu_fraction": 0.5}},
             model={"preset": "llama-3.1-8b"})
    assert not any("16-bit weights" in m.render() for m in ok.messages)


def test_objective_a_tool_does_not_run_is_said():
    e = _ev({"framework": "unsloth", "objective": "ppo", "method": "lora"}, {"zero": 0}, {"num_gpus": 1})
    assert any("does not document the PPO objective" in m.render() for m in e.messages)
    ok = _ev({"framework": "unsloth", "objective": "grpo", "method": "lora"}, {"zero": 0}, {"num_gpus": 1})
    assert not any("does not document" in m.render() for m in ok.messages)


def test_eager_decode_floor_recounted_and_against_gpt_fast():
    """HF generate's eager decode floor: 43 kernels per Llama layer (timing.EAGER_OPS_FWD_LAYER's 41 + the KV cache's
    two torch.cat) at methods.EAGER_FWD_OP_S = 24 µs. PyTorch's "GPT, Fast" blog measured its eager starting point at
    25.5 tok/s for Llama-2-7B (32 layers) on an A100, CPU-bound: 39.2 ms per token, 1.2 ms per layer with the head's
    share; 32 × 1.03 ms = 33 ms of it is the layers."""
    from gpuplanner.core import methods as M
    assert M.EAGER_DECODE_S_PER_LAYER == pytest.approx(43 * 24e-6)
    per_token = 32 * M.EAGER_DECODE_S_PER_LAYER
    assert 0.75 * (1 / 25.5) < per_token < 1 / 25.5


def test_plausibility_gate_reads_the_training_phase_of_an_rl_step():
    """TRL's default GRPO (HF generate) on Qwen2.5-0.5B spends most of its step decoding, host-bound: the step's MFU
    is below 0.1 % but the training phase's is not, so the plan is not refused."""
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.plausible import MIN_MFU, _training_mfu, check_plausible
    ev = evaluate(scenario_from_dict({"model": {"preset": "qwen2.5-0.5b"},
                                      "training": {"objective": "grpo", "preference": {"beta": 0.04}},
                                      "hardware": {"gpu": "h100-sxm-80gb"}}))
    gen, step = ev.time.seconds["generation"], ev.time.step_time_s
    assert gen > 0.5 * step
    assert _training_mfu(ev) == pytest.approx(ev.mfu * step / (step - gen))
    assert ev.mfu < MIN_MFU < _training_mfu(ev)  # the whole step's MFU alone would refuse it
    check_plausible(ev)

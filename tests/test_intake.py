"""The model intake says what it knows: no unknown architecture is estimated silently, the weights' count sizes
memory when config.json disagrees, seq_len beyond the context is flagged, CPU offload's host RAM is computed."""

from __future__ import annotations

import json
import struct

import pytest

from gpuplanner.core.architecture import LLAMA_LIKE_TYPES, OWN_BRANCH_TYPES, arch_from_hf_config, context_length
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.memory import GIB
from gpuplanner.core.params import count_params
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.io.model_files import ModelFiles

TINY = dict(model_type="llama", hidden_size=256, num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=2,
            intermediate_size=512, vocab_size=1000, max_position_embeddings=2048, tie_word_embeddings=False)


def _folder(tmp_path, cfg, tensors=None):
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    if tensors:
        header = {n: {"dtype": dt, "shape": sh, "data_offsets": [0, 0]} for n, (dt, sh) in tensors.items()}
        raw = json.dumps(header).encode()
        (tmp_path / "model.safetensors").write_bytes(struct.pack("<Q", len(raw)) + raw)
    return tmp_path


def _ev(tmp_path, cfg, tensors=None, **sections):
    (tmp_path / "m").mkdir(parents=True)
    folder = _folder(tmp_path / "m", cfg, tensors)
    data = {"model": {"hf_config": str(folder)}, "hardware": {"gpu": "h100-sxm-80gb"}}
    for k, v in sections.items():
        data.setdefault(k, {}).update(v)
    return evaluate(scenario_from_dict(data), ModelFiles(tmp_path))


@pytest.mark.parametrize("model_type", ["phimoe", "olmoe", "granite", "totally_new_arch", "starcoder2"])
def test_unknown_model_type_is_never_silent(tmp_path, model_type):
    ev = _ev(tmp_path, {**TINY, "model_type": model_type})
    texts = [w.render() for w in ev.warnings]
    assert any(f"architecture '{model_type}' not recognised, counted as decoder-only" in t for t in texts), texts
    js = ev.to_json()
    assert any("Approximate" in w for w in js["warnings"]) and any("Approximate" in m for m in js["messages"])


def test_no_model_type_is_a_guess_too(tmp_path):
    cfg = {k: v for k, v in TINY.items() if k != "model_type"}
    ev = _ev(tmp_path, cfg)
    assert any("not recognised" in w.render() for w in ev.warnings)


@pytest.mark.parametrize("model_type", sorted(LLAMA_LIKE_TYPES - {"deepseek_v2", "deepseek_v3", "llama4_text"}))
def test_known_families_give_no_intake_warning(tmp_path, model_type):
    ev = _ev(tmp_path, {**TINY, "model_type": model_type})
    assert ev.warnings == ()


def test_every_preset_family_is_recognised():
    from gpuplanner.core.architecture import load_presets

    for p in load_presets().values():
        assert p.arch.unrecognised == "" and p.arch.uncounted == "", p.id
        assert p.arch.model_type in LLAMA_LIKE_TYPES | OWN_BRANCH_TYPES


def test_vision_section_not_counted_is_said(tmp_path):
    # a vision tower this reader does not know (an InternViT inside a LLaVA-style config)
    ev = _ev(tmp_path, {"model_type": "llava", "text_config": {**TINY},
                        "vision_config": {"model_type": "intern_vit_6b", "hidden_size": 1024}})
    assert any("vision_config" in w.render() and "not counted" in w.render() for w in ev.warnings)


def test_weights_disagreeing_with_config_size_memory_and_are_shown(tmp_path):
    arch = arch_from_hf_config(TINY)
    total = count_params(arch).total
    extra = 100_000  # e.g. a module config.json does not describe
    tensors = {"all": ("BF16", [total + extra])}
    ev = _ev(tmp_path, TINY, tensors)
    base = _ev(tmp_path / "b", TINY)
    # memory from the weights: every part of the model scales by weights/config (full fine-tuning, no ZeRO,
    # pp=1: weights, gradients and optimizer are bytes-per-parameter × the parameter count)
    k = (total + extra) / total
    assert ev.memory.optimizer == pytest.approx(base.memory.optimizer * k, rel=1e-9)
    # gradients at the step's peak: one micro-batch per step, so only the output projection's (freed between
    # steps, memory.gradients_at_peak): the head's size, not the extra weights'
    assert ev.memory.gradients == pytest.approx(base.memory.gradients, rel=1e-9)
    js = ev.to_json()
    assert js["params"]["total"] == total and js["params"]["weights"] == total + extra
    msg = next(w.render() for w in ev.warnings if "weights hold" in w.render())
    assert f"{total + extra:,}" in msg and f"{total:,}" in msg and f"+{extra:,}" in msg
    # the weights agree: no warning, no change
    same = _ev(tmp_path / "c", TINY, {"all": ("BF16", [total])})
    assert same.warnings == () and same.memory.total == pytest.approx(base.memory.total)


def test_quantised_weights_do_not_replace_the_count(tmp_path):
    ev = _ev(tmp_path, TINY, {"qweight": ("I32", [10, 10])})
    assert ev.memory.total == pytest.approx(_ev(tmp_path / "b", TINY).memory.total)
    assert any("quantised" in w.render() for w in ev.warnings)


def test_seq_len_beyond_context_is_flagged_not_refused(tmp_path):
    ev = _ev(tmp_path, TINY, training={"seq_len": 4096})
    assert ev.scenario.training.seq_len == 4096  # the user's choice stays
    assert any("seq_len 4,096 is longer than the model's context of 2,048" in w.render() for w in ev.warnings)
    assert _ev(tmp_path / "b", TINY, training={"seq_len": 2048}).warnings == ()


def test_rope_scaling_extends_the_context():
    assert context_length({"rope_scaling": {"type": "yarn", "factor": 4, "original_max_position_embeddings": 32768}},
                          32768) == 131072
    assert context_length({"rope_scaling": {"rope_type": "linear", "factor": 2.0}}, 4096) == 8192
    # llama3-type configs already give the extended length
    assert context_length({"rope_scaling": {"rope_type": "llama3", "factor": 8.0,
                                            "original_max_position_embeddings": 8192}}, 131072) == 131072
    assert context_length({"rope_scaling": {"type": "yarn", "factor": "x"}}, 4096) == 4096


def test_llama2_at_32k_is_flagged():
    ev = evaluate(scenario_from_dict({"model": {"preset": "llama-2-7b"}, "training": {"seq_len": 32768}}))
    assert any("context of 4,096" in w.render() for w in ev.warnings)


def test_host_ram_for_offload_by_hand():
    # Llama-2-7B, full fine-tuning, ZeRO-3 with optimizer and parameter offload, 8 GPUs in one node:
    # per node 16 bytes (fp32 master 4 + Adam 8 + fp32 grads 4) + 2 (bf16 params) per parameter, × 1.5 buffers
    # (DeepSpeed's estimate_zero3_model_states_mem_needs with cpu_offload_params: 18 × params × 1.5 per node)
    s = {"model": {"preset": "llama-2-7b"}, "training": {"framework": "deepspeed"},
         "parallel": {"zero": 3, "offload_optimizer": True, "offload_params": True},
         "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8, "host_ram_gib": 256}}
    ev = evaluate(scenario_from_dict(s))
    n = ev.params.total
    assert ev.host_ram.optimizer == pytest.approx(16 * n / GIB)
    assert ev.host_ram.params == pytest.approx(2 * n / GIB)
    assert ev.host_ram.total == pytest.approx(18 * n * 1.5 / GIB)
    assert ev.host_ram.fits is True and ev.to_json()["host_ram_per_node_gib"]["total"] == pytest.approx(
        18 * n * 1.5 / GIB)
    # two nodes: each holds half
    s2 = json.loads(json.dumps(s))
    s2["hardware"]["num_gpus"] = 16
    assert evaluate(scenario_from_dict(s2)).host_ram.total == pytest.approx(18 * n * 1.5 / GIB / 2)
    # too little RAM: a warning, not a refusal
    s["hardware"]["host_ram_gib"] = 64
    ev = evaluate(scenario_from_dict(s))
    assert ev.host_ram.fits is False
    assert any("host RAM per node" in w.render() for w in ev.warnings)
    # no offload: nothing to say
    assert evaluate(scenario_from_dict({"model": {"preset": "llama-2-7b"}})).host_ram is None


def test_host_ram_for_activation_offload_is_the_saved_activations():
    s = {"model": {"preset": "llama-3-8b"}, "training": {"activation_offload": True, "seq_len": 4096},
         "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}}
    ev = evaluate(scenario_from_dict(s))
    no = evaluate(scenario_from_dict({**s, "training": {"seq_len": 4096}}))
    # the CPU holds what the GPU would otherwise keep for backward
    assert ev.host_ram.activations == pytest.approx(no.memory.activations, rel=0.15)
    assert ev.host_ram.optimizer == 0 and ev.host_ram.params == 0


def test_cli_json_has_warnings(tmp_path, capsys):
    from gpuplanner.cli import run_cli

    f = tmp_path / "s.json"
    f.write_text(json.dumps({"model": {"preset": "llama-2-7b"}, "training": {"seq_len": 32768}}))
    assert run_cli(["estimate", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["warnings"]) == 1 and "context of 4,096" in out["warnings"][0]
    assert run_cli(["estimate", str(f)]) == 0
    assert "context of 4,096" in capsys.readouterr().out


def test_llama4_scout_text_exact_vision_still_said():
    """Llama 4 Scout (meta-llama/Llama-4-Scout-17B-16E config.json): every layer MoE, 16 experts of 8192 plus a
    shared expert, top-1 routing. Published: 109B total (with the vision encoder), 17B active."""
    text = {"model_type": "llama4_text", "hidden_size": 5120, "intermediate_size": 8192,
            "intermediate_size_mlp": 16384, "num_hidden_layers": 48, "num_attention_heads": 40,
            "num_key_value_heads": 8, "head_dim": 128, "num_local_experts": 16, "num_experts_per_tok": 1,
            "vocab_size": 202048, "max_position_embeddings": 10485760, "interleave_moe_layer_step": 1,
            "use_qk_norm": True, "tie_word_embeddings": False}
    a = arch_from_hf_config({"model_type": "llama4", "text_config": text,
                             "vision_config": {"model_type": "llama4_vision_model", "hidden_size": 1408}})
    assert a.unrecognised == "" and a.uncounted == "vision_config"
    h, kv, f, E, V, L = 5120, 8 * 128, 8192, 16, 202048, 48
    attn = 2 * h * h + 2 * h * kv
    layer = attn + E * 3 * h * f + 3 * h * f + h * E + 2 * h
    p = count_params(a)
    assert p.total == L * layer + 2 * V * h + h
    assert p.active == L * (attn + 2 * 3 * h * f + h * E + 2 * h) + 2 * V * h + h
    assert p.active == pytest.approx(17e9, rel=0.02)
    assert p.total == pytest.approx(109e9, rel=0.02)  # the vision encoder (not counted) is the rest
    maverick = {**text, "interleave_moe_layer_step": 2, "num_local_experts": 128}
    with pytest.raises(Exception, match="interleaved"):
        arch_from_hf_config({"model_type": "llama4", "text_config": maverick})


def test_plan_json_carries_the_intake_warnings(tmp_path, capsys):
    from gpuplanner.cli import run_cli

    f = tmp_path / "s.json"
    f.write_text(json.dumps({"model": {"preset": "llama-2-7b"}, "training": {"seq_len": 32768},
                             "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}}))
    assert run_cli(["plan", str(f), "--json", "--top", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["plans"]
    for p in out["plans"]:
        assert any("context of 4,096" in w for w in p["warnings"]), p["warnings"]


def test_pdf_report_prints_the_intake_warnings(tmp_path):
    import shutil
    import subprocess

    from gpuplanner.cli import run_cli

    f = tmp_path / "s.json"
    f.write_text(json.dumps({"model": {"preset": "llama-2-7b"}, "training": {"seq_len": 32768},
                             "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}))
    out = tmp_path / "r.pdf"
    assert run_cli(["report", str(f), "-o", str(out)]) == 0
    from gpuplanner.report.content import plan_from_evaluation

    ev = evaluate(scenario_from_dict(json.loads(f.read_text())))
    info = plan_from_evaluation(ev, "chosen")
    assert any("context of 4,096" in t.render() for t in info.warnings)
    if shutil.which("pdftotext"):
        text = " ".join(subprocess.run(["pdftotext", "-raw", str(out), "-"], capture_output=True,
                                       text=True).stdout.split())
        assert "longer than the model's context of 4,096 tokens" in text.replace("’", "'")


def test_deepseek_moe_v1_shared_experts_and_dense_first_layer():
    """deepseek-ai/deepseek-moe-16b-base config.json (model_type "deepseek"): 64 routed experts of 1408, 2 shared,
    top-6, the first layer dense (first_k_dense_replace=1). Published: 16.4B total, 2.8B active (DeepSeekMoE
    paper, arXiv:2401.06066, Table: DeepSeekMoE 16B)."""
    cfg = dict(model_type="deepseek", hidden_size=2048, intermediate_size=10944, moe_intermediate_size=1408,
               num_hidden_layers=28, num_attention_heads=16, num_key_value_heads=16, n_routed_experts=64,
               n_shared_experts=2, num_experts_per_tok=6, first_k_dense_replace=1, moe_layer_freq=1,
               vocab_size=102400, tie_word_embeddings=False, max_position_embeddings=4096)
    a = arch_from_hf_config(cfg)
    assert a.unrecognised == "" and a.num_shared_experts == 2 and a.num_dense_layers == 1
    h, f, fe, E, V = 2048, 10944, 1408, 64, 102400
    attn = 4 * h * h
    dense = attn + 3 * h * f + 2 * h
    moe = attn + h * E + E * 3 * h * fe + 3 * h * 2 * fe + 2 * h
    p = count_params(a)
    assert p.total == dense + 27 * moe + 2 * V * h + h
    assert p.total == pytest.approx(16.4e9, rel=0.01)
    assert p.active == pytest.approx(2.8e9, rel=0.02)


def test_pipeline_with_fewer_micro_batches_than_stages_is_flagged():
    """A local batch of 2 on an 8-stage torchtitan pipeline is split into 2 micro-batches of one sequence
    (frameworks.pipeline_split): the step is (p−1)/(m+p−1) = 7/9 bubble. The intake says so (the user's values
    are kept); with 16 sequences per rank the warning is gone."""
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.scenario import scenario_from_dict

    d = {"model": {"preset": "llama-3-70b"},
         "training": {"method": "pretrain", "framework": "fsdp", "micro_batch_size": 2, "seq_len": 8192},
         "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 64},
         "parallel": {"auto": False, "tp": 8, "pp": 8, "zero": 3}, "data": {"tokens": "10B"}}
    ev = evaluate(scenario_from_dict(d))
    texts = [w.render() for w in ev.warnings]
    assert any("8-stage pipeline gets only 2 micro-batch" in t for t in texts), texts
    assert ev.scenario.training.micro_batch_size == 2  # nothing the user set is changed
    d["training"].update(micro_batch_size=1, global_batch_size=16)
    ev = evaluate(scenario_from_dict(d))
    assert not any("pipeline gets only" in w.render() for w in ev.warnings)


def test_torchtitan_pipeline_splits_the_local_batch():
    """torchtitan (framework fsdp) splits each rank's batch into micro-batches of
    pipeline_parallel_microbatch_size (default 1): a local batch of 16 typed as the micro-batch is evaluated as 16
    micro-batches of one sequence — the same step as the explicit filling; Megatron's micro-batch is the
    pipeline's own (unchanged); pipeline_microbatch_size 4 gives 4 micro-batches of 4."""
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.frameworks import pipeline_split
    from gpuplanner.core.scenario import scenario_from_dict

    def ev(**train):
        d = {"model": {"preset": "llama-3-70b"},
             "training": {"method": "pretrain", "framework": "fsdp", "seq_len": 8192, **train},
             "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 64},
             "parallel": {"auto": False, "tp": 8, "pp": 8, "zero": 3}, "data": {"tokens": "10B"}}
        return evaluate(scenario_from_dict(d))

    naive, explicit = ev(micro_batch_size=16), ev(micro_batch_size=1, global_batch_size=16)
    assert naive.time.tokens_per_s_per_gpu == explicit.time.tokens_per_s_per_gpu
    assert naive.memory.total == explicit.memory.total
    assert naive.scenario.training.micro_batch_size == 16  # what the user typed is kept
    b = naive.time.breakdown
    assert abs(b["pp_bubble"] / sum(b.values()) - 7 / 23) < 0.08  # (p−1)/(m+p−1) with m = 16, near 0.30
    four = ev(micro_batch_size=16, pipeline_microbatch_size=4)
    assert four.time.tokens_per_s_per_gpu != naive.time.tokens_per_s_per_gpu
    assert pipeline_split("fsdp", 8, 16, 1, 4) == (4, 4)
    assert pipeline_split("megatron", 8, 16, 1) == (16, 1)
    assert pipeline_split("fsdp", 1, 16, 1) == (16, 1)  # no pipeline: the local batch runs at once
    assert pipeline_split("fsdp", 8, 6, 1, 4) == (6, 1)  # does not divide: kept

"""Published RL step times with their timing breakdowns, next to the model's (a sanity table: nothing is fitted).

Usage: python bench/rl_step_times.py [--markdown]

Each row is a run whose configuration is published in full (the launch script in the log or the document) and
whose per-step timing breakdown is printed by verl (``timing_s/gen``, ``timing_s/old_log_prob``,
``timing_s/ref``, ``timing_s/values``, ``timing_s/update_critic``, ``timing_s/update_actor``,
``timing_s/step``; medians over the logged steps). The model is run with the published configuration; where
the source is silent the choice is written next to the row (``ASSUMED``). ``mean_response_fraction`` is the
logged ``response_length/mean`` over ``max_response_length`` where the log has it.

verl mapping (verl ``trainer/config``): FSDP → ``framework fsdp``, ZeRO-3 (``fsdp_config.param_offload`` /
``optimizer_offload`` → ``offload_params`` / ``offload_optimizer``); ``use_remove_padding`` → ``padding_free``;
``rollout.gpu_memory_utilization`` → ``generation_gpu_fraction``; ``free_cache_engine`` (default True) →
``engine_sleep``; ``use_kl_loss`` → a reference (``beta`` = ``kl_loss_coef``); ``rollout.n`` → ``group_size``; ``rollout.tensor_model_parallel_size`` → ``rollout_tp``;
``enforce_eager`` → ``enforce_eager`` (verl's default True until August 2025, logged in every play-verl
run); vLLM < 0.8.5 (play-verl: 0.8.3) → ``sleep_level`` 1 (verl ``third_party/vllm``); ``data.max_prompt_length``
(512 in every script) → ``prompt_pad_len`` (verl pads every prompt to it: the padded actor and critic rows);
the prompt is the logged mean prompt length; one planner step = one verl step (``train_batch_size × n``
sequences over all GPUs) is ``updates_per_generation`` = ``train_batch_size / ppo_mini_batch_size`` planner
steps of ``ppo_mini_batch_size × n`` sequences (``global_batch_size``); the micro-batch is what verl runs per GPU: with
``use_dynamic_bsz`` the sequences of a mini-batch per GPU (``ppo_mini_batch_size × n / GPUs``) up to
``ppo_max_token_len_per_gpu`` tokens, else ``ppo_micro_batch_size_per_gpu``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

PLAY_VERL = "github.com/dingxianzhong/play-verl (README: 8× H100 80GB, vLLM 0.8.3; logs/*.log)"
VERL_DATA = "github.com/eric-haibin-lin/verl-data, branch experiments, gsm8k/qwen2-7b-fsdp2.log"


def _verl(model, gpu, n_gpus, *, prompts, n, prompt_mean, resp_max, resp_mean, util, offload, objective="grpo",
          kl=0.001, mbs=1, recompute="full", mini=None, gen_tp=1, eager=True, sleep_level=1, padding_free=True,
          ref=True, prompt_pad=512, fsdp_version=1):
    mini = mini or prompts
    seqs = mini * n
    return {
        "model": {"preset": model},
        # actor.strategy "fsdp" is FSDP1 (fsdp_workers.py _build_model_optimizer: FullyShardedDataParallel with
        # decoder-layer units); every play-verl log prints strategy: fsdp. verl-data's log is fsdp2.
        "training": {"objective": objective, "method": "full", "framework": "fsdp", "padding_free": padding_free,
                     "fsdp_version": fsdp_version,
                     "seq_len": prompt_mean + resp_max, "micro_batch_size": mbs, "global_batch_size": seqs,
                     "recompute": recompute,
                     # verl's FSDP workers build the reference with CPUOffload(offload_params=True) whatever
                     # ref.fsdp_config.param_offload says (fsdp_workers.py _build_model_optimizer, v0.2 to HEAD)
                     "preference": {"beta": kl, "reference_offload": True,
                                    **({} if ref else {"reference": "none"})},
                     "rl": {"group_size": n, "rollout_len": resp_max, "prompt_len": prompt_mean,
                            "generation_engine": "vllm_colocated", "generation_gpu_fraction": util,
                            "engine_sleep": True, "mean_response_fraction": resp_mean / resp_max,
                            "reward": "function", "updates_per_generation": prompts // mini,
                            "rollout_tp": gen_tp, "enforce_eager": eager, "sleep_level": sleep_level,
                            "prompt_pad_len": prompt_pad,
                            # verl's critic: critic.model.use_remove_padding unset (false) in both PPO launches
                            **({"critic_padding_free": False} if objective == "ppo" else {})}},
        "parallel": {"zero": 3, "offload_optimizer": offload, "offload_params": offload},
        "hardware": {"gpu": gpu, "num_gpus": n_gpus},
    }


#: (id, source, scenario, published seconds {gen, train (old_log_prob + ref + values + updates), step}, notes,
#:  counted)
ROWS = [
    ("play-verl qwen2-7b ppo min", PLAY_VERL,
     _verl("qwen2.5-7b", "h100-sxm-80gb", 8, prompts=512, n=1, prompt_mean=94, resp_max=1024, resp_mean=164,
           util=0.5, offload=True, objective="ppo", mbs=4, mini=32),
     {"gen": 12.07, "train": 1.34 + 0.75 + 3.92 + 15.61 + 11.15, "step": 45.71, "mem": 54.49},
     "ASSUMED Qwen2.5-7B preset for Qwen2-7B-Instruct (same shape but vocabulary); critic offloaded too", True),
    ("play-verl qwen2-7b ppo recommended", PLAY_VERL,
     _verl("qwen2.5-7b", "h100-sxm-80gb", 8, prompts=1024, n=5, prompt_mean=94, resp_max=1024, resp_mean=183,
           util=0.6, offload=False, objective="ppo", mbs=40, mini=64, gen_tp=2),
     {"gen": 26.07, "train": 6.50 + 6.25 + 27.55 + 98.92 + 33.61, "step": 201.72, "mem": 83.59},
     "rollout TP 2; the critic runs padded (critic use_remove_padding unset); critic.use_dynamic_bsz follows the "
     "actor's (verl ppo_trainer.yaml, ppo_max_token_len_per_gpu 32768), so its micro-batch is the whole mini-batch "
     "per GPU, not critic.ppo_micro_batch_size_per_gpu = 1",
     True),
    ("play-verl qwen2.5-0.5b grpo", PLAY_VERL,
     _verl("qwen2.5-0.5b", "h100-sxm-80gb", 8, prompts=256, n=2, prompt_mean=104, resp_max=192, resp_mean=140,
           util=0.6, offload=False, mbs=16, mini=64),
     {"gen": 4.99, "train": 0.23 + 0.20 + 1.00, "step": 6.54, "mem": 52.80},
     "experiment name says a100x8, the README says H100: H100 taken", True),
    ("play-verl qwen2.5-0.5b ppo", PLAY_VERL,
     _verl("qwen2.5-0.5b", "h100-sxm-80gb", 8, prompts=2048, n=1, prompt_mean=104, resp_max=256, resp_mean=192,
           util=0.6, offload=False, objective="ppo", mbs=4, mini=512, padding_free=False, ref=False),
     {"gen": 8.46, "train": 2.23 + 3.39 + 12.86 + 13.03, "step": 40.74, "mem": 53.04},
     "no reference (use_kl_loss unset, no timing_s/ref); actor and critic padded (use_remove_padding unset); "
     "reward 0.29 s in the step", True),
    ("verl-data qwen2-7b grpo gsm8k", VERL_DATA,
     _verl("qwen2.5-7b", "h20-96gb", 8, prompts=1024, n=5, prompt_mean=94, resp_max=1024, resp_mean=199,
           util=0.6, offload=True, mbs=40, recompute="none", mini=256, gen_tp=2, sleep_level=2, fsdp_version=2),
     {"gen": 42.92, "train": 27.32 + 25.06 + 82.58, "step": 179.0},
     "first step; ASSUMED H20: the GPU is not named, the logged actor MFU 0.77 fits only a 148 TFLOP/s part; "
     "rollout TP 2; enforce_eager the verl default of May 2025 (not set in the script); ASSUMED vLLM >= 0.8.5 "
     "(sleep level 2)", True),
]

NEMO_RL = ("github.com/NVIDIA-NeMo/RL v0.4.0, docs/about/performance-summary.md (\"Nemo RL v0.4\", GRPO on "
           "OpenMathInstruct-2, DGX-H100, BF16) and examples/configs/recipes/llm/performance/*.yaml at tag v0.4.0")

#: Qwen3-32B (huggingface.co/Qwen/Qwen3-32B config.json); no preset ships
QWEN3_32B = {"name": "Qwen3-32B", "hidden_size": 5120, "num_hidden_layers": 64, "num_attention_heads": 64,
             "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 25600, "gated_mlp": True,
             "vocab_size": 151936, "tie_word_embeddings": False, "qk_norm": True}


def _nemo_rl(model, n_gpus, *, tp, pp, gen_tp, avg_seq, recompute, sp=False, prompt=150, seq_max=4096, ep=1,
             rl_extra=None, gpu="h100-sxm-80gb", per_node=8):
    """A NeMo RL v0.4 GRPO performance recipe (``grpo_math_1B.yaml`` defaults): Megatron training with sequence
    packing (padding-free), micro-batch 1, distributed optimizer; vLLM colocated at gpu_memory_utilization 0.6,
    CUDA graphs (enforce_eager false), sleep mode at level 1 (``vllm_worker.py`` ``sleep(level=1)``); KL penalty
    0.01 against a reference whose weights NeMo RL keeps in CPU memory and swaps in; 64 prompts × 32 generations
    = 2,048 rollouts per step, train_global_batch_size 512 (4 optimizer steps per generation);
    max_new_tokens = max_model_len = 4,096. The table's G-Average Seq len is prompt + response; the prompt is
    ASSUMED 150 tokens (OpenMathInstruct-2 question, cot.txt template and chat header; not published)."""
    resp_max = seq_max - prompt
    return {"model": model,
            "training": {"objective": "grpo", "method": "full", "framework": "megatron", "padding_free": True,
                         "seq_len": seq_max, "micro_batch_size": 1, "global_batch_size": 512,
                         "recompute": recompute, "preference": {"beta": 0.01, "reference_offload": True},
                         "rl": {"group_size": 32, "rollout_len": resp_max, "prompt_len": prompt,
                                "generation_engine": "vllm_colocated", "generation_gpu_fraction": 0.6,
                                "engine_sleep": True, "sleep_level": 1,
                                "mean_response_fraction": (avg_seq - prompt) / resp_max, "reward": "function",
                                "updates_per_generation": 4, "rollout_tp": gen_tp, **(rl_extra or {})}},
            # grpo_math_1B.yaml sets megatron_cfg.expert_tensor_parallel_size: 1 (no recipe here overrides it)
            "parallel": {"tp": tp, "pp": pp, "ep": ep, "sequence_parallel": sp, "zero": 1,
                         **({"expert_tp": 1} if ep > 1 else {})},
            "hardware": {"gpu": gpu, "num_gpus": n_gpus, "gpus_per_node": per_node}}


#: NeMo RL's "async-1off" recipes (grpo.async_grpo.enabled, max_trajectory_age_steps 1): schedule async with one
#: batch in flight (issue 35 round 15, rlasync15). Its AsyncTrajectoryCollector runs one worker a prompt group, at
#: most num_prompts_per_step × max_trajectory_age_steps at once, and pushes each group to the replay buffer as it
#: finishes (github.com/NVIDIA-NeMo/RL nemo_rl/algorithms/async_utils.py: _process_batch, _inflight_sema,
#: _run_prompt_group_worker); the trainer samples a step's groups from the buffer. Rounds 4–14 entered them as
#: one_step_off (the whole batch's longest completion gating each step).
NEMO_ASYNC = {"schedule": "async", "steps_in_flight": 1}

#: NeMo RL's published on-policy step times (the table gives no breakdown): (id, source, scenario, {step}, note)
STEP_ROWS = [
    ("nemo-rl llama3.1-8b grpo 16xh100", NEMO_RL,
     _nemo_rl({"preset": "llama-3.1-8b"}, 16, tp=1, pp=2, gen_tp=1, avg_seq=1060, recompute="full"),
     {"step": 97.7}, "grpo-llama3.1-8b-instruct-2n8g.yaml: PP 2, activation checkpointing; vLLM TP 1"),
    ("nemo-rl llama3.1-8b grpo 16xh100 1-step off", NEMO_RL,
     _nemo_rl({"preset": "llama-3.1-8b"}, 16, tp=1, pp=2, gen_tp=1, avg_seq=1129, recompute="full",
              rl_extra={"generation_engine": "vllm_separate", "generation_gpu_fraction": 0.5,
                        **NEMO_ASYNC, "engine_sleep": False}),
     {"step": 74.6}, "grpo-llama3.1-8b-instruct-2n8g-async-1off.yaml: vLLM on its own node (8 of 16 GPUs, "
     "gpu_memory_utilization 0.8, the model's separate engine takes 0.9), max_trajectory_age_steps 1"),
    ("nemo-rl qwen3-32b grpo 32xh100", NEMO_RL,
     _nemo_rl(QWEN3_32B, 32, tp=4, pp=4, gen_tp=4, avg_seq=3206, recompute="none", sp=True),
     {"step": 393.0}, "grpo-qwen3-32b-4n8g.yaml: TP 4 + sequence parallel, PP 4; vLLM TP 4"),
    ("nemo-rl qwen3-32b grpo 64xh100 1-step off", NEMO_RL,
     _nemo_rl(QWEN3_32B, 64, tp=4, pp=4, gen_tp=4, avg_seq=3207, recompute="none", sp=True,
              rl_extra={"generation_engine": "vllm_separate", "generation_gpu_fraction": 0.5,
                        **NEMO_ASYNC, "engine_sleep": False}),
     {"step": 215.0}, "grpo-qwen3-32b-8n8g-async-1off.yaml: vLLM TP 4 on 4 of 8 nodes (gpu_memory_utilization "
     "0.8), training TP 4 PP 4 on the other 4"),
    ("nemo-rl qwen3-30b-a3b grpo 32xh100", NEMO_RL,
     _nemo_rl({"preset": "qwen3-30b-a3b"}, 32, tp=2, pp=1, ep=8, gen_tp=4, avg_seq=3154, recompute="none", sp=True),
     {"step": 225.0}, "grpo-qwen3-30ba3b-4n8g.yaml: TP 2 + sequence parallel, EP 8 (dropless); vLLM TP 4"),
]

NEMO_RL_V05 = ("github.com/NVIDIA-NeMo/RL v0.5.0, docs/about/performance-summary.md (\"Nemo RL v0.5\", H100 BF16, GRPO "
               "on OpenMathInstruct-2, DGX-H100) and examples/configs/recipes/llm/performance/*.yaml at tag v0.5.0")
_OFF = {"generation_engine": "vllm_separate", "generation_gpu_fraction": 0.5, **NEMO_ASYNC, "engine_sleep": False}

#: NeMo RL v0.5's published on-policy and 1-step-off step times (the same recipes as v0.4 unless noted; the v0.5
#: recipes differ from v0.4.0's in the Qwen3-30B-A3B layouts and the Llama 1-step-off PP only)
STEP_ROWS_V05 = [
    ("nemo-rl v0.5 llama3.1-8b grpo 16xh100", NEMO_RL_V05,
     _nemo_rl({"preset": "llama-3.1-8b"}, 16, tp=1, pp=2, gen_tp=1, avg_seq=1019, recompute="full"),
     {"step": 92.8}, "grpo-llama3.1-8b-instruct-2n8g.yaml: PP 2, activation checkpointing; vLLM TP 1"),
    ("nemo-rl v0.5 llama3.1-8b grpo 16xh100 1-step off", NEMO_RL_V05,
     _nemo_rl({"preset": "llama-3.1-8b"}, 16, tp=1, pp=1, gen_tp=1, avg_seq=1123, recompute="full", rl_extra=_OFF),
     {"step": 64.8}, "grpo-llama3.1-8b-instruct-2n8g-async-1off.yaml: PP 1 (v0.5), vLLM on its own node"),
    ("nemo-rl v0.5 qwen3-30b-a3b grpo 32xh100", NEMO_RL_V05,
     _nemo_rl({"preset": "qwen3-30b-a3b"}, 32, tp=1, pp=1, ep=8, gen_tp=2, avg_seq=3196, recompute="none"),
     {"step": 198.0}, "grpo-qwen3-30ba3b-4n8g.yaml at v0.5.0: TP 1, EP 8 (dropless); vLLM TP 2"),
    ("nemo-rl v0.5 qwen3-30b-a3b grpo 32xh100 1-step off", NEMO_RL_V05,
     _nemo_rl({"preset": "qwen3-30b-a3b"}, 32, tp=1, pp=2, ep=8, gen_tp=2, avg_seq=3201, recompute="none",
              rl_extra=_OFF),
     {"step": 154.0}, "grpo-qwen3-30ba3b-4n8g-async-1off.yaml at v0.5.0: training TP 1 PP 2 EP 8 on 2 nodes, "
     "vLLM TP 2 on 2 nodes (gpu_memory_utilization 0.8)"),
    ("nemo-rl v0.5 qwen3-32b grpo 32xh100", NEMO_RL_V05,
     _nemo_rl(QWEN3_32B, 32, tp=4, pp=4, gen_tp=4, avg_seq=3251, recompute="none", sp=True),
     {"step": 376.0}, "grpo-qwen3-32b-4n8g.yaml: TP 4 + sequence parallel, PP 4; vLLM TP 4"),
    ("nemo-rl v0.5 qwen3-32b grpo 64xh100 1-step off", NEMO_RL_V05,
     _nemo_rl(QWEN3_32B, 64, tp=4, pp=4, gen_tp=4, avg_seq=3252, recompute="none", sp=True, rl_extra=_OFF),
     {"step": 200.0}, "grpo-qwen3-32b-8n8g-async-1off.yaml: vLLM TP 4 on 4 of 8 nodes, training on the other 4"),
]

NEMO_RL_V05_GB200 = ("github.com/NVIDIA-NeMo/RL v0.5.0, docs/about/performance-summary.md (\"Nemo RL v0.5\", GB200 BF16, "
                     "GB200-NVL72, GRPO on OpenMathInstruct-2) and the *n4g*.yaml recipes at tag v0.5.0")
_GB = {"gpu": "gb200-186gb", "per_node": 4}
#: The same release on GB200 NVL72 (4 GPUs per compute tray: the recipes' ``gpus_per_node: 4``; the 1-step-off
#: recipes give vLLM half of the GPUs at gpu_memory_utilization 0.8, async engine)
STEP_ROWS_V05_GB200 = [
    ("nemo-rl v0.5 gb200 llama3.1-8b grpo 8 gpus", NEMO_RL_V05_GB200,
     _nemo_rl({"preset": "llama-3.1-8b"}, 8, tp=1, pp=1, gen_tp=1, avg_seq=1066, recompute="full", **_GB),
     {"step": 91.0}, "grpo-llama3.1-8b-instruct-2n4g.yaml: TP 1 PP 1, activation_checkpointing: true (the recipe's "
     "megatron_cfg at v0.5.0); vLLM TP 1"),
    ("nemo-rl v0.5 gb200 llama3.1-8b grpo 8 gpus 1-step off", NEMO_RL_V05_GB200,
     _nemo_rl({"preset": "llama-3.1-8b"}, 8, tp=1, pp=1, gen_tp=1, avg_seq=1107, recompute="full", rl_extra=_OFF,
              **_GB), {"step": 71.1}, "grpo-llama3.1-8b-instruct-2n4g-async-1off.yaml: vLLM on 4 of 8 GPUs; "
     "activation checkpointing inherited from grpo-llama3.1-8b-instruct-2n4g.yaml"),
    ("nemo-rl v0.5 gb200 qwen3-32b grpo 16 gpus", NEMO_RL_V05_GB200,
     _nemo_rl(QWEN3_32B, 16, tp=2, pp=1, gen_tp=1, avg_seq=3253, recompute="none", sp=True, **_GB),
     {"step": 381.0}, "grpo-qwen3-32b-4n4g.yaml: TP 2 + sequence parallel; vLLM TP 1"),
    ("nemo-rl v0.5 gb200 qwen3-32b grpo 32 gpus 1-step off", NEMO_RL_V05_GB200,
     _nemo_rl(QWEN3_32B, 32, tp=2, pp=1, gen_tp=1, avg_seq=3258, recompute="none", sp=True, rl_extra=_OFF, **_GB),
     {"step": 210.0}, "grpo-qwen3-32b-8n4g-async-1off.yaml: vLLM TP 1 on 16 of 32 GPUs"),
    ("nemo-rl v0.5 gb200 qwen3-30b-a3b grpo 16 gpus", NEMO_RL_V05_GB200,
     _nemo_rl({"preset": "qwen3-30b-a3b"}, 16, tp=1, pp=1, ep=16, gen_tp=1, avg_seq=3198, recompute="none", **_GB),
     {"step": 232.0}, "grpo-qwen3-30ba3b-4n4g.yaml: EP 16 (dropless); vLLM TP 1"),
    ("nemo-rl v0.5 gb200 qwen3-30b-a3b grpo 32 gpus 1-step off", NEMO_RL_V05_GB200,
     _nemo_rl({"preset": "qwen3-30b-a3b"}, 32, tp=1, pp=1, ep=16, gen_tp=1, avg_seq=3204, recompute="none",
              rl_extra=_OFF, **_GB), {"step": 136.0}, "grpo-qwen3-30ba3b-8n4g-async-1off.yaml: vLLM TP 1 on 16 of 32 GPUs"),
]

NEMO_RL_V06 = ("github.com/NVIDIA-NeMo/RL docs/about/performance-summary.md (\"NeMo RL v0.6\" tables, H100 BF16 "
               "and GB200 BF16; the same tables at tag v0.7.0 and main 7ea279a) and examples/configs/recipes/llm/"
               "performance/*.yaml at tag v0.6.0")


def _nemo_rl6(model, n_gpus, *, prompts=64, group=32, t_gbs=512, cp=1, **kw):
    """A NeMo RL v0.6 performance recipe: :func:`_nemo_rl` with the recipe's prompts per step
    (``grpo.num_prompts_per_step``), generations per prompt, training global batch (``train_global_batch_size``,
    512 in every recipe) and context parallel size. One generation batch of ``prompts × group`` rollouts trains
    ``prompts × group / t_gbs`` optimizer steps."""
    scn = _nemo_rl(model, n_gpus, **kw)
    rl = scn["training"]["rl"]
    rl["group_size"] = group
    rl["updates_per_generation"] = max(1, prompts * group // t_gbs)
    scn["training"]["global_batch_size"] = t_gbs
    if cp > 1:
        scn["parallel"]["cp"] = cp
    return scn


#: Round 7 out-of-sample rows (entered and scored before any round-7 change): NeMo RL v0.6's published step
#: times, each with its v0.6.0 recipe. Not expressible, so left out: the Qwen3-30B-A3B "8-step Off" row (the
#: planner's schedule has one step of staleness at most), the Nemotron-3-Nano SWE row (no preset, 131K context
#: agentic rollouts) and the H100 FP8 DeepSeek-V3 row (FP8 generation).
STEP_ROWS_V06 = [
    ("nemo-rl v0.6 qwen3-30b-a3b grpo 32xh100", NEMO_RL_V06,
     _nemo_rl6({"preset": "qwen3-30b-a3b"}, 32, tp=1, pp=1, ep=8, gen_tp=2, avg_seq=3203, recompute="none"),
     {"step": 192.0}, "grpo-qwen3-30ba3b-4n8g.yaml: TP 1, EP 8; vLLM TP 2"),
    ("nemo-rl v0.6 qwen3-30b-a3b grpo 32xh100 1-step off", NEMO_RL_V06,
     _nemo_rl6({"preset": "qwen3-30b-a3b"}, 32, tp=1, pp=2, ep=8, gen_tp=2, avg_seq=3201, recompute="none",
               rl_extra=_OFF),
     {"step": 152.0}, "grpo-qwen3-30ba3b-4n8g-async-1off.yaml: training TP 1 PP 2 EP 8 on 2 nodes, vLLM TP 2 on 2"),
    ("nemo-rl v0.6 qwen3-235b grpo 128xh100", NEMO_RL_V06,
     _nemo_rl6({"preset": "qwen3-235b-a22b"}, 128, prompts=16, tp=2, cp=2, pp=8, ep=16, gen_tp=16, avg_seq=5698,
               recompute="full", sp=True, seq_max=8192),
     {"step": 395.0}, "grpo-qwen3-235b-16n8g.yaml: 16 × 32 rollouts, TP 2 SP, CP 2, PP 8, EP 16, activation "
     "checkpointing; vLLM TP 16"),
    ("nemo-rl v0.6 qwen3-235b grpo 256xh100", NEMO_RL_V06,
     _nemo_rl6({"preset": "qwen3-235b-a22b"}, 256, prompts=16, tp=2, cp=2, pp=8, ep=16, gen_tp=16, avg_seq=5713,
               recompute="full", sp=True, seq_max=8192),
     {"step": 312.0}, "grpo-qwen3-235b-32n8g.yaml: as the 16-node recipe on 32 nodes"),
    ("nemo-rl v0.6 qwen3-235b grpo 256xh100 1-step off", NEMO_RL_V06,
     _nemo_rl6({"preset": "qwen3-235b-a22b"}, 256, prompts=16, tp=4, pp=8, ep=16, gen_tp=8, avg_seq=5721,
               recompute="full", sp=True, seq_max=8192, rl_extra=_OFF),
     {"step": 231.0}, "grpo-qwen3-235b-32n8g-async-1off.yaml: training TP 4 PP 8 EP 16 on 16 nodes, vLLM TP 8 on 16"),
    ("nemo-rl v0.6 deepseek-v3 grpo 256xh100", NEMO_RL_V06,
     _nemo_rl6({"preset": "deepseek-v3"}, 256, prompts=32, group=16, pp=16, tp=1, ep=16, gen_tp=32, avg_seq=701,
               recompute="full", seq_max=1536),
     {"step": 134.0}, "grpo-deepseek-v3-32n8g.yaml: 32 × 16 rollouts, PP 16, EP 16, activation checkpointing; "
     "vLLM TP 32"),
    ("nemo-rl v0.6 deepseek-v3 grpo 512xh100", NEMO_RL_V06,
     _nemo_rl6({"preset": "deepseek-v3"}, 512, prompts=32, group=16, pp=16, tp=1, ep=32, gen_tp=32, avg_seq=697,
               recompute="full", seq_max=1536),
     {"step": 111.0}, "grpo-deepseek-v3-64n8g.yaml: EP 32"),
    ("nemo-rl v0.6 deepseek-v3 grpo 512xh100 1-step off", NEMO_RL_V06,
     _nemo_rl6({"preset": "deepseek-v3"}, 512, prompts=32, group=16, pp=16, tp=1, ep=16, gen_tp=32, avg_seq=710,
               recompute="full", seq_max=1536, rl_extra=_OFF),
     {"step": 64.1}, "grpo-deepseek-v3-64n8g-async-1off.yaml: training PP 16 EP 16 on 32 nodes, vLLM TP 32 on 32"),
]
_GB6 = {"gpu": "gb200-186gb", "per_node": 4}
STEP_ROWS_V06_GB200 = [
    ("nemo-rl v0.6 gb200 qwen3-30b-a3b grpo 16 gpus", NEMO_RL_V06,
     _nemo_rl6({"preset": "qwen3-30b-a3b"}, 16, tp=1, pp=1, ep=16, gen_tp=1, avg_seq=3199, recompute="none", **_GB6),
     {"step": 221.0}, "grpo-qwen3-30ba3b-4n4g.yaml: EP 16; vLLM TP 1"),
    ("nemo-rl v0.6 gb200 qwen3-30b-a3b grpo 16 gpus 1-step off", NEMO_RL_V06,
     _nemo_rl6({"preset": "qwen3-30b-a3b"}, 16, tp=1, pp=1, ep=8, gen_tp=1, avg_seq=3197, recompute="none",
               rl_extra=_OFF, **_GB6),
     {"step": 301.0}, "grpo-qwen3-30ba3b-4n4g-async-1off.yaml: training EP 8 on 2 trays, vLLM TP 1 on the other 2"),
    ("nemo-rl v0.6 gb200 qwen3-235b grpo 64 gpus", NEMO_RL_V06,
     _nemo_rl6({"preset": "qwen3-235b-a22b"}, 64, prompts=16, tp=2, cp=2, pp=4, ep=16, gen_tp=8, avg_seq=5709,
               recompute="full", sp=True, seq_max=8192, rl_extra={"generation_gpu_fraction": 0.4}, **_GB6),
     {"step": 286.0}, "grpo-qwen3-235b-16n4g.yaml: TP 2 SP, CP 2, PP 4, EP 16; vLLM TP 8 at "
     "gpu_memory_utilization 0.4 (the 32n4g recipe sets 0.6 again)"),
    ("nemo-rl v0.6 gb200 qwen3-235b grpo 128 gpus", NEMO_RL_V06,
     _nemo_rl6({"preset": "qwen3-235b-a22b"}, 128, prompts=16, tp=2, cp=2, pp=4, ep=16, gen_tp=8, avg_seq=5693,
               recompute="full", sp=True, seq_max=8192, **_GB6),
     {"step": 345.0}, "grpo-qwen3-235b-32n4g.yaml"),
    ("nemo-rl v0.6 gb200 qwen3-235b grpo 128 gpus 1-step off", NEMO_RL_V06,
     _nemo_rl6({"preset": "qwen3-235b-a22b"}, 128, prompts=16, tp=4, pp=4, ep=16, gen_tp=8, avg_seq=5705,
               recompute="full", sp=True, seq_max=8192, rl_extra=_OFF, **_GB6),
     {"step": 278.0}, "grpo-qwen3-235b-32n4g-async-1off.yaml: training TP 4 PP 4 EP 16 on 16 trays, vLLM TP 8 on 16"),
    ("nemo-rl v0.6 gb200 deepseek-v3 grpo 128 gpus", NEMO_RL_V06,
     _nemo_rl6({"preset": "deepseek-v3"}, 128, prompts=32, group=16, pp=8, tp=1, ep=16, gen_tp=32, avg_seq=711,
               recompute="full", seq_max=1536, rl_extra={"generation_gpu_fraction": 0.3}, **_GB6),
     {"step": 108.0}, "grpo-deepseek-v3-32n4g.yaml: PP 8, EP 16; vLLM TP 32 at gpu_memory_utilization 0.3"),
]

#: Logged memory peaks that cannot be a live peak (shown, not counted)
#: verl's per-key timings of each row (``timing_s/<key>``, medians over the logged steps, the same logs as
#: :data:`ROWS`; their sum is the row's ``train``): old_log_prob, ref, values, update_critic, update_actor
KEYS_PUB = {
    "play-verl qwen2-7b ppo min": {"old_log_prob": 1.34, "ref": 0.75, "values": 3.92, "update_critic": 15.61,
                                   "update_actor": 11.15},
    "play-verl qwen2-7b ppo recommended": {"old_log_prob": 6.50, "ref": 6.25, "values": 27.55,
                                           "update_critic": 98.92, "update_actor": 33.61},
    "play-verl qwen2.5-0.5b grpo": {"old_log_prob": 0.23, "ref": 0.20, "update_actor": 1.00},
    "play-verl qwen2.5-0.5b ppo": {"old_log_prob": 2.23, "values": 3.39, "update_critic": 12.86,
                                   "update_actor": 13.03},
    "verl-data qwen2-7b grpo gsm8k": {"old_log_prob": 27.32, "ref": 25.06, "update_actor": 82.58},
}
KEYS = ("gen", "old_log_prob", "ref", "values", "update_critic", "update_actor")


def _variant(scn: dict, **rl_pref) -> dict:
    """A copy of a row's scenario with ``training.preference`` / ``training.objective`` changes (key_split)."""
    import copy
    out = copy.deepcopy(scn)
    tr = out["training"]
    for k, v in rl_pref.items():
        if k == "objective":
            tr["objective"] = v
            tr["rl"].pop("critic_padding_free", None)
        else:
            tr["preference"][k] = v
    return out


def verl_phase_moves(scn: dict, base: dict) -> tuple:
    """Seconds per verl step of the offload copies that verl's timers put in ``old_log_prob``, ``values`` and
    ``gen``, and the critic's copies in all: (log-prob phase, values phase, critic total, refit). With
    ``fsdp_config.param_offload`` verl's FSDP worker loads the fp32 parameter shard to the GPU and offloads it back
    inside the timed call: ``compute_log_prob`` (``load_fsdp_model_to_gpu`` … ``offload_fsdp_model_to_cpu``) and
    ``compute_values`` (the same for the critic), volcengine/verl v0.3.0.post1 (070ed6ac)
    ``verl/workers/fsdp_workers.py``; the rollout's weight sync, in ``FSDPVLLMShardingManager.__enter__``
    (``load_fsdp_model_to_gpu``, ``state_dict()``, ``update_params``, ``offload_fsdp_model_to_cpu``), which runs
    inside ``generate_sequences`` and so inside ``timing_s/gen`` (``verl/workers/sharding_manager/fsdp_vllm.py``
    at db84a4007; issue 35 round 13, verl13: before, the refit's copy was left in ``update_actor``). The model
    prices all of verl's per-phase copies in one part (``optimizer_offload``: ``timing.offload_layout``'s
    ``off_verl``, the bytes of ``timing.verl_phase_bytes``): each phase's share of that part, by its bytes. A LoRA
    actor's reference phase (its copy) is left in ``ref``, which the step without a reference already holds. Zero
    without offload."""
    from gpuplanner.core import timing as T
    from gpuplanner.core.methods import method_profile
    from gpuplanner.core.estimate import resolve_arch
    from gpuplanner.core.params import count_params, lora_params
    from gpuplanner.core.scenario import scenario_from_dict
    if not scn["parallel"].get("offload_params"):
        return 0.0, 0.0, 0.0, 0.0
    moves = base["offload"]
    sc = scenario_from_dict(scn)
    prof = method_profile(sc.training)
    trained = 1.0  # the optimizer state's share of the parameters: the adapter's with LoRA
    if sc.training.method in ("lora", "qlora"):
        arch = resolve_arch(sc.model)
        trained = lora_params(arch, sc.training.lora_rank, sc.training.lora_targets)[0] / count_params(arch).total
    ph = T.verl_phase_bytes(prof, 1.0, trained)
    share = moves / sum(ph.values())
    critic = ph["critic"]
    return (T.VERL_PARAM_BYTES * share, (T.VERL_PARAM_BYTES * share if critic else 0.0), critic * share,
            ph["refit"] * share)


def key_split(scn: dict) -> dict:
    """The model's step split into verl's timing keys, by running the row's scenario without one part:
    ``ref`` = the step less the step without a reference; one no-grad policy forward (``old_log_prob``) = the step
    with a separate (GPU-resident) reference less the step without one; the critic = the step less the same run
    as GRPO (no critic), split into ``values`` (its forward) and ``update_critic`` by their FLOPs (a forward is
    1 of the 4 forward-equivalents of a step with full recompute, 1 of 3 without); ``update_actor`` the rest of
    the training side. ``gen`` includes the refit (verl times the sharding manager's weight sync inside
    ``gen``)."""
    base = predict(scn)
    no_ref = predict(_variant(scn, reference="none"))
    sep = predict(_variant(scn, reference="separate", reference_offload=False))
    # (a LoRA actor on verl's FSDP1: the log-prob forward also runs the adapter units' hooks, which the reference
    # with its adapter disabled does not: timing.fsdp1_lora_objective_mb)
    out = {"gen": base["gen"], "old_log_prob": sep["step"] - no_ref["step"] + base["fsdp1_lora_logprob"]}
    lp_move, val_move, critic_move, refit_move = verl_phase_moves(scn, base)
    out["old_log_prob"] += lp_move
    out["gen"] += refit_move  # (the sharding manager's copies: timed in gen, verl_phase_moves)
    has_ref = scn["training"]["preference"].get("reference") != "none"
    out["ref"] = base["step"] - no_ref["step"] if has_ref else 0.0
    critic = 0.0
    if scn["training"]["objective"] == "ppo":
        critic = base["step"] - predict(_variant(scn, objective="grpo"))["step"]
        fwd_units = 4.0 if scn["training"].get("recompute", "none") == "full" else 3.0
        # (the critic's FSDP1 gradient passes, half of the PPO run's part, are its update's alone: verl13)
        critic_grad = base["fsdp1_grad"] / 2.0
        compute = critic - critic_move - critic_grad
        out["values"] = compute / (1.0 + fwd_units) + val_move
        out["update_critic"] = compute * fwd_units / (1.0 + fwd_units) + critic_move - val_move + critic_grad
    out["update_actor"] = base["train"] - out["old_log_prob"] - out["ref"] - critic - refit_move
    return out


def key_table() -> list[dict]:
    """Published and modelled seconds per verl timing key, each verl row (:data:`KEYS_PUB`)."""
    out = []
    for rid, _src, scn, pub, _note, _counted in ROWS:
        pk = dict(KEYS_PUB[rid], gen=pub["gen"])
        mk = key_split(scn)
        out.append({"id": rid, "pub": pk, "pred": {k: mk.get(k, 0.0) for k in pk},
                    "err": {k: mk.get(k, 0.0) / pk[k] - 1.0 for k in pk}})
    return out


NEMO_RL_V03 = ("NeMo RL v0.3 blog (nvidia-nemo.github.io/blog/2025/07/21/nemo-rl-v0.3, Megatron rows) as quoted with "
               "a rerun in github.com/NVIDIA-NeMo/RL issue #959; recipes examples/configs/grpo_math_8B_megatron.yaml and "
               "grpo_math_70B_megatron.yaml at tag v0.3.0 (defaults grpo_math_1B_megatron.yaml: sequence packing, KL 0.01, "
               "precision-aware distributed optimizer, vLLM colocated at 0.6, CUDA graphs)")
#: NeMo RL's per-key timings (``timing/*`` of ``grpo_train``, v0.3.0): total step, ``policy_training``, refit
#: (``prepare_for_generation``: ``refit_policy_generation`` → ``offload_before_refit``, the weight transfer,
#: ``offload_after_refit``), ``generation``, log-probs (``policy_and_reference_logprobs``). The blog's numbers, then
#: the issue's rerun of the same recipe (its own cluster, the mean generated length it logged). The GPU is not named:
#: ASSUMED DGX-H100 (NeMo RL's performance pages are DGX-H100). The 70B recipe names Llama-3.3-70B-Instruct, the blog
#: "Llama 3.1-70B Base": the same shapes (llama-3.1-70b preset).
NEMO_KEY_ROWS = [
    ("nemo-rl v0.3 llama3.1-8b megatron 8xh100 (blog)", NEMO_RL_V03,
     _nemo_rl({"preset": "llama-3.1-8b"}, 8, tp=1, pp=2, gen_tp=1, avg_seq=150 + 795, recompute="none"),
     {"step": 112.0, "policy_training": 28.0, "refit": 5.0, "generation": 58.0, "logprobs": 18.0}),
    ("nemo-rl v0.3 llama3.1-8b megatron 8xh100 (issue #959 rerun)", NEMO_RL_V03,
     _nemo_rl({"preset": "llama-3.1-8b"}, 8, tp=1, pp=2, gen_tp=1, avg_seq=150 + 811, recompute="none"),
     {"step": 116.0, "policy_training": 27.0, "refit": 8.0, "generation": 56.0, "logprobs": 18.0}),
    ("nemo-rl v0.3 llama-70b megatron 64xh100 (blog)", NEMO_RL_V03,
     _nemo_rl({"preset": "llama-3.1-70b"}, 64, tp=4, pp=4, gen_tp=4, avg_seq=150 + 398, recompute="none"),
     {"step": 147.0, "policy_training": 28.0, "refit": 14.0, "generation": 84.0, "logprobs": 18.0}),
    ("nemo-rl v0.3 llama-70b megatron 64xh100 (issue #959 rerun)", NEMO_RL_V03,
     _nemo_rl({"preset": "llama-3.1-70b"}, 64, tp=4, pp=4, gen_tp=4, avg_seq=150 + 396, recompute="none"),
     {"step": 178.0, "policy_training": 31.0, "refit": 26.0, "generation": 87.0, "logprobs": 20.0}),
]
NEMO_KEYS = ("generation", "refit", "logprobs", "policy_training", "step")


def _without_d2h_cost(scn: dict) -> dict:
    """:func:`predict` with NeMo RL's pageable optimizer download made free (``timing.NEMO_RL_PAGEABLE_D2H_BPS``
    set to infinity for the call, then restored): the difference is that download's seconds."""
    from gpuplanner.core import timing as T
    keep = T.NEMO_RL_PAGEABLE_D2H_BPS
    try:
        T.NEMO_RL_PAGEABLE_D2H_BPS = float("inf")
        return predict(scn)
    finally:
        T.NEMO_RL_PAGEABLE_D2H_BPS = keep


def nemo_key_split(scn: dict) -> dict:
    """The model's NeMo RL step (v0.3 colocated Megatron flow) split into its timers, seconds per generation batch.
    ``refit`` = the weight transfer + ``offload_before_refit``'s optimizer download + ``offload_after_refit``'s
    16-bit buffer download; ``logprobs`` = the previous policy's and the reference's forwards + the reference swap
    (three 16-bit copies); ``policy_training`` = the rest of the training side less the moves timed elsewhere
    (``logprob_inference_prep`` re-uploads the buffer, ``training_prep`` the optimizer: not in the published
    columns). The forwards: the step less the step without a reference, less the swap; both passes cost the same."""
    e = estimate(scenario_from_dict(scn))
    k = scn["training"]["rl"]["updates_per_generation"]
    base = predict(scn)
    no_ref = predict(_variant(scn, reference="none"))
    # (NeMo RL's copies are their own named part since round 6's breakdown6, carved out of optimizer_offload)
    moves = (e.time.parts.get("optimizer_offload", 0.0) + e.time.parts.get("nemo_rl_host_copies", 0.0)) * k
    # (NeMo RL's per-tensor refit host work is named apart since issue 35 round 11, nemorl12; the timer holds it)
    refit = (e.time.parts.get("weight_refit", 0.0) + e.time.parts.get("nemo_rl_refit_tensors", 0.0)) * k
    opt_out = base["step"] - _without_d2h_cost(scn)["step"]
    from gpuplanner.core import timing as T
    opt_back = opt_out * T.NEMO_RL_PAGEABLE_D2H_BPS / T.NEMO_RL_PAGEABLE_H2D_BPS
    w16 = (moves - opt_out - opt_back) / 5.0  # 2 colocated buffer moves + 3 reference-swap copies, equal bytes
    fwd = base["step"] - no_ref["step"] - 3.0 * w16
    return {"generation": base["gen"] - refit, "refit": refit + opt_out + w16, "logprobs": 2.0 * fwd + 3.0 * w16,
            "policy_training": base["train"] - 2.0 * fwd - moves, "step": base["step"]}


def nemo_key_table() -> list[dict]:
    """Published and modelled seconds per NeMo RL timer (:data:`NEMO_KEY_ROWS`)."""
    out = []
    for rid, _src, scn, pub in NEMO_KEY_ROWS:
        mk = nemo_key_split(scn)
        out.append({"id": rid, "pub": pub, "pred": {k: mk[k] for k in pub},
                    "err": {k: mk[k] / pub[k] - 1.0 for k in pub}})
    return out


#: (round 10: empty. play-verl "recommended"'s 83.6 GiB, more than the H100's 79.6 GiB, was left out as "likely
#: vLLM's pool counted after sleep mode unmapped it"; that is the mechanism memory.sleeping_pool_counted_bytes now
#: models from vLLM's CuMemAllocator, so the row is counted)
MEM_NOT_COUNTED: dict = {}

#: verl docs, colocated synchronous rows with a breakdown but no logged mean response length (generation share
#: only): docs/advance/one_step_off.md (16× H20, Qwen2.5-Math-7B DAPO) and docs/advance/fully_async.md (H20)
DOC_SHARES = [
    ("verl one_step_off colocate FSDP2, 7B DAPO 20k, 16× H20", 321, 749),
    ("verl one_step_off colocate Megatron, 7B DAPO 8k, 16× H20", 207, 699),
    ("verl fully_async colocate 32× H20, 7B DAPO", 357.41, 790.10),
    ("verl fully_async colocate 64× H20, 7B DAPO", 150.72, 365.28),
    ("verl fully_async colocate 128× H20, 7B DAPO", 177.85, 356.30),
    ("verl fully_async colocate 128× H20, Qwen3-30B-A3B GRPO 8k", 348.05, 497.89),
]


def predict(scn: dict) -> dict:
    """One verl step: ``updates_per_generation`` optimizer steps of the planner; the allocated peak (GiB)."""
    e = estimate(scenario_from_dict(scn))
    t = e.time
    k = scn["training"]["rl"]["updates_per_generation"]
    gen = t.seconds.get("generation", 0.0) * k
    return {"gen": gen, "train": t.step_time_s * k - gen, "step": t.step_time_s * k, "mem": e.memory.allocated,
            "fsdp1_lora_logprob": t.parts.get("fsdp1_lora_units_logprob", 0.0) * k,
            "offload": t.parts.get("optimizer_offload", 0.0) * k,
            "fsdp1_grad": t.parts.get("fsdp1_grad_passes", 0.0) * k}


def table() -> list[dict]:
    out = []
    for rid, src, scn, pub, note, counted in ROWS:
        pred = predict(scn)
        err = {k: pred[k] / pub[k] - 1.0 for k in pub}
        out.append({"id": rid, "source": src, "pub": pub, "pred": pred, "err": err, "note": note,
                    "counted": counted, "pub_share": pub["gen"] / pub["step"],
                    "pred_share": pred["gen"] / pred["step"]})
    return out


def step_table(rows=None) -> list[dict]:
    """The rows that publish the step time only (default: NeMo RL v0.4's, :data:`STEP_ROWS`)."""
    out = []
    for rid, src, scn, pub, note in (STEP_ROWS if rows is None else rows):
        pred = predict(scn)
        out.append({"id": rid, "source": src, "pub": pub, "pred": pred, "err": {"step": pred["step"] / pub["step"] - 1.0},
                    "note": note, "pred_share": pred["gen"] / pred["step"]})
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    rows = table()
    print("| run | published gen / train / step (s) | predicted gen / train / step (s) | step error | "
          "gen share published / predicted | note |")
    print("|---|---|---|---:|---|---|")
    for r in rows:
        p, q = r["pub"], r["pred"]
        print(f"| {r['id']} | {p['gen']:.1f} / {p['train']:.1f} / "
              f"{p['step']:.1f} | {q['gen']:.1f} / {q['train']:.1f} / {q['step']:.1f} | {r['err']['step']:+.0%} | "
              f"{r['pub_share']:.0%} / {r['pred_share']:.0%} | {r['note']} |")
    for part in ("gen", "train", "step"):
        errs = sorted(abs(r["err"][part]) for r in rows)
        p90 = errs[min(len(errs) - 1, int(round(0.9 * (len(errs) - 1))))]
        print(f"{part} |error| over {len(errs)} rows: median {statistics.median(errs):.0%}, p90 {p90:.0%}")
    steps = step_table(STEP_ROWS + STEP_ROWS_V05 + STEP_ROWS_V05_GB200)
    print("\nverl's timing keys, published → modelled seconds (error):")
    krows = key_table()
    for r in krows:
        cells = [f"{k} {r['pub'][k]:.2f} → {r['pred'][k]:.2f} ({r['err'][k]:+.0%})" for k in KEYS if k in r["pub"]]
        print(f"- {r['id']}: " + "; ".join(cells))
    for k in KEYS:
        errs = sorted(r["err"][k] for r in krows if k in r["err"])
        print(f"{k}: signed errors {', '.join(f'{e:+.0%}' for e in errs)}; median |error| "
              f"{statistics.median(abs(e) for e in errs):.0%}")
    print("\nNeMo RL v0.4 and v0.5 performance summaries (step time only):")
    for r in steps:
        print(f"- {r['id']}: {r['pub']['step']:.1f} s published, {r['pred']['step']:.1f} s predicted "
              f"({r['err']['step']:+.0%}; generation {r['pred']['gen']:.1f} s) — {r['note']}")
    errs = sorted(abs(r["err"]["step"]) for r in rows + steps)
    p90 = errs[min(len(errs) - 1, int(round(0.9 * (len(errs) - 1))))]
    print(f"step |error| over all {len(errs)} rows: median {statistics.median(errs):.0%}, p90 {p90:.0%}")
    oos = step_table(STEP_ROWS_V06 + STEP_ROWS_V06_GB200)
    print("\nNeMo RL v0.6 performance summary (round 7 out-of-sample rows, step time only; not in the line above):")
    for r in oos:
        print(f"- {r['id']}: {r['pub']['step']:.1f} s published, {r['pred']['step']:.1f} s predicted "
              f"({r['err']['step']:+.0%}; generation {r['pred']['gen']:.1f} s) — {r['note']}")
    errs = sorted(abs(r["err"]["step"]) for r in oos)
    p90 = errs[min(len(errs) - 1, int(round(0.9 * (len(errs) - 1))))]
    print(f"step |error| over the {len(errs)} v0.6 rows: median {statistics.median(errs):.0%}, p90 {p90:.0%}")
    errs = sorted(abs(r["err"]["step"]) for r in rows + steps + oos)
    p90 = errs[min(len(errs) - 1, int(round(0.9 * (len(errs) - 1))))]
    print(f"step |error| over all {len(errs)} rows with them: median {statistics.median(errs):.0%}, p90 {p90:.0%}")
    print("\nNeMo RL v0.3's timers (blog and issue #959), published → modelled seconds per step (error):")
    for r in nemo_key_table():
        print(f"- {r['id']}: " + "; ".join(f"{k} {r['pub'][k]:.0f} → {r['pred'][k]:.1f} ({r['err'][k]:+.0%})"
                                          for k in NEMO_KEYS))
    print("\nMemory: verl's perf/max_memory_allocated_gb (torch.cuda.max_memory_allocated() / 1024**3 in the actor "
          "worker, vLLM's pool in the same process; a lifetime peak, the maximum over the log) against the allocated "
          "peak:")
    mem = [r for r in rows if "mem" in r["pub"]]
    for r in mem:
        why = MEM_NOT_COUNTED.get(r["id"])
        print(f"- {r['id']}: {r['pub']['mem']:.1f} GiB published, {r['pred']['mem']:.1f} GiB predicted "
              f"({r['err']['mem']:+.0%})" + (f" — not counted: {why}" if why else ""))
    errs = sorted(abs(r["err"]["mem"]) for r in mem if r["id"] not in MEM_NOT_COUNTED)
    print(f"mem |error| over {len(errs)} rows: median {statistics.median(errs):.0%}, max {errs[-1]:.0%}")
    print("\nverl docs, generation share of the step (colocated, synchronous):")
    for name, gen, step in DOC_SHARES:
        print(f"- {name}: {gen / step:.0%} ({gen:g} of {step:g} s)")


if __name__ == "__main__":
    main()

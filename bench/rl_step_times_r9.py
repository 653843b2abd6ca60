"""Round 9 out-of-sample RL rows: published verl step times with their timing keys, entered and scored before any
round-9 change (a sanity table: nothing is fitted).

Usage: python bench/rl_step_times_r9.py [--markdown]

Every row is a run whose launch command and configuration dump are printed in its log, with verl's per-step
``timing_s/*`` keys. Each row was found through verl's ``docs/algo/baseline.md`` ("command and logs" links) and
is used here for the first time (``grep`` of bench/ and docs/ before entry). Published figures: the median over
the logged steps where the whole log was read (the ``step:N - ...`` lines, the first step left out), else the
last step's keys (the wandb "Run summary" at the end of the log; its ``timing_s/step`` holds the final validation
and checkpoint, so the row's step is the sum of gen + reward + old_log_prob + ref + adv + update_actor).

verl mapping: as :mod:`rl_step_times` (``rollout.n`` → ``group_size``; ``train_batch_size / ppo_mini_batch_size``
→ ``updates_per_generation``; ``ppo_micro_batch_size_per_gpu`` → ``micro_batch_size``;
``enable_gradient_checkpointing`` → ``recompute full``; ``use_remove_padding`` → ``padding_free``;
``ref.fsdp_config.param_offload`` → ``reference_offload``; ``actor.fsdp_config.param_offload`` /
``optimizer_offload`` → ``offload_params`` / ``offload_optimizer``; a LoRA actor computes the reference with its
adapter disabled (verl ``ray_trainer`` ``ref_in_actor`` when ``lora_rank > 0``) → ``reference lora_base``;
``use_kl_loss`` false and ``use_kl_in_reward`` false → no reference).

GPUs: where the log does not name the GPU, it is read from verl's own ``perf/mfu/actor``: verl divides
6 × params × tokens / ``update_actor`` seconds by the GPU's promised dense BF16 FLOPs
(``verl/utils/flops_counter.py`` ``get_device_flops``: A100 312, H100/H800 989, H20 148 TFLOP/s); the part
that makes the logged MFU is named next to the row (``ASSUMED``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from rl_step_times import KEYS, key_split, predict  # noqa: E402

VERL_DATA = "github.com/eric-haibin-lin/verl-data, branch experiments, gsm8k/"
YS = "github.com/yushengsu-thu/verl_training_log gsm8k/ (verl docs/algo/baseline.md: AMD MI300)"
GPG = "github.com/diqiuzhuanzhuan/verldata run_logs/ (verl docs/algo/baseline.md: GPG)"

#: deepseek-ai/deepseek-llm-7b-chat config.json (no preset ships)
DEEPSEEK_LLM_7B = {"name": "deepseek-llm-7b-chat", "hidden_size": 4096, "num_hidden_layers": 30,
                   "num_attention_heads": 32, "num_key_value_heads": 32, "intermediate_size": 11008,
                   "gated_mlp": True, "vocab_size": 102400, "tie_word_embeddings": False}
#: Qwen/Qwen2.5-3B-Instruct config.json
QWEN25_3B = {"name": "Qwen2.5-3B", "hidden_size": 2048, "num_hidden_layers": 36, "num_attention_heads": 16,
             "num_key_value_heads": 2, "head_dim": 128, "intermediate_size": 11008, "gated_mlp": True,
             "vocab_size": 151936, "tie_word_embeddings": True}
#: google/gemma-2-2b-it config.json
GEMMA2_2B = {"name": "gemma-2-2b", "hidden_size": 2304, "num_hidden_layers": 26, "num_attention_heads": 8,
             "num_key_value_heads": 4, "head_dim": 256, "intermediate_size": 9216, "gated_mlp": True,
             "vocab_size": 256000, "tie_word_embeddings": True}


def _model(m):
    return {"preset": m} if isinstance(m, str) else dict(m)


def _v(model, gpu, n_gpus, *, prompts, n, prompt_mean, resp_max, resp_mean, util, tp, mini, mbs,
       recompute="full", objective="grpo", ref="offload", actor_offload=False, eager=True, sleep_level=2,
       padding_free=True, critic_padding_free=None, method="full", lora_rank=32, max_num_seqs=None,
       prompt_pad=512, kl=0.001, framework="fsdp", parallel=None, fsdp_version=None):
    """One verl run as a planner scenario (one planner step = one ``ppo_mini_batch_size × n`` update)."""
    pref = {"beta": kl}
    if ref == "none":
        pref["reference"] = "none"
    elif ref == "lora_base":
        pref["reference"] = "lora_base"
    else:
        pref["reference_offload"] = ref == "offload"
    rl = {"group_size": n, "rollout_len": resp_max, "prompt_len": prompt_mean,
          "generation_engine": "vllm_colocated", "generation_gpu_fraction": util, "engine_sleep": True,
          "mean_response_fraction": resp_mean / resp_max, "reward": "function",
          "updates_per_generation": max(1, prompts // mini), "rollout_tp": tp, "enforce_eager": eager,
          "sleep_level": sleep_level, "prompt_pad_len": prompt_pad}
    if max_num_seqs:
        rl["max_num_seqs"] = max_num_seqs
    if objective == "ppo":
        rl["critic_padding_free"] = bool(critic_padding_free)
    training = {"objective": objective, "method": method, "framework": framework, "padding_free": padding_free,
                "seq_len": prompt_mean + resp_max, "micro_batch_size": mbs, "global_batch_size": mini * n,
                "recompute": recompute, "preference": pref, "rl": rl}
    if method == "lora":
        training["lora_rank"] = lora_rank
    # verl's actor.strategy: fsdp is FSDP1 (FullyShardedDataParallel), fsdp2 FSDP2; "fsdp" is the default of
    # verl's ppo_trainer.yaml (the GPG FSDP log prints it; the MI300X deepseek logs do not print it: the default)
    if fsdp_version:
        training["fsdp_version"] = fsdp_version
    par = parallel or {"zero": 3, "offload_optimizer": actor_offload, "offload_params": actor_offload}
    return {"model": _model(model), "training": training, "parallel": par,
            "hardware": {"gpu": gpu, "num_gpus": n_gpus}}


def _lora(model, gpus, *, tp, util, resp_mean, pub):
    """The GRPO-LoRA baseline runs (verl docs/algo/baseline.md; one user's runs of June 2025): rank 32 on all
    linear layers, 64 prompts × 5 (train_batch_size = ppo_mini_batch_size = ppo_micro_batch_size = 64:
    the mini-batch of 320 sequences runs per GPU in micro-batches of 64 / GPUs sequences, verl's normalisation of the global ppo_micro_batch_size), max response 1,024, actor params and optimizer
    offloaded, gradient checkpointing, vLLM eager (enforce_eager True logged; XFormers backend) with
    max_num_seqs 512; actor.strategy fsdp (logged): FSDP1. ASSUMED sleep level 1 (verl keeps a LoRA engine's base weights and syncs the adapter)."""
    per_gpu = 64 // gpus  # ppo_micro_batch_size (global, in sequences) / GPUs
    return _v(model, "h100-sxm-80gb", gpus, prompts=64, n=5, prompt_mean=103, resp_max=1024, resp_mean=resp_mean,
              util=util, tp=tp, mini=64, mbs=per_gpu, ref="lora_base", actor_offload=True, sleep_level=1,
              method="lora", max_num_seqs=512, fsdp_version=1), pub


def _pub(gen, old, ref, upd, reward=0.0, adv=0.0, values=0.0, critic=0.0, step=None):
    keys = {"gen": gen, "old_log_prob": old, "update_actor": upd}
    if ref:
        keys["ref"] = ref
    if values:
        keys["values"] = values
        keys["update_critic"] = critic
    keys["step"] = step if step is not None else gen + old + ref + upd + values + critic + reward + adv
    return keys


_L05 = _lora("qwen2.5-0.5b", 2, tp=2, util=0.1, resp_mean=602,
             pub=_pub(67.87, 1.91, 0.77, 6.34, reward=0.08, adv=0.01))
_L15 = _lora("qwen2.5-1.5b", 2, tp=2, util=0.1, resp_mean=219,
             pub=_pub(38.76, 2.10, 0.80, 7.17, reward=0.06, adv=0.01))
_L3 = _lora(QWEN25_3B, 2, tp=2, util=0.1, resp_mean=304, pub=_pub(61.30, 2.83, 1.55, 13.28, reward=0.06, adv=0.01))
_L7 = _lora("qwen2.5-7b", 8, tp=2, util=0.2, resp_mean=267,
            pub=_pub(34.8, 2.33, 1.05, 7.13, reward=0.06, adv=0.01, step=45.2))
_L14 = _lora("qwen2.5-14b", 8, tp=8, util=0.25, resp_mean=240,
             pub=_pub(70.29, 3.90, 1.96, 12.58, reward=0.06, adv=0.01))
_L32 = _lora("qwen2.5-32b", 8, tp=8, util=0.3, resp_mean=267,
             pub=_pub(90.28, 5.39, 3.77, 17.21, reward=0.06, adv=0.01))
_L72 = _lora("qwen2.5-72b", 8, tp=8, util=0.4, resp_mean=265,
             pub=_pub(107.60, 9.66, 8.37, 27.52, reward=0.06, adv=0.01))

#: (id, source, scenario, published seconds per verl step {key: s, step: s}, note, counted)
ROWS = [
    ("verl mi300x deepseek-llm-7b grpo", YS + "grpo_run_deepseek7b_llm.log",
     _v(DEEPSEEK_LLM_7B, "mi300x-192gb", 8, prompts=1024, n=5, prompt_mean=83, resp_max=1024, resp_mean=133,
        util=0.6, tp=2, mini=256, mbs=80, sleep_level=1, fsdp_version=1),
     _pub(36.77, 5.54, 5.93, 23.15, adv=0.74, step=72.92),
     "median of 1,117 steps; ASSUMED vLLM 0.6.3 ROCm (sleep level 1), enforce_eager (verl default then)", True),
    ("verl mi300x deepseek-llm-7b ppo", YS + "ppo_run_deepseek7b_llm.log",
     _v(DEEPSEEK_LLM_7B, "mi300x-192gb", 8, prompts=1024, n=1, prompt_mean=83, resp_max=512, resp_mean=136,
        util=0.4, tp=4, mini=256, mbs=16, objective="ppo", critic_padding_free=True, sleep_level=1,
        fsdp_version=1),
     _pub(22.04, 1.21, 1.32, 6.20, values=1.14, critic=5.16, adv=0.16, step=37.70),
     "median of 1,117 steps; critic use_remove_padding True, micro-batch 32 (planner: the actor's 16); "
     "ASSUMED as the GRPO row", True),
    ("verl a100 qwen2-7b gpg fsdp", GPG + "qwen2-7b_math.log",
     _v("qwen2.5-7b", "a100-sxm-80gb", 8, prompts=1024, n=5, prompt_mean=101, resp_max=1024, resp_mean=221,
        util=0.6, tp=2, mini=256, mbs=16, ref="none", prompt_pad=1024, fsdp_version=1),
     _pub(85.63, 30.98, 0.0, 125.45, reward=1.34, adv=0.21, step=250.0),
     "GPG (GRPO's passes, no KL: no reference); median of 208 steps; ASSUMED A100 80GB: logged MFU 0.24 "
     "(6 × 7.6B × 1.64M tokens / 125 s / 8 = 75 TFLOP/s per GPU, i.e. 0.24 of 312); vLLM >= 0.8.5, eager", True),
    ("verl a100 qwen2-7b gpg megatron", GPG + "qwen2-7b_math_megatron.log",
     _v("qwen2.5-7b", "a100-sxm-80gb", 8, prompts=1024, n=5, prompt_mean=94, resp_max=1024, resp_mean=157,
        util=0.6, tp=2, mini=256, mbs=4, ref="none", prompt_pad=1024, framework="megatron",
        parallel={"tp": 2, "pp": 2, "zero": 1}),
     _pub(45.91, 52.38, 0.0, 109.05, reward=1.20, adv=0.18, step=211.14),
     "GPG with Megatron TP 2 PP 2, micro-batch 4; median of 103 steps; ASSUMED A100 (logged MFU 0.22) and "
     "Megatron's distributed optimizer", True),
    ("verl h100 qwen2.5-0.5b grpo-lora 2 gpus", VERL_DATA + "Qwen2.5-0.5B-bsz64_2-prompt512-resp1024-lorarank32-"
     "score0.543.log", *_L05, "last step (116); ASSUMED H100: logged MFU 0.075", True),
    ("verl h100 qwen2.5-1.5b grpo-lora 2 gpus", VERL_DATA + "Qwen2.5-1.5B-bsz64_2-prompt512-resp1024-lorarank32-"
     "score0.779.log", *_L15, "last step (116); ASSUMED H100 (same user and script)", True),
    ("verl h100 qwen2.5-3b grpo-lora 2 gpus", VERL_DATA + "Qwen2.5-3B-bsz64_2-prompt512-resp1024-lorarank32-"
     "score0.861.log", *_L3, "last step (116); ASSUMED H100 (same user and script)", True),
    ("verl h100 qwen2.5-7b grpo-lora 8 gpus", VERL_DATA + "Qwen2.5-7B-bsz64_8-prompt512-resp1024-lorarank32-"
     "score0.934.log", *_L7, "median of steps 61-64; ASSUMED H100: logged MFU 0.10 (6 × 7.6B × 119k / 7.1 s / "
     "8 = 95 TFLOP/s per GPU)", True),
    ("verl h100 qwen2.5-14b grpo-lora 8 gpus", VERL_DATA + "Qwen2.5-14B-bsz64_8-prompt512-resp1024-lorarank32-"
     "score0.946.log", *_L14, "last step (116); ASSUMED H100", True),
    ("verl h100 qwen2.5-32b grpo-lora 8 gpus", VERL_DATA + "Qwen2.5-32B-bsz64_8-prompt512-resp1024-lorarank32-"
     "score0.958.log", *_L32, "last step (116); ASSUMED H100 (MFU 0.18)", True),
    ("verl h100 qwen2.5-72b grpo-lora 8 gpus", VERL_DATA + "Qwen2.5-72B-bs64_8-prompt512-resp1024-lorarank32-"
     "score0.960.log", *_L72, "last step (116); ASSUMED H100: logged MFU 0.27 (6 × 72.7B × 117.5k / 27.5 s / 8 "
     "= 233 TFLOP/s per GPU)", True),
]

#: Logs that name no GPU and log no MFU, so they are shown at the A100 80GB and not counted: verl v0.1 (December
#: 2024) PPO logs, commit 50ac725 / d60f843, and a February 2025 Megatron PPO log. In v0.1 old_log_prob is computed inside ``generate_sequences`` then (its time sits in
#: ``timing/gen``); no use_remove_padding (actor and critic padded); KL in the reward (a reference, param-offloaded);
#: no gradient checkpointing; vLLM 0.6.3 (sleep level 1), enforce_eager.
#: v0.1's FSDP workers are FSDP1 (FullyShardedDataParallel; FSDP2 came in 2025): ``fsdp_version`` 1.
ROWS_V01 = [
    ("verl v0.1 qwen2.5-0.5b ppo resp512 1 gpu", VERL_DATA + "Qwen2.5-0.5B-bsz256_2-prompt1024-resp512-0.567.log",
     _v("qwen2.5-0.5b", "a100-sxm-80gb", 1, prompts=256, n=1, prompt_mean=104, resp_max=512, resp_mean=276,
        util=0.4, tp=1, mini=64, mbs=2, recompute="none", objective="ppo", sleep_level=1, padding_free=False,
        prompt_pad=1024, fsdp_version=1),
     {"gen": 17.80, "ref": 5.36, "values": 5.69, "update_critic": 16.55, "update_actor": 20.81, "step": 66.26},
     "median of 432 steps; step = the sum of the keys", False),
    ("verl v0.1 qwen2.5-0.5b ppo resp256 1 gpu", VERL_DATA + "Qwen2.5-0.5B-bsz256_2-prompt512-resp256-0.538.log",
     _v("qwen2.5-0.5b", "a100-sxm-80gb", 1, prompts=256, n=1, prompt_mean=104, resp_max=256, resp_mean=155,
        util=0.4, tp=1, mini=64, mbs=2, recompute="none", objective="ppo", sleep_level=1, padding_free=False,
        prompt_pad=512, fsdp_version=1),
     {"gen": 17.12, "ref": 4.53, "values": 5.91, "update_critic": 15.72, "update_actor": 20.31, "step": 63.72},
     "median of 432 steps", False),
    ("verl v0.1 gemma-2-2b ppo 2 gpus", VERL_DATA + "gemma-2-2b-it-ppo-bsz512_4-prompt1024-resp-512-0.640.log",
     _v(GEMMA2_2B, "a100-sxm-80gb", 2, prompts=512, n=1, prompt_mean=84, resp_max=512, resp_mean=146,
        util=0.4, tp=2, mini=128, mbs=4, recompute="none", objective="ppo", sleep_level=1, padding_free=False,
        prompt_pad=1024, fsdp_version=1),
     {"gen": 44.98, "ref": 11.25, "values": 9.69, "update_critic": 32.53, "update_actor": 38.27, "step": 136.86},
     "median of 103 steps", False),
    ("verl megatron deepseek-llm-7b ppo 4 gpus", VERL_DATA + "deepseek-llm-7b-chat-megatron-bsz256_4-prompt512-resp512-"
     "0.695.log (commit 3fe77fa, February 2025)",
     _v(DEEPSEEK_LLM_7B, "a100-sxm-80gb", 4, prompts=1024, n=1, prompt_mean=83, resp_max=512, resp_mean=136,
        util=0.2, tp=4, mini=256, mbs=4, recompute="none", objective="ppo", sleep_level=1, padding_free=False,
        framework="megatron", parallel={"tp": 4, "pp": 1, "sequence_parallel": True, "zero": 1}),
     {"gen": 36.95, "old_log_prob": 11.07, "ref": 10.91, "values": 15.39, "update_critic": 38.29,
      "update_actor": 31.07, "step": 143.45},
     "steps 36-43 without validation; Megatron TP 4 + SP for actor, critic and reference (not offloaded), "
     "micro-batch 4, padded rows; vLLM TP 4 at 0.2, eager; ASSUMED Megatron's distributed optimizer", False),
]


def row_table(rows) -> list[dict]:
    out = []
    for rid, src, scn, pub, note, counted in rows:
        try:
            pred = predict(scn)
            mk = key_split(scn)
        except Exception as exc:  # a row the planner refuses is shown, not hidden
            out.append({"id": rid, "error": str(exc).splitlines()[0], "counted": counted})
            continue
        if "old_log_prob" not in pub:  # verl v0.1: old_log_prob inside gen
            mk = dict(mk, gen=mk["gen"] + mk.get("old_log_prob", 0.0), old_log_prob=0.0)
        keys = {k: (pub[k], mk.get(k, 0.0)) for k in KEYS if k in pub and pub[k]}
        out.append({"id": rid, "source": src, "pub": pub, "pred": pred, "keys": keys, "note": note,
                    "counted": counted, "err": pred["step"] / pub["step"] - 1.0})
    return out


def _stats(errs):
    errs = sorted(abs(e) for e in errs)
    if not errs:
        return float("nan"), float("nan")
    return statistics.median(errs), errs[min(len(errs) - 1, int(round(0.9 * (len(errs) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--markdown", action="store_true")
    ap.parse_args()
    table = row_table(ROWS + ROWS_V01)
    for r in table:
        if "error" in r:
            print(f"- {r['id']}: REFUSED — {r['error']}")
            continue
        cells = "; ".join(f"{k} {p:.1f} → {m:.1f} ({m / p - 1:+.0%})" for k, (p, m) in r["keys"].items())
        flag = "" if r["counted"] else " [not counted]"
        print(f"- {r['id']}{flag}: step {r['pub']['step']:.1f} → {r['pred']['step']:.1f} ({r['err']:+.0%}); {cells}")
    counted = [r for r in table if r.get("counted") and "err" in r]
    med, p90 = _stats(r["err"] for r in counted)
    print(f"step |error| over the {len(counted)} counted round-9 rows: median {med:.0%}, p90 {p90:.0%}")
    every = [r for r in table if "err" in r]
    med, p90 = _stats(r["err"] for r in every)
    print(f"step |error| over all {len(every)} round-9 rows (A100 shown for the v0.1 rows): median {med:.0%}, "
          f"p90 {p90:.0%}")
    for k in KEYS:
        errs = [r["keys"][k][1] / r["keys"][k][0] - 1 for r in counted if k in r["keys"]]
        if errs:
            print(f"{k}: signed errors {', '.join(f'{e:+.0%}' for e in sorted(errs))}")


if __name__ == "__main__":
    main()

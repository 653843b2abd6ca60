"""Round 11 (postoos11): published verl step times of long-reasoning GRPO runs, scored against the model.

Usage: python bench/rl_step_times_r11.py

Source: RLinf's "Comparison with VeRL" page (github.com/RLinf/RLinf, ``docs/source-en/rst_source/blog/
compare_with_verl.rst``, "Last updated: 08/04/2025"; read at the stored copy xslingcn/RLinf@f800d4d4). No bench used
it before this file (``grep -ril rlinf bench docs``: nothing). It publishes, for verl itself:

* the rendered table: DeepSeek-R1-Distill-Qwen-1.5B, GRPO on the Boba math set, "1 nodes × 8 H100 GPUs", verl
  commit 8fdc4d3 (the v0.5.0 release), tensor parallelism 2, data parallelism 4, context 28,672, max prompt 1,024,
  "Batch Size Per DP" 128; response length 14,254.84, generation 260.92 s, prev logprob 17.51 s, training
  66.53 s, step 363.55 s, gen throughput 3,533.27 per-GPU tokens/s;
* a table kept in the page's source as an rst comment (not rendered): DeepSeek-R1-Distill-Qwen-7B, "8 nodes × 8
  GPUs", verl f252da3 (2025-07-22), with verl's own timing keys: gen 325.09 (generate_sequences 316.96 + reshard
  4.19), reward 5.14, old_log_prob 21.58, ref 20.74, adv 0.47, update_actor 73.01, step 447.36 s, response_length
  10,425.77. The page's bash example is that run's command (experiment_name ``ds_7b_fsdp_sglang``, nnodes 8):
  train_batch_size 128, n 16, ppo_mini_batch_size 32, max_prompt_length 1,024, max_response_length 27,648, actor
  param and optimizer offload, reference param offload, use_remove_padding, gradient checkpointing, Ulysses SP 4,
  use_dynamic_bsz with ppo_max_token_len_per_gpu 30,000, KL loss 0.001 (low_var_kl), entropy_coeff 0, rollout
  SGLang TP 2 at gpu_memory_utilization 0.4.

Mapping (as :mod:`rl_step_times_r9`), with what the page does not say marked ASSUMED:

* 1.5B: ASSUMED the bash example with the 1.5B model on one node; 512 sequences a step (4 DP ranks × 128): the
  published gen throughput × 8 GPUs × 260.92 s = 7.375 M tokens = 512 × (14,255 + 150), so 32 prompts × 16 and a
  mean prompt of 150 tokens (used for both rows); mini-batch 8 prompts (ASSUMED the example's 4 updates a step).
  Its ``ref`` is not published apart (the step less the three published keys holds ref, reward and adv: 18.6 s).
* GPU of the 7B row: ASSUMED H100 80GB (the page's other run; verl's logged MFU is not printed).
* SGLang: the planner's colocated engine is vLLM's (``vllm_colocated``); SGLang captures CUDA graphs by default
  (``enforce_eager`` false) and releases its weights and KV cache while training (``sleep_level`` 2).
* ``use_dynamic_bsz`` at 30,000 tokens: two sequences of ~14.4 k tokens a micro-batch (``micro_batch_size`` 2).
  Ulysses SP 4 is not modelled for FSDP (core/frameworks.py): entered as plain FSDP over all GPUs.
* DeepSeek-R1-Distill-Qwen-1.5B/7B are Qwen2.5-Math-1.5B/7B (their config.json): the 1.5B's embeddings are not
  tied, so it is entered by its config; the 7B is the Qwen2.5-7B preset's shape (vocabulary 152,064).
* Response spread: not published; the model's default (``response_len_std`` null: 0.39 × the mean).

Second source: two "veRL Benchmark Report" pages (GitHub markdown, stored copies found by their titles "veRL
Benchmark Report: GRPO + LLaMA3.2-1B on GSM8K" and "… GRPO + Qwen2.5-7B on GSM8K"; wandb project
haoyugao-google/verl_grpo_example_gsm8k, runs w73j5mdv and 6icl7pbz, 2025-08-07). Each gives "GPU H100 × 8" and
the wandb "Run summary" of its last step (105): every ``timing_s/*`` key, ``perf/max_memory_allocated_gb`` and
the lengths. The 1B page prints its command: verl's ``examples/grpo_trainer/run_qwen2-7b.sh`` (verl main of
2025-08-07, 3ebe6717a) with Llama-3.2-1B-Instruct and micro-batches of 4: 1,024 prompts × 5, mini-batch 256,
prompt ≤ 512, response ≤ 1,024, padding removed, gradient checkpointing, no actor offload, reference offloaded,
vLLM TP 2 at 0.6. verl's rollout defaults at that commit: ``enforce_eager`` True, ``max_num_seqs`` 1,024, sleep
level 1 (``fsdp_vllm.py``: ``sleep(level=1)``), actor strategy fsdp (FSDP1). The 7B page prints no command: ASSUMED
the same script with Qwen2.5-7B and the script's own micro-batches of 40 (its experiment name
``qwen2.5_7b_function_rm`` is the script's ``qwen2_7b_function_rm``). The step is the key sum (the summary's
``timing_s/step`` holds the final validation and checkpoint: 88.70 = keys 70.91 + testing 14.65 + save 3.01).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from rl_step_times import KEYS  # noqa: E402
from rl_step_times_r9 import _pub, _stats, _v, row_table  # noqa: E402

RLINF = ("github.com/RLinf/RLinf docs/source-en/rst_source/blog/compare_with_verl.rst (2025-08-04; stored copy "
         "xslingcn/RLinf@f800d4d4)")
#: deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B config.json (Qwen2.5-Math-1.5B shape, untied embeddings)
R1_DISTILL_15B = {"name": "DeepSeek-R1-Distill-Qwen-1.5B", "hidden_size": 1536, "num_hidden_layers": 28,
                  "num_attention_heads": 12, "num_key_value_heads": 2, "head_dim": 128, "intermediate_size": 8960,
                  "gated_mlp": True, "vocab_size": 151936, "tie_word_embeddings": False}
PROMPT_MEAN = 150  # from the 1.5B table's gen throughput (module docstring)
RESP_MAX = 27_648


def _boba(model, gpus, *, prompts, resp_mean):
    """The page's bash example as a planner scenario."""
    return _v(model, "h100-sxm-80gb", gpus, prompts=prompts, n=16, prompt_mean=PROMPT_MEAN, resp_max=RESP_MAX,
              resp_mean=resp_mean, util=0.4, tp=2, mini=prompts // 4, mbs=2, ref="offload", actor_offload=True,
              eager=False, sleep_level=2, prompt_pad=1024, fsdp_version=1)


REPORT = "\"veRL Benchmark Report: GRPO + … on GSM8K\" (GitHub markdown, 2025-08-07)"
#: meta-llama/Llama-3.2-1B-Instruct config.json (no preset ships)
LLAMA32_1B = {"name": "Llama-3.2-1B-Instruct", "hidden_size": 2048, "num_hidden_layers": 16,
              "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 64, "intermediate_size": 8192,
              "gated_mlp": True, "vocab_size": 128256, "tie_word_embeddings": True}


def _gsm8k(model, *, mbs, prompt_mean, resp_mean):
    """verl's examples/grpo_trainer/run_qwen2-7b.sh at 3ebe6717a as a planner scenario (second source)."""
    return _v(model, "h100-sxm-80gb", 8, prompts=1024, n=5, prompt_mean=prompt_mean, resp_max=1024,
              resp_mean=resp_mean, util=0.6, tp=2, mini=256, mbs=mbs, ref="offload", actor_offload=False,
              eager=True, sleep_level=1, max_num_seqs=1024, prompt_pad=512, fsdp_version=1)


#: (id, source, scenario, published seconds per verl step, note, counted)
ROWS = [
    ("rlinf verl v0.5.0 r1-distill-1.5b grpo 8xh100", RLINF + " rendered table (verl 8fdc4d3)",
     _boba(R1_DISTILL_15B, 8, prompts=32, resp_mean=14_254.8),
     {"gen": 260.92, "old_log_prob": 17.51, "update_actor": 66.53, "step": 363.55},
     "ref not published apart (step − keys = 18.6 s holds ref, reward and adv)", True),
    ("rlinf verl f252da3 r1-distill-7b grpo 64 gpus", RLINF + " rst comment (verl f252da3) and its bash example",
     _boba("qwen2.5-7b", 64, prompts=128, resp_mean=10_425.8),
     _pub(325.09, 21.58, 20.74, 73.01, reward=5.14, adv=0.47, step=447.36),
     "GPU ASSUMED H100; logged step 447.36 (keys sum 446.03)", True),
    ("report verl llama3.2-1b grpo gsm8k 8xh100", REPORT + " LLaMA3.2-1B (wandb w73j5mdv)",
     _gsm8k(LLAMA32_1B, mbs=4, prompt_mean=107, resp_mean=183.2),
     _pub(21.70, 7.86, 13.01, 27.34, reward=0.87, adv=0.13), "last step (105); clip ratio 0.003", True),
    ("report verl qwen2.5-7b grpo gsm8k 8xh100", REPORT + " Qwen2.5-7B (wandb 6icl7pbz)",
     _gsm8k("qwen2.5-7b", mbs=40, prompt_mean=93, resp_mean=232.0),
     _pub(33.03, 8.25, 8.74, 29.14, reward=0.84, adv=0.12),
     "last step (105); ASSUMED the script's micro-batch 40 (no command printed)", True),
]

#: verl's logged ``perf/max_memory_allocated_gb`` (GiB; vLLM's sleeping pool in the same process's counters)
MEM_PUB = {"report verl llama3.2-1b grpo gsm8k 8xh100": 45.74, "report verl qwen2.5-7b grpo gsm8k 8xh100": 77.05}


def mem_table() -> list[tuple]:
    """(id, published GiB, modelled allocated GiB, error) for :data:`MEM_PUB`."""
    from rl_step_times import predict
    rows = {r[0]: r[2] for r in ROWS}
    return [(rid, pub, predict(rows[rid])["mem"], predict(rows[rid])["mem"] / pub - 1.0)
            for rid, pub in MEM_PUB.items()]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--markdown", action="store_true")
    ap.parse_args()
    table = row_table(ROWS)
    for r in table:
        if "error" in r:
            print(f"- {r['id']}: REFUSED — {r['error']}")
            continue
        cells = "; ".join(f"{k} {p:.1f} → {m:.1f} ({m / p - 1:+.0%})" for k, (p, m) in r["keys"].items())
        print(f"- {r['id']}: step {r['pub']['step']:.1f} → {r['pred']['step']:.1f} ({r['err']:+.0%}); {cells}")
    counted = [r for r in table if r.get("counted") and "err" in r]
    med, p90 = _stats(r["err"] for r in counted)
    print(f"step |error| over the {len(counted)} round-11 rows: median {med:.0%}, p90 {p90:.0%}")
    for k in KEYS:
        errs = [r["keys"][k][1] / r["keys"][k][0] - 1 for r in counted if k in r["keys"]]
        if errs:
            print(f"{k}: signed errors {', '.join(f'{e:+.0%}' for e in sorted(errs))}")
    print("\nAllocated peak (verl perf/max_memory_allocated_gb) against the model's allocated peak:")
    mem = mem_table()
    for rid, pub, pred, err in mem:
        print(f"- {rid}: {pub:.1f} GiB published, {pred:.1f} GiB modelled ({err:+.0%})")
    med, p90 = _stats(e for *_x, e in mem)
    print(f"mem |error| over {len(mem)} rows: median {med:.0%}, p90 {p90:.0%}")


if __name__ == "__main__":
    main()

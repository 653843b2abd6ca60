"""Round 16 (postoos16), scored before any change: (A) what open-instruct's four-server DPO figures measure, re-read
from the tools' own code, and the A/B DPO rows at that reading; (B) prime-rl's RL-trainer benchmarks (new source,
step time and peak reserved memory; its sources are given beside ``PRIME_ROWS``).

Usage: python bench/validate_post_oos16.py [--spread]

(A)
Source: the rows of round 15 (``bench/validate_post_oos15.py``): github.com/allenai/open-instruct
``docs/algorithms/backend_comparison.md`` at 1c770f21 (pull request #1827) and its launch scripts
``scripts/train/debug/backend_ab/ab_dpo_{deepspeed,olmocore}.sh`` at 93a5b3c51 (the last commit to touch them
before the runs' image, branch ``backend-parity``; both ``--logging_steps 1``, ``--packing``, 4 × 8 H100,
``per_device_train_batch_size`` 1 × ``gradient_accumulation_steps`` 4). Code read at 93a5b3c51 (the doc: "one Docker
image lineage ... instrumentation + launch-script fixes through 93a5b3c51"):

* ``open_instruct/dpo_tune_cache.py`` (DeepSpeed) l. 609-611: the logged token count is
  ``(batch["chosen_labels"] != -100).sum() + (batch["rejected_labels"] != -100).sum()``, summed over the 32 ranks
  (``accelerator.reduce(..., "mean")`` × ``num_processes``). The labels are the assistant turns only:
  ``dataset_transformation.py`` ``preference_tulu_tokenize_and_truncate_v1`` → ``sft_tulu_tokenize_and_truncate_v1``
  → ``mask_labels(..., lambda idx, msg, _msgs: msg["role"] != "assistant")`` (-100 on every other message).
  So ``perf/tokens_per_second_step`` (the doc's "~456" and "~651 tok/s/GPU") counts RESPONSE tokens: the prompts
  run through the forward but are not counted.
* same, l. 632 and 667: ``avg_sequence_length = total_tokens_step / (1 × 32 × 4 × 1 × 2)`` (the counted tokens over
  the step's 256 sequences) and ``perf/mfu_step = model_dims.approximate_learner_utilization(total_tokens,
  avg_sequence_length, training_time, 32)``; ``ModelDims`` is built at l. 382 from the config WITHOUT the sliding
  window. ``utils.py`` (93a5b3c51) l. 1955-2120: ``flops(..., is_training=True)`` = 3 × (per layer
  ``attn_flops(L, L)`` + ``mlp_flops(L)``, plus ``2·h·V`` a token for the LM head); ``attn_flops`` counts the Q, K,
  V and O projections, the full L × L scores and values (2·heads·L·L·d each, no causal halving) and 4 FLOPs a score
  for the softmax; ``mlp_flops`` 2·L·h·2·ff + L·ff + 2·L·ff·h; ``GPU_SPECS["h100"]["flops"]`` = 990e12.
  So each logged MFU fixes the mean COUNTED length a sequence: the attention term grows with it.
* ``open_instruct/dpo.py`` + ``olmo_core_train_modules.py`` l. 251-253 (OLMo-core): ``train/token_count`` =
  ``HFDataLoader.global_num_tokens_in_batch`` = ``padding_free_collator.get_num_tokens(batch)`` (the last entry of
  ``chosen_cu_seq_lens_k`` + ``rejected_cu_seq_lens_k``: EVERY input token, prompts included) × ``dp_world_size``;
  ``olmo_core_callbacks.PerfCallback`` divides it by the step's wall time and uses the same ``approximate_learner_
  utilization`` with ``ModelDims.from_hf_config`` (sliding window 4,096 on 24 of 32 layers: no effect below 4,096).

What the DeepSpeed figures then say (both runs, the same arithmetic): 2.77% at 651 tok/s/GPU and 1.94% at 456 put the
mean counted (response) length at ~505 tokens a sequence, not the 2,197 that round 15 derived from the doc's
"raw step-time ratio (~8×)" (2,197 would log 2.95% and 2.06%). With 128 pairs a step (the doc: wandb ``epoch`` 0.640
at step 150 = 150 × 128 / 30,000), the counted tokens a step are 256 × ~505 ≈ 129k and the step is
129k / 20,830 = ~6.2 s packed, 129k / (456 × 32) = ~8.8 s unpacked. The "implied ~27 s/step" (dd29af54, withdrawn to
"overstates" in 2f4f0f774) matches neither figure of the run; it is not a training step (the doc does not say how it
was obtained; a whole-run wall time over 150 steps, which would hold the start-up and ``build_reference_logprobs_
cache``'s pass over all 30k pairs, is one reading that fits its size). The doc's explanation of the 3× vs 8× gap
("tokens-per-step differ ... collators fill the 16k budget differently") is contradicted by its own later section
(both runs "consumed the same dataset fraction"): the two tools count different tokens of the same pairs.

The forward's tokens a sequence: OLMo-core's count, every input token, 62,940 × 3.454 / 256 = 849 (its own MFU,
8.56%, reads 1,111 by the same formula, 8.48% at 849: the mean of per-step ratios is not the ratio of the means;
``--spread`` scores all rows at 1,111 too). The same 30k-pair mix feeds both tools, so all three rows are scored
at 849 tokens a sequence (prompt + response); the DeepSpeed response share is then ~505 / 849 ≈ 0.6.

Error convention: error = published / predicted − 1 (+ means the model is too fast).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import validate_post_oos15 as V15  # noqa: E402

CODE = "github.com/allenai/open-instruct 93a5b3c51"
#: Olmo-3-7B as ``ModelDims`` sees it (its config.json: 4,096 / 32 layers / 32 heads / 32 KV / 11,008 / 100,278;
#: sliding window 4,096 on 24 layers, read only by ``from_hf_config``, i.e. by OLMo-core's callback)
DIMS = {"h": 4096, "layers": 32, "heads": 32, "kv": 32, "ff": 11008, "vocab": 100278}
WINDOW, SLIDING_LAYERS = 4096, 24
H100_FLOPS = 990e12  # utils.py GPU_SPECS["h100"]["flops"] at 93a5b3c51
SEQS_PER_STEP = 2 * V15.DPO_PAIRS_PER_STEP  # 256: chosen and rejected of 128 pairs
#: the doc's logged MFUs (%), printed to 3 significant figures: each is ± half a unit of its last digit
DS_PACKED_MFU, DS_UNPACKED_MFU, OC_MFU = 2.77, 1.94, 8.56


def oi_flops_per_token(seq: float, window: int | None = None, sliding_layers: int = 0) -> float:
    """open-instruct ``ModelDims.flops(prompt_lengths=[seq], is_training=True)`` / seq (utils.py at 93a5b3c51:
    ``attn_flops``, ``mlp_flops``, ``prefill_flops``; the LM head 2·h·V a token; × 3 for forward and backward)."""
    h, nh, kv, ff, v = DIMS["h"], DIMS["heads"], DIMS["kv"], DIMS["ff"], DIMS["vocab"]
    d = h // nh

    def attn(q, k):
        return 2 * q * h * nh * d + 2 * 2 * q * h * kv * d + (2 + 2) * nh * q * k * d + 4 * nh * q * k \
            + 2 * q * nh * d * h

    mlp = 2 * seq * h * ff * 2 + seq * ff + 2 * seq * ff * h
    full = DIMS["layers"] - sliding_layers
    total = full * (attn(seq, seq) + mlp) + sliding_layers * (attn(seq, min(seq, window or seq)) + mlp)
    return 3.0 * (total + seq * 2 * h * v) / seq


def oi_mfu(rate_gpu: float, seq: float, **kw) -> float:
    """The MFU (%) open-instruct logs at ``rate_gpu`` counted tokens/s/GPU with ``seq`` counted tokens a sequence."""
    return 100.0 * rate_gpu * oi_flops_per_token(seq, **kw) / H100_FLOPS


def implied_len(rate_gpu: float, mfu_pct: float, **kw) -> float:
    """The mean counted tokens a sequence at which open-instruct's formula logs ``mfu_pct`` at ``rate_gpu``."""
    lo, hi = 1.0, 65536.0
    if not oi_mfu(rate_gpu, lo, **kw) <= mfu_pct <= oi_mfu(rate_gpu, hi, **kw):
        raise ValueError("MFU outside the formula's range")
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if oi_mfu(rate_gpu, mid, **kw) < mfu_pct else (lo, mid)
    return 0.5 * (lo + hi)


def ds_step(rate_gpu: float, mfu_pct: float) -> float:
    """A DeepSpeed step (s): the step's counted tokens (256 × the MFU-implied length) over the logged rate × 32."""
    return SEQS_PER_STEP * implied_len(rate_gpu, mfu_pct) / (rate_gpu * V15.GPUS)


def ds_step_range(rate_gpu: float, mfu_pct: float) -> tuple[float, float]:
    """The step over the MFU's printed precision (± 0.005 percentage points)."""
    return ds_step(rate_gpu, mfu_pct - 0.005), ds_step(rate_gpu, mfu_pct + 0.005)


def forward_len() -> int:
    """Forward tokens a sequence (prompt + response): OLMo-core's count, its rate × its step over 256 sequences."""
    return V15.oc_mean_sequence()


def oc_implied_len() -> float:
    """OLMo-core's own MFU read back through the same formula (with its sliding window)."""
    return implied_len(V15.OC_DPO_TOK_S_TOTAL / V15.GPUS, OC_MFU, window=WINDOW, sliding_layers=SLIDING_LAYERS)


def published() -> dict[str, float]:
    return {"ds_unpacked": ds_step(V15.DS_UNPACKED_TOK_S_GPU, DS_UNPACKED_MFU),
            "ds_packed": ds_step(V15.DS_PACKED_TOK_S_GPU, DS_PACKED_MFU), "oc_packed": V15.OC_DPO_STEP_S}


def rows(mean: int | None = None) -> list[tuple]:
    """(id, kind, source, scenario, {key: published seconds}, note): the three A/B DPO rows, every one at ``mean``
    forward tokens a sequence (default OLMo-core's count, 849)."""
    m = forward_len() if mean is None else mean
    pub = published()
    ds = {"ds_config_auto": True}
    doc = f"{V15.DOC} + {CODE} dpo_tune_cache.py l. 609-667, utils.py ModelDims"
    return [
        ("open-instruct DPO Olmo-3-7B DeepSpeed ZeRO-3 unpacked, 4×8 H100, 16k", "dpo", doc,
         V15._dpo("deepspeed", False, m, ds), {"step": pub["ds_unpacked"]},
         "256 × MFU-implied counted length / (456 × 32)"),
        ("open-instruct DPO Olmo-3-7B DeepSpeed ZeRO-3 packed, 4×8 H100, 16k", "dpo", doc,
         V15._dpo("deepspeed", True, m, ds), {"step": pub["ds_packed"]}, "256 × MFU-implied counted length / 20,830"),
        ("open-instruct DPO Olmo-3-7B OLMo-core FSDP packed + compile, 4×8 H100, 16k", "dpo",
         f"{V15.DOC} + {CODE} olmo_core_train_modules.py l. 251", V15._dpo("fsdp", True, m, {"torch_compile": True}),
         {"step": V15.OC_DPO_STEP_S}, "wandb; log 443.2 s / 129 steps"),
    ]


def table(mean: int | None = None) -> list[dict]:
    out = []
    for rid, kind, src, scn, pub, note in rows(mean):
        pred = V15.predict(scn)
        out.append({"id": rid, "kind": kind, "source": src, "note": note, "pred": pred,
                    "keys": {k: (v, pred[k], V15.err(v, pred[k])) for k, v in pub.items()}})
    return out


def _print(t: list[dict], label: str) -> None:
    print(f"\n{label}")
    print("| row | published step (s) | model (s) | error |\n|---|---:|---:|---:|")
    for r in t:
        p, m, e = r["keys"]["step"]
        print(f"| {r['id']} | {p:.2f} | {m:.2f} | {e:+.1%} |")
    med, p90 = V15._stats([r["keys"]["step"][2] for r in t])
    print(f"step |error| median {med:.1%}, p90 {p90:.1%} over {len(t)} rows")


# --- B. prime-rl's RL-trainer benchmarks (new source; not used by any earlier round: grepped bench/, tests/,
# docs/notes for "prime-rl", "prime_rl", "PrimeIntellect": one mention, a PR cited for MoE imbalance in round 10) ---
#
# github.com/PrimeIntellect-ai/prime-rl ``benchmarks/baselines/benchmark-{1,8}xh100-*-rl-*.json`` and
# ``benchmark-8xh200-*-rl-*flash_attention_3*.json`` (committed in
# 8718eb143, 2026-01-19, "[CI] Add CP and EP to benchmarks (#1614)"; runs dated 2026-01-15, "NVIDIA H100 80GB HBM3",
# image primeintellect/prime-rl-jackmin@sha256:5a146f7d…). Each JSON is the mean over steps 2..4 (step 1 is warm-up)
# of the trainer's own log. Read at 8718eb143:
# * ``benchmarks/scripts/run_single_benchmark.py``: ``torchrun --nproc-per-node=N src/prime_rl/trainer/rl/train.py
#   --model.seq-len S --model.attn flash_attention_3 --model.compile [--model.ac | --model.ac-offloading]
#   [--model.lora.rank 16 --max-concurrent-runs 4] --data.fake.batch-size (micro_batches × N)``, micro_batches 2.
# * ``src/prime_rl/trainer/rl/data.py`` ``FakeDataLoader._get_micro_batch``: every micro-batch is ONE sequence of
#   exactly S tokens (position ids 0..S−1: full causal attention over S), loss mask all ones; 2 a rank a step.
# * ``src/prime_rl/trainer/rl/train.py``: ``time/step`` runs from after the weight broadcast and checkpoint to after
#   ``optimizer.step()`` and the stats (data wait 0 for fake data; the forward with ``inference_logprobs`` from the
#   batch: no reference and no old-policy forward; the backward; AdamW). ``perf/throughput`` is windowed over the
#   whole loop, the weight broadcast included: full-weight runs' throughput × step falls short of 2·N·S tokens
#   (0.6B full 16k: 23.7k of 32.8k), LoRA runs' does not; ``time/step`` is the row. ``perf/peak_memory`` =
#   ``torch.cuda.max_memory_reserved()`` (reset at the top of each step): scored as reserved memory.
# * ``src/prime_rl/trainer/config.py``: FSDP2 (``reshard_after_forward`` True, ``optimization_dtype`` /
#   ``reduce_dtype`` float32; ``model.py`` l. 428-446 builds the model in float32, then LoRA, then ``fully_shard``
#   with ``MixedPrecisionPolicy(param_dtype=torch.bfloat16)``), ``fused_lm_head_chunk_size`` 2048 for RL (chunked loss), LoRA on q/k/v/o/gate/up/down
#   (+ experts), ``optim`` AdamW (``torch.optim.AdamW`` without fused/foreach: foreach on CUDA). "Offload" =
#   ``--model.ac-offloading`` alone, and ``ModelConfig.ac_offloading_requires_ac`` then switches full checkpointing
#   on ("Automatically enable activation checkpointing when activation offloading is enabled"): the recompute stays
#   and the checkpointed block inputs go to pinned CPU memory (``max_inflight_activations`` 5).
# Entered as the planner's fine-tuning step (objective sft): the trainer's work is a packed causal-LM forward and
# backward over the micro-batches with a token-level loss, which is what the planner's sft step prices; its GRPO step
# would add generation and an old-policy forward that this trainer does not run.
QWEN3_06B = {"name": "Qwen3-0.6B", "hidden_size": 1024, "num_hidden_layers": 28, "num_attention_heads": 16,
             "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 3072, "gated_mlp": True,
             "vocab_size": 151936, "tie_word_embeddings": True, "qk_norm": True}  # Qwen/Qwen3-0.6B config.json
PRIME = "github.com/PrimeIntellect-ai/prime-rl 8718eb143 benchmarks/baselines/"
#: (model, GPUs, LoRA rank or None, seq_len, ac, time/step s, peak reserved GiB, throughput tok/s, MFU %, card):
#: every ``benchmark-{1,8}xh100-*-rl-*``, the ``8xh200`` FlashAttention-3 and the January ``1xa6000`` rows of the
#: models the planner has (INTELLECT-3 and the FlashAttention-2 H200 row left out: no preset / one INTELLECT-3 row;
#: the 8×B200 rows: FlashAttention-2 on Blackwell at 2–9% MFU, a path the planner does not price; the 4×A6000 row and
#: the later versions of two A6000 files: other images, after other trainer changes)
PRIME_ROWS = [
    ("Qwen3-0.6B", 1, 16, 65536, "Offload", 13.401, 7.92, 9782, 24.7, "h100-sxm-80gb"),
    ("Qwen3-0.6B", 1, 16, 16384, "Recompute", 2.453, 5.15, 13342, 10.9, "h100-sxm-80gb"),
    ("Qwen3-0.6B", 1, 16, 65536, "Recompute", 13.156, 11.45, 9967, 25.2, "h100-sxm-80gb"),
    ("Qwen3-0.6B", 1, None, 65536, "Offload", 12.463, 16.08, 9977, 26.4, "h100-sxm-80gb"),
    ("Qwen3-0.6B", 1, None, 16384, "Recompute", 1.992, 12.53, 11896, 11.1, "h100-sxm-80gb"),
    ("Qwen3-0.6B", 1, None, 65536, "Recompute", 12.176, 19.56, 10147, 26.8, "h100-sxm-80gb"),
    ("Qwen3-4B-Instruct-2507", 1, 16, 16384, "Offload", 5.504, 20.57, 5952, 20.7, "h100-sxm-80gb"),
    ("Qwen3-4B-Instruct-2507", 1, 16, 65536, "Offload", 32.442, 31.06, 4043, 36.3, "h100-sxm-80gb"),
    ("Qwen3-4B-Instruct-2507", 1, 16, 16384, "Recompute", 5.260, 23.30, 6229, 21.7, "h100-sxm-80gb"),
    ("Qwen3-4B-Instruct-2507", 1, 16, 65536, "Recompute", 31.492, 41.99, 4164, 37.4, "h100-sxm-80gb"),
    ("Qwen3-30B-A3B-Instruct-2507", 8, 16, 16384, "Recompute", 7.919, 31.65, 33100, 15.3, "h100-sxm-80gb"),
    ("Qwen3-30B-A3B-Instruct-2507", 8, 16, 65536, "Recompute", 44.858, 63.68, 23386, 27.9, "h100-sxm-80gb"),
    ("Qwen3-30B-A3B-Instruct-2507", 8, None, 16384, "Recompute", 8.174, 74.59, 6113, 2.9, "h100-sxm-80gb"),
    ("Qwen3-4B-Instruct-2507", 8, 16, 16384, "Recompute", 5.380, 10.26, 48719, 21.2, "h100-sxm-80gb"),
    ("Qwen3-4B-Instruct-2507", 8, 16, 65536, "Recompute", 32.001, 28.85, 32803, 36.8, "h100-sxm-80gb"),
    ("Qwen3-4B-Instruct-2507", 8, None, 16384, "Recompute", 4.688, 17.10, 26026, 13.9, "h100-sxm-80gb"),
    ("Qwen3-4B-Instruct-2507", 8, None, 65536, "Recompute", 30.286, 36.10, 28966, 35.4, "h100-sxm-80gb"),
    ("Qwen3-30B-A3B-Instruct-2507", 8, 16, 16384, "Recompute", 7.129, 31.65, 36766, 17.0, "h200-sxm-141gb"),
    ("Qwen3-30B-A3B-Instruct-2507", 8, 16, 65536, "Recompute", 42.981, 63.68, 24412, 29.2, "h200-sxm-141gb"),
    ("Qwen3-30B-A3B-Instruct-2507", 8, None, 16384, "Recompute", 7.401, 74.59, 5943, 2.8, "h200-sxm-141gb"),
    ("Qwen3-30B-A3B-Instruct-2507", 8, None, 65536, "Recompute", 42.891, 105.35, 12748, 15.4, "h200-sxm-141gb"),
    ("Qwen3-4B-Instruct-2507", 8, 16, 16384, "Recompute", 5.005, 10.26, 52379, 22.8, "h200-sxm-141gb"),
    ("Qwen3-4B-Instruct-2507", 8, 16, 65536, "Recompute", 31.425, 28.85, 33430, 37.5, "h200-sxm-141gb"),
    ("Qwen3-4B-Instruct-2507", 8, None, 16384, "Recompute", 4.415, 17.10, 27437, 14.7, "h200-sxm-141gb"),
    ("Qwen3-4B-Instruct-2507", 8, None, 65536, "Recompute", 29.889, 36.10, 29544, 36.1, "h200-sxm-141gb"),
    # benchmark-1xa6000-*-rl-*flash_attention_2* at 8718eb143 (runs of 2026-01-15, the same image; FlashAttention-2)
    ("Qwen3-0.6B", 1, 16, 16384, "Recompute", 9.231, 5.09, 2414, 6.3, "rtx-a6000-48gb"),
    ("Qwen3-0.6B", 1, 16, 65536, "Recompute", 65.768, 11.45, 1995, 16.0, "rtx-a6000-48gb"),
    ("Qwen3-0.6B", 1, None, 16384, "Recompute", 7.458, 12.47, 3687, 10.9, "rtx-a6000-48gb"),
    ("Qwen3-0.6B", 1, None, 65536, "Recompute", 61.442, 19.50, 2083, 17.4, "rtx-a6000-48gb"),
    ("Qwen3-4B-Instruct-2507", 1, 16, 16384, "Recompute", 24.434, 23.30, 1233, 13.6, "rtx-a6000-48gb"),
]


def host_loop_s(seq: int, micro_batches: int = 2) -> float:
    """What-if, not in the model: prime-rl before fa21395a6 (2026-06-15, "improve sequence packing (#2723)", which
    deleted it) ran ``trainer/utils.py`` ``get_response_lengths(position_ids)`` on every micro-batch between the
    forward and the loss (``rl/train.py`` l. 385 at 8718eb143): a Python ``for i in range(1, len(position_ids))``
    over the CUDA tensor, ``if position_ids[i] == 0 and ...`` (one eager ``eq`` op and a device-to-host sync for
    the ``if`` on every token; the fake batches' positions never return to 0, so the ``and`` stops there). Priced at
    the planner's one eager op a token (``methods.EAGER_FWD_OP_S``, 24 µs: PyTorch's "GPT, Fast" launch figure);
    the sync's own wait comes on top. The GPU idles meanwhile (the forward is done, the backward not yet queued)."""
    from gpuplanner.core.methods import EAGER_FWD_OP_S
    return micro_batches * (seq - 1) * EAGER_FWD_OP_S


def _prime_model(name: str):
    from validate_post_memory import QWEN3_4B
    return {"Qwen3-0.6B": QWEN3_06B, "Qwen3-4B-Instruct-2507": QWEN3_4B,
            "Qwen3-30B-A3B-Instruct-2507": {"preset": "qwen3-30b-a3b"}}[name]


def prime_scenario(model: str, gpus: int, rank, seq: int, ac: str, gpu: str = "h100-sxm-80gb") -> dict:
    # --model.attn flash_attention_3 on the Hopper rows (the planner's "cudnn" class: cuDNN / TE / FlashAttention-3),
    # flash_attention_2 on the A6000 rows
    kernel = "flash2" if "a6000" in gpu else "cudnn"
    t = {"framework": "fsdp", "objective": "sft", "method": "lora" if rank else "full", "seq_len": seq,
         "micro_batch_size": 1, "global_batch_size": 2 * gpus, "flash_attention": True, "attention_kernel": kernel,
         "torch_compile": True, "chunked_loss": True, "optimizer_implementation": "foreach",
         "recompute": "full", "activation_offload": ac == "Offload"}
    if rank:
        # the whole model is built in optimization_dtype (float32) before LoRA and fully_shard (model.py l. 428,
        # 440, 446): each rank's shard of the frozen base holds 4 bytes a parameter, gathered as bf16
        # (MixedPrecisionPolicy(param_dtype=torch.bfloat16), l. 156)
        t.update(lora_rank=rank, lora_targets="all_linear", fsdp2_fp32_upcast=True)
    return {"model": _prime_model(model), "training": t, "parallel": {"zero": 3},
            "hardware": {"gpu": gpu, "num_gpus": gpus, "gpus_per_node": 8},
            "assumptions": {"memory_metric": "reserved"}}


def prime_table() -> list[dict]:
    from gpuplanner.core.estimate import estimate
    from gpuplanner.core.scenario import scenario_from_dict
    out = []
    for model, gpus, rank, seq, ac, step, mem, _tput, _mfu, gpu in PRIME_ROWS:
        e = estimate(scenario_from_dict(prime_scenario(model, gpus, rank, seq, ac, gpu)))
        pred_step, pred_mem = e.time.step_time_s, e.memory.metric("reserved")
        card = "H200" if "h200" in gpu else "A6000" if "a6000" in gpu else "H100"
        loop = host_loop_s(seq)
        out.append({"id": f"prime-rl {model} {'LoRA r16' if rank else 'full'} {gpus}×{card} {seq // 1024}k {ac}",
                    "step": (step, pred_step, V15.err(step, pred_step)),
                    "whatif": (step, pred_step + loop, V15.err(step, pred_step + loop)),
                    "mem": (mem, pred_mem, V15.err(mem, pred_mem))})
    return out


def _print_prime(t: list[dict]) -> None:
    print("\nprime-rl RL-trainer benchmarks (time/step, peak reserved), error = published / predicted − 1")
    print("| row | step (s) | model | error | reserved (GiB) | model | error |\n|---|---:|---:|---:|---:|---:|---:|")
    for r in t:
        (ps, ms, es), (pm, mm, em) = r["step"], r["mem"]
        print(f"| {r['id']} | {ps:.2f} | {ms:.2f} | {es:+.1%} | {pm:.1f} | {mm:.1f} | {em:+.1%} |")
    for key in ("step", "mem", "whatif"):
        med, p90 = V15._stats([r[key][2] for r in t])
        print(f"{key}: |error| median {med:.1%}, p90 {p90:.1%} over {len(t)} rows"
              + (" (what-if: + the per-token host loop of prime-rl before fa21395a6, not in the model)"
                 if key == "whatif" else ""))
    hop = [r for r in t if "A6000" not in r["id"]]
    print(f"Hopper rows ({len(hop)}): " + "; ".join(
        "{} median {:.1%}, p90 {:.1%}".format(k, *V15._stats([r[k][2] for r in hop])) for k in ("step", "mem", "whatif")))
    print("what-if per row: " + ", ".join(f"{r['whatif'][2]:+.0%}" for r in t))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--spread", action="store_true", help="MFU rounding ranges, and every row at 1,111 tokens")
    a = ap.parse_args()
    ds_len = {k: implied_len(r, m) for k, r, m in (("packed", V15.DS_PACKED_TOK_S_GPU, DS_PACKED_MFU),
                                                   ("unpacked", V15.DS_UNPACKED_TOK_S_GPU, DS_UNPACKED_MFU))}
    print("DeepSpeed: MFU-implied counted (response) tokens a sequence "
          + ", ".join(f"{k} {v:.0f}" for k, v in ds_len.items())
          + f"; at round 15's 2,197 the run would log {oi_mfu(V15.DS_PACKED_TOK_S_GPU, 2197):.2f}% / "
          f"{oi_mfu(V15.DS_UNPACKED_TOK_S_GPU, 2197):.2f}% (logged {DS_PACKED_MFU}% / {DS_UNPACKED_MFU}%)")
    print(f"OLMo-core: {forward_len()} tokens a sequence by rate × step (formula MFU "
          f"{oi_mfu(V15.OC_DPO_TOK_S_TOTAL / V15.GPUS, forward_len(), window=WINDOW, sliding_layers=SLIDING_LAYERS):.2f}"
          f"%, logged {OC_MFU}%); its MFU read back: {oc_implied_len():.0f}")
    pub = published()
    print("published steps (s): " + ", ".join(f"{k} {v:.2f}" for k, v in pub.items()))
    _print(V15.table()[:3], "before: round 15's reading (DeepSpeed ~27 s at 2,197, OLMo-core at 849)")
    _print(table(), f"round 16's reading (every row at {forward_len()} forward tokens a sequence)")
    _print_prime(prime_table())
    if a.spread:
        for k, r, m in (("packed", V15.DS_PACKED_TOK_S_GPU, DS_PACKED_MFU),
                        ("unpacked", V15.DS_UNPACKED_TOK_S_GPU, DS_UNPACKED_MFU)):
            lo, hi = ds_step_range(r, m)
            print(f"DeepSpeed {k}: step {lo:.2f}–{hi:.2f} s over the MFU's printed precision")
        _print(table(int(round(oc_implied_len()))), "sensitivity: every row at OLMo-core's MFU-implied length")


if __name__ == "__main__":
    main()

"""Training objectives beyond the next-token loss: preference tuning, reward models and on-policy RL.

One :class:`MethodProfile` per scenario says which models a run holds and what each step computes; the memory
model (:func:`memory.memory_arrays`) and the time model (:func:`timing.time_arrays`) read it, so the estimate,
the plan search and every view agree. Pure: values in, values out.

What each objective holds and runs (the sources below):

============ =============== ========== ====================== ===================================================
objective    sequences per   reference  other models           per training token, besides the policy's
             example                                           forward + backward
============ =============== ========== ====================== ===================================================
sft          1               —          —                      —
dpo, ipo     2 (chosen +     frozen     —                      1 reference forward (no_grad)
             rejected)
kto          1 (+1 KL seq.)  frozen     —                      1 policy forward (KL sequence, no_grad) + 2
                                                               reference forwards
orpo, simpo, 2               —          —                      — (CPO, ORPO: the chosen rows' NLL from the
cpo                                                            same logits)
reward       2               —          (value head)           — (no LM head: a scalar per sequence)
ppo          1               frozen     reward (frozen),       reference, reward, critic and old-policy forwards;
                                        critic (trained)       the critic's forward + backward; rollouts
grpo         1               frozen if  reward model if        reference (and reward model) forwards; rollouts
                             beta > 0   ``rl.reward=model``
============ =============== ========== ====================== ===================================================

Sources:

* DPO (Rafailov et al. 2023, arXiv:2305.18290), IPO (Azar et al. 2023, arXiv:2310.12036, TRL ``loss_type=
  'ipo'``: the same model set), KTO (Ethayarajh et al. 2024, arXiv:2402.01306), ORPO (Hong et al. 2024,
  arXiv:2403.07691: no reference), SimPO (Meng et al. 2024, arXiv:2405.14734: no reference), CPO (Xu et al. 2024,
  arXiv:2401.08417: no reference; TRL ``trl/experimental/cpo/cpo_trainer.py`` at f2cd577 ``concatenated_forward``:
  one forward over chosen + rejected, ``selective_log_softmax`` and the chosen half's NLL from the same logits;
  ms-swift ``--rlhf_type cpo``, ``examples/train/rlhf/cpo.sh``).
* TRL ``trl/trainer/dpo_trainer.py`` (huggingface/trl at f2cd577, 2026-07): the chosen and rejected completions
  are padded and concatenated along the batch (``torch.cat(pad([chosen_ids, rejected_ids]))``) and run in
  one forward of twice the batch — activations of ``2 × micro_batch`` sequences (``concatenated_forward`` in
  earlier TRL releases: "concatenating the chosen and rejected inputs together ... to avoid doing two forward
  passes"); with a PEFT model and
  ``ref_model=None`` the reference log-probabilities come from the same model with the adapters disabled
  (``reference = lora_base``: no second copy); ``precompute_ref_log_probs`` computes them in one pass
  before training ("the reference model does not need to be kept in memory", ``dpo_config.py``); the
  reference forward runs under ``torch.no_grad`` and saves nothing for backward. With DeepSpeed ZeRO-3 TRL
  wraps the reference in a ZeRO-3 inference engine (``prepare_deepspeed``): sharded like the policy; with
  other stages it is a full copy per GPU.
* Reward models: TRL ``reward_trainer.py`` loads ``AutoModelForSequenceClassification`` with ``num_labels=1``
  (a ``hidden × 1`` score head instead of the LM head) and scores chosen and rejected sequences.
* GRPO (Shao et al. 2024, DeepSeekMath, arXiv:2402.03300): TRL ``grpo_config.py`` defaults
  ``num_generations = 8``, ``max_completion_length = 512``, ``beta = 0.0`` ("the reference model is not
  loaded"), ``vllm_mode = 'colocate'``, ``vllm_gpu_memory_utilization = 0.3``, ``vllm_enable_sleep_mode =
  False``, ``steps_per_generation`` = gradient accumulation (one generation batch per optimizer step);
  ``ds3_gather_for_generation = True`` gathers the ZeRO-3-sharded policy for ``generate``; the policy's
  logits are kept only for the completion tokens (``logits_to_keep``).
* PPO/RLHF (Ouyang et al. 2022, arXiv:2203.02155): actor, critic, reference and reward models (OpenRLHF,
  Hu et al. 2024, arXiv:2405.11143; DeepSpeed-Chat, Yao et al. 2023, arXiv:2308.01320). OpenRLHF
  ``--colocate_all_models`` / verl's hybrid engine (Sheng et al. 2024, HybridFlow, arXiv:2409.19256) put
  every model on every GPU, sharded like the actor; ``--ref_reward_offload`` keeps the frozen ones in CPU
  memory. The critic and reward model are the policy's architecture with a value head (OpenRLHF
  initialises the critic from the reward model).
* Generation (:func:`generation_seconds`): decoding reads every weight and the batch's KV cache once per
  token, so it is bound by memory bandwidth while the batch is small, prefill by FLOPs (Kwon et al. 2023,
  "Efficient Memory Management for Large Language Model Serving with PagedAttention", arXiv:2309.06180 §2;
  vLLM preallocates ``gpu_memory_utilization`` of the GPU for its weights and KV cache, vLLM docs
  "Engine arguments"; parallel sampling shares the prompt's KV blocks between the ``n`` completions, §4.4).
"""

from __future__ import annotations


from dataclasses import dataclass
from typing import Any

from .arrayops import ops_for
from .frameworks import RL_HYBRID_ENGINE_TOOLS, objective_default_beta
from .rollout_lengths import expected_longest_runaway
from .serving_facts import DECODE_KERNEL_S, kv_heads_per_rank
from .serving_facts import CUDA_VISIBLE_SHARE, VLLM_NON_TORCH_GIB, vllm_profile_parts

PAIRED = ("dpo", "ipo", "orpo", "simpo", "cpo", "reward")
REFERENCED = ("dpo", "ipo", "kto", "ppo", "grpo")
RL = ("ppo", "grpo")
#: objectives whose TRL trainer adds an NLL on the chosen rows by default, from its own cross-entropy
#: (memory.chosen_nll_bytes_per_logit): ORPO always; CPO and SimPO while ``cpo_alpha`` != 0 (TRL CPOConfig and
#: ms-swift RLHFArguments default 1.0). DPO adds it only with ``rpo_alpha`` (preference.rpo_alpha)
CHOSEN_NLL_OBJECTIVES = ("orpo", "cpo", "simpo")
PREFERENCE = ("dpo", "ipo", "kto", "orpo", "simpo", "cpo")

#: Eager PyTorch decoding (``model.generate`` without CUDA graphs) is CPU-bound at small batch: every op is a
#: kernel launch with its Python/dispatcher overhead (:data:`EAGER_FWD_OP_S` per kernel, counted below). vLLM replays CUDA
#: graphs for decoding (vLLM docs, "CUDA graphs"), which removes this. :data:`EAGER_OP_S` is the host time of a
#: kernel launched from C++ (autograd's backward engine; Megatron/TE's per-expert loops, timing.moe_host_seconds):
#: PyTorch's own guidance puts eager per-op overhead at ~5–10 µs ("torch.compile" and CUDA Graphs tutorials).
EAGER_OP_S = 10e-6
#: Host time per kernel that a Python ``forward`` launches in eager PyTorch (nn.Module calls, the view/reshape/
#: transpose ops between kernels, the dispatcher and the launch, all counted per launched kernel). Published:
#: PyTorch blog "Accelerating Generative AI with PyTorch II: GPT, Fast" (Nov 2023, PyTorch 2.x nightly): the eager
#: starting point decodes Llama-2-7B at 25.5 tok/s on an A100 (batch 1), "heavily CPU overhead bound", i.e. 39.2 ms
#: of host time per token, where the compiled model needs 9.3 ms (107 tok/s). Counted in gpt-fast ``model.py``
#: (``TransformerBlock``, pytorch-labs/gpt-fast): per decoder layer two ``RMSNorm`` of 8 kernels (float, x·x, mean,
#: +eps, rsqrt, mul, type_as, ·weight), ``wqkv``, ``apply_rotary_emb`` on q and k (float, 4 mul, sub, add, stack,
#: type_as: 9 each), the two KV-cache writes, the two ``repeat_interleave`` copies, SDPA with its boolean mask (~3),
#: the transpose's ``contiguous``, ``wo``, the residual add, the MLP's w1/silu/w3/mul/w2 and the second add: 51;
#: 32 layers plus the head and sampling (~18): ~1,650 kernels per token, 39.2 ms / 1,650 = 24 µs each. The
#: backward's kernels are launched by autograd's C++ engine (no Python, no module calls) and stay at
#: :data:`EAGER_OP_S` (PyTorch's ~5–10 µs per op; pytorch/pytorch#82793 measured ~4 µs per CUDA op on 1.12).
EAGER_FWD_OP_S = 24e-6
#: HF ``generate`` decodes through the same ``LlamaDecoderLayer.forward`` as training: the 41 kernels counted at
#: :data:`timing.EAGER_OPS_FWD_LAYER` plus ``DynamicCache.update``'s two ``torch.cat`` (43), each at
#: :data:`EAGER_FWD_OP_S`: 1.03 ms per layer (gpt-fast's eager start measured 39.2 ms / 32 layers = 1.2 ms with
#: the head's share). The earlier count of 25 per layer left out most of RMSNorm's and RoPE's kernels.
EAGER_DECODE_OPS_PER_LAYER = 43.0
EAGER_DECODE_S_PER_LAYER = EAGER_DECODE_OPS_PER_LAYER * EAGER_FWD_OP_S
#: Issue 35 round 13 (postoos13): DeepSpeed-Chat's Hybrid Engine (``--enable_hybrid_engine``; DeepSpeed
#: ``deepspeed/runtime/hybrid_engine.py``, ``DeepSpeedHybridEngine.generate`` → ``self._generate``, the HF
#: ``generate`` loop over the model whose decoder layers ``populate_all_inference_policies`` swapped for
#: DeepSpeed-Inference's ``DeepSpeedTransformerInference``) decodes through fused kernels, each op a C++ binding
#: that launches its kernels itself. Counted in DeepSpeed v0.9.0 (the DeepSpeed-Chat release; the same ops through
#: v0.14), ``deepspeed/model_implementations/transformers/ds_transformer.py`` ``forward`` → ``ds_attention.py``
#: ``DeepSpeedSelfAttention.forward`` and ``ds_mlp.py`` ``DeepSpeedMLP.forward``, into
#: ``csrc/transformer/inference/csrc/pt_binding.cpp``: ``qkv_unfused_cublas`` (the input LayerNorm, the QKV GEMM,
#: its bias: 3), ``ds_softmax_context`` (``launch_bias_add_transform_0213`` into the KV workspace, then
#: ``attention_unfused``'s two strided-batched GEMMs and ``launch_attn_softmax_v2``, and ``launch_transform4d_0213``:
#: 5), ``vector_matmul`` (the output GEMM: 1), ``mlp_unfused_cublas`` (``launch_fused_residual_ln``, the FC1 GEMM,
#: ``launch_bias_gelu``/``launch_bias_relu``, the FC2 GEMM: 4) and ``residual_add_bias`` (``launch_bias_residual``:
#: 1): 14 kernels a layer where the model's own forward launches :data:`EAGER_DECODE_OPS_PER_LAYER`; rotary models
#: (``rotate_half``) add ``launch_apply_rotary_pos_emb`` (15). Each at :data:`EAGER_FWD_OP_S`, as every eager
#: decode kernel here. Check (bench/validate_post_oos13.py): DeepSpeed-Chat's own step-3 log (OPT-1.3b, 4 prompts a
#: V100, 256 answer tokens, ZeRO-2) prints 2.52 s a generation: 9.8 ms a token, 0.41 ms a layer with the HF loop's
#: head and sampling; 14 × 24 µs = 0.34 ms a layer.
DS_HYBRID_DECODE_OPS_PER_LAYER = 14.0


def eager_decode_s_per_layer(prof, arch) -> float:
    """Host seconds an eager ``generate`` decode step spends per decoder layer: the model's own forward
    (:data:`EAGER_DECODE_S_PER_LAYER`), or DeepSpeed-Chat's Hybrid Engine kernels (``prof.hybrid_engine``:
    :data:`DS_HYBRID_DECODE_OPS_PER_LAYER`, one more with rotary embeddings), each at :data:`EAGER_FWD_OP_S`."""
    if not getattr(prof, "hybrid_engine", False):
        return EAGER_DECODE_S_PER_LAYER
    rope = 1.0 if getattr(arch, "position_embedding", "rope") == "rope" else 0.0
    return (DS_HYBRID_DECODE_OPS_PER_LAYER + rope) * EAGER_FWD_OP_S

#: Sampling one token reads and writes the batch's logits several times over the whole vocabulary (bytes per
#: vocabulary entry and sequence, each decode step): the LM head's 16-bit logits (2), their fp32 copy and the
#: in-place temperature division (2 + 4 + 4 + 4), the fp32 softmax (4 + 4), the exponential noise (4) and the
#: in-place ``probs / q`` (4 + 4 + 4), the argmax (4) — vLLM ``v1/sample/sampler.py`` ``Sampler.forward``
#: (``apply_temperature``, ``get_probs``, ``random_sample``); HF ``generate`` makes the same fp32 copy, softmax and
#: ``multinomial``. Top-k/top-p add a sort; RL rollouts run at top_p = 1, top_k = −1 (verl, TRL defaults).
SAMPLER_BYTES_PER_LOGIT = 44.0

#: The host's share of every vLLM decode step, not overlapped with the GPU (the sampled tokens are copied to the
#: host each step, then the scheduler, the input preparation and the output processing run before the next
#: step): a fixed part and a part per running sequence. vLLM RFC #6854 (multi-step scheduling, Llama 3 8B on an
#: H100): "about 4ms of GPU bubble" per decode step; vLLM RFC #6801 (performance roadmap, maintainers agreeing):
#: sampling, input preparation, output processing and scheduling "can be 20ms" at a batch of 200 — so
#: (20 − 4) ms / 200 per sequence. vLLM's later async scheduling hides part of it (not modelled).
ENGINE_STEP_S = 4e-3
ENGINE_SEQ_S = (20e-3 - ENGINE_STEP_S) / 200.0

#: vLLM with ``enforce_eager`` (no CUDA graphs) launches every decode step's kernels from Python, one by one,
#: each at :data:`EAGER_FWD_OP_S`; the GPU waits when the launches take longer than its work (small models,
#: small live batches). Kernels per decoder layer, counted in vLLM ``model_executor/models/qwen2.py`` and
#: ``llama.py`` (``DecoderLayer.forward``) with vLLM's fused custom ops: two ``fused_add_rms_norm``, the QKV GEMM,
#: ``rotary_embedding``, ``reshape_and_cache``, paged attention's two kernels (``paged_attention_v2``: partitions
#: and their reduction), the output GEMM, the gate/up GEMM, ``silu_and_mul`` and the down GEMM: 11; with tensor
#: parallelism each ``RowParallelLinear`` (output and down projections) adds its all-reduce.
VLLM_EAGER_OPS_PER_LAYER = 11.0
VLLM_EAGER_TP_OPS_PER_LAYER = 2.0
#: issue 35 round 9 (rl12): a vLLM engine built with ``enable_lora`` wraps every linear layer the model supports for
#: LoRA (``LoRAModelManager._create_lora_modules``: ``_match_target_modules`` over the model's supported modules,
#: whatever the adapter targets; QKV, output, gate/up, down) and runs each through its LoRA layer
#: (``vllm/lora/layers.py``): the base GEMM, then the punica wrapper's
#: ``add_lora_linear`` — a float32 buffer, the Triton shrink and expand kernels (per slice on vLLM V0's decode path,
#: ``bgmv_shrink`` / ``bgmv_expand_slice``), each launched from Python. With ``enforce_eager`` nothing hides those
#: launches. Measured in vllm-project/vllm issue #13204 (vLLM 0.7.0, V0, ``--enforce-eager``, Qwen2.5-72B-Instruct-AWQ,
#: TP 1, an all-linear LLaMA-Factory adapter): 17.6 tokens/s without the adapter, 6.5 with it, so
#: 1/6.5 − 1/17.6 = 97 ms more per decode step over 80 decoder layers: 1.21 ms per layer, added to every eager decode
#: step. Which tools build the engine that way: verl (``rollout_worker.py`` / ``vllm_rollout_spmd.py``: ``enable_lora``,
#: ``max_loras`` 1, a ``LoRARequest`` on every generate, whenever the actor has ``lora_rank`` > 0); TRL merges the
#: adapter into the base weights before it loads them into vLLM (``vllm_generation.py`` ``merge_adapter``), so its
#: engine has no LoRA layers (:data:`VLLM_LORA_ENGINE_FRAMEWORKS`).
VLLM_LORA_EAGER_S_PER_LAYER = (1.0 / 6.5 - 1.0 / 17.6) / 80.0
#: issue 35 round 10 (rollgen10): what vLLM's LoRA layers add per token that passes through them, on top of the
#: fixed per-layer cost above (which was measured at batch 1). Measured in vllm-project/vllm PR #11267 (V0's
#: ``benchmarks/benchmark_throughput.py`` with LoRA, one A100, Llama-2-7B, 1,000 ShareGPT prompts, CUDA graphs on):
#: 11.45 requests/s and 5,509.93 tokens/s without LoRA, 7.60 requests/s with ``--enable-lora --max-loras 1
#: --max-lora-rank 8``. The run takes 1000/7.60 − 1000/11.45 = 44.2 s more for 5,509.93 × 1000/11.45 = 481k tokens
#: (prompt and completion: each passes every LoRA layer once): 91.9 µs a token over 32 decoder layers, 2.87 µs a
#: token a layer. It grows with the batch (vLLM's LoRA layers run the shrink and expand kernels and their punica
#: metadata over every token of the step), which the batch-1 figure cannot show. Checks: verl-data's GRPO-LoRA
#: runs on vLLM 0.9.1 V0 (bench/rl_step_times_r10.py, bench/rl_gen_residual_r10.py) miss 3.9–4.8 µs per live
#: sequence and layer a decode step without it, at 158–257 live sequences, from 0.5B to 72B.
VLLM_LORA_S_PER_TOKEN_LAYER = (1000.0 / 7.60 - 1000.0 / 11.45) / (5509.93 * 1000.0 / 11.45) / 32.0
#: the frameworks whose RL actor with a LoRA adapter generates through vLLM's LoRA layers: ``fsdp`` (RL on FSDP is
#: verl's workers, as ``timing.offload_bytes``); Megatron RL (NeMo RL, verl's Megatron workers) is left out: not read
VLLM_LORA_ENGINE_FRAMEWORKS = ("fsdp",)
#: Kernels once per decode step outside the layers: the embedding, the final norm, the LM head, the logits
#: gather, and the sampler at RL settings (top_p = 1, top_k = −1: no sort) — temperature, softmax and
#: log-softmax, the exponential noise, the division, the argmax, the sampled tokens' copy to the host and the
#: log-probabilities' gather (vLLM ``model_executor/layers/sampler.py`` / ``v1/sample/sampler.py``): about 12.
VLLM_EAGER_OPS_STEP = 12.0
# issue 35 round 5 (serve5): the fixed GPU time of a decode step's kernels, for the serving sizer and the rollouts
#: Kernels one MoE layer's decode adds to a dense layer's: the router GEMM, the top-k softmax, the block alignment of the
#: routed tokens and the sum of the experts' outputs (vLLM ``fused_moe``: ``fused_topk``, ``moe_align_block_size``,
#: ``moe_sum``; the two expert GEMMs and the activation take the dense MLP's three places).
MOE_DECODE_EXTRA_KERNELS = 4.0


#: Of a decoder layer's kernels, the GEMMs (QKV, output, gate/up, down): their fixed time is part of the compute roof's
#: calibrated share (``inference.gemm_efficiency``, from measured steps of the same GEMMs), so a decode step adds it to
#: their weight stream only; the other kernels' fixed time is paid in either regime.
DECODE_GEMMS_PER_LAYER = 4.0


def decode_kernels_fixed_s(num_layers: int, moe: bool = False) -> tuple[float, float]:
    """GPU time of one decode step's kernels beyond their bytes and FLOPs: :data:`serving_facts.DECODE_KERNEL_S` for
    each kernel — vLLM's 11 per decoder layer (:data:`VLLM_EAGER_OPS_PER_LAYER`: two fused add-RMSNorms, QKV GEMM,
    rotary embedding, KV-cache write, paged attention's two kernels, output GEMM, gate/up GEMM, SiLU-and-mul, down
    GEMM), :data:`MOE_DECODE_EXTRA_KERNELS` more in an MoE layer, and 12 once per step (embedding, final norm, LM
    head, sampler: :data:`VLLM_EAGER_OPS_STEP`). The TP all-reduces carry their own latency
    (``inference.tp_all_reduce_s``). Returns (the GEMMs' part, the other kernels' part): :data:`DECODE_GEMMS_PER_LAYER`.
    Llama 3 8B: (4 × 32 + 1) × 2.7 µs = 0.35 ms and (11 × 32 + 12 − 129) × 2.7 µs = 0.63 ms: 0.98 ms in all."""
    gemms = (DECODE_GEMMS_PER_LAYER + (1.0 if moe else 0.0)) * num_layers + 1.0  # + the router; + the LM head
    per_layer = VLLM_EAGER_OPS_PER_LAYER + (MOE_DECODE_EXTRA_KERNELS if moe else 0.0)
    return gemms * DECODE_KERNEL_S, (per_layer * num_layers + VLLM_EAGER_OPS_STEP - gemms) * DECODE_KERNEL_S


#: TRL's vLLM server mode (``vllm_mode="server"``: ``trl vllm-serve`` on GPUs of its own) syncs the trained weights one
#: parameter tensor at a time: ``VLLMClient.update_named_param`` makes one HTTP request to the server (which runs a
#: ``collective_rpc`` on its workers), one NCCL broadcast and one barrier per tensor of ``model.named_parameters()``
#: (trl ``GRPOTrainer._move_model_to_vllm`` / ``VLLMGeneration.sync_weights``, the 2025 and early-2026 releases; a
#: PEFT model merges its adapters first and syncs the base tensors). Seconds per tensor, published: TRL PR #5249
#: ("batch params together in weight sync", 2026-03) measured the per-tensor sync of Qwen2 0.5B at 0.6 s, and that
#: model holds 290 tensors (Qwen2.5-0.5B's safetensors header; the tied head is one of them): 0.6 / 290 = 2.07 ms a
#: tensor, the bytes (1 GB over NVLink, milliseconds) aside. Check: TRL issue #3557 reports "~40s" to move
#: Qwen3-30B-A3B (18,867 tensors: 128 experts × 3 per layer) into the server on 8× H200; 18,867 × 2.07 ms = 39 s.
TRL_SERVER_SYNC_S_PER_TENSOR = 0.6 / 290.0
#: The tools whose GRPO runs TRL's ``GRPOTrainer`` with its ``VLLMClient``: TRL, and Axolotl (``AxolotlGRPOTrainer``
#: subclasses ``trl.GRPOTrainer`` and keeps its ``_move_model_to_vllm`` and ``vllm_client``:
#: ``src/axolotl/core/trainers/grpo/trainer.py``; ``axolotl vllm-serve`` starts TRL's server)
TRL_SERVER_TOOLS = ("trl", "axolotl")
#: Euler–Mascheroni constant γ: the expected largest of N geometric lengths of mean m is m × H_N, H_N ≈ ln N + γ
#: (round 4's longest-completion rule; since round 9 expected_longest uses rollout_lengths, bench/rl_lengths.py).
EULER_GAMMA = 0.5772156649

#: Spread (standard deviation / mean) of sampled completions' lengths when the user gives none
#: (``rl.response_len_std``): the median of 13 values, each the log-normal spread whose expected longest of N
#: reproduces a verl log's ``response_length/max`` from its ``response_length/mean`` (medians over the steps whose
#: longest stays below the cap): play-verl (github.com/dingxianzhong/play-verl logs/) Qwen2-7B PPO "min" 0.58 and
#: "recommended" 0.50; diqiuzhuanzhuan/verldata run_logs/ GPG FSDP 0.45 and Megatron 0.52; yushengsu-thu/
#: verl_training_log gsm8k/ deepseek-llm-7b GRPO 0.37 and PPO 0.38; eric-haibin-lin/verl-data (experiments) gemma-2-2b
#: PPO 0.44 and the six GRPO-LoRA runs' last steps (Qwen2.5 1.5B–72B) 0.42, 0.37, 0.39, 0.36, 0.35, 0.33
#: (bench/rl_lengths.py). ms-swift's SFT datasets give 0.46 (flops.DEFAULT_SAMPLE_LEN_CV), within that range.
ROLLOUT_LEN_CV = 0.39
#: Share of sampled completions that never emit EOS and run to ``max_tokens`` (a loop, a rambling answer): the
#: median over the seven full logs above whose mean stays well below the cap of −ln(1 − s) / N, s the share of
#: their steps whose ``response_length/max`` reaches the cap (6.5e-5, 4.6e-4, 4.6e-4, 4.7e-4, 4.8e-4, 1.1e-3,
#: 5.0e-3). Check: the logged ``response_length/clip_ratio`` averages 0.0006–0.0007 on the three logs with a mean
#: below a fifth of the cap (GPG Megatron, "recommended", deepseek PPO), where a log-normal body alone clips < 1e-4.
ROLLOUT_CAP_SHARE = 4.7e-4

@dataclass(slots=True, frozen=True)
class MethodProfile:
    """What one objective holds and runs (resolved from the scenario: every default applied)."""

    objective: str = "sft"
    seqs_per_example: int = 1          # sequences the policy runs forward + backward per micro-batch example
    reference: str = "none"            # separate | lora_base | precomputed | none
    reference_offload: bool = False    # frozen models in CPU memory (OpenRLHF --ref_reward_offload)
    reference_grad_buffer: bool = False  # the reference keeps an fp32 main_grad buffer (Megatron-SWIFT < 3.9)
    chosen_nll: bool = False           # TRL's separate NLL on the chosen rows (CHOSEN_NLL_OBJECTIVES, DPO rpo_alpha)
    reward_model: bool = False         # a frozen reward model on the GPU
    critic: bool = False               # a trained value model (PPO)
    value_head: bool = False           # the trained model ends in a scalar head (reward-model training)
    ref_forwards: float = 0.0          # reference forwards per trained token
    policy_nograd_forwards: float = 0.0  # extra no_grad policy forwards per trained token (KTO KL, PPO old logps)
    rl: bool = False
    prompt_len: int = 0
    rollout_len: int = 0
    group_size: int = 1
    engine: str = "training"           # training | vllm_colocated | vllm_separate
    gpu_fraction: float = 0.0
    engine_sleep: bool = False
    offload_model: bool = False        # the training model in CPU memory while vLLM generates (Megatron-SWIFT)
    beta: float = 0.1
    mean_response_fraction: float = 1.0  # mean completion / rollout_len (generation_seconds)
    schedule: str = "on_policy"        # on_policy | one_step_off | async (timing: generation overlapped with training)
    steps_in_flight: int = 1           # async: generation batches in flight (timing._rollouts)
    regeneration_share: float = 0.0    # groups regenerated for zero reward variance (active sampling, timing._rollouts)
    max_num_seqs: int = 0              # vLLM's concurrent-sequence cap (0: the engine's default, timing._rollouts)
    updates_per_generation: int = 1    # optimizer steps per generation batch (timing._rollouts)
    rollout_tp: int = 0                # vLLM's tensor parallelism (0: the training layout's tp)
    critic_padded: bool = False        # the PPO critic runs padded rows while the policy may not (timing)
    enforce_eager: bool = False        # vLLM without CUDA graphs: decode steps wait for Python's launches
    sleep_level: int = 2               # engine_sleep: 1 offloads vLLM's weights to the CPU and back, 2 drops them
    prompt_pad_len: int = 0            # padded rows: prompts padded to this length (verl max_prompt_length)
    per_tensor_sync: bool = False      # the refit makes one call per parameter tensor (TRL server mode, timing)
    lora_engine: bool = False          # vLLM serves the actor's LoRA adapter through its LoRA layers (verl)
    response_len_cv: float = ROLLOUT_LEN_CV  # completions' length spread, std / mean (expected_longest)
    hybrid_engine: bool = False        # DeepSpeed-Chat's Hybrid Engine decodes the training model (generation_seconds)

    @property
    def train_seq_len(self) -> int:
        return self.prompt_len + self.rollout_len

    @property
    def padded_row_len(self) -> int:
        """A training row without padding-free batches: the prompt padded to ``prompt_pad_len`` (verl pads every
        prompt to ``data.max_prompt_length``, ``RLHFDataset`` → ``tokenize_and_postprocess_data(left_pad=True)``,
        and every response to ``response_length``) or to ``prompt_len`` (TRL pads to the batch's longest), plus
        ``rollout_len``."""
        return max(self.prompt_pad_len, self.prompt_len) + self.rollout_len

    @property
    def logit_fraction(self) -> float:
        """Share of the sequence whose logits the policy's loss keeps (TRL GRPO ``logits_to_keep``)."""
        if self.objective == "grpo" and self.train_seq_len:
            return self.rollout_len / self.train_seq_len
        return 1.0

    def models_held(self) -> tuple[str, ...]:
        """The memory parts this objective adds (``memory_per_gpu_gib`` keys)."""
        out = []
        if self.reference == "separate":
            out.append("reference")
        if self.reward_model:
            out.append("reward")
        if self.critic:
            out.append("critic")
        if self.rl:
            if self.engine == "vllm_colocated" and not self.engine_sleep:
                out.append("rollout_weights")
            if self.engine != "vllm_separate":
                out.append("kv_cache")
        return tuple(out)

    def to_json(self) -> dict:
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        d["models_held"] = list(self.models_held())
        return d


SFT = MethodProfile()


def default_reference(objective: str, method: str, beta: float) -> str:
    """The reference handling each objective uses when the scenario leaves it open (module docstring)."""
    if objective not in REFERENCED:
        return "none"
    if objective == "grpo" and beta == 0.0:
        return "none"  # TRL GRPOConfig beta = 0.0: "the reference model is not loaded"
    return "lora_base" if method in ("lora", "qlora") else "separate"


def method_profile(training) -> MethodProfile:
    """The resolved profile of a scenario's ``training`` section."""
    t = training
    obj = getattr(t, "objective", "sft")
    if obj == "sft":
        return SFT
    pref, rl = t.preference, t.rl
    # the objective's default beta (TRL GRPOConfig 0.0, DPOConfig 0.1) is resolved in the scenario itself
    # (scenario._apply_objective_defaults), so a written-out scenario answers the same (plangap17); a bare
    # training section (never validated as a scenario) gets the same rule
    beta = pref.beta if "beta" in pref.model_fields_set else objective_default_beta(obj, pref.beta)
    ref = pref.reference or default_reference(obj, t.method, beta)
    if obj in ("orpo", "simpo", "cpo", "reward"):
        ref = "none"
    reward_model = False
    critic = obj == "ppo"
    prompt = rollout = 0
    if obj in RL:
        reward_model = (rl.reward or ("model" if obj == "ppo" else "function")) == "model"
        rollout = rl.rollout_len
        prompt = rl.prompt_len if rl.prompt_len is not None else t.seq_len - rollout
    # precomputed log-probabilities cost the same reference forward per token, in one pass before training
    # (TRL ``precompute_ref_log_probs``): counted with the steps so the training days stay right
    ref_fwd = 0.0
    if ref in ("separate", "lora_base", "precomputed"):
        ref_fwd = 2.0 if obj == "kto" else 1.0
    nograd = 1.0 if obj in ("kto", "ppo") else 0.0
    updates = int(getattr(rl, "updates_per_generation", 1) or 1) if obj in RL else 1
    if obj == "grpo" and (rl.generation_engine != "training" or updates > 1):
        # the old policy's log-probabilities, one no_grad forward over prompt + completion: TRL recomputes them
        # whenever vLLM generates (grpo_trainer ``_generate_and_score_completions``: ``vllm_importance_sampling_
        # correction`` defaults to True, grpo_config.py), verl always (ray_trainer ``_compute_old_log_prob``,
        # timing key ``old_log_prob``), OpenRLHF in ``make_experience``, and TRL whenever a generation batch feeds
        # more than one optimizer step; TRL with HF ``generate`` and one generation per optimizer step reuses the
        # trained forward's (``old_per_token_logps = None``)
        nograd = 1.0
    return MethodProfile(
        objective=obj, seqs_per_example=2 if obj in PAIRED else 1, reference=ref,
        reference_offload=bool(pref.reference_offload), reward_model=reward_model, critic=critic,
        reference_grad_buffer=pref.reference_grad_buffer and ref == "separate",
        chosen_nll=obj in CHOSEN_NLL_OBJECTIVES or (obj in ("dpo", "ipo") and pref.rpo_alpha is not None),
        value_head=obj == "reward", ref_forwards=ref_fwd, policy_nograd_forwards=nograd, rl=obj in RL,
        prompt_len=prompt, rollout_len=rollout, group_size=rl.group_size if obj == "grpo" else 1,
        engine=rl.generation_engine if obj in RL else "training", gpu_fraction=rl.generation_gpu_fraction,
        engine_sleep=bool(rl.engine_sleep), beta=beta,
        offload_model=bool(getattr(rl, "offload_model", False)) and obj in RL
        and rl.generation_engine == "vllm_colocated",
        mean_response_fraction=float(getattr(rl, "mean_response_fraction", 1.0)) if obj in RL else 1.0,
        schedule=str(getattr(rl, "schedule", "on_policy")) if obj in RL else "on_policy",
        steps_in_flight=int(getattr(rl, "steps_in_flight", 1) or 1) if obj in RL else 1,
        regeneration_share=float(getattr(rl, "regeneration_share", 0.0) or 0.0) if obj in RL else 0.0,
        max_num_seqs=int(getattr(rl, "max_num_seqs", None) or 0) if obj in RL else 0, updates_per_generation=updates,
        rollout_tp=int(getattr(rl, "rollout_tp", None) or 0) if obj in RL else 0,
        critic_padded=critic and obj in RL and getattr(rl, "critic_padding_free", None) is False,
        enforce_eager=bool(getattr(rl, "enforce_eager", False)) and obj in RL,
        sleep_level=int(getattr(rl, "sleep_level", 2) or 2) if obj in RL else 2,
        prompt_pad_len=int(getattr(rl, "prompt_pad_len", None) or 0) if obj in RL else 0,
        # TRL's server mode syncs one tensor per HTTP call (TRL_SERVER_SYNC_S_PER_TENSOR); TRL's colocate mode calls
        # vLLM's ``load_weights`` in-process per tensor (no HTTP, broadcast or barrier; no published per-call time),
        # and verl, OpenRLHF and NeMo RL are other tools
        per_tensor_sync=(obj in RL and getattr(t, "framework", "") in TRL_SERVER_TOOLS
                         and rl.generation_engine == "vllm_separate"),
        lora_engine=(obj in RL and t.method in ("lora", "qlora") and rl.generation_engine != "training"
                     and getattr(t, "framework", "") in VLLM_LORA_ENGINE_FRAMEWORKS),
        response_len_cv=response_len_cv(rl, rollout) if obj in RL else ROLLOUT_LEN_CV,
        hybrid_engine=(obj in RL and bool(getattr(rl, "hybrid_engine", False)) and rl.generation_engine == "training"
                       and getattr(t, "framework", "") in RL_HYBRID_ENGINE_TOOLS))


def response_len_cv(rl, rollout_len: int) -> float:
    """The completions' length spread (std / mean) for :func:`expected_longest`: ``rl.response_len_std`` over the
    mean completion (``mean_response_fraction × rollout_len``), else :data:`ROLLOUT_LEN_CV`."""
    std = getattr(rl, "response_len_std", None)
    mean = float(getattr(rl, "mean_response_fraction", 1.0)) * float(rollout_len)
    return ROLLOUT_LEN_CV if std is None or mean <= 0.0 else float(std) / mean


def param_tensors(arch) -> int:
    """Parameter tensors of the Hugging Face model (``model.named_parameters()``, a tied head once), counted from
    the modelling code of transformers 4.x: per layer the q/k/v (one fused tensor where the checkpoint fuses them) and
    o projections, their biases, q/k norms, the layer norms (LayerNorm: weight and bias), and the MLP — gate/up/down
    (or up/down), or an MoE block's router (and DeepSeek's correction bias), ``num_experts`` experts of their own
    tensors each (transformers 4.x keeps experts in a ``ModuleList``), the shared expert(s) and Qwen-MoE's shared
    gate; MLA's q_a/q_b (or q), kv_a, kv_b projections and their two norms; then the embeddings, the final norm and
    an untied head. Checks: Qwen2.5-0.5B 290, Llama-3.1-8B 291, Qwen3-30B-A3B 18,867 (their safetensors headers).
    Vision towers are not counted."""
    a = arch
    ln = 2 if a.norm_type == "layernorm" else 1
    if a.is_mla:
        attn = (3 if a.q_lora_rank else 1) + 3 + 1
    else:
        attn = (1 if a.fused_qkv else 3) + 1 + ((1 if a.fused_qkv else 3) if a.attention_bias else 0)
    attn += (1 if a.attention_out_bias else 0) + (2 if a.qk_norm else 0)
    mlp_w = ((2 if a.fused_gate_up else 3) if a.gated_mlp else 2)
    dense = attn + mlp_w * (2 if a.mlp_bias else 1) + a.norms_per_layer * ln
    total = a.num_layers * dense
    if a.is_moe:
        moe = 1 + (1 if a.router_bias else 0) + a.num_experts * mlp_w + (mlp_w if a.num_shared_experts else 0)
        moe += (mlp_w + 1) if a.shared_expert_intermediate_size else 0
        total += (a.num_layers - a.num_dense_layers) * (attn + moe + a.norms_per_layer * ln - dense)
    total += 1 + ln + (0 if a.tie_word_embeddings else 1)
    total += (1 if a.position_embedding == "learned" else 0) + (ln if a.embedding_norm else 0)
    return int(total)


def kv_bytes_per_token(arch, dtype_bytes: float = 2.0) -> float:
    """KV-cache bytes per token over all layers: K and V of ``kv_heads × head_dim`` per layer (GQA), or MLA's
    compressed latent ``kv_lora_rank + qk_rope_head_dim`` (DeepSeek-V2 §2.1.2, as vLLM stores it)."""
    if getattr(arch, "is_mla", False):
        return arch.num_layers * (arch.kv_lora_rank + arch.qk_rope_head_dim) * dtype_bytes
    return 2.0 * arch.num_layers * arch.num_kv_heads * arch.head_dim * dtype_bytes


def vllm_kv_per_token_per_gpu(arch, tp, xp=None, dtype_bytes: float = 2.0):
    """KV-cache bytes one token holds on each GPU of a vLLM engine of ``tp`` GPUs (issue 35 round 8): the KV heads
    split over the ranks down to one head per rank, then replicated ("we will replicate the KV heads in the case
    where the number of KV heads is smaller than the tensor parallel size so each GPU has at least one KV head",
    vLLM ``ModelConfig.get_num_kv_heads``; ``QKVParallelLinear`` ``num_kv_head_replicas``), and multi-head latent
    attention's latent whole on every rank (vLLM's MLA backends cache all of ``kv_lora_rank + qk_rope_head_dim``).
    The serving sizer's rule (``inference.kv_bytes_per_token_per_gpu``), through the one function both call
    (``serving_facts.kv_heads_per_rank``: whole heads, floored). Qwen3-235B-A22B (4 KV heads) at TP 16: one head a
    rank, 4× the even split."""
    xp = xp or ops_for(tp)
    tp = xp.asarray(tp, dtype=float)
    if getattr(arch, "is_mla", False):
        return kv_bytes_per_token(arch, dtype_bytes) + 0.0 * tp
    heads = kv_heads_per_rank(arch.num_kv_heads, tp, xp)
    return 2.0 * arch.num_layers * heads * arch.head_dim * dtype_bytes


#: vLLM's memory share on its own GPUs (vllm_separate): its default ``gpu_memory_utilization`` (timing._rollouts)
VLLM_SEPARATE_SHARE = 0.9


def vllm_engine_reserve_bytes(arch, tp, max_seqs, profile_tokens, nvlink, xp=None):
    """Bytes per GPU an RL rollout's vLLM engine keeps out of its KV pool besides the weights (issue 35 round 11,
    nemorl12): vLLM V1's ``determine_available_memory`` (vllm ``v1/worker/gpu_worker.py``) sizes the KV cache as
    ``total × gpu_memory_utilization − weights − torch peak of the profile run − non-torch increase``, for the
    ``LLM`` instance NeMo RL, verl and TRL create as for a server. The serving model's mechanism and constants,
    not a copy (both read :mod:`core.serving_facts`): ``inference.vllm_profile_peak_bytes``, the larger of the two
    parts of :func:`serving_facts.vllm_profile_parts` (one layer's live tensors over ``max_num_batched_tokens``, the
    sampler's fp32 logits of ``max_num_seqs`` sequences), and :data:`serving_facts.VLLM_NON_TORCH_GIB` (the custom
    all-reduce and NCCL buffers of the profile run, by link and one or several ranks). ``max_seqs``: the engine's
    ``max_num_seqs`` (the rollouts' own, ``timing.vllm_default_max_num_seqs``); ``profile_tokens``: its
    ``max_num_batched_tokens`` (:data:`serving_facts.VLLM_LLM_CLASS_BUDGET`); ``xp``: :mod:`core.arrayops`'s ops
    for array ``tp`` (None: numbers). Before this the rollout pool was ``fraction × card − weights``: Qwen3-30B-A3B
    at vLLM TP 2 on an H100 (0.6) kept 19.6 GiB of KV per GPU, vLLM keeps 14.7."""
    xp = xp or ops_for(tp)
    hidden = float(getattr(arch, "hidden_size", 0) or arch.num_heads * arch.head_dim)
    ffn = float(getattr(arch, "intermediate_size", 0) or 4.0 * hidden)
    layer, sampler = vllm_profile_parts(hidden, ffn, float(getattr(arch, "vocab_size", 0) or 0), tp, profile_tokens,
                                        max_seqs, xp=xp)
    link = "nvlink" if nvlink else "pcie"
    non_torch = xp.where(tp > 1.0, VLLM_NON_TORCH_GIB[(link, 2)], VLLM_NON_TORCH_GIB[(link, 1)]) * 1024.0 ** 3
    return xp.maximum(layer, sampler) + non_torch


def vllm_start_room(prof: MethodProfile, *, arch, params_total: float, gpu_memory_gib, tp, reserve=0.0):
    """Bytes of vLLM's memory share left after its 16-bit weights (``2·N/tp``) and one full-length sequence's KV
    cache (``prompt_len + rollout_len`` tokens). Below zero vLLM does not start: it raises "No available memory for
    the cache blocks. Try increasing `gpu_memory_utilization`" (vLLM ``worker.py`` ``raise_if_cache_size_invalid``)
    or, in the V1 engine, "To serve at least one request with the model's max seq len … KV cache is needed, which
    is larger than the available KV cache memory" (``vllm/v1/core/kv_cache_utils.py``
    ``check_enough_kv_cache_memory``). Issue 35 round 6, advice4: GRPO of Qwen3-30B-A3B with TRL's colocate share
    of 0.3 put 30.5 GB of weights (TP 2) in 24 GiB of an A800 and timed the rollouts with no KV cache at all."""
    share = VLLM_SEPARATE_SHARE if prof.engine == "vllm_separate" else prof.gpu_fraction
    # (issue 35 round 11: of the memory CUDA reports, less what vLLM's profile run keeps, ``reserve``:
    # :func:`vllm_engine_reserve_bytes`, the same available memory vLLM checks one sequence against)
    return (share * gpu_memory_gib * 2.0**30 * CUDA_VISIBLE_SHARE - 2.0 * params_total / tp - reserve
            - vllm_kv_per_token_per_gpu(arch, tp) * float(prof.prompt_len + prof.rollout_len))


def kv_cache_tokens(prof: MethodProfile, seqs, *, shared_prompts: bool):
    """Tokens of KV cache ``seqs`` rollouts hold at the end of generation; with prompt sharing (vLLM parallel
    sampling) the ``group_size`` completions of a prompt share its blocks."""
    prompts = seqs / prof.group_size if shared_prompts else seqs
    return prompts * prof.prompt_len + seqs * prof.rollout_len


#: vLLM decode across nodes (issue 35 round 7): each decoder layer all-reduces its hidden states twice under tensor
#: parallelism (the attention output projection and the MLP/MoE output, ``RowParallelLinear`` / ``FusedMoE`` with
#: ``reduce_results``). Inside a node vLLM runs its own custom all-reduce; when the group spans nodes it is off
#: (vLLM ``distributed/device_communicators/custom_all_reduce.py``: "Custom allreduce is disabled because this
#: process group spans across nodes") and the all-reduce goes through NCCL. The latency is NCCL's own tuning model
#: (NVIDIA/nccl ``src/graph/tuning.cc``, default tuner constants, main 5067397) for a Tree all-reduce with the LL128
#: protocol, ``baseLat + 2 × ((ranks per node − 1) × NVLink hwLat + log2(nodes) × NET hwLat)``: 14.0 µs, 1.25 µs,
#: 8.5 µs. NCCL picks algorithm and protocol per message size; Tree/LL128 is taken for every decode all-reduce
#: (Tree/LL, 6.8 + 2 × (… × 0.6 + … × 5.0) µs, would be lower for the smallest messages).
NCCL_TREE_LL128_BASE_S = 14.0e-6
NCCL_TREE_LL128_NVLINK_S = 1.25e-6
NCCL_TREE_LL128_NET_S = 8.5e-6

#: vLLM engines wider than 8 GPUs inside one NVLink domain (GB200 NVL72; issue 35 round 8): vLLM's own all-reduces
#: take 2 to 8 ranks only (``CustomAllreduce._SUPPORTED_WORLD_SIZES = [2, 4, 6, 8]``; the symmetric-memory one,
#: ``SymmMemCommunicator``, is sized per world size in ``all_reduce_utils.SYMM_MEM_ALL_REDUCE_MAX_SIZES``, 2 to 8),
#: so ``CudaCommunicator.all_reduce`` falls through to PyNccl. NCCL fuses a multi-node NVLink clique into one node
#: (``src/graph/topo.cc``: the MNNVL clique's ranks are the local ranks; ``init.cc``: ``nNvlDomains = nNodes``) and
#: its tuner prices a one-node all-reduce (``src/graph/tuning.cc``, default tuner constants, main 5067397) as the
#: least of Ring/LL ``6.6 + 2(n−1) × 0.6`` µs, Tree/LL ``6.8 + 2(n−1) × 0.6`` µs and NVLS/Simple ``25`` µs (NVLink
#: hwLat; NVLS where the switch multicasts, ``transport/nvls.cc`` ``CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED``).
VLLM_OWN_ALLREDUCE_MAX_TP = 8.0
NCCL_RING_LL_BASE_S = 6.6e-6
NCCL_TREE_LL_BASE_S = 6.8e-6
NCCL_LL_NVLINK_S = 0.6e-6
NCCL_NVLS_NVLINK_S = 25.0e-6


def vllm_net_allreduce(tp, dom, nic, ops):
    """(latency s, network bytes/s) of one of vLLM's decode all-reduces for engines of ``tp`` GPUs when they span
    more than one NVLink domain of ``dom`` GPUs; (0, inf) inside one domain (vLLM's custom all-reduce, whose time
    the decode kernels' fixed time already holds). Bytes cross the NIC as a ring all-reduce's ``2(n−1)/n`` share
    of the message (:func:`generation_seconds` multiplies)."""
    where, maximum = ops.where, ops.maximum
    tp = ops.f(tp)
    spans = tp > dom
    nodes = maximum(ops.ceil(tp / maximum(dom, 1.0)), 1.0)
    lat = NCCL_TREE_LL128_BASE_S + 2.0 * ((tp / nodes - 1.0) * NCCL_TREE_LL128_NVLINK_S
                                          + ops.log(nodes) / ops.log(2.0) * NCCL_TREE_LL128_NET_S)
    bw = maximum(nic, 1.0) / maximum(2.0 * (tp - 1.0) / maximum(tp, 1.0), 1e-30)  # (no NIC: 1 B/s, not a division by 0)
    return where(spans, lat, 0.0), where(spans, bw, float("inf"))


def vllm_domain_allreduce(tp, dom, intra, ops):
    """(latency s, bytes/s) of one of vLLM's decode all-reduces for engines of more than
    :data:`VLLM_OWN_ALLREDUCE_MAX_TP` GPUs that fit one NVLink domain of ``dom`` GPUs (NCCL over NVLink, one node in
    NCCL's tuner); (0, inf) otherwise (vLLM's own all-reduce inside a node; :func:`vllm_net_allreduce` across
    domains). GB200 NVL72, vLLM TP 32: min(6.6 + 37.2, 6.8 + 37.2, 25) = 25 µs. Bytes at ``intra`` (the NVLink
    peer rate) as a ring's ``2(n−1)/n`` share."""
    where, minimum, maximum = ops.where, ops.minimum, ops.maximum
    tp = ops.f(tp)
    applies = (tp > VLLM_OWN_ALLREDUCE_MAX_TP) & (tp <= dom)
    steps = 2.0 * (tp - 1.0) * NCCL_LL_NVLINK_S
    lat = minimum(minimum(NCCL_RING_LL_BASE_S, NCCL_TREE_LL_BASE_S) + steps, NCCL_NVLS_NVLINK_S)
    bw = maximum(intra, 1.0) / maximum(2.0 * (tp - 1.0) / maximum(tp, 1.0), 1e-30)
    return where(applies, lat, 0.0), where(applies, bw, float("inf"))


@dataclass(slots=True, frozen=True)
class GenerationDetail:
    """:func:`generation_seconds`' answer with ``detail``, scalars or arrays as its inputs: ``seconds`` (prefill and
    decode), ``waves`` (decode steps / rollout_len), ``wait_longest`` (the decode steps after the mean completion,
    waiting for the longest) and ``net_allreduce`` (vLLM's NCCL decode all-reduces, ``tp_net``, in the steps before
    that wait, whose own hold theirs; zero without ``tp_net`` and for the training engine)."""

    seconds: Any
    waves: Any
    wait_longest: Any
    net_allreduce: Any


def generation_seconds(prof: MethodProfile, *, arch, params_total: float, active_params: float, seqs, tp,
                       peak_flops, eff, mem_bw, kv_pool_bytes=None, ops=None, detail=False, max_seqs=None,
                       n_rollouts=None, tp_net=None):
    """Seconds to generate ``seqs`` rollouts on one GPU (a model-parallel group of ``tp`` GPUs shares them).

    * Prefill: ``2·N_active`` FLOPs per prompt token (+ attention) at ``peak × eff`` (compute-bound).
    * Decode, per generated token: read the GPU's weights (``2·N/tp`` bytes; MoE: the experts the batch's tokens
      reach) and the batch's KV cache, or compute ``2·N_active`` FLOPs per sequence — whichever is slower
      (PagedAttention paper §2: decoding is memory-bound at small batch); ``training`` engine (eager
      ``generate``): plus :data:`EAGER_DECODE_S_PER_LAYER` per layer, overlapped with the GPU work (the slower
      of the two). Sampling reads the live batch's logits (:data:`SAMPLER_BYTES_PER_LOGIT` per vocabulary entry),
      and vLLM's host work per step (:data:`ENGINE_STEP_S`, :data:`ENGINE_SEQ_S`) follows the GPU's.
    * Concurrency (:func:`decode_steps`): vLLM runs at most ``max_seqs`` sequences at once (``max_num_seqs``)
      and only as many as its KV pool (``kv_pool_bytes``) holds; the others wait in its queue and take a
      finished one's place (continuous batching; the scheduler preempts what no longer fits).
    * The longest completion sets the end: a batch's generation ends when its last sequence hits EOS or
      ``max_tokens`` (vLLM ``LLM.generate`` returns once every request is finished; HF ``generate`` stops when
      all sequences are done): with a short mean the longest of hundreds of samples still nears the cap.
      Sequences that end earlier leave the batch, which scales the per-sequence terms (KV reads, FLOPs, the
      experts reached) by the live batch; the weights are read every step regardless. ``detail``: also return
      the seconds spent waiting for the longest completions (the last ``longest − mean`` steps).
      ``n_rollouts`` (every rollout of the generation batch, all engines: the trainer waits for the last one)
      sets the longest through :func:`expected_longest`; None: ``rollout_len``.
    * ``enforce_eager`` (vLLM without CUDA graphs): a decode step takes at least the host's kernel launches,
      :func:`vllm_eager_launch_s`, plus a LoRA actor's LoRA layers (:func:`vllm_lora_eager_s`).
    * ``tp_net`` (:func:`vllm_net_allreduce`: latency, bytes/s): engines spanning nodes add two NCCL all-reduces per
      layer to every decode step (``detail`` also gives their seconds).
    Returns (seconds, waves) (``detail``: a :class:`GenerationDetail`); ``waves`` = decode steps / rollout_len.
    """
    xp = ops or ops_for(seqs, tp, peak_flops, eff, mem_bw, kv_pool_bytes, max_seqs)
    seqs = xp.asarray(seqs, dtype=float)
    tp = xp.asarray(tp, dtype=float)
    vllm = prof.engine != "training"
    # KV bytes a token holds on one GPU: vLLM replicates KV heads below one a rank and MLA's latent on every rank
    kv_gpu = vllm_kv_per_token_per_gpu(arch, tp, xp) if vllm else kv_bytes_per_token(arch) / tp
    frac = prof.mean_response_fraction
    prompt_kv = prof.prompt_len / (prof.group_size if vllm else 1)  # vLLM shares a prompt's blocks (§4.4)
    longest = None if n_rollouts is None else expected_longest(prof, n_rollouts, xp=xp)
    steps, live = decode_steps(prof, seqs, kv_seq_bytes=(prompt_kv + frac * prof.rollout_len) * kv_gpu,
                               kv_pool_bytes=kv_pool_bytes, max_seqs=max_seqs, xp=xp, longest=longest)
    prompts = (seqs / prof.group_size if vllm else seqs)
    h, L = arch.hidden_size, arch.num_layers
    q_dim = arch.num_heads * arch.head_dim
    # prefill: linear FLOPs + causal attention (QKᵀ and PV: 2 × 2·s·q_dim per token, half masked)
    attn_prefill = 2.0 * prof.prompt_len * q_dim * L
    prefill = prompts * prof.prompt_len * (2.0 * active_params + attn_prefill) / tp / (peak_flops * eff)
    # decode: the experts a step's tokens reach (k per token, at most all of them)
    n_exp = max(getattr(arch, "num_experts", 0) or 0, 0)
    dense = float(params_total)
    if n_exp:
        k = arch.num_experts_per_tok
        expert_frac = (params_total - active_params) / max(params_total, 1.0)  # ≈ the routed experts' share
        reach = xp.minimum(1.0, live * k / n_exp)
        dense = params_total * (1.0 - expert_frac) + params_total * expert_frac * reach
    w_read = 2.0 * dense / tp
    kv_ctx = live * (prompt_kv + frac * prof.rollout_len / 2.0) * kv_gpu
    mem_t = (w_read + kv_ctx) / mem_bw
    flop_t = live * 2.0 * active_params / tp / (peak_flops * eff)
    # vLLM's kernels each add a fixed GPU time (decode_kernels_fixed_s; issue 35 round 5, as the serving sizer): the
    # GEMMs' beside the weight stream, the others' always. Eager ``generate`` hides them under its host launches.
    gemm_k, other_k = decode_kernels_fixed_s(L, n_exp > 0) if vllm else (0.0, 0.0)
    step = xp.maximum(mem_t + gemm_k, flop_t) + other_k \
        + live * getattr(arch, "vocab_size", 0) * SAMPLER_BYTES_PER_LOGIT / mem_bw
    if not vllm:
        step = xp.maximum(step, L * eager_decode_s_per_layer(prof, arch))
    else:
        if prof.enforce_eager:
            step = xp.maximum(step, vllm_eager_launch_s(L, tp, xp)) + vllm_lora_eager_s(prof, L)
        step = step + ENGINE_STEP_S + ENGINE_SEQ_S * live + vllm_lora_token_s(prof, L, live)
        if tp_net is not None:  # NCCL all-reduces across nodes: 2 a layer, the live batch's 16-bit hidden states
            net_ar = 2.0 * L * (tp_net[0] + live * h * 2.0 / tp_net[1])
            step = step + net_ar
    decode = steps * step
    waves = steps / float(prof.rollout_len)
    if not detail:
        return prefill + decode, waves
    tail = (float(prof.rollout_len) if longest is None else longest) - frac * prof.rollout_len
    # and the all-reduces of the steps before the tail (wait_longest has the tail's)
    net = xp.maximum(steps - tail, 0.0) * net_ar if vllm and tp_net is not None else 0.0 * (prefill + decode)
    return GenerationDetail(prefill + decode, waves, step * xp.maximum(tail, 0.0), net)


def vllm_lora_eager_s(prof: MethodProfile, num_layers: int) -> float:
    """Seconds an eager vLLM decode step spends in its LoRA layers (:data:`VLLM_LORA_EAGER_S_PER_LAYER` per decoder
    layer) when the engine serves the actor's adapter (``prof.lora_engine``); 0 otherwise."""
    return num_layers * VLLM_LORA_EAGER_S_PER_LAYER if prof.lora_engine else 0.0


def vllm_lora_token_s(prof: MethodProfile, num_layers: int, live):
    """Seconds a vLLM decode step's LoRA layers add for its ``live`` sequences (:data:`VLLM_LORA_S_PER_TOKEN_LAYER` a
    token a decoder layer) when the engine serves the actor's adapter (``prof.lora_engine``); 0 otherwise. With or
    without CUDA graphs (PR #11267 measured with them)."""
    return live * (num_layers * VLLM_LORA_S_PER_TOKEN_LAYER) if prof.lora_engine else 0.0 * live


def vllm_eager_launch_s(num_layers: int, tp, xp):
    """Host seconds to launch one eager vLLM decode step's kernels (:data:`VLLM_EAGER_OPS_PER_LAYER` per layer,
    plus the two all-reduces per layer under tensor parallelism, plus :data:`VLLM_EAGER_OPS_STEP`), each at
    :data:`EAGER_FWD_OP_S`."""
    per_layer = VLLM_EAGER_OPS_PER_LAYER + xp.where(tp > 1.0, VLLM_EAGER_TP_OPS_PER_LAYER, 0.0)
    return (num_layers * per_layer + VLLM_EAGER_OPS_STEP) * EAGER_FWD_OP_S


def expected_longest(prof: MethodProfile, n_rollouts, *, xp):
    """Expected length of the longest of ``n_rollouts`` completions, at most ``rollout_len``.

    A batch's generation ends with its longest completion (vLLM ``LLM.generate`` returns once every request has
    hit EOS or ``SamplingParams.max_tokens`` = ``rollout_len``: verl ``response_length``, TRL
    ``max_completion_length``). The lengths, read from verl's per-step ``response_length/mean``, ``/max`` and
    ``/clip_ratio`` (bench/rl_lengths.py), are a log-normal body of mean ``m = mean_response_fraction ×
    rollout_len`` and spread ``prof.response_len_cv`` (:data:`ROLLOUT_LEN_CV`), plus a share
    :data:`ROLLOUT_CAP_SHARE` of completions that never end and run to the cap
    (:func:`rollout_lengths.expected_longest_runaway`). At the default ``mean_response_fraction`` = 1 it is
    ``rollout_len``.
    Checks (tests/test_mechanics_rollout_longest.py): verl-data's Qwen2.5-7B GRPO-LoRA run (64 × 5 = 320
    rollouts, mean 268.5 of 1,024) logs a longest of 749 at its last step: 788 here, where round 4's geometric rule
    (m × H_N) gave the cap; play-verl's "recommended" PPO (5,120 rollouts, mean ~188) logs 1,011 on average: 995.
    Over bench/rl_lengths.py's 18 logs the median error is 2%; the worst are deepseek-llm-7b GRPO (+54%: fewer
    runaways than the median) and play-verl "min" (−28%: more)."""
    L = float(prof.rollout_len)
    m = prof.mean_response_fraction * L
    n = xp.maximum(xp.asarray(n_rollouts, dtype=float), 1.0)
    return expected_longest_runaway(m, prof.response_len_cv, n, L, ROLLOUT_CAP_SHARE)


def decode_steps(prof: MethodProfile, seqs, *, kv_seq_bytes, kv_pool_bytes=None, max_seqs=None, xp=None,
                 longest=None):
    """Decode steps of ``seqs`` rollouts and the live batch they average (the tokens generated, ``seqs × m``
    with ``m = mean_response_fraction × rollout_len``, spread over the steps).

    At most ``B = min(seqs, max_seqs, kv_pool_bytes / kv_seq_bytes)`` sequences decode at once (vLLM
    ``SchedulerConfig.max_num_seqs``; the KV blocks one mean completion holds at its end). A slot that frees
    takes the next waiting sequence, so the slots drain the queue after ``seqs × m / B`` steps; the last
    sequence started then began about ``m`` steps earlier and may be a longest one (``rollout_len`` steps):
    ``steps = rollout_len + m × (seqs / B − 1)`` — ``rollout_len`` when every rollout fits at once, and
    ``rollout_len × waves`` for completions that all reach the cap. ``longest``: the longest completion's
    expected length (:func:`expected_longest`) in place of ``rollout_len``."""
    xp = xp or ops_for(seqs, kv_pool_bytes, max_seqs)
    m = prof.mean_response_fraction * float(prof.rollout_len)
    L = float(prof.rollout_len) if longest is None else longest
    cap = seqs
    if max_seqs is not None:
        cap = xp.minimum(cap, max_seqs)
    if kv_pool_bytes is not None:
        cap = xp.minimum(cap, xp.maximum(kv_pool_bytes / xp.maximum(kv_seq_bytes, 1e-30), 1.0))
    steps = L + m * xp.maximum(seqs / xp.maximum(cap, 1e-30) - 1.0, 0.0)
    return steps, seqs * m / steps

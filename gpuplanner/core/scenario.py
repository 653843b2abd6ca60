"""The scenario: the input contract for every estimate (pydantic models).

JSON names of the six sections (``model``, ``training``, ``parallel``, ``hardware``, ``data``,
``assumptions``) and of their documented fields are a public contract: scripts and plan files depend
on them. Fields may be added, never renamed. ``constraints`` drives the plan search.
"""

# no ``from __future__ import annotations``: pydantic reads each field's annotation as the object itself
# instead of compiling and evaluating its text
from typing import Any, Literal, get_args

from pydantic import ConfigDict, Field, ValidationError, field_validator, model_validator

from .errors import ScenarioError
from .i18n import QT_TRANSLATE_NOOP
from .messages import MsgStr, not_negative_price, validation_line
from .nobool import NoBoolForNumbers
from .recompute import ALIASES as RECOMPUTE_ALIASES
from .fp8 import PRECISION_ALIASES as FP8_PRECISION_ALIASES
from .frameworks import CHECKPOINT_REENTRANT_REFUSED, FUSED_CE_DEFAULT, RL_OFFLOAD_MODEL_TOOLS, engine_of
from .frameworks import RL_HYBRID_ENGINE_TOOLS, fsdp2_upcast_allowed, fsdp_sharded_gradients, lora_layer_applies
from .frameworks import fsdp_lora_units_apply, mixed_precision_off_allowed, own_lora_layers, tool_default_recompute
from .frameworks import qlora_no_upcast_allowed, use_cache_applies
from .frameworks import logits_held_unpriced, objective_default_beta
from .units import parse_count

CTX = "Scenario"

Method = Literal["pretrain", "full", "lora", "qlora"]
Precision = Literal["bf16", "fp16", "fp32", "fp8"]
Optimizer = Literal["adamw", "adamw_8bit", "sgd", "adafactor"]
# recompute policies (core/recompute.py documents each); "selective" is read as its alias "megatron_selective"
Recompute = Literal["none", "megatron_selective", "full", "op_sac", "layer_sac"]
#: Megatron-Core's ``--recompute-modules`` choices for standard and MLA transformer layers (Megatron-LM d98e8a64
#: ``transformer_config.py`` ``recompute_modules``; the gated-delta-net and hyper-connection ones have no model here)
RecomputeModule = Literal["core_attn", "moe_act", "layernorm", "mla_up_proj", "mlp", "moe", "shared_experts"]
Framework = Literal["hf", "fsdp", "deepspeed", "megatron",
                    # fine-tuning tools (core/frameworks.py: each one's engine, defaults and sources)
                    "llamafactory", "unsloth", "ms-swift", "megatron-swift", "megatron-bridge", "trl", "axolotl",
                    "nanotron", "gpt-neox"]
#: The training objective on top of ``method`` (core/methods.py has what each one holds and runs).
Objective = Literal["sft", "dpo", "ipo", "kto", "orpo", "simpo", "cpo", "reward", "ppo", "grpo"]
ReferenceMode = Literal["separate", "lora_base", "precomputed", "none"]
GenerationEngine = Literal["training", "vllm_colocated", "vllm_separate"]
#: LoRA target sets: ``attention`` (q/k/v/o), ``all_linear`` (every linear of the blocks) and ``qkv``, one adapter
#: on the fused query/key/value projection (Megatron-Core's ``linear_qkv``: the Megatron-Bridge performance recipes'
#: ``target_modules=["linear_qkv"]``, NeMo 1.0's ``lora_tuning.target_modules: ['attention_qkv']`` default)
#: ``mlp``: the MLP's linears only (gate/up/down; MoE: the experts' and shared experts', not the router): PEFT
#: ``target_modules=["gate_proj", "up_proj", "down_proj"]``, LLaMA-Factory ``lora_target: gate_proj,up_proj,down_proj``.
#: The tools' defaults: LLaMA-Factory ``lora_target`` ``all``, ms-swift ``target_modules`` ``all-linear`` (so
#: ``all_linear``); PEFT alone, with no ``target_modules``, uses its model-type map (q_proj, v_proj for Llama).
#: ``qv``: q_proj and v_proj, PEFT's ``target_modules`` when none is given for Llama/Mistral/Qwen2 (its model-type map,
#: ``utils/constants.py``).
LoraTargets = Literal["attention", "all_linear", "qkv", "mlp", "qv", "qkv_mlp"]
#: the LoRA linear's implementation (core/flops.LORA_LAYERS)
LoraLayer = Literal["peft", "automodel", "automodel_triton", "litgpt"]


#: Frameworks whose models are not Hugging Face modelling code (Megatron-Core) or that bring their own kernels
#: (Unsloth): Liger Kernel's ``apply_liger_kernel_to_*`` patches transformers' model classes only
#: (linkedin/Liger-Kernel ``transformers/monkey_patch.py``); FSDP runs them under Accelerate (Liger's own benchmark)
#: the tools Liger Kernel does not patch (the Training page greys its switch for these: ui/pages/training_page.py)
NO_LIGER = ("megatron", "megatron-swift", "unsloth", "nanotron", "gpt-neox")
#: the tools that run Megatron-Core (core/frameworks.py engine "megatron"): parallel.moe_dispatcher is theirs
_MEGATRON_TOOLS = tuple(FUSED_CE_DEFAULT)

#: Activation recomputation each fine-tuning tool runs by default (sources in core/frameworks.py; the
#: scenario applies it when ``training.recompute`` is not given: the user's own choice always wins).
_TOOL_RECOMPUTE = {"llamafactory": "full", "unsloth": "full", "ms-swift": "full", "megatron-swift": "megatron_selective",
                   "megatron-bridge": "none", "trl": "full", "axolotl": "none", "nanotron": "none",
                   # GPT-NeoX v1.0 ``neox_args.py``: ``checkpoint_activations: bool = False``
                   "gpt-neox": "none"}
def _apply_tool_defaults(t) -> None:
    """A tool's documented activation recomputation where the scenario leaves ``recompute`` out (the user's own
    value always wins; :data:`_TOOL_RECOMPUTE`, sources in core/frameworks.py; torchtitan's per-op SAC for the plans
    that run it, :func:`frameworks.tool_default_recompute`). LoRA dropout is not filled in here:
    ``training.lora_dropout`` stays None ("the tool's default") and :func:`frameworks.lora_dropout_of` reads it for
    the framework each plan runs, the search's other frameworks included (review r12)."""
    if "recompute" in t.model_fields_set:
        return
    own = (tool_default_recompute(t.framework, t.fsdp_version, t.method, t.objective)
           or _TOOL_RECOMPUTE.get(t.framework) or type(t).model_fields["recompute"].default)
    if t.recompute != own:  # the field default too: a value an earlier framework's default left is not kept
        t.recompute = own
        # the tool's default, not the user's choice: it stays unset (pydantic marks an assigned field set), so a
        # saved plan does not write it and a later framework (an adopted plan's, the user's next) gets its own
        # default (issue 35 round 16: adopting a Megatron-SWIFT plan left "megatron_selective" as the user's value)
        t.model_fields_set.discard("recompute")


def _apply_objective_defaults(t) -> None:
    """The objective's documented KL coefficient where the scenario leaves ``training.preference.beta`` out
    (:func:`frameworks.objective_default_beta`). Resolved here, in the scenario, so every path reads one value: a written-out scenario (``plan
    --json``'s, a saved plan's) carries the resolved beta, not the field default that would load a reference on
    the way back (issue 35 r17 plangap17: ``estimate`` of ``plan``'s #1 added a 3.5 GiB reference). It stays
    unset (pydantic marks an assigned field set), so another objective later gets its own default."""
    pref = t.preference
    if "beta" in pref.model_fields_set:
        return
    own = objective_default_beta(t.objective, type(pref).model_fields["beta"].default)
    if pref.beta != own:
        pref.beta = own
        pref.model_fields_set.discard("beta")


class _Section(NoBoolForNumbers):
    # NaN and ±Infinity are never a valid value: every number is finite and within its documented range
    model_config = ConfigDict(extra="forbid", validate_assignment=True, allow_inf_nan=False)


class ModelSection(_Section):
    """Which model: a preset id, an HF ``config.json``/model folder, or explicit architecture fields.

    Explicit fields override what a preset or config supplies, so a user can start from a preset and
    change, e.g., the vocabulary size.
    """

    preset: str | None = Field(None, max_length=200)
    hf_config: str | None = Field(None, max_length=4096)
    name: str | None = Field(None, max_length=200)
    hidden_size: int | None = Field(None, gt=0, le=1 << 20)
    num_hidden_layers: int | None = Field(None, gt=0, le=10_000)
    num_attention_heads: int | None = Field(None, gt=0, le=1 << 16)
    num_key_value_heads: int | None = Field(None, gt=0, le=1 << 16)
    head_dim: int | None = Field(None, gt=0, le=1 << 16)
    intermediate_size: int | None = Field(None, gt=0, le=1 << 24)
    gated_mlp: bool | None = None
    vocab_size: int | None = Field(None, gt=0, le=1 << 27)
    tie_word_embeddings: bool | None = None
    num_experts: int | None = Field(None, ge=0, le=1 << 16)
    num_experts_per_tok: int | None = Field(None, ge=0, le=1 << 16)
    moe_intermediate_size: int | None = Field(None, gt=0, le=1 << 24)
    num_shared_experts: int | None = Field(None, ge=0, le=1024)
    shared_expert_intermediate_size: int | None = Field(None, ge=0, le=1 << 24)
    first_k_dense_replace: int | None = Field(None, ge=0, le=10_000)
    # MLA (DeepSeek-V2/V3)
    q_lora_rank: int | None = Field(None, ge=0, le=1 << 20)
    kv_lora_rank: int | None = Field(None, gt=0, le=1 << 20)
    qk_rope_head_dim: int | None = Field(None, ge=0, le=1 << 16)
    qk_nope_head_dim: int | None = Field(None, ge=0, le=1 << 16)
    v_head_dim: int | None = Field(None, gt=0, le=1 << 16)
    # details that change the exact count
    attention_bias: bool | None = None
    attention_out_bias: bool | None = None
    mlp_bias: bool | None = None
    norm_type: Literal["rmsnorm", "layernorm"] | None = None
    norms_per_layer: int | None = Field(None, ge=0, le=16)
    qk_norm: bool | None = None
    position_embedding: Literal["rope", "learned", "alibi", "none"] | None = None
    max_position_embeddings: int | None = Field(None, gt=0, le=1 << 31)
    hidden_act: str | None = Field(None, max_length=64, pattern=r"^[A-Za-z0-9_.-]*$",
                                   description="MLP activation as the config names it (hidden_act: gelu, "
                                               "relu, gelu_new, silu, relu2 = squared ReLU...); time model: "
                                               "eager single-kernel activations, squared ReLU's two kernels")
    # what the model intake did not read exactly (carried when a plan's embedded architecture stands in for a
    # missing model folder, so the estimate still says so; core/intake.py)
    unrecognised_model_type: str | None = Field(None, max_length=64)
    uncounted_sections: str | None = Field(None, max_length=200)
    context_length: int | None = Field(None, ge=0, le=1 << 31)
    # the vision encoder and projector of a vision-language model (architecture.ModelArch has each field's meaning)
    vision_kind: Literal["", "qwen2_vl", "qwen2_5_vl", "clip", "siglip", "intern_vit"] | None = None
    vision_hidden: int | None = Field(None, ge=0, le=1 << 20)
    vision_layers: int | None = Field(None, ge=0, le=10_000)
    vision_heads: int | None = Field(None, ge=0, le=1 << 16)
    vision_intermediate: int | None = Field(None, ge=0, le=1 << 24)
    vision_gated: bool | None = None
    vision_norm: Literal["layernorm", "rmsnorm"] | None = None
    vision_patch: int | None = Field(None, ge=0, le=1 << 16)
    vision_temporal_patch: int | None = Field(None, ge=1, le=64)
    vision_merge: int | None = Field(None, ge=1, le=64)
    vision_in_chans: int | None = Field(None, ge=1, le=1024)
    vision_image_size: int | None = Field(None, ge=0, le=1 << 20)
    vision_head: bool | None = None
    projector_in: int | None = Field(None, ge=0, le=1 << 26)
    projector_out: int | None = Field(None, ge=0, le=1 << 20)
    projector_bias: bool | None = None
    image_newline: bool | None = None
    vision_qkv_bias: bool | None = None
    vision_qk_norm: bool | None = None
    vision_layer_scale: bool | None = None
    vision_max_tiles: int | None = Field(None, ge=0, le=1024)
    vision_thumbnail: bool | None = None

    @field_validator("hf_config")
    @classmethod
    def _no_nul_in_path(cls, v: str | None) -> str | None:
        """A path that no file system holds (a NUL byte) is refused when the file is read, by the CLI and the
        app alike (issue #32: the app opened such a plan and showed the error only in its estimate); the same
        sentence as the safe reader's path check (io.safe_read.check_path), which checks the rest."""
        if v is not None and "\0" in v:
            text = QT_TRANSLATE_NOOP("SafeRead", "{file}: a file name cannot hold a NUL byte")
            raise ValueError(MsgStr.make("SafeRead", text, file=v.replace("\0", "\\0")[:120]))
        return v


class PreferenceSection(_Section):
    """Preference tuning and the reference model (``training.preference``; DPO/IPO/KTO, and the KL reference
    of PPO/GRPO). ``reference``: ``separate`` a frozen copy of the model in 16-bit; ``lora_base`` the LoRA/QLoRA
    policy's own frozen base with the adapters disabled (TRL: ``ref_model=None`` with a PEFT model);
    ``precomputed`` reference log-probabilities computed once before training (TRL
    ``precompute_ref_log_probs``); ``none`` no reference (ORPO, SimPO, GRPO with ``beta = 0``). null: the
    method's default (core/methods.py)."""

    beta: float = Field(0.1, ge=0, le=100, description="DPO beta / KL coefficient (TRL DPOConfig default 0.1)")
    reference: ReferenceMode | None = Field(None, description="how the reference model is held; null: the "
                                                              "method's default")
    reference_offload: bool = Field(False, description="frozen reference/reward models live in CPU memory and "
                                                       "stream through the GPU (OpenRLHF --ref_reward_offload)")
    reference_grad_buffer: bool = Field(
        False, description="Megatron-SWIFT before ms-swift 3.9 (commit 1b184f296, 2025-09-30): the full-parameter "
                           "reference was built with Megatron's get_model() wrapped in its DDP, which keeps an fp32 "
                           "gradient buffer (main_grad) for every reference parameter; false: ms-swift >= 3.9 "
                           "(wrap_with_ddp=False, requires_grad_(False))")
    rpo_alpha: float | None = Field(
        None, ge=0, le=1000, description="DPO only: the weight of the NLL on the chosen rows (RPO; TRL DPOConfig "
                                         "rpo_alpha, default None = off; ms-swift 3.0-3.7 defaulted to 1.0, ms-swift "
                                         "2.x docs pass 0.1); TRL computes it with its own cross-entropy on the "
                                         "chosen logits (memory.chosen_nll_bytes_per_logit)")


class RlSection(_Section):
    """On-policy RL (``training.rl``; PPO and GRPO): rollouts, the generation engine and the reward."""

    group_size: int = Field(8, gt=0, le=4096, description="completions per prompt (GRPO; TRL num_generations "
                                                           "default 8)")
    rollout_len: int = Field(512, gt=0, le=10_000_000, description="generated tokens per completion (TRL "
                                                                   "max_completion_length default 512)")
    prompt_len: int | None = Field(None, gt=0, le=10_000_000, description="prompt tokens (TRL "
                                   "prompt); null: seq_len − rollout_len")
    generation_engine: GenerationEngine = Field(
        "training", description="who generates the rollouts: the training model itself (HF generate), vLLM on "
                                "the same GPUs, or vLLM on its own share of the GPUs")
    generation_gpu_fraction: float = Field(
        0.3, gt=0, lt=1, description="vllm_colocated: the share of each GPU's memory vLLM reserves "
                                     "(gpu_memory_utilization; TRL colocate default 0.3); vllm_separate: the share "
                                     "of the GPUs that generate")
    engine_sleep: bool = Field(False, description="vllm_colocated: vLLM frees its KV cache and offloads its weights "
                                                  "while the model trains (vLLM sleep mode; verl free_cache_engine)")
    offload_model: bool = Field(
        False, description="vllm_colocated: the training model leaves the GPU while vLLM generates and comes back "
                           "before training: its 16-bit weights (and a reference model's) to pinned CPU memory, its "
                           "gradient buffer freed, its optimizer states to CPU memory unless parallel.offload_optimizer "
                           "keeps them there already (Megatron-SWIFT --offload_model and --offload_optimizer, both "
                           "default false). Megatron-SWIFT only (core/frameworks.RL_OFFLOAD_MODEL_TOOLS)")
    reward: Literal["model", "function"] | None = Field(
        None, description="a reward model (same architecture, frozen, value head) or a rule-based function; "
                          "null: ppo → model, grpo → function")
    mean_response_fraction: float = Field(
        1.0, gt=0, le=1, description="mean completion length as a share of rollout_len (the maximum): the "
                                     "longest completion still sets the generation time, the shorter ones leave "
                                     "the batch early; 1.0: every completion reaches the maximum (time model)")
    response_len_std: float | None = Field(
        None, gt=0, le=10_000_000, description="standard deviation of the completions' lengths in tokens (verl logs "
                                               "response_length/mean, /max, /min): with the mean it sets the "
                                               "expected longest completion, which ends the generation; null: 0.39 "
                                               "× the mean completion (the median of verl's published GSM8K/MATH "
                                               "logs, core/methods.ROLLOUT_LEN_CV)")
    updates_per_generation: int = Field(
        1, ge=1, le=100_000, description="optimizer steps trained on one generation batch (each on global_batch_size "
                                         "sequences): TRL steps_per_generation / gradient accumulation × "
                                         "num_iterations (default 1); verl train_batch_size / ppo_mini_batch_size "
                                         "× ppo_epochs; OpenRLHF rollout_batch_size × n_samples_per_prompt / "
                                         "train_batch_size × max_epochs")
    rollout_tp: int | None = Field(
        None, gt=0, le=1024, description="vLLM's tensor parallelism for the rollouts (one engine per rollout_tp "
                                         "GPUs); null: the training layout's tp. verl rollout "
                                         "tensor_model_parallel_size default 2, TRL vllm_tensor_parallel_size 1")
    critic_padding_free: bool | None = Field(
        None, description="PPO: the critic's value and training passes without padding (verl critic.model."
                          "use_remove_padding, default false: prompt + rollout_len per sequence); null: as the "
                          "policy (training.padding_free / packing)")
    max_num_seqs: int | None = Field(
        None, gt=0, le=1_000_000, description="vLLM: the most sequences decoding at once per engine (max_num_seqs); "
                                              "the rest queue. null: vLLM's default (1024 on GPUs of 70 GiB or more "
                                              "except A100, else 256); verl sets 256, TRL every rollout of the batch")
    prompt_pad_len: int | None = Field(
        None, gt=0, le=10_000_000, description="training rows that are not padding-free (and verl's padded "
                                              "critic): every prompt padded to this length. verl pads to "
                                              "data.max_prompt_length; null: prompt_len (TRL pads to the batch's "
                                              "longest prompt)")
    enforce_eager: bool = Field(
        False, description="vLLM runs the model eagerly, without CUDA graphs (enforce_eager): each decode step "
                            "waits for Python to launch its kernels. vLLM and TRL default false; verl's rollout "
                            "config set true until August 2025 (verl PR #2956), false since")
    sleep_level: Literal[1, 2] = Field(
        2, description="engine_sleep: vLLM sleep level. 1 copies vLLM's weights to CPU memory and back every "
                       "generation (verl with vLLM < 0.8.5); 2 drops them, the weight refit rewrites them (TRL; "
                       "verl with vLLM >= 0.8.5)")
    hybrid_engine: bool = Field(
        False, description="generation_engine training on DeepSpeed: DeepSpeed-Chat's Hybrid Engine "
                           "(--enable_hybrid_engine; DeepSpeed config hybrid_engine.enabled, default false) decodes "
                           "through DeepSpeed-Inference's fused kernels (14 a decoder layer) instead of the model's "
                           "own forward (time model)")
    schedule: Literal["on_policy", "one_step_off", "async"] = Field(
        "on_policy", description="on_policy: generate, then train on those rollouts (TRL GRPOTrainer, verl and "
                                 "OpenRLHF defaults); one_step_off: vLLM on its own GPUs generates the next "
                                 "batch while the current one trains (verl recipe one_step_off_policy, OpenRLHF "
                                 "--async_train); async: vLLM on its own GPUs keeps steps_in_flight generation "
                                 "batches in flight, streamed to the learners through a queue (open-instruct "
                                 "grpo_fast async_steps, NeMo RL async_grpo max_trajectory_age_steps, verl "
                                 "fully_async_policy, AReaL max_head_offpolicyness); both need generation_engine "
                                 "vllm_separate")
    steps_in_flight: int = Field(
        1, ge=1, le=64, description="schedule async: generation batches in flight at once, i.e. how many training "
                                    "steps old a rollout may be (time model: the engines decode that many steps' "
                                    "rollouts together, the learners take whole groups as they finish, and a "
                                    "group's longest completion ends the window once; one_step_off waits for the "
                                    "batch's longest). 1 (default). Tools' defaults: open-instruct async_steps 8 "
                                    "(StreamingDataLoaderConfig, e6c3044a); NeMo RL max_trajectory_age_steps 1 "
                                    "(its async GRPO examples); OpenRLHF --async_train and verl one_step_off: 1")
    regeneration_share: float = Field(
        0.0, ge=0, lt=1, description="share of the generated groups thrown away and generated again because every "
                                     "completion of the group got the same reward (open-instruct active_sampling "
                                     "with filter_zero_std_samples; DAPO dynamic sampling, verl algorithm."
                                     "filter_groups): generation does 1 / (1 − share) times the kept rollouts. "
                                     "0 (default): nothing regenerated. Tools do not publish it; it is a run's "
                                     "property (data, model, step), not a tool constant")


class TrainingSection(_Section):
    method: Method = "full"
    objective: Objective = Field("sft", description="next-token loss (sft: pretraining or supervised "
                                                    "fine-tuning), preference tuning, reward model or RL")
    preference: PreferenceSection = Field(default_factory=PreferenceSection)
    rl: RlSection = Field(default_factory=RlSection)
    precision: Precision = "bf16"
    optimizer: Optimizer = "adamw"
    optimizer_implementation: Literal["fused", "foreach"] | None = Field(
        None, description="AdamW's implementation (torch.optim: fused=True or foreach=True): foreach runs eight "
                          "multi-tensor passes over the fp32 shard, fused one kernel (time model). None: the tool's "
                          "default, fused (torchtitan since 6e4988550, Feb 2025: optimizer.implementation 'fused'; "
                          "Megatron/DeepSpeed fused Adam); torchtitan before it ran foreach; verl (RL on fsdp) builds "
                          "torch.optim.AdamW without fused: the eight passes (foreach, or FSDP1's single-tensor "
                          "loop, the same bytes). Memory: foreach also holds a list of square roots the size of the "
                          "second moments through the step (memory.adamw_foreach_step_bytes; FSDP1's flat parameters: "
                          "one layer's at a time; DeepSpeed: the HF Trainer's own AdamW when the DeepSpeed config has no "
                          "optimizer block; not Megatron), so a Hugging Face Trainer run before transformers' fused "
                          "default (torch >= 2.8) states foreach")
    framework: Framework = "hf"
    master_weights: bool = Field(True, description="fp32 master weights/optimizer states (false: pure 16-bit, torchtune-style)")
    optimizer_in_backward: bool = Field(False, description="step each parameter during backward and free its gradient (torchtune)")
    activation_offload: bool = Field(False, description="offload saved activations to CPU memory (torchtune)")
    chunked_loss: bool = Field(False, description="chunked cross-entropy: logits in chunks, not all at once")
    logits_held: bool = Field(
        False, description="the training loop still references the fp32 logits during the backward pass (prime-rl's "
                           "SFT trainer before 447cafede, March 2026: its output dict keeps them after del logits); "
                           "memory model, eager unchunked cross-entropy only; with use_cache the model's output "
                           "keeps its key/value cache too (llama-recipes before July 2023: outputs = model(**batch)). "
                           "False: the HF Trainer, torchtitan")
    use_cache: bool = Field(
        False, description="the model's forward builds and returns its key/value cache while training (transformers' "
                           "use_cache, the model config's default, kept by a loop that checkpoints the layers itself: "
                           "llama-recipes before #165, September 2023); the checkpointed layers' K and V live until "
                           "the loss (memory model, Hugging Face modelling code). False: the HF Trainer (transformers' "
                           "gradient_checkpointing_enable turns it off), torchtitan")
    torch_compile: bool = Field(False, description="torch.compile or fused kernels: element-wise ops fused (time "
                                                   "model); with chunked_loss, torchtune's compiled loss keeps "
                                                   "only the 16-bit logits (memory model)")
    compile_loss: bool | None = Field(
        None, description="with torch_compile, compile the cross-entropy with the model (torchtitan "
                          "compile.components, default [\"model\", \"loss\"]; since April 2025): the compiled loss "
                          "keeps the 16-bit logits only (memory model); None: the tool's default, on for torchtitan "
                          "(framework fsdp, FSDP2), off elsewhere; no effect without torch_compile")
    fsdp_root_embedding: bool = Field(
        False, description="framework fsdp (torchtitan, FSDP2): the token embedding shares the root FSDP unit with "
                           "the final norm and output layer (torchtitan before 83e694105, July 2025: apply_fsdp "
                           "wrapped the blocks only); FSDP2 never reshards the root after forward, so the embedding "
                           "and output stay gathered, and the output's 16-bit gradient waits for the root's "
                           "reduce-scatter, until the end of backward (memory model). False: torchtitan since July "
                           "2025 (the embedding its own unit, resharded after forward)")
    fsdp_no_sync: bool | None = Field(
        None, description="FSDP with gradient accumulation: every micro-batch but the last of a step runs with gradient "
                          "sync off (FSDP1 no_sync(), FSDP2 set_requires_gradient_sync(False)), so each rank "
                          "accumulates the UNSHARDED gradients of its trainable FSDP units until the sync (memory "
                          "model: torch FSDP no_sync docs; Accelerate gradient_synchronization.md 'no_sync requires "
                          "additional GPU memory when using FSDP'). None: the tool's default, on for the Hugging Face "
                          "Trainer stack on FSDP1 (framework hf or a tool on it, fsdp_version 1: transformers' "
                          "training loop calls accelerator.no_sync on all micro-batches but the last, except under "
                          "DeepSpeed), off elsewhere (torchtitan, torchtune, Composer sync every micro-batch). Lightning "
                          "Fabric's no_backward_sync (LitGPT) is the same switch: set it on")
    fsdp_lora_mixed_units: bool = Field(
        False, description="method lora under FSDP1 with use_orig_params=True and the adapters inside their block's "
                           "FSDP unit (Lightning Fabric 2.x with LitGPT, Composer/llm-foundry): the block's flat "
                           "parameter requires grad as a whole, so every block parameter gets a gradient (sharded; "
                           "unsharded under fsdp_no_sync) (memory model: core/memory.fsdp_lora_unit_params). False "
                           "(default): the adapters are units of their own (PEFT's fsdp_auto_wrap_policy under "
                           "Accelerate, torchtune's LoRA wrap policy, verl) or FSDP2 (per-parameter sharding)")
    fsdp2_fp32_upcast: bool = Field(
        False, description="method lora on FSDP2 through Accelerate before 1.13 (accelerate <= 1.12, 2025-11-21): "
                           "fsdp2_prepare_model casts the whole model, the frozen base included, to fp32 when "
                           "mixed_precision is not 'no' (model.to(torch.float32); from 1.13 only the parameters "
                           "that require grad, accelerate d1c96ba9 / #3848), so each rank's shard of the frozen base "
                           "holds 4 bytes a parameter; the gathered compute copy stays in the MixedPrecisionPolicy's "
                           "16-bit param_dtype (memory model). False (default): torchtitan, torchtune and "
                           "Accelerate 1.13 on keep the frozen base in its 16-bit dtype")
    mixed_precision_off: bool = Field(
        False, description="method lora on the Hugging Face stack without DeepSpeed (one GPU or DDP at zero 0, or "
                           "Accelerate's FSDP1: fsdp_version 1, zero 2/3) run without mixed precision: no --bf16/"
                           "--fp16 for the Trainer, the model loaded in 16 bits (torch_dtype), as fms-hf-tuning's runs "
                           "with only torch_dtype bfloat16. No autocast: PEFT's fp32 adapters (get_peft_model "
                           "autocast_adapter_dtype=True) run entirely in fp32 and their fp32 output is added to the "
                           "16-bit base output before the cast back (core/flops.LORA_NO_AUTOCAST_OUT); under FSDP1 "
                           "Accelerate's mixed_precision stays 'no' (transformers TrainingArguments.__post_init__ "
                           "writes ACCELERATE_MIXED_PRECISION only for bf16/fp16; accelerate state.py calls "
                           "fsdp_plugin.set_mixed_precision only when it is not 'no'), so FSDP casts no unit and each "
                           "adapted linear casts its input to fp32 (core/flops.LORA_AUTOCAST_IN). False (default): "
                           "--bf16/--fp16")
    qlora_no_upcast: bool = Field(
        False, description="method qlora on a tool whose loader calls PEFT's prepare_model_for_kbit_training and "
                           "keeps its casts (hf, trl), run without its fp32 cast of the parameters that are not 4-bit "
                           "(norms, embeddings, output layer): fms-acceleration's accelerated-peft bitsandbytes plugin "
                           "(its own _prepare_model_for_kbit_training). The norms, residual stream and adapters' "
                           "inputs stay in the 16-bit compute dtype (frameworks.kbit_upcast_applies; Axolotl casts "
                           "them back by itself). False (default): the tool's own preparation")
    paged_optimizer: bool = Field(False, description="bitsandbytes paged optimizer (PagedAdamW, PagedAdamW8bit): "
                                                     "states in CUDA unified memory, outside PyTorch's allocator "
                                                     "(not in allocated/reserved figures)")
    liger_kernel: bool = Field(False, description="Liger Kernel (HF TrainingArguments/TRL use_liger_kernel, "
                                                  "LLaMA-Factory enable_liger_kernel, ms-swift use_liger_kernel; "
                                                  "default False): fused linear cross-entropy (no logits tensor) "
                                                  "and fused RMSNorm/RoPE/SwiGLU kernels on Hugging Face models")
    cut_cross_entropy: bool = Field(
        True, description="Unsloth only: Cut Cross-Entropy (Unsloth since November 2024, commit fa8e59e, with the "
                          "cut_cross_entropy package; default on): no logits tensor. False: the Unsloth before it "
                          "(Fast_CrossEntropyLoss saves the 16-bit logits and the HF Trainer's Accelerate copies them to "
                          "fp32)")
    fused_cross_entropy: bool | None = Field(
        None, description="Megatron-Core's fused vocab-parallel cross-entropy (Megatron-LM --cross-entropy-loss-fusion, "
                          "cross_entropy_loss_fusion). Null: the tool's default: off in Megatron-LM (a store_true "
                          "flag), on in NeMo / Megatron-Bridge (GPTModelProvider) and Megatron-SWIFT. Megatron tools "
                          "only (core/frameworks.fused_cross_entropy_of)")
    gpt_j_residual: bool = Field(
        False, description="GPT-NeoX only: its gpt-j-residual config switch (attention and MLP side by side on the "
                           "layer input, one tensor-parallel all-reduce after their sum: megatron/model/transformer.py "
                           "ParallelTransformerLayer.forward). GPT-NeoX's default: off (neox_args.py); the Pythia "
                           "and GPT-NeoX-20B configs set it")
    seq_len: int = Field(2048, gt=0, le=10_000_000)
    micro_batch_size: int = Field(1, gt=0, le=100_000)
    global_batch_size: int | None = Field(None, gt=0, le=1_000_000_000)
    recompute: Recompute = Field("none", description="activation recomputation policy: none, megatron_selective "
                                 "(attention core; 'selective' is its alias), full, op_sac (torchtitan per-op "
                                 "SAC), layer_sac (torchtitan before 114151ad4, 2026-03-23: every N-th layer). "
                                 "Unset: the tool's default (torchtitan full training: op_sac; LLaMA-Factory, "
                                 "TRL, ms-swift, Unsloth: full; Megatron-SWIFT: megatron_selective; else none)")
    recompute_every_n: int = Field(2, ge=1, le=10_000, description="layer_sac: checkpoint every N-th layer "
                                                                   "(torchtitan selective_ac_option)")
    recompute_num_layers: int | None = Field(None, ge=1, le=10_000, description="full: layers recomputed per "
                                             "pipeline stage (Megatron --recompute-num-layers); null: all")
    recompute_method: Literal["uniform", "block"] = Field(
        "uniform", description="full with recompute_num_layers: Megatron --recompute-method")
    recompute_modules: list[RecomputeModule] | None = Field(
        None, max_length=len(get_args(RecomputeModule)), description="megatron_selective: the submodules Megatron-Core re-runs in backward "
                          "(--recompute-modules; Megatron-LM transformer_config.py recompute_modules): core_attn "
                          "(the attention core), layernorm (the norms not fused into a linear), moe_act (the experts' "
                          "activation), mla_up_proj (MLA's up projections and RoPE), mlp (dense MLP layers), moe (the "
                          "whole MoE layer, dispatch included), shared_experts; null: Megatron's default [core_attn]. "
                          "Megatron only")
    checkpoint_reentrant: bool | None = Field(
        None, description="torch.utils.checkpoint's use_reentrant for whole-layer recompute (HF "
                          "gradient_checkpointing_kwargs, LLaMA-Factory use_reentrant_gc); null: the tool's default "
                          "(core/frameworks.checkpoint_nonreentrant): false for transformers >= 5 and TRL, true for "
                          "LLaMA-Factory and Axolotl SFT; Megatron and Unsloth run their own checkpoint function")
    checkpoint_early_stop: bool | None = Field(
        None, description="non-reentrant torch.utils.checkpoint stops the recompute forward once the backward's tensors "
                          "are re-made, so a layer's last GEMM (the MLP's output linear) is not re-run "
                          "(torch.utils.checkpoint.set_checkpoint_early_stop; torchtitan activation_checkpoint."
                          "early_stop); null: the tool's default (core/frameworks.checkpoint_early_stop_default): off for "
                          "torchtitan (framework fsdp, FSDP2, full training or pretraining, no preference/RL objective: "
                          "early_stop=False since 25413d224, August 2025), else PyTorch's, on since 2.1 (state false "
                          "for PyTorch 1.13/2.0, true for torchtitan before August 2025). No effect under "
                          "torch_compile (AOTAutograd re-runs only what the backward reads) or with a reentrant "
                          "checkpoint "
                          "(core/timing.CKPT_EARLY_STOP_SKIPS)")

    empty_cache_steps: int | None = Field(
        None, ge=1, le=1_000_000,
        description="the loop calls torch.cuda.empty_cache() every N optimizer steps (Hugging Face TrainingArguments "
                    "torch_empty_cache_steps; default null: never); with samples of varying length the loss segments "
                    "cached beside the longest batch are then an ordinary batch's (core/memory.varlen_record_fraction)")
    legacy_bnb_4bit: bool = Field(
        False, description="method qlora: bitsandbytes older than 0.43.2 (before 2024-07-23), whose 4-bit linears keep "
                           "their input on the autograd context (MatMul4Bit ctx.tensors), which non-reentrant "
                           "checkpointing does not free (core/memory.bnb_kept_input_bytes)")
    bnb_fp16_storage: bool = Field(
        False, description="method qlora, bf16: the 4-bit model was loaded without torch_dtype, so transformers keeps "
                           "its unquantised layers (embeddings, norms, LM head) in fp16 while training runs bf16 "
                           "autocast (ms-swift v1 with Qwen-1 before 2024-01-06; "
                           "core/memory.bnb_fp16_storage_kept_bytes); false: they are stored in the compute dtype")
    fp8_recipe: Literal["te_delayed", "te_current", "te_mxfp8", "torchao_tensorwise", "torchao_rowwise"] | None = Field(
        None, description="precision fp8: Transformer Engine delayed/current scaling or MXFP8 block scaling "
                          "(Blackwell), or torchao float8 tensorwise/rowwise (core/fp8.py); null: the framework's "
                          "default")
    fp8_all_gather: bool | None = Field(
        None, description="FSDP2 with torchao tensorwise FP8: all-gather weights in FP8 "
                          "(enable_fsdp_float8_all_gather); Megatron with a Transformer Engine recipe: "
                          "--fp8-param-gather (weights kept in FP8, gathered in FP8; Megatron-Bridge's FP8 "
                          "presets turn it on); null: off, the frameworks' default")

    @model_validator(mode="after")
    def _empty_cache_needs_the_trainer(self) -> "TrainingSection":
        """``empty_cache_steps`` is the HF Trainer's option (:func:`_check_empty_cache`)."""
        _check_empty_cache(self)
        return self

    @model_validator(mode="after")
    def _attn_implementation_needs_flash(self) -> "TrainingSection":
        """``flash_attention_2`` is the flash-attn package: it cannot run with flash attention off."""
        if self.attn_implementation == "flash_attention_2" and not self.flash_attention:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "training.attn_implementation=flash_attention_2 needs training.flash_attention on")))
        return self

    @model_validator(mode="after")
    def _reference_grad_buffer_tool(self) -> "TrainingSection":
        """``preference.reference_grad_buffer``: Megatron-SWIFT's full-parameter reference only."""
        _check_reference_grad_buffer(self)
        _check_rpo_alpha(self)
        return self

    @model_validator(mode="before")
    @classmethod
    def _fp8_precision_names(cls, data: Any) -> Any:
        """``precision: fp8_te_delayed | fp8_te_current | fp8_tensorwise | fp8_rowwise`` is ``fp8`` with that
        recipe (core/fp8.py); a recipe given both ways must agree."""
        if isinstance(data, dict) and isinstance(data.get("precision"), str) and \
                data["precision"] in FP8_PRECISION_ALIASES:
            recipe = FP8_PRECISION_ALIASES[data["precision"]]
            if data.get("fp8_recipe") not in (None, recipe):
                raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                    CTX, "precision {precision} names the {recipe} recipe, fp8_recipe says {given}"),
                    precision=data["precision"], recipe=recipe, given=data["fp8_recipe"]))
            data = {**data, "precision": "fp8", "fp8_recipe": recipe}
        return data

    @field_validator("recompute_modules", mode="before")
    @classmethod
    def _recompute_modules_once(cls, v: Any) -> Any:
        """Each module once, in the order given: Megatron-Core reads the list as a set (``transformer_config.py``
        checks ``set(self.recompute_modules)``; ``core/recompute.module_terms`` too), so a repeated name means
        nothing more; the plan table, the PDF and the Training page name each module once (probe13: 40,000
        repeats printed a 540,000-character table line). Whatever is not a name goes on to the field's checks."""
        if isinstance(v, list) and all(isinstance(x, str) for x in v):
            return list(dict.fromkeys(v))
        return v

    @field_validator("recompute", mode="before")
    @classmethod
    def _recompute_alias(cls, v: Any) -> Any:
        """``selective`` (the name before the policies were split) is Megatron's attention-core policy, the
        meaning it always had: read as ``megatron_selective`` (core/recompute.py)."""
        return RECOMPUTE_ALIASES.get(v, v) if isinstance(v, str) else v
    flash_attention: bool = True
    attention_kernel: Literal["auto", "flash1", "flash2", "cudnn"] = Field(
        "auto", description="fused attention kernel (time model): flash1 (FlashAttention-1, flash-attn 0.x/1.x), flash2 (FlashAttention-2, PyTorch SDPA's flash "
                            "backend), cudnn (cuDNN fused attention / Transformer Engine / FlashAttention-3); "
                            "auto: the framework's default (core/timing.attention_kernel)")
    attn_implementation: Literal["sdpa", "flash_attention_2"] = Field(
        "sdpa", description="Hugging Face stack with flash_attention on: Transformers' attn_implementation (default "
                            "sdpa since v4.36). sdpa takes PyTorch's flash kernel only when no token is padded; a "
                            "padded batch (micro_batch_size > 1, data.mean_sample_len below seq_len, no packing or "
                            "padding_free) passes a mask and runs the memory-efficient kernel over the whole square "
                            "(cuDNN's with attention_kernel cudnn; time model: core/timing.hf_sdpa_masked_core). "
                            "flash_attention_2: the flash-attn package")
    fsdp_version: Literal[1, 2] = Field(
        2, description="framework fsdp: PyTorch FSDP2 (fully_shard: torchtitan, torchtune) or FSDP1 "
                       "(FullyShardedDataParallel with flat parameters: Composer/llm-foundry, Accelerate); FSDP2 "
                       "copies parameters and gradients in and out around each collective (time model). The "
                       "Hugging Face stack (framework hf and the tools on it) at ZeRO 2/3: 1 runs Accelerate's "
                       "FSDP1 plugin, 2 (default) DeepSpeed ZeRO, for the memory and the time model alike "
                       "(core/frameworks.hf_sharded_by_fsdp)")
    pipeline_microbatch_size: int | None = Field(
        None, gt=0, le=65536,
        description="framework fsdp (torchtitan) with pipeline parallelism: the pipeline's micro-batch "
                    "(parallelism.pipeline_parallel_microbatch_size); each rank's batch (micro_batch_size × "
                    "accumulation) is split into micro-batches of this many sequences; None: torchtitan's default, "
                    "1. Megatron and DeepSpeed pipelines run micro_batch_size itself (core/frameworks.pipeline_split)")
    # sequence packing and padding-free batches (TRL SFTConfig ``packing`` and ``padding_free``, both default False;
    # transformers DataCollatorWithFlattening): how samples shorter than seq_len fill a micro-batch
    # (core/flops.sample_shape; data.mean_sample_len sets the real sample length)
    packing: bool = Field(False, description="pack several samples into each seq_len row (TRL SFTConfig packing, "
                                             "default False; with flash attention each sample attends only to "
                                             "itself: TRL's bfd strategy passes per-sample position_ids)")
    padding_free: bool = Field(False, description="flatten each micro-batch's samples into one row without padding "
                                                  "(TRL SFTConfig padding_free, default False; transformers "
                                                  "DataCollatorWithFlattening): the real tokens set activations "
                                                  "and attention (memory at the mean flattened batch; a run's "
                                                  "longest batch, up to micro_batch_size × seq_len, needs more)")
    pad_to_seq_len: bool = Field(False, description="pad every sample to seq_len, not to the longest of its "
                                                    "micro-batch (Axolotl pad_to_sequence_len: true, its default "
                                                    "with sample_packing; transformers padding='max_length'). "
                                                    "Default False: the collators of transformers, TRL, ms-swift, "
                                                    "LLaMA-Factory and Axolotl pad to the batch's longest "
                                                    "(core/timing.padded_batch_rows)")
    lora_rank: int = Field(16, gt=0, le=65536)
    lora_targets: LoraTargets = "all_linear"
    lora_dropout: float | None = Field(
        None, ge=0.0, lt=1.0, description="LoRA dropout on the adapters' input (PEFT LoraConfig.lora_dropout); "
                                          "not given (None): the tool's own default, frameworks.lora_dropout_of "
                                          "(PEFT's 0.0: nn.Identity; ms-swift's and Megatron-SWIFT's 0.05); above 0 "
                                          "it adds a dropout pass per adapted "
                                          "linear (time model) and keeps each adapted linear's own dropped input "
                                          "and mask for backward (memory.lora_dropout_bytes_per_token)")
    lora_a2a: bool = Field(False, description="Megatron-Bridge LoRA(a2a_experimental=...) (default False; NeMo's "
                                              "lora_tuning.a2a_experimental, the MLPerf configs' LORA_A2A=1): the "
                                              "row-parallel adapters move their output to the sequence shard with "
                                              "an all-to-all instead of an all-gather (timing.bridge_lora_sp_gathers); "
                                              "other tools ignore it")
    dora: bool = Field(False, description="DoRA (Liu et al. 2024, arXiv:2402.09353): PEFT LoraConfig use_dora, "
                                          "LLaMA-Factory use_dora, ms-swift --use_dora (default False). PEFT's "
                                          "DoraLinearLayer recomputes each adapted weight's norm every forward "
                                          "(timing.dora_weight_bytes)")
    lora_layer: LoraLayer = Field(
        "peft", description="the LoRA linear's implementation (time model, core/flops.LORA_LAYERS): peft (PEFT and "
                            "torchtune: the scaling multiplies the adapter's full-width output; the default), "
                            "automodel (NeMo AutoModel LinearLoRA: scaling on the rank-wide product, dropout on the "
                            "adapter's output, dropout_position 'post'), automodel_triton (its TritonLinearLoRA, "
                            "PeftConfig use_triton: true without Transformer Engine installed), litgpt (LitGPT before "
                            "v0.3.1: LoRAQKVLinear rebuilds its q/k/v index tensor from a Python list every forward, "
                            "timing.LITGPT_LORA_INDEX_S). LoRA/QLoRA on the Hugging Face engines only "
                            "(flops.automodel_lora_elements)")
    # vision-language models (ignored for text models). LLaMA-Factory freezes both by default
    # (finetuning_args.py: freeze_vision_tower=True, freeze_multi_modal_projector=True; ms-swift: freeze_vit,
    # freeze_aligner); LoRA/QLoRA adapt the language model only
    freeze_vision: bool = Field(True, description="vision-language models: the vision encoder stays frozen")
    freeze_projector: bool = Field(True, description="vision-language models: the projector/merger stays frozen")
    # Communication overlap (time model). None = what the framework does by default
    # (core/overlap.overlap_flags documents each default and its source).
    overlap_grad_reduce: bool | None = Field(
        None, description="reduce gradients during the backward pass (Megatron --overlap-grad-reduce, DDP "
                          "buckets, FSDP2 reduce-scatter stream, DeepSpeed overlap_comm); null: framework default")
    overlap_param_gather: bool | None = Field(
        None, description="all-gather sharded weights under compute (Megatron --overlap-param-gather, FSDP2 "
                          "prefetch, DeepSpeed ZeRO-3 prefetch); null: framework default")
    tp_comm_overlap: bool | None = Field(
        None, description="overlap tensor-parallel collectives with the GEMMs (Megatron/TE --tp-comm-overlap, "
                          "torchtitan async TP; needs sequence parallelism); null: framework default")
    tp_comm_overlap_disable_qkv: bool = Field(
        False, description="Megatron-Core TransformerConfig.tp_comm_overlap_disable_qkv (default False; NeMo 2 LoRA "
                           "recipes and the MLPerf llama2_70b_lora configs set True): linear_qkv's all-gather and "
                           "dgrad reduce-scatter run without TE userbuffers overlap (timing.qkv_overlap_lost); "
                           "only with tp_comm_overlap")
    overlap_p2p_comm: bool | None = Field(
        None, description="overlap pipeline send/receive with compute (Megatron interleaved schedule); "
                          "null: framework default")
    ds_zero3_gather: Literal["flat", "list"] = Field(
        "flat", description="DeepSpeed ZeRO-3's collectives: 'flat' (v0.5.5 and later, PR #1188: one flat all-gather "
                            "per module fetch) or 'list' (v0.3.13-v0.5.4: one torch.distributed.all_gather per "
                            "parameter into per-rank views after a device sync, gradients reduce-scattered per "
                            "parameter from per-rank views; nothing overlaps)")
    ds_config_auto: bool | None = Field(
        None, description="DeepSpeed's hidden-size keys (reduce_bucket_size, stage3_prefetch_bucket_size, "
                          "stage3_param_persistence_threshold) written 'auto' and filled by Transformers or "
                          "Accelerate (hidden², 0.9·hidden², 10·hidden); false: DeepSpeed's own defaults (5e8, 5e7, "
                          "1e5); null: the framework's default (DeepSpeed alone: its own; the Hugging Face-based "
                          "tools: auto)")
    ds_bf16_grad_accum: bool | None = Field(
        None, description="DeepSpeed's BF16 optimizer (bf16 with ZeRO stage 0: Megatron-DeepSpeed, GPT-NeoX): after "
                          "each micro-batch's backward its bf16 gradients are added into fp32 copies by a separate "
                          "pass (timing.DS_BF16_HP_GRAD_BYTES); false: accumulated inside the weight-gradient GEMM "
                          "or in 16 bits (Megatron-LM / Megatron-Core); null: the framework's default (on for "
                          "DeepSpeed and GPT-NeoX in bf16 with ZeRO 0, off otherwise)")


class ParallelSection(_Section):
    tp: int = Field(1, gt=0, le=1_000_000)
    pp: int = Field(1, gt=0, le=100_000)
    cp: int = Field(1, gt=0, le=1_000_000)
    ep: int = Field(1, gt=0, le=1_000_000)
    expert_tp: int | None = Field(
        None, gt=0, le=1024, description="tensor parallelism inside each routed expert (Megatron-Core "
                                         "--expert-tensor-parallel-size); null: the framework's default — Megatron "
                                         "the tp degree, others 1 (each GPU holds whole experts)")
    vpp: int = Field(1, gt=0, le=1024, description="virtual pipeline stages per GPU (interleaved schedule)")
    moe_dispatcher: Literal["alltoall", "allgather", "flex"] | None = Field(
        None, description="Megatron-Core's MoE token dispatcher (--moe-token-dispatcher-type): 'alltoall' (each "
                          "routed copy to its expert's GPU), 'allgather' (every GPU gathers the group's tokens) or "
                          "'flex' (DeepEP / HybridEP kernels: a token crosses the network once per remote node, then "
                          "NVLink); null: 'alltoall', as Megatron-Bridge's model providers set it (Megatron-LM's bare "
                          "command line defaults to 'allgather'). Megatron only")
    pp_account_embedding_loss: bool = Field(
        False, description="Megatron-Core --account-for-embedding-in-pipeline-split and "
                           "--account-for-loss-in-pipeline-split (both): the pipeline split counts the embedding and "
                           "the output layer as one decoder layer each, so the first and last stages hold one layer "
                           "fewer; false (Megatron's default): the decoder layers are split evenly and the last stage "
                           "also runs the output layer. Megatron only")
    cuda_graph_scope: Literal["attn", "moe_router", "attn_moe_router", "layer"] | None = Field(
        None, description="Megatron-Core per-layer CUDA graphs (--cuda-graph-impl transformer_engine with "
                          "--cuda-graph-scope): 'attn' (the attention block), 'moe_router' (the pre-MLP norm, the "
                          "router and the dispatcher's preprocess: moe_router + moe_preprocess) or 'attn_moe_router' "
                          "(both) or 'layer' (the whole layer, the experts included: for an MoE model only with "
                          "moe_pad_to_capacity); the captured kernels replay as one graph instead of being issued one "
                          "by one; null "
                          "(Megatron's default cuda_graph_impl 'none'): no graphs. Megatron only")
    moe_capacity_factor: float | None = Field(
        None, gt=0, le=1000, description="Megatron-Core --moe-expert-capacity-factor: each expert takes at most "
                                         "factor × its even share of the routed tokens, the rest are dropped; null "
                                         "(Megatron's default): dropless. Megatron only")
    ep_a2a_overlap: bool = Field(
        False, description="Megatron-Core --overlap-moe-expert-parallel-comm with --delay-wgrad-compute "
                           "(Megatron-Bridge comm_overlap moe_a2a_overlap): one micro-batch's layer forward runs "
                           "beside another's layer backward, so each expert all-to-all hides under the other's "
                           "attention or expert GEMMs; needs expert parallelism (ep > 1), the alltoall or flex "
                           "dispatcher, no full recompute, no 'moe' in recompute_modules and, with a pipeline, the "
                           "interleaved schedule (vpp > 1). False (Megatron's default): off. Megatron only")
    moe_pad_to_capacity: bool = Field(
        False, description="Megatron-Core --moe-pad-expert-input-to-capacity: every expert's input is padded to its "
                           "capacity, so the shapes are fixed and the dispatcher never waits for the token counts; "
                           "needs moe_capacity_factor (Megatron's default: off). Megatron only")
    zero: int = Field(0, ge=0, le=3)
    sequence_parallel: bool = False
    offload_optimizer: bool = False
    offload_params: bool = Field(False, description="ZeRO-3/FSDP CPU offload of parameters and gradients too")
    auto: bool = Field(False, description="let the plan search choose the layout")


#: the generations the time model knows (``timing.GEN_EFFICIENCY``), for ``CustomGpu.architecture``
CustomGpuArchitecture = Literal["volta", "ampere", "ada", "hopper", "blackwell", "blackwell-consumer", "cdna2",
                                "cdna3"]


#: GPUs a user enters (the Hardware page's "Add GPU"): each is a search candidate and a line of the plan's "skipped"
#: list, so 5,000 of them printed 348,000 characters for one ``gpuplanner plan`` (probe14)
MAX_CUSTOM_GPUS = 100


class CustomGpu(_Section):
    """An accelerator the catalog lacks (or a variant with other figures), entered by the user.

    Its figures are the user's; nothing is filled in. ``id`` must start with ``custom-``.
    """

    id: str = Field(pattern=r"^custom-[a-z0-9][a-z0-9._-]*$", max_length=80)
    name: str = Field(min_length=1, max_length=120)
    memory_gib: float = Field(gt=0, le=10_000)
    bf16_tflops: float | None = Field(None, gt=0, le=1e6)
    fp8_tflops: float | None = Field(None, gt=0, le=1e6)
    mem_bw_tbs: float | None = Field(None, gt=0, le=1000)
    tdp_w: float | None = Field(None, gt=0, le=100_000)
    intra_node_link: Literal["nvlink", "pcie"] = "pcie"
    intra_node_bw_gbs: float | None = Field(None, gt=0, le=100_000)
    gpus_per_node: int = Field(8, gt=0, le=64)
    architecture: CustomGpuArchitecture | None = Field(
        None, description="the architecture generation of a variant of a known card (e.g. hopper for an H100 with "
                          "other memory, clocks or power limit): the time model then uses that generation's "
                          "matmul efficiency, attention kernels, FP8 recipes and fabric defaults; null: none "
                          "assumed (a cautious generic efficiency)")


class HardwareSection(_Section):
    gpu: str = Field("h100-sxm-80gb", max_length=200)
    num_gpus: int = Field(1, gt=0, le=1_000_000)
    gpus_per_node: int = Field(8, gt=0, le=64)
    inter_node: str | None = Field(None, max_length=200, description="network id from the catalog, e.g. ib-ndr-400")
    nics_per_node: int | None = Field(None, gt=0, le=64)
    intra_node: Literal["nvlink", "pcie"] | None = Field(None, description="override the GPU's link")
    custom_gpus: list[CustomGpu] = Field(default_factory=list, max_length=MAX_CUSTOM_GPUS,
                                         description="GPUs entered by the user")
    host_ram_gib: float | None = Field(None, gt=0, le=1_000_000, description="CPU memory per node (GiB), checked "
                                                                            "against what CPU offload needs")

    @field_validator("custom_gpus")
    @classmethod
    def _custom_ids_once(cls, v: list) -> list:
        """Each custom GPU id once: the plan, the prices and the candidates name a GPU by its id, so a second GPU
        under the same id was hidden by the first (probe14)."""
        seen: set[str] = set()
        for g in v:
            if g.id in seen:
                raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "custom GPU id {id} is given twice"), id=g.id))
            seen.add(g.id)
        return v


class DataSection(_Section):
    tokens: float = Field(1e9, ge=0, le=1e18)
    # vision-language models (ignored for text models): seq_len counts the image tokens, as LLaMA-Factory's
    # cutoff_len does
    mean_sample_len: int | None = Field(
        None, gt=0, le=10_000_000,
        description="mean tokens per training sample (prompt + completion); null: every sample fills seq_len "
                    "(pretraining documents cut to the context). Shorter samples are padded to seq_len unless "
                    "training.packing or training.padding_free is on (core/flops.sample_shape)")
    sample_len_std: float | None = Field(
        None, ge=0, le=10_000_000,
        description="standard deviation of tokens per training sample (ms-swift's dataset table gives mean±std); "
                    "a padded batch of several samples is padded to its expected longest sample (core/flops."
                    "expected_longest); null: 0.46 × mean_sample_len, the median spread of ms-swift's published "
                    "dataset statistics. Needs data.mean_sample_len")
    images_per_sample: float = Field(1.0, ge=0, le=10_000, description="images per training sequence")
    image_resolution: int = Field(448, gt=0, le=100_000, description="image side in pixels for encoders with "
                                                                     "dynamic resolution (Qwen2-VL); CLIP/SigLIP "
                                                                     "use their fixed image_size")

    @field_validator("tokens", mode="before")
    @classmethod
    def _parse_tokens(cls, v: Any) -> float:
        return parse_count(v)

    @model_validator(mode="after")
    def _check_spread(self) -> "DataSection":
        if self.sample_len_std is not None and self.mean_sample_len is None:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "data.sample_len_std needs data.mean_sample_len (the spread is of the samples' lengths)")))
        return self


class MeasuredRun(_Section):
    """A measured training result (the acceptance kit's import, or typed in): where it was measured and the
    MFU it reached. It calibrates only plans on the same GPU, through the time model's matmul-efficiency term,
    so plans with other layouts keep their own communication (core/calibration.py); a CPU smoke test or a
    run on another GPU is kept and shown but never applied."""

    gpu: str = Field(max_length=200, description="catalog id of the GPU measured")
    num_gpus: int = Field(1, gt=0, le=1_000_000)
    nodes: int = Field(1, gt=0, le=100_000)
    tp: int = Field(1, gt=0, le=1024)
    pp: int = Field(1, gt=0, le=1024)
    zero: int | None = Field(None, ge=0, le=3)
    framework: Framework | None = Field(None, description="framework of the measured run (null: the plan's)")
    mfu: float = Field(gt=0, le=1, description="measured model FLOPs utilisation")
    device: Literal["cuda", "cpu"] = "cuda"
    source: str | None = Field(None, max_length=500, description="kit result file, or who measured it")
    date: str | None = Field(None, max_length=40)
    apply: bool = Field(True, description="use it for plans on this GPU")

    @model_validator(mode="after")
    def _check(self) -> "MeasuredRun":
        if self.num_gpus % (self.tp * self.pp) or self.num_gpus % self.nodes:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "num_gpus must be divisible by tp·pp and by nodes")))
        return self


class AssumptionsSection(_Section):
    mfu: float | None = Field(None, gt=0, le=1)
    measured_runs: list[MeasuredRun] = Field(default_factory=list, max_length=50,
                                             description="measured results; each calibrates plans on its own GPU")
    memory_headroom_gib: float = Field(2.0, ge=0, le=4096)
    cuda_context_gib: float | None = Field(None, ge=0, le=4096)
    fragmentation: float | None = Field(None, ge=0, le=1)
    expandable_segments: bool | None = Field(
        None, description="PyTorch caching allocator PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (reserved "
                          "memory without fragmentation); null: the framework's default (core/memory.py)")
    memory_metric: Literal["allocated", "reserved", "allocated_last"] = Field(
        "reserved", description="which caching-allocator figure a measured peak is compared with: allocated "
                                "(torch.cuda.max_memory_allocated), reserved (max_memory_reserved) or allocated_last "
                                "(max allocated on the last pipeline rank, what Megatron-LM logs to tensorboard); "
                                "what fits is judged on the device total either way (core/memory.py)")


class PriceQuote(_Section):
    """A user's rental quote for one GPU type (replaces the shipped default; see core/cost.PriceTable)."""

    card_hour: float | None = Field(None, ge=0, le=1e9, description="on demand, per card-hour")
    machine_week: float | None = Field(None, ge=0, le=1e9, description="whole machine per week")
    machine_month: float | None = Field(None, ge=0, le=1e9, description="whole machine per month")
    spot_card_hour: float | None = Field(None, ge=0, le=1e9, description="spot/interruptible, per card-hour")
    machine_gpus: int | None = Field(None, gt=0, le=64, description="cards in the quoted machine")
    currency: Literal["CNY", "USD"] | None = Field(None, description="the quote's currency (default: constraints.currency)")
    provider: str | None = Field(None, max_length=200)
    date: str | None = Field(None, max_length=40)
    multi_node: bool | None = Field(None, description="the vendor's servers are networked for multi-node training "
                                                      "(InfiniBand/RoCE between them): true, false, or not stated "
                                                      "(core/rules.py, price_fabric)")

    _price_sign = field_validator("card_hour", "machine_week", "machine_month", "spot_card_hour",
                                  mode="before")(not_negative_price)


class PlanningRules(_Section):
    """The planning guide's rules the plan search applies (``constraints.rules``; core/rules.py has each
    rule's definition and source). ``true``: the rule is applied; ``false``: the user allows what it forbids
    (the plans still say that they fail it)."""

    mfu_grade: bool = Field(True, description="rank plans with a poor estimated MFU (below 30% on mainstream GPUs, "
                                              "scaled to the card class's best published run elsewhere) after the "
                                              "others, unless nothing else meets the deadline")
    card_class: bool = Field(True, description="≥80 GB cards for dense full training or pretraining of ~70B models "
                                               "and larger")
    consumer_multinode: bool = Field(True, description="consumer cards without P2P stay in one node for layouts "
                                                       "that communicate every step (TP, PP, CP, EP, ZeRO-2/3)")
    pipeline_layers: bool = Field(True, description="pipeline stages divide the layers evenly")
    mfu_ceiling: bool = Field(True, description="time and cost a plan at no more than the best published MFU of its "
                                                "GPU and framework family (resources/validation_bands.json)")
    deadline_risk: bool = Field(True, description="rank plans that meet the deadline or budget only at the point "
                                                  "estimate (not at the upper end of their band) after safe ones")
    memory_headroom: bool = Field(True, description="rank plans with less free memory than the memory model's p75 "
                                                    "error after those with room")
    tp_over_pcie: bool = Field(True, description="rank tensor parallelism over PCIe (no NVLink) after plans "
                                                 "without it")
    price_fabric: bool = Field(True, description="a plan over several nodes priced from a quote not known to offer "
                                                 "networked servers (InfiniBand/RoCE) fails this check and ranks "
                                                 "after plans priced from quotes of the right kind (false: allowed, "
                                                 "ranked by its cost; core/rules.py)")
    price_kind: bool = Field(True, description="a plan billed on a spot price because its card has no price without "
                                               "interruptions, while the others are billed on such prices, fails this "
                                               "check (false: allowed); a check, not a ranking key (core/rules.py)")


class Ownership(_Section):
    """Building instead of renting (``constraints.ownership``; core/cost.rent_vs_build): each figure replaces
    the dated public default (resources/economics.json: purchase prices, Shenzhen tariff, PUE, staff, spares).
    Money is in ``constraints.currency``. The comparison covers this job alone unless ``horizon_months`` (and
    ``jobs``) state a longer period of work."""

    machine_price: float | None = Field(None, ge=0, le=1e12, description="purchase price per server (node)")
    depreciation_years: float | None = Field(None, gt=0, le=30, description="straight-line depreciation life")
    rack_per_month: float | None = Field(None, ge=0, le=1e9, description="rack / colocation per server per month")
    tariff_per_kwh: float | None = Field(None, ge=0, le=100, description="electricity price per kWh")
    pue: float | None = Field(None, ge=1, le=5, description="power usage effectiveness of the data centre")
    power_kw: float | None = Field(None, gt=0, le=1000, description="power drawn by one server at full load (kW)")
    staff_per_month: float | None = Field(None, ge=0, le=1e9, description="operations staff for these servers per month")
    spares_per_year: float | None = Field(None, ge=0, le=1, description="spares: fraction of the hardware price per year")
    horizon_months: float | None = Field(None, gt=0, le=600, description="period compared (default: this job alone)")
    jobs: int = Field(1, ge=1, le=1_000_000, description="jobs like this one over the period")


Region = Literal["mainland_china", "worldwide"]


class ConstraintsSection(_Section):
    deadline_days: float | None = Field(None, gt=0, le=36_500)
    budget: float | None = Field(None, gt=0, le=1e15)  # 0 is no budget: refused where typed (whatif18)
    currency: Literal["CNY", "USD"] = "CNY"
    max_gpus: int = Field(64, gt=0, le=100_000)
    gpu_candidates: list[str] | None = Field(None, max_length=1000)
    hours_per_week: float = Field(168.0, gt=0, le=168)
    phase: Literal["research", "stable", "burst"] = "stable"
    objective: Literal["cheapest", "fastest", "value"] = "cheapest"
    exchange_rate: float | None = Field(None, gt=0, le=10_000, description="CNY per USD (default: resources/prices.json)")
    prices: dict[str, PriceQuote] | None = Field(None, description="your quotes per GPU id, replacing the defaults")
    search_frameworks: bool | None = Field(
        None, description="let the plan search choose the framework (training.framework is then only the "
                          "framework of the manual estimate); default: true when the scenario does not name "
                          "training.framework, false when it does")
    framework_candidates: list[Framework] | None = Field(
        None, max_length=10, description="frameworks the search may choose from (default: the four engines)")
    price_kinds: list[Literal["list", "marketplace", "package", "wholesale", "assumption"]] | None = Field(
        None, max_length=5, description="kinds of default quotes the plans are priced from (default: list card-hours "
                                        "and package / wholesale months of the region; resources/prices.json)")
    converted_prices: bool | None = Field(
        None, description="price a GPU from the other region's quotes, converted, when its own region has none "
                          "(default: false for mainland China, true for worldwide USD plans)")
    rental_mode: Literal["card_hour", "spot", "week", "month", "hybrid_week", "hybrid_month"] | None = Field(
        None, description="bill every plan in this rental mode (a plan whose price has no such mode is left out, "
                          "with the reason); default: the cheapest mode without interruptions (card-hours, whole "
                          "machines per week or month, capped card-hours), the spot price shown beside it "
                          "(core/cost.py STEADY_MODES)")
    rules: PlanningRules = Field(default_factory=PlanningRules, description="planning rules applied by the search")
    ownership: Ownership = Field(default_factory=Ownership, description="figures for building instead of renting")
    region: Region | None = Field(
        None, description="where the GPUs are rented: default prices come from that region's quotes only "
                          "(default: mainland_china for CNY, worldwide for USD, falling back to the other "
                          "region's quotes, converted)")


def _batch_fix(n: int, group: int, gbs: int, mbs: int, per_node: int) -> int | None:
    """The smallest model-parallel group (tp·pp·cp, a multiple of ``group`` dividing ``n``, within one server or
    whole servers) whose data-parallel degree divides the global batch in micro-batches; None if none does."""
    if gbs % mbs:
        return None
    seqs = gbs // mbs
    for g in range(group, n + 1, group):
        if n % g == 0 and seqs % (n // g) == 0 and (g <= per_node or g % per_node == 0):
            return g
    return None


#: the engines whose tools run PEFT's DoRA (``peft/tuners/lora/dora.py``); Megatron-Bridge and torchtitan/torchtune
#: have their own code, not priced
DORA_ENGINES = ("hf", "deepspeed")


def _check_logits_held(t) -> None:
    """``training.logits_held`` where no fp32 logits tensor exists to hold (frameworks.logits_held_unpriced: TRL's
    trainers, a chunked, compiled or fused loss, an engine with its own loss): refused in one line, not ignored
    (issue 35 round 17, fixes17)."""
    why = logits_held_unpriced(t) if t.logits_held else None
    if why is not None:
        raise ValueError(MsgStr.make(CTX, why, framework=t.framework, objective=t.objective))


def _check_use_cache(t) -> None:
    """``training.use_cache`` on a tool that does not run Hugging Face modelling code (frameworks.use_cache_applies):
    refused in one line, not ignored (issue 35 round 18, review18)."""
    if t.use_cache and not use_cache_applies(t.framework):
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.use_cache needs a framework that runs Hugging Face modelling code (hf, deepspeed, fsdp "
                 "and the tools on them); {framework} builds its own model"), framework=t.framework))


def _check_dora(t) -> None:
    """``training.dora`` needs LoRA or QLoRA on a tool that runs PEFT."""
    if t.dora and t.method not in ("lora", "qlora"):
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "training.dora needs method lora or qlora")))
    if t.dora and engine_of(t.framework) not in DORA_ENGINES:
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.dora is priced for PEFT's DoRA only (Hugging Face-based tools), not this framework")))


def _check_reference_grad_buffer(t) -> None:
    """``training.preference.reference_grad_buffer`` describes one tool's full-parameter reference (Megatron-SWIFT
    before 1b184f296): refused for other tools and for LoRA/QLoRA (whose reference is the base with the adapters
    off, no model of its own)."""
    if not t.preference.reference_grad_buffer:
        return
    if t.framework != "megatron-swift" or t.method != "full":
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.preference.reference_grad_buffer describes Megatron-SWIFT's full-parameter reference "
                 "before ms-swift 3.9; framework {framework} with method {method} has none"),
            framework=t.framework, method=t.method))
    from .methods import method_profile  # noqa: PLC0415 (methods reads scenario sections; imported when needed)

    if method_profile(t).reference != "separate":
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.preference.reference_grad_buffer needs a separate reference model; objective {objective} "
                 "runs none here"), objective=t.objective))


def _check_rpo_alpha(t) -> None:
    """``training.preference.rpo_alpha`` is TRL DPOTrainer's (DPO, IPO): refused for other objectives."""
    if t.preference.rpo_alpha is not None and t.objective not in ("dpo", "ipo"):
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.preference.rpo_alpha is DPO's NLL weight; objective {objective} has none"),
            objective=t.objective))
    if t.preference.rpo_alpha is not None and t.framework not in _TRL_DPO_TOOLS:
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.preference.rpo_alpha is priced for TRL's DPOTrainer only; framework {framework} runs "
                 "its own DPO loss"), framework=t.framework))


#: tools whose DPO runs TRL's ``DPOTrainer`` (the Hugging Face engines with a TRL script, TRL, and the tools built on
#: it); LLaMA-Factory's ``CustomDPOTrainer`` and the Megatron tools compute their own loss
_TRL_DPO_TOOLS = ("hf", "fsdp", "deepspeed", "trl", "ms-swift", "unsloth", "axolotl")


def _check_fused_ce(t) -> None:
    """Refuse ``training.fused_cross_entropy`` for a tool that does not run Megatron-Core's loss."""
    if t.fused_cross_entropy is not None and "framework" in t.model_fields_set and t.framework not in _MEGATRON_TOOLS:
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.fused_cross_entropy is Megatron-Core's --cross-entropy-loss-fusion; framework "
                 "{framework} has no such choice"), framework=t.framework))


#: the engines whose tools train through the Hugging Face Trainer, which owns ``torch_empty_cache_steps``
#: (transformers ``TrainingArguments``; ``training.empty_cache_steps``)
EMPTY_CACHE_ENGINES = ("hf", "deepspeed")


def _check_rl_lengths(t) -> None:
    """PPO/GRPO: the prompt and the rollout fit in ``seq_len`` (the prompt, when not given, is what seq_len leaves)."""
    if t.objective not in ("ppo", "grpo"):
        return
    if t.rl.prompt_len is None and t.rl.rollout_len >= t.seq_len:
        # the prompt is what seq_len leaves: name the value the user typed, not a derived length of 0 or
        # below (probe13: "prompt + rollout (-9995904 + 10000000)" named no field and no typed value)
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.rl.rollout_len={rollout} leaves no room for the prompt in seq_len={seq_len}"),
            rollout=t.rl.rollout_len, seq_len=t.seq_len))
    plen = t.rl.prompt_len if t.rl.prompt_len is not None else t.seq_len - t.rl.rollout_len
    if plen <= 0 or plen + t.rl.rollout_len > t.seq_len:
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.rl: prompt + rollout ({prompt} + {rollout}) must fit in seq_len={seq_len}"),
            prompt=plen, rollout=t.rl.rollout_len, seq_len=t.seq_len))


def _check_rl_engine(t, search_frameworks: bool = False) -> None:
    """The rollout engine's choices: ``schedule=one_step_off`` needs vLLM on its own GPUs; ``offload_model``:
    ms-swift's offload context runs in colocate mode only (``rollout_mixin``: ``elif self.vllm_mode ==
    'colocate'``), and on the tools of :data:`RL_OFFLOAD_MODEL_TOOLS` — where the framework is the user's choice: a
    search over frameworks keeps those tools (search.searched_frameworks), and the app's document, which always
    holds a framework, stays valid (review r12)."""
    if t.objective not in ("ppo", "grpo"):
        return
    if t.rl.schedule in ("one_step_off", "async") and t.rl.generation_engine != "vllm_separate":
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.rl.schedule={schedule} needs generation_engine vllm_separate (generation on its own "
                 "GPUs, overlapped with training)"), schedule=t.rl.schedule))
    if t.rl.steps_in_flight > 1 and t.rl.schedule != "async":
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.rl.steps_in_flight={n} needs schedule async (on_policy has no batch in flight, "
                 "one_step_off one)"), n=t.rl.steps_in_flight))
    if t.rl.hybrid_engine:
        _check_hybrid_engine(t, search_frameworks)
    if not t.rl.offload_model:
        return
    if t.rl.generation_engine != "vllm_colocated":
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.rl.offload_model needs generation_engine vllm_colocated (the training model leaves the "
                 "GPUs vLLM generates on)")))
    if "framework" in t.model_fields_set and not search_frameworks and t.framework not in RL_OFFLOAD_MODEL_TOOLS:
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.rl.offload_model is a Megatron-SWIFT setting (--offload_model, --offload_optimizer); "
                 "framework {framework} has no such choice"), framework=t.framework))


def _check_hybrid_engine(t, search_frameworks: bool) -> None:
    """``training.rl.hybrid_engine`` (DeepSpeed-Chat ``--enable_hybrid_engine``): the training model generates
    (``generation_engine`` training) on DeepSpeed; as ``offload_model``, a framework is refused only where the user
    chose it (a search over frameworks, and the app's document, keep it: methods.method_profile reads the switch on
    DeepSpeed only)."""
    if t.rl.generation_engine != "training":
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.rl.hybrid_engine needs generation_engine training (DeepSpeed-Chat's Hybrid Engine "
                 "generates with the training model)")))
    if "framework" in t.model_fields_set and not search_frameworks and t.framework not in RL_HYBRID_ENGINE_TOOLS:
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.rl.hybrid_engine is a DeepSpeed-Chat setting (--enable_hybrid_engine); framework "
                 "{framework} has no such choice"), framework=t.framework))


def _check_hybrid_candidates(t, con) -> None:
    """A search over frameworks with ``training.rl.hybrid_engine`` runs DeepSpeed (search.searched_frameworks): a
    candidate list without DeepSpeed would leave the switch with no plan that runs it, so it is refused (session 13;
    parity13 found such a search timed LLaMA-Factory, ms-swift and TRL with the switch silently off)."""
    if (t.objective in ("ppo", "grpo") and t.rl.hybrid_engine and con.search_frameworks
            and con.framework_candidates and not set(RL_HYBRID_ENGINE_TOOLS) & set(con.framework_candidates)):
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.rl.hybrid_engine is a DeepSpeed-Chat setting (--enable_hybrid_engine): "
                 "constraints.framework_candidates must include deepspeed")))


def _check_lora_layer_candidates(t, con) -> None:
    """A search over frameworks with ``training.lora_layer`` other than ``peft`` keeps the stacks that run it
    (search.searched_frameworks, frameworks.lora_layer_applies): a candidate list of Megatron-Core tools and Unsloth
    only would leave the layer with no plan that runs it, and each plan's scenario refused by ``estimate``, so it is
    refused here (issue 35 round 14, parity14)."""
    if (t.lora_layer != "peft" and con.search_frameworks and con.framework_candidates
            and all(own_lora_layers(f) for f in con.framework_candidates)):
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.lora_layer {layer} patches Hugging Face linear layers: constraints.framework_candidates "
                 "must include a framework that runs them, or use lora_layer peft"), layer=t.lora_layer))


def _check_empty_cache(t) -> None:
    """``training.empty_cache_steps`` is the Hugging Face Trainer's ``torch_empty_cache_steps``: tools on it only."""
    if t.empty_cache_steps is not None and engine_of(t.framework) not in EMPTY_CACHE_ENGINES:
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.empty_cache_steps is the Hugging Face Trainer's torch_empty_cache_steps; framework "
                 "{framework} has no such choice"), framework=t.framework))


def _check_tool_choices(t) -> None:
    """The tool-specific choices a tool does not offer (:func:`_check_fused_ce`, :func:`_check_nanotron_precision`)."""
    _check_fused_ce(t)
    _check_nanotron_precision(t)
    _check_gpt_neox_precision(t)
    _check_gpt_j_residual(t)
    _check_lora_layer(t)


def _check_lora_layer(t) -> None:
    """``training.lora_layer`` other than ``peft`` (NeMo AutoModel's LoRA linears, which patch Transformers' ``nn.Linear``
    modules): a LoRA/QLoRA plan without DoRA, on a Hugging Face engine other than Unsloth's own kernels."""
    if t.lora_layer == "peft" or lora_layer_applies(t.method, t.dora, t.framework):
        return
    if t.method not in ("lora", "qlora") or t.dora:
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.lora_layer {layer} is a LoRA layer without DoRA; use method lora or qlora with dora false, "
                 "or lora_layer peft"), layer=t.lora_layer))
    if own_lora_layers(t.framework):
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.lora_layer {layer} patches Hugging Face linear layers; framework {framework} runs its own "
                 "LoRA layers (use lora_layer peft)"), layer=t.lora_layer, framework=t.framework))


def _check_gpt_j_residual(t) -> None:
    """``training.gpt_j_residual`` is GPT-NeoX's ``gpt-j-residual`` config switch: GPT-NeoX only."""
    if t.gpt_j_residual and t.framework != "gpt-neox":
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.gpt_j_residual is GPT-NeoX's gpt-j-residual switch; framework {framework} has no such "
                 "choice"), framework=t.framework))


def _check_gpt_neox_precision(t) -> None:
    """GPT-NeoX v1.0 trains in fp16/bf16 through DeepSpeed without Transformer Engine: no FP8 recipe."""
    if t.framework == "gpt-neox" and t.precision == "fp8":
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "GPT-NeoX has no FP8 recipe (no Transformer Engine); use precision bf16 or fp16")))


def _check_nanotron_precision(t) -> None:
    """Nanotron (v0.5) trains in BF16 without Transformer Engine: no FP8 recipe (core/frameworks.py)."""
    if t.framework == "nanotron" and t.precision == "fp8":
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "Nanotron has no FP8 recipe (no Transformer Engine or torchao float8); use precision bf16")))


def _check_fsdp_no_sync(t, p) -> None:
    """``training.fsdp_no_sync`` on and ``training.fsdp_lora_mixed_units`` need FSDP with sharded gradients
    (``parallel.zero`` 2 or 3; the HF stack's FSDP1: frameworks.fsdp_sharded_gradients); the mixed units need LoRA
    (16-bit base weights beside the adapters) under FSDP1's flat parameters (frameworks.fsdp_lora_units_apply);
    ``training.fsdp2_fp32_upcast`` needs LoRA on FSDP2 (frameworks.fsdp2_upcast_allowed)."""
    fsdp = fsdp_sharded_gradients(t.framework, p.zero, t.fsdp_version)
    if t.fsdp_no_sync and not fsdp:
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.fsdp_no_sync needs FSDP with sharded gradients (framework fsdp, or the Hugging Face stack "
                 "with fsdp_version 1; parallel.zero 2 or 3)")))
    if t.fsdp_lora_mixed_units and not fsdp_lora_units_apply(t.framework, p.zero, t.fsdp_version, t.method):
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.fsdp_lora_mixed_units needs method lora under FSDP1 (fsdp_version 1: framework fsdp or "
                 "the Hugging Face stack; parallel.zero 2 or 3)")))
    if t.mixed_precision_off and not mixed_precision_off_allowed(t.framework, p.zero, t.fsdp_version, t.method):
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.mixed_precision_off needs method lora on the Hugging Face stack without DeepSpeed "
                 "(parallel.zero 0, or Accelerate's FSDP1: fsdp_version 1 with parallel.zero 2 or 3)")))
    if t.qlora_no_upcast and not qlora_no_upcast_allowed(t.framework, t.method):
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.qlora_no_upcast needs method qlora on a tool whose loader casts the non-4-bit parameters to "
                 "fp32 (framework hf or trl)")))
    if t.fsdp2_fp32_upcast and not fsdp2_upcast_allowed(t.framework, t.fsdp_version, p.zero, t.method):
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.fsdp2_fp32_upcast needs method lora on FSDP2 (framework fsdp, fsdp_version 2, "
                 "parallel.zero 3)")))


def _check_bnb_flags(t) -> None:
    """The bitsandbytes facts of a run (``legacy_bnb_4bit``, ``bnb_fp16_storage``) need 4-bit weights."""
    if t.legacy_bnb_4bit and t.method != "qlora":
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.legacy_bnb_4bit needs method qlora (bitsandbytes 4-bit weights)")))
    if t.bnb_fp16_storage and t.method != "qlora":
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "training.bnb_fp16_storage needs method qlora (bitsandbytes 4-bit weights)")))


class Scenario(_Section):
    model: ModelSection = Field(default_factory=ModelSection)
    training: TrainingSection = Field(default_factory=TrainingSection)
    parallel: ParallelSection = Field(default_factory=ParallelSection)
    hardware: HardwareSection = Field(default_factory=HardwareSection)
    data: DataSection = Field(default_factory=DataSection)
    assumptions: AssumptionsSection = Field(default_factory=AssumptionsSection)
    constraints: ConstraintsSection = Field(default_factory=ConstraintsSection)

    @model_validator(mode="after")
    def _check_layout(self) -> "Scenario":
        if self.constraints.search_frameworks is None:
            # an explicit framework is the user's choice; a scenario that names none leaves it to the search
            self.constraints.search_frameworks = "framework" not in self.training.model_fields_set
        p, h = self.parallel, self.hardware
        group = p.tp * p.pp * p.cp
        if h.num_gpus % group:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "hardware.num_gpus={n} is not divisible by tp·pp·cp={group}"), n=h.num_gpus, group=group))
        if p.tp > h.gpus_per_node and p.tp % h.gpus_per_node:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "parallel.tp={tp} must be a multiple of gpus_per_node={per_node} when it spans nodes"),
                tp=p.tp, per_node=h.gpus_per_node))
        if h.num_gpus > h.gpus_per_node and h.num_gpus % h.gpus_per_node:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "hardware.num_gpus={n} must be a whole number of nodes of {per_node} GPUs"),
                n=h.num_gpus, per_node=h.gpus_per_node))
        t = self.training
        if t.objective != "sft" and t.method == "pretrain":
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "training.objective={objective} needs method full, lora or qlora (not pretrain)"),
                objective=t.objective))
        _check_rl_lengths(t)
        _check_rl_engine(t, bool(self.constraints.search_frameworks))
        _check_hybrid_candidates(t, self.constraints)
        _check_lora_layer_candidates(t, self.constraints)
        if (t.preference.reference == "lora_base" and t.method not in ("lora", "qlora")
                and t.objective != "sft"):
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "training.preference.reference=lora_base needs method lora or qlora")))
        _apply_tool_defaults(self.training)
        _apply_objective_defaults(self.training)
        if t.checkpoint_reentrant is not None and t.framework in CHECKPOINT_REENTRANT_REFUSED.get(t.checkpoint_reentrant, ()):
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "training.checkpoint_reentrant={value}: {framework} runs its own checkpoint function and has no "
                     "such choice"), value=str(t.checkpoint_reentrant).lower(), framework=t.framework))
        _check_bnb_flags(t)
        _check_fsdp_no_sync(t, p)
        _check_dora(t)
        _check_logits_held(t)
        _check_use_cache(t)
        if t.liger_kernel and "framework" in t.model_fields_set and t.framework in NO_LIGER:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "training.liger_kernel patches Hugging Face models; framework {framework} does not run them"),
                framework=t.framework))
        if p.moe_dispatcher is not None and t.framework not in _MEGATRON_TOOLS:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "parallel.moe_dispatcher={d} is a Megatron-Core setting; {framework} has no such choice"),
                d=p.moe_dispatcher, framework=t.framework))
        self._check_megatron_parallel()
        _check_tool_choices(t)
        if not t.cut_cross_entropy and t.framework != "unsloth":
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "training.cut_cross_entropy=false describes Unsloth before November 2024; framework {framework} "
                     "is not Unsloth"), framework=t.framework))
        if p.offload_params and p.zero != 3:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "parallel.offload_params needs zero=3 (FSDP/ZeRO-3 CPU offload)")))
        gbs = self.training.global_batch_size
        # the automatic layout's fields are not a layout: the search picks TP/PP/CP for the batch
        if gbs is not None and not p.auto:
            dp = h.num_gpus // group
            mbs = self.training.micro_batch_size
            if gbs % (mbs * dp):
                fix = _batch_fix(h.num_gpus, group, gbs, mbs, h.gpus_per_node)
                if fix is None:
                    raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                        CTX, "training.global_batch_size={gbs} is not a multiple of micro_batch_size×dp={mbs}×{dp}"),
                        gbs=gbs, mbs=mbs, dp=dp))
                raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                    CTX, "training.global_batch_size={gbs} is not a multiple of micro_batch_size×dp={mbs}×{dp}: "
                         "with {n} GPUs a model-parallel group tp·pp·cp={g} (dp {d}) keeps this batch, or let the "
                         "search choose the layout (parallel.auto)"),
                    gbs=gbs, mbs=mbs, dp=dp, n=h.num_gpus, g=fix, d=h.num_gpus // fix))
        return self

    def _check_ep_a2a_overlap(self) -> None:
        """``parallel.ep_a2a_overlap``: refused where Megatron-Core refuses it (Megatron-LM d98e8a64
        ``transformer_config.py`` ``__post_init__``, the ``if self.overlap_moe_expert_parallel_comm:`` asserts):
        PP > 1 without a virtual pipeline, expert parallelism 1, a dispatcher other than alltoall/flex, full
        recompute (or a recompute method / layer count, which only full uses here), "moe" in recompute_modules."""
        t, p = self.training, self.parallel
        if not p.ep_a2a_overlap:
            return
        if t.framework not in _MEGATRON_TOOLS:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "parallel.ep_a2a_overlap is a Megatron-Core setting; {framework} has no such choice"),
                framework=t.framework))
        if t.recompute == "full":
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "parallel.ep_a2a_overlap with training.recompute=full: Megatron-Core refuses full recompute "
                     "with the expert all-to-all overlap")))
        if "moe" in (t.recompute_modules or ()) and t.recompute == "megatron_selective":
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "parallel.ep_a2a_overlap with 'moe' in training.recompute_modules: Megatron-Core refuses to "
                     "recompute the MoE layer under the expert all-to-all overlap")))
        if p.moe_dispatcher == "allgather":
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "parallel.ep_a2a_overlap needs the alltoall or flex dispatcher, not allgather (Megatron-Core)")))
        if p.auto:
            return  # the search picks the layout: it keeps the overlap only where Megatron allows it
        if p.ep == 1:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "parallel.ep_a2a_overlap needs expert parallelism: parallel.ep > 1 (Megatron-Core)")))
        if p.pp > 1 and p.vpp == 1:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "parallel.ep_a2a_overlap with parallel.pp > 1 needs parallel.vpp > 1 (Megatron-Core)")))

    def _check_recompute_modules(self) -> None:
        """``training.recompute_modules``: Megatron-Core's, read only under selective recompute
        (``transformer_config.py``: ``if self.recompute_granularity == "selective"``); FP8 delayed scaling refuses
        moe_act and layernorm ("Delayed scaling does not support moe_act and layernorm recompute for fp8")."""
        t = self.training
        mods = t.recompute_modules
        if mods is None:
            return
        if t.framework not in _MEGATRON_TOOLS:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "training.recompute_modules is a Megatron-Core setting; {framework} has no such choice"),
                framework=t.framework))
        if t.recompute != "megatron_selective":
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "training.recompute_modules needs training.recompute=megatron_selective (Megatron-Core reads "
                     "the modules only under selective recompute), not {recompute}"), recompute=t.recompute))
        if (t.precision == "fp8" and t.fp8_recipe == "te_delayed"
                and ("moe_act" in mods or "layernorm" in mods)):
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "training.recompute_modules with moe_act or layernorm needs an FP8 recipe other than "
                     "te_delayed (Megatron-Core: delayed scaling does not support them)")))

    def _check_megatron_parallel(self) -> None:
        """``parallel.pp_account_embedding_loss`` and ``parallel.cuda_graph_scope`` are Megatron-Core's; Megatron
        refuses per-layer graphs under full recompute (Megatron-LM ``transformer_config.py`` ``__post_init__``, commit
        d98e8a64: "full recompute is only supported with full iteration CUDA graph"). The router scope on a dense
        model is refused by ``estimate.resolve``."""
        t, p, scope = self.training, self.parallel, self.parallel.cuda_graph_scope
        if p.pp_account_embedding_loss and t.framework not in _MEGATRON_TOOLS:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "parallel.pp_account_embedding_loss is a Megatron-Core setting; {framework} has no such choice"),
                framework=t.framework))
        if (p.moe_capacity_factor is not None or p.moe_pad_to_capacity) and t.framework not in _MEGATRON_TOOLS:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "parallel.moe_capacity_factor and moe_pad_to_capacity are Megatron-Core settings; {framework} "
                     "has no such choice"), framework=t.framework))
        if p.moe_pad_to_capacity and p.moe_capacity_factor is None:  # Megatron-LM transformer_config.py
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "parallel.moe_pad_to_capacity needs parallel.moe_capacity_factor (Megatron-Core)")))
        self._check_ep_a2a_overlap()
        self._check_recompute_modules()
        if scope is None:
            return
        if t.framework not in _MEGATRON_TOOLS:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "parallel.cuda_graph_scope={scope} is a Megatron-Core setting; {framework} has no such choice"),
                scope=scope, framework=t.framework))
        if t.recompute == "full":
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "parallel.cuda_graph_scope={scope} with training.recompute=full: Megatron-Core runs full "
                     "recompute only with a full-iteration CUDA graph"), scope=scope))

    @property
    def dp(self) -> int:
        """Data-parallel degree = num_gpus / (tp·pp·cp)."""
        p = self.parallel
        return self.hardware.num_gpus // (p.tp * p.pp * p.cp)

    @property
    def grad_accum(self) -> int:
        gbs = self.training.global_batch_size
        if gbs is None:
            return 1
        return max(1, gbs // (self.training.micro_batch_size * self.dp))

    @property
    def global_batch(self) -> int:
        return self.training.micro_batch_size * self.dp * self.grad_accum


def field_home(loc: tuple) -> str | None:
    """Where a key the scenario does not have at ``loc`` belongs: the dotted path of the one field with its name in
    another section ("deadline_days" → "constraints.deadline_days"), else of the field whose name is closest to it
    ("training.seq_length" → "training.seq_len"); None when neither is near (issue 35 r18, ux28: a new user's
    "deadline_days" at the top was told "unknown field", nothing on where it goes)."""
    import difflib

    paths = [f"{sec}.{name}" for sec, f in Scenario.model_fields.items()
             for name in getattr(f.annotation, "model_fields", {})]
    leaf, here = str(loc[-1]), ".".join(str(x) for x in loc)
    same = [p for p in paths if p.rsplit(".", 1)[1] == leaf and p != here]
    if len(same) == 1:
        return same[0]
    section = [p for p in paths if len(loc) > 1 and p.startswith(f"{loc[0]}.")] or paths
    close = difflib.get_close_matches(leaf, [p.rsplit(".", 1)[1] for p in section], n=1, cutoff=0.75)
    return next((p for p in section if close and p.rsplit(".", 1)[1] == close[0]), None)


def format_validation_error(err: ValidationError) -> str:
    """One line naming the first offending field and why (keeping the reason's message id:
    :func:`~gpuplanner.core.messages.validation_line`: the reason, and the value that failed); a key the scenario
    does not have names the field it most likely meant (:func:`field_home`)."""
    first = err.errors()[0]
    loc = ".".join(str(x) for x in first.get("loc", ()) if x != "__root__")
    msg = validation_line(first)
    home = field_home(tuple(first["loc"])) if first.get("type") == "extra_forbidden" and first.get("loc") else None
    if home:
        msg = MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "unknown field; did you mean {path}?"), path=home)
    if not loc:
        return msg
    return MsgStr.make("Errors", "{field}: {message}", field=loc, message=msg)


def scenario_from_dict(data: Any) -> Scenario:
    """Validate a dict into a Scenario, raising :class:`ScenarioError` with a one-line message."""
    if not isinstance(data, dict):
        raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "a scenario must be a JSON object")))
    try:
        return Scenario.model_validate(data)
    except ValidationError as err:
        raise ScenarioError(format_validation_error(err)) from None

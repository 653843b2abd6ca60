"""Step 2: how the model is trained — method, precision, optimizer, batch, recompute, the training objective
(preference tuning, reward models, RL with its rollouts: ``core/methods.py``), parallel layout.

The fields show what the user set (:meth:`ScenarioModel.user_scenario`). With the automatic layout the
search's selected plan may use other values (GPUs, TP/PP, ZeRO, recompute, micro-batch); they are shown
apart, in :attr:`TrainingPage.auto_info`, never written into the user's fields.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFormLayout, QLabel

from gpuplanner.app.engine import model_is_moe
from gpuplanner.core import frameworks
from gpuplanner.core.frameworks import FUSED_CE_DEFAULT, RL_HYBRID_ENGINE_TOOLS, RL_OFFLOAD_MODEL_TOOLS, engine_of
from gpuplanner.core.methods import method_profile
from gpuplanner.core.scenario import NO_LIGER

from gpuplanner.formatting import format_tokens, gpu_display_name
from gpuplanner.formatting import format_list

from ..fields import BoundCheck, BoundCombo, BoundEdit, BoundSpin, align_form_units, fmt_float, fmt_int, parse_float, parse_int
from ..fit_box import FitHeightBox

OBJECTIVES = ["sft", "dpo", "ipo", "kto", "orpo", "simpo", "cpo", "reward", "ppo", "grpo"]
FRAMEWORKS = ["hf", "fsdp", "deepspeed", "megatron", "llamafactory", "unsloth", "ms-swift", "megatron-swift",
              "megatron-bridge", "trl", "axolotl", "nanotron", "gpt-neox"]
#: which objective uses which field (the rest are disabled, never hidden: the user sees what exists)
REFERENCED = ("dpo", "ipo", "kto", "ppo", "grpo")
RL = ("ppo", "grpo")
from .advanced_fields import tri_state
from .base import BasePage


def transformers_attention(s) -> bool:
    """Whether the framework runs Hugging Face modelling code's attention (:data:`core.timing.HF_EAGER_ENGINES`, not
    Unsloth's own kernels): there Transformers' ``attn_implementation`` is the one choice, ``eager`` (our
    ``flash_attention`` off), ``sdpa`` or ``flash_attention_2`` (:func:`core.timing.sdpa_masked`), and the page shows
    it as one list instead of the flash-attention box."""
    from gpuplanner.core.timing import HF_EAGER_ENGINES
    t = s.training
    return engine_of(t.framework) in HF_EAGER_ENGINES and t.framework != "unsloth"


def attn_implementation_applies(s) -> bool:
    """Where the Attention implementation row is shown: Transformers' modelling code (:func:`transformers_attention`),
    or elsewhere while it holds ``flash_attention_2`` (which then changes nothing: the row stays in sight with a
    note so the value can be undone)."""
    return transformers_attention(s) or s.training.attn_implementation != "sdpa"


def attention_kernel_applies(s) -> bool:
    """Where the Attention kernel row is shown: a fused kernel runs (flash attention on) and the kernel is a choice —
    not under ``flash_attention_2`` in Transformers' code, which runs the flash-attn package's kernel (shown there
    only while it holds ``cudnn``, with a note)."""
    t = s.training
    if not t.flash_attention:
        return False
    fa2 = transformers_attention(s) and t.attn_implementation == "flash_attention_2"
    return not fa2 or t.attention_kernel == "cudnn"


def hybrid_engine_enabled(s, rl: bool) -> bool:
    """``training.rl.hybrid_engine``: DeepSpeed-Chat's Hybrid Engine, for generation by the training model on
    DeepSpeed (scenario._check_rl_engine); kept enabled while ticked, so a file's choice can be cleared."""
    t = s.training
    return bool((rl and t.rl.generation_engine == "training" and t.framework in RL_HYBRID_ENGINE_TOOLS)
                or t.rl.hybrid_engine)


def offload_model_enabled(s, rl: bool) -> bool:
    """``training.rl.offload_model``: Megatron-SWIFT's setting (core/frameworks.RL_OFFLOAD_MODEL_TOOLS) for colocated
    vLLM; kept enabled while ticked, so a file's choice can be cleared."""
    return bool((rl and s.training.rl.generation_engine == "vllm_colocated"
                 and s.training.framework in RL_OFFLOAD_MODEL_TOOLS) or s.training.rl.offload_model)


class TrainingPage(BasePage):
    def title(self) -> str:
        return self.tr("Training setup")

    # long: builds the page's form row by row (Qt layout code)
    def build(self) -> None:
        m = self.model
        self.setup_box, form = self.group()
        self.method = BoundCombo(m, "training.method", ["pretrain", "full", "lora", "qlora"])
        self.precision = BoundCombo(m, "training.precision", ["bf16", "fp16", "fp8", "fp32"])
        # FP8 recipe (core/fp8.py): "default" = the framework's own (the scenario keeps null)
        self.fp8_recipe = BoundCombo(
            m, None, ["default", "te_delayed", "te_current", "te_mxfp8", "torchao_tensorwise", "torchao_rowwise"],
            getter=lambda: m.user_scenario().training.fp8_recipe or "default",
            setter=lambda v: m.set("training.fp8_recipe", None if v == "default" else v))
        # a ``bool | None`` field: "framework default" gives the null back (a tick box could only say on or off; ux16)
        self.fp8_all_gather = tri_state(m, "training.fp8_all_gather")
        self.optimizer = BoundCombo(m, "training.optimizer", ["adamw", "adamw_8bit", "adafactor", "sgd"])
        self.paged_optimizer = BoundCheck(m, "training.paged_optimizer")
        self.liger_kernel = BoundCheck(m, "training.liger_kernel")
        self.cut_cross_entropy = BoundCheck(m, "training.cut_cross_entropy")
        # Megatron-Core's fused cross-entropy (core/frameworks.fused_cross_entropy_of): "default" = the tool's own
        self.fused_ce = BoundCombo(
            m, None, ["default", "on", "off"],
            getter=lambda: {None: "default", True: "on", False: "off"}[m.user_scenario().training.fused_cross_entropy],
            setter=lambda v: m.set("training.fused_cross_entropy", {"default": None, "on": True, "off": False}[v]))
        self.fused_ce.path = "training.fused_cross_entropy"
        self.framework = BoundCombo(m, "training.framework", FRAMEWORKS)
        self.seq_len = BoundEdit(m, "training.seq_len")
        # samples shorter than seq_len: padded, packed or flattened (core/flops.sample_shape)
        self.mean_sample_len = BoundEdit(m, "data.mean_sample_len", allow_empty=True, setter=m.set_mean_sample_len)
        # their spread: how long a padded batch's longest sample is (core/flops.expected_longest)
        self.sample_len_std = BoundEdit(m, "data.sample_len_std", parse=parse_float, fmt=fmt_float, allow_empty=True)
        self.pad_to_seq_len = BoundCheck(m, "training.pad_to_seq_len")
        self.packing = BoundCheck(m, "training.packing")
        self.padding_free = BoundCheck(m, "training.padding_free")
        self.mbs = BoundEdit(m, "training.micro_batch_size")
        self.pipeline_mbs = BoundEdit(m, "training.pipeline_microbatch_size", allow_empty=True)
        self.batch_mode = BoundCombo(m, None, ["global", "accum"], setter=self._set_batch_mode,
                                     getter=lambda: m.ui.get("batch_mode", "global"))
        self.gbs = BoundEdit(m, "training.global_batch_size", allow_empty=True)
        self.accum = BoundEdit(m, None, getter=lambda: m.user_scenario().grad_accum, setter=self._set_accum)
        self.recompute = BoundCombo(m, "training.recompute", ["none", "megatron_selective", "op_sac", "layer_sac",
                                                              "full"])
        self.recompute_every_n = BoundEdit(m, "training.recompute_every_n")
        self.recompute_num_layers = BoundEdit(m, "training.recompute_num_layers", allow_empty=True)
        self.recompute_method = BoundCombo(m, "training.recompute_method", ["uniform", "block"])
        self.flash = BoundCheck(m, "training.flash_attention")
        # the attention kernel's speed (core/timing.attention_kernel), FSDP's generation, the allocator's segments
        self.attention_kernel = BoundCombo(m, "training.attention_kernel", ["auto", "flash1", "flash2", "cudnn"])
        # Transformers' attn_implementation as one list: eager is flash attention off (one change, both fields)
        self.attn_implementation = BoundCombo(
            m, None, ["sdpa", "flash_attention_2", "eager"], setter=self._set_attn_implementation,
            getter=lambda: m.user_scenario().training.attn_implementation
            if m.user_scenario().training.flash_attention else "eager")
        self.attn_implementation.path = "training.attn_implementation"
        self.fsdp_version = BoundCombo(m, "training.fsdp_version", [2, 1])
        self.expandable = BoundCombo(
            m, None, ["default", "on", "off"],
            getter=lambda: {None: "default", True: "on", False: "off"}[m.user_scenario().assumptions.expandable_segments],
            setter=lambda v: m.set("assumptions.expandable_segments", {"default": None, "on": True, "off": False}[v]))
        self.lora_rank = BoundEdit(m, "training.lora_rank")
        self.lora_targets = BoundCombo(m, "training.lora_targets", ["attention", "all_linear", "qkv", "qv", "mlp", "qkv_mlp"])
        self.dora = BoundCheck(m, "training.dora")
        self.labels = {}
        for key, f in [("method", self.method), ("precision", self.precision),
                       ("fp8_recipe", self.fp8_recipe), ("fp8_all_gather", self.fp8_all_gather),
                       ("optimizer", self.optimizer), ("paged_optimizer", self.paged_optimizer),
                       ("liger_kernel", self.liger_kernel),
                       ("cut_cross_entropy", self.cut_cross_entropy), ("fused_ce", self.fused_ce),
                       ("framework", self.framework), ("seq_len", self.seq_len),
                       ("mean_sample_len", self.mean_sample_len), ("sample_len_std", self.sample_len_std),
                       ("pad_to_seq_len", self.pad_to_seq_len),
                       ("packing", self.packing),
                       ("padding_free", self.padding_free), ("mbs", self.mbs), ("pipeline_mbs", self.pipeline_mbs),
                       ("batch_mode", self.batch_mode), ("gbs", self.gbs),
                       ("accum", self.accum), ("recompute", self.recompute),
                       ("recompute_every_n", self.recompute_every_n),
                       ("recompute_num_layers", self.recompute_num_layers),
                       ("recompute_method", self.recompute_method),
                       ("flash", self.flash), ("attn_implementation", self.attn_implementation),
                       ("attention_kernel", self.attention_kernel),
                       ("fsdp_version", self.fsdp_version), ("expandable", self.expandable),
                       ("lora_rank", self.lora_rank),
                       ("lora_targets", self.lora_targets), ("dora", self.dora)]:
            self.labels[key] = self.add_field(form, f)
        self.form = form
        # a combination the frameworks cannot run, said in one line (attention_note); the choice stays as set
        self.attn_note = QLabel()
        self.attn_note.setWordWrap(True)
        self.attn_note.setStyleSheet("color: #a15c00;")
        form.insertRow(form.getWidgetPosition(self.attention_kernel.box)[0] + 1, self.attn_note)
        self.batch_info = QLabel()
        self.batch_info.setWordWrap(True)
        self.batch_info.setStyleSheet("color: #444;")
        # its figures change with every edit of the batch or the sequence length: the page is re-laid out only when
        # the line count changes (fit_box.py)
        form.addRow(FitHeightBox(self.batch_info))

        # the training objective: preference tuning, reward models, on-policy RL (core/methods.py)
        self.obj_box, of = self.group()
        self.objective = BoundCombo(m, "training.objective", OBJECTIVES)
        self.beta = BoundEdit(m, "training.preference.beta", parse=parse_float, fmt=fmt_float)
        self.reference = BoundCombo(
            m, None, ["default", "separate", "lora_base", "precomputed", "none"],
            getter=lambda: m.value("training.preference.reference") or "default",
            setter=lambda v: m.set("training.preference.reference", None if v == "default" else v))
        self.ref_offload = BoundCheck(m, "training.preference.reference_offload")
        self.group_size = BoundEdit(m, "training.rl.group_size")
        self.rollout_len = BoundEdit(m, "training.rl.rollout_len")
        self.prompt_len = BoundEdit(m, "training.rl.prompt_len", allow_empty=True)
        self.engine = BoundCombo(m, "training.rl.generation_engine", ["training", "vllm_colocated", "vllm_separate"])
        self.gen_fraction = BoundEdit(m, "training.rl.generation_gpu_fraction", parse=parse_float, fmt=fmt_float)
        self.engine_sleep = BoundCheck(m, "training.rl.engine_sleep")
        self.reward = BoundCombo(m, None, ["default", "model", "function"],
                                 getter=lambda: m.value("training.rl.reward") or "default",
                                 setter=lambda v: m.set("training.rl.reward", None if v == "default" else v))
        # the rollouts' engine and schedule (core/methods.py, timing._rollouts); empty fields: the tools' defaults
        self.max_num_seqs = BoundEdit(m, "training.rl.max_num_seqs", allow_empty=True)
        self.rollout_tp = BoundEdit(m, "training.rl.rollout_tp", allow_empty=True)
        self.updates_per_generation = BoundEdit(m, "training.rl.updates_per_generation")
        self.mean_response_fraction = BoundEdit(m, "training.rl.mean_response_fraction", parse=parse_float,
                                                fmt=fmt_float)
        self.response_len_std = BoundEdit(m, "training.rl.response_len_std", parse=parse_float, fmt=fmt_float,
                                          allow_empty=True)
        self.schedule = BoundCombo(m, "training.rl.schedule", ["on_policy", "one_step_off", "async"])
        self.steps_in_flight = BoundSpin(m, "training.rl.steps_in_flight", 1, 64)
        self.regeneration_share = BoundEdit(m, "training.rl.regeneration_share", parse=parse_float, fmt=fmt_float)
        self.enforce_eager = BoundCheck(m, "training.rl.enforce_eager")
        self.sleep_level = BoundCombo(m, "training.rl.sleep_level", [1, 2])
        self.rl_offload_model = BoundCheck(m, "training.rl.offload_model")
        self.hybrid_engine = BoundCheck(m, "training.rl.hybrid_engine")
        self.prompt_pad_len = BoundEdit(m, "training.rl.prompt_pad_len", allow_empty=True)
        self.critic_padding_free = BoundCombo(
            m, None, ["default", "on", "off"],
            getter=lambda: {None: "default", True: "on", False: "off"}[m.value("training.rl.critic_padding_free")],
            setter=lambda v: m.set("training.rl.critic_padding_free", {"default": None, "on": True, "off": False}[v]))
        for key, f in [("objective", self.objective), ("beta", self.beta), ("reference", self.reference),
                       ("ref_offload", self.ref_offload), ("group_size", self.group_size),
                       ("rollout_len", self.rollout_len), ("prompt_len", self.prompt_len), ("engine", self.engine),
                       ("gen_fraction", self.gen_fraction), ("engine_sleep", self.engine_sleep),
                       ("reward", self.reward), ("max_num_seqs", self.max_num_seqs),
                       ("rollout_tp", self.rollout_tp), ("updates_per_generation", self.updates_per_generation),
                       ("mean_response_fraction", self.mean_response_fraction),
                       ("response_len_std", self.response_len_std), ("schedule", self.schedule),
                       ("steps_in_flight", self.steps_in_flight),
                       ("regeneration_share", self.regeneration_share),
                       ("enforce_eager", self.enforce_eager), ("sleep_level", self.sleep_level),
                       ("rl_offload_model", self.rl_offload_model), ("hybrid_engine", self.hybrid_engine),
                       ("prompt_pad_len", self.prompt_pad_len), ("critic_padding_free", self.critic_padding_free)]:
            self.labels[key] = self.add_field(of, f)
        self.obj_form = of
        self.obj_info = QLabel()
        self.obj_info.setObjectName("objectiveInfo")
        self.obj_info.setWordWrap(True)
        self.obj_info.setStyleSheet("color: #444;")
        of.addRow(self.obj_info)

        self.par_box, pf = self.group()
        # the automatic layout's choices (the selected plan), apart from the user's own fields
        self.auto_info = QLabel()
        self.auto_info.setObjectName("autoLayoutInfo")
        self.auto_info.setWordWrap(True)
        self.auto_info.setStyleSheet("color: #1565c0;")
        pf.addRow(self.auto_info)
        self.auto = BoundCombo(m, "parallel.auto", [True, False])
        self.num_gpus = BoundEdit(m, "hardware.num_gpus")
        self.tp = BoundSpin(m, "parallel.tp", 1, 512)
        self.pp = BoundSpin(m, "parallel.pp", 1, 512)
        self.cp = BoundSpin(m, "parallel.cp", 1, 512)
        self.ep = BoundSpin(m, "parallel.ep", 1, 1024)
        # not searched: the automatic layout keeps it (core/search.py), so it stays editable
        self.expert_tp = BoundEdit(m, "parallel.expert_tp", allow_empty=True)
        self.zero = BoundCombo(m, "parallel.zero", [0, 1, 2, 3])
        self.sp = BoundCheck(m, "parallel.sequence_parallel")
        self.offload = BoundCheck(m, "parallel.offload_optimizer")
        for key, f in [("auto", self.auto), ("num_gpus", self.num_gpus), ("tp", self.tp),
                       ("pp", self.pp), ("cp", self.cp), ("ep", self.ep), ("expert_tp", self.expert_tp),
                       ("zero", self.zero),
                       ("sp", self.sp), ("offload", self.offload)]:
            self.labels[key] = self.add_field(pf, f)
        self.layout_info = QLabel()
        self.layout_info.setWordWrap(True)
        self.layout_info.setStyleSheet("color: #444;")
        pf.addRow(self.layout_info)
        s = self.ctx.search
        for sig in (s.started, s.cleared):
            sig.connect(self._update_auto_info)
        s.finished.connect(lambda _o: self._update_auto_info())
        s.failed.connect(lambda _m: self._update_auto_info())
        self.ctx.estimator.updated.connect(lambda _r: self._update_enabled())  # the MoE rows follow the model
        self.ctx.estimator.updated.connect(lambda _r: self._update_batch_info())  # tokens per step: the estimate's
        # the older fields (torchtune switches, overlap, VPP, parameter offload, the estimate's assumptions)
        from .advanced_fields import TrainingAdvanced

        self.advanced = TrainingAdvanced(self)
        self._update_enabled()

    def _set_batch_mode(self, mode: str) -> None:
        self.model.set_ui("batch_mode", mode)
        self._update_enabled()
        return None

    def _set_accum(self, accum: int) -> str | None:
        if accum is None or accum < 1:
            return self.tr("gradient accumulation must be at least 1")
        s = self.model.user_scenario()
        return self.model.set("training.global_batch_size", int(accum) * s.training.micro_batch_size * s.dp)

    # long: sets every label's text and tooltip, one statement per widget in the form's order
    def retranslate(self) -> None:
        self.heading.setText(self.tr("2 · Training setup"))
        self.intro.setText(self.tr(
            "How the model is trained decides what each GPU must hold: weights, gradients, optimizer "
            "states and activations. Hover any field to see what it changes."))
        self.setup_box.setTitle(self.tr("Method, precision and batch"))
        self.obj_box.setTitle(self.tr("Objective: preference tuning and RL"))
        self.par_box.setTitle(self.tr("Parallel layout"))
        L = self.labels
        texts = {
            "method": (self.tr("Method"), self.tr(
                "Pretraining and full fine-tuning train every weight (gradients and optimizer states for all "
                "of them); LoRA trains small adapters; QLoRA also stores the frozen base in 4 bits")),
            "precision": (self.tr("Precision"), self.tr(
                "Number format of weights and activations: bf16/fp16 halve memory against fp32; fp8 needs "
                "Hopper-class GPUs")),
            "optimizer": (self.tr("Optimizer"), self.tr(
                "AdamW keeps two fp32 states per trainable weight (8 bytes); 8-bit Adam 2 bytes; SGD with "
                "momentum 4 bytes; Adafactor far less")),
            "paged_optimizer": (self.tr("Paged optimizer"), self.tr(
                "bitsandbytes paged optimizers (PagedAdamW, PagedAdamW8bit) keep their states in CUDA unified "
                "memory, outside PyTorch's allocator: the device holds them, PyTorch's memory_allocated and "
                "memory_reserved do not count them. Default: off")),
            "liger_kernel": (self.tr("Liger kernels"), self.tr(
                "Liger Kernel's Triton kernels on Hugging Face models (use_liger_kernel in the HF Trainer and TRL, "
                "enable_liger_kernel in LLaMA-Factory): the loss is computed chunk by chunk without a logits "
                "tensor, and RMSNorm, RoPE and SwiGLU are fused. Not for Megatron or Unsloth. Default: off")),
            "cut_cross_entropy": (self.tr("Cut cross-entropy (Unsloth)"), self.tr(
                "Unsloth computes the loss with Cut Cross-Entropy since November 2024: no logits tensor. Clear it for "
                "an older Unsloth, whose cross-entropy kernel keeps the 16-bit logits, beside the HF Trainer's fp32 "
                "copy of them. Unsloth only. Default: on")),
            "fused_ce": (self.tr("Fused cross-entropy (Megatron)"), self.tr(
                "Megatron-Core's fused loss kernels (--cross-entropy-loss-fusion). Off, the loss makes an fp32 copy of "
                "the logits and runs about six passes over it: a few percent of the step where the vocabulary is "
                "large and tensor parallelism small. Default: off in Megatron-LM, on in NeMo / Megatron-Bridge and "
                "Megatron-SWIFT")),
            "framework": (self.tr("Framework"), self.tr(
                "Changes what is kept in memory (e.g. Megatron's fused kernels, DeepSpeed's fp32 master copy)")),
            "seq_len": (self.tr("Sequence length"), self.tr(
                "Tokens per sample: activation memory grows with it (quadratically without flash attention)")),
            "mean_sample_len": (self.tr("Mean sample length"), self.tr(
                "Mean tokens per training sample (prompt + answer). Unless packing or padding-free is on, shorter "
                "samples are padded to the longest sample of their micro-batch (peak memory: to the sequence "
                "length); empty (default): every sample fills the sequence length, as in pretraining. The same "
                "value as the Data page's Average length: when the data is given as samples × length, the data "
                "volume follows it")),
            "sample_len_std": (self.tr("Sample length spread"), self.tr(
                "Standard deviation of tokens per sample (ms-swift's dataset list gives mean±std). A padded "
                "micro-batch of several samples runs at its longest sample; the spread sets how long that is. "
                "Empty (default): 0.46 × the mean sample length, the median spread of ms-swift's published "
                "datasets. Needs a mean sample length; not used with packing or padding-free")),
            "pad_to_seq_len": (self.tr("Pad to sequence length"), self.tr(
                "Pad every sample to the sequence length instead of the longest sample of its micro-batch (Axolotl "
                "pad_to_sequence_len: true; transformers padding=\"max_length\"). Default off: the tools' collators "
                "pad to the batch's longest. Needs a mean sample length: without one every sample already fills the "
                "sequence length")),
            "packing": (self.tr("Packing"), self.tr(
                "Pack several samples into each sequence-length row (TRL --packing, default off); with "
                "flash attention each sample attends only to itself")),
            "padding_free": (self.tr("Padding-free"), self.tr(
                "Flatten each micro-batch's samples into one row without padding (TRL --padding_free, "
                "default off): memory and time follow the real tokens; a run's longest batch needs more")),
            "mbs": (self.tr("Micro-batch"), self.tr(
                "Sequences per GPU per forward pass: activation memory grows linearly; larger is faster "
                "until memory runs out")),
            "pipeline_mbs": (self.tr("Pipeline micro-batch"), self.tr(
                "torchtitan with pipeline parallelism splits each GPU's batch into micro-batches of this many "
                "sequences (pipeline_parallel_microbatch_size); empty: torchtitan's default, 1")),
            "batch_mode": (self.tr("Batch given as"), self.tr(
                "Give the global batch (sequences per optimizer step) or the gradient-accumulation steps")),
            "gbs": (self.tr("Global batch"), self.tr(
                "Sequences per optimizer step over all GPUs = micro-batch × data-parallel × accumulation; "
                "empty: no accumulation")),
            "accum": (self.tr("Gradient accumulation"), self.tr(
                "Micro-batches summed before each optimizer step: a bigger batch without more memory")),
            "recompute": (self.tr("Activation recompute"), self.tr(
                "Recompute activations in the backward pass instead of storing them: saves memory, costs "
                "compute. Selective (Megatron): the attention core only; per-op (torchtitan): keeps every other "
                "matmul output and the attention output; every N-th layer (torchtitan): whole layers, one in N; "
                "full: every layer, about a third more compute")),
            "recompute_num_layers": (self.tr("Layers recomputed per stage"), self.tr(
                "Megatron --recompute-num-layers: how many layers of each pipeline stage are recomputed; empty: "
                "all of them")),
            "recompute_method": (self.tr("Recompute method"), self.tr(
                "Megatron --recompute-method: uniform checkpoints groups of that many layers; block recomputes "
                "the first layers of each stage and keeps the rest")),
            "fp8_recipe": (self.tr("FP8 recipe"), self.tr(
                "How FP8 scales are computed: Transformer Engine delayed (amax history) or current scaling "
                "(Megatron, DeepSpeed) or MXFP8 blocks of 32 (Megatron, Blackwell only), torchao tensorwise or "
                "rowwise (torchtitan). The linear layers run in FP8; attention and the output layer stay in BF16")),
            "fp8_all_gather": (self.tr("FP8 weight all-gather"), self.tr(
                "Gather the sharded weights in FP8 (half the bytes and buffer): FSDP2 with torchao tensorwise, or "
                "Megatron with a Transformer Engine recipe (--fp8-param-gather, set by Megatron-Bridge's FP8 "
                "presets)")),
            "recompute_every_n": (self.tr("Recompute every N-th layer"), self.tr(
                "Every N-th layer: checkpoint the layers whose number is a multiple of N (torchtitan "
                "selective_ac_option)")),
            "flash": (self.tr("Flash attention"), self.tr(
                "Fused attention that never stores the seq×seq score matrix: big memory saving at long sequences")),
            "attention_kernel": (self.tr("Attention kernel"), self.tr(
                "Which fused attention runs: FlashAttention-2 reaches about a third of the BF16 peak on Hopper, "
                "cuDNN / FlashAttention-3 more; automatic: the framework's default (Megatron cuDNN, torchtitan "
                "FlashAttention-2 on Hopper, cuDNN on Blackwell)")),
            "attn_implementation": (self.tr("Attention implementation"), self.tr(
                "Transformers' attn_implementation. SDPA (the default since Transformers 4.36) uses the flash "
                "kernel only when no token is padded: a padded batch passes a mask, and PyTorch then runs its "
                "memory-efficient kernel over the whole sequence × sequence square, which is slower. "
                "FlashAttention-2 (the flash-attn package; LLaMA-Factory flash_attn: fa2, ms-swift and Axolotl "
                "flash_attention) skips the padding and runs its own kernel. Eager computes the seq×seq scores "
                "with plain matrix products: more memory and time")),
            "fsdp_version": (self.tr("FSDP version"), self.tr(
                "FSDP2 (torchtitan, fully_shard) copies weights in and out around each all-gather; FSDP1 "
                "(Accelerate, Composer) shards flat parameters. On the Hugging Face Trainer and the tools on it at "
                "ZeRO 2/3: DeepSpeed ZeRO (default) or FSDP1 through Accelerate, for memory and time alike")),
            "expandable": (self.tr("Expandable segments"), self.tr(
                "PyTorch allocator setting expandable_segments (in PYTORCH_CUDA_ALLOC_CONF): almost no "
                "fragmentation, so reserved memory is close to allocated; default: on for FSDP2 (torchtitan), "
                "off elsewhere")),
            "lora_rank": (self.tr("LoRA rank"), self.tr("Rank of the adapters: trainable parameters grow linearly with it")),
            "lora_targets": (self.tr("LoRA targets"), self.tr(
                "Which linear layers get adapters. Defaults: LLaMA-Factory lora_target all, ms-swift target_modules "
                "all-linear (all linear layers); PEFT with no target_modules: q_proj and v_proj for Llama-family "
                "models")),
            "dora": (self.tr("DoRA"), self.tr(
                "Weight-decomposed LoRA (PEFT use_dora, LLaMA-Factory use_dora, ms-swift --use_dora; default off). "
                "PEFT recomputes the norm of every adapted weight in each forward: slower steps, most with all "
                "linear layers as targets, and a little more memory")),
            "objective": (self.tr("Objective"), self.tr(
                "What the step optimises. DPO/IPO/KTO keep a frozen reference model; ORPO/SimPO/CPO need none; "
                "paired methods run chosen and rejected sequences together (twice the activations); PPO "
                "holds reference, reward and critic models; PPO/GRPO generate rollouts before each step")),
            "beta": (self.tr("Beta / KL coefficient"), self.tr(
                "DPO beta or the RL KL coefficient; GRPO with beta 0 loads no reference model (TRL default)")),
            "reference": (self.tr("Reference model"), self.tr(
                "A separate frozen 16-bit copy (sharded by ZeRO-3/FSDP), the LoRA policy's own base with "
                "adapters off, log-probabilities precomputed before training, or none")),
            "ref_offload": (self.tr("Offload frozen models"), self.tr(
                "Reference and reward models in CPU memory, streamed layer by layer (OpenRLHF "
                "--ref_reward_offload)")),
            "group_size": (self.tr("Group size"), self.tr("GRPO: completions sampled per prompt")),
            "rollout_len": (self.tr("Rollout length"), self.tr(
                "Tokens generated per completion: the KV cache and the decode time grow with it")),
            "prompt_len": (self.tr("Prompt length"), self.tr(
                "Prompt tokens per rollout; empty: sequence length − rollout length")),
            "engine": (self.tr("Generation engine"), self.tr(
                "Who generates rollouts: the training model (HF generate, slow), vLLM on the same GPUs "
                "(it reserves a share of memory) or vLLM on its own share of the GPUs")),
            "gen_fraction": (self.tr("Generation share"), self.tr(
                "vLLM on the same GPUs: the share of each GPU's memory it reserves; on its own GPUs: the "
                "share of the GPUs that generate")),
            "engine_sleep": (self.tr("vLLM sleep mode"), self.tr(
                "vLLM frees its memory while the model trains (verl, TRL vllm_enable_sleep_mode)")),
            "reward": (self.tr("Reward"), self.tr(
                "A frozen reward model (the policy's architecture with a value head) or a reward function")),
            "max_num_seqs": (self.tr("vLLM concurrent sequences"), self.tr(
                "vLLM max_num_seqs: the most sequences one engine decodes at once, the rest queue. Empty: vLLM's "
                "default, 1024 on GPUs of 70 GiB or more (not A100), else 256; verl sets 256; TRL sends every "
                "rollout of the batch")),
            "rollout_tp": (self.tr("vLLM tensor parallel"), self.tr(
                "GPUs per vLLM engine for the rollouts: each holds 1/TP of the weights. Empty: the training "
                "layout's TP. verl rollout tensor_model_parallel_size defaults to 2, TRL "
                "vllm_tensor_parallel_size to 1")),
            "updates_per_generation": (self.tr("Optimizer steps per generation"), self.tr(
                "Optimizer steps trained on one batch of rollouts, each on the global batch (default 1). TRL: "
                "steps_per_generation ÷ accumulation × num_iterations; verl: train_batch_size ÷ "
                "ppo_mini_batch_size × ppo_epochs; OpenRLHF: rollout_batch_size × n_samples_per_prompt ÷ "
                "train_batch_size × max_epochs")),
            "mean_response_fraction": (self.tr("Mean completion share"), self.tr(
                "Mean completion length as a share of the rollout length (the maximum): the longest completion "
                "still sets the generation time, shorter ones leave the batch early. Default 1: every completion "
                "reaches the maximum")),
            "response_len_std": (self.tr("Completion length spread"), self.tr(
                "Standard deviation of the completions' lengths in tokens (verl logs response_length/mean, /max "
                "and /min each step). With the mean it sets how long the longest completion runs, which ends the "
                "generation. Empty (default): 0.39 × the mean completion, the median of verl's published logs")),
            "schedule": (self.tr("RL schedule"), self.tr(
                "On-policy (TRL, verl and OpenRLHF default): generate, then train on those rollouts. One step "
                "off-policy: vLLM on its own GPUs generates the next batch while this one trains (verl "
                "one_step_off_policy, OpenRLHF --async_train). Asynchronous: several batches in flight, the learners "
                "taking groups as they finish (open-instruct async_steps, NeMo RL async GRPO, verl fully async). "
                "Both need vLLM on separate GPUs")),
            "steps_in_flight": (self.tr("Batches in flight"), self.tr(
                "Asynchronous schedule: generation batches in flight at once, i.e. how many steps old a rollout may "
                "be. The longest completion then holds the learners once per that many steps. Default 1. "
                "open-instruct async_steps defaults to 8, NeMo RL max_trajectory_age_steps to 1")),
            "regeneration_share": (self.tr("Regenerated share"), self.tr(
                "Share of the generated groups thrown away and generated again because all their completions got "
                "the same reward (open-instruct active sampling, DAPO dynamic sampling). Generation takes 1 / "
                "(1 − share) as long. No tool publishes it; default 0: nothing regenerated")),
            "enforce_eager": (self.tr("vLLM eager mode"), self.tr(
                "vLLM without CUDA graphs (enforce_eager): every decode step waits for Python to launch its "
                "kernels, which slows small models. vLLM and TRL default off; verl set it on until August 2025")),
            "sleep_level": (self.tr("vLLM sleep level"), self.tr(
                "With sleep mode: level 1 copies vLLM's weights to CPU memory and back every generation (verl with "
                "vLLM before 0.8.5); level 2 drops them and the weight update rewrites them (TRL; verl with vLLM "
                "0.8.5 or later)")),
            "rl_offload_model": (self.tr("Model offload during rollouts"), self.tr(
                "Megatron-SWIFT (--offload_model, --offload_optimizer; both off by default): the training model's "
                "weights, gradients and optimizer states leave the GPUs while vLLM generates and come back before "
                "training, so with vLLM asleep each phase has the card to itself; the copies over PCIe cost time "
                "every step")),
            "hybrid_engine": (self.tr("DeepSpeed Hybrid Engine"), self.tr(
                "DeepSpeed-Chat (--enable_hybrid_engine; off by default): the training model generates through "
                "DeepSpeed-Inference's fused kernels, about 14 kernel launches a layer and token instead of the "
                "model's own forward's 43, so eager generation waits less on Python. DeepSpeed with generation by "
                "the training model only")),
            "prompt_pad_len": (self.tr("Padded prompt length"), self.tr(
                "Without padding-free batches (and for verl's padded critic) every prompt is padded to this "
                "length: verl pads to data.max_prompt_length. Empty: the prompt length (TRL pads to the batch's "
                "longest prompt)")),
            "critic_padding_free": (self.tr("Critic without padding"), self.tr(
                "PPO: the critic's passes without padding (verl critic.model.use_remove_padding, default off: "
                "prompt + rollout length per sequence). Default here: as the policy (packing / padding-free)")),
            "expert_tp": (self.tr("Expert tensor parallel"), self.tr(
                "MoE: tensor parallelism inside each routed expert (Megatron-Core --expert-tensor-parallel-size). "
                "Empty: the framework's default, Megatron the TP degree, others 1 (each GPU holds whole "
                "experts). The automatic layout keeps this value")),
            "auto": (self.tr("Layout"), self.tr(
                "Automatic: the plan search picks GPU count, TP/PP/ZeRO and recompute; manual: you set them")),
            "num_gpus": (self.tr("GPUs"), self.tr("Total GPUs for this layout (whole nodes when more than one node)")),
            "tp": (self.tr("Tensor parallel (TP)"), self.tr(
                "Splits every layer's matrices over TP GPUs: divides weights and activations, needs fast "
                "links (keep it inside an NVLink node)")),
            "pp": (self.tr("Pipeline parallel (PP)"), self.tr(
                "Splits the layers into PP stages: divides weights; adds a pipeline bubble")),
            "cp": (self.tr("Context parallel (CP)"), self.tr("Splits each sequence over CP GPUs: divides activations at long context")),
            "ep": (self.tr("Expert parallel (EP)"), self.tr("Spreads MoE experts over EP GPUs: divides expert weights")),
            "zero": (self.tr("ZeRO stage"), self.tr(
                "Shards over data-parallel GPUs: 1 the optimizer states, 2 also gradients, 3 also weights "
                "(FSDP full shard); more sharding, more communication")),
            "sp": (self.tr("Sequence parallel"), self.tr("With TP: also split the layer-norm/dropout activations")),
            "offload": (self.tr("Offload optimizer"), self.tr(
                "Keep optimizer states in CPU memory (slower steps). RL on FSDP (verl optimizer_offload, EasyR1 "
                "offload_optimizer; default off): on the GPUs while the actor trains, in CPU memory while vLLM "
                "generates, copied over PCIe every step")),
        }
        for key, (label, tip) in texts.items():
            L[key].setText(label)
            getattr(self, key).box.set_help(tip)
        self.method.set_labels({"pretrain": self.tr("Pretraining"), "full": self.tr("Full fine-tune"),
                                "lora": self.tr("LoRA"), "qlora": self.tr("QLoRA (4-bit base)")})
        self.precision.set_labels({"bf16": "BF16", "fp16": "FP16", "fp8": "FP8", "fp32": "FP32"})
        self.fp8_recipe.set_labels({"default": self.tr("framework default"),
                                    "te_delayed": self.tr("Transformer Engine, delayed scaling"),
                                    "te_current": self.tr("Transformer Engine, current scaling"),
                                    "te_mxfp8": self.tr("Transformer Engine, MXFP8 (Blackwell)"),
                                    "torchao_tensorwise": self.tr("torchao, tensorwise"),
                                    "torchao_rowwise": self.tr("torchao, rowwise")})
        self.fp8_all_gather.set_labels({"default": self.tr("framework default"),
                                        "on": self.tr("all-gather weights in FP8"),
                                        "off": self.tr("all-gather weights in 16 bits")})
        self.recompute_method.set_labels({"uniform": self.tr("uniform (groups of layers)"),
                                          "block": self.tr("block (first layers of each stage)")})
        self.optimizer.set_labels({"adamw": "AdamW", "adamw_8bit": self.tr("AdamW 8-bit"),
                                   "adafactor": "Adafactor", "sgd": self.tr("SGD (momentum)")})
        self.framework.set_labels({"hf": self.tr("HF Trainer / PyTorch"), "fsdp": "PyTorch FSDP",
                                   "deepspeed": "DeepSpeed", "megatron": "Megatron-LM",
                                   "llamafactory": "LLaMA-Factory", "unsloth": "Unsloth", "ms-swift": "ms-swift",
                                   "megatron-swift": "Megatron-SWIFT", "megatron-bridge": "NeMo / Megatron-Bridge",
                                   "trl": "TRL", "axolotl": "Axolotl", "nanotron": "Nanotron",
                                   "gpt-neox": "GPT-NeoX"})
        self.objective.set_labels({
            "sft": self.tr("next-token loss (pretraining / SFT)"), "dpo": "DPO", "ipo": "IPO", "kto": "KTO",
            "orpo": self.tr("ORPO (no reference)"), "simpo": self.tr("SimPO (no reference)"),
            "cpo": self.tr("CPO (no reference)"),
            "reward": self.tr("reward model"), "ppo": self.tr("PPO (RLHF)"), "grpo": "GRPO"})
        self.reference.set_labels({"default": self.tr("method default"), "separate": self.tr("separate frozen copy"),
                                   "lora_base": self.tr("LoRA base (adapters off)"),
                                   "precomputed": self.tr("precomputed log-probs"), "none": self.tr("none")})
        self.engine.set_labels({"training": self.tr("training model (HF generate)"),
                                "vllm_colocated": self.tr("vLLM on the same GPUs"),
                                "vllm_separate": self.tr("vLLM on separate GPUs")})
        self.reward.set_labels({"default": self.tr("method default"), "model": self.tr("reward model"),
                                "function": self.tr("reward function")})
        self.ref_offload.setText(self.tr("frozen models in CPU memory"))
        self.engine_sleep.setText(self.tr("free vLLM memory while training"))
        self.rl_offload_model.setText(self.tr("training model in CPU memory while vLLM generates"))
        self.paged_optimizer.setText(self.tr("optimizer states in unified memory (bitsandbytes)"))
        self.liger_kernel.setText(self.tr("fused loss and layer kernels (Hugging Face models)"))
        self.dora.setText(self.tr("weight-decomposed LoRA (PEFT use_dora)"))
        self.cut_cross_entropy.setText(self.tr("no logits tensor (Unsloth since November 2024)"))
        self.packing.setText(self.tr("pack samples into rows"))
        self.padding_free.setText(self.tr("flatten micro-batches, no padding"))
        self.mean_sample_len.box.set_unit(self.tr("tokens"))
        self.mean_sample_len.setPlaceholderText(self.tr("fills the sequence length"))
        self.sample_len_std.box.set_unit(self.tr("tokens"))
        self.sample_len_std.setPlaceholderText(self.tr("0.46 × mean"))
        self.pad_to_seq_len.setText(self.tr("every sample padded to the sequence length"))
        self.max_num_seqs.box.set_unit(self.tr("sequences"))
        self.max_num_seqs.setPlaceholderText(self.tr("vLLM default"))
        self.rollout_tp.box.set_unit(self.tr("GPUs"))
        self.rollout_tp.setPlaceholderText(self.tr("training TP"))
        self.updates_per_generation.box.set_unit(self.tr("steps"))
        self.mean_response_fraction.box.set_unit(self.tr("of the maximum"))
        self.response_len_std.box.set_unit(self.tr("tokens"))
        self.response_len_std.setPlaceholderText(self.tr("0.39 × mean"))
        self.schedule.set_labels({"on_policy": self.tr("on-policy (generate, then train)"),
                                  "one_step_off": self.tr("one step off-policy (overlapped)"),
                                  "async": self.tr("asynchronous (batches in flight)")})
        self.steps_in_flight.box.set_unit(self.tr("batches"))
        self.regeneration_share.box.set_unit(self.tr("of the groups"))
        self.enforce_eager.setText(self.tr("no CUDA graphs (enforce_eager)"))
        self.hybrid_engine.setText(self.tr("fused inference kernels (--enable_hybrid_engine)"))
        self.sleep_level.set_labels({1: self.tr("1: weights to CPU memory and back"),
                                     2: self.tr("2: weights dropped")})
        self.prompt_pad_len.box.set_unit(self.tr("tokens"))
        self.prompt_pad_len.setPlaceholderText(self.tr("prompt length"))
        self.critic_padding_free.set_labels({"default": self.tr("as the policy"), "on": self.tr("on"),
                                             "off": self.tr("off")})
        self.expert_tp.box.set_unit(self.tr("GPUs"))
        self.expert_tp.setPlaceholderText(self.tr("framework default"))
        self.recompute_num_layers.setPlaceholderText(self.tr("all layers"))
        self.rollout_len.box.set_unit(self.tr("tokens"))
        self.prompt_len.box.set_unit(self.tr("tokens"))
        self.group_size.box.set_unit(self.tr("completions"))
        self.batch_mode.set_labels({"global": self.tr("global batch"), "accum": self.tr("gradient accumulation")})
        self.recompute.set_labels(self.recompute_labels())
        self.lora_targets.set_labels({"attention": self.tr("attention projections"),
                                      "all_linear": self.tr("all linear layers"),
                                      "qv": self.tr("q_proj and v_proj (PEFT's Llama default)"),
                                      "mlp": self.tr("MLP only (gate, up, down)"),
                                      "qkv": self.tr("fused q/k/v projection (Megatron linear_qkv)"),
                                      "qkv_mlp": self.tr("q/k/v and MLP, not o_proj (fsdp_qlora \"all\")")})
        self.auto.set_labels({True: self.tr("automatic (best found)"), False: self.tr("manual")})
        self.zero.set_labels({0: self.tr("0 (none)"), 1: self.tr("1 (optimizer)"), 2: self.tr("2 (+ gradients)"),
                              3: self.tr("3 (+ weights)")})
        self.seq_len.box.set_unit(self.tr("tokens"))
        self.mbs.box.set_unit(self.tr("sequences"))
        self.pipeline_mbs.box.set_unit(self.tr("sequences"))
        self.pipeline_mbs.setPlaceholderText(self.tr("torchtitan default: 1"))
        self.gbs.box.set_unit(self.tr("sequences"))
        self.accum.box.set_unit(self.tr("steps"))
        self.num_gpus.box.set_unit(self.tr("GPUs"))
        self.flash.setText(self.tr("fused kernel (FlashAttention / cuDNN)"))
        self.attention_kernel.set_labels({"auto": self.tr("framework default"), "flash1": "FlashAttention-1",
                                          "flash2": "FlashAttention-2", "cudnn": self.tr("cuDNN / FlashAttention-3")})
        self.attn_implementation.set_labels({"sdpa": self.tr("SDPA (Transformers' default)"),
                                             "flash_attention_2": self.tr("FlashAttention-2 (flash-attn package)"),
                                             "eager": self.tr("eager (no fused kernel)")})
        s = self.model.user_scenario()
        choice = frameworks.fsdp_version_choice(s.training.framework, s.parallel.zero, s.parallel.auto,
                                                s.training.fsdp_version)  # the core's rule (review15)
        self.fsdp_version.set_labels(self._fsdp_version_labels(choice == "hf"))
        self.fused_ce.set_labels({"default": self.tr("framework default"), "on": self.tr("on"), "off": self.tr("off")})
        self.expandable.set_labels({"default": self.tr("framework default"), "on": self.tr("on"),
                                    "off": self.tr("off")})
        self.sp.setText(self.tr("split norm/dropout activations over TP"))
        self.offload.setText(self.tr("optimizer states in CPU memory"))
        self.advanced.retranslate()
        # each box's editors end on one line, whatever its units' widths in this language (ux27, ux28)
        for form in self.findChildren(QFormLayout):
            align_form_units(form)
        self.on_model_changed("all")

    def _set_attn_implementation(self, value: str) -> str | None:
        """``eager`` turns flash attention off (and keeps ``sdpa``, the field's default); the others turn it on."""
        if value == "eager":
            errs = self.model.set_many({"training.attn_implementation": "sdpa", "training.flash_attention": False})
        else:
            errs = self.model.set_many({"training.flash_attention": True, "training.attn_implementation": value})
        return next(iter(errs.values()), None)

    def attention_note(self, s) -> str:
        """One line on an attention combination no framework runs, or "" (the choice itself is left as set)."""
        t = s.training
        if not transformers_attention(s) and t.attn_implementation != "sdpa":
            return self.tr("Attention implementation is Transformers' setting: {0} runs its own attention, so "
                           "FlashAttention-2 here changes nothing").format(self.framework.currentText())
        if transformers_attention(s) and t.flash_attention and t.attn_implementation == "flash_attention_2" \
                and t.attention_kernel == "cudnn":
            return self.tr("FlashAttention-2 runs the flash-attn kernel, not cuDNN: the estimate prices the cuDNN "
                           "kernel until the attention kernel is set to framework default")
        return ""

    def recompute_labels(self) -> dict:
        """The recompute policies as people read them (core/recompute.py has each one's definition); Megatron's
        selective recompute names the modules ticked in the Advanced box (``training.recompute_modules``), not its
        default's attention core (ux19)."""
        from gpuplanner.core.recompute import LABEL_CTX, MODULE_LABELS

        mods = self.model.user_scenario().training.recompute_modules
        selective = self.tr("selective: {0} (Megatron)").format(format_list(
            [QCoreApplication.translate(LABEL_CTX, MODULE_LABELS.get(m, m)) for m in mods])) if mods else self.tr(
            "selective: attention core (Megatron)")
        return {"none": self.tr("none"), "megatron_selective": selective,
                "op_sac": self.tr("per-op selective (torchtitan)"),
                "layer_sac": self.tr("every N-th layer (torchtitan before 2026-03)"), "full": self.tr("full (every layer)")}

    def _fsdp_version_labels(self, hf: bool) -> dict:
        """The FSDP version's choices: on the Hugging Face stack at ZeRO 2/3, DeepSpeed (the default) or
        Accelerate's FSDP1 (frameworks.hf_fsdp_choice); on framework fsdp, FSDP2 or FSDP1."""
        if hf:
            return {2: self.tr("DeepSpeed ZeRO (default)"), 1: self.tr("FSDP1 through Accelerate")}
        return {2: "FSDP2", 1: "FSDP1"}

    def _update_fsdp_version(self, s) -> None:
        """The FSDP version's row: framework fsdp, and the Hugging Face stack where ZeRO 2/3 runs or is searched, or
        FSDP1 is set (frameworks.fsdp_version_choice over frameworks.hf_fsdp_choice), worded for the stack the plan
        runs."""
        choice = frameworks.fsdp_version_choice(s.training.framework, s.parallel.zero, s.parallel.auto,
                                                s.training.fsdp_version)  # the core's rule (review15)
        self.form.setRowVisible(self.fsdp_version.box, choice is not None)
        self.fsdp_version.set_labels(self._fsdp_version_labels(choice == "hf"))

    def _update_enabled(self) -> None:
        s = self.model.user_scenario()
        self._update_lora_enabled(s)
        self._update_rows_visible(s)
        for key, on in self._objective_enabled(s).items():
            getattr(self, key).setEnabled(on)
            self.labels[key].setEnabled(on)
        self._update_parallel_enabled(s)

    def _update_lora_enabled(self, s) -> None:
        """The adapter rows: enabled for LoRA and QLoRA (part of :meth:`_update_enabled`)."""
        lora = s.training.method in ("lora", "qlora")
        for key in ("lora_rank", "lora_targets"):
            getattr(self, key).setEnabled(lora)
            self.labels[key].setEnabled(lora)
        # DoRA stays clickable while it is on, so that a refused combination can be undone here
        self.dora.setEnabled(lora or s.training.dora)
        self.labels["dora"].setEnabled(lora or s.training.dora)

    def _update_rows_visible(self, s) -> None:
        """The rows shown only where the chosen tool, precision, recompute or batch mode uses them (part of
        :meth:`_update_enabled`)."""
        fp8_on = s.training.precision == "fp8"
        self.form.setRowVisible(self.fp8_recipe.box, fp8_on)
        self.form.setRowVisible(self.fp8_all_gather.box,
                                fp8_on and engine_of(s.training.framework) in ("fsdp", "megatron"))
        self._update_fsdp_version(s)
        # Unsloth's loss before/after Cut Cross-Entropy; shown while it is Unsloth or while it is cleared (so that a
        # cleared box, refused for other tools, stays in sight)
        self.form.setRowVisible(self.cut_cross_entropy.box,
                                s.training.framework == "unsloth" or not s.training.cut_cross_entropy)
        # Megatron-Core's loss fusion: shown for the Megatron tools that offer it (not Nanotron), or while set (a
        # refused choice stays in sight)
        self.form.setRowVisible(self.fused_ce.box, s.training.framework in FUSED_CE_DEFAULT
                                or s.training.fused_cross_entropy is not None)
        self.form.setRowVisible(self.pipeline_mbs.box, s.training.framework == "fsdp")
        self.form.setRowVisible(self.flash.box, not transformers_attention(s))
        self.form.setRowVisible(self.attention_kernel.box, attention_kernel_applies(s))
        self.form.setRowVisible(self.attn_implementation.box, attn_implementation_applies(s))
        note = self.attention_note(s)
        self.attn_note.setText(note)
        self.form.setRowVisible(self.attn_note, bool(note))
        layer_sac = s.training.recompute == "layer_sac"
        self.form.setRowVisible(self.recompute_every_n.box, layer_sac)
        full_megatron = s.training.recompute == "full" and s.training.framework == "megatron"
        self.form.setRowVisible(self.recompute_num_layers.box, full_megatron)
        self.form.setRowVisible(self.recompute_method.box,
                                full_megatron and s.training.recompute_num_layers is not None)
        accum_mode = self.model.ui.get("batch_mode") == "accum"
        self.form.setRowVisible(self.gbs.box, not accum_mode)
        self.form.setRowVisible(self.accum.box, accum_mode)

    @staticmethod
    def _objective_enabled(s) -> dict[str, bool]:
        """Which objective, rollout and padding fields apply to the scenario, by field name (part of
        :meth:`_update_enabled`)."""
        obj = s.training.objective
        rl = obj in RL
        return {"beta": obj in REFERENCED, "reference": obj in REFERENCED,
                "ref_offload": obj in REFERENCED or obj == "ppo", "group_size": obj == "grpo",
                "rollout_len": rl, "prompt_len": rl, "engine": rl, "reward": rl,
                "gen_fraction": rl and s.training.rl.generation_engine != "training",
                "engine_sleep": rl and s.training.rl.generation_engine == "vllm_colocated",
                "max_num_seqs": rl and s.training.rl.generation_engine != "training",
                "rollout_tp": rl and s.training.rl.generation_engine != "training",
                "updates_per_generation": rl, "mean_response_fraction": rl, "response_len_std": rl,
                "schedule": rl,
                # (kept enabled while set above 1, so a file's choice can be cleared)
                "steps_in_flight": rl and (s.training.rl.schedule == "async" or s.training.rl.steps_in_flight > 1),
                "regeneration_share": rl,
                "enforce_eager": rl and s.training.rl.generation_engine != "training",
                "sleep_level": rl and s.training.rl.generation_engine == "vllm_colocated"
                and s.training.rl.engine_sleep,
                "prompt_pad_len": rl,
                "rl_offload_model": offload_model_enabled(s, rl),
                "hybrid_engine": hybrid_engine_enabled(s, rl),
                "critic_padding_free": obj == "ppo",
                "sample_len_std": s.data.mean_sample_len is not None
                and not (s.training.packing or s.training.padding_free),
                # without a mean sample length every sample fills the sequence length: nothing to pad (kept
                # enabled while ticked, so a file's choice can be cleared)
                "pad_to_seq_len": not (s.training.packing or s.training.padding_free)
                and (s.data.mean_sample_len is not None or bool(s.training.pad_to_seq_len))}

    def _update_parallel_enabled(self, s) -> None:
        """The manual layout's rows, Liger, expert TP and the advanced box (part of :meth:`_update_enabled`)."""
        manual = not s.parallel.auto
        moe = model_is_moe(s, self.ctx.estimator.result)  # the app's one answer, as the advanced rows read it
        for key in ("num_gpus", "tp", "pp", "cp", "ep", "zero", "sp", "offload"):
            on = manual and (key != "ep" or moe or s.parallel.ep != 1)  # expert parallel: MoE models only
            getattr(self, key).setEnabled(on)
            self.labels[key].setEnabled(on)
        liger = s.training.framework not in NO_LIGER or bool(s.training.liger_kernel)  # refused for these tools
        self.liger_kernel.setEnabled(liger)
        self.labels["liger_kernel"].setEnabled(liger)
        moe_tp = moe or s.parallel.expert_tp is not None
        self.expert_tp.setEnabled(moe_tp)
        self.labels["expert_tp"].setEnabled(moe_tp)
        if hasattr(self, "advanced"):
            self.advanced.update_enabled(s, moe)

    def on_model_changed(self, section: str) -> None:
        self._update_enabled()
        self.recompute.set_labels(self.recompute_labels())  # selective names the ticked modules
        # the step as it runs: the fields above, or with the automatic layout the adopted plan's split (its DP ×
        # accumulation; the plan keeps the global batch), so this line agrees with auto_info and the live charts
        s = self.model.user_scenario()
        if s.parallel.auto and self.model.plan_adopted:
            s = self.model.scenario
        self._update_batch_info(s)
        self.layout_info.setText(self.tr("Data-parallel degree = GPUs ÷ (TP × PP × CP) = {0}.").format(s.dp))
        self._update_objective_info(s)
        self.layout_info.setVisible(not s.parallel.auto)
        self._update_auto_info()

    def _update_batch_info(self, s=None) -> None:
        """The optimizer step: the sequences of the fields (or of the adopted plan's split) and the tokens the live
        estimate trains per step (``Evaluation.time.tokens_per_step``: the data's own tokens, without the padding of
        an unpacked batch, a preference pair's two sequences both), the figure ``estimate --json`` prints; the view
        works out no token count of its own (parity16). Without an estimate of this scenario: the sequences only."""
        if s is None:
            s = self.model.user_scenario()
            if s.parallel.auto and self.model.plan_adopted:
                s = self.model.scenario
        ev = getattr(self.ctx.estimator.result, "evaluation", None)
        if ev is not None and ev.scenario == s:
            text = self.tr("Per optimizer step: {0} sequences = {1} tokens (micro-batch {2} × data-parallel {3} × "
                           "accumulation {4}).").format(s.global_batch, format_tokens(ev.time.tokens_per_step,
                                                                                      digits=3),
                                                        s.training.micro_batch_size, s.dp, s.grad_accum)
        else:
            text = self.tr("Per optimizer step: {0} sequences (micro-batch {1} × data-parallel {2} × accumulation "
                           "{3}).").format(s.global_batch, s.training.micro_batch_size, s.dp, s.grad_accum)
        if self.batch_info.text() != text:
            self.batch_info.setText(text)

    def _update_objective_info(self, s) -> None:
        """The models this objective holds, as the core resolves them (no formulas here)."""
        prof = method_profile(s.training)
        names = {"reference": self.tr("frozen reference"), "reward": self.tr("frozen reward model"),
                 "critic": self.tr("trained critic"), "rollout_weights": self.tr("vLLM weights"),
                 "kv_cache": self.tr("rollout KV cache")}
        held = [names[k] for k in prof.models_held()]
        if s.training.objective == "sft":
            self.obj_info.setText(self.tr("One model, trained on the next-token loss."))
            return
        text = self.tr("Held besides the trained model: {0}.").format(format_list(held) if held else self.tr("nothing"))
        if prof.seqs_per_example == 2:
            text += " " + self.tr("Each example is a chosen and a rejected sequence run together: the micro-batch "
                                  "holds twice the sequences.")
        if prof.rl:  # the schedule's own words (methods.MethodProfile.schedule; timing: overlapped, ux25)
            text += " " + self.rollout_sentence(prof)
        self.obj_info.setText(text)

    def rollout_sentence(self, prof) -> str:
        """How an RL step gets its rollouts, as the schedule times them (core.timing: on-policy generation comes
        first; one step off and asynchronous generate while the training runs, only what outlasts it in the step)."""
        if prof.schedule == "one_step_off":
            return self.tr("While each step trains, the next step's rollouts ({0} prompt + {1} completion tokens each) "
                           "are generated; only generation that outlasts the training, and loading the new weights, "
                           "add to the step.").format(prof.prompt_len, prof.rollout_len)
        if prof.schedule == "async":
            from gpuplanner.formatting import plural_s

            text = self.tr("Rollouts ({0} prompt + {1} completion tokens each) are generated up to {2} step(s) "
                           "ahead while the training runs; only generation that outlasts the training, and loading "
                           "the new weights, add to the step.")
            return plural_s(text, prof.steps_in_flight).format(prof.prompt_len, prof.rollout_len,
                                                               prof.steps_in_flight)
        return self.tr("Each step first generates {0} prompt + {1} completion tokens per rollout.").format(
            prof.prompt_len, prof.rollout_len)

    def selected_plan(self):
        """The search's selected plan for this document (None while searching or without plans)."""
        out = self.ctx.search.outcome
        if out is None:
            return None
        rank = self.model.ui.get("selected_plan")
        return next((p for p in out.plans if p.rank == rank), None)

    def _update_auto_info(self) -> None:
        """With the automatic layout: what the selected plan uses (the user's fields stay as they are)."""
        auto = bool(self.model.user_scenario().parallel.auto)
        self.auto_info.setVisible(auto)
        if not auto:
            self.auto_info.setText("")
            return
        search = self.ctx.search
        plan = self.selected_plan()
        if plan is not None:
            L = plan.layout
            from .plans_page import recompute_phrase  # "no recompute", never "recompute none" (ux10)

            rc = recompute_phrase(L.recompute, self.recompute_labels().get(L.recompute, str(L.recompute)))
            text = self.tr(
                "Automatic layout: the selected plan (#{0}) uses {1} × {2} · TP {3} · PP {4} · CP {5} · EP {6} · "
                "DP {7} · ZeRO-{8} · {9} · micro-batch {10} × accumulation {11}. The fields keep your "
                "own choices; the live charts show this plan.").format(
                plan.rank, plan.num_gpus, gpu_display_name(plan.gpu_name), L.tp, L.pp, L.cp,
                L.ep, L.dp, L.zero, rc, L.micro_batch_size, L.grad_accum)
        elif search.state == "running":
            text = self.tr("Automatic layout: searching for the best plan…")
        else:
            text = self.tr("Automatic layout: no plan yet; the live charts use the values above.")
        self.auto_info.setText(text)

"""Rows for the older scenario fields that only a plan file could set: the memory switches of torchtune-style
recipes, LoRA dropout and the communication-overlap switches (the Training page's "Advanced" box), the interleaved
pipeline and parameter offload (its "Parallel layout" box), the estimate's assumptions (a box of their own), the
link inside a server and the host memory (the Hardware page's server box), and where default prices come from
(the Time and budget page's money box).

Each row is bound to its scenario path (``ui/fields.py``): a value nobody touched stays exactly as the file gave
it, a bad value is refused with one line at the field and not stored. Each tooltip names the tool's setting and
its default, from the field descriptions in ``core/scenario.py`` and ``core/overlap.overlap_flags``.
"""

from __future__ import annotations

from typing import Any, get_args

from PySide6.QtCore import QCoreApplication, QObject, QSize, Qt
from PySide6.QtWidgets import QCheckBox, QMenu, QSizePolicy, QStyle, QToolButton, QVBoxLayout, QWidget

from gpuplanner.core import frameworks
from gpuplanner.core.frameworks import engine_of, reentrant_switch, support
from gpuplanner.core.scenario import EMPTY_CACHE_ENGINES, LoraLayer
from gpuplanner.formatting import format_list

from ..fields import BoundCheck, BoundCombo, BoundEdit, FieldBox, fmt_float, fmt_int, parse_float, parse_int

#: the communication-overlap switches (``training.*``, None: the framework's default, core/overlap.overlap_flags)
OVERLAP = ("overlap_grad_reduce", "overlap_param_gather", "tp_comm_overlap", "overlap_p2p_comm")
#: on/off switches of the Advanced box (``training.*``)
SWITCHES = ("master_weights", "optimizer_in_backward", "activation_offload", "chunked_loss", "torch_compile",
            "fsdp_root_embedding", "legacy_bnb_4bit", "bnb_fp16_storage", "fsdp_lora_mixed_units",
            "fsdp2_fp32_upcast", "mixed_precision_off", "logits_held", "qlora_no_upcast", "use_cache")
_TRI = {None: "default", True: "on", False: "off"}
#: Megatron-Core's MoE token dispatchers (``parallel.moe_dispatcher``; None: the framework's default, all-to-all)
MOE_DISPATCHERS = [None, "alltoall", "allgather", "flex"]
#: Megatron-Core's per-layer CUDA graph scopes (``parallel.cuda_graph_scope``; None: Megatron's default, no graphs)
CUDA_GRAPH_SCOPES = [None, "attn", "moe_router", "attn_moe_router", "layer"]
#: torch.optim.AdamW's implementations (``training.optimizer_implementation``; None: the tool's default, fused)
OPTIMIZER_IMPLEMENTATIONS = [None, "fused", "foreach"]
#: the LoRA linear's implementations (``training.lora_layer``, core/flops.LORA_LAYERS; default PEFT's): the
#: scenario's own list
LORA_LAYERS = list(get_args(LoraLayer))


def tri_state(m, path: str) -> BoundCombo:
    """A ``bool | None`` field as framework default / on / off (the scenario keeps null for the default)."""
    return BoundCombo(m, path, list(_TRI.values()), getter=lambda: _TRI.get(m.value(path), "default"),
                      setter=lambda v: m.set(path, {"default": None, "on": True, "off": False}[v]))


def float_edit(m, path: str, allow_empty: bool = False) -> BoundEdit:
    return BoundEdit(m, path, parse=parse_float, fmt=fmt_float, allow_empty=allow_empty)


class TrainingAdvanced(QObject):
    """The Training page's rows for the older fields: an "Advanced" box, two rows in "Parallel layout" and an
    "Estimate assumptions" box."""

    def __init__(self, page: Any):
        super().__init__(page)
        self.page = page
        m = page.model
        self.box, form = page.group()
        self.fields: dict[str, Any] = {k: BoundCheck(m, f"training.{k}") for k in SWITCHES}
        self.fields["compile_loss"] = tri_state(m, "training.compile_loss")
        self.fields["checkpoint_reentrant"] = tri_state(m, "training.checkpoint_reentrant")
        self.fields["checkpoint_early_stop"] = tri_state(m, "training.checkpoint_early_stop")
        self.fields["fsdp_no_sync"] = tri_state(m, "training.fsdp_no_sync")
        self.fields["lora_dropout"] = float_edit(m, "training.lora_dropout", allow_empty=True)  # empty: tool default
        self.fields["lora_layer"] = BoundCombo(m, "training.lora_layer", LORA_LAYERS)
        self.fields["empty_cache_steps"] = BoundEdit(m, "training.empty_cache_steps", parse=parse_int, fmt=fmt_int,
                                                     allow_empty=True)
        self.fields.update({k: tri_state(m, f"training.{k}") for k in OVERLAP})
        self.fields["ds_zero3_gather"] = BoundCombo(m, "training.ds_zero3_gather", ["flat", "list"])
        self.fields["ds_config_auto"] = tri_state(m, "training.ds_config_auto")
        self.fields["ds_bf16_grad_accum"] = tri_state(m, "training.ds_bf16_grad_accum")
        self.fields["lora_a2a"] = BoundCheck(m, "training.lora_a2a")
        self.fields["tp_comm_overlap_disable_qkv"] = BoundCheck(m, "training.tp_comm_overlap_disable_qkv")
        self.fields["gpt_j_residual"] = BoundCheck(m, "training.gpt_j_residual")
        self.fields["optimizer_implementation"] = BoundCombo(m, "training.optimizer_implementation",
                                                             OPTIMIZER_IMPLEMENTATIONS)
        self.fields["recompute_modules"] = RecomputeModuleChecks(m, "training.recompute_modules")
        self.labels = {k: page.add_field(form, f) for k, f in self.fields.items()}
        # the search keeps both (core/search.py: the user's interleaving besides its own, offload_params_applies):
        # editable with the automatic layout too, as expert parallel's expert_tp
        par = page.par_box.layout()
        row = par.getWidgetPosition(page.layout_info)[0]  # above the data-parallel line that closes the box
        for k, f in (("vpp", BoundEdit(m, "parallel.vpp", parse=parse_int, fmt=fmt_int)),
                     ("offload_params", BoundCheck(m, "parallel.offload_params")),
                     ("moe_dispatcher", BoundCombo(m, "parallel.moe_dispatcher", MOE_DISPATCHERS)),
                     ("pp_account_embedding_loss", BoundCheck(m, "parallel.pp_account_embedding_loss")),
                     ("cuda_graph_scope", BoundCombo(m, "parallel.cuda_graph_scope", CUDA_GRAPH_SCOPES)),
                     ("moe_capacity_factor", float_edit(m, "parallel.moe_capacity_factor", True)),
                     ("moe_pad_to_capacity", BoundCheck(m, "parallel.moe_pad_to_capacity")),
                     ("ep_a2a_overlap", BoundCheck(m, "parallel.ep_a2a_overlap"))):
            self.fields[k] = f
            self.labels[k] = page.add_field(par, f)  # appended: moved up to ``row``
            par.takeRow(f.box)
            par.insertRow(row, self.labels[k], f.box)
            row += 1
        self.assume_box, af = page.group()
        a = {"mfu": float_edit(m, "assumptions.mfu", True),
             "memory_headroom_gib": float_edit(m, "assumptions.memory_headroom_gib"),
             "cuda_context_gib": float_edit(m, "assumptions.cuda_context_gib", True),
             "fragmentation": float_edit(m, "assumptions.fragmentation", True),
             "memory_metric": BoundCombo(m, "assumptions.memory_metric",
                                         ["reserved", "allocated", "allocated_last"])}
        self.fields.update(a)
        self.labels.update({k: page.add_field(af, f) for k, f in a.items()})

    def update_enabled(self, s, moe: bool) -> None:
        """Each row enabled where the chosen tool and model read it (disabled, never hidden, as the page's other
        rows): LoRA dropout for LoRA/QLoRA; DeepSpeed's ZeRO-3 collectives for DeepSpeed; the interleaved pipeline
        for a tool with an interleaved schedule (core/frameworks.py ``interleaved_pipeline``); the reentrant switch
        where the tool has one (core.frameworks.reentrant_switch: Megatron-Core and Unsloth run their own checkpoint
        function, torchtitan/torchtune only the non-reentrant one; core/scenario.py refuses the values they cannot
        run); parameter offload at ZeRO stage 3. A row whose value is not the default stays
        enabled, so a refused value can be put back."""
        from gpuplanner.core.timing import BRIDGE_LORA_SP_TOOLS

        t, p = s.training, s.parallel
        on = {"lora_dropout": t.method in ("lora", "qlora"),
              # NeMo AutoModel's LoRA linears patch Hugging Face models: the core's one rule (core/scenario.py
              # refuses them elsewhere, the search and the time model read the same function)
              "lora_layer": t.lora_layer != "peft" or frameworks.lora_layer_applies(t.method, t.dora, t.framework),
              "ds_zero3_gather": t.framework == "deepspeed" or t.ds_zero3_gather != "flat",
              "ds_config_auto": engine_of(t.framework) in ("deepspeed", "hf") or t.ds_config_auto is not None,
              # DeepSpeed's BF16 optimizer: the DeepSpeed-driven tools, and Megatron (Megatron-DeepSpeed's runs)
              "ds_bf16_grad_accum": (engine_of(t.framework) in ("deepspeed", "megatron") and t.precision == "bf16")
              or t.ds_bf16_grad_accum is not None,
              # Megatron-Bridge's LoRA adapters (timing.BRIDGE_LORA_SP_TOOLS); the QKV switch: Megatron-Core tools
              "lora_a2a": t.framework in BRIDGE_LORA_SP_TOOLS and t.method in ("lora", "qlora") or t.lora_a2a,
              "tp_comm_overlap_disable_qkv": engine_of(t.framework) == "megatron" or t.tp_comm_overlap_disable_qkv,
              # GPT-NeoX's own config switch (core/scenario.py refuses it for the other tools)
              "gpt_j_residual": t.framework == "gpt-neox" or t.gpt_j_residual,
              # virtual stages: the frameworks with an interleaved schedule (the search uses vpp 1 elsewhere)
              "vpp": support(t.framework).interleaved_pipeline or p.vpp != 1,
              "checkpoint_reentrant": reentrant_switch(t.framework) or t.checkpoint_reentrant is not None,
              "checkpoint_early_stop": frameworks.early_stop_switch(t.framework) or t.checkpoint_early_stop is not None,
              "offload_params": p.zero == 3 or p.offload_params}  # ZeRO-3/FSDP offload: refused below stage 3
        for key, enabled in on.items():
            self.fields[key].setEnabled(enabled)
            self.labels[key].setEnabled(enabled)
        # torchtitan's FSDP2 layout only (core/estimate.py reads it there); a set box stays in sight elsewhere
        self.box.layout().setRowVisible(self.fields["fsdp_root_embedding"].box, t.fsdp_root_embedding or (
            t.framework == "fsdp" and int(t.fsdp_version) == 2))
        # bitsandbytes' 4-bit layers: QLoRA only (core/scenario.py refuses it elsewhere); a set box stays in sight
        self.box.layout().setRowVisible(self.fields["legacy_bnb_4bit"].box, t.legacy_bnb_4bit or t.method == "qlora")
        self.box.layout().setRowVisible(self.fields["bnb_fp16_storage"].box, t.bnb_fp16_storage or t.method == "qlora")
        # FSDP's gradient sync and LoRA's FSDP units: the FSDP engines with sharded gradients (core/scenario.py
        # refuses them elsewhere); a set value stays in sight
        fsdp = frameworks.fsdp_sharded_gradients(t.framework, p.zero, t.fsdp_version)  # the core's rule (frameworks.py)
        self.box.layout().setRowVisible(self.fields["fsdp_no_sync"].box, fsdp or t.fsdp_no_sync is not None)
        self.box.layout().setRowVisible(self.fields["fsdp_lora_mixed_units"].box, t.fsdp_lora_mixed_units or
                                        frameworks.fsdp_lora_units_apply(t.framework, p.zero, t.fsdp_version, t.method))
        # Accelerate < 1.13's FSDP2 fp32 upcast: LoRA on FSDP2 FULL_SHARD (frameworks.fsdp2_upcast_allowed, the
        # core's rule the scenario's check reads); a set box stays in sight
        self.box.layout().setRowVisible(self.fields["fsdp2_fp32_upcast"].box, t.fsdp2_fp32_upcast or
                                        frameworks.fsdp2_upcast_allowed(t.framework, t.fsdp_version, p.zero, t.method))
        # the HF Trainer without --bf16: LoRA on the HF stack without DeepSpeed (frameworks.mixed_precision_off_allowed,
        # the core's rule the scenario's check reads); a set box stays in sight
        self.box.layout().setRowVisible(self.fields["mixed_precision_off"].box, t.mixed_precision_off or
                                        frameworks.mixed_precision_off_allowed(t.framework, p.zero, t.fsdp_version,
                                                                              t.method))
        # QLoRA without prepare_model_for_kbit_training's fp32 cast: the tools whose loader casts
        # (frameworks.qlora_no_upcast_allowed, the core's rule the scenario's check reads); a set box stays in sight
        self.box.layout().setRowVisible(self.fields["qlora_no_upcast"].box, t.qlora_no_upcast or
                                        frameworks.qlora_no_upcast_allowed(t.framework, t.method))
        # the training loop's fp32 logits through the backward: the eager, unchunked, unfused loss of Hugging Face
        # modelling code (frameworks.logits_held_unpriced, the core's rule the scenario's check refuses it by); a
        # set box stays in sight, so the user sees the refusal and can clear it
        self.box.layout().setRowVisible(self.fields["logits_held"].box,
                                        t.logits_held or frameworks.logits_held_unpriced(t) is None)
        # the key/value cache built in training: Hugging Face modelling code (core/memory.returned_kv_cache_bytes),
        # not Megatron-Core's own models; a set box stays in sight
        self.box.layout().setRowVisible(self.fields["use_cache"].box,
                                        t.use_cache or frameworks.use_cache_applies(t.framework))
        # the HF Trainer's torch_empty_cache_steps: the tools on the Trainer (core/scenario.py refuses it elsewhere)
        self.box.layout().setRowVisible(self.fields["empty_cache_steps"].box, t.empty_cache_steps is not None
                                        or engine_of(t.framework) in EMPTY_CACHE_ENGINES)
        # torch.optim.AdamW's fused/foreach kernels (core/timing._opt_bytes reads it for AdamW): not for the
        # Megatron-Core tools, which run their own fused Adam; a set value stays in sight
        adamw = t.optimizer == "adamw" and engine_of(t.framework) != "megatron"
        self.box.layout().setRowVisible(self.fields["optimizer_implementation"].box,
                                        adamw or t.optimizer_implementation is not None)
        self._megatron_rows(s, moe)

    def _megatron_rows(self, s, moe: bool) -> None:
        """Megatron-Core's CUDA graphs, token dropping, token dispatcher and pipeline split
        (``parallel.cuda_graph_scope``, ``moe_capacity_factor``, ``moe_pad_to_capacity``, ``moe_dispatcher``,
        ``pp_account_embedding_loss``): shown for the frameworks that run Megatron-Core (core.frameworks.engine_of,
        the tools the scenario accepts them for), token dropping, the dispatcher and the router's graph scopes for
        MoE models only (``moe``: :func:`app.engine.model_is_moe`, read once by the Training page); a value set
        elsewhere stays in sight, so it can be cleared. The
        Training page calls it on every estimate too (a config.json's architecture arrives with the estimate)."""
        par, p, f = self.page.par_box.layout(), s.parallel, self.fields
        megatron = engine_of(s.training.framework) == "megatron"
        par.setRowVisible(f["cuda_graph_scope"].box, megatron or p.cuda_graph_scope is not None)
        # the older MoE dispatcher and pipeline split: the scenario refuses both outside Megatron-Core
        par.setRowVisible(f["moe_dispatcher"].box, megatron and moe or p.moe_dispatcher is not None)
        par.setRowVisible(f["pp_account_embedding_loss"].box, megatron or p.pp_account_embedding_loss)
        par.setRowVisible(f["moe_capacity_factor"].box, megatron and moe or p.moe_capacity_factor is not None)
        par.setRowVisible(f["moe_pad_to_capacity"].box, megatron and moe or p.moe_pad_to_capacity)
        par.setRowVisible(f["ep_a2a_overlap"].box, megatron and moe or p.ep_a2a_overlap)
        # Megatron's selective recompute modules: the Advanced box, for the Megatron-Core tools under selective
        # recompute (core/scenario.py refuses them elsewhere); a set value stays in sight
        t = s.training
        self.box.layout().setRowVisible(f["recompute_modules"].box, t.recompute_modules is not None or (
            megatron and t.recompute == "megatron_selective"))
        combo = f["cuda_graph_scope"]
        for v in ("moe_router", "attn_moe_router"):
            combo.view().setRowHidden(combo.findData(v), not moe and p.cuda_graph_scope != v)

    def retranslate(self) -> None:
        self.box.setTitle(self.tr("Advanced: memory switches and communication overlap"))
        self.assume_box.setTitle(self.tr("Estimate assumptions"))
        for key, (label, tip) in {**self._switch_texts(), **self._checkpoint_texts(), **self._lora_texts(),
                                  **self._overlap_texts(), **self._layout_texts(),
                                  **self._assumption_texts()}.items():
            self.labels[key].setText(label)
            self.fields[key].box.set_help(tip)
        f = self.fields
        f["master_weights"].setText(self.tr("fp32 master weights and optimizer states"))
        f["optimizer_in_backward"].setText(self.tr("step each weight during the backward pass"))
        f["activation_offload"].setText(self.tr("saved activations in CPU memory"))
        f["chunked_loss"].setText(self.tr("loss over the logits in chunks"))
        f["torch_compile"].setText(self.tr("compiled (fused element-wise kernels)"))
        f["fsdp_root_embedding"].setText(self.tr("embedding kept gathered (torchtitan before July 2025)"))
        f["legacy_bnb_4bit"].setText(self.tr("bitsandbytes 0.41 to 0.43.1 (before July 2024)"))
        f["bnb_fp16_storage"].setText(self.tr("loaded without torch_dtype (fp16 under bf16 training)"))
        f["fsdp_lora_mixed_units"].setText(self.tr("adapters inside their block's unit (Lightning Fabric, Composer)"))
        f["fsdp2_fp32_upcast"].setText(self.tr("frozen weights cast to fp32 (Accelerate before 1.13)"))
        f["mixed_precision_off"].setText(self.tr("no bf16 or fp16 flag: adapters run in fp32"))
        f["logits_held"].setText(self.tr("fp32 logits kept until the backward pass ends (prime-rl before March 2026)"))
        f["qlora_no_upcast"].setText(self.tr("norms and embeddings kept in 16 bits (fms-acceleration's loader)"))
        f["use_cache"].setText(self.tr("key/value cache built while training (old llama-recipes)"))
        f["offload_params"].setText(self.tr("weights and gradients in CPU memory too"))
        f["pp_account_embedding_loss"].setText(self.tr("embedding and loss count as a layer each"))
        f["lora_a2a"].setText(self.tr("all-to-all for the row-parallel adapters' output"))
        f["tp_comm_overlap_disable_qkv"].setText(self.tr("the QKV projection's collectives not overlapped"))
        f["gpt_j_residual"].setText(self.tr("attention and MLP side by side, one all-reduce"))
        for k in (*OVERLAP, "compile_loss", "checkpoint_reentrant", "checkpoint_early_stop", "ds_config_auto",
                  "fsdp_no_sync", "ds_bf16_grad_accum"):
            f[k].set_labels({"default": self.tr("framework default"), "on": self.tr("on"), "off": self.tr("off")})
        f["ds_zero3_gather"].set_labels({"flat": self.tr("one flat all-gather per module (v0.5.5 and later)"),
                                          "list": self.tr("one all-gather per parameter (v0.3.13 to v0.5.4)")})
        f["optimizer_implementation"].set_labels({None: self.tr("tool default (fused; verl: unfused)"),
                                                   "fused": self.tr("fused (one kernel)"),
                                                   "foreach": self.tr("foreach (multi-tensor passes)")})
        f["lora_dropout"].box.set_unit(self.tr("probability"))
        f["lora_layer"].set_labels({"peft": self.tr("PEFT / torchtune (default)"),
                                    "automodel": self.tr("NeMo AutoModel (LinearLoRA)"),
                                    "automodel_triton": self.tr("NeMo AutoModel, Triton kernels"),
                                    "litgpt": self.tr("LitGPT before v0.3.1")})
        f["empty_cache_steps"].box.set_unit(self.tr("steps"))
        f["empty_cache_steps"].setPlaceholderText(self.tr("never (default)"))
        f["vpp"].box.set_unit(self.tr("per GPU"))
        f["moe_dispatcher"].set_labels({None: self.tr("framework default"), "alltoall": self.tr("all-to-all"),
                                        "allgather": self.tr("all-gather"),
                                        "flex": self.tr("flex (DeepEP / HybridEP)")})
        f["cuda_graph_scope"].set_labels({None: self.tr("none (Megatron's default)"), "attn": self.tr("attention"),
                                          "moe_router": self.tr("MoE router and preprocess"),
                                          "attn_moe_router": self.tr("attention, MoE router and preprocess"),
                                          "layer": self.tr("whole layer (MoE: with padding to capacity)")})
        f["moe_capacity_factor"].setPlaceholderText(self.tr("dropless (Megatron's default)"))
        f["moe_capacity_factor"].box.set_unit(self.tr("× even share"))
        f["moe_pad_to_capacity"].setText(self.tr("pad every expert's input to its capacity"))
        f["ep_a2a_overlap"].setText(self.tr("overlap the expert all-to-all with another micro-batch"))
        f["recompute_modules"].retranslate()
        f["mfu"].box.set_unit(self.tr("of peak"))
        f["mfu"].setPlaceholderText(self.tr("modelled"))
        for k in ("memory_headroom_gib", "cuda_context_gib"):
            f[k].box.set_unit("GiB")
        f["cuda_context_gib"].setPlaceholderText(self.tr("default: 0.75"))
        f["fragmentation"].box.set_unit(self.tr("of the rest"))
        f["fragmentation"].setPlaceholderText(self.tr("default: 0.05"))
        f["memory_metric"].set_labels({"reserved": self.tr("reserved (max_memory_reserved)"),
                                       "allocated": self.tr("allocated (max_memory_allocated)"),
                                       "allocated_last": self.tr("allocated on the last pipeline rank")})

    def _switch_texts(self) -> dict[str, tuple[str, str]]:
        return {
            "master_weights": (self.tr("Master weights"), self.tr(
                "On (default): an fp32 copy of the weights and fp32 optimizer states, as Megatron, DeepSpeed and "
                "PyTorch mixed precision keep them. Off: everything in 16 bits, as torchtune's bf16 recipes")),
            "optimizer_in_backward": (self.tr("Optimizer in backward"), self.tr(
                "torchtune optimizer_in_bwd (default off): each parameter is stepped as soon as its gradient is "
                "ready and the gradient is freed, so no full set of gradients is held; no gradient accumulation")),
            "activation_offload": (self.tr("Activation offload"), self.tr(
                "torchtune enable_activation_offloading (default off): saved activations go to CPU memory and "
                "come back for the backward pass")),
            "chunked_loss": (self.tr("Chunked loss"), self.tr(
                "torchtune CEWithChunkedOutputLoss (default off here): the output layer and the cross-entropy run "
                "in 8 chunks, so the full logits are never held at once")),
            "torch_compile": (self.tr("torch.compile"), self.tr(
                "The compile setting of torchtune and torchtitan (default off): element-wise operations are fused "
                "(faster steps); with chunked loss, only the 16-bit logits are kept")),
            "fsdp_root_embedding": (self.tr("Embedding in the root unit"), self.tr(
                "torchtitan before commit 83e694105 (July 2025) wrapped only the blocks, so the token embedding "
                "shared FSDP2's root unit with the final norm and output layer. FSDP2 never reshards the root after "
                "forward, so the embedding and output stay gathered until the end of backward (more memory). Off "
                "(default): torchtitan since July 2025, the embedding its own unit. torchtitan FSDP2 only")),
            "legacy_bnb_4bit": (self.tr("Old 4-bit layers"), self.tr(
                "bitsandbytes 0.41.0 to 0.43.1 kept each 4-bit layer's input from its forward to its backward "
                "(MatMul4Bit stored it outside save_for_backward; fixed in 0.43.2, July 2024), so with "
                "non-reentrant activation checkpointing every checkpointed layer holds those inputs too, and a layer "
                "without checkpointing holds the inputs it would not otherwise keep (more memory). Off (default): "
                "bitsandbytes 0.43.2 and later. QLoRA only")),
            "bnb_fp16_storage": (self.tr("4-bit model stored in fp16"), self.tr(
                "A 4-bit model loaded without torch_dtype keeps its embeddings, norms and output layer in fp16 "
                "(transformers' bitsandbytes default), as ms-swift v1 did for Qwen-1 before January 2024. Under bf16 "
                "training the output layer is copied to bf16 on every step and each 4-bit layer makes its own bf16 "
                "copy of its input (more memory). Off (default): the model is loaded in the training dtype. QLoRA "
                "only")),
            **self._sharding_switch_texts(),
            "compile_loss": (self.tr("Compiled loss"), self.tr(
                "With torch.compile, compile the cross-entropy with the model (torchtitan compile.components, "
                "[\"model\", \"loss\"] since April 2025): it keeps only the 16-bit logits instead of their fp32 "
                "copies. Framework default: on for torchtitan (FSDP2), off elsewhere; no effect without "
                "torch.compile")),
            "empty_cache_steps": (self.tr("Empty the cache every"), self.tr(
                "Hugging Face TrainingArguments torch_empty_cache_steps (default: never): torch.cuda.empty_cache() "
                "every N steps. With samples of varying length, the cached memory beside the longest batch is then "
                "an ordinary batch's, not an earlier long one's (less reserved memory). Hugging Face-based tools "
                "only")),
            "recompute_modules": (self.tr("Recompute modules"), self.tr(
                "Megatron --recompute-modules with selective recompute: the parts of each layer that are re-run in "
                "the backward pass instead of kept (less memory, slower steps). Attention core: the score matrix "
                "(nothing to drop with flash attention). Norms: the norm outputs not fused into a linear layer. "
                "Expert activation: the experts' activation output. MLA up projections. Dense MLP. MoE layer: the "
                "whole MoE layer, its all-to-all included. Shared experts. None ticked: Megatron's default, the "
                "attention core. Megatron only, with selective recompute")),
            "lora_dropout": (self.tr("LoRA dropout"), self.tr(
                "PEFT LoraConfig lora_dropout. Empty: the framework's own default (0.0, no dropout layer; ms-swift "
                "and Megatron-SWIFT: 0.05), for the search's other frameworks too. Above 0 each adapted linear layer "
                "runs a dropout pass on its input (slower steps) and keeps its own dropped copy of that input for "
                "the backward pass (more memory); from 0 to below 1")),
        }

    def _sharding_switch_texts(self) -> dict[str, tuple[str, str]]:
        """The switches about FSDP, precision and the loss's logits (split from :meth:`_switch_texts`)."""
        return {
            "fsdp_no_sync": (self.tr("FSDP sync off while accumulating"), self.tr(
                "With gradient accumulation, every micro-batch but the last of a step runs without FSDP's gradient "
                "sync (FSDP no_sync, Lightning Fabric no_backward_sync), so each GPU keeps the full, unsharded "
                "gradients of its trainable layers until the step's last micro-batch (more memory, as Accelerate's "
                "documentation warns). Framework default: on for the Hugging Face Trainer on FSDP1, off for "
                "torchtitan, torchtune and Composer. FSDP with sharded gradients only")),
            "fsdp_lora_mixed_units": (self.tr("LoRA inside FSDP units"), self.tr(
                "LoRA adapters in the same FSDP1 unit as their block's frozen weights, with use_orig_params (Lightning "
                "Fabric 2.x with LitGPT, Composer): the whole block then gets gradients, so every block weight has a "
                "gradient too (more memory). Off (default): the adapters are units of their own (PEFT's wrap policy "
                "under Accelerate, torchtune, verl) or FSDP2. LoRA under FSDP only")),
            "fsdp2_fp32_upcast": (self.tr("FSDP2 fp32 upcast"), self.tr(
                "Accelerate 1.12 and earlier cast the whole model to fp32 when it prepares FSDP2 with bf16 or fp16 "
                "mixed precision, so each GPU's share of a LoRA run's frozen weights takes 4 bytes a parameter "
                "instead of 2 (more memory); the gathered copy the layers run with stays 16-bit. Off (default): Accelerate "
                "1.13 and later (only trainable weights are cast), torchtitan and torchtune. LoRA on FSDP2 with "
                "full sharding only")),
            "mixed_precision_off": (self.tr("Without mixed precision"), self.tr(
                "LoRA on the Hugging Face Trainer run without mixed precision (no bf16 or fp16 flag, the model loaded "
                "in bf16): there is no autocast, so PEFT's fp32 adapters run entirely in fp32: each adapted layer "
                "copies its input to fp32 and adds an fp32 output to the layer's (slower); under Accelerate's FSDP1 "
                "FSDP casts nothing either. Off (default): the bf16 or fp16 flag. LoRA on the Hugging Face stack "
                "without DeepSpeed only")),
            "qlora_no_upcast": (self.tr("QLoRA without fp32 upcast"), self.tr(
                "The QLoRA loader skips PEFT's preparation step that casts the weights that are not 4-bit (norms, "
                "embeddings, output layer) to fp32, as fms-acceleration's bitsandbytes plugin does. The layers then "
                "keep their inputs in 16 bits (faster, less memory). Off (default): the Hugging Face Trainer and TRL "
                "cast them. QLoRA on those tools only (Axolotl casts them back to 16 bits by itself)")),
            "logits_held": (self.tr("Logits held through backward"), self.tr(
                "The training loop still holds the fp32 logits while the backward pass runs (prime-rl's SFT trainer "
                "before March 2026 deleted its own name for them but kept them in the model's output): 4 more bytes "
                "a logit at the loss (more memory). Off (default): the Hugging Face Trainer and torchtitan free "
                "them first. Unchunked loss only")),
            "use_cache": (self.tr("Key/value cache in training"), self.tr(
                "The model's forward pass builds and returns its key/value cache while training, as Transformers "
                "does by default when the loop checkpoints the layers itself (llama-recipes before September 2023): "
                "each checkpointed layer's keys and values stay in memory until the loss, and through the backward "
                "pass when the loop also holds the logits (more memory). Off (default): the Hugging Face Trainer's "
                "gradient checkpointing turns the cache off. Hugging Face models only")),
        }

    def _checkpoint_texts(self) -> dict[str, tuple[str, str]]:
        return {
            "checkpoint_reentrant": (self.tr("Reentrant checkpoint"), self.tr(
                "use_reentrant of torch.utils.checkpoint for gradient checkpointing (HF "
                "gradient_checkpointing_kwargs, LLaMA-Factory use_reentrant_gc). Off (non-reentrant) adds about "
                "1 ms of host time per layer and micro-batch. Framework default: off for transformers 5 and TRL, "
                "on for LLaMA-Factory and Axolotl; Megatron, Unsloth and torchtitan/torchtune have no such choice")),
            "checkpoint_early_stop": (self.tr("Checkpoint early stop"), self.tr(
                "Non-reentrant torch.utils.checkpoint stops the recompute once the backward's tensors are re-made, so "
                "each layer's last matmul (the MLP's output projection) is not run again: about a third of the MLP's "
                "recompute. Framework default: off for torchtitan (PyTorch FSDP2, full training: off since August "
                "2025), on elsewhere (PyTorch 2.1 and later). Turn it on for torchtitan runs before September 2025, "
                "off for PyTorch 1.13 and 2.0. No effect under torch.compile (the compiler never re-runs that "
                "matmul) or with a reentrant checkpoint, Megatron, DeepSpeed or Unsloth")),
        }

    def _lora_texts(self) -> dict[str, tuple[str, str]]:
        return {
            "lora_layer": (self.tr("LoRA layer"), self.tr(
                "Which code runs each adapted linear layer. PEFT / torchtune (default): the adapter's output is "
                "scaled by alpha / rank as a full-width tensor, forward and backward. NeMo AutoModel (its "
                "LinearLoRA): the scaling multiplies the rank-wide product instead, and its dropout runs on the "
                "adapter's output (less memory traffic, faster steps). NeMo AutoModel, Triton kernels: its "
                "TritonLinearLoRA (use_triton: true; AutoModel turns it off whenever Transformer Engine is "
                "installed), whose backward reads each layer's input once more. LitGPT before v0.3.1: with LoRA on "
                "query and value only, every forward rebuilds an index tensor from a Python list and copies it to "
                "the GPU (host time, about 1 ms a layer for a 7B model). LoRA and QLoRA on Hugging Face "
                "models, without DoRA")),
        }

    def _overlap_texts(self) -> dict[str, tuple[str, str]]:
        return {
            "overlap_grad_reduce": (self.tr("Overlap gradient reduce"), self.tr(
                "Reduce gradients during the backward pass (Megatron --overlap-grad-reduce, DDP buckets, FSDP2, "
                "DeepSpeed overlap_comm). Framework default: on for Megatron recipes, DDP and FSDP2; DeepSpeed "
                "on for ZeRO-3 only")),
            "overlap_param_gather": (self.tr("Overlap weight gather"), self.tr(
                "Gather sharded weights under compute (Megatron --overlap-param-gather, FSDP2 prefetch, DeepSpeed "
                "ZeRO-3 prefetch). Framework default: on with Megatron's distributed optimizer and FSDP2 "
                "ZeRO-2/3; DeepSpeed as the gradient reduce")),
            "tp_comm_overlap": (self.tr("Overlap tensor-parallel communication"), self.tr(
                "Run tensor-parallel collectives under the matrix multiplies (Megatron/Transformer Engine "
                "--tp-comm-overlap, torchtitan enable_async_tensor_parallel; needs sequence parallelism). Framework default: on for "
                "Megatron with sequence parallelism, off for torchtitan")),
            "overlap_p2p_comm": (self.tr("Overlap pipeline sends"), self.tr(
                "Run the pipeline's sends and receives under compute (Megatron, on by default with the "
                "interleaved schedule); off for the other frameworks")),
            "ds_zero3_gather": (self.tr("ZeRO-3 gather"), self.tr(
                "How your DeepSpeed version gathers ZeRO-3 weights. Default: one flat all-gather per module fetch "
                "(v0.5.5 and later, PR #1188). Older versions (v0.3.13 to v0.5.4) run one all-gather per parameter "
                "after a device sync and reduce-scatter gradients per parameter, with nothing overlapped: choose "
                "it only for a run on those versions. DeepSpeed plans only")),
            "ds_config_auto": (self.tr("DeepSpeed auto sizes"), self.tr(
                "Whether your DeepSpeed config writes reduce_bucket_size, stage3_prefetch_bucket_size and "
                "stage3_param_persistence_threshold as \"auto\", which Transformers and Accelerate fill from the "
                "model (hidden², 0.9·hidden², 10·hidden). Off: DeepSpeed's own defaults (500 million, 50 million and "
                "100 thousand elements). Framework default: off for DeepSpeed alone, on for the Hugging Face-based tools. DeepSpeed ZeRO only")),
            "ds_bf16_grad_accum": (self.tr("DeepSpeed BF16 optimizer"), self.tr(
                "Whether DeepSpeed's BF16 optimizer trains your model: in bf16 with ZeRO stage 0 it keeps fp32 "
                "gradients and, after every micro-batch, adds the bf16 gradients into them, a pass over memory "
                "that grows with the micro-batches per step. Turn it on for a Megatron-DeepSpeed run (BLOOM's "
                "setup). Framework default: on for DeepSpeed and GPT-NeoX in bf16 with ZeRO 0, off otherwise")),
            "lora_a2a": (self.tr("LoRA all-to-all"), self.tr(
                "Megatron-Bridge LoRA a2a_experimental (default off; the MLPerf NeMo LoRA configs set LORA_A2A=1): "
                "with sequence parallelism, the row-parallel adapters (on the attention output and the second MLP "
                "linear) move their output to the sequence shard with one all-to-all instead of an all-gather "
                "(less traffic, faster steps). Megatron-Bridge LoRA only")),
            "tp_comm_overlap_disable_qkv": (self.tr("No overlap for the QKV projection"), self.tr(
                "Megatron-Core tp_comm_overlap_disable_qkv (default off; the NeMo 2 LoRA recipes and the MLPerf "
                "Llama 2 70B LoRA configs turn it on): the all-gather before the QKV projection and the "
                "reduce-scatter of its input gradient run without Transformer Engine's userbuffers overlap "
                "(slower steps); with Megatron-Bridge LoRA the QKV adapter then reuses the gathered input instead "
                "of gathering its own. Megatron-Core tools, with tensor-parallel overlap only")),
            "gpt_j_residual": (self.tr("Parallel residual"), self.tr(
                "GPT-NeoX gpt-j-residual (default off in GPT-NeoX; the Pythia and GPT-NeoX-20B configs turn it on): "
                "attention and MLP both read the layer input and their outputs are added to it together, so each "
                "layer runs one tensor-parallel all-reduce instead of two in the forward pass and in its "
                "recomputation (the backward pass still runs two): faster steps with tensor parallelism. "
                "GPT-NeoX only")),
            "optimizer_implementation": (self.tr("AdamW implementation"), self.tr(
                "PyTorch torch.optim.AdamW fused=True or foreach=True (torchtitan optimizer.implementation). Fused: "
                "one kernel updates the weights and both moments. Foreach: eight multi-tensor passes over the fp32 "
                "states, about 2.7 times the memory traffic of the optimizer step (slower steps). Tool default: "
                "fused, as torchtitan since February 2025 (PR #881) and the fused Adam of Megatron and "
                "DeepSpeed; torchtitan before it ran foreach; verl's RL workers build AdamW without fused, so "
                "its steps make the eight passes. Foreach also holds one more copy of the second moments while "
                "the optimizer steps (more memory; the Hugging Face Trainer ran foreach before its fused default "
                "for PyTorch 2.8). AdamW only")),
        }

    def _layout_texts(self) -> dict[str, tuple[str, str]]:
        return {
            "vpp": (self.tr("Interleaved pipeline (VPP)"), self.tr(
                "Megatron --num-virtual-stages-per-pipeline-rank: each GPU holds this many smaller pipeline "
                "stages, which shrinks the pipeline bubble but sends more. Default 1 (no interleaving); the "
                "layers of each stage must divide evenly. The automatic layout keeps it and tries others")),
            "offload_params": (self.tr("Offload parameters"), self.tr(
                "DeepSpeed ZeRO-3 offload_param / FSDP CPUOffload with offload_params: weights and gradients "
                "live in CPU memory too (default off). Needs ZeRO stage 3. RL on FSDP (verl param_offload, "
                "EasyR1 offload_params; default off): the actor's weights move to CPU memory between phases, "
                "on the GPUs while it trains and away while vLLM generates, copied over PCIe every step")),
            "moe_dispatcher": (self.tr("MoE token dispatcher"), self.tr(
                "Megatron --moe-token-dispatcher-type, for MoE models. All-to-all (the default, as Megatron-Bridge "
                "sets it): each token's routed copies go to their experts' GPUs. All-gather: every GPU gathers the "
                "expert group's tokens. Flex (DeepEP or HybridEP kernels): a token crosses the network once per "
                "remote node and is forwarded over NVLink. Megatron only")),
            "pp_account_embedding_loss": (self.tr("Pipeline split"), self.tr(
                "Megatron --account-for-embedding-in-pipeline-split and --account-for-loss-in-pipeline-split: the "
                "first and last pipeline stages hold one layer fewer, because the embedding and the output layer "
                "count as a layer each. Off (Megatron's default): the layers are split evenly and the last stage "
                "also runs the output layer, which the others wait for. Megatron only")),
            "cuda_graph_scope": (self.tr("CUDA graphs"), self.tr(
                "Megatron --cuda-graph-impl transformer_engine with --cuda-graph-scope: the captured parts of each "
                "layer (the attention block; the MoE router with the dispatcher's preprocess) replay as one CUDA "
                "graph, so the CPU no longer issues their kernels one by one. It matters where the CPU limits the "
                "step: MoE layers with small experts, whose dispatcher waits for the GPU every layer. None "
                "(Megatron's default): no graphs. Whole layer: for an MoE model only with padding to capacity. Not "
                "with full recompute. Megatron only")),
            "moe_capacity_factor": (self.tr("MoE capacity factor"), self.tr(
                "Megatron --moe-expert-capacity-factor: each expert takes at most this many times its even share of "
                "the routed tokens and drops the rest. Empty (Megatron's default): dropless. Megatron only")),
            "ep_a2a_overlap": (self.tr("EP all-to-all overlap"), self.tr(
                "Megatron --overlap-moe-expert-parallel-comm --delay-wgrad-compute: one micro-batch's layer forward "
                "runs beside another's backward, so the expert all-to-all hides behind their attention and expert "
                "GEMMs (faster steps). Needs expert parallelism, the all-to-all or flex dispatcher, no full "
                "recompute, no MoE-layer recompute and, with a pipeline, interleaving (VPP above 1). On Hopper and "
                "older GPUs the tensor-parallel overlap is then off unless you set it. Off: Megatron's default. "
                "Megatron only")),
            "moe_pad_to_capacity": (self.tr("MoE padding"), self.tr(
                "Megatron --moe-pad-expert-input-to-capacity: every expert's input is padded to its capacity, so "
                "the shapes never change, the dispatcher no longer waits for the token counts every layer and the "
                "whole layer can be a CUDA graph; padded rows cost GEMM time. Needs a capacity factor. Megatron "
                "only")),
        }

    def _assumption_texts(self) -> dict[str, tuple[str, str]]:
        return {
            "mfu": (self.tr("MFU"), self.tr(
                "Your own model FLOPs utilisation, from 0 to 1 (e.g. 0.4 from a run you measured): it replaces the "
                "modelled step time. Empty (default): the time model's own estimate")),
            "memory_headroom_gib": (self.tr("Kept free per GPU"), self.tr(
                "GiB each GPU keeps free beyond the estimate before a layout counts as fitting (default 2). The "
                "planning rule “memory headroom” is another check: it ranks plans with less free memory than the "
                "memory model's p75 error after the others")),
            "cuda_context_gib": (self.tr("CUDA context"), self.tr(
                "Memory the CUDA context, NCCL and library workspaces take on each GPU, outside PyTorch's "
                "allocator. Empty: 0.75 GiB")),
            "fragmentation": (self.tr("Fragmentation"), self.tr(
                "Reserved memory PyTorch's caching allocator cannot reuse, as a share of the rest, from 0 to 1. "
                "Empty: 0.05 (a judgement; expandable segments leave almost none)")),
            "memory_metric": (self.tr("Measured memory figure"), self.tr(
                "Which allocator figure a measured peak is compared with: torch.cuda.max_memory_reserved "
                "(default) or max_memory_allocated, on the busiest rank or on the last pipeline rank (the one "
                "Megatron-LM logs its memory from). What fits is judged on the whole card either way")),
        }


class HardwareAdvanced(QObject):
    """The Hardware page's server box: the link inside a server and the host memory per server."""

    def __init__(self, page: Any, form: Any):
        super().__init__(page)
        m = page.model
        self.intra = BoundCombo(m, "hardware.intra_node", [None, "nvlink", "pcie"])
        self.host_ram = float_edit(m, "hardware.host_ram_gib", True)
        self.labels = {"intra": page.add_field(form, self.intra), "host_ram": page.add_field(form, self.host_ram)}

    def retranslate(self) -> None:
        self.labels["intra"].setText(self.tr("Link inside a server"))
        self.intra.box.set_help(self.tr(
            "The GPU-to-GPU link the estimate uses inside one server. Default: the catalog's link for the GPU "
            "(NVLink for SXM cards, PCIe for PCIe cards); set it when the servers you rent differ"))
        self.intra.set_labels({None: self.tr("the GPU's own link"), "nvlink": "NVLink", "pcie": "PCIe"})
        self.labels["host_ram"].setText(self.tr("CPU memory per server"))
        self.host_ram.box.set_help(self.tr(
            "The servers' CPU memory: checked against what CPU offload of optimizer states, weights or "
            "activations needs. Empty (default): not checked"))
        self.host_ram.box.set_unit("GiB")
        self.host_ram.setPlaceholderText(self.tr("not checked"))


class KindChecks(QWidget):
    """``constraints.price_kinds`` as one box per kind of quote: null (the default kinds, list card-hours, package
    and wholesale months) shows those ticked; ticking none is refused at the field and not stored."""

    def __init__(self, model: Any, path: str):
        from gpuplanner.core.catalog_hw import PRICE_KINDS  # the core loads with the page, not at import

        super().__init__()
        self.model, self.path = model, path
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.checks = {k: QCheckBox(self) for k in PRICE_KINDS}
        for c in self.checks.values():
            lay.addWidget(c)
            c.toggled.connect(self._on_toggled)
        self.box = FieldBox(self)
        self.sync()

    def _on_toggled(self, _on: bool) -> None:
        kinds = [k for k, c in self.checks.items() if c.isChecked()]
        self.box.set_error(self.model.set(self.path, kinds) if kinds else self.tr("Tick at least one kind of quote"))

    def sync(self) -> None:
        from gpuplanner.core.catalog_hw import DEFAULT_PRICE_KINDS

        kinds = self.model.value(self.path) or DEFAULT_PRICE_KINDS
        for k, c in self.checks.items():
            c.blockSignals(True)
            c.setChecked(k in kinds)
            c.blockSignals(False)

    def refresh_error(self) -> None:
        self.box.set_error(self.model.error(self.path))

    def retranslate(self) -> None:
        from gpuplanner.core.cost import KIND_LABELS

        for k, c in self.checks.items():
            c.setText(QCoreApplication.translate("Cost", KIND_LABELS[k]))


class PriceSources(QObject):
    """The Time and budget page's rows for where default prices come from: the region, the kinds of quote and
    the other region's quotes, converted (``constraints.region``, ``price_kinds``, ``converted_prices``)."""

    def __init__(self, page: Any, form: Any):
        super().__init__(page)
        m = page.model
        self.fields = {"region": BoundCombo(m, "constraints.region", [None, "mainland_china", "worldwide"]),
                       "price_kinds": KindChecks(m, "constraints.price_kinds"),
                       "converted_prices": tri_state(m, "constraints.converted_prices")}
        self.labels = {k: page.add_field(form, f) for k, f in self.fields.items()}

    def retranslate(self) -> None:
        f = self.fields
        texts = {
            "region": (self.tr("Prices from"), self.tr(
                "Where the GPUs are rented: default prices come from that region's quotes only. Default: "
                "mainland China for CNY plans, worldwide for USD plans")),
            "price_kinds": (self.tr("Kinds of quote"), self.tr(
                "Which kinds of default quote the plans are priced from. Default: list card-hour prices and "
                "package or wholesale month prices")),
            "converted_prices": (self.tr("Other region's quotes"), self.tr(
                "Price a GPU from the other region's quotes, converted at the exchange rate, when its own region "
                "has none. Default: off for mainland China, on for worldwide USD plans")),
        }
        for key, (label, tip) in texts.items():
            self.labels[key].setText(label)
            f[key].box.set_help(tip)
        f["region"].set_labels({None: self.tr("the currency's region"), "mainland_china": self.tr("mainland China"),
                                "worldwide": self.tr("worldwide")})
        f["converted_prices"].set_labels({"default": self.tr("default"), "on": self.tr("used, converted"),
                                          "off": self.tr("not used")})
        f["price_kinds"].retranslate()


class _MenuChecks(QToolButton):
    """A list field as a menu of items to tick (``items``: id → the action's first text); none ticked is null, shown
    as :meth:`_empty_text`. As wide as its cell: a tool button keeps the width of its first text and draws the menu
    arrow over a longer one (ux19: three modules ticked, Chinese). Subclasses translate their own texts (their
    ``self.tr`` calls stay in their own context)."""

    def __init__(self, model: Any, path: str, items: dict[str, str]):
        super().__init__()
        self.model, self.path = model, path
        self.full_text = ""  # the whole text; the button shows it shortened to fit (_elide)
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self)
        self.checks = {}
        for key, text in items.items():
            a = menu.addAction(text)
            a.setCheckable(True)
            a.toggled.connect(self._on_toggled)
            self.checks[key] = a
        self.setMenu(menu)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.box = FieldBox(self)
        self.sync()

    def _empty_text(self) -> str:
        raise NotImplementedError

    def _on_toggled(self, _on: bool) -> None:
        ids = [k for k, a in self.checks.items() if a.isChecked()]
        self.box.set_error(self.model.set(self.path, ids or None))
        self._show()

    def _show(self) -> None:
        names = [a.text() for a in self.checks.values() if a.isChecked()]
        self.full_text = format_list(names) if names else self._empty_text()
        self.updateGeometry()
        self._elide()

    def _room(self) -> int:
        """The text's width inside the button: its width less the menu arrow drawn in its corner (and padding)."""
        arrow = self.style().pixelMetric(QStyle.PixelMetric.PM_MenuButtonIndicator, None, self)
        return self.width() - 2 * arrow - 8

    def _elide(self) -> None:
        # a cell narrower than the ticked names: "…" at the end instead of text under the arrow (the menu shows
        # every name with its tick)
        text = self.fontMetrics().elidedText(self.full_text, Qt.TextElideMode.ElideRight, max(self._room(), 16))
        if text != self.text():
            self.setText(text)

    def sizeHint(self) -> QSize:  # what the whole text wants, never the shortened one (no shrinking loop)
        arrow = self.style().pixelMetric(QStyle.PixelMetric.PM_MenuButtonIndicator, None, self)
        h = super().sizeHint()
        return QSize(max(h.width(), self.fontMetrics().horizontalAdvance(self.full_text) + 2 * arrow + 8), h.height())

    def minimumSizeHint(self) -> QSize:
        return QSize(8 * self.fontMetrics().averageCharWidth(), super().minimumSizeHint().height())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._elide()

    def sync(self) -> None:
        ids = self.model.value(self.path) or ()
        for k, a in self.checks.items():
            a.blockSignals(True)
            a.setChecked(k in ids)
            a.blockSignals(False)
        self._show()

    def refresh_error(self) -> None:
        self.box.set_error(self.model.error(self.path))


class RecomputeModuleChecks(_MenuChecks):
    """``training.recompute_modules`` (Megatron-Core's ``--recompute-modules``) as a menu of modules to tick; none
    ticked is null: Megatron's default, the attention core (core/recompute.MEGATRON_DEFAULT_MODULES)."""

    MODULES = ("core_attn", "layernorm", "moe_act", "mla_up_proj", "mlp", "moe", "shared_experts")

    def __init__(self, model: Any, path: str):
        super().__init__(model, path, {mod: mod for mod in self.MODULES})

    def _empty_text(self) -> str:
        return self.tr("attention core (Megatron's default)")

    def retranslate(self) -> None:
        labels = {"core_attn": self.tr("attention core"), "layernorm": self.tr("norms"),
                  "moe_act": self.tr("expert activation"), "mla_up_proj": self.tr("MLA up projections"),
                  "mlp": self.tr("dense MLP"), "moe": self.tr("MoE layer"),
                  "shared_experts": self.tr("shared experts")}
        for k, a in self.checks.items():
            a.setText(labels[k])
        self._show()


class FrameworkChecks(_MenuChecks):
    """``constraints.framework_candidates`` as a menu of frameworks to tick (the search may choose only those);
    none ticked is null: the search's own list (core/frameworks.frameworks_for: the four engines, or the tools
    with a trainer for a preference or RL objective)."""

    def __init__(self, model: Any, path: str):
        from gpuplanner.core.frameworks import FRAMEWORKS

        super().__init__(model, path, {fid: sup.name for fid, sup in FRAMEWORKS.items()})

    def _empty_text(self) -> str:
        return self.tr("the search's own list")

    def retranslate(self) -> None:
        self._show()
        self.box.set_help(self.tr(
            "The frameworks the search may choose from when it chooses the framework. None ticked (default): the "
            "four engines (Hugging Face Trainer, DeepSpeed, PyTorch FSDP2, Megatron-Core), or for a preference or "
            "RL objective the tools that document a trainer for it"))

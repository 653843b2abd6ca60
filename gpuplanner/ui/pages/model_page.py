"""Step 1: which model — a searchable preset, an imported config.json / model folder, or manual fields."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QComboBox, QFileDialog, QFormLayout, QGridLayout, QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem,
    QPushButton, QVBoxLayout, QWidget,
)

from gpuplanner.core.architecture import EXPLICIT_FIELDS, WRITE_IF_SET, ModelArch, load_presets
from gpuplanner.core.errors import PlannerError
from gpuplanner.core.estimate import tier_guidance
from gpuplanner.io.hf_cache import cache_dir, is_model_id, list_cached_models
from gpuplanner.io.model_files import ModelFiles, load_model_source
from gpuplanner.formatting import format_number, format_params

from .. import settings
from ..fields import BoundCheck, BoundEdit, fmt_float, fmt_int, parse_float, parse_int
from ..text import error_message, plain, set_style, tr_error, tr_msg
from .base import BasePage

MANUAL_FIELDS = [
    ("hidden_size", "hidden_size"), ("num_hidden_layers", "num_layers"), ("num_attention_heads", "num_heads"),
    ("num_key_value_heads", "num_kv_heads"), ("intermediate_size", "intermediate_size"),
    ("vocab_size", "vocab_size"), ("num_experts", "num_experts"), ("num_experts_per_tok", "num_experts_per_tok"),
    ("moe_intermediate_size", "moe_intermediate_size"),
]
ARCH_KEYS = [k for k, _ in MANUAL_FIELDS]
#: every explicit model field: choosing another model clears them all (a custom copy's head_dim, a moved plan's
#: vision tower), so nothing of the previous model stays attached to the new one
MODEL_FIELDS = list(EXPLICIT_FIELDS)
ARCH_DEFAULTS = {f.name: f.default for f in dataclasses.fields(ModelArch)}


class CachedModelCombo(QComboBox):
    """The model-id box: editable; its list is re-read from the local Hugging Face cache each time it opens, so a
    model downloaded while the app runs appears."""

    def __init__(self, refresh, parent: QWidget | None = None):
        super().__init__(parent)
        self._refresh = refresh

    def showPopup(self) -> None:  # noqa: N802 (Qt)
        self._refresh()
        super().showPopup()


def tier_color(tier: str) -> str:
    return {"10B": "#2e7d32", "100B": "#ef6c00", "1000B": "#c62828"}.get(tier, "#555")


class ModelPage(BasePage):
    def title(self) -> str:
        return self.tr("Model")

    # long: builds the page's form row by row (Qt layout code)
    def build(self) -> None:
        m = self.model
        # --- source: presets / import
        self.src_box, src = self.group(QVBoxLayout)
        row = QHBoxLayout()
        self.filter = QLineEdit()
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._filter_presets)
        row.addWidget(self.filter, 1)
        self.import_config_btn = QPushButton()
        self.import_config_btn.clicked.connect(self.import_config)
        self.import_folder_btn = QPushButton()
        self.import_folder_btn.clicked.connect(self.import_folder)
        row.addWidget(self.import_config_btn)
        row.addWidget(self.import_folder_btn)
        src.addLayout(row)
        # a Hugging Face model id, typed or chosen from the models in the local cache (read offline)
        idrow = QHBoxLayout()
        self.hf_id_label = QLabel()
        idrow.addWidget(self.hf_id_label)
        self.hf_id = CachedModelCombo(lambda: self.refresh_cached_models())
        self.hf_id.setEditable(True)
        self.hf_id.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.hf_id.setMinimumContentsLength(24)
        self.hf_id.lineEdit().returnPressed.connect(lambda: self.import_id(self.hf_id.currentText()))
        self.hf_id.activated.connect(lambda _i: self.import_id(self.hf_id.currentText()))
        idrow.addWidget(self.hf_id, 1)
        self.hf_id_btn = QPushButton()
        self.hf_id_btn.clicked.connect(lambda: self.import_id(self.hf_id.currentText()))
        idrow.addWidget(self.hf_id_btn)
        src.addLayout(idrow)
        self.refresh_cached_models()
        self.presets = QListWidget()
        self.presets.setMinimumHeight(150)
        self.presets.setMaximumHeight(200)
        self.presets.setAlternatingRowColors(True)
        for pid, p in sorted(load_presets().items(), key=lambda kv: (kv[1].family, kv[1].name)):
            it = QListWidgetItem(p.name)
            it.setData(Qt.ItemDataRole.UserRole, pid)
            pub = format_params(p.published_total) if p.published_total else "?"
            it.setToolTip(f"{p.name} ({pid})\n{p.source} ({p.source_date})\n" + self.tr("published: {0}").format(pub))
            self.presets.addItem(it)
        self.presets.itemActivated.connect(self._on_preset_item)
        self.presets.itemClicked.connect(self._on_preset_item)
        src.addWidget(self.presets)
        self.source_label = QLabel()
        self.source_label.setWordWrap(True)
        self.source_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        src.addWidget(self.source_label)
        self.import_error = plain(QLabel())
        self.import_error.setWordWrap(True)
        self.import_error.setStyleSheet("color: #c62828;")
        self.import_error.hide()
        src.addWidget(self.import_error)

        # --- parameter count and tier
        self.count_box, cl = self.group(QVBoxLayout)
        grid = QGridLayout()
        self.total_title, self.total_value = QLabel(), QLabel()
        self.active_title, self.active_value = QLabel(), QLabel()
        self.trainable_title, self.trainable_value = QLabel(), QLabel()
        big = self.total_value.font()
        big.setPointSizeF(big.pointSizeF() * 1.5)
        big.setBold(True)
        for i, (t, v) in enumerate([(self.total_title, self.total_value), (self.active_title, self.active_value),
                                    (self.trainable_title, self.trainable_value)]):
            v.setFont(big)
            v.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            grid.addWidget(t, 0, i)
            grid.addWidget(v, 1, i)
        cl.addLayout(grid)
        trow = QHBoxLayout()
        self.tier_badge = QLabel()
        self.tier_badge.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.tier_badge.setMinimumWidth(70)
        trow.addWidget(self.tier_badge, 0, Qt.AlignmentFlag.AlignTop)
        self.tier_text = plain(QLabel())
        self.tier_text.setWordWrap(True)
        trow.addWidget(self.tier_text, 1)
        cl.addLayout(trow)
        self.exact_label = QLabel()
        self.exact_label.setWordWrap(True)
        self.exact_label.setStyleSheet("color: #555;")
        cl.addWidget(self.exact_label)
        self.intake_warnings = QLabel()
        self.intake_warnings.setTextFormat(Qt.TextFormat.PlainText)
        self.intake_warnings.setWordWrap(True)
        self.intake_warnings.setStyleSheet("color: #8a5300;")
        self.intake_warnings.hide()
        cl.addWidget(self.intake_warnings)

        # --- images (vision-language models only)
        self.vision_box, vform = self.group(QFormLayout)
        self.images = BoundEdit(m, "data.images_per_sample", parse=parse_float, fmt=fmt_float)
        self.images_label = self.add_field(vform, self.images)
        self.resolution = BoundEdit(m, "data.image_resolution", parse=parse_int, fmt=fmt_int)
        self.resolution_label = self.add_field(vform, self.resolution, "px")
        self.freeze_vision = BoundCheck(m, "training.freeze_vision")
        self.freeze_vision_label = self.add_field(vform, self.freeze_vision)
        self.freeze_projector = BoundCheck(m, "training.freeze_projector")
        self.freeze_projector_label = self.add_field(vform, self.freeze_projector)
        self.image_tokens = QLabel()
        self.image_tokens.setWordWrap(True)
        self.image_tokens.setStyleSheet("color: #555;")
        vform.addRow(self.image_tokens)
        self.vision_box.hide()

        # --- manual fields (override the preset/config)
        self.manual_box, form = self.group(QFormLayout)
        self.manual_labels = {}
        self.manual = {}
        for key, _attr in MANUAL_FIELDS:
            f = BoundEdit(m, f"model.{key}", parse=parse_int, fmt=fmt_int, allow_empty=True)
            self.manual[key] = f
            self.manual_labels[key] = self.add_field(form, f)
        btns = QHBoxLayout()
        self.custom_btn = QPushButton()
        self.custom_btn.clicked.connect(self.make_custom)
        self.clear_btn = QPushButton()
        self.clear_btn.clicked.connect(self.clear_overrides)
        btns.addWidget(self.custom_btn)
        btns.addWidget(self.clear_btn)
        btns.addStretch(1)
        w = QWidget()
        w.setLayout(btns)
        form.addRow(w)
        self.ctx.estimator.updated.connect(self.on_estimate)

    def retranslate(self) -> None:
        self.heading.setText(self.tr("1 · Model"))
        self.intro.setText(self.tr(
            "Pick a preset, import a Hugging Face config.json or a whole model folder, or type the "
            "architecture. Fields left empty come from the preset or config; a typed value overrides it."))
        self.src_box.setTitle(self.tr("Model source"))
        self.filter.setPlaceholderText(self.tr("Search presets (name or family)…"))
        self.filter.setToolTip(self.tr("Type part of a model name, e.g. 'llama 70' or 'qwen'"))
        self.import_config_btn.setText(self.tr("Import config.json…"))
        self.import_config_btn.setToolTip(self.tr(
            "Read the architecture from a Hugging Face config.json (the parameter count is computed from it)"))
        self.import_folder_btn.setText(self.tr("Import model folder…"))
        self.import_folder_btn.setToolTip(self.tr(
            "Read config.json and the safetensors headers of a downloaded model: the exact stored parameter "
            "count, without loading any weights"))
        self.presets.setToolTip(self.tr("Presets ship with the app; each cites its source (hover an entry)"))
        self.hf_id_label.setText(self.tr("Model id:"))
        self.hf_id.lineEdit().setPlaceholderText(self.tr("e.g. Qwen/Qwen2.5-7B"))
        self.hf_id.setToolTip(self.tr(
            "A Hugging Face model id, read offline from the local cache ({0}); the list holds the models found "
            "there").format(str(cache_dir())))
        self.hf_id_btn.setText(self.tr("Use model id"))
        self.hf_id_btn.setToolTip(self.tr("Read config.json and the safetensors headers of this model from the "
                                          "local Hugging Face cache (nothing is downloaded)"))
        self.count_box.setTitle(self.tr("Parameters"))
        self.total_title.setText(self.tr("Total"))
        self.active_title.setText(self.tr("Active per token"))
        self.trainable_title.setText(self.tr("Trainable"))
        self.total_value.setToolTip(self.tr("Every stored weight: sets the memory for weights, gradients and optimizer"))
        self.active_value.setToolTip(self.tr("Weights used per token (differs for MoE): sets the compute per token"))
        self.trainable_value.setToolTip(self.tr("Weights that get gradients (LoRA trains only the adapters)"))
        self.manual_box.setTitle(self.tr("Architecture (override or custom model)"))
        self.vision_box.setTitle(self.tr("Images (vision-language model)"))
        self.images_label.setText(self.tr("Images per sample"))
        self.images.box.set_help(self.tr("Images in each training sequence; their tokens count in the sequence length"))
        self.resolution_label.setText(self.tr("Image size"))
        self.resolution.box.set_help(self.tr(
            "Side of a (square) image in pixels, for encoders with dynamic resolution (Qwen2-VL); CLIP and SigLIP "
            "towers resize to their fixed size"))
        self.freeze_vision_label.setText(self.tr("Vision encoder"))
        self.freeze_vision.setText(self.tr("frozen"))
        self.freeze_vision.box.set_help(self.tr(
            "Frozen (LLaMA-Factory's default): weights only, no gradients, optimizer states or saved activations"))
        self.freeze_projector_label.setText(self.tr("Projector"))
        self.freeze_projector.setText(self.tr("frozen"))
        self.freeze_projector.box.set_help(self.tr("The projector (merger) between the vision encoder and the "
                                                   "language model; frozen by default in LLaMA-Factory"))
        names = {
            "hidden_size": (self.tr("Hidden size"), self.tr("Width of the residual stream (d_model); weights grow with its square")),
            "num_hidden_layers": (self.tr("Layers"), self.tr("Number of transformer blocks; memory and compute grow linearly")),
            "num_attention_heads": (self.tr("Attention heads"), self.tr("Query heads; tensor parallelism must divide it")),
            "num_key_value_heads": (self.tr("KV heads"), self.tr("Key/value heads (GQA); fewer heads shrink the K/V projections")),
            "intermediate_size": (self.tr("MLP width"), self.tr("Hidden width of the feed-forward block (dense layers)")),
            "vocab_size": (self.tr("Vocabulary"), self.tr("Token vocabulary; sets the embedding and output layer and the logits memory")),
            "num_experts": (self.tr("Experts (MoE)"), self.tr("Routed experts per MoE layer; 0 for a dense model")),
            "num_experts_per_tok": (self.tr("Experts per token"), self.tr("Experts each token is routed to: sets the active parameters")),
            "moe_intermediate_size": (self.tr("Expert MLP width"), self.tr("Hidden width of one expert's feed-forward block")),
        }
        for key, (label, tip) in names.items():
            self.manual_labels[key].setText(label)
            self.manual[key].box.set_help(tip)
        self.custom_btn.setText(self.tr("Make custom copy"))
        self.custom_btn.setToolTip(self.tr("Copy the current architecture into the fields and drop the preset, "
                                           "to describe a model that is not in the list"))
        self.clear_btn.setText(self.tr("Clear overrides"))
        self.clear_btn.setToolTip(self.tr("Empty the fields so every value comes from the preset or config again"))
        self.on_estimate(self.ctx.estimator.result)
        self._update_source()

    # ------------------------------------------------------------------------------- presets
    def _filter_presets(self, text: str) -> None:
        words = text.lower().split()
        for i in range(self.presets.count()):
            it = self.presets.item(i)
            hay = f"{it.text()} {it.data(Qt.ItemDataRole.UserRole)}".lower()
            it.setHidden(not all(w in hay for w in words))

    def _on_preset_item(self, item: QListWidgetItem) -> None:
        self.choose_preset(item.data(Qt.ItemDataRole.UserRole))

    def choose_preset(self, preset_id: str) -> None:
        values = {"model.preset": preset_id, "model.hf_config": None, "model.name": None}
        values.update({f"model.{k}": None for k in MODEL_FIELDS})
        self.model.discard_pending()
        self.model.set_many(values)
        self.import_error.hide()

    def _select_current_preset(self) -> None:
        pid = self.model.scenario.model.preset
        for i in range(self.presets.count()):
            it = self.presets.item(i)
            if it.data(Qt.ItemDataRole.UserRole) == pid:
                if self.presets.currentItem() is not it:
                    self.presets.setCurrentItem(it)
                return
        self.presets.clearSelection()
        self.presets.setCurrentItem(None)

    # ------------------------------------------------------------------------------- import
    def import_config(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import config.json"), settings.last_dir(),
                                              self.tr("Model config (*.json);;All files (*)"))
        if path:
            self.import_path(path)

    def import_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, self.tr("Import model folder"), settings.last_dir())
        if path:
            self.import_path(path)

    def import_path(self, path: str) -> bool:
        """Check the file/folder with the core, then point the scenario at it."""
        try:
            load_model_source(Path(path))
        except PlannerError as err:
            first = err.args[0] if err.args else None  # a MsgStr keeps its message id: shown translated
            why = tr_msg(first) if hasattr(first, "context") and hasattr(first, "params") else str(err)
            self.import_error.setText(self.tr("Cannot import {0}: {1}").format(Path(path).name, why))
            self.import_error.show()
            return False
        settings.remember_dir(path)
        self.import_error.hide()
        values = {"model.preset": None, "model.hf_config": str(Path(path).resolve()), "model.name": None}
        values.update({f"model.{k}": None for k in MODEL_FIELDS})
        self.model.discard_pending()
        self.model.set_many(values)
        return True

    def refresh_cached_models(self) -> None:
        """Fill the model-id list with the models in the local Hugging Face cache."""
        text = self.hf_id.currentText()
        self.hf_id.blockSignals(True)
        self.hf_id.clear()
        for m in list_cached_models():
            self.hf_id.addItem(m.model_id)
        self.hf_id.setCurrentIndex(-1)
        self.hf_id.setEditText(text)
        self.hf_id.blockSignals(False)

    def import_id(self, text: str) -> bool:
        """Point the scenario at a model id after reading it from the local cache (errors say why)."""
        ref = text.strip()
        if not ref:
            return False
        if not is_model_id(ref):
            self.import_error.setText(self.tr("'{0}' is not a Hugging Face model id (organisation/name)").format(ref))
            self.import_error.show()
            return False
        try:
            ModelFiles().load(ref)
        except PlannerError as err:
            self.import_error.setText(self.tr("Cannot import {0}: {1}").format(ref, error_message(err)))
            self.import_error.show()
            return False
        self.import_error.hide()
        self.hf_id.setEditText(ref)
        values = {"model.preset": None, "model.hf_config": ref, "model.name": None}
        values.update({f"model.{k}": None for k in MODEL_FIELDS})
        self.model.discard_pending()
        self.model.set_many(values)
        return True

    # ------------------------------------------------------------------------------- manual
    def make_custom(self) -> None:
        res = self.ctx.estimator.result
        if res is None or res.evaluation is None:
            return
        a = res.evaluation.arch
        values = {"model.preset": None, "model.hf_config": None, "model.name": a.name}
        for key, attr in MANUAL_FIELDS:
            values[f"model.{key}"] = int(getattr(a, attr)) or (None if key.startswith(("num_experts", "moe")) else 0)
        if a.num_experts == 0:
            for k in ("num_experts", "num_experts_per_tok", "moe_intermediate_size"):
                values[f"model.{k}"] = None
        # a vision tower and what the intake did not know go with the copy (non-default values only)
        for key in WRITE_IF_SET:
            value = getattr(a, EXPLICIT_FIELDS[key])
            if value != ARCH_DEFAULTS[EXPLICIT_FIELDS[key]]:
                values[f"model.{key}"] = value
        values["model.head_dim"] = a.head_dim
        values["model.gated_mlp"] = a.gated_mlp
        values["model.tie_word_embeddings"] = a.tie_word_embeddings
        self.model.set_many(values)

    def clear_overrides(self) -> None:
        for k in ARCH_KEYS:
            self.model.discard_pending(f"model.{k}")
        if self.model.scenario.model.preset or self.model.scenario.model.hf_config:
            self.model.set_many({f"model.{k}": None for k in ARCH_KEYS})
        for f in self.manual.values():
            f.local_error = None
            f.sync()
            f.refresh_error()

    # ------------------------------------------------------------------------------- live
    def on_model_changed(self, section: str) -> None:
        if section in ("model", "all"):
            self._update_source()

    def _update_source(self) -> None:
        ms = self.model.scenario.model
        if ms.preset:
            p = load_presets().get(ms.preset)
            # a preset the catalog lacks (a typo in a file) is said so, not "source: ? (?)" (ux26)
            text = (self.tr("Preset: {0} — source: {1} ({2})").format(p.name, p.source, p.source_date) if p else
                    self.tr("Preset: {0} — not in the catalog: pick one from the list").format(ms.preset))
        elif ms.hf_config and is_model_id(ms.hf_config) and not Path(ms.hf_config).expanduser().exists():
            text = self.tr("Hugging Face model {0}, read from the local cache").format(ms.hf_config)
        elif ms.hf_config:
            text = self.tr("Imported: {0}").format(ms.hf_config)
        else:
            text = self.tr("Custom architecture from the fields below")
        self.source_label.setText(text)
        self._select_current_preset()

    def on_estimate(self, res) -> None:
        if res is None or res.evaluation is None:
            for v in (self.total_value, self.active_value, self.trainable_value):
                v.setText("—")
            self.tier_badge.setText("")
            set_style(self.tier_badge, "")
            self.tier_text.setText(tr_error(res.error, self) if res is not None and res.error else "")
            set_style(self.tier_text, "color: #c62828;")
            self.exact_label.setText("")
            self.intake_warnings.hide()
            return
        est = res.evaluation
        self.vision_box.setVisible(bool(est.arch.vision_kind))
        if est.arch.vision_kind:
            patches, tokens = est.image_tokens
            self.image_tokens.setText(self.tr("{0} image tokens per sample for the language model ({1} patches "
                                              "through the vision encoder)").format(format_number(tokens, 0), format_number(patches, 0)))
        warn = [tr_msg(w) for w in getattr(est, "warnings", ())]
        self.intake_warnings.setText("\n".join("⚠ " + w for w in warn))
        self.intake_warnings.setVisible(bool(warn))
        pc = est.params
        self.total_value.setText(format_params(pc.total))
        self.active_value.setText(format_params(pc.active))
        self.trainable_value.setText(format_params(est.trainable))
        tier = est.tier
        self.tier_badge.setText(tier)
        set_style(
            self.tier_badge, f"background: {tier_color(tier)}; color: white; border-radius: 4px; padding: 3px 8px; font-weight: bold;")
        self.tier_badge.setToolTip(self.tr("Scale tier of the model (by total parameters)"))
        set_style(self.tier_text, "")
        self.tier_text.setText(QCoreApplication.translate(
            "Tier", tier_guidance(tier, self.model.scenario.training.method)))
        arch = est.arch
        if arch.unrecognised:
            bits = [self.tr("about {0} parameters (architecture not recognised)").format(format_number(pc.total, 0))]
        else:
            bits = [self.tr("{0} parameters exactly").format(format_number(pc.total, 0))]
        if pc.vision or pc.projector:
            bits.append(self.tr("vision encoder {0} + projector {1}").format(
                format_params(pc.vision), format_params(pc.projector)))
        if arch.stored_params:
            bits.append(self.tr("safetensors headers: {0} stored ({1})").format(
                format_number(arch.stored_params, 0), arch.stored_dtype or "?"))
        ms = self.model.scenario.model
        if ms.preset:
            p = load_presets().get(ms.preset)
            if p and p.published_total:
                bits.append(self.tr("published: {0}").format(format_params(p.published_total)))
        self.exact_label.setText(" · ".join(bits))
        # placeholders show the inherited values
        for key, attr in MANUAL_FIELDS:
            self.manual[key].setPlaceholderText(str(getattr(arch, attr)))

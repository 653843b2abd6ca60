"""Step 3: how much data — tokens, samples × length, or GB of text × tokens per GB; epochs; compute."""

from __future__ import annotations

from gpuplanner.formatting import format_flops, format_number, format_tokens

from PySide6.QtWidgets import QButtonGroup, QFormLayout, QHBoxLayout, QLabel, QRadioButton, QWidget

from gpuplanner.core.messages import error_text
from gpuplanner.core.units import parse_count

from gpuplanner.app import engine
from ..fields import BoundCombo, BoundEdit, fmt_count, fmt_tokens, fmt_float, parse_float, parse_int, parse_positive, fmt_int
from ..model import TOKENS_PER_GB
from .base import BasePage


def parse_positive_count(text: str) -> float:
    return parse_positive(parse_count(text))


def parse_positive_float(text: str) -> float:
    return parse_positive(parse_float(text))


class DataPage(BasePage):
    def title(self) -> str:
        return self.tr("Data volume")

    def build(self) -> None:
        m = self.model
        self.mode_box, form = self.group()
        row = QHBoxLayout()
        self.mode_group = QButtonGroup(self)
        self.mode_buttons = {}
        for i, key in enumerate(("tokens", "samples", "bytes")):
            b = QRadioButton()
            self.mode_group.addButton(b, i)
            self.mode_buttons[key] = b
            row.addWidget(b)
            b.toggled.connect(lambda on, k=key: on and self._set_mode(k))
        row.addStretch(1)
        w = QWidget()
        w.setLayout(row)
        self.mode_label = QLabel()
        form.addRow(self.mode_label, w)

        def ui_edit(key, parse, fmt):
            return BoundEdit(m, None, parse=parse, fmt=fmt, getter=lambda: m.ui.get(key),
                             setter=lambda v, k=key: self._set_ui(k, v))

        # the text as typed is kept (the plan file's tokens_text); the field shows the count in the UI language
        # (fmt_tokens: "2B" / "20 亿") once the edit is finished and whenever the language changes
        self.tokens = ui_edit("tokens_text", lambda t: (parse_positive_count(t), t)[1], fmt_tokens)
        self.tokens.editingFinished.connect(self._show_tokens)
        self.samples = ui_edit("samples", lambda t: int(parse_positive_count(t)), fmt_count)
        # the samples' average length is the scenario's data.mean_sample_len (the Training page's "Mean sample
        # length"): one value, shown and written in both places
        self.avg_len = BoundEdit(m, "data.mean_sample_len", parse=lambda t: int(parse_positive_count(t)), fmt=fmt_int,
                                 getter=self._avg_len, setter=m.set_mean_sample_len)
        self.dataset_gb = ui_edit("dataset_gb", parse_positive_float, fmt_float)
        self.language = BoundCombo(m, None, list(TOKENS_PER_GB), getter=lambda: m.ui.get("language"),
                                   setter=self._set_language)
        self.tokens_per_gb = ui_edit("tokens_per_gb", parse_positive_count, fmt_count)
        self.epochs = ui_edit("epochs", parse_positive_float, fmt_float)
        self.labels = {}
        for key, f in [("tokens", self.tokens), ("samples", self.samples), ("avg_len", self.avg_len),
                       ("dataset_gb", self.dataset_gb), ("language", self.language),
                       ("tokens_per_gb", self.tokens_per_gb), ("epochs", self.epochs)]:
            self.labels[key] = self.add_field(form, f)
        self.form = form

        self.result_box, rf = self.group()
        self.total_label, self.total_value = QLabel(), QLabel()
        self.flops_label, self.flops_value = QLabel(), QLabel()
        for v in (self.total_value, self.flops_value):
            f = v.font()
            f.setBold(True)
            f.setPointSizeF(f.pointSizeF() * 1.2)
            v.setFont(f)
        rf.addRow(self.total_label, self.total_value)
        rf.addRow(self.flops_label, self.flops_value)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        rf.addRow(self.hint)
        self.ctx.estimator.updated.connect(lambda _r: self._update_results())

    def _set_ui(self, key, value) -> str | None:
        self.model.set_ui(key, value)
        return self.apply_tokens()

    def _show_tokens(self) -> None:
        """The token field, once edited, shows the count it read (the typed text is kept unless it is an error)."""
        if self.tokens.local_error is None:
            text = fmt_tokens(self.tokens.current())
            if text != self.tokens.text():
                self.tokens.setText(text)

    def _avg_len(self) -> int | None:
        """The samples' average length: the scenario's mean sample length, else the input state's (the default)."""
        v = self.model.value("data.mean_sample_len")
        return v if v is not None else self.model.ui.get("avg_len")

    def _set_mode(self, mode: str) -> str | None:
        """Describe the data as tokens, samples × length or GB of text. Samples × length writes its length as
        the scenario's mean sample length (the value the field shows), with the data volume it makes."""
        self.model.set_ui("data_mode", mode)
        if mode == "samples":
            err = self.model.set_mean_sample_len(self._avg_len())
            self._update_visibility()
            return err
        return self.apply_tokens()

    def _set_language(self, lang: str) -> None:
        self.model.set_ui("language", lang)
        self.model.set_ui("tokens_per_gb", TOKENS_PER_GB[lang])
        self.tokens_per_gb.sync()
        self.apply_tokens()

    def apply_tokens(self) -> str | None:
        """Write unique tokens × epochs into the scenario (the core's data.tokens)."""
        try:
            total = engine.unique_tokens(self.model.ui) * float(self.model.ui.get("epochs") or 1.0)
        except ValueError as err:
            return error_text(err)  # keeps its message id: the field shows it in the UI language
        self._update_visibility()
        return self.model.set("data.tokens", total)

    def retranslate(self) -> None:
        self.heading.setText(self.tr("3 · Data volume"))
        self.intro.setText(self.tr(
            "How many tokens the training processes. Give tokens directly, or samples × their average "
            "length, or the size of the raw text × tokens per GB."))
        self.mode_box.setTitle(self.tr("Dataset"))
        self.mode_label.setText(self.tr("Describe it as"))
        self.mode_buttons["tokens"].setText(self.tr("tokens"))
        self.mode_buttons["samples"].setText(self.tr("samples × length"))
        self.mode_buttons["bytes"].setText(self.tr("GB of text"))
        texts = {
            "tokens": (self.tr("Tokens"), self.tr("Tokens in one pass, e.g. 300B, 1.5T or 2000000000: time and cost grow linearly")),
            "samples": (self.tr("Samples"), self.tr("Number of training examples (e.g. 50k, 1.2M)")),
            "avg_len": (self.tr("Average length"), self.tr(
                "Average tokens per example after tokenisation. The same value as the Training page's Mean sample "
                "length: it also sets how much padding the rows carry")),
            "dataset_gb": (self.tr("Dataset size"), self.tr("Raw UTF-8 text size in GB (10^9 bytes)")),
            "language": (self.tr("Language"), self.tr("Sets the default tokens per GB; measure with your tokenizer when you can")),
            "tokens_per_gb": (self.tr("Tokens per GB"), self.tr(
                "How many tokens 1 GB of text becomes: English ≈ 250M (≈4 characters per token); edit it for your tokenizer")),
            "epochs": (self.tr("Epochs"), self.tr("Passes over the data: multiplies the tokens processed")),
        }
        for key, (label, tip) in texts.items():
            self.labels[key].setText(label)
            getattr(self, key).box.set_help(tip)
        self.avg_len.box.set_unit(self.tr("tokens"))
        self.dataset_gb.box.set_unit(self.tr("GB"))
        self.epochs.box.set_unit(self.tr("×"))
        self.language.set_labels({"en": self.tr("English"), "zh": self.tr("Chinese"), "code": self.tr("Source code")})
        self.result_box.setTitle(self.tr("Training volume"))
        self.total_label.setText(self.tr("Tokens processed"))
        self.flops_label.setText(self.tr("Total compute (6·N·D)"))
        self._show_tokens()  # the count in the new language's units
        self.flops_value.setToolTip(self.tr(
            "6 × active parameters × tokens (Kaplan et al. 2020): forward 2, backward 4 FLOPs per parameter and token"))
        self._update_visibility()
        self._update_results()

    def _update_visibility(self) -> None:
        mode = self.model.ui.get("data_mode", "tokens")
        b = self.mode_buttons[mode]
        if not b.isChecked():
            b.blockSignals(True)
            b.setChecked(True)
            b.blockSignals(False)
        vis = {"tokens": mode == "tokens", "samples": mode == "samples", "avg_len": mode == "samples",
               "dataset_gb": mode == "bytes", "language": mode == "bytes", "tokens_per_gb": mode == "bytes"}
        for key, on in vis.items():
            self.form.setRowVisible(getattr(self, key).box, on)

    def on_model_changed(self, section: str) -> None:
        if section in ("ui", "all", "data"):
            self._update_visibility()
            self._update_results()

    def _update_results(self) -> None:
        s = self.model.scenario
        tokens = s.data.tokens
        self.total_value.setText(self.tr("{0} tokens").format(format_tokens(tokens, digits=4)))
        res = self.ctx.estimator.result
        if res is None or res.evaluation is None:
            self.flops_value.setText("—")
            self.hint.setText("")
            return
        ev = res.evaluation
        # model FLOPs over the data (the same figure as the time model, the CLI and the report)
        self.flops_value.setText(format_flops(ev.total_flops))
        if s.training.method == "pretrain":
            opt = ev.compute_optimal_tokens
            ratio = ev.tokens_per_param
            self.hint.setText(self.tr(
                "Compute-optimal hint (Chinchilla, ≈20 tokens per parameter): about {0} tokens for this "
                "model; you have {1} tokens per parameter.").format(format_tokens(opt, digits=3), format_number(ratio, 1)))
        else:
            self.hint.setText(self.tr("Fine-tuning: the data volume is whatever your task needs; the "
                                      "20-tokens-per-parameter rule applies to pretraining only."))

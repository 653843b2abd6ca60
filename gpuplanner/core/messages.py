"""The one message type: a sentence id (context + English template, marked with ``QT_TRANSLATE_NOOP``) and its
parameters, translated and formatted only when shown (``gpuplanner.i18n.translate_message``). The core, verify,
the report and the UI all pass these around; nothing is formatted in English first. A parameter may itself be a
message (translated with the sentence)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class Msg:
    """A user-facing sentence: ``QCoreApplication.translate(context, text).format(**params)``;
    :meth:`render` gives the English sentence."""

    context: str
    text: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self) -> str:
        """The English sentence (parameters that are messages themselves are rendered too)."""
        return self.text.format(**{k: v.render() if isinstance(v, Msg) else v for k, v in self.params.items()})

    def to_json(self) -> dict:
        return {"text": self.render(), "template": self.text, "context": self.context,
                "params": {k: v.to_json() if isinstance(v, Msg) else v for k, v in self.params.items()}}

    def __str__(self) -> str:  # pragma: no cover - convenience
        return self.render()

    @classmethod
    def of(cls, msg: Any) -> "Msg":
        """``msg`` as a message: a message as it is, anything with context/text/params copied, a plain string
        as an untranslated sentence."""
        if isinstance(msg, Msg):
            return msg
        if hasattr(msg, "text") and hasattr(msg, "context"):
            return cls(str(msg.context), str(msg.text), dict(getattr(msg, "params", {}) or {}))
        return cls("", str(msg), {})


class MsgStr(str):
    """An English sentence that is a plain ``str`` everywhere (CLI output, logs, exceptions, JSON) and also keeps
    its message id (``context``, ``text``, ``params``), so a view can show it in the UI language
    (``ui.text.tr_msg`` / ``i18n.translate_message``). For code that formatted a marked sentence at once."""

    context: str
    text: str
    params: dict

    @classmethod
    def make(klass, context: str, template: str, /, **params: Any) -> "MsgStr":
        rendered = template.format(**{k: v.render() if isinstance(v, Msg) else v for k, v in params.items()})
        out = klass(rendered)
        out.context, out.text, out.params = context, template, dict(params)
        return out

    def render(self) -> str:
        return str.__str__(self)

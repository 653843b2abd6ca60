"""A verdict line of the verify layer as a translatable message (:class:`gpuplanner.core.messages.Msg`).

The network and health checks return these: the severity plus the sentence id and its parameters, so the
CLI prints the English sentence (:meth:`Msg.render`) and the app translates it at display time
(``gpuplanner.i18n.translate_message``). Pure Python, no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.messages import Msg

#: Severities, least to most severe ("info" counts as "ok" for the worst-of).
SEVERITIES = ("ok", "info", "warn", "bad")
_RANK = {"ok": 0, "info": 0, "warn": 1, "bad": 2}


@dataclass(frozen=True)
class Finding:
    severity: str  # "ok" | "info" | "warn" | "bad"
    msg: Msg

    @property
    def text(self) -> str:
        """The English sentence."""
        return self.msg.render()

    def to_json(self) -> dict:
        out = {"severity": self.severity}
        out.update(self.msg.to_json())
        return out


def worst(findings: list[Finding]) -> str:
    """"ok", "warn" or "bad" (info counts as ok)."""
    rank = max((_RANK[f.severity] for f in findings), default=0)
    return ("ok", "warn", "bad")[rank]


def findings_first(findings: list[Finding]) -> list[Finding]:
    """The findings with problems first (bad, then warn, then info/ok), order kept within a severity."""
    return sorted(findings, key=lambda f: -_RANK[f.severity] * 2 - (f.severity == "info"))

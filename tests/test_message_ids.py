"""One message type end to end: a marked sentence is never formatted before it is translated.

``QT_TRANSLATE_NOOP(CTX, "… {x} …").format(x=…)`` produces an English string that has lost its message id,
so the app and ``--lang zh_CN`` can only show it in English. Such sentences are built with
``MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "…"), x=…)`` (an English ``str`` that keeps its id) or ``Msg``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "gpuplanner"
MARKERS = {"QT_TRANSLATE_NOOP", "QT_TR_NOOP", "QT_TRANSLATE_NOOP3"}


def formatted_before_translation(source: str) -> list[int]:
    """Lines where a marked sentence is ``.format``-ted or ``%``/``+``-combined at once."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            inner = node.func.value
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            inner = node.left
        else:
            continue
        if isinstance(inner, ast.Call) and getattr(inner.func, "id", None) in MARKERS:
            out.append(node.lineno)
    return out


def test_the_scan_finds_a_formatted_marked_sentence():
    bad = 'x = QT_TRANSLATE_NOOP("C", "unknown GPU {id}").format(id=1)\ny = QT_TR_NOOP("a %s") % 3\n'
    good = 'x = MsgStr.make("C", QT_TRANSLATE_NOOP("C", "unknown GPU {id}"), id=1)\n'
    assert formatted_before_translation(bad) == [1, 2]
    assert formatted_before_translation(good) == []


@pytest.mark.parametrize("path", sorted(ROOT.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_sentence_is_formatted_before_translation(path):
    lines = formatted_before_translation(path.read_text(encoding="utf-8"))
    assert not lines, f"{path.relative_to(ROOT)}: marked sentence formatted in English at line(s) {lines}"


def test_plan_file_error_keeps_its_message_id_and_translates():
    """A plan-file error is shown in the CLI's language: the problem and the frame both keep their ids."""
    from gpuplanner.i18n import translate_message
    from gpuplanner.io.planfile import PlanFileError, loads

    with pytest.raises(PlanFileError) as info:
        loads("{not json", "bad.gpuplan")
    first = info.value.args[0]
    assert str(first).startswith("bad.gpuplan: not valid JSON")
    assert first.context == "PlanFile" and "problem" in first.params
    from gpuplanner.commands import _lang

    _lang.install("zh_CN")
    try:
        zh = translate_message(first.context, first.text, first.params)
    finally:
        _lang.install("en")
    assert zh.startswith("bad.gpuplan") and "JSON" in zh and "not valid" not in zh, zh

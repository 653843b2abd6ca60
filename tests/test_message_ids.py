"""One message type end to end: a marked sentence is never formatted before it is translated.

``QT_TRANSLATE_NOOP(CTX, "… {x} …").format(x=…)`` produces an English string that has lost its message id,
so the app and ``--lang zh_CN`` can only show it in English. Such sentences are built with
``MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "…"), x=…)`` (an English ``str`` that keeps its id) or ``Msg``.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "gpuplanner"
MARKERS = {"QT_TRANSLATE_NOOP", "QT_TR_NOOP", "QT_TRANSLATE_NOOP3"}


def _src(name: str) -> Path:
    """An example by name: examples/, or tests/data/examples_fixed/ for the fixed-layout files that left
    examples/ in issue 35 round 16 (examples16: those examples now let the search choose)."""
    here = ROOT.parent / "examples" / name
    return here if here.exists() else ROOT.parent / "tests" / "data" / "examples_fixed" / name


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


# --------------------------------------------------------------------------- errors raised as plain English

CHECKED = ("core", "io", "verify")
#: files still to convert (none left: core/architecture.py was the last, issue #15)
NOT_YET: set[str] = set()
#: programming errors (a caller passed a bad argument): never shown to a person, so not translated
PROGRAMMING_ERRORS = {
    ("io/autosave.py", "session ids are letters, digits, '-' and '_'"),
    ("io/autosave.py", "need 0 <= delay_s <= max_wait_s"),
}
#: the file is the first argument; the sentences are ``problem`` and ``why``
FILE_FIRST = {"PlanFileError": (1, 3)}


def error_classes(sources: dict[str, str | ast.AST]) -> set[str]:
    """Names of every class deriving from ``PlannerError`` in ``sources`` (by their bases' names), plus
    ``ValueError``: raised in a pydantic validator, its sentence is the user's message (``validation_reason``)."""
    known, grew = {"PlannerError"}, True
    trees = [src if isinstance(src, ast.AST) else ast.parse(src) for src in sources.values()]
    classes = [node for tree in trees for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    while grew:
        grew = False
        for c in classes:
            bases = {getattr(b, "id", getattr(b, "attr", None)) for b in c.bases}
            if c.name not in known and bases & known:
                known.add(c.name)
                grew = True
    return known | {"ValueError"}


def _english(node: ast.AST) -> bool:
    """A sentence that has lost (or never had) its message id: a str constant, an f-string, a ``.format`` call,
    ``+``/``%`` with such a sentence, ``str(…)``, or a bare ``QT_TRANSLATE_NOOP(…)`` (a plain str at run time)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return _english(node.left) or _english(node.right)
    if isinstance(node, ast.Call):
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        return name in ("format", "str") or name in MARKERS
    return False


def english_errors(source: str | ast.AST, classes: set[str]) -> list[tuple[int, str]]:
    """(line, sentence) of every error built from a plain English sentence: ``X(<sentence>, …)`` where X is one
    of ``classes`` (raised, returned or stored alike)."""
    out = []
    for node in ast.walk(source if isinstance(source, ast.AST) else ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name not in classes:
            continue
        for i in FILE_FIRST.get(name, (0,)):
            if i < len(node.args) and _english(node.args[i]):
                arg = node.args[i]
                text = arg.value if isinstance(arg, ast.Constant) else ast.unparse(arg)
                out.append((node.lineno, text))
    return out


def _sources() -> dict[str, ast.AST]:
    return {str(p.relative_to(ROOT)): ast.parse(p.read_text(encoding="utf-8"))
            for part in CHECKED for p in sorted((ROOT / part).rglob("*.py"))}


def test_the_error_scan_finds_plain_sentences():
    src = (
        "class KitError(PlannerError): pass\n"
        "class SubError(KitError): pass\n"
        "raise SubError(f'{name}: not found')\n"
        "raise ScenarioError('a scenario must be an object', field='x')\n"
        "raise KitError('{x} bad'.format(x=1))\n"
        "raise KitError(name + ': too large')\n"
        "raise KitError(str(err))\n"
        "raise KitError(QT_TRANSLATE_NOOP(CTX, 'empty input'))\n"
        "raise ValueError(f'{text} is not a count')\n"
        "return SubError('malformed')\n"
        "raise PlanFileError(path, 'cannot read')\n"
        # kept ids: not reported
        "raise SubError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, '{name}: not found'), name=n))\n"
        "raise ScenarioError(error_text(err), field='model')\n"
        "raise PlanFileError('plan.gpuplan', MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, 'empty')))\n"
        "raise KeyError(f'{k}')\n"
    )
    classes = error_classes({"x.py": src, "errors.py": "class ScenarioError(PlannerError): pass\n"})
    assert {"KitError", "SubError", "ScenarioError", "ValueError"} <= classes and "KeyError" not in classes
    assert [line for line, _ in english_errors(src, classes | {"PlanFileError"})] == list(range(3, 12))


def test_no_error_is_raised_as_a_plain_english_sentence():
    """Every error in the core, io and verify keeps its message id (``MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX,
    "…"), …)``), so the app and ``--lang zh_CN`` show it translated, not in English."""
    sources = _sources()
    classes = error_classes(sources)
    found = []
    for rel, src in sources.items():
        if rel in NOT_YET:
            continue
        for line, text in english_errors(src, classes):
            if (rel, text) not in PROGRAMMING_ERRORS:
                found.append(f"{rel}:{line}: {text}")
    assert not found, "errors raised as plain English (wrap them in MsgStr.make):\n" + "\n".join(found)
    assert {rel for rel, _ in PROGRAMMING_ERRORS} <= set(sources) and NOT_YET <= set(sources)


# ------------------------------------------------------------------------ the errors, shown in Chinese

EXAMPLES = ROOT.parent / "examples"
_WORD = re.compile(r"[A-Za-z][A-Za-z_\-]{2,}")
#: trade abbreviations that read the same in Chinese (as in tests/test_cli_lang.py)
_SAME = {"GPU", "JSON", "UTF", "MoE"}


def _cli_error(argv: list[str], capsys) -> str:
    from gpuplanner.cli import run_cli

    try:
        assert run_cli(argv) == 2
    finally:
        from gpuplanner.commands import _lang

        _lang.install("en")
    err = capsys.readouterr().err.strip()
    prefix = "gpuplanner: 错误：" if "--lang" in argv and "zh_CN" in argv else "gpuplanner: error: "  # helpzh18
    assert err.startswith(prefix) and "\n" not in err, err
    return err[len(prefix):]


def _words_left(text: str, identifiers: tuple[str, ...]) -> list[str]:
    """English words in ``text`` once the identifiers (field names, ids, file names) are taken out."""
    for ident in sorted(identifiers, key=len, reverse=True):
        text = text.replace(ident, " ")
    return [w for w in _WORD.findall(text) if w not in _SAME]


def _scenario(tmp_path: Path, name: str, **changes) -> Path:
    data = json.loads(_src("llama3-8b-full-8xh100-zero3.json").read_text(encoding="utf-8"))
    for dotted, value in changes.items():
        section, key = dotted.split("__")
        data[section] = {key: value} if section == "model" else {**data[section], key: value}
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


CASES = {
    # a model_files error: a model folder without config.json
    "model_files": (dict(model__hf_config="weights"), "该文件夹中没有 config.json",
                    "model.hf_config: {dir}/weights: the folder has no config.json",
                    ("model.hf_config", "config.json")),
    # a units parse error, inside a scenario validation error
    "units": (dict(data__tokens="lots"), "不是数量", "units.json: data.tokens: 'lots' is not a count; use e.g. 300B, "
              "1.5T or 2e9", ("units.json", "data.tokens", "lots")),
    # a scenario validator's own sentence and pydantic's sentence for a range check
    "layout": (dict(parallel__tp=3), "不能被", "layout.json: hardware.num_gpus=8 is not divisible by tp·pp·cp=3",
               ("layout.json", "hardware.num_gpus")),
    "range": (dict(hardware__num_gpus=0), "输入值应大于 0", "range.json: hardware.num_gpus: Input should be greater "
              "than 0", ("range.json", "hardware.num_gpus")),
    # the estimate's layout check
    "moe": (dict(parallel__ep=2), "专家并行需要 MoE 模型", "parallel.ep: expert parallelism needs an MoE model",
            ("parallel.ep",)),
    # an unknown GPU with the "did you mean" suggestion (a nested message)
    # (the field it came from in front since probe13)
    "gpu": (dict(hardware__gpu="h100-sxm"), "你是不是要找", "hardware.gpu: unknown GPU 'h100-sxm'; run `gpuplanner gpus` for "
            "the ids (did you mean: h100-sxm-80gb", ("hardware.gpu", "h100-sxm-80gb", "v100-sxm-32gb", "h800-sxm-80gb", "h100-sxm",
                                             "`gpuplanner gpus`")),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_scenario_errors_are_shown_in_chinese(case, tmp_path, capsys):
    changes, zh_words, english, identifiers = CASES[case]
    (tmp_path / "weights").mkdir()
    path = _scenario(tmp_path, f"{case}.json", **changes)
    identifiers = (*identifiers, str(tmp_path / "weights"))
    en = _cli_error(["estimate", str(path), "--lang", "en"], capsys)
    assert en.startswith(english.format(dir=tmp_path)), en
    zh = _cli_error(["estimate", str(path), "--lang", "zh_CN"], capsys)
    assert zh_words in zh and not _words_left(zh, identifiers), zh


def test_a_project_error_is_shown_in_chinese(tmp_path, capsys):
    """An error of the project (core/project.py) and a phase's validator sentence inside a plan-file error."""
    data = json.loads((EXAMPLES / "shenzhen-7b-domain-project.gpuplan").read_text(encoding="utf-8"))
    serving = next(p for p in data["project"]["phases"] if p["kind"] == "inference")
    serving["inference"]["gpu"] = "nope-gpu"
    path = tmp_path / "serve.gpuplan"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert _cli_error(["project", str(path), "--lang", "en"], capsys) == "inference.gpu: unknown GPU 'nope-gpu'"
    zh = _cli_error(["project", str(path), "--lang", "zh_CN"], capsys)
    assert "未知的 GPU" in zh and not _words_left(zh, ("inference.gpu", "nope-gpu")), zh

    data = json.loads((EXAMPLES / "shenzhen-7b-domain-project.gpuplan").read_text(encoding="utf-8"))
    data["project"]["phases"][0].pop("start_week", None)
    data["project"]["phases"][0]["end_week"] = 3
    path = tmp_path / "weeks.gpuplan"
    path.write_text(json.dumps(data), encoding="utf-8")
    en = _cli_error(["project", str(path), "--lang", "en"], capsys)
    assert en == "weeks.gpuplan: invalid plan (field project.phases[0]: end_week needs start_week)", en
    zh = _cli_error(["project", str(path), "--lang", "zh_CN"], capsys)
    assert "start_week" in zh and not _words_left(zh, ("weeks.gpuplan", "project.phases[0]", "end_week",
                                                        "start_week")), zh


def test_a_kit_result_error_is_shown_in_chinese():
    """verify: a kit result's validation error keeps the validator's or pydantic's sentence id."""
    from gpuplanner.commands import _lang
    from gpuplanner.verify.acceptance import KitResultError, kit_result_from_dict, SCHEMA

    with pytest.raises(KitResultError) as info:
        kit_result_from_dict({"schema": SCHEMA, "tiny": "maybe"})
    first = info.value.args[0]
    assert str(first) == 'tiny: Input should be a valid boolean, unable to interpret input, got "maybe"', first
    _lang.install("zh_CN")
    try:
        zh = _lang.msg(first)
    finally:
        _lang.install("en")
    assert zh.startswith("tiny") and "布尔值" in zh and "Input" not in zh, zh


def test_unknown_preset_is_shown_in_chinese(tmp_path, capsys):
    path = _scenario(tmp_path, "preset.json", model__preset="llama3-8bb")
    en = _cli_error(["estimate", str(path), "--lang", "en"], capsys)
    assert en.startswith("model.preset: unknown preset 'llama3-8bb'"), en
    zh = _cli_error(["estimate", str(path), "--lang", "zh_CN"], capsys)
    assert not _words_left(zh, ("model.preset", "llama3-8bb", "llama-3-8b", "llama-3.1-8b", "llama-3-70b")), zh


def test_validation_reason_keeps_ids_and_pydantic_english():
    """A validator's MsgStr keeps its id; pydantic's common sentences get one with pydantic's exact English; any
    other pydantic text stays as it is (no id, never a wrong sentence)."""
    from pydantic import BaseModel, Field, ValidationError, field_validator

    from gpuplanner.core.messages import MsgStr, error_text, validation_reason

    class M(BaseModel):
        n: int = Field(1, gt=0, le=8)
        s: str = Field("", max_length=2)
        c: str = ""
        xs: list[int] = Field([], max_length=1)

        @field_validator("c")
        @classmethod
        def _c(cls, v):
            raise ValueError(MsgStr.make("Units", "'{text}' is not a count; use e.g. 300B, 1.5T or 2e9", text=v))

    def reason(**kw):
        with pytest.raises(ValidationError) as info:
            M(**kw)
        return validation_reason(info.value.errors()[0])

    r = reason(n=9)
    assert r == "Input should be less than or equal to 8" and r.context == "Errors" and r.params == {"value": "8"}
    r = reason(c="lots")
    assert r == "'lots' is not a count; use e.g. 300B, 1.5T or 2e9" and r.context == "Units"
    r = reason(s="abc")  # string_too_long: marked (quote sheets show it), pydantic's English kept
    assert r == "String should have at most 2 characters" and isinstance(r, MsgStr) and r.params == {"value": "2"}
    r = reason(xs=[1, 2])  # too_long: not one of the marked sentences
    assert r.startswith("List should have at most 1 item") and not isinstance(r, MsgStr)
    assert not isinstance(error_text(ValueError("plain")), MsgStr) and error_text(ValueError("plain")) == "plain"


def test_english_counts_read_with_their_word():
    """"{nodes} node(s)" reads "1 node" / "2 nodes" in English (issue 35 r4: "4 × H800 (1 node(s))" in the Plans
    details); a word not right after its count keeps "(s)"; the message id is unchanged."""
    from gpuplanner.core.messages import Msg, MsgStr, english_plurals

    assert english_plurals("{n} × {gpu} ({nodes} node(s))", {"n": 4, "gpu": "H800", "nodes": 1}) == \
        "{n} × {gpu} ({nodes} node)"
    assert english_plurals("{k:d} port(s) down", {"k": 3}) == "{k:d} ports down"
    assert english_plurals("{n} × {g}-GPU server(s)", {"n": 1, "g": 8}) == "{n} × {g}-GPU server(s)"
    assert english_plurals("{x} item(s)", {"x": "many"}) == "{x} item(s)"
    m = Msg("Search", "{n} × {gpu} ({nodes} node(s)): ok", {"n": 4, "gpu": "H800", "nodes": 1})
    assert m.render() == "4 × H800 (1 node): ok" and m.text.endswith("node(s)): ok")
    s = MsgStr.make("Search", "{k} GPU(s) idle", k=2)
    assert s == "2 GPUs idle" and s.text == "{k} GPU(s) idle"

"""Round 18 (helper helpzh18): every command's ``--help`` in the language asked for
(docs/notes/2026-12-08/issue-35-r18-helpzh18.md).

Before: the whole help was English under ``--lang zh_CN`` and a Chinese locale (argparse's headings, every
description and option help); the top-level help never said that every command takes ``--lang``; ``estimate``,
``project``, ``quotes`` and ``report`` had no description under the usage line; ``plan --help`` said "GPU type x
count x parallel layout", "effective PFLOP" and the field path "constraints.objective".
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from i18n_scan import GLOSSARY, english_words  # noqa: E402

from gpuplanner.cli import build_parser, run_cli  # noqa: E402
from gpuplanner.commands._args import display_width  # noqa: E402

COMMANDS = ["estimate", "gpus", "health", "kit", "kit-import", "net", "plan", "project", "quotes", "report", "topo"]

#: what the help names rather than says: the product, the tools whose output is pasted (as typed), the marker
#: the commands print for a bad finding, and the example catalog ids a user types
NAMES = {"GPU Planner", "gpuplanner", "dmesg", "ibstatus", "[BAD]", "h100-sxm-80gb", "ib-ndr-400", "roce-400", "en",
         "zh_CN"}


def _help(argv: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as ex:
        run_cli(argv)
    assert ex.value.code == 0
    return capsys.readouterr().out


def _parser_of(command: str | None) -> argparse.ArgumentParser:
    parser = build_parser(command)
    if command is None:
        return parser
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[command]


def _names(command: str | None) -> list[str]:
    """What the help's left column and usage show for ``command``: its options as typed, their metavars and
    choices, the commands' names; longest first, to be taken out before the scan."""
    parser = _parser_of(command)
    formatter = parser._get_formatter()
    names = set(NAMES) | set(COMMANDS) | set(re.findall(r"[A-Z]+", parser.usage or ""))  # FILE, COMMAND
    for action in parser._actions:
        names.add(formatter._format_action_invocation(action))
        names.update(action.option_strings)
        names.update(action.choices or ())  # en / zh_CN, csv / xlsx, a4 / letter
    return sorted(names, key=len, reverse=True)


def _untranslated(text: str, command: str | None) -> list[str]:
    body = text.split("\n\n", 1)[1]  # after the usage block (options, metavars and choices as typed)
    for name in _names(command):
        body = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", body)  # "net", not inside "Ethernet"
    return english_words(body, GLOSSARY)


@pytest.mark.parametrize("command", [*COMMANDS, None])
def test_every_help_reads_as_chinese(capsys, monkeypatch, command):
    """Every command's help under ``--lang zh_CN``: argparse's headings and every description and option help in
    Chinese (no English word outside the names the user types), lines within the terminal's 80 columns."""
    monkeypatch.setenv("COLUMNS", "80")
    out = _help([*([command] if command else []), "--help", "--lang", "zh_CN"], capsys)
    assert out.startswith("用法：gpuplanner"), out
    assert "\n选项：\n" in out and "显示本帮助并退出" in out, out
    assert "usage:" not in out and "options:" not in out and "positional arguments" not in out, out
    assert _untranslated(out, command) == [], out
    wide = [line for line in out.splitlines() if display_width(line) > 80]
    assert not wide, wide


@pytest.mark.parametrize("command", [*COMMANDS, None])
def test_the_usage_lines_line_up_under_a_chinese_prefix(capsys, monkeypatch, command):
    """argparse indents a long usage's further lines by its prefix's length in characters: "用法：" is three
    characters but six columns, so the lines stood three columns left of the first line's options."""
    monkeypatch.setenv("COLUMNS", "60")
    out = _help([*([command] if command else []), "--help", "--lang", "zh_CN"], capsys)
    usage = out.split("\n\n", 1)[0].splitlines()
    first = usage[0]
    start = display_width(first[:first.index("[")])  # the column of the first option
    for line in usage[1:]:
        assert len(line) - len(line.lstrip(" ")) == start, usage


def test_a_chinese_locale_gives_the_chinese_help(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    out = _help(["plan", "--help"], capsys)
    assert out.startswith("用法：") and "显示多少个方案" in out, out


def test_lang_before_help_gives_the_chinese_help(capsys):
    from gpuplanner.__main__ import main

    for argv in (["--lang", "zh_CN", "--help"], ["--lang=zh_CN", "--help"], ["--help", "--lang", "zh_CN"]):
        with pytest.raises(SystemExit) as ex:
            main(argv)
        assert ex.value.code == 0
        out = capsys.readouterr().out
        assert out.startswith("用法：gpuplanner") and "--lang zh_CN" in out, (argv, out)


def test_the_top_level_help_tells_every_command_takes_lang(capsys):
    out = _help(["--help"], capsys)
    assert "Every COMMAND takes --lang en or --lang zh_CN" in re.sub(r"\s+", " ", out), out
    zh = _help(["--help", "--lang", "zh_CN"], capsys)
    assert "每个 COMMAND 都接受 --lang en 或 --lang zh_CN" in re.sub(r"\n\s*", "", zh), zh


@pytest.mark.parametrize(("command", "words"), [
    ("estimate", "Estimate one plan: the scenario's own GPU, GPU count and parallel layout"),
    ("project", "Print the whole project of a .gpuplan file"),
    ("quotes", "Read vendors' quote sheets (.csv or .xlsx) and compare them for the plan"),
    ("report", "Write the plan as a PDF to print or send"),
])
def test_every_command_has_a_description_under_its_usage(capsys, command, words):
    out = _help([command, "--help"], capsys)
    usage, _, rest = out.partition("\n\n")
    assert re.sub(r"\s+", " ", rest).startswith(words), out


def test_the_plan_help_says_what_it_means(capsys):
    out = re.sub(r"\s+", " ", _help(["plan", "--help"], capsys))
    assert "GPU type × GPU count × parallel layout" in out and " x " not in out, out
    assert "effective PFLOP" not in out and "PFLOP of useful work (the FLOPs the model needs" in out, out
    assert "constraints.objective" not in out and "the objective saved in the scenario file" in out, out


#: ``gpus --help`` at 100 columns as it was before (main c8ba80a4): an English help that was fine stays as it was
GPUS_HELP_EN = """\
usage: gpuplanner gpus [-h] [--json] [--lang {en,zh_CN}]

List the accelerators known to GPU Planner. TFLOPS are dense (no sparsity); 'unknown' means the
reference has no verified figure.

options:
  -h, --help         show this help message and exit
  --json             print the records as a JSON list
  --lang {en,zh_CN}  language of the output (default: the app's setting, else the system locale)
"""


def test_the_english_help_is_as_it_was(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    assert _help(["gpus", "--help"], capsys) == GPUS_HELP_EN
    out = _help(["kit", "--help"], capsys)
    assert "Write the self-contained acceptance-test script (bash + PyTorch) for the plan's GPU and model" in out
    assert "positional arguments:" in out and "options:" in out and out.startswith("usage: gpuplanner kit")


def test_a_chinese_help_leaves_english_as_it_was_in_the_same_process(capsys):
    """The help installs the language it is asked for, and the next command line's English is English again."""
    _help(["gpus", "--help", "--lang", "zh_CN"], capsys)
    out = _help(["gpus", "--help", "--lang", "en"], capsys)
    assert out.startswith("usage: ") and "show this help message and exit" in out, out


@pytest.mark.parametrize(("lang", "prefix"), [("en", "gpuplanner: error: plan: "), ("zh_CN", "gpuplanner: 错误：plan: ")])
def test_the_error_prefix_is_in_the_language_asked_for(capsys, lang, prefix):
    """argparse's "%(prog)s: error: " (the CLI's own one-line form): "gpuplanner: error: plan: 参数 --top：…" mixed the
    two languages in one line; the program's name stays as typed."""
    with pytest.raises(SystemExit) as ex:
        run_cli(["plan", "x.json", "--top", "x", "--lang", lang])
    assert ex.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(prefix) and err.count("\n") == 1, err


def test_a_refused_file_has_the_chinese_prefix_too(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert run_cli(["estimate", str(bad), "--lang", "zh_CN"]) == 2
    assert capsys.readouterr().err.startswith("gpuplanner: 错误："), "the PlannerError line (run_cli)"
    assert run_cli(["estimate", str(bad)]) == 2
    assert capsys.readouterr().err.startswith("gpuplanner: error: ")

"""Round 18 (helper ux28): what a new user's first hour met at the command line and in the PDF, in English and
Chinese (docs/notes/2026-12-08/issue-35-r18-ux28.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "llama3-8b-full.json"


# ------------------------------------------------------------------ 1. --lang written before the command

@pytest.mark.parametrize("argv", [
    ["--lang", "zh_CN", "gpus"],
    ["--lang=zh_CN", "gpus"],
])
def test_lang_before_the_command_is_the_commands(capsys, argv):
    """``gpuplanner --lang zh_CN gpus`` said "unknown command 'zh_CN'" (the language read as the command):
    now the command runs, in the language asked for."""
    from gpuplanner.__main__ import main

    assert main(argv) == 0
    out = capsys.readouterr()
    assert "zh_CN" not in out.err and "未知命令" not in out.err, out.err
    assert "H100" in out.out


@pytest.mark.parametrize(("lang", "said"), [
    ("zh_CN", "--lang 要写在命令之后"),
    ("en", "--lang goes with a command"),
])
def test_lang_for_the_window_names_the_setting(capsys, lang, said):
    """``gpuplanner --lang zh_CN`` (the window) and ``gpuplanner FILE --lang zh_CN`` blamed a command 'zh_CN'
    that nobody typed; they now say where --lang goes and where the window's language is set."""
    from gpuplanner.__main__ import main

    for argv in (["--lang", lang], [str(EXAMPLE), "--lang", lang]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert said in err and f"'{lang}'" not in err, err


def test_a_mistyped_command_after_lang_is_still_the_reason(capsys):
    from gpuplanner.__main__ import main

    assert main(["--lang", "zh_CN", "frob"]) == 2
    err = capsys.readouterr().err.strip()
    assert "未知命令 'frob'" in err, err


def test_help_after_lang_is_the_help(capsys):
    from gpuplanner.__main__ import main

    with pytest.raises(SystemExit) as ex:
        main(["--lang", "zh_CN", "--help"])
    assert ex.value.code == 0
    assert capsys.readouterr().out.startswith("用法：gpuplanner")  # the help in the language asked for (helpzh18)


# ------------------------------------------------------------------ 2. a key in the wrong place

@pytest.mark.parametrize(("data", "said", "zh"), [
    ({"deadline_days": 14}, "deadline_days: unknown field; did you mean constraints.deadline_days?",
     "deadline_days：未知字段；你是不是要找 constraints.deadline_days？"),
    ({"training": {"num_gpus": 8}}, "training.num_gpus: unknown field; did you mean hardware.num_gpus?", None),
    ({"training": {"seq_length": 4096}}, "training.seq_length: unknown field; did you mean training.seq_len?", None),
    ({"frobozz": 1}, "frobozz: unknown field", None),
])
def test_an_unknown_key_names_the_field_it_meant(tmp_path, capsys, data, said, zh):
    """A new user writing the deadline at the top of a scenario was told "deadline_days: unknown field" with no
    word on where it goes; the one field of that name (or the nearest name in its section) is now named."""
    import json

    from gpuplanner.__main__ import main

    f = tmp_path / "s.json"
    f.write_text(json.dumps({"model": {"preset": "llama-3-8b"}, **data}), encoding="utf-8")
    assert main(["estimate", str(f), "--lang", "en"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"gpuplanner: error: s.json: {said}", err
    if zh:
        assert main(["estimate", str(f), "--lang", "zh_CN"]) == 2
        err = capsys.readouterr().err.strip()
        assert zh in err, err

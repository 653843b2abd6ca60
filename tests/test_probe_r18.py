"""Round-18 hostile-input probe (bench/probe_hostile_r18.py): the holes it found, each as the user meets it.

Every test here fails on main cd08457e (run on an exported copy), but the two folder-like name guards of #4 (the
CLI's printer already made that line printable; kept so the echo stays one line).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.probe_helpers import cli as _cli
from tests.probe_helpers import one_line as _one_line

ROOT = Path(__file__).resolve().parents[1]
LORA_JSON = ROOT / "examples" / "7b-lora-1x4090.json"
KIT = ROOT / "tests" / "data" / "kit" / "result-cpu-sample.json"
RLO = "\u202e"


# 1. A kit result whose benchmarked shape is forged past any model ("layers": 10**9) hung kit-import: the shape is
#    counted as a ModelArch, whose parameter count lists every layer (a list of 10**9 entries). The shape now has the
#    architecture's own bounds (core.architecture.ARCH_LIMITS): one line naming the key.

@pytest.mark.parametrize("key,value", [("layers", 10**9), ("hidden", 2**21), ("vocab", 2**70), ("seq", 2**40),
                                       ("mbs", 2**40)])
def test_a_forged_kit_shape_is_refused_in_one_line(tmp_path, key, value):
    d = json.loads(KIT.read_text(encoding="utf-8"))
    d["shape"][key] = value
    (tmp_path / "r.json").write_text(json.dumps(d), encoding="utf-8")
    rc, _, err = _cli(["kit-import", str(LORA_JSON), str(tmp_path / "r.json")])
    line = _one_line(err)
    assert rc == 2 and f"shape.{key}" in line, line


def test_the_kit_shape_bounds_are_the_architecture_limits():
    from gpuplanner.core.architecture import ARCH_LIMITS
    from gpuplanner.verify.acceptance import KitShape

    ok = dict(hidden=ARCH_LIMITS["hidden_size"][1], layers=ARCH_LIMITS["num_layers"][1], heads=8, kv_heads=8,
              head_dim=128, ffn=1024, vocab=1000, seq=4096)
    KitShape(**ok)  # the bounds themselves are accepted
    with pytest.raises(ValueError):
        KitShape(**{**ok, "layers": 10_001})


# 2. A line edit's refusal echoed the pasted text raw (ui.fields.parse_int/parse_float, and the Data and Budget
#    pages' parsers built on them): a bidi override or an escape went into the field's error line, and a megabyte
#    of pasted digits made a megabyte-long line. The echo is now core.units.shown_text's (printable, 40 characters).

PASTES = [f"8{RLO}\x1b[2J", "8\x00", "9" * 1_000_000, "x" * 1_000_000, "8\ud800", "8\x07"]


@pytest.mark.parametrize("parser", ["parse_int", "parse_float"])
@pytest.mark.parametrize("text", PASTES, ids=["rlo-esc", "nul", "1mb-digits", "1mb-letters", "surrogate", "bel"])
def test_a_pasted_text_refusal_is_one_printable_short_line(parser, text):
    from gpuplanner.core.messages import error_text
    from gpuplanner.ui import fields

    with pytest.raises(ValueError) as err:
        getattr(fields, parser)(text)
    line = str(error_text(err.value))
    assert line.isprintable() and len(line) <= 120, line[:200]
    assert "not a" in line


def test_the_page_parsers_refuse_pasted_controls_printably():
    from gpuplanner.core.messages import error_text
    from gpuplanner.ui.pages import budget_page, data_page

    for parse in (data_page.parse_positive_float, budget_page.parse_pos):
        with pytest.raises(ValueError) as err:
            parse(f"1{RLO}\x1b[31m")
        line = str(error_text(err.value))
        assert line.isprintable() and "'1 [31m' is not a number" == line, line


def test_shown_text_keeps_a_plain_text_as_typed():
    from gpuplanner.core.units import shown_text

    assert shown_text("300B") == "300B"
    assert shown_text("a\u202eb\x1bc") == "a b c"
    assert shown_text("x" * 100) == "x" * 40


# 3. An output name holding a NUL byte ("-o 'r\0.pdf'", "--rfq", "--template -o") raised ValueError("embedded null
#    byte") from os.stat in check_writable_folder/atomic_write: a traceback. (A shell cannot pass a NUL in argv; the
#    in-process CLI and the app's callers can.) Now the writers' usual line, as an input name with a NUL already had.

@pytest.mark.parametrize("argv", [
    ["report", str(LORA_JSON), "-o", "r\0.pdf"],
    ["kit", str(LORA_JSON), "-o", "k\0.sh"],
    ["quotes", "--template", "csv", "-o", "t\0.csv"],
    ["quotes", str(LORA_JSON), str(ROOT / "examples" / "quotes" / "autodl-a800.csv"), "--rfq", "r\0.pdf"],
])
def test_an_output_name_with_nul_is_one_line(tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    rc, _, err = _cli(argv)
    line = _one_line(err)
    assert rc == 2 and "NUL" in line and "nothing was written" in line, line
    assert list(tmp_path.iterdir()) == []


def test_atomic_write_refuses_a_nul_as_an_oserror(tmp_path):
    from gpuplanner.io import planfile

    with pytest.raises(OSError):
        planfile.atomic_write(str(tmp_path / "a\0b"), b"x")
    with pytest.raises(planfile.PlanFileError):
        planfile.write_output(str(tmp_path / "a\0b"), b"x")


# 4. "-o" checks for a folder before rendering (commands._args.refuse_folder_output, merged after probe17):
#    Path.is_dir raised OSError(ENAMETOOLONG) on a name past 255 bytes, so probe17's "kit -o <256 bytes>" and
#    probe15's "report -o <300 bytes>" were tracebacks again on main. The refusal echoed the name raw too; the CLI's
#    printer made it one line, the helper now does itself (a guard, passing on main).

@pytest.mark.parametrize("argv", [
    ["kit", str(LORA_JSON), "-o", "k" * 253 + ".sh"],
    ["report", str(LORA_JSON), "-o", "r" * 296 + ".pdf"],
])
def test_an_output_name_past_255_bytes_is_one_line(tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    rc, _, err = _cli(argv)
    _one_line(err)
    assert rc == 2 and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", [f"a\n{RLO}b/", "r\x1b[2J/"])
def test_a_folder_like_output_name_is_echoed_printable(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    rc, _, err = _cli(["kit", str(LORA_JSON), "-o", name])
    line = _one_line(err)
    assert rc == 2 and "folder" in line, line


# 5. A forged kit result with 100,000 "errors" (each with a terminal escape) printed them all: 3.9 MB on stdout from
#    kit-import. The analysis lists the first MAX_REPORTED_ERRORS, counts the rest, and shows each line and the note
#    as one printable line of at most MAX_REPORTED_TEXT characters.

def test_a_flood_of_kit_errors_is_listed_short(tmp_path):
    from gpuplanner.verify import acceptance

    d = json.loads(KIT.read_text(encoding="utf-8"))
    d["errors"] = ["\x1b[2Jboom " + "x" * 100] * 100_000
    d["note"] = f"n{RLO}" * 10_000
    (tmp_path / "r.json").write_text(json.dumps(d), encoding="utf-8")
    scen = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"
    rc, out, err = _cli(["kit-import", str(scen), str(tmp_path / "r.json")])
    assert rc == 0, err[:300]
    assert len(out) < 20_000 and "\x1b" not in out and RLO not in out
    assert out.count("boom") == acceptance.MAX_REPORTED_ERRORS
    assert f"{100_000 - acceptance.MAX_REPORTED_ERRORS:,}" in out or str(100_000 - acceptance.MAX_REPORTED_ERRORS) in out

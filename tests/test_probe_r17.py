"""Round-17 hostile-input probe (bench/probe_hostile_r17.py): the holes it found, each as the user meets it.

Every test here fails on main 64ef3985 (run on an exported copy).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.probe_helpers import cli as _cli
from tests.probe_helpers import one_line as _one_line

ROOT = Path(__file__).resolve().parents[1]
LORA_JSON = ROOT / "examples" / "7b-lora-1x4090.json"
PLAN_LORA = ROOT / "examples" / "7b-lora-1x4090.gpuplan"
QUOTES = ROOT / "examples" / "quotes" / "autodl-a800.csv"






# 1. An output onto a symlink loop ("-o loop", "--rfq loop", "--template -o loop.csv", "--save" through a loop):
#    atomic_write resolved the link with Path.resolve(), which raises RuntimeError("Symlink loop") on Python 3.12:
#    a traceback instead of the one line every other unwritable output gets.

@pytest.mark.parametrize("argv", [
    ["kit", str(LORA_JSON), "-o", "loop"],
    ["report", str(LORA_JSON), "-o", "loop"],
    ["quotes", str(LORA_JSON), str(QUOTES), "--rfq", "loop"],
    ["quotes", "--template", "csv", "-o", "loop.csv"],
])
def test_an_output_onto_a_symlink_loop_is_one_line(tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    name = argv[argv.index("-o") + 1] if "-o" in argv else argv[-1]
    os.symlink(name, tmp_path / name)
    rc, _, err = _cli(argv)
    line = _one_line(err)
    assert rc == 2 and name in line and "nothing was written" in line, line
    assert os.path.islink(tmp_path / name) and sorted(os.listdir(tmp_path)) == [name]


def test_atomic_write_onto_a_two_link_loop_raises_oserror(tmp_path):
    from gpuplanner.io import planfile

    os.symlink("b", tmp_path / "a")
    os.symlink("a", tmp_path / "b")
    with pytest.raises(OSError):
        planfile.atomic_write(tmp_path / "a", b"x")
    with pytest.raises(planfile.PlanFileError):
        planfile.write_output(tmp_path / "a", b"x")


# 2. Autosave recovery: a record whose saved_at is a date at the end of the calendar with a zone (or without one)
#    parsed, then Recovery.describe() (the recovery list's line, ui/recovery.py too) raised OverflowError or
#    ValueError in astimezone(): one stranger's record kept every autosave from being offered.

@pytest.mark.parametrize("when", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00"])
def test_an_autosave_dated_at_the_calendar_ends_is_still_offered(tmp_path, when):
    from gpuplanner.io.autosave import AutosaveStore

    plan = json.loads(PLAN_LORA.read_text(encoding="utf-8"))
    rec = {"autosave_format": 1, "session": "other", "pid": 2**31 - 2, "source_path": None, "plan": plan}
    (tmp_path / "x-main.autosave").write_text(json.dumps({**rec, "saved_at": when}), encoding="utf-8")
    (tmp_path / "y-main.autosave").write_text(json.dumps({**rec, "saved_at": "2026-12-07T00:00:00+00:00"}),
                                              encoding="utf-8")
    got = AutosaveStore(tmp_path, session="mine").pending()
    assert len(got) == 2 and all(r.document is not None for r in got)
    lines = [r.describe() for r in got]
    assert lines[1].endswith("autosaved ?") and "2026-12-07" in lines[0], lines


# 3. A plan whose schema_version is a 401-digit number: the error line held all the digits and the one-line cap cut
#    off what the user needs ("this version reads up to 6").

@pytest.mark.parametrize("version", [10**400, -(10**400)], ids=["huge", "huge-negative"])
def test_a_huge_schema_version_keeps_the_sentence(tmp_path, version):
    d = json.loads(PLAN_LORA.read_text(encoding="utf-8"))
    d["schema_version"] = version
    p = tmp_path / "p.gpuplan"
    p.write_text(json.dumps(d), encoding="utf-8")
    rc, _, err = _cli(["estimate", str(p)])
    line = _one_line(err)
    assert rc == 2 and "401 digits" in line and len(line) < 200, line
    assert ("reads up to 6" in line) if version > 0 else ("schema_version" in line), line


# 4. Text pasted into the Data page's token count with a bidi override, an escape or half a surrogate pair: the
#    refusal echoed it raw (an RLO reversed the rest of the field's error line); with a lone surrogate the echo
#    made pydantic-core raise UnicodeEncodeError out of ScenarioModel.set (a traceback from the field's slot).

@pytest.mark.parametrize("text", ["8\u202e\x1b[2J", "8\x00", "\ud800", "5\u2066B\u2069"])
def test_a_pasted_token_count_is_refused_with_a_printable_line(text):
    from pydantic import ValidationError

    from gpuplanner.core.scenario import Scenario
    from gpuplanner.core.units import parse_count

    with pytest.raises(ValueError) as err:
        parse_count(text)
    assert str(err.value).isprintable() and "is not a count" in str(err.value)
    data = json.loads(LORA_JSON.read_text(encoding="utf-8"))
    data["data"]["tokens"] = text
    with pytest.raises(ValidationError) as verr:
        Scenario.model_validate(data)
    assert all(str(e["msg"]).isprintable() for e in verr.value.errors())

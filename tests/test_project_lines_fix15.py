"""Two of round 15's project lines (issue 35 r15 fix15, from parity15's "seen, not fixed").

* Rent or build on the user's servers: a project of 4-GPU servers (``hardware.gpus_per_node`` 4, consist15's
  search) bought "one 8-GPU server (the plan uses 4 of its GPUs)" next to "Servers of 4 GPUs, as entered"
  (project.project_rent_vs_build passed no server size, so cost.default_build_inputs took the catalogue's board).
  It now buys the servers its plans run on, as each plan's own rent-or-build does, priced per GPU from the
  catalogued server (its source says so).
* The serving line ``project`` prints ("serving: TP …, … tokens/s per GPU (…), … per million tokens") is one core
  message (core.serving_facts.throughput_line), which the Project page shows too (tests/ui/test_one_answer_r15_ui.py).
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
import test_one_answer_r15 as P  # noqa: E402


def _project(d: dict):
    from gpuplanner.app.answer import answer

    return answer(P._write(d, "doc.json")).project


def test_project_buys_the_servers_entered(capsys):
    """GPN4 (16 × H100 searched on servers of 4): the project's build side buys 4-GPU servers, as the plan's own
    rent-or-build (``estimate --json``); the server costs half the catalogued 8-GPU server (price per GPU × 4), and
    the sentence in ``project`` says "4-GPU server", never "8-GPU"."""
    four = _project(P.GPN4)
    eight = copy.deepcopy(P.GPN4)
    eight["hardware"]["gpus_per_node"] = 8
    eight = _project(eight)
    rb4, rb8 = four.rent_vs_build, eight.rent_vs_build
    assert rb4.inputs.gpus_per_machine == 4 and rb8.inputs.gpus_per_machine == 8
    assert rb4.inputs.machine_price == pytest.approx(rb8.inputs.machine_price * 4 / 8, rel=1e-12)
    assert "(its price per GPU × 4)" in rb4.inputs.sources["machine_price"]
    assert "price per GPU" not in rb8.inputs.sources["machine_price"]  # the quoted server as it is
    doc = P._write(P.GPN4, "gpn4.json")
    e = json.loads(P._cli(["estimate", str(doc), "--json"], capsys))
    assert e["rent_vs_build"]["gpus_per_machine"] == 4
    js = json.loads(P._cli(["project", str(doc), "--json"], capsys))
    assert js["rent_vs_build"]["gpus_per_machine"] == 4 and js["rent_vs_build"]["answer"] == rb4.sentence.render()
    text = P._flat(P._cli(["project", str(doc), "--lang", "en"], capsys))
    # a one-phase project under four weeks reads as its plan's short job (ux26, r17: "no reason to buy one 4-GPU
    # server"; was "buying and running one 4-GPU server costs"); the server bought is still the 4-GPU one
    assert "one 4-GPU server" in text and "8-GPU server" not in text
    assert "Servers of 4 GPUs, as entered" in text


def test_project_without_a_plan_keeps_the_machine_of_the_quote():
    """A phase without a plan (serving only) has no server size of its own: the build side keeps the price table's
    machine, else the card's catalogued server (project._phase_server_gpus gives None)."""
    from gpuplanner.core.project import _phase_server_gpus

    assert _phase_server_gpus([]) is None


def test_serving_line_is_one_message(tmp_path, capsys):
    """``project``'s serving line is core.serving_facts.throughput_line of the Answer's serving phase, in English and,
    translated, in Chinese (none of the English left); without a price the line has no "per million tokens"."""
    from gpuplanner.core.serving_facts import throughput_line

    doc = P._moe_serving_doc(tmp_path)
    proj = _project_of(doc)
    (ph,) = [p for p in proj.phases if p.serving is not None]
    m = throughput_line(ph.serving, ph.cost_per_million_tokens, proj.currency)
    line = m.render()
    assert line.startswith("serving: TP 8, 64 users per replica, 1 replica, ")
    assert f"{round(ph.serving.tokens_per_s_per_gpu):,} tokens/s per GPU" in line and line.endswith(
        "per million tokens")
    assert P._flat(P._cli(["project", str(doc), "--lang", "en"], capsys)).count(P._flat(line)) == 1
    zh = P._cli(["project", str(doc), "--lang", "zh_CN"], capsys)
    z = P._zh_line(m)
    assert z != line and "tokens/s" not in z and P._tight(z) in P._tight(zh)
    bare = throughput_line(ph.serving, None, proj.currency).render()
    assert bare == line.split("), ")[0] + ")" and "per million" not in bare


def _project_of(doc: Path):
    from gpuplanner.app.answer import answer

    return answer(doc).project

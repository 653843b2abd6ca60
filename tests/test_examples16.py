"""Issue 35 round 16 (examples16): the examples a new user opens first, and the Mixtral example's best plan.

* Every example in ``examples/`` either lets the search choose (``parallel.auto``: it stands for the search's #1,
  so no view says "a better plan") or keeps a fixed layout on purpose, and ``examples/README.md`` says which and why
  (a plan file's own notes say so too).
* The Mixtral example's #1 (8 × L40S with the optimizer states in CPU memory, a saver the user did not ask for)
  needs about 1,044 GiB of CPU memory in its one server: 46,702,792,704 trainable parameters × 16 bytes (fp32
  master, two Adam moments, fp32 gradients: ZeRO-Offload, Ren et al. 2021 §4.1) = 695.9 GiB, × 1.5 pinned buffers
  (DeepSpeed's memory estimators) = 1,043.9 GiB. The plan now says so; before, no view did. Where the user gave the
  servers' CPU memory and it is too small, the search no longer applies that saver (it ranked the plan #1 on 512 GiB
  servers with the intake's own warning "needs 1,044 GiB … the node has 512" beside it).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gpuplanner.core import search
from gpuplanner.core.scenario import Scenario

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
MIXTRAL = EX / "mixtral-8x7b-ep8-16xa800.json"
FILES = sorted(EX.glob("*.json")) + sorted(EX.glob("*.gpuplan"))
HOST_LINE = "CPU offload needs about"  # (advice16's intake.host_ram_line, one line for every view)


def _scenario_dict(path: Path) -> dict:
    d = json.loads(path.read_text(encoding="utf-8"))
    return d["scenario"] if "schema_version" in d else d


def _readme_rows() -> dict[str, str]:
    """``examples/README.md``'s table: file name → its "layout" cell ("search" or "fixed: …")."""
    rows = {}
    for line in (EX / "README.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*`([^`]+)`\s*\|[^|]*\|\s*([^|]+?)\s*\|", line)
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


def test_every_example_says_whether_the_search_chooses():
    rows = _readme_rows()
    assert sorted(rows) == sorted(p.name for p in FILES)
    for p in FILES:
        auto = bool(_scenario_dict(p).get("parallel", {}).get("auto"))
        assert rows[p.name].startswith("search" if auto else "fixed"), (p.name, rows[p.name])


@pytest.mark.parametrize("path", [p for p in FILES if p.suffix == ".gpuplan"], ids=lambda p: p.name)
def test_a_fixed_plan_file_says_so_in_its_notes(path):
    notes = json.loads(path.read_text(encoding="utf-8"))["notes"]
    assert "fixed on purpose" in notes, notes


@pytest.mark.parametrize("name", ["7b-grpo-lora-vllm.json", "8b-dpo-full.json", "llama3-8b-full.json"])
def test_the_search_examples_stand_for_the_search_s_first_plan(name):
    """With automatic layout the document is the search's #1: no "better plan" line, and the estimate is that
    plan (the GPU the file names is only where the window starts before its search)."""
    from gpuplanner.app.answer import answer

    a = answer(EX / name)
    assert a.better is None
    s = Scenario.model_validate(_scenario_dict(EX / name))
    first = search.search(s, top=1).plans[0]
    ev = a.evaluation
    assert (ev.scenario.hardware.gpu, ev.scenario.hardware.num_gpus) == (first.gpu, first.num_gpus)
    assert ev.cost == pytest.approx(first.cost)


@pytest.fixture(scope="module")
def mixtral():
    return Scenario.model_validate(_scenario_dict(MIXTRAL))


def test_the_mixtral_best_plan_says_the_cpu_memory_its_offload_needs(mixtral):
    p = search.search(mixtral, top=1).plans[0]
    assert p.gpu == "l40s-48gb" and "offload" in p.unrequested_savers
    need = 46_702_792_704 * 16 / 2**30 * 1.5  # hand-derived above: 1,043.9 GiB
    assert p.evaluation.host_ram.total == pytest.approx(need, rel=1e-6)
    lines = [m.render() for m in [*p.explanation, *p.warnings] if m.render().startswith(HOST_LINE)]
    assert len(lines) == 1 and "1,044 GiB" in lines[0], lines


def test_servers_too_small_for_the_offload_get_no_unrequested_offload(mixtral):
    small = mixtral.model_copy(update={"hardware": mixtral.hardware.model_copy(update={"host_ram_gib": 512.0})})
    plans = search.search(small, top=5).plans
    assert plans
    for p in plans:
        host = p.evaluation.host_ram
        assert not ("offload" in p.unrequested_savers and host is not None and host.fits is False), p.gpu
    big = mixtral.model_copy(update={"hardware": mixtral.hardware.model_copy(update={"host_ram_gib": 2048.0})})
    first = search.search(big, top=1).plans[0]
    assert first.gpu == "l40s-48gb" and first.evaluation.host_ram.fits is True
    assert not [m for m in [*first.explanation, *first.warnings] if m.render().startswith(HOST_LINE)]  # it fits

"""The CLI plan table shows the expert- and context-parallel degrees when a plan shown uses them (the Plans page's
layout and the JSON carry EP; the table had no column for it), each read from the plan's own layout."""

from __future__ import annotations

import json
from pathlib import Path

from gpuplanner.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
MOE = ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json"
DENSE = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"


def _table(capsys, path: Path) -> tuple[list[str], list[list[str]]]:
    assert run_cli(["plan", str(path), "--top", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("#  GPU"))
    rows = []
    for ln in lines[i + 1:]:
        if not ln.strip():
            break
        rows.append(ln.split())
    # (multi-word headers read as one column each: "GPU id" is the GPU column, the ids it lists)
    return lines[i].replace("GPU id", "GPU_id").split(), rows


def _plans(capsys, path: Path) -> list[dict]:
    assert run_cli(["plan", str(path), "--top", "3", "--json"]) == 0
    return json.loads(capsys.readouterr().out)["plans"]


def test_moe_plans_show_their_expert_parallel_degree(capsys):
    header, rows = _table(capsys, MOE)
    plans = _plans(capsys, MOE)
    assert any(p["ep"] > 1 for p in plans)
    assert "ep" in header and header.index("pp") < header.index("ep") < header.index("dp")
    col = header.index("ep")
    assert [int(r[col]) for r in rows] == [p["ep"] for p in plans]
    assert [int(r[header.index("dp")]) for r in rows] == [p["dp"] for p in plans]  # the columns after it line up


def test_dense_plans_have_no_empty_expert_column(capsys):
    header, rows = _table(capsys, DENSE)
    assert all(p["ep"] == 1 and p["cp"] == 1 for p in _plans(capsys, DENSE))
    assert "ep" not in header and "cp" not in header
    assert all(len(r) >= len(header) - 2 for r in rows)

"""Every example as it is, and each with automatic layout (``parallel.auto = true``; a plan file's selected plan
dropped, so the search decides): the files the one-answer parity tests run over (tests/test_answer.py,
tests/test_report.py, tests/ui/test_parity_ui.py)."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.json")) + sorted((ROOT / "examples").glob("*.gpuplan"))
NAMES = [p.name for p in EXAMPLES] + [f"auto:{p.name}" for p in EXAMPLES]


def auto_variant(src: Path, folder: Path) -> Path:
    """``src`` with automatic layout, written to ``folder`` (same name): a scenario JSON gets
    ``parallel.auto = true``; a plan file its scenario's, and its selected plan is dropped."""
    d = json.loads(src.read_text(encoding="utf-8"))
    scen = d["scenario"] if "schema_version" in d else d
    scen.setdefault("parallel", {})["auto"] = True
    if "schema_version" in d:
        d["selected_plan"] = None
        if isinstance(d.get("ui_state"), dict):
            d["ui_state"].pop("selected_plan", None)
    out = folder / src.name
    out.write_text(json.dumps(d), encoding="utf-8")
    return out


def example_path(name: str, folder: Path) -> Path:
    """The file for a name of :data:`NAMES` (an ``auto:`` variant is written to ``folder``)."""
    if name.startswith("auto:"):
        return auto_variant(_src(name[5:]), folder)
    return _src(name)


def _src(name: str) -> Path:
    """An example by name: examples/, or tests/data/examples_fixed/ for the fixed-layout files that left
    examples/ in issue 35 round 16 (examples16: those examples now let the search choose)."""
    here = ROOT / "examples" / name
    return here if here.exists() else ROOT / "tests" / "data" / "examples_fixed" / name

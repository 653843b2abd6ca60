"""The memory savers written off by the user, for the tests of the line that names them (issue 35 round 15,
savers15): the search applies the savers a scenario leaves unset where the defaults do not fit
(core/advisor_savers.py, ``search._unset_savers``), and says the ones the user set off on #1's line ("said, never
applied", rounds 11–14). The earlier rounds' tests of that line read their requests with the savers written off."""

from __future__ import annotations

import json
from pathlib import Path


def savers_off(d: dict) -> dict:
    """A copy of the scenario dict ``d`` with each saver the user did not write set off by hand: vLLM's sleep mode
    and the training model's offload (colocated RL: where ``training.rl`` is given) and the optimizer offload."""
    d = json.loads(json.dumps(d))
    rl = d.get("training", {}).get("rl")
    if isinstance(rl, dict):
        rl.setdefault("engine_sleep", False)
        rl.setdefault("offload_model", False)
    d.setdefault("parallel", {}).setdefault("offload_optimizer", False)
    return d


def savers_off_file(src: Path, tmp_path: Path) -> Path:
    """``src`` (a scenario JSON) written with :func:`savers_off` under ``tmp_path``, the same name."""
    out = Path(tmp_path) / Path(src).name
    out.write_text(json.dumps(savers_off(json.loads(Path(src).read_text(encoding="utf-8")))), encoding="utf-8")
    return out


def scenario_off(s):
    """The scenario ``s`` (a ``core.scenario.Scenario``) with :func:`savers_off` applied to what its user wrote."""
    from gpuplanner.core.scenario import Scenario

    return Scenario.model_validate(savers_off(s.model_dump(exclude_unset=True)))

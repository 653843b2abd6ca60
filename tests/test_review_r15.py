"""Round 15's review (review15): what the merged round left inconsistent between its parts."""

from __future__ import annotations

import json
from pathlib import Path

from gpuplanner.core import search
from gpuplanner.core.scenario import Scenario

ROOT = Path(__file__).resolve().parents[1]
REQ08 = ROOT / "docs" / "notes" / "2026-12-07" / "issue-35-r15-advice15-requests" / \
    "08-mixed-quote-sheet-glm4-9b-full.json"


def test_a_gpu_with_plans_is_not_listed_as_skipped():
    # savers15 searches the savers the user left unset; the first pass's "skipped: RTX 4090 … no layout fits in memory"
    # stood beside #1 and #2 on RTX 4090 that fit with the optimizer in CPU memory. A GPU is skipped only where every
    # pass skipped it
    res = search.search(Scenario.model_validate(json.loads(REQ08.read_text(encoding="utf-8"))), top=5)
    on_list = {p.gpu for p in res.plans}
    assert "rtx-4090-24gb" in on_list and any(p.unrequested_savers for p in res.plans if p.gpu == "rtx-4090-24gb")
    assert not on_list & set(res.skipped_gpus), (on_list, res.skipped_gpus)
    assert not on_list & {d["gpu"] for d in res.to_json()["skipped"]}  # what --json says

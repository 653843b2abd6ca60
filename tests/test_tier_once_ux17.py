"""The CLI names the model's scale tier once (issue 35 round 11, ux17): `estimate` printed
"Tier  100B: ~100B tier: several nodes…" and `plan`'s first line "Tier 100B: ~100B tier: …" (zh "档位 100B：~100B
档：…"); the guidance text names its tier itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplanner.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
MIXTRAL = str(ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_estimate_and_plan_say_the_tier_once(capsys, lang):
    assert run_cli(["estimate", MIXTRAL, "--lang", lang]) == 0
    est = capsys.readouterr().out.splitlines()
    tier = next(x for x in est if x.startswith("Tier" if lang == "en" else "档位"))
    assert tier.count("100B") == 1, tier
    assert run_cli(["plan", MIXTRAL, "--lang", lang, "--top", "1"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.count("100B") == 1 and first.startswith("~100B"), first

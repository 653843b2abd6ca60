"""The CLI's ``estimate`` and ``plan`` in Chinese put the language's punctuation around their own figures: the cost's
rental mode in full-width brackets ("¥82.14（按需卡时）"), the tier and each check's label followed by a full-width
colon ("[显存余量：通过]"), never an ASCII ": " or " (" inside a Chinese line the CLI builds itself."""

from __future__ import annotations

from pathlib import Path

from gpuplanner.cli import run_cli

EX = Path(__file__).resolve().parents[1] / "examples"


def _src(name: str) -> Path:
    """An example by name: examples/, or tests/data/examples_fixed/ for the fixed-layout files that left
    examples/ in issue 35 round 16 (examples16: those examples now let the search choose)."""
    here = Path(__file__).resolve().parents[1] / "examples" / name
    return here if here.exists() else Path(__file__).resolve().parents[1] / "tests" / "data" / "examples_fixed" / name


def _out(capsys, *args) -> list[str]:
    assert run_cli(list(args)) == 0
    return capsys.readouterr().out.splitlines()


def test_estimate_in_chinese(capsys):
    lines = _out(capsys, "estimate", str(EX / "7b-lora-1x4090.json"), "--lang", "zh_CN")
    cost = lines[lines.index("费用") + 1]
    assert cost.strip().startswith("¥") and "（" in cost and cost.endswith("）") and " (" not in cost, cost
    tier = next(x for x in lines if x.startswith("档位"))
    # the guidance names its tier once, with a full-width mark: "~10B 档，LoRA/QLoRA：…" (ux17: was "10B：~10B 档…")
    assert "10B 档" in tier and tier.count("10B") == 1 and ": " not in tier, tier
    en = _out(capsys, "estimate", str(EX / "7b-lora-1x4090.json"), "--lang", "en")
    assert en[en.index("Cost") + 1].endswith("(card-hours on demand)")


def test_plan_checks_in_chinese(capsys):
    lines = _out(capsys, "plan", str(_src("llama3-8b-full-8xh100-zero3.json")), "--top", "1", "--lang", "zh_CN")
    checks = [x for x in lines if x.lstrip().startswith(("✓ [", "✗ ["))]
    assert checks, lines
    for x in checks:
        head = x.split("]", 1)[0]
        assert "：" in head and ": " not in head, x

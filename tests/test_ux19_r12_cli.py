"""Round 12's RL plan read in Chinese from the CLI (helper ux19): the rollout-generation sentences use the UI's
word for it (采样生成, the breakdown's "rollout generation (RL)"), no English "rollout" in a Chinese sentence."""

from __future__ import annotations

import re
from pathlib import Path

from gpuplanner.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
GRPO = ROOT / "tests" / "data" / "expert_review_r11" / "grpo-qwen3-30b-a3b.json"


def test_rl_plan_in_chinese_says_rollout_generation_in_chinese(capsys):
    assert run_cli(["plan", str(GRPO), "--lang", "zh_CN", "--top", "1"]) == 0
    out = capsys.readouterr().out
    assert "采样生成" in out
    words = [ln for ln in out.splitlines() if re.search(r"(?<![\w_])rollout(?![\w_])", ln, re.IGNORECASE)]
    assert not words, words

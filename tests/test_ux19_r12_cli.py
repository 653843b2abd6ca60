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


MOE = {"model": {"preset": "qwen3-30b-a3b"},
       "training": {"framework": "megatron", "method": "full", "seq_len": 4096, "recompute": "megatron_selective",
                    "recompute_modules": ["moe_act", "layernorm"]},
       "parallel": {"auto": False, "ep": 8, "tp": 1, "pp": 1, "moe_dispatcher": "alltoall",
                    "ep_a2a_overlap": True},
       "hardware": {"gpu": "h800-sxm-80gb", "num_gpus": 16},
       "data": {"tokens": "1B"}, "constraints": {"deadline_days": 10, "currency": "CNY"}}


def _moe_file(tmp_path, modules):
    import copy
    import json

    s = copy.deepcopy(MOE)
    s["training"]["recompute_modules"] = modules
    path = tmp_path / "moe.json"
    path.write_text(json.dumps(s), encoding="utf-8")
    return path


def test_plan_names_the_recompute_modules_the_scenario_ticks(tmp_path, capsys):
    """Megatron's selective recompute with training.recompute_modules set: the CLI table and the layout sentence name
    those modules, not the default's "attention core" (ux19); without them, the default's label stays."""
    assert run_cli(["plan", str(_moe_file(tmp_path, ["moe_act", "layernorm"])), "--top", "1", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "selective, expert activation, norms" in out
    assert "attention core" not in out
    assert run_cli(["plan", str(_moe_file(tmp_path, ["moe_act", "layernorm"])), "--top", "1", "--lang", "zh_CN"]) == 0
    out = capsys.readouterr().out
    assert "选择性（专家激活函数、归一化层）" in out and "注意力核心" not in out
    # (round 14, ptoos14: with the pipeline's fill transfers priced, plan #1 is the same H20 layout without recompute,
    # a tie in cost; the selective plans further down keep the default's label)
    assert run_cli(["plan", str(_moe_file(tmp_path, None)), "--top", "5", "--lang", "en"]) == 0
    assert "selective, attention core" in capsys.readouterr().out


def test_report_layout_names_the_recompute_modules():
    """The PDF's layout text and task line (report/render.py) name the modules too."""
    from gpuplanner.report.render import _recompute_phrase

    assert "expert activation" in _recompute_phrase("megatron_selective", ["moe_act"])
    assert "attention core" not in _recompute_phrase("megatron_selective", ["moe_act"])
    assert "attention core" in _recompute_phrase("megatron_selective", None)
    assert _recompute_phrase("full", ["moe_act"]) == _recompute_phrase("full")

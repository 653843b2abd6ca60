"""Issue 35 round 18 (postoos18): NeMo RL v0.4 / v0.5 GRPO step times (``bench/validate_post_oos18b.py``).

The rows are checked against the published tables (transcribed by hand here, from github.com/NVIDIA-NeMo/RL
``docs/about/performance-summary.md`` at cff17f83b and 4c1a0cd49) and against the recipes' layouts (tag v0.4.0 /
v0.5.0 ``examples/configs/recipes/llm/performance/*.yaml``); the base figures are a regression guard.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_post_oos18b as v  # noqa: E402

#: (id, GPUs, G-Average Seq len, step s, generation TP, training TP, CP, EP, PP) as the tables print them
TABLE = {
    "nemo-rl v0.4 deepseek-v3 grpo 256xh100": (256, 745, 154.0, 32, 1, 1, 16, 16),
    "nemo-rl v0.4 deepseek-v3 grpo 512xh100 1-step off": (512, 744, 77.9, 32, 1, 1, 16, 16),
    "nemo-rl v0.4 qwen3-235b grpo 128xh100": (128, 5671, 506.0, 16, 2, 2, 16, 8),
    "nemo-rl v0.4 qwen3-235b grpo 256xh100 1-step off": (256, 5691, 241.0, 8, 4, 1, 16, 8),
    "nemo-rl v0.5 deepseek-v3 grpo 256xh100": (256, 744, 134.0, 32, 1, 1, 16, 16),
    "nemo-rl v0.5 deepseek-v3 grpo 512xh100 1-step off": (512, 738, 64.9, 32, 1, 1, 16, 16),
    "nemo-rl v0.5 qwen3-235b grpo 128xh100": (128, 5700, 431.0, 16, 2, 2, 16, 8),
    "nemo-rl v0.5 qwen3-235b grpo 256xh100 1-step off": (256, 5707, 203.0, 8, 4, 1, 16, 8),
    "nemo-rl v0.5 gb200 deepseek-v3 grpo 128 gpus": (128, 996, 128.0, 32, 1, 1, 16, 8),
    "nemo-rl v0.5 gb200 deepseek-v3 grpo 256 gpus 1-step off": (256, 994, 64.5, 16, 1, 1, 16, 8),
    "nemo-rl v0.5 gb200 qwen3-235b grpo 64 gpus": (64, 5711, 332.0, 8, 2, 2, 16, 4),
    "nemo-rl v0.5 gb200 qwen3-235b grpo 128 gpus 1-step off": (128, 5711, 268.0, 8, 4, 1, 16, 4),
}


@pytest.mark.parametrize("row", v.ROWS, ids=[r[0] for r in v.ROWS])
def test_row_is_the_table_and_the_recipe(row):
    rid, _src, scn, pub, recipe = row
    n, avg, step, gen_tp, tp, cp, ep, pp = TABLE[rid]
    assert pub == step
    assert scn["hardware"]["num_gpus"] == n
    par, rl = scn["parallel"], scn["training"]["rl"]
    assert (par["tp"], par.get("cp", 1), par["ep"], par["pp"]) == (tp, cp, ep, pp)
    assert rl["rollout_tp"] == gen_tp
    # the table's mean sequence = the 150-token prompt + the mean response (rl_step_times._nemo_rl)
    assert rl["prompt_len"] + rl["mean_response_fraction"] * rl["rollout_len"] == pytest.approx(avg)
    # one generation batch a step: 32 × 16 (DeepSeek-V3) or 16 × 32 (Qwen3-235B) = 512 = train_global_batch_size
    ds = "deepseek" in rid
    assert rl["group_size"] == (16 if ds else 32) and rl["updates_per_generation"] == 1
    assert scn["training"]["seq_len"] == (1536 if ds else 8192)
    off = "1-step off" in rid
    assert (rl["generation_engine"] == "vllm_separate") == off and recipe.endswith("-async-1off") == off
    assert scn["hardware"]["gpus_per_node"] == (4 if "gb200" in rid else 8)


def test_scores_match_the_recorded_base():
    """A regression guard: the model's figures are the base's (bench/data/postoos18_before.json, main cd08457e),
    and the summary is the hand median / p90 of |published / predicted − 1| over them."""
    before = json.loads(v.BEFORE.read_text())
    rows = v.score()
    assert {r["id"] for r in rows} == set(before) == set(TABLE)
    for r in rows:
        assert r["pred"] == pytest.approx(before[r["id"]], rel=1e-6)
    errs = sorted(abs(TABLE[k][2] / before[k] - 1.0) for k in before)
    assert statistics.median(errs) == pytest.approx(0.232, abs=0.002)
    assert v.p90(errs) == pytest.approx(0.419, abs=0.002)  # the 11th of 12 sorted: round(0.9 × 11) = 10


def test_release_floor_by_hand():
    """The same recipe's published steps over three releases: ±√(max/min) − 1 is the closest one figure gets."""
    spread = {r["recipe"]: r for r in v.release_spread(v.score())}
    ds = spread["grpo-deepseek-v3-32n8g"]
    assert ds["steps"] == [154.0, 134.0, 134.0]
    assert ds["floor"] == pytest.approx((154.0 / 134.0) ** 0.5 - 1.0)  # 7.2%
    q = spread["grpo-qwen3-235b-16n8g"]
    assert q["steps"] == [506.0, 431.0, 395.0]
    assert q["floor"] == pytest.approx(0.1318, abs=1e-3)

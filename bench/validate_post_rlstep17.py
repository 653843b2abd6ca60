"""Round 17 (rlstep17): where the EasyR1 / verl step misses on H100 — the model's step split into verl's timing keys
(``bench/rl_step_times.key_split``: gen with the refit's copies, old_log_prob, ref, update_actor) for EasyR1's
published rows (``bench/validate_post_oos18.py``), beside the update time that EasyR1's published actor MFU fixes
(``verl/utils/flops_counter.py`` at hiyouga/EasyR1 a23fb5b0 over ``update_policy``'s wall time; the figures are
round 17 post18's, ``docs/notes/2026-12-07/issue-35-r17-post18.md`` §3) and the vision tower's share of a rollout's
forward FLOPs (Qwen2.5-VL's ViT, the same ~0.67 B parameters in all three sizes, 1,336 patches an image at
``min_pixels`` 262,144; the language model 2·N a token over the mean rollout).

Diagnostic only: no constant is fitted here. Usage: python bench/validate_post_rlstep17.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import rl_step_times as rl  # noqa: E402
import validate_post_oos18 as oos18  # noqa: E402
from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.io.model_files import ModelFiles  # noqa: E402

#: the update seconds a step that EasyR1's published "Actor MFU" column fixes (post18 §3), by row id
PUB_UPDATE = {
    "easyr1 v0.3.2 qwen2.5-vl-3b amp 1/2 8xh100": 56.6,
    "easyr1 v0.3.2 qwen2.5-vl-7b amp 1/2 8xh100": 68.3,
    "easyr1 v0.3.2 qwen2.5-vl-7b amp 4/8 8xh100": 48.7,
    "easyr1 v0.3.2 qwen2.5-vl-7b amp 1/2 8xl20": 349.8,
    "easyr1 v0.3.2 qwen2.5-vl-32b bf16 1/2 8xh100": 258.4,
    "easyr1 fb24593 qwen2.5-vl-3b amp 4/16 8xh100": 72.7,
    "easyr1 fb24593 qwen2.5-vl-7b amp 4/16 8xh100": 74.7,
}
VIT_PARAMS, PATCHES = 0.67e9, 1336.0  # Qwen2.5-VL vision_config (32 blocks, 1,280 wide), 4 patches a merged token
LM_TOTAL = {"3b": 3.755e9, "7b": 8.292e9, "32b": 33.45e9}  # post18's totals from the three config.json files


def vision_share(size: str, mean_tokens: float) -> float:
    """The ViT's share of one rollout's forward FLOPs (2·N a patch / a token; attention left out)."""
    vit = PATCHES * 2.0 * VIT_PARAMS
    return vit / (vit + mean_tokens * 2.0 * (LM_TOTAL[size] - VIT_PARAMS))


def main() -> int:
    files = ModelFiles(oos18.MODELS)
    rl.estimate = lambda scn: estimate(scn, files)  # the EasyR1 rows read their config.json files
    print("| row | step pub / model | gen | old_log_prob | ref | update model | update pub (MFU) | pub / model "
          "| rest pub / model | ViT share |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in oos18.ROWS:
        scn = oos18.scenario(row)
        keys, base = rl.key_split(scn), rl.predict(scn)
        pub, upd = row[3]["step"], PUB_UPDATE.get(row[0])
        ratio = f"{upd / keys['update_actor']:.2f}" if upd else "—"
        rest = f"{pub - upd:.1f} / {base['step'] - keys['update_actor']:.1f}" if upd else "—"
        share = vision_share(row[2][0], oos18.mean_rollout(*row[2][5:7]))
        print(f"| {row[0]} | {pub:.0f} / {base['step']:.1f} | {keys['gen']:.1f} | {keys['old_log_prob']:.1f} | "
              f"{keys['ref']:.1f} | {keys['update_actor']:.1f} | {upd if upd else '—'} | {ratio} | {rest} | "
              f"{share:.1%} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

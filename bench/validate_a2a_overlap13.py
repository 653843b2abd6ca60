"""Megatron-Core's EP all-to-all overlap against the published A/B pairs of the flag alone (issue 35 round 13,
helper moe13).

Usage: python bench/validate_a2a_overlap13.py [--dump]

``parallel.ep_a2a_overlap`` (``--overlap-moe-expert-parallel-comm --delay-wgrad-compute``) is timed by
``timing.a2a_overlap_ep_seconds``: round 13 rebuilt its layer pair from Megatron-LM d98e8a64's stream and event order
(``models/common/model_chunk_schedule_plan.py`` ``TransformerLayerSchedulePlan.run``, ``pipeline_parallel/utils.py``
``ScheduleNode.stream_acquire_context``, ``models/common/utils.py`` ``TransformerLayerNode.backward_dw``) and chains
the pairs of one model chunk. Each pair is the same run with and without the flag; "saving" = off − on. "before" =
main a8283e44 (round 12's pair rule, ``BEFORE`` below, from this script run on a ``git archive`` of it); "now" = this
code. Error = published step / predicted step − 1 (+ = the model is too fast).

Sources
-------
1. **Megatron MoE Model Zoo** (github.com/yanring/Megatron-MoE-ModelZoo ``best_practice/Qwen3/readme.md`` @c1ad0b5c;
   entered by ptoos11 / mgfields12 as ``validate_pretrain_oos11.ZOO``): Qwen3-235B-A22B, 256 H100, DeepEP, TP 2 PP 8
   VP 4 EP 32, ``--recompute-modules layernorm moe_act``: 19.7 s; "+1f1b overlap" 17.6 s (the Zoo's
   ``sbatch_benchmarking.sh`` @38ce2ed2 adds ``--delay-wgrad-compute --overlap-moe-expert-parallel-comm`` and
   ``CUDA_DEVICE_MAX_CONNECTIONS=32``).
2. **Megatron-Bridge** ``docs/training/communication-overlap.md`` (NVIDIA-NeMo/Megatron-Bridge 067f987d, from PR #3862
   "Record MoE overlap smoke results", 2026-05-16/18): "a 2026-05-18 current-main H100 x16 Qwen3 30B-A3B mock-data
   rerun with EP=16, alltoall, CUDA graphs disabled, and moe_permute_fusion=false reduced steady-state step time from
   41.25s to 31.31s when enabling EP overlap"; with ``delay_wgrad_compute`` too: 31.20 s (the field's pair of flags,
   entered). Global batch 1,024. The rest is ASSUMED from the Bridge recipe of that size,
   ``recipes/qwen/h100/qwen3_moe.py`` ``qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config`` (067f987d): TP 1, PP 1,
   EP 16, expert TP 1, MBS 1, sequence 4,096, no recompute, BF16 (PP 1 is also what the overlap needs without a
   virtual pipeline). Not describable here: ``moe_permute_fusion=false`` (no scenario field; the model's Megatron
   path prices the permute as it does for every Megatron row). A short smoke ("directional rather than
   release-grade", the doc says): an out-of-sample check, not a calibration row.

Not entered: Megatron-LM PR #6311 (DeepSeek-V3 proxy, 64 H100, TP 1 PP 4 EP 16, overlap with full recompute
184.2 → 198.5 TFLOP/s/GPU): full recompute with the overlap is refused at Megatron-LM d98e8a64 and here.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

SRC_ZOO = "github.com/yanring/Megatron-MoE-ModelZoo best_practice/Qwen3/readme.md @c1ad0b5c"
SRC_BRIDGE = "NVIDIA-NeMo/Megatron-Bridge docs/training/communication-overlap.md @067f987d (PR #3862)"


def bridge_smoke_scenario(overlap: bool) -> dict:
    """Source 2 as a Megatron-Bridge user enters it (module doc: layout ASSUMED from the 16-GPU H100 recipe)."""
    return {"model": {"preset": "qwen3-30b-a3b"},
            "training": {"framework": "megatron", "precision": "bf16", "seq_len": 4096, "micro_batch_size": 1,
                         "global_batch_size": 1024, "recompute": "none"},
            "parallel": {"tp": 1, "pp": 1, "ep": 16, "cp": 1, "expert_tp": 1, "zero": 1,
                         "moe_dispatcher": "alltoall", "ep_a2a_overlap": overlap},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 16}}


def zoo_scenario(overlap: bool) -> dict:
    import validate_pretrain_oos11 as z

    sc = z.zoo_scenario(tp=2, pp=8, vp=4, ep=32, mbs=1, disp="flex")
    sc = copy.deepcopy(sc)
    sc["training"].update(recompute="megatron_selective", recompute_modules=["layernorm", "moe_act"])
    sc["parallel"]["ep_a2a_overlap"] = overlap
    return sc


#: (label, scenario builder, published off, published on, source)
PAIRS = [
    ("Zoo Qwen3-235B DeepEP TP2 PP8 VP4 EP32, 256 H100", zoo_scenario, 19.7, 17.6, SRC_ZOO),
    ("Bridge smoke Qwen3-30B-A3B alltoall EP16, 16 H100", bridge_smoke_scenario, 41.25, 31.20, SRC_BRIDGE),
]

#: label → (off, on) predicted step (s) on main a8283e44 (this script run from a ``git archive`` of it)
BEFORE = {"Zoo Qwen3-235B DeepEP TP2 PP8 VP4 EP32, 256 H100": (20.316, 14.785),
          "Bridge smoke Qwen3-30B-A3B alltoall EP16, 16 H100": (34.796, 22.837)}


def _time(sc: dict):
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    return time_estimate(resolve(scenario_from_dict(sc)))


def rows() -> list[dict]:
    out = []
    for label, build, pub_off, pub_on, src in PAIRS:
        off, on = _time(build(False)), _time(build(True))
        out.append({"label": label, "src": src, "pub_off": pub_off, "pub_on": pub_on,
                    "off": off.step_time_s, "on": on.step_time_s, "ep_off": off.seconds["ep_comm"],
                    "ep_on": on.seconds["ep_comm"], "hid": on.hidden.get("ep_comm", 0.0),
                    "before": BEFORE.get(label)})
    return out


def lines() -> list[str]:
    out = ["| pair | published off → on (saving) | before: off → on (saving), error on | now: off → on (saving), "
           "error on | now: expert all-to-all exposed off → on, hidden |", "|---|---|---|---|---|"]
    for r in rows():
        pub = f"{r['pub_off']:.2f} → {r['pub_on']:.2f} s ({r['pub_off'] - r['pub_on']:.2f})"
        b = r["before"]
        bef = (f"{b[0]:.2f} → {b[1]:.2f} ({b[0] - b[1]:.2f}), {r['pub_on'] / b[1] - 1:+.1%}" if b else "—")
        now = (f"{r['off']:.2f} → {r['on']:.2f} ({r['off'] - r['on']:.2f}), {r['pub_on'] / r['on'] - 1:+.1%} "
               f"(off {r['pub_off'] / r['off'] - 1:+.1%})")
        out.append(f"| {r['label']} | {pub} | {bef} | {now} | {r['ep_off']:.2f} → {r['ep_on']:.2f}, "
                   f"{r['hid']:.2f} |")
    return out


def main() -> int:
    if "--dump" in sys.argv:
        print({r["label"]: (round(r["off"], 3), round(r["on"], 3)) for r in rows()})
        return 0
    print("\n".join(lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

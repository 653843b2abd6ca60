"""Issue 35 round 12 (savers12): ``training.rl.offload_model`` on ms-swift's own colocated GRPO example of
Qwen3-30B-A3B (modelscope/ms-swift 3602360a5, examples/megatron/grpo/moe_colocate_full.sh: TP 4 × EP 4 × PP 2 on one
8-GPU node, ``--sleep_level 2 --offload_model true --offload_optimizer true --optimizer_cpu_offload true``).

No published memory or step time exists for this example (the script has no "# GPU memory" comment), so nothing is
scored: the script prints, per card and vLLM setting, memory per GPU and the step time without and with the
model's offload, and the bytes the offload moves per step by hand (2 B a parameter of the GPU's shard out and back,
plus 12 B of optimizer shard unless Megatron's CPU optimizer keeps it on the host), against the named part.

Run: python bench/rl_offload_model_r12.py
"""

from __future__ import annotations

import copy

from gpuplanner.core.estimate import estimate
from gpuplanner.core.scenario import Scenario

N, N_EXP = 30_532_122_624, 48 * 128 * 3 * 2048 * 768
SHARD = (N - N_EXP) / 8 + N_EXP / 8  # dense part over TP 4 × PP 2, whole experts over EP 4 × PP 2
HOST = {"h20-96gb": 64e9 * 0.8, "h800-sxm-80gb": 64e9 * 0.8, "a800-sxm-80gb": 32e9 * 0.8}


def scenario(gpu: str, *, cpu_opt: bool, share: float, vllm_tp: int | None) -> dict:
    rl = {"group_size": 8, "prompt_len": 1024, "rollout_len": 2048, "generation_engine": "vllm_colocated",
          "engine_sleep": True, "generation_gpu_fraction": share}
    if vllm_tp:
        rl["rollout_tp"] = vllm_tp
    return {"model": {"preset": "qwen3-30b-a3b"},
            "training": {"method": "full", "objective": "grpo", "framework": "megatron-swift", "seq_len": 3072,
                         "micro_batch_size": 1, "global_batch_size": 256, "recompute": "megatron_selective",
                         "preference": {"reference": "none"}, "rl": rl},
            "parallel": {"tp": 4, "pp": 2, "ep": 4, "sequence_parallel": True, "offload_optimizer": cpu_opt},
            "hardware": {"gpu": gpu, "num_gpus": 8}, "data": {"tokens": "50M"}}


def main() -> None:
    print("| card | CPU optimizer | vLLM share, TP | GiB/GPU before → after | step s before → after | offload part s "
          "(by hand) |")
    print("|---|---|---|---|---|---|")
    for gpu in HOST:
        for cpu_opt in (True, False):
            for share, vtp in ((0.3, None), (0.4, 8)):
                d = scenario(gpu, cpu_opt=cpu_opt, share=share, vllm_tp=vtp)
                on = copy.deepcopy(d)
                on["training"]["rl"]["offload_model"] = True
                a, b = estimate(Scenario.model_validate(d)), estimate(Scenario.model_validate(on))
                hand = 2.0 * (2.0 + (0.0 if cpu_opt else 12.0)) * SHARD / HOST[gpu]
                fit = lambda e: f"{e.memory.total:.1f}/{e.memory.capacity:.0f}"
                print(f"| {gpu} | {'yes' if cpu_opt else 'no'} | {share}, {vtp or 'training TP'} | {fit(a)} → {fit(b)} "
                      f"| {a.time.step_time_s:.1f} → {b.time.step_time_s:.1f} | "
                      f"{b.time.parts.get('rl_model_offload', 0.0):.2f} ({hand:.2f}) |")


if __name__ == "__main__":
    main()

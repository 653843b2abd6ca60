"""Round 17 (post18), scored before any change: EasyR1's published performance baselines (step time and peak GPU
memory), two releases of the same table, each with the launch configuration its version ships.

Usage: python bench/validate_post_oos18.py [--sensitivity] [--json]

Sources (github.com/hiyouga/EasyR1, ``assets/baselines.md``, "Performance Baselines", Qwen2.5-VL-Instruct on
Geometry3k, 8 GPUs, GRPO):

* ``V032``: the table of release v0.3.2 (a23fb5b0, 2025-09-18; unchanged to b44b311). Configuration:
  ``examples/config.yaml`` at a23fb5b0 ("The hyper-parameters not listed are all the same as the default values").
* ``V02``: the table as first published with its vLLM column (fb24593, 2025-04-23, "update baseline"), with
  ``examples/config.yaml`` at fb24593. Its rows differ in the micro-batches (4 / 16, 10 / 20, 1 / 8), in the absence
  of dynamic batching (no ``dynamic_batching`` key: fixed micro-batches of ``micro_batch_size_per_device_for_update``
  sequences) and in the release's kernels; the rest of the launch is the same.

Both configurations (read in the files named above):
  rollout_batch_size 512 prompts × rollout.n 5 = 2,560 rollouts a step; actor.global_batch_size 128 prompts (640
  rollouts) an update → 4 updates a step; max_prompt_length = max_response_length = 2,048; GRPO with
  ``use_kl_loss`` (kl_coef 1e-2) against a reference FSDP-wrapped with ``CPUOffload(offload_params=True)``
  (``ref.fsdp.enable_cpu_offload: true``); the actor FSDP1 full shard, ``enable_gradient_checkpointing: true``,
  ``padding_free: true``, ``freeze_vision_tower: false``; ``worker.actor.offload.offload_params`` and
  ``offload_optimizer`` true (the dataclass defaults are false: ``verl/workers/actor/config.py`` ``OffloadConfig``);
  vLLM colocated, ``gpu_memory_utilization`` 0.6, ``tensor_parallel_size`` 2 (the table's "vLLM TP" column),
  ``enforce_eager: false`` (CUDA graphs), ``sleep(level=1)`` between phases
  (``verl/workers/sharding_manager/fsdp_vllm.py`` ``offload_vllm``); ``min_pixels`` 262,144.

Bits: "AMP" = the actor built in fp32 (``fsdp.torch_dtype`` None → ``torch.float32`` for the actor,
``fsdp_workers.py`` ``_build_model_optimizer``) with bf16 mixed precision (``mp_param_dtype`` bf16), AdamW in fp32:
the planner's verl reading (``memory.verl_actor_fp32``). "BF16" = ``torch_dtype: bf16`` and ``optim.strategy:
adamw_bf16`` (the run scripts ``examples/qwen2_5_vl_7b_geo3k_grpo.sh`` at a23fb5b0 do not set it; ASSUMED from the
column's name): the planner's ``master_weights: false`` (pure 16-bit weights and moments: ``AnyPrecisionAdamW`` with bf16
momentum and variance, ``fsdp_workers.py`` l. 299).

Mapping (as bench/rl_step_times.py for verl): framework ``fsdp`` (RL on it is verl's FSDP workers, which EasyR1
forks), ``zero`` 3, ``offload_params`` / ``offload_optimizer`` = the actor's ``offload_params`` /
``offload_optimizer``; ``rollout_tp`` = vLLM TP; ``generation_gpu_fraction`` 0.6; ``engine_sleep`` true,
``sleep_level`` 1; ``enforce_eager`` false; one planner step = one mini-batch update (640 rollouts), so the
published step = ``updates_per_generation`` (4) planner steps.

Tokens (what is not published; ASSUMED, with sensitivity ``--sensitivity``):
* The table's throughput is ``perf/throughput`` = ``sum(attention_mask)`` over the step's rollouts /
  (step time × GPUs) (``verl/trainer/metrics.py`` ``compute_throughout_metrics``; ``global_token_num`` in
  ``ray_trainer.py``): every input token, image tokens included. So the mean rollout (prompt + image + response) is
  throughput × s/step × 8 / 2,560: 675–760 tokens (32B: 967–1,027; the "(+600)" is the gain over the previous
  release, not a second count).
* Image: one per Geometry3k problem, raised to ``min_pixels`` = 262,144 pixels (the set's diagrams are smaller)
  → 512 × 512 / 28² = 334 language-model tokens (``image_resolution`` 512).
* Text prompt: ``PROMPT_TEXT`` = 120 tokens (the chat header, the problem, ``format_prompt/math.jinja``); the
  response is the rest of the mean rollout. Sensitivity: 60 and 200.
* Dynamic batching (v0.3.2: ``dp_actor.py`` ``update_policy``): a micro-batch holds up to
  ``micro_batch_size_per_device_for_update × input_ids.size(-1)`` tokens (the padded 4,096), so the planner's
  micro-batch is the number of mean rollouts that fill it (floor), at most the 80 rollouts a GPU holds of a
  mini-batch, lowered to a divisor of 80 (the planner's batch is whole micro-batches).
* The fixed micro-batches of the earlier release (4, 10, 1) do not divide a GPU's 80 rollouts for 4 × 8 = 32
  only where stated; 640 / (10 × 8) = 8, 640 / (4 × 8) = 20, 640 / 8 = 80 all divide.

Error convention: error = published / predicted − 1 (+ means the model is too fast / too small).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402
from gpuplanner.io.model_files import ModelFiles  # noqa: E402

#: the model's figures at the base (main 3b047601), recorded before any change of this round
BEFORE = ROOT / "bench" / "data" / "post18_before.json"
MODELS = ROOT / "bench" / "data" / "post18"  # the three config.json files (huggingface.co/Qwen/Qwen2.5-VL-{3B,7B,32B}-Instruct)
V032 = "github.com/hiyouga/EasyR1 a23fb5b0 (v0.3.2) assets/baselines.md + examples/config.yaml"
V02 = "github.com/hiyouga/EasyR1 fb24593 assets/baselines.md + examples/config.yaml"
PROMPTS, GROUP, MINI, GPUS = 512, 5, 128, 8
MAX_PROMPT = MAX_RESP = 2048
IMAGE_TOKENS, IMAGE_RES = 334, 512
PROMPT_TEXT = 120  # ASSUMED (see the docstring)


def mean_rollout(tok_s_gpu: float, s_step: float) -> float:
    """The mean rollout's tokens (prompt + image + response) from the table's throughput and step time."""
    return tok_s_gpu * s_step * GPUS / (PROMPTS * GROUP)


def easyr1(size: str, gpu: str, *, bits: str, mbs: int, vllm_tp: int, tok_s: float, s_step: float,
           dynamic: bool, prompt_text: int = PROMPT_TEXT, offload: bool = True) -> dict:
    """One EasyR1 row as a planner scenario (the mapping in the module docstring)."""
    mean = mean_rollout(tok_s, s_step)
    prompt = IMAGE_TOKENS + prompt_text
    resp = max(mean - prompt, 16.0)
    per_gpu = MINI * GROUP // GPUS
    fill = min(per_gpu, max(1, int(mbs * (MAX_PROMPT + MAX_RESP) // mean)))
    # the planner's batch is a whole number of equal micro-batches: the largest divisor of the GPU's share ≤ fill
    micro = max(d for d in range(1, fill + 1) if per_gpu % d == 0) if dynamic else mbs
    bf16 = bits == "BF16"
    return {
        "model": {"hf_config": f"qwen2.5-vl-{size}/config.json"},
        "data": {"images_per_sample": 1, "image_resolution": IMAGE_RES},
        "training": {"objective": "grpo", "method": "full", "framework": "fsdp", "padding_free": True,
                     "fsdp_version": 1, "precision": "bf16",
                     **({"master_weights": False} if bf16 else {}),
                     "seq_len": MAX_PROMPT + MAX_RESP, "micro_batch_size": micro,
                     "global_batch_size": MINI * GROUP, "recompute": "full",
                     "freeze_vision": False, "freeze_projector": False,
                     "preference": {"beta": 0.01, "reference_offload": True},
                     "rl": {"group_size": GROUP, "rollout_len": MAX_RESP, "prompt_len": prompt,
                            "generation_engine": "vllm_colocated", "generation_gpu_fraction": 0.6,
                            "engine_sleep": True, "sleep_level": 1, "enforce_eager": False,
                            "mean_response_fraction": resp / MAX_RESP, "reward": "function",
                            "updates_per_generation": PROMPTS // MINI, "rollout_tp": vllm_tp}},
        "parallel": {"zero": 3, "offload_optimizer": offload, "offload_params": offload},
        "hardware": {"gpu": gpu, "num_gpus": GPUS},
    }


H100, L20 = "h100-sxm-80gb", "l20-48gb"
#: (id, source, (size, gpu, bits, mbs, vllm_tp, tok/s/GPU, s/step, dynamic), published {step s, mem GiB}, note)
ROWS = [
    ("easyr1 v0.3.2 qwen2.5-vl-3b amp 1/2 8xh100", V032, ("3b", H100, "AMP", 1, 2, 1800, 120, True),
     {"step": 120.0, "mem": 54.0}, ""),
    ("easyr1 v0.3.2 qwen2.5-vl-7b amp 1/2 8xh100", V032, ("7b", H100, "AMP", 1, 2, 1600, 145, True),
     {"step": 145.0, "mem": 68.0}, ""),
    ("easyr1 v0.3.2 qwen2.5-vl-7b amp 4/8 8xh100", V032, ("7b", H100, "AMP", 4, 2, 2000, 120, True),
     {"step": 120.0, "mem": 72.0}, ""),
    ("easyr1 v0.3.2 qwen2.5-vl-7b amp 1/2 8xl20", V032, ("7b", L20, "AMP", 1, 2, 410, 580, True),
     {"step": 580.0, "mem": 42.0}, "the row is unchanged from the earlier table (410 tok/s, 580 s, '+0')"),
    ("easyr1 v0.3.2 qwen2.5-vl-7b bf16 1/2 8xh100", V032, ("7b", H100, "BF16", 1, 2, 1600, 145, True),
     {"step": 145.0, "mem": 58.0}, ""),
    ("easyr1 v0.3.2 qwen2.5-vl-32b bf16 1/2 8xh100", V032, ("32b", H100, "BF16", 1, 8, 620, 530, True),
     {"step": 530.0, "mem": 72.0}, "vLLM TP 8"),
    ("easyr1 fb24593 qwen2.5-vl-3b amp 4/16 8xh100", V02, ("3b", H100, "AMP", 4, 2, 1200, 180, False),
     {"step": 180.0, "mem": 35.0}, ""),
    ("easyr1 fb24593 qwen2.5-vl-7b amp 4/16 8xh100", V02, ("7b", H100, "AMP", 4, 2, 1200, 180, False),
     {"step": 180.0, "mem": 60.0}, ""),
    ("easyr1 fb24593 qwen2.5-vl-7b amp 10/20 8xh100", V02, ("7b", H100, "AMP", 10, 2, 1400, 170, False),
     {"step": 170.0, "mem": 75.0}, ""),
    ("easyr1 fb24593 qwen2.5-vl-7b amp 4/16 8xl20", V02, ("7b", L20, "AMP", 4, 2, 410, 580, False),
     {"step": 580.0, "mem": 44.0}, ""),
    ("easyr1 fb24593 qwen2.5-vl-7b bf16 4/16 8xh100", V02, ("7b", H100, "BF16", 4, 2, 1280, 190, False),
     {"step": 190.0, "mem": 50.0}, ""),
    ("easyr1 fb24593 qwen2.5-vl-32b bf16 1/8 8xh100", V02, ("32b", H100, "BF16", 1, 8, 360, 860, False),
     {"step": 860.0, "mem": 68.0}, "vLLM TP 8"),
]


def scenario(row, **kw) -> dict:
    size, gpu, bits, mbs, tp, tok, s, dyn = row[2]
    return easyr1(size, gpu, bits=bits, mbs=mbs, vllm_tp=tp, tok_s=tok, s_step=s, dynamic=dyn, **kw)


def predict(scn: dict) -> dict:
    e = estimate(scenario_from_dict(scn), ModelFiles(MODELS))
    t = e.time
    k = scn["training"]["rl"]["updates_per_generation"]
    gen = t.seconds.get("generation", 0.0) * k
    m = e.memory
    return {"step": t.step_time_s * k, "gen": gen, "mem": m.allocated, "device": m.total}


def err(pub: float, pred: float) -> float:
    return pub / pred - 1.0


def p90(v):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(0.9 * (len(v) - 1))))]


def score(**kw) -> list[dict]:
    out = []
    for row in ROWS:
        scn = scenario(row, **kw)
        pred = predict(scn)
        out.append({"id": row[0], "pub": row[3], "pred": pred, "mean": mean_rollout(*row[2][5:7]),
                    "micro": scn["training"]["micro_batch_size"],
                    "err": {k: err(row[3][k], pred[k]) for k in row[3]}})
    return out


def summary(rows, key):
    v = [abs(r["err"][key]) for r in rows]
    return statistics.median(v), p90(v)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sensitivity", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rows = score()
    if a.json:
        print(json.dumps({r["id"]: {k: round(x, 3) for k, x in r["pred"].items()} for r in rows}, indent=1))
        return 0
    before = json.loads(BEFORE.read_text())["rows"]
    print("| row | mean tokens | micro | step pub | step before → now | err before → now | mem pub GiB "
          "| allocated before → now | err before → now | device peak before → now | gen s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        p, b = r["pred"], before[r["id"]]
        eb = {k: err(r["pub"][k], b[k]) for k in r["pub"]}
        print(f"| {r['id']} | {r['mean']:.0f} | {r['micro']} | {r['pub']['step']:.0f} | {b['step']:.1f} → "
              f"{p['step']:.1f} | {eb['step']:+.1%} → {r['err']['step']:+.1%} | {r['pub']['mem']:.0f} | "
              f"{b['mem']:.1f} → {p['mem']:.1f} | {eb['mem']:+.1%} → {r['err']['mem']:+.1%} | "
              f"{b['device']:.1f} → {p['device']:.1f} | {p['gen']:.1f} |")
    for key in ("step", "mem"):
        vb = [abs(err(r["pub"][key], before[r["id"]][key])) for r in rows]
        m, q = summary(rows, key)
        print(f"{key}: |error| median / p90 before {statistics.median(vb):.1%} / {p90(vb):.1%}, now {m:.1%} / "
              f"{q:.1%} over {len(rows)} rows")
    if a.sensitivity:
        for pt in (60, 200):
            rs = score(prompt_text=pt)
            s50, s90 = summary(rs, "step")
            m50, m90 = summary(rs, "mem")
            print(f"text prompt {pt} tokens: step {s50:.1%} / {s90:.1%}, mem {m50:.1%} / {m90:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

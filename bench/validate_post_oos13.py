r"""Round 13 (postoos13): DeepSpeed-Chat's published step-3 (PPO) log, scored against the model out of sample.

Usage: python bench/validate_post_oos13.py

Source: github.com/deepspeedai/DeepSpeedExamples (formerly microsoft/), ``applications/DeepSpeed-Chat/training/
step3_rlhf_finetuning/training_log_output/actor_opt-1.3b_critic_opt-350m_globalBatchSize64.log`` (added in 0eaa7961,
"add training logs", April 2023; the run is dated 2023-04-18 in its lines; the file at HEAD only renames the
arguments in its first line, #698). No bench, test or note used it before this file (``grep -ril "deepspeed-chat\|
dschat\|hybrid.engine" bench tests docs``: one note line, postoos10's "DeepSpeed-Chat's step-3 logs: generation runs
in DeepSpeed's hybrid engine, which the planner does not model"). The log prints its launch command:

    deepspeed main.py --data_path Dahoas/rm-static --data_split 2,4,4 --actor_model_name_or_path <step-1 OPT-1.3b>
      --critic_model_name_or_path <step-2 OPT-350m> --num_padding_at_beginning 1 --per_device_train_batch_size 4
      --per_device_mini_train_batch_size 4 --generation_batch_numbers 1 --ppo_epochs 1 --max_answer_seq_len 256
      --max_prompt_seq_len 256 ... --gradient_accumulation_steps 1 --deepspeed --enable_hybrid_engine
      --actor_zero_stage 2 --critic_zero_stage 2 --enable_ema

and, every step, DeepSpeed's hybrid-engine line (``deepspeed/runtime/hybrid_engine.py`` ``eval()``: the wall time
between two generations, the time inside ``generate`` and the time in train mode) ``|E2E latency=… |Gather
latency=… |Generate time=… |Training time=… |Others=…``: 476 steps; medians over steps 1–475 (step 0 is the
warm-up):
E2E 3.80 s, generate 2.52 s, training 1.06 s, others 0.22 s (the experience pass: the actor's, reference's, reward
model's and critic's forwards over the 512-token rows), gather 0.00 s (ZeRO-2: nothing to gather). DeepSpeed's
throughput timer prints ``MaxMemAllocated=20.55GB`` (``torch.cuda.max_memory_allocated() / 1024**3``) from step 10
to the end.

Mapping, with what the log does not say marked ASSUMED:

* 16 GPUs: the global batch 64 (the file name) over ``per_device_train_batch_size`` 4 with accumulation 1;
  ``Total memory: 31.748535 (GigaBytes)`` in the hybrid engine's workspace line is a 32 GB V100 (``fp16``: the log's
  loss-scaler lines). ASSUMED V100-SXM2-32GB, 8 a node (two nodes).
* OPT-1.3b (facebook/opt-1.3b config.json): hidden 2,048, 24 layers, 32 heads, FFN 8,192 (ReLU), vocabulary 50,272,
  tied embeddings, biases everywhere, LayerNorm, learned positions.
* Prompts padded to 256 (``DataCollatorRLHF`` pads to ``max_prompt_seq_len``), answers of exactly 256 tokens
  (``ppo_trainer.py`` ``_generate_sequence`` at the log's date: ``generate(prompts, max_length=512,
  min_length=512)``; ``BenckmarkSetting.md``: "generate fixed-length answer with 256 tokens"): mean fraction 1.
* Attention: eager (``flash_attention`` off). DeepSpeed-Chat's requirements of April 2023 pin transformers >= 4.28,
  whose ``modeling_opt.py`` ``OPTAttention`` has one implementation: ``torch.bmm`` scores, the fp16 → fp32
  softmax, ``torch.bmm`` again (SDPA and FlashAttention-2 reached OPT in later releases). Training only: the
  hybrid engine's generation uses its own attention kernels.
* The reference: a separate fp16 copy (``rlhf_engine.py`` ``_init_ref``: ZeRO-0 when the actor is not ZeRO-3);
  KL coefficient 0.1 (``ppo_trainer.py`` ``kl_ctl``); no recomputation (``--actor_gradient_checkpointing`` unset).
* NOT ENTERABLE: the critic and the reward model are OPT-350m (0.33 B); the planner's PPO critic and reward model
  have the actor's architecture. The EMA copy of the actor (``--enable_ema``) is not modelled either.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402
from gpuplanner.io.model_files import ModelFiles  # noqa: E402

SOURCE = ("github.com/deepspeedai/DeepSpeedExamples applications/DeepSpeed-Chat/training/step3_rlhf_finetuning/"
          "training_log_output/actor_opt-1.3b_critic_opt-350m_globalBatchSize64.log (0eaa7961, 2023-04-18); "
          "step2_reward_model_finetuning/training_log_output/opt-350m_globalBatchSize-64.log and "
          "step1_supervised_finetuning/training_log_output/opt-1.3b-globalBatchSize128.log (same commit and day)")
#: the folder of facebook/opt-1.3b's config.json (copied from the Hugging Face model page: dropout 0.1, ReLU, tied
#: embeddings, ``do_layer_norm_before`` true)
MODELS = ROOT / "bench" / "data" / "postoos13"
OPT_1_3B = {"hf_config": "opt-1.3b/config.json"}
#: facebook/opt-350m as explicit fields: its config.json holds ``word_embed_proj_dim`` 512 (``project_in`` /
#: ``project_out``, 1 M parameters), which the planner's config reader refuses; the explicit fields drop the two
#: projections and the model's dropout (0.1, not an explicit field); post-LN (``do_layer_norm_before`` false) has
#: the same kernels
OPT_350M = {"name": "OPT-350m", "hidden_size": 1024, "num_hidden_layers": 24, "num_attention_heads": 16,
            "intermediate_size": 4096, "gated_mlp": False, "vocab_size": 50272, "tie_word_embeddings": True,
            "attention_bias": True, "attention_out_bias": True, "mlp_bias": True, "norm_type": "layernorm",
            "position_embedding": "learned", "max_position_embeddings": 2050, "hidden_act": "relu"}
V100_16 = {"gpu": "v100-sxm-32gb", "num_gpus": 16}


def dschat_step3(hybrid: bool | None = True) -> dict:
    """The step-3 log's run as a user enters it (``hybrid``: ``training.rl.hybrid_engine``; None leaves the field
    out, as before round 13)."""
    rl = {"group_size": 1, "rollout_len": 256, "prompt_len": 256, "prompt_pad_len": 256,
          "generation_engine": "training", "reward": "model", "mean_response_fraction": 1.0,
          "updates_per_generation": 1}
    if hybrid is not None:
        rl["hybrid_engine"] = hybrid
    return {"model": dict(OPT_1_3B),
            "training": {"objective": "ppo", "method": "full", "framework": "deepspeed", "precision": "fp16",
                         "flash_attention": False,
                         "seq_len": 512, "micro_batch_size": 4, "global_batch_size": 64, "recompute": "none",
                         "preference": {"beta": 0.1, "reference": "separate"}, "rl": rl},
            "parallel": {"zero": 2}, "hardware": dict(V100_16)}


def dschat_step2() -> dict:
    """Step 2 (reward model): OPT-350m, 4 pairs a GPU (chosen and rejected in one batch of 8 rows,
    ``DataCollatorReward``), every row padded to ``max_seq_len`` 512 (``create_dataset``: ``padding="max_length"``),
    ZeRO-0, fp16, no recomputation."""
    return {"model": dict(OPT_350M),
            "training": {"objective": "reward", "method": "full", "framework": "deepspeed", "precision": "fp16",
                         "flash_attention": False,
                         "seq_len": 512, "micro_batch_size": 4, "global_batch_size": 64, "recompute": "none"},
            "parallel": {"zero": 0}, "hardware": dict(V100_16)}


def dschat_step1() -> dict:
    """Step 1 (SFT, the control on the same cluster): OPT-1.3b, 8 rows of 512 a GPU (padded to ``max_seq_len``),
    ZeRO-2, fp16, no recomputation."""
    return {"model": dict(OPT_1_3B),
            "training": {"objective": "sft", "method": "full", "framework": "deepspeed", "precision": "fp16",
                         "flash_attention": False,
                         "seq_len": 512, "micro_batch_size": 8, "global_batch_size": 128, "recompute": "none"},
            "parallel": {"zero": 2}, "hardware": dict(V100_16)}


#: (id, scenario, published seconds/GiB, note). Step 3: ``gen`` the hybrid engine's "Generate time", ``rest``
#: training + others (the experience forwards and the PPO updates), ``step`` the E2E latency. Steps 1-2: ``step`` =
#: the global batch / DeepSpeed's ``CurrSamplesPerSec`` (``ThroughputTimer(batch_size=train_batch_size())``, from
#: the forward's start to ``step()``'s end; medians over the logged steps after the first two): 64 / 218.5 and
#: 128 / 171.6. ``mem``: ``MaxMemAllocated`` (GiB).
ROWS = [
    ("dschat step3 opt-1.3b/350m ppo 16x v100 (hybrid engine)", dschat_step3(True),
     {"step": 3.80, "gen": 2.52, "rest": 1.06 + 0.22, "mem": 20.55},
     "critic and reward OPT-350m entered as the actor's size (the planner's PPO); EMA copy not modelled"),
    ("dschat step2 opt-350m reward 16x v100", dschat_step2(), {"step": 64 / 218.5, "mem": 12.81},
     "OPT-350m's dropout and 1024→512 projections not enterable"),
    ("dschat step1 opt-1.3b sft 16x v100 (control)", dschat_step1(), {"step": 128 / 171.6, "mem": 22.95},
     "SFT on the same cluster: a control for the V100 training side"),
]
POST = ("step3", "step2")  # the post-training rows (step 1 is the control)

#: The model at the base of round 13 (a8283e44), the same rows, before any change (``--record`` run there with
#: the ``hybrid_engine`` key left out; the field did not exist).
BEFORE = {
    "dschat step3 opt-1.3b/350m ppo 16x v100 (hybrid engine)": {"step": 7.5888, "gen": 6.3717, "rest": 1.2171,
                                                               "mem": 21.7199},
    "dschat step2 opt-350m reward 16x v100": {"step": 0.2434, "gen": 0.0, "rest": 0.2434, "mem": 12.8197},
    "dschat step1 opt-1.3b sft 16x v100 (control)": {"step": 0.7317, "gen": 0.0, "rest": 0.7317, "mem": 23.6705},
}


def predict(scn: dict) -> dict:
    e = estimate(scenario_from_dict(scn), ModelFiles(MODELS))
    t = e.time
    k = scn["training"].get("rl", {}).get("updates_per_generation", 1) if scn["training"]["objective"] in (
        "ppo", "grpo") else 1
    gen = t.seconds.get("generation", 0.0) * k
    return {"step": t.step_time_s * k, "gen": gen, "rest": t.step_time_s * k - gen, "mem": e.memory.allocated}


def err(pub: float, pred: float) -> float:
    """The brief's error: published / predicted − 1."""
    return pub / pred - 1.0


def _p90(v: list[float]) -> float:
    v = sorted(v)
    return v[min(len(v) - 1, int(round(0.9 * (len(v) - 1))))]


def record() -> dict:
    """The model's figures for every row with ``hybrid_engine`` left out (run at the base commit: ``--record``)."""
    out = {}
    for rid, scn, _pub, _note in ROWS:
        if "rl" in scn["training"]:
            scn = dict(scn, training=dict(scn["training"], rl={k: x for k, x in scn["training"]["rl"].items()
                                                              if k != "hybrid_engine"}))
        out[rid] = {k: round(x, 4) for k, x in predict(scn).items()}
    return out


def table() -> list[dict]:
    out = []
    for rid, scn, pub, note in ROWS:
        now = predict(scn)
        out.append({"id": rid, "pub": pub, "before": BEFORE[rid], "now": now, "note": note,
                    "post": any(rid.startswith("dschat " + p) for p in POST),
                    "err_before": {k: err(pub[k], BEFORE[rid][k]) for k in pub},
                    "err_now": {k: err(pub[k], now[k]) for k in pub}})
    return out


def summary(rows: list[dict], key: str) -> tuple[int, float, float, float, float]:
    """(rows, median and p90 |error| before, the same now) over the rows that publish ``key``."""
    b = [abs(r["err_before"][key]) for r in rows if key in r["pub"]]
    n = [abs(r["err_now"][key]) for r in rows if key in r["pub"]]
    return len(n), statistics.median(b), _p90(b), statistics.median(n), _p90(n)


def main() -> int:
    if "--record" in sys.argv:
        print(json.dumps(record(), indent=1))
        return 0
    rows = table()
    print(f"Source: {SOURCE}\n")
    print("| row | key | published | predicted before | error before | predicted now | error now |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for r in rows:
        for k in r["pub"]:
            unit = " GiB" if k == "mem" else " s"
            print(f"| {r['id']} | {k} | {r['pub'][k]:.2f}{unit} | {r['before'][k]:.2f} | {r['err_before'][k]:+.1%} "
                  f"| {r['now'][k]:.2f} | {r['err_now'][k]:+.1%} |")
    print("\nerror = published / predicted − 1; per tool (DeepSpeed-Chat), |error| median / p90, before → now:")
    post = [r for r in rows if r["post"]]
    for label, sel in (("post-training (steps 2-3)", post), ("all with the SFT control", rows)):
        for k in ("step", "gen", "mem"):
            if not any(k in r["pub"] for r in sel):
                continue
            n, b50, b90, n50, n90 = summary(sel, k)
            print(f"- {label}, {k}: {n} row(s), {b50:.1%} / {b90:.1%} → {n50:.1%} / {n90:.1%}")
    for r in rows:
        print(f"- {r['id']}: {r['note']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

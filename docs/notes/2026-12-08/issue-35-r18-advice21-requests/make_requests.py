"""Writes advice21's ten requests (issue 35 round 18). Run from the repository root:
/work/main/.venv/bin/python docs/notes/2026-12-08/issue-35-r18-advice21-requests/make_requests.py OUTDIR
Projects (01-03), serving-only projects (04-07) and three vendor meetings (08-10: a scenario JSON and the sheets,
written next to it)."""
import json
import sys
from pathlib import Path
from gpuplanner.core.scenario import Scenario
from gpuplanner.core.project import Project
from gpuplanner.io import planfile

OUT = Path(sys.argv[1])
OUT.mkdir(parents=True, exist_ok=True)


def write(name, title, sc, phases):
    doc = planfile.new_document(Scenario.model_validate(sc), title=title, notes=title,
                                project=Project.model_validate(dict(phases=phases)))
    (OUT / name).write_bytes(planfile.dumps(doc))


def serve_only(name, title, preset, inference, max_gpus=16, weeks=13.0):
    write(name, title,
          dict(model={"preset": preset}, training=dict(method="lora", seq_len=2048, global_batch_size=32),
               data=dict(tokens="1M"), constraints=dict(deadline_days=2, currency="CNY", max_gpus=max_gpus),
               parallel=dict(auto=True)),
          [dict(name="serve", kind="inference", weeks=weeks, inference=inference)])


# 01: SFT then DPO then serving for 3 months, one ¥200,000 cap over the whole project
sft = dict(model={"preset": "qwen2.5-14b"},
           training=dict(method="full", objective="sft", seq_len=4096, global_batch_size=128),
           data=dict(tokens="1B"), constraints=dict(deadline_days=7, budget=200000, currency="CNY", max_gpus=32),
           parallel=dict(auto=True))
dpo = dict(model={"preset": "qwen2.5-14b"},
           training=dict(method="full", objective="dpo", seq_len=4096, global_batch_size=64),
           data=dict(tokens="150M"), constraints=dict(deadline_days=5, currency="CNY", max_gpus=32),
           parallel=dict(auto=True))
write("01-sft-dpo-serve-14b-200k-cap.gpuplan",
      "¥200,000 for everything: full SFT Qwen2.5-14B on 1B tokens, DPO on 150M, then serve 150 users for 13 weeks",
      sft,
      [dict(name="sft", kind="training"),
       dict(name="dpo", kind="training", scenario=dpo),
       dict(name="serve", kind="inference", weeks=13.0,
            inference=dict(concurrency=150, context_tokens=4096, output_tokens=512, tokens_per_s_per_user=20))])

# 02: a research lab: 40 h/week of LoRA experiments for 12 weeks plus one training burst a month (full SFT 7B)
lab = dict(model={"preset": "qwen2.5-7b"},
           training=dict(method="lora", seq_len=4096, global_batch_size=32),
           data=dict(tokens="2.5B"),
           constraints=dict(deadline_days=84, currency="CNY", max_gpus=8, phase="research", hours_per_week=40),
           parallel=dict(auto=True))
burst = dict(model={"preset": "qwen2.5-7b"},
             training=dict(method="full", seq_len=4096, global_batch_size=128),
             data=dict(tokens="1B"),
             constraints=dict(deadline_days=3, currency="CNY", max_gpus=16, phase="burst"),
             parallel=dict(auto=True))
write("02-lab-40h-week-experiments-plus-monthly-burst.gpuplan",
      "Research lab: LoRA experiments on Qwen2.5-7B 40 h a week for 12 weeks, and one full-SFT burst (1B tokens) a month",
      lab,
      [dict(name="experiments", kind="research", weeks=12.0, hours_per_week=40),
       dict(name="burst-1", kind="burst", scenario=burst, start_week=3.0),
       dict(name="burst-2", kind="burst", scenario=burst, start_week=7.0),
       dict(name="burst-3", kind="burst", scenario=burst, start_week=11.0)])

# 03: pretrain a 7B on 300B tokens in 6 weeks, then serve it continuously for a year: the rent-vs-build rule
pre = dict(model={"preset": "qwen2.5-7b"},
           training=dict(method="full", seq_len=4096, global_batch_size=512),
           data=dict(tokens="300B"),
           constraints=dict(deadline_days=42, currency="CNY", max_gpus=64, ownership=dict(horizon_months=14)),
           parallel=dict(auto=True))
write("03-pretrain-7b-then-serve-a-year.gpuplan",
      "Pretrain a 7B on 300B tokens within 6 weeks, then serve it around the clock for 52 weeks (400 users)",
      pre,
      [dict(name="pretrain", kind="training"),
       dict(name="serve", kind="inference", weeks=52.0,
            inference=dict(concurrency=400, context_tokens=4096, output_tokens=512, tokens_per_s_per_user=20))])

# 04: internal chat for 500 staff on Qwen2.5-32B; the team's target is p95 first token under 2 s (no field: read it)
serve_only("04-internal-chat-500-users-32b-p95-ttft.gpuplan",
           "Internal chat: 500 concurrent staff on Qwen2.5-32B, 20 tokens/s each, p95 first token under 2 s, a quarter",
           "qwen2.5-32b",
           dict(concurrency=500, context_tokens=4096, output_tokens=512, tokens_per_s_per_user=20))

# 05: score 50M documents (~600 prompt tokens, 16 output tokens) with an 8B over one weekend (60 h)
# 50e6 / (60 × 3,600) = 231.5 documents/s
serve_only("05-batch-score-50m-docs-weekend-8b.gpuplan",
           "Offline scoring: 50M documents (600 prompt tokens, 16 out) with Llama-3.1-8B over a 60-hour weekend",
           "llama-3.1-8b",
           dict(concurrency=1, context_tokens=1024, prompt_tokens=600, output_tokens=16, documents_per_s=231.5),
           max_gpus=64, weeks=60 / 168)

# 06: a RAG service: 32k-token prompts (retrieved chunks), 512-token answers, 40 concurrent users, Qwen2.5-14B
serve_only("06-rag-32k-prompts-14b-40-users.gpuplan",
           "Long-context RAG: 32k-token prompts, 512-token answers, 40 concurrent users on Qwen2.5-14B, a quarter",
           "qwen2.5-14b",
           dict(concurrency=40, context_tokens=33280, prompt_tokens=32768, output_tokens=512,
                tokens_per_s_per_user=20))

# 07: MoE Qwen3-30B-A3B on consumer cards only (RTX 4090 / 5090), 100 users at 30 tokens/s
serve_only("07-moe-30b-a3b-consumer-cards-100-users.gpuplan",
           "Qwen3-30B-A3B chat for 100 users at 30 tokens/s on consumer cards only (RTX 4090 / 5090), a quarter",
           "qwen3-30b-a3b",
           dict(concurrency=100, context_tokens=4096, output_tokens=512, tokens_per_s_per_user=30,
                gpu_candidates=["rtx-4090-24gb", "rtx-5090-32gb"]))


def scen(name, sc):
    (OUT / name).write_text(json.dumps(sc, indent=1) + "\n")


# 08: vendor meeting, A800: AutoDL card-hours vs 共绩 card-hours vs omniyq whole-server month, for a 14B full SFT
scen("08-meeting-a800-three-sheets-full-14b.json",
     dict(model={"preset": "qwen2.5-14b"},
          training=dict(method="full", seq_len=4096, global_batch_size=128),
          data=dict(tokens="3B"),
          constraints=dict(deadline_days=14, currency="CNY", max_gpus=16, gpu_candidates=["a800-sxm-80gb"]),
          parallel=dict(auto=True)))

# 09: vendor meeting, RTX 4090 research at 40 h/week for 8 weeks: card-hours, card-month package, 8-card pack, spot
scen("09-meeting-4090-research-40h-week.json",
     dict(model={"preset": "qwen2.5-7b"},
          training=dict(method="lora", seq_len=2048, global_batch_size=32),
          data=dict(tokens="2.4B"),
          constraints=dict(deadline_days=56, currency="CNY", max_gpus=8, phase="research", hours_per_week=40,
                           gpu_candidates=["rtx-4090-24gb"]),
          parallel=dict(auto=True)))

# 10: vendor meeting, H800: AutoDL card-hours vs omniyq server-month vs a weekly offer, full SFT of a 32B on 10B tokens
scen("10-meeting-h800-weekly-vs-month-cpt-32b.json",
     dict(model={"preset": "qwen2.5-32b"},
          training=dict(method="full", seq_len=4096, global_batch_size=256),
          data=dict(tokens="10B"),
          constraints=dict(deadline_days=30, currency="CNY", max_gpus=32, gpu_candidates=["h800-sxm-80gb"]),
          parallel=dict(auto=True)))

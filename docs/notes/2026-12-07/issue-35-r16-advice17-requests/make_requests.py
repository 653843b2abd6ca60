"""Writes advice17's four project requests (01, 02, 06, 10) as .gpuplan files; the six others are plain JSON.
Run from the repository root:
.venv/bin/python docs/notes/2026-12-07/issue-35-r16-advice17-requests/make_requests.py OUTDIR"""
import sys
from pathlib import Path
from gpuplanner.core.scenario import Scenario
from gpuplanner.core.project import Project
from gpuplanner.io import planfile

OUT = Path(sys.argv[1])


def write(name, title, sc, phases):
    doc = planfile.new_document(Scenario.model_validate(sc), title=title, notes=title,
                                project=Project.model_validate(dict(phases=phases)))
    (OUT / name).write_bytes(planfile.dumps(doc))


# 01: a chat product on Qwen3-30B-A3B (MoE, 3B active): 400 concurrent users, 30 tokens/s each, 8k context, 26 weeks
write("01-serve-qwen3-30b-a3b-chat.gpuplan",
      "Chat product on Qwen3-30B-A3B: 400 concurrent users at 30 tokens/s each, 8k context, half a year",
      dict(model={"preset": "qwen3-30b-a3b"}, training=dict(method="lora", seq_len=4096, global_batch_size=32),
           data=dict(tokens="20M"), constraints=dict(deadline_days=3, currency="CNY", max_gpus=8),
           parallel=dict(auto=True)),
      [dict(name="fine-tune", kind="training"),
       dict(name="chat", kind="inference", weeks=26.0,
            inference=dict(concurrency=400, context_tokens=8192, output_tokens=768, precision="bf16",
                           tokens_per_s_per_user=30))])

# 02: four phases on one budget: data prep (CPU), full SFT 8B, full DPO 8B, serving 100 users for 8 weeks
sft = dict(model={"preset": "llama-3.1-8b"},
           training=dict(method="full", objective="sft", seq_len=8192, global_batch_size=128),
           data=dict(tokens="2B"), constraints=dict(deadline_days=5, budget=80000, currency="CNY", max_gpus=16),
           parallel=dict(auto=True))
dpo = dict(model={"preset": "llama-3.1-8b"},
           training=dict(method="full", objective="dpo", seq_len=4096, global_batch_size=64),
           data=dict(tokens="200M"), constraints=dict(deadline_days=3, currency="CNY", max_gpus=16),
           parallel=dict(auto=True))
write("02-four-phase-sft-dpo-serve-8b.gpuplan",
      "One budget (¥80,000): clean and tokenise 500 GB, full SFT Llama-3.1-8B on 2B tokens, DPO on 200M, serve 100 users 8 weeks",
      sft,
      [dict(name="data prep", kind="cpu_preprocessing", cpu=dict(data_gb=500)),
       dict(name="sft", kind="training"),
       dict(name="dpo", kind="training", scenario=dpo),
       dict(name="serve", kind="inference", weeks=8.0,
            inference=dict(concurrency=100, context_tokens=4096, output_tokens=512, tokens_per_s_per_user=20))])

# 06: offline scoring of 50M documents with Qwen2.5-72B (1k-token prompt, 8 output tokens), in 3 weeks. The
# serving model takes users × tokens/s, not documents: 50M / (21 × 86,400 s) = 27.6 documents/s = 220 output
# tokens/s, so 112 streams at 2 tokens/s (224 tokens/s; each stream scores a document every 4 s, prefill included).
# A first mapping, 512 streams (out-before-2e464189/06-first-mapping-512-users.*), sized for 128 documents/s, 4.6 ×
# the need: the user's figure, not the tool's.
write("06-offline-scoring-72b-50m-docs.gpuplan",
      "Batch scoring: 50M documents (about 1,000 prompt tokens, 8 output tokens) with Qwen2.5-72B in 3 weeks",
      dict(model={"preset": "qwen2.5-72b"}, training=dict(method="lora", seq_len=4096, global_batch_size=32),
           data=dict(tokens="1M"), constraints=dict(deadline_days=2, currency="CNY", max_gpus=8),
           parallel=dict(auto=True)),
      [dict(name="score", kind="inference", weeks=3.0,
            inference=dict(concurrency=112, context_tokens=1032, output_tokens=8, prompt_tokens=1024,
                           precision="fp8", tokens_per_s_per_user=2))])

# 10: an eval sweep over a weekend: 40 checkpoints of an 8B model, 64 parallel eval streams at 40 tokens/s each
write("10-eval-sweep-weekend-8b.gpuplan",
      "Weekend eval sweep: 40 Llama-3.1-8B checkpoints, 64 parallel eval streams at 40 tokens/s, 2k context, 2.5 days",
      dict(model={"preset": "llama-3.1-8b"}, training=dict(method="lora", seq_len=2048, global_batch_size=32),
           data=dict(tokens="1M"), constraints=dict(deadline_days=1, currency="CNY", max_gpus=8),
           parallel=dict(auto=True)),
      [dict(name="eval", kind="inference", weeks=2.5 / 7,
            inference=dict(concurrency=64, context_tokens=2048, output_tokens=512, tokens_per_s_per_user=40))])

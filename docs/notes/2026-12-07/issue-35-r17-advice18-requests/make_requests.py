"""Writes advice18's two project requests (06, 09) as .gpuplan files; the eight others are plain JSON.
Run from the repository root:
.venv/bin/python docs/notes/2026-12-07/issue-35-r17-advice18-requests/make_requests.py OUTDIR"""
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


OWN_4090 = {"card_hour": 0.4, "machine_gpus": 4, "multi_node": False,
            "provider": "our own 4 x 4090 workstation: electricity 450 W x 0.8 CNY/kWh + PUE", "date": "2026-12-01"}

# 06: hybrid: LoRA experiments on the team's own 4 x 4090 (research, 30 h/week, 3 weeks), then full SFT of
# Qwen2.5-14B on rented H20 (1B tokens, one week)
research = dict(model={"preset": "qwen2.5-14b"},
                training=dict(method="lora", objective="sft", seq_len=4096, micro_batch_size=1, global_batch_size=32),
                data=dict(tokens="60M"),
                constraints=dict(deadline_days=21, currency="CNY", max_gpus=4, phase="research", hours_per_week=30,
                                 gpu_candidates=["rtx-4090-24gb"], prices={"rtx-4090-24gb": OWN_4090}),
                parallel=dict(auto=True))
full = dict(model={"preset": "qwen2.5-14b"},
            training=dict(method="full", objective="sft", seq_len=4096, micro_batch_size=1, global_batch_size=256),
            data=dict(tokens="1B"),
            constraints=dict(deadline_days=7, currency="CNY", max_gpus=16, gpu_candidates=["h20-96gb"]),
            parallel=dict(auto=True))
write("06-hybrid-owned-4090-then-rented-h20.gpuplan",
      "LoRA experiments on our own 4 x 4090 (30 h a week, 3 weeks), then full SFT of Qwen2.5-14B on rented H20",
      full,
      [dict(name="experiments (own 4090)", kind="research", scenario=research, weeks=3.0, hours_per_week=30),
       dict(name="full SFT (rented H20)", kind="training")])

# 09: one 16-card cluster shared: serve Qwen2.5-7B to 60 users around the clock for 8 weeks, and fine-tune
# (full SFT of Qwen2.5-7B on 500M tokens) at the same time, within 16 cards
serve_train = dict(model={"preset": "qwen2.5-7b"},
                   training=dict(method="full", objective="sft", seq_len=4096, micro_batch_size=1,
                                 global_batch_size=128),
                   data=dict(tokens="500M"),
                   constraints=dict(deadline_days=5, currency="CNY", max_gpus=8, rental_mode="month"),
                   parallel=dict(auto=True))
write("09-serve-and-train-one-cluster.gpuplan",
      "One 16-card cluster by the month: serve Qwen2.5-7B to 60 users for 8 weeks and full-SFT the next version",
      serve_train,
      [dict(name="fine-tune", kind="training", start_week=0.0),
       dict(name="serve", kind="inference", start_week=0.0, weeks=8.0, rental_mode="month",
            inference=dict(concurrency=60, context_tokens=4096, output_tokens=512, tokens_per_s_per_user=25))])

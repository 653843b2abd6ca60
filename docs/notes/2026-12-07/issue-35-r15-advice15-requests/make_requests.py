"""Writes advice15's project request (10: LoRA fine-tune, then serve) as a .gpuplan; the nine others are plain JSON.
Run from the repository root: .venv/bin/python docs/notes/2026-12-07/issue-35-r15-advice15-requests/make_requests.py OUTDIR"""
import sys
from pathlib import Path
from gpuplanner.core.scenario import Scenario
from gpuplanner.core.project import Project
from gpuplanner.io import planfile

OUT = Path(sys.argv[1])
TITLE = "LoRA Qwen2.5-14B on 300M tokens in a week, then serve it to 80 users at 25 tokens/s for 8 weeks"
sc = dict(model={"preset": "qwen2.5-14b"},
          training=dict(method="lora", seq_len=4096, micro_batch_size=1, global_batch_size=32),
          data=dict(tokens="300M"), constraints=dict(deadline_days=7, currency="CNY", max_gpus=8),
          parallel=dict(auto=True))  # the search's #1 (app.answer.decide), as the app writes a searched plan
inf = dict(concurrency=80, context_tokens=4096, output_tokens=512, precision="bf16", tokens_per_s_per_user=25)
proj = Project.model_validate(dict(phases=[
    dict(name="fine-tune", kind="training"),  # no scenario of its own: it runs the document's plan (docs/project.md)
    dict(name="serving", kind="inference", weeks=8.0, inference=inf)]))
doc = planfile.new_document(Scenario.model_validate(sc), title=TITLE, notes=TITLE, project=proj)
(OUT / "10-lora-14b-then-serve-80-users.gpuplan").write_bytes(planfile.dumps(doc))

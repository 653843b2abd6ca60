"""Writes advice16's serving request (05: serve Qwen2.5-32B to 200 users at 20 tokens/s each, 12 weeks) as a .gpuplan;
the nine others are plain JSON. Run from the repository root:
.venv/bin/python docs/notes/2026-12-07/issue-35-r16-advice16-requests/make_requests.py OUTDIR"""
import sys
from pathlib import Path
from gpuplanner.core.scenario import Scenario
from gpuplanner.core.project import Project
from gpuplanner.io import planfile

OUT = Path(sys.argv[1])
TITLE = "Serve Qwen2.5-32B to 200 concurrent users at 20 tokens/s each for 12 weeks, after a small LoRA"
sc = dict(model={"preset": "qwen2.5-32b"},
          training=dict(method="lora", seq_len=4096, micro_batch_size=1, global_batch_size=32),
          data=dict(tokens="50M"), constraints=dict(deadline_days=5, currency="CNY", max_gpus=8),
          parallel=dict(auto=True))
inf = dict(concurrency=200, context_tokens=4096, output_tokens=512, precision="bf16", tokens_per_s_per_user=20)
proj = Project.model_validate(dict(phases=[
    dict(name="fine-tune", kind="training"),
    dict(name="serving", kind="inference", weeks=12.0, inference=inf)]))
doc = planfile.new_document(Scenario.model_validate(sc), title=TITLE, notes=TITLE, project=proj)
(OUT / "05-serve-32b-200-users.gpuplan").write_bytes(planfile.dumps(doc))

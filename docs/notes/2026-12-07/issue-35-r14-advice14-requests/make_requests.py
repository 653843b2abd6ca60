"""Writes advice14's serving request (03) as a .gpuplan project; the nine training requests are plain JSON.
Run: .venv/bin/python docs/notes/2026-12-07/issue-35-r14-advice14-requests/make_requests.py OUTDIR"""
import sys
from pathlib import Path
from gpuplanner.core.scenario import Scenario
from gpuplanner.core.project import Project
from gpuplanner.io import planfile

OUT = Path(sys.argv[1])
TITLE = "Serve Llama-3.1-70B to 200 users at 20 tokens/s each, in mainland China, no H100/H200, 12 weeks"
sc = dict(model={"preset": "llama-3.1-70b"}, training=dict(method="lora", seq_len=4096),
          data=dict(tokens="50M"), constraints=dict(currency="CNY", region="mainland_china"))
inf = dict(concurrency=200, context_tokens=8192, output_tokens=1024, precision="bf16", tokens_per_s_per_user=20,
           gpu_candidates=["h20-96gb", "h800-sxm-80gb", "a800-sxm-80gb", "l20-48gb", "l40s-48gb", "rtx-4090-24gb"])
proj = Project.model_validate(dict(phases=[dict(name="serving", kind="inference", weeks=12.0, inference=inf)]))
doc = planfile.new_document(Scenario.model_validate(sc), title=TITLE, notes=TITLE, project=proj)
(OUT / "03-serve-70b-200-users-china-no-h100.gpuplan").write_bytes(planfile.dumps(doc))

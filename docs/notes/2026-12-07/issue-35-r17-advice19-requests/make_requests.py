"""Writes advice19's project request (08: serving a 7B to 1,000 users) as a .gpuplan file; the nine others are
plain JSON. Run from the repository root:
.venv/bin/python docs/notes/2026-12-07/issue-35-r17-advice19-requests/make_requests.py OUTDIR"""
import sys
from pathlib import Path
from gpuplanner.core.scenario import Scenario
from gpuplanner.core.project import Project
from gpuplanner.io import planfile

OUT = Path(sys.argv[1])
# 08: a chat product: serve Qwen2.5-7B to 1,000 concurrent users for 4 weeks (prompts ~1.5k, answers ~300 tokens,
# 20 tokens/s each; the team's target is a 200 ms first token, which the tool has no field for)
base = dict(model={"preset": "qwen2.5-7b"},
            training=dict(method="lora", objective="sft", seq_len=2048, micro_batch_size=1, global_batch_size=32),
            data=dict(tokens="10M"), constraints=dict(currency="CNY", deadline_days=7))
doc = planfile.new_document(
    Scenario.model_validate(base), title="Serve Qwen2.5-7B to 1,000 users, 200 ms first token",
    notes="Serve Qwen2.5-7B to 1,000 concurrent users for 4 weeks; target: first token within 200 ms",
    project=Project.model_validate(dict(phases=[dict(
        name="serve", kind="inference", weeks=4.0,
        inference=dict(concurrency=1000, context_tokens=1800, prompt_tokens=1500, output_tokens=300,
                       tokens_per_s_per_user=20))])))
(OUT / "08-serve-7b-1000-users-200ms-ttft.gpuplan").write_bytes(planfile.dumps(doc))

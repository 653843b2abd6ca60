"""Prints what the Mixtral example's #1 (8 × L40S, CPU optimizer offload) rents and checks: the printed plan's
requirements for the vendor, its vendor checklist ids, and kit-import's host RAM finding for a 1 TB and a 2 TB
server. Run from the repository root: PYTHONPATH=. python docs/notes/2026-12-08/issue-35-r18-advice20-requests/mixtral_l40s_views.py"""
import json
import tempfile
from pathlib import Path

from gpuplanner.app.answer import answer
from gpuplanner.report.content import build_report_data
from gpuplanner.report.render import tr_text
from gpuplanner.verify import acceptance as acc

ev = answer("examples/mixtral-8x7b-ep8-16xa800.json").plans[0].evaluation
d = ev.scenario.model_dump(mode="json", exclude_none=True)
d["parallel"]["auto"] = False
path = Path(tempfile.mkdtemp()) / "mixtral-l40s.json"
path.write_text(json.dumps(d), encoding="utf-8")
data = build_report_data(answer(str(path)))
r = data.requirements
print(f"#1: {ev.num_gpus} x {ev.scenario.hardware.gpu}, host RAM per server {ev.host_ram.total:,.0f} GiB")
print("Requirements for the vendor:")
for t in (r.intra_node, r.inter_node, r.host_ram, *r.storage):
    if t is not None:
        print("  -", tr_text(t))
print("Vendor checklist ids:", ", ".join(c.id for c in data.checklist))
for have in (1007.5, 2015.0):
    a = acc.analyse(acc.kit_result_from_dict({"schema": "gpuplanner-kit/1", "mode": "cuda", "host_ram_gib": have}),
                    ev.scenario)
    print(f"kit-import, host_ram_gib {have}:", [(f.severity, str(f.text)) for f in a.findings])

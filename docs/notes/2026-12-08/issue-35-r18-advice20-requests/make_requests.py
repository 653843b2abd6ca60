"""Writes advice20's three project requests (04, 08, 10) as .gpuplan files; the seven others are plain JSON.
Run from the repository root:
/work/main/.venv/bin/python docs/notes/2026-12-08/issue-35-r18-advice20-requests/make_requests.py OUTDIR"""
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


# 04: serve Qwen2.5-72B to 200 internal users on H20 (the only card the company may buy or rent), 12 weeks
base72 = dict(model={"preset": "qwen2.5-72b"},
              training=dict(method="lora", objective="sft", seq_len=4096, micro_batch_size=1, global_batch_size=32),
              data=dict(tokens="10M"), constraints=dict(currency="CNY", deadline_days=7, gpu_candidates=["h20-96gb"]))
write("04-serve-qwen2.5-72b-200-users-h20.gpuplan",
      "Serve Qwen2.5-72B to 200 internal users on H20 for 12 weeks", base72,
      [dict(name="serve (H20)", kind="inference", weeks=12.0,
            inference=dict(concurrency=200, context_tokens=6144, prompt_tokens=5120, output_tokens=1024,
                           tokens_per_s_per_user=15, gpu_candidates=["h20-96gb"]))])

# 08: a university lab: 4 owned RTX 3090 (24 GB, PCIe; GA102 whitepaper: 71 dense BF16 TFLOPS with FP32
# accumulate, 936 GB/s, 350 W) for LoRA experiments, then full SFT of Qwen2.5-7B on rented cards
RTX3090 = dict(id="custom-rtx3090", name="RTX 3090 24GB (lab-owned)", memory_gib=24, bf16_tflops=71,
               mem_bw_tbs=0.936, tdp_w=350, intra_node_link="pcie", gpus_per_node=4, architecture="ampere")
OWN_3090 = {"card_hour": 0.35, "machine_gpus": 4, "multi_node": False,
            "provider": "lab's own 4 x 3090 server: electricity 1.6 kW x 0.6 CNY/kWh, amortised", "date": "2026-12-01"}
lab = dict(model={"preset": "qwen2.5-7b"},
           hardware=dict(gpu="custom-rtx3090", num_gpus=4, gpus_per_node=4, custom_gpus=[RTX3090]),
           training=dict(method="lora", objective="sft", seq_len=2048, micro_batch_size=1, global_batch_size=32),
           data=dict(tokens="40M"),
           constraints=dict(deadline_days=28, currency="CNY", max_gpus=4, phase="research", hours_per_week=40,
                            gpu_candidates=["custom-rtx3090"], prices={"custom-rtx3090": OWN_3090}),
           parallel=dict(auto=True))
full7 = dict(model={"preset": "qwen2.5-7b"},
             training=dict(method="full", objective="sft", seq_len=4096, micro_batch_size=1, global_batch_size=128),
             data=dict(tokens="2B"), constraints=dict(deadline_days=7, budget=8000, currency="CNY", max_gpus=16),
             parallel=dict(auto=True))
write("08-lab-owned-3090s-plus-rented.gpuplan",
      "University lab: LoRA experiments on our own 4 x RTX 3090, then full SFT of Qwen2.5-7B on rented cards",
      full7,
      [dict(name="experiments (own 3090)", kind="research", scenario=lab, weeks=4.0, hours_per_week=40),
       dict(name="full SFT (rented)", kind="training")])

# 10: product launch weekend: serve a fine-tuned Qwen2.5-14B to 2,000 concurrent users for 3 days (burst)
base14 = dict(model={"preset": "qwen2.5-14b"},
              training=dict(method="lora", objective="sft", seq_len=4096, micro_batch_size=1, global_batch_size=32),
              data=dict(tokens="10M"), constraints=dict(currency="CNY", deadline_days=7, phase="burst"))
write("10-launch-weekend-burst-serve-14b.gpuplan",
      "Launch weekend: serve Qwen2.5-14B to 2,000 concurrent users for 3 days", base14,
      [dict(name="launch serving", kind="inference", weeks=3 / 7,
            inference=dict(concurrency=2000, context_tokens=3072, prompt_tokens=2560, output_tokens=512,
                           tokens_per_s_per_user=20))])

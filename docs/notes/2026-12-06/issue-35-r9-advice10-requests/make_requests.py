"""Writes the advice10 request set (round 9) as .gpuplan files; serving requests as projects."""
import sys
from pathlib import Path
from gpuplanner.core.scenario import Scenario
from gpuplanner.core.project import Project
from gpuplanner.io import planfile

OUT = Path(sys.argv[1])
C = lambda **k: dict(currency="CNY", **k)
T = lambda **k: dict(k)
R = {}
def req(num, slug, title, model, training, data, constraints):
    R[f"{num}-{slug}"] = (title, dict(model={"preset": model}, training=training, data=data, constraints=constraints))
def srv(num, slug, title, model, inf, weeks, constraints=None):
    R[f"{num}-{slug}"] = (title, dict(model={"preset": model}, training=dict(method="lora", seq_len=4096),
                                       data=dict(tokens="100M"), constraints=C(**(constraints or {}))), inf, weeks)
GRPO = lambda pl, rl, **k: dict(group_size=8, prompt_len=pl, rollout_len=rl, generation_engine="vllm_colocated", **k)
LORA8B = T(method="lora", seq_len=2048, micro_batch_size=2, global_batch_size=32)
req(120, "lora-8b-4090", "LoRA Llama-3.1-8B, 200M tokens, 4 days, on 4090", "llama-3.1-8b", LORA8B,
    dict(tokens="200M"), C(deadline_days=4, max_gpus=8, gpu_candidates=["rtx-4090-24gb"]))
req(121, "lora-8b-l40s", "LoRA Llama-3.1-8B, 200M tokens, 4 days, on L40S", "llama-3.1-8b", LORA8B,
    dict(tokens="200M"), C(deadline_days=4, max_gpus=8, gpu_candidates=["l40s-48gb"]))
req(122, "lora-8b-a800", "LoRA Llama-3.1-8B, 200M tokens, 4 days, on A800", "llama-3.1-8b", LORA8B,
    dict(tokens="200M"), C(deadline_days=4, max_gpus=8, gpu_candidates=["a800-sxm-80gb"]))
req(123, "lora-7b-4090-l40s-a800", "LoRA Qwen2.5-7B, 200M tokens, 4 days, 4090 or L40S or A800", "qwen2.5-7b", LORA8B,
    dict(tokens="200M"), C(deadline_days=4, max_gpus=8, gpu_candidates=["rtx-4090-24gb", "l40s-48gb", "a800-sxm-80gb"]))
req(124, "qlora-70b-any", "QLoRA Llama-3.1-70B, 50M tokens, 5 days, any card", "llama-3.1-70b",
    T(method="qlora", seq_len=2048, micro_batch_size=1, global_batch_size=32), dict(tokens="50M"),
    C(deadline_days=5, max_gpus=8))
req(125, "full-14b-any", "Full SFT Qwen2.5-14B, 500M tokens, 5 days", "qwen2.5-14b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=128), dict(tokens="500M"),
    C(deadline_days=5, max_gpus=16))
req(126, "full-32b-a800", "Full SFT Qwen2.5-32B on A800, 500M tokens, 7 days", "qwen2.5-32b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=128), dict(tokens="500M"),
    C(deadline_days=7, max_gpus=16, gpu_candidates=["a800-sxm-80gb"]))
req(127, "cpt-7b-20b-2weeks", "CPT Qwen2.5-7B on 20B tokens in 2 weeks", "qwen2.5-7b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=512), dict(tokens="20B"),
    C(deadline_days=14, max_gpus=32))
req(128, "grpo-qwen2.5-7b", "GRPO Qwen2.5-7B full, vLLM colocated, 20M tokens, 3 days", "qwen2.5-7b",
    T(method="full", objective="grpo", seq_len=2048, micro_batch_size=1, global_batch_size=128, rl=GRPO(512, 1536)),
    dict(tokens="20M"), C(deadline_days=3, max_gpus=8))
req(129, "dpo-8b-full", "Full DPO Llama-3.1-8B, 100M tokens, 3 days", "llama-3.1-8b",
    T(method="full", objective="dpo", seq_len=2048, micro_batch_size=1, global_batch_size=64), dict(tokens="100M"),
    C(deadline_days=3, max_gpus=8))
req(130, "moe-30b-a3b-lora", "LoRA Qwen3-30B-A3B, 200M tokens, 5 days", "qwen3-30b-a3b",
    T(method="lora", seq_len=4096, micro_batch_size=1, global_batch_size=64), dict(tokens="200M"),
    C(deadline_days=5, max_gpus=8))
req(131, "mixtral-lora", "LoRA Mixtral-8x7B, 100M tokens, 5 days", "mixtral-8x7b",
    T(method="lora", seq_len=4096, micro_batch_size=1, global_batch_size=64), dict(tokens="100M"),
    C(deadline_days=5, max_gpus=16))
req(132, "research-40h-lora-8b", "Research 40 h/week: LoRA Llama-3.1-8B, 300M tokens, 4 weeks", "llama-3.1-8b",
    LORA8B, dict(tokens="300M"), C(deadline_days=28, max_gpus=8, phase="research", hours_per_week=40))
req(133, "research-60h-full-7b", "Research 60 h/week: full SFT Qwen2.5-7B, 3B tokens, 4 weeks", "qwen2.5-7b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=128), dict(tokens="3B"),
    C(deadline_days=28, max_gpus=8, phase="research", hours_per_week=60))
req(134, "burst-lora-8b-6h-fastest", "Burst: LoRA Llama-3.1-8B, 100M tokens, within 6 hours, fastest", "llama-3.1-8b",
    LORA8B, dict(tokens="100M"), C(deadline_days=0.25, max_gpus=16, phase="burst", objective="fastest"))
req(135, "cpt-14b-month-cap-20k", "CPT Qwen2.5-14B on 20B tokens, 30 days, at most 20,000 CNY", "qwen2.5-14b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=512), dict(tokens="20B"),
    C(deadline_days=30, budget=20000, max_gpus=32))
req(136, "full-32b-h20-h800-a800", "Full SFT Qwen2.5-32B, 1B tokens, 7 days, H20 or H800 or A800", "qwen2.5-32b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=128), dict(tokens="1B"),
    C(deadline_days=7, max_gpus=16, gpu_candidates=["h20-96gb", "h800-sxm-80gb", "a800-sxm-80gb"]))
req(137, "lora-72b-h20-h800-a800", "LoRA Qwen2.5-72B, 100M tokens, 5 days, H20 or H800 or A800", "qwen2.5-72b",
    T(method="lora", seq_len=4096, micro_batch_size=1, global_batch_size=64), dict(tokens="100M"),
    C(deadline_days=5, max_gpus=8, gpu_candidates=["h20-96gb", "h800-sxm-80gb", "a800-sxm-80gb"]))
req(138, "full-8b-fastest-budget", "Full SFT Llama-3.1-8B, 1B tokens, fastest within 3,000 CNY", "llama-3.1-8b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=128), dict(tokens="1B"),
    C(budget=3000, max_gpus=32, objective="fastest"))
req(139, "value-lora-14b", "LoRA Qwen2.5-14B, 500M tokens, 7 days, best value", "qwen2.5-14b",
    T(method="lora", seq_len=4096, micro_batch_size=1, global_batch_size=64), dict(tokens="500M"),
    C(deadline_days=7, max_gpus=8, objective="value"))
srv(140, "serve-70b-50-users", "Serve Llama-3.1-70B bf16 to 50 users at 20 tokens/s, 8 weeks", "llama-3.1-70b",
    dict(concurrency=50, context_tokens=4096, output_tokens=512, precision="bf16", tokens_per_s_per_user=20), 8)
srv(141, "serve-8b-4090", "Serve Llama-3.1-8B bf16 to 10 users on 4090s, 8 weeks", "llama-3.1-8b",
    dict(concurrency=10, context_tokens=4096, output_tokens=512, precision="bf16", tokens_per_s_per_user=20,
         gpu_candidates=["rtx-4090-24gb"]), 8)

for key, val in R.items():
    if len(val) == 2:
        title, sc = val
        doc = planfile.new_document(Scenario.model_validate(sc), title=title, notes=title)
    else:
        title, sc, inf, weeks = val
        proj = Project.model_validate(dict(phases=[
            dict(name="LoRA", kind="training", weeks=1.0),
            dict(name="serving", kind="inference", weeks=float(weeks), inference=inf)]))
        doc = planfile.new_document(Scenario.model_validate(sc), title=title, notes=title, project=proj)
    (OUT / f"{key}.gpuplan").write_bytes(planfile.dumps(doc))
print(len(R))

"""Writes the advice8 request set as .gpuplan files (one scenario each; serving requests as projects)."""
import sys
from pathlib import Path
from gpuplanner.core.scenario import Scenario
from gpuplanner.core.project import Project
from gpuplanner.io import planfile

OUT = Path(sys.argv[1])
C = lambda **k: dict(currency="CNY", **k)
T = lambda **k: dict(k)
R = {}
def req(num, slug, title, model, training, data, constraints, hardware=None, parallel=None):
    R[f"{num}-{slug}"] = (title, dict(model={"preset": model}, training=training, data=data,
                                       constraints=constraints, **({"hardware": hardware} if hardware else {}),
                                       **({"parallel": parallel} if parallel else {})))
def srv(num, slug, title, model, inf, weeks, constraints=None):
    R[f"{num}-{slug}"] = (title, dict(model={"preset": model}, training=dict(method="lora", seq_len=4096),
                                       data=dict(tokens="100M"), constraints=C(**(constraints or {}))), inf, weeks)

GRPO = lambda pl, rl, **k: dict(group_size=8, prompt_len=pl, rollout_len=rl, generation_engine="vllm_colocated", **k)
req(74, "lora-7b-3days-500cny", "LoRA Qwen2.5-7B, 300M tokens, 3 days, at most 500 CNY", "qwen2.5-7b",
    T(method="lora", seq_len=4096, micro_batch_size=2, global_batch_size=64), dict(tokens="300M"),
    C(deadline_days=3, budget=500, max_gpus=8))
req(75, "qlora-32b-5090-only", "QLoRA Qwen2.5-32B on at most two RTX 5090, 100M tokens, 5 days", "qwen2.5-32b",
    T(method="qlora", seq_len=4096, micro_batch_size=1, global_batch_size=32, lora_rank=64), dict(tokens="100M"),
    C(deadline_days=5, max_gpus=2, gpu_candidates=["rtx-5090-32gb"]))
req(76, "lora-72b-h20-7days", "LoRA Qwen2.5-72B on H20, 200M tokens, 7 days", "qwen2.5-72b",
    T(method="lora", seq_len=4096, micro_batch_size=1, global_batch_size=64), dict(tokens="200M"),
    C(deadline_days=7, max_gpus=16, gpu_candidates=["h20-96gb"]))
req(77, "lora-70b-l20-8cards", "LoRA Llama-3.1-70B on up to 8 L20, 100M tokens, 10 days", "llama-3.1-70b",
    T(method="lora", seq_len=4096, micro_batch_size=1, global_batch_size=64), dict(tokens="100M"),
    C(deadline_days=10, max_gpus=8, gpu_candidates=["l20-48gb"]))
req(78, "full-14b-8xa800", "Full SFT Qwen2.5-14B on one 8 × A800 server, 1B tokens, 5 days", "qwen2.5-14b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=256), dict(tokens="1B"),
    C(deadline_days=5, max_gpus=8, gpu_candidates=["a800-sxm-80gb"]))
req(79, "full-32b-h200-8k", "Full SFT Qwen2.5-32B on H200, 8k, 2B tokens, 7 days", "qwen2.5-32b",
    T(method="full", seq_len=8192, micro_batch_size=1, global_batch_size=128), dict(tokens="2B"),
    C(deadline_days=7, max_gpus=16, gpu_candidates=["h200-sxm-141gb"]))
req(80, "full-72b-150k-budget", "Full SFT Qwen2.5-72B, 1B tokens, 10 days, at most 150,000 CNY", "qwen2.5-72b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=256), dict(tokens="1B"),
    C(deadline_days=10, budget=150000, max_gpus=64))
req(81, "cpt-1.5b-100b-8gpus", "CPT Qwen2.5-1.5B on 100B tokens, 8 GPUs, 3 weeks", "qwen2.5-1.5b",
    T(method="full", seq_len=4096, micro_batch_size=4, global_batch_size=1024), dict(tokens="100B"),
    C(deadline_days=21, max_gpus=8))
req(82, "cpt-14b-300b-64gpus", "CPT Qwen2.5-14B on 300B tokens, up to 64 GPUs, 30 days", "qwen2.5-14b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=1024), dict(tokens="300B"),
    C(deadline_days=30, max_gpus=64))
req(83, "cpt-8b-h20-32", "CPT Llama-3.1-8B on up to 32 H20, 100B tokens, 30 days", "llama-3.1-8b",
    T(method="full", seq_len=8192, micro_batch_size=1, global_batch_size=512), dict(tokens="100B"),
    C(deadline_days=30, max_gpus=32, gpu_candidates=["h20-96gb"]))
req(84, "cpt-7b-l20-16", "CPT Qwen2.5-7B on up to 16 L20, 20B tokens, 14 days", "qwen2.5-7b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=512), dict(tokens="20B"),
    C(deadline_days=14, max_gpus=16, gpu_candidates=["l20-48gb"]))
req(85, "dpo-7b-full-2days", "Full DPO Qwen2.5-7B, 50M tokens, 2 days", "qwen2.5-7b",
    T(method="full", objective="dpo", seq_len=2048, micro_batch_size=1, global_batch_size=64), dict(tokens="50M"),
    C(deadline_days=2, max_gpus=16))
req(86, "dpo-32b-lora-5k", "LoRA DPO Qwen2.5-32B, 100M tokens, 4 days, at most 5,000 CNY", "qwen2.5-32b",
    T(method="lora", objective="dpo", seq_len=4096, micro_batch_size=1, global_batch_size=64), dict(tokens="100M"),
    C(deadline_days=4, budget=5000, max_gpus=16))
req(87, "dpo-14b-full-h20", "Full DPO Qwen2.5-14B on H20 only, 100M tokens, 5 days", "qwen2.5-14b",
    T(method="full", objective="dpo", seq_len=4096, micro_batch_size=1, global_batch_size=128), dict(tokens="100M"),
    C(deadline_days=5, max_gpus=16, gpu_candidates=["h20-96gb"]))
req(88, "grpo-7b-full-vllm", "GRPO Qwen2.5-7B full, vLLM colocated, 50M tokens, 5 days", "qwen2.5-7b",
    T(method="full", objective="grpo", seq_len=2048, micro_batch_size=2, global_batch_size=256, rl=GRPO(512, 1536)),
    dict(tokens="50M"), C(deadline_days=5, max_gpus=16))
req(89, "grpo-32b-lora-vllm", "GRPO Qwen2.5-32B LoRA, vLLM colocated, 30M tokens, 7 days", "qwen2.5-32b",
    T(method="lora", objective="grpo", seq_len=4096, micro_batch_size=1, global_batch_size=128, rl=GRPO(1024, 3072)),
    dict(tokens="30M"), C(deadline_days=7, max_gpus=32))
req(90, "grpo-8b-lora-4090", "GRPO Qwen3-8B LoRA on 4090s, 10M tokens, 5 days", "qwen3-8b",
    T(method="lora", objective="grpo", seq_len=2048, micro_batch_size=1, global_batch_size=64, rl=GRPO(512, 1536)),
    dict(tokens="10M"), C(deadline_days=5, max_gpus=8, gpu_candidates=["rtx-4090-24gb"]))
req(91, "moe-30b-a3b-lora-3days", "LoRA Qwen3-30B-A3B, 300M tokens, 3 days", "qwen3-30b-a3b",
    T(method="lora", seq_len=4096, micro_batch_size=1, global_batch_size=64), dict(tokens="300M"),
    C(deadline_days=3, max_gpus=16))
req(92, "moe-dsv2lite-full-sft", "Full SFT DeepSeek-V2-Lite, 500M tokens, 5 days", "deepseek-v2-lite",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=128), dict(tokens="500M"),
    C(deadline_days=5, max_gpus=16))
req(93, "moe-30b-a3b-full-h20", "Full SFT Qwen3-30B-A3B on H20 only, 1B tokens, 7 days", "qwen3-30b-a3b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=256), dict(tokens="1B"),
    C(deadline_days=7, max_gpus=32, gpu_candidates=["h20-96gb"]))
req(94, "moe-dsv2lite-lora-4090", "LoRA DeepSeek-V2-Lite on 4090s, 100M tokens, 5 days", "deepseek-v2-lite",
    T(method="lora", seq_len=2048, micro_batch_size=1, global_batch_size=32), dict(tokens="100M"),
    C(deadline_days=5, max_gpus=8, gpu_candidates=["rtx-4090-24gb"]))
req(95, "research-40h-lora-14b", "Research team, 40 h/week: LoRA Qwen2.5-14B, 1B tokens over 6 weeks", "qwen2.5-14b",
    T(method="lora", seq_len=4096, micro_batch_size=2, global_batch_size=64), dict(tokens="1B"),
    C(deadline_days=42, max_gpus=8, phase="research", hours_per_week=40))
req(96, "research-40h-full-7b-a800", "Research team, 40 h/week: full SFT Qwen2.5-7B on A800, 2B tokens, 4 weeks", "qwen2.5-7b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=128), dict(tokens="2B"),
    C(deadline_days=28, max_gpus=8, phase="research", hours_per_week=40, gpu_candidates=["a800-sxm-80gb"]))
req(97, "burst-full-8b-12h", "Burst: full SFT Llama-3.1-8B, 500M tokens, within 12 hours, fastest", "llama-3.1-8b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=128), dict(tokens="500M"),
    C(deadline_days=0.5, max_gpus=64, phase="burst", objective="fastest"))
req(98, "month-cpt-7b-50b", "Month rental: CPT Qwen2.5-7B on 50B tokens, 30 days, by the month", "qwen2.5-7b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=512), dict(tokens="50B"),
    C(deadline_days=30, max_gpus=32, rental_mode="month"))
req(99, "cpt-14b-30k-month-cap", "CPT Qwen2.5-14B on 50B tokens, 30 days, at most 30,000 CNY", "qwen2.5-14b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=512), dict(tokens="50B"),
    C(deadline_days=30, budget=30000, max_gpus=64))
req(100, "usd-full-8b-h100", "Full SFT Llama-3.1-8B on H100, 2B tokens, 3 days, at most 2,000 USD", "llama-3.1-8b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=128), dict(tokens="2B"),
    dict(currency="USD", deadline_days=3, budget=2000, max_gpus=16, gpu_candidates=["h100-sxm-80gb"]))
req(101, "full-14b-32k", "Full SFT Qwen2.5-14B at 32k context, 500M tokens, 7 days", "qwen2.5-14b",
    T(method="full", seq_len=32768, micro_batch_size=1, global_batch_size=32), dict(tokens="500M"),
    C(deadline_days=7, max_gpus=32))
req(102, "vl-7b-full-5090", "Full SFT Qwen2-VL-7B on 5090s, 200M tokens, 7 days", "qwen2-vl-7b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=64), dict(tokens="200M", images_per_sample=2),
    C(deadline_days=7, max_gpus=8, gpu_candidates=["rtx-5090-32gb"]))
req(103, "lora-qwen3-8b-4090d", "LoRA Qwen3-8B on one RTX 4090D, 50M tokens, 3 days", "qwen3-8b",
    T(method="lora", seq_len=2048, micro_batch_size=1, global_batch_size=32), dict(tokens="50M"),
    C(deadline_days=3, max_gpus=1, gpu_candidates=["rtx-4090d-24gb"]))
req(104, "full-7b-8x5090", "Full SFT Qwen2.5-7B on 8 × RTX 5090, 300M tokens, 5 days", "qwen2.5-7b",
    T(method="full", seq_len=4096, micro_batch_size=1, global_batch_size=64), dict(tokens="300M"),
    C(deadline_days=5, max_gpus=8, gpu_candidates=["rtx-5090-32gb"]))
req(105, "llamafactory-lora-72b", "LLaMA-Factory LoRA Qwen2.5-72B, 300M tokens, 7 days", "qwen2.5-72b",
    T(method="lora", framework="llamafactory", seq_len=4096, micro_batch_size=1, global_batch_size=64), dict(tokens="300M"),
    C(deadline_days=7, max_gpus=16))
req(106, "megatron-swift-30b-a3b-full", "Megatron-SWIFT full SFT Qwen3-30B-A3B, 1B tokens, 5 days", "qwen3-30b-a3b",
    T(method="full", framework="megatron-swift", seq_len=4096, micro_batch_size=1, global_batch_size=256), dict(tokens="1B"),
    C(deadline_days=5, max_gpus=32))
req(107, "unsloth-qlora-8b-4090", "Unsloth QLoRA Llama-3.1-8B on one 4090, 100M tokens, 4 days", "llama-3.1-8b",
    T(method="qlora", framework="unsloth", seq_len=4096, micro_batch_size=2, global_batch_size=32), dict(tokens="100M"),
    C(deadline_days=4, max_gpus=1, gpu_candidates=["rtx-4090-24gb"]))
req(108, "orpo-7b-lora", "ORPO Qwen2.5-7B LoRA, 100M tokens, 2 days, at most 300 CNY", "qwen2.5-7b",
    T(method="lora", objective="orpo", seq_len=2048, micro_batch_size=2, global_batch_size=64), dict(tokens="100M"),
    C(deadline_days=2, budget=300, max_gpus=8))
req(109, "cpt-3b-class-qwen-1.5b-64gpus-fastest", "CPT Qwen2.5-1.5B on 200B tokens, up to 64 GPUs, fastest within 40,000 CNY", "qwen2.5-1.5b",
    T(method="full", seq_len=4096, micro_batch_size=4, global_batch_size=2048), dict(tokens="200B"),
    C(budget=40000, max_gpus=64, objective="fastest"))

srv(110, "serve-7b-50-users", "Serve Qwen2.5-7B to 50 users at 30 tokens/s, 4 weeks", "qwen2.5-7b",
    dict(concurrency=50, context_tokens=4096, output_tokens=512, precision="bf16", tokens_per_s_per_user=30), 4)
srv(111, "serve-32b-100-users-h20-l20", "Serve Qwen2.5-32B bf16 to 100 users at 25 tokens/s, 8 weeks, on H20 or L20", "qwen2.5-32b",
    dict(concurrency=100, context_tokens=8192, output_tokens=1024, precision="bf16", tokens_per_s_per_user=25,
         gpu_candidates=["h20-96gb", "l20-48gb"]), 8)
srv(112, "serve-235b-a22b-fp8", "Serve Qwen3-235B-A22B fp8 to 100 users at 20 tokens/s, 4 weeks", "qwen3-235b-a22b",
    dict(concurrency=100, context_tokens=8192, output_tokens=1024, precision="fp8", tokens_per_s_per_user=20), 4)
srv(113, "serve-30b-a3b-300-users", "Serve Qwen3-30B-A3B to 300 users at 40 tokens/s, 13 weeks", "qwen3-30b-a3b",
    dict(concurrency=300, context_tokens=4096, output_tokens=512, precision="bf16", tokens_per_s_per_user=40), 13)
srv(114, "serve-70b-fp8-64-users", "Serve Llama-3.1-70B fp8 to 64 users at 20 tokens/s, 13 weeks", "llama-3.1-70b",
    dict(concurrency=64, context_tokens=8192, output_tokens=1024, precision="fp8", tokens_per_s_per_user=20), 13)
srv(115, "serve-14b-int4-4090-20-users", "Serve Qwen2.5-14B int4 to 20 users on 4090s, 8 weeks", "qwen2.5-14b",
    dict(concurrency=20, context_tokens=4096, output_tokens=512, precision="int4", tokens_per_s_per_user=20,
         gpu_candidates=["rtx-4090-24gb"]), 8)
srv(116, "serve-72b-500-users-h20", "Serve Qwen2.5-72B bf16 to 500 users at 15 tokens/s on H20, 4 weeks", "qwen2.5-72b",
    dict(concurrency=500, context_tokens=4096, output_tokens=512, precision="bf16", tokens_per_s_per_user=15,
         gpu_candidates=["h20-96gb"]), 4)

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

"""Device measurements for bench/validate_h100_measured.py (one H100, PyTorch eager, HF transformers + PEFT).

Usage (on the GPU machine): python measure_h100.py --out DIR [--budget 330] [--tiny]
``--tiny`` runs every case family at toy sizes (CPU dry run). Every case prints one JSON line and is appended to
DIR/results.jsonl as soon as it ends; a failed case (OOM included) is recorded with its error and skipped. No case
starts after ``--budget`` seconds.

Cases (random weights from each model's config, so nothing is downloaded):
* ``launch``: host time per eager op (a loop of small element-wise ops; a tiny Llama stack's forward+backward
  with its launched kernels counted by the profiler) — checks methods.EAGER_FWD_OP_S / EAGER_OP_S and the
  per-layer op counts timing.EAGER_OPS_*.
* ``gemm``: bf16 matmul TFLOP/s over the shapes the time model uses (dense, LoRA rank, small MoE experts,
  grouped) — checks timing.GEN_EFFICIENCY and the size factor.
* ``train``: one optimizer step of a causal LM (full fine-tuning or PEFT LoRA), the loop the HF Trainer runs
  (autocast bf16, loss.backward, clip_grad_norm_ 1.0, AdamW step, zero_grad(set_to_none)): median of the timed
  steps after warm-ups, with torch.cuda.max_memory_allocated / reserved.
* ``trainer``: the same through transformers.Trainer on a synthetic dataset (step time from a callback).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import traceback

import torch

T0 = time.time()
ARGS = None
DEV = "cuda" if torch.cuda.is_available() else "cpu"

#: model configs (gpuplanner/resources/models/*.json; Llama-3.2-1B from its HF config.json)
MODELS = {
    "qwen2.5-0.5b": dict(model_type="qwen2", hidden_size=896, intermediate_size=4864, num_hidden_layers=24,
                         num_attention_heads=14, num_key_value_heads=2, vocab_size=151936, tie_word_embeddings=True,
                         rope_theta=1e6, rms_norm_eps=1e-6, max_position_embeddings=32768),
    "llama-3.2-1b": dict(model_type="llama", hidden_size=2048, intermediate_size=8192, num_hidden_layers=16,
                         num_attention_heads=32, num_key_value_heads=8, vocab_size=128256, tie_word_embeddings=True,
                         rope_theta=5e5, rms_norm_eps=1e-5, max_position_embeddings=131072, head_dim=64),
    "qwen2.5-1.5b": dict(model_type="qwen2", hidden_size=1536, intermediate_size=8960, num_hidden_layers=28,
                         num_attention_heads=12, num_key_value_heads=2, vocab_size=151936, tie_word_embeddings=True,
                         rope_theta=1e6, rms_norm_eps=1e-6, max_position_embeddings=32768),
    "qwen2.5-3b": dict(model_type="qwen2", hidden_size=2048, intermediate_size=11008, num_hidden_layers=36,
                       num_attention_heads=16, num_key_value_heads=2, vocab_size=151936, tie_word_embeddings=True,
                       rope_theta=1e6, rms_norm_eps=1e-6, max_position_embeddings=32768),
    "tiny-llama": dict(model_type="llama", hidden_size=64, intermediate_size=128, num_hidden_layers=16,
                       num_attention_heads=4, num_key_value_heads=2, vocab_size=256, tie_word_embeddings=True,
                       max_position_embeddings=4096),
}


def emit(rec: dict) -> None:
    rec["t_wall"] = round(time.time() - T0, 2)
    line = json.dumps(rec)
    print(line, flush=True)
    with open(os.path.join(ARGS.out, "results.jsonl"), "a") as f:
        f.write(line + "\n")


def sync():
    if DEV == "cuda":
        torch.cuda.synchronize()


def reset_mem():
    import gc
    gc.collect()
    if DEV == "cuda":
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()


def mem():
    if DEV != "cuda":
        return {}
    return {"max_alloc_gib": torch.cuda.max_memory_allocated() / 2**30,
            "max_reserved_gib": torch.cuda.max_memory_reserved() / 2**30,
            "alloc_now_gib": torch.cuda.memory_allocated() / 2**30}


def time_left() -> bool:
    return time.time() - T0 < ARGS.budget


def run_case(kind: str, params: dict, fn) -> None:
    if not time_left():
        emit({"kind": kind, **params, "skipped": "budget"})
        return
    try:
        out = fn()
        emit({"kind": kind, **params, **out})
    except Exception as e:  # OOM and the rest: record, free, go on
        msg = f"{type(e).__name__}: {str(e)[:300]}"
        emit({"kind": kind, **params, "error": msg})
        if not isinstance(e, torch.OutOfMemoryError):
            traceback.print_exc(limit=3)
    finally:
        reset_mem()


# ----------------------------------------------------------------------------------------------- launch cost


def launch_loop() -> dict:
    """Host seconds per eager element-wise op issued from Python (out-of-place add on a small tensor)."""
    x = torch.ones(256, device=DEV)
    n = 200 if ARGS.tiny else 5000
    out = {}
    for name, op in (("add", lambda t: t + 1.0), ("mul_add", lambda t: t * 1.0001 + 0.5)):
        for _ in range(50):
            y = op(x)
        sync()
        t = time.perf_counter()
        y = x
        for _ in range(n):
            y = op(y)
        t_issue = time.perf_counter() - t
        sync()
        t_all = time.perf_counter() - t
        k = 1 if name == "add" else 2
        out[f"{name}_issue_us_per_kernel"] = t_issue / (n * k) * 1e6
        out[f"{name}_total_us_per_kernel"] = t_all / (n * k) * 1e6
    return out


def build(name: str, dtype=torch.bfloat16, attn="sdpa"):
    from transformers import AutoConfig, AutoModelForCausalLM
    cfg = dict(MODELS[name])
    mt = cfg.pop("model_type")
    if ARGS.tiny and name != "tiny-llama":
        cfg.update(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                   num_key_value_heads=2, vocab_size=512)
        cfg.pop("head_dim", None)
    config = AutoConfig.for_model(mt, **cfg)
    config._attn_implementation = attn
    torch.manual_seed(0)
    with torch.device(DEV):
        model = AutoModelForCausalLM.from_config(config, dtype=dtype, attn_implementation=attn)
    model.config.use_cache = False
    return model


def count_kernels(fn) -> dict:
    """Kernel launches of one call of fn, from the profiler (cudaLaunchKernel-like runtime calls)."""
    from torch.profiler import ProfilerActivity, profile
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if DEV == "cuda" else [])
    with profile(activities=acts) as prof:
        fn()
        sync()
    n_launch = 0
    n_kernel = 0
    for ev in prof.events():
        nm = ev.name
        if "LaunchKernel" in nm or nm.startswith(("cuLaunch", "cudaGraphLaunch")):
            n_launch += 1
        if getattr(ev, "device_type", None) is not None and str(ev.device_type).endswith("CUDA"):
            n_kernel += 1
    return {"launches": n_launch, "device_events": n_kernel}


def tiny_stack(lora: bool, gc: bool) -> dict:
    """A 16-layer Llama of width 64: the GPU work is nothing, so a step's time is the host's issue time."""
    model = build("tiny-llama", dtype=torch.bfloat16)
    if lora:
        from peft import LoraConfig, get_peft_model
        model = get_peft_model(model, LoraConfig(r=16, lora_alpha=32, target_modules="all-linear"))
    model.train()
    if gc:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        if lora:
            model.enable_input_require_grads()
    ids = torch.randint(0, 256, (1, 128), device=DEV)

    def fwd():
        with torch.autocast(DEV, dtype=torch.bfloat16):
            return model(input_ids=ids, labels=ids).loss

    def step():
        loss = fwd()
        loss.backward()

    for _ in range(3):
        step()
    sync()
    n = 3 if ARGS.tiny else 20
    ts_f, ts_s = [], []
    for _ in range(n):
        t = time.perf_counter(); fwd(); sync(); ts_f.append(time.perf_counter() - t)
        t = time.perf_counter(); step(); sync(); ts_s.append(time.perf_counter() - t)
    kf = count_kernels(fwd) if not ARGS.no_profile else {"launches": 0, "device_events": 0}
    ks = count_kernels(step) if not ARGS.no_profile else {"launches": 0, "device_events": 0}
    L = MODELS["tiny-llama"]["num_hidden_layers"]
    return {"layers": L, "fwd_s": statistics.median(ts_f), "fwd_bwd_s": statistics.median(ts_s),
            "fwd_launches": kf["launches"], "fwd_bwd_launches": ks["launches"],
            "fwd_device_events": kf["device_events"], "fwd_bwd_device_events": ks["device_events"]}


# ------------------------------------------------------------------------------------------------------ GEMM


def bench_gpu(fn, reps: int) -> float:
    """Median seconds of fn over reps, CUDA events (host timer on CPU)."""
    for _ in range(3):
        fn()
    sync()
    ts = []
    for _ in range(reps):
        if DEV == "cuda":
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record(); fn(); b.record(); b.synchronize()
            ts.append(a.elapsed_time(b) / 1e3)
        else:
            t = time.perf_counter(); fn(); ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def gemm_case(m: int, n: int, k: int) -> dict:
    if ARGS.tiny:
        m, n, k = min(m, 256), min(n, 256), min(k, 256)
    # several operand sets so repeated runs do not sit in L2 (METHOD.md)
    sets = [(torch.randn(m, k, device=DEV, dtype=torch.bfloat16), torch.randn(k, n, device=DEV, dtype=torch.bfloat16))
            for _ in range(4)]
    i = [0]

    def fn():
        a, b = sets[i[0] % 4]
        i[0] += 1
        return a @ b
    t = bench_gpu(fn, 5 if ARGS.tiny else 50)
    return {"s": t, "tflops": 2.0 * m * n * k / t / 1e12}


def grouped_case(e: int, tok_per_expert: int, h: int, f: int) -> dict:
    """torch._grouped_mm over e experts (x: total×h, w: e×h×f) vs a Python loop of e matmuls."""
    if ARGS.tiny:
        e, tok_per_expert, h, f = min(e, 4), min(tok_per_expert, 32), min(h, 128), min(f, 64)
    x = torch.randn(e * tok_per_expert, h, device=DEV, dtype=torch.bfloat16)
    w = torch.randn(e, f, h, device=DEV, dtype=torch.bfloat16).transpose(-2, -1)
    offs = torch.arange(tok_per_expert, e * tok_per_expert + 1, tok_per_expert, device=DEV, dtype=torch.int32)
    flops = 2.0 * e * tok_per_expert * h * f
    out = {}
    loop = lambda: [x[j * tok_per_expert:(j + 1) * tok_per_expert] @ w[j] for j in range(e)]
    t = bench_gpu(loop, 3 if ARGS.tiny else 20)
    out.update(loop_s=t, loop_tflops=flops / t / 1e12)
    if hasattr(torch, "_grouped_mm") and DEV == "cuda":
        try:
            t = bench_gpu(lambda: torch._grouped_mm(x, w, offs=offs), 30)
            out.update(grouped_s=t, grouped_tflops=flops / t / 1e12)
        except Exception as ex:
            out["grouped_error"] = f"{type(ex).__name__}: {str(ex)[:200]}"
    return out


# ----------------------------------------------------------------------------------------------- training


def make_model(name: str, mode: str, targets):
    """mode: ``mixed`` (fp32 weights, bf16 autocast: HF Trainer bf16=True on an fp32-loaded model), ``bf16``
    (weights and AdamW states in bf16), ``lora`` (bf16 base, PEFT fp32 adapters, bf16 autocast)."""
    model = build(name, dtype=torch.float32 if mode == "mixed" else torch.bfloat16)
    if mode == "lora":
        from peft import LoraConfig, get_peft_model
        model = get_peft_model(model, LoraConfig(r=16, lora_alpha=32, lora_dropout=0.0, target_modules=targets))
    model.train()
    return model


def set_gc(model, gc: bool, lora: bool) -> None:
    if gc:
        model.gradient_checkpointing_enable()
        if lora:
            model.enable_input_require_grads()
    else:
        model.gradient_checkpointing_disable()


def train_steps(model, opt, seq: int, mb: int, n_warm=2, n_time=5) -> dict:
    vocab = model.config.vocab_size if hasattr(model, "config") else 256
    if "short" in ARGS.only:
        n_time = 10
    if ARGS.tiny:
        seq = min(seq, 64)
        n_warm, n_time = 1, 2
    params = [p for p in model.parameters() if p.requires_grad]
    batches = [torch.randint(0, vocab, (mb, seq), device=DEV) for _ in range(2)]
    steps, opts = [], []
    torch.cuda.reset_peak_memory_stats() if DEV == "cuda" else None
    for i in range(n_warm + n_time):
        ids = batches[i % 2]
        sync()
        t = time.perf_counter()
        with torch.autocast(DEV, dtype=torch.bfloat16):
            loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        sync()
        t_o = time.perf_counter()
        opt.step()
        opt.zero_grad(set_to_none=True)
        sync()
        t_e = time.perf_counter()
        if i >= n_warm:
            steps.append(t_e - t)
            opts.append(t_e - t_o)
    if not torch.isfinite(loss):
        raise RuntimeError("non-finite loss")
    s = statistics.median(steps)
    return {"step_s": s, "opt_s": statistics.median(opts), "step_min_s": min(steps), "step_max_s": max(steps),
            "tokens_per_s": mb * seq / s, "loss": float(loss), **mem()}


def train_group(name: str, mode: str, grid, fused=True, targets="all-linear", label=None) -> None:
    """One model build, then every (seq, mb, gc) of grid; the optimizer (and its states) live across cases."""
    base = {"model": name, "mode": mode, "fused": fused, "targets": targets if mode == "lora" else None}
    if label:
        base["label"] = label
    if not time_left():
        emit({"kind": "train", **base, "skipped": "budget"})
        return
    state = {}
    try:
        t = time.time()
        model = make_model(name, mode, targets)
        n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)
        n_all = sum(p.numel() for p in model.parameters())
        opt_kw = {"fused": True} if fused and DEV == "cuda" else {"foreach": True}
        opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-5, **opt_kw)
        state.update(model=model, opt=opt)
        base.update(params_total=n_all, params_trainable=n_train, build_s=round(time.time() - t, 2))
        sync()
        base["weights_gib"] = torch.cuda.memory_allocated() / 2**30 if DEV == "cuda" else None
    except Exception as e:
        emit({"kind": "train", **base, "error": f"build {type(e).__name__}: {str(e)[:300]}"})
        reset_mem()
        return
    for seq, mb, gc in grid:
        def fn():
            set_gc(state["model"], gc, mode == "lora")
            return train_steps(state["model"], state["opt"], seq, mb)
        run_case("train", {**base, "seq": seq, "mb": mb, "gc": gc}, fn)
        state["opt"].zero_grad(set_to_none=True)
    state.clear()
    reset_mem()


def trainer_case(name: str, mode: str, seq: int, mb: int, gc: bool) -> dict:
    """transformers.Trainer on a synthetic dataset; step time between consecutive on_step_end (synchronised)."""
    from transformers import Trainer, TrainerCallback, TrainingArguments
    model = make_model(name, mode, "all-linear")
    vocab = model.config.vocab_size
    if ARGS.tiny:
        seq = min(seq, 64)

    class DS(torch.utils.data.Dataset):
        def __len__(self):
            return 1000

        def __getitem__(self, i):
            g = torch.Generator().manual_seed(i)
            x = torch.randint(0, vocab, (seq,), generator=g)
            return {"input_ids": x, "labels": x.clone(), "attention_mask": torch.ones_like(x)}

    stamps = []

    class CB(TrainerCallback):
        def on_step_end(self, args, st, control, **kw):
            sync()
            stamps.append(time.perf_counter())

    n = 4 if ARGS.tiny else 9
    args = TrainingArguments(output_dir="/tmp/_gpumeas_trainer", per_device_train_batch_size=mb,
                             max_steps=n, bf16=DEV == "cuda", logging_steps=1000, report_to="none",
                             save_strategy="no", gradient_checkpointing=gc, dataloader_num_workers=0,
                             disable_tqdm=True, learning_rate=1e-5, use_cpu=DEV != "cuda")
    tr = Trainer(model=model, args=args, train_dataset=DS(), callbacks=[CB()])
    torch.cuda.reset_peak_memory_stats() if DEV == "cuda" else None
    tr.train()
    d = [b - a for a, b in zip(stamps[2:], stamps[3:])]
    s = statistics.median(d)
    return {"step_s": s, "tokens_per_s": mb * seq / s, "optim": str(args.optim), "steps_timed": len(d),
            "gc_kwargs": str(args.gradient_checkpointing_kwargs), **mem()}


def sdpa_case(backend: str, b: int, heads: int, kv_heads: int, seq: int, d: int) -> dict:
    """Causal SDPA forward and forward+backward TFLOP/s (FLOPs as FlashAttention counts them: 4·b·h·s²·d/2 forward,
    2.5× that for the backward) under the default backend order or a forced one."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    if ARGS.tiny:
        seq, heads, kv_heads = min(seq, 128), min(heads, 4), min(kv_heads, 4)
    dt = torch.bfloat16
    q = torch.randn(b, heads, seq, d, device=DEV, dtype=dt, requires_grad=True)
    k = torch.randn(b, kv_heads, seq, d, device=DEV, dtype=dt, requires_grad=True)
    v = torch.randn(b, kv_heads, seq, d, device=DEV, dtype=dt, requires_grad=True)
    gqa = kv_heads != heads
    bk = {"default": None, "flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
          "efficient": SDPBackend.EFFICIENT_ATTENTION}[backend]
    import contextlib
    ctx = (lambda: sdpa_kernel(bk)) if bk is not None else contextlib.nullcontext

    def f():
        with ctx():
            return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=gqa)
    go = torch.randn(b, heads, seq, d, device=DEV, dtype=dt)

    def fb():
        o = f()
        o.backward(go)
    fl = 4.0 * b * heads * seq * seq * d / 2
    tf = bench_gpu(f, 5 if ARGS.tiny else 20)
    tfb = bench_gpu(fb, 5 if ARGS.tiny else 20)
    return {"fwd_s": tf, "fwd_tflops": fl / tf / 1e12, "fwd_bwd_s": tfb, "fwd_bwd_tflops": 3.5 * fl / tfb / 1e12}


def probe_case(name: str, mode: str, gc: str, seq: int = 512, mb: int = 1) -> dict:
    """Kernel launches and host-bound time of one real model's forward, forward+backward and whole step (clip and
    AdamW included) at a short context; ``gc`` none / nonreentrant / reentrant."""
    model = make_model(name, mode, "all-linear")
    lora = mode == "lora"
    if gc != "none":
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": gc == "reentrant"})
        if lora:
            model.enable_input_require_grads()
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=1e-5, **({"fused": True} if DEV == "cuda" else {}))
    if ARGS.tiny:
        seq = min(seq, 64)
    ids = torch.randint(0, model.config.vocab_size, (mb, seq), device=DEV)

    def fwd():
        with torch.autocast(DEV, dtype=torch.bfloat16):
            return model(input_ids=ids, labels=ids).loss

    def fb():
        fwd().backward()

    def step():
        fb()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)

    for _ in range(3):
        step()
    out = {}
    for tag, fn in (("fwd", fwd), ("fb", fb), ("step", step)):
        ts = []
        for _ in range(3 if ARGS.tiny else 8):
            sync()
            t = time.perf_counter()
            fn()
            if tag == "fb":
                opt.zero_grad(set_to_none=True)
            sync()
            ts.append(time.perf_counter() - t)
        out[f"{tag}_s"] = statistics.median(ts)
        out[f"{tag}_min_s"] = min(ts)
        out[f"{tag}_launches"] = count_kernels(fn)["launches"]
        opt.zero_grad(set_to_none=True)
    out["layers"] = model.config.num_hidden_layers
    return out


# ---------------------------------------------------------------------------------------------------- main

GEMMS = [  # (M tokens, N out, K in)
    (8192, 8192, 8192),                                                   # the matmul ceiling
    (512, 4096, 4096), (2048, 4096, 4096), (8192, 4096, 4096), (8192, 14336, 4096), (8192, 4096, 14336),
    (512, 896, 896), (2048, 896, 896), (2048, 4864, 896), (8192, 4864, 896),        # Qwen2.5-0.5B widths
    (512, 1536, 1536), (2048, 1536, 1536), (2048, 8960, 1536), (8192, 8960, 1536),  # Qwen2.5-1.5B
    (2048, 2048, 2048), (2048, 8192, 2048), (8192, 11008, 2048),                   # Llama-3.2-1B / Qwen2.5-3B
    (2048, 16, 4096), (2048, 4096, 16), (8192, 16, 4096), (8192, 4096, 16),         # LoRA r=16 A and B
    (4096, 16, 8192), (512, 16, 1536), (512, 1536, 16),                             # LoRA wgrad-like, small
    (64, 768, 2048), (256, 768, 2048), (1024, 768, 2048), (4096, 768, 2048), (1024, 2048, 768),  # MoE experts
]
GROUPED = [(64, 64, 2048, 768), (64, 256, 2048, 768), (128, 128, 2048, 768), (8, 1024, 4096, 14336)]

GRID_FULL = [(512, 1, False), (512, 4, False), (2048, 1, False), (2048, 4, False),
             (512, 1, True), (512, 4, True), (2048, 1, True), (2048, 4, True)]
GRID_LORA = GRID_FULL


def env_info() -> dict:
    info = {"python": sys.version.split()[0], "torch": torch.__version__, "device": DEV,
            "date": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())}
    for mod in ("transformers", "peft", "accelerate"):
        try:
            info[mod] = __import__(mod).__version__
        except Exception as e:
            info[mod] = f"missing: {e}"
    if DEV == "cuda":
        p = torch.cuda.get_device_properties(0)
        info.update(gpu=p.name, sm_count=p.multi_processor_count, gpu_mem_gib=p.total_memory / 2**30,
                    cuda=torch.version.cuda, cudnn=torch.backends.cudnn.version())
    info["sdpa_flash"] = torch.backends.cuda.flash_sdp_enabled()
    return info


def main() -> None:
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget", type=float, default=330.0)
    ap.add_argument("--tiny", action="store_true")
    ap.add_argument("--no-profile", action="store_true", help="never start torch.profiler (its CUPTI hooks may "
                    "stay and slow later launches)")
    ap.add_argument("--only", default="", help="comma list of families: launch,gemm,full,lora,trainer")
    ARGS = ap.parse_args()
    os.makedirs(ARGS.out, exist_ok=True)
    only = set(filter(None, ARGS.only.split(",")))
    want = lambda f: not only or f in only
    emit({"kind": "env", **env_info()})
    if want("launch"):
        run_case("launch", {"case": "elementwise_loop"}, launch_loop)
        for lora, gc in ((False, False), (True, False), (False, True)):
            run_case("launch", {"case": "tiny_llama_stack", "lora": lora, "gc": gc}, lambda: tiny_stack(lora, gc))
    if want("gemm"):
        for m, n, k in GEMMS:
            run_case("gemm", {"m": m, "n": n, "k": k}, lambda: gemm_case(m, n, k))
        for g in GROUPED:
            run_case("grouped", dict(zip(("experts", "tok_per_expert", "h", "f"), g)), lambda: grouped_case(*g))
    if want("sdpa"):
        for backend in ("default", "flash", "cudnn"):
            for shape in ((1, 32, 8, 4096, 128), (4, 16, 2, 2048, 128), (1, 14, 2, 512, 64)):
                run_case("sdpa", {"backend": backend, **dict(zip(("b", "heads", "kv_heads", "seq", "d"), shape))},
                         lambda: sdpa_case(backend, *shape))
    models = ["qwen2.5-0.5b", "llama-3.2-1b", "qwen2.5-1.5b", "qwen2.5-3b"]
    if want("full"):
        for name in models:
            train_group(name, "mixed", GRID_FULL)
    if want("trainer"):
        run_case("trainer", {"model": "qwen2.5-0.5b", "mode": "mixed", "seq": 512, "mb": 4, "gc": False},
                 lambda: trainer_case("qwen2.5-0.5b", "mixed", 512, 4, False))
        run_case("trainer", {"model": "qwen2.5-1.5b", "mode": "lora", "seq": 512, "mb": 1, "gc": True},
                 lambda: trainer_case("qwen2.5-1.5b", "lora", 512, 1, True))
    if want("lora"):
        for name in models:
            train_group(name, "lora", GRID_LORA)
    if want("lora"):
        for name in models:
            train_group(name, "lora", [(512, 1, True), (2048, 4, True)],
                        targets=["q_proj", "k_proj", "v_proj", "o_proj"])
    if want("full"):
        for name in ("qwen2.5-0.5b", "qwen2.5-1.5b"):
            train_group(name, "mixed", [(512, 1, False), (2048, 1, True)], fused=False, label="foreach")
        train_group("qwen2.5-1.5b", "bf16", [(512, 4, True), (2048, 1, True), (2048, 4, False)])
    if want("probe"):
        run_case("launch", {"case": "elementwise_loop"}, launch_loop)
        for name, mode, gc in (("qwen2.5-1.5b", "mixed", "none"), ("qwen2.5-1.5b", "bf16", "none"),
                               ("qwen2.5-1.5b", "lora", "none"), ("qwen2.5-1.5b", "mixed", "nonreentrant"),
                               ("qwen2.5-1.5b", "mixed", "reentrant"), ("qwen2.5-1.5b", "lora", "reentrant"),
                               ("qwen2.5-1.5b", "lora", "nonreentrant"), ("qwen2.5-0.5b", "mixed", "none"),
                               ("qwen2.5-0.5b", "lora", "none"), ("qwen2.5-1.5b", "mixed", "none")):
            run_case("probe", {"model": name, "mode": mode, "gc": gc, "seq": 512, "mb": 1},
                     lambda: probe_case(name, mode, gc))
        for lora, gc in ((False, False), (True, False)):
            run_case("launch", {"case": "tiny_llama_stack", "lora": lora, "gc": gc}, lambda: tiny_stack(lora, gc))
    if want("short"):  # the host-bound rows again, in a process that never profiles (--no-profile)
        run_case("launch", {"case": "elementwise_loop"}, launch_loop)
        for name in models:
            train_group(name, "mixed", [(512, 1, False), (512, 1, True), (2048, 4, True)], label="short")
            train_group(name, "lora", [(512, 1, False), (512, 1, True)], label="short")
        for lora, gc in ((False, False), (True, False), (False, True)):
            run_case("launch", {"case": "tiny_llama_stack", "lora": lora, "gc": gc}, lambda: tiny_stack(lora, gc))
    emit({"kind": "done", "elapsed_s": time.time() - T0})


if __name__ == "__main__":
    main()

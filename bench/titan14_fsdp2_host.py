"""Issue 35 round 14 (helper titan14): the host (CPU) time of one torchtitan-style eager Llama step under FSDP2.

A measurement, not part of the model, and not run by the tests (it needs torch >= 2.6, which the project does not
depend on). It builds torchtitan's Llama block as the 2025 code writes it (eager RMSNorm, RoPE through fp32 complex
numbers, ``repeat_kv``, SDPA, SwiGLU: torchtitan/models/llama/model.py) with tiny dimensions, so that the GPU-side
work is nil and what is timed is Python, dispatch and FSDP2/DTensor bookkeeping: ``fully_shard`` on every block and
the root (torchtitan's ``apply_fsdp``), the loss as torchtitan's ``cross_entropy(pred.flatten(0, 1).float(), ...)``,
the clipping of ``torchtitan.utils.clip_grad_norm_`` (``_foreach_norm``, a stacked norm, ``full_tensor``,
``_foreach_mul_``) and foreach AdamW (torchtitan before 6e4988550). L = 32 blocks, 291 parameters: Llama 3 8B's counts.

CPU-only caveats: FSDP2 on CPU lacks stream events (patched to no-ops here); ``reshard_after_forward`` must be
False on CPU (the re-gather in backward trips autograd's version check), so the backward's 32 re-gathers are not
timed; gloo's ``Work.wait()`` blocks the CPU where NCCL's makes the GPU stream wait (report it apart: cProfile's
``c10d.wait``). Run (MODE=fsdp or plain, L=blocks, N=steps):
``MODE=fsdp RAF=0 python bench/titan14_fsdp2_host.py``.
"""
import os, sys, time, statistics
os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=os.environ.get("PORT", "29631"), RANK="0", WORLD_SIZE="1")
import torch, torch.nn as nn, torch.nn.functional as F, torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed._composable.fsdp import fully_shard
from torch.distributed._tensor import DTensor
torch.set_num_threads(1)
class _Ev:
    def record(self, *a, **k): pass
    def wait(self, *a, **k): pass
    def synchronize(self): pass
    def query(self): return True
for _n, _f in (("record_event", lambda self, e=None: _Ev()), ("wait_event", lambda self, e: None), ("wait_stream", lambda self, s: None)):
    if not hasattr(torch.cpu.Stream, _n): setattr(torch.cpu.Stream, _n, _f)
dist.init_process_group("gloo")
mesh = init_device_mesh("cpu", (1,))
D, H, KV, FF, V, S, L = 64, 4, 2, 128, 256, 32, int(os.environ.get("L", "32"))

class RMSNorm(nn.Module):  # torchtitan RMSNorm (eager, pre-fused_rmsnorm removal)
    def __init__(s, d): super().__init__(); s.eps = 1e-5; s.weight = nn.Parameter(torch.ones(d))
    def forward(s, x):
        o = x.float(); o = o * torch.rsqrt(o.pow(2).mean(-1, keepdim=True) + s.eps)
        return o.type_as(x) * s.weight

def rope(xq, xk, fc):  # torchtitan apply_rotary_emb
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    fc = fc.view(1, xq_.shape[1], 1, xq_.shape[-1])
    return torch.view_as_real(xq_ * fc).flatten(3).type_as(xq), torch.view_as_real(xk_ * fc).flatten(3).type_as(xk)

def repeat_kv(x, n):
    bs, sl, nk, hd = x.shape
    return x[:, :, :, None, :].expand(bs, sl, nk, n, hd).reshape(bs, sl, nk * n, hd)

class Block(nn.Module):
    def __init__(s):
        super().__init__(); hd = D // H
        s.wq, s.wk, s.wv, s.wo = nn.Linear(D, D, bias=False), nn.Linear(D, KV * hd, bias=False), nn.Linear(D, KV * hd, bias=False), nn.Linear(D, D, bias=False)
        s.w1, s.w2, s.w3 = nn.Linear(D, FF, bias=False), nn.Linear(FF, D, bias=False), nn.Linear(D, FF, bias=False)
        s.attention_norm, s.ffn_norm = RMSNorm(D), RMSNorm(D)
    def forward(s, x, fc):
        b, sl, _ = x.shape; hd = D // H
        h = s.attention_norm(x)
        q, k, v = s.wq(h).view(b, sl, H, hd), s.wk(h).view(b, sl, KV, hd), s.wv(h).view(b, sl, KV, hd)
        q, k = rope(q, k, fc)
        k, v = repeat_kv(k, H // KV), repeat_kv(v, H // KV)
        o = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        x = x + s.wo(o.transpose(1, 2).contiguous().view(b, sl, -1))
        h = s.ffn_norm(x)
        return x + s.w2(F.silu(s.w1(h)) * s.w3(h))

class Model(nn.Module):
    def __init__(s):
        super().__init__(); s.tok_embeddings = nn.Embedding(V, D)
        s.layers = nn.ModuleList(Block() for _ in range(L)); s.norm = RMSNorm(D); s.output = nn.Linear(D, V, bias=False)
        hd = D // H; f = 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd)); t = torch.arange(S).float()
        s.register_buffer("freqs_cis", torch.polar(torch.ones(S, hd // 2), torch.outer(t, f)), persistent=False)
    def forward(s, ids):
        h = s.tok_embeddings(ids)
        for blk in s.layers: h = blk(h, s.freqs_cis)
        return s.output(s.norm(h))

mode = os.environ.get("MODE", "fsdp")
m = Model()
if mode == "fsdp":
    for blk in m.layers: fully_shard(blk, mesh=mesh, reshard_after_forward=os.environ.get("RAF", "1") == "1")
    fully_shard(m, mesh=mesh)
params = list(m.parameters())
print("params", len(params), "dtensor", isinstance(params[0], DTensor))
opt = torch.optim.AdamW(m.parameters(), lr=1e-4, foreach=True, fused=False)
ids = torch.randint(0, V, (1, S)); lab = torch.randint(0, V, (1, S))
T = {k: [] for k in ("fwd", "bwd", "clip", "opt", "step")}
for it in range(int(os.environ.get("N", "30"))):
    t0 = time.perf_counter()
    opt.zero_grad()
    pred = m(ids); loss = F.cross_entropy(pred.flatten(0, 1).float(), lab.flatten(0, 1)); del pred
    t1 = time.perf_counter(); loss.backward(); t2 = time.perf_counter()
    grads = [p.grad for p in params if p.grad is not None]
    norms = torch._foreach_norm(grads, 2.0)
    tot = torch.linalg.vector_norm(torch.stack([n for n in norms]), 2.0)
    if isinstance(tot, DTensor): tot = tot.full_tensor()
    coef = torch.clamp(1.0 / (tot + 1e-6), max=1.0)
    torch._foreach_mul_(grads, coef)
    t3 = time.perf_counter(); opt.step(); t4 = time.perf_counter()
    if it >= 5:
        for k, v in (("fwd", t1 - t0), ("bwd", t2 - t1), ("clip", t3 - t2), ("opt", t4 - t3), ("step", t4 - t0)): T[k].append(v)
print(mode, "L", L, " ".join(f"{k} {statistics.median(v)*1e3:.1f}ms" for k, v in T.items()))
dist.destroy_process_group()

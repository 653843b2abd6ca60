# GPU Planner acceptance-test kit: benchmark part (PyTorch only; written by the kit's bash wrapper).
# Writes one JSON result file, schema "gpuplanner-kit/1" (documented in gpuplanner/verify/acceptance.py).
#
# Definitions used here:
#   matmul TFLOPS  = 2*n^3 FLOPs per n x n x n GEMM / seconds (one multiply + one add per term).
#   all-reduce     = nccl-tests doc/PERFORMANCE.md: algbw = bytes / time, busbw = algbw * 2(n-1)/n.
#   train step     = forward + backward + optimizer step of the planned layer shape on n ranks
#                    (DistributedDataParallel for n > 1); tokens/s counts all n ranks.
import argparse
import contextlib
import datetime
import json
import math
import os
import platform
import re
import socket
import sys
import time
import traceback

SCHEMA = 'gpuplanner-kit/1'
KIT_VERSION = 1


def _read(path):
    try:
        with open(path, 'r', encoding='utf-8', errors='replace') as fh:
            return fh.read()
    except OSError:
        return None


def _parse_args(argv):
    ap = argparse.ArgumentParser(prog='kit.sh', description='GPU Planner acceptance benchmarks')
    ap.add_argument('--work', required=True, help=argparse.SUPPRESS)
    ap.add_argument('--plan', required=True, help=argparse.SUPPRESS)
    ap.add_argument('--out', required=True, help=argparse.SUPPRESS)
    ap.add_argument('--cpu', action='store_true', help='run on CPU with gloo (implies --tiny)')
    ap.add_argument('--tiny', action='store_true', help='tiny sizes (seconds; a smoke test, not a measurement)')
    ap.add_argument('--ranks', default=None, help='GPU counts to test, e.g. 1,2,4,8 (default: powers of two up to all GPUs; CPU: 1,2)')
    ap.add_argument('--layers', type=int, default=None, help='layers of the scaled-down model (default: as many as fit)')
    ap.add_argument('--vocab', type=int, default=None, help='vocabulary of the scaled-down model')
    ap.add_argument('--seq', type=int, default=None, help='sequence length (default: the plan)')
    ap.add_argument('--mbs', type=int, default=None, help='micro-batch size per GPU (default: the plan)')
    ap.add_argument('--accum', type=int, default=None, help='micro-batches per optimizer step (default: the plan, at most 4)')
    ap.add_argument('--steps', type=int, default=None, help='timed training steps')
    ap.add_argument('--warmup', type=int, default=None, help='untimed warm-up steps')
    ap.add_argument('--matmul-n', type=int, default=None, help='matmul size n (n x n x n)')
    ap.add_argument('--matmul-seconds', type=float, default=None, help='seconds of matmul per GPU (also the power-sampling load)')
    ap.add_argument('--allreduce-mb', type=float, default=None, help='all-reduce message size in MiB')
    ap.add_argument('--allreduce-iters', type=int, default=None)
    ap.add_argument('--skip', default='', help='comma list of phases to skip: matmul,allreduce,train')
    return ap.parse_args(argv)


# ----------------------------------------------------------------------------------------- model shape

def tiny_shape(plan):
    # keep the plan's ratios (GQA group, MLP width / hidden, gating, recompute) at toy size
    s = plan['shape']
    heads = 4
    kv = max(1, min(heads, int(round(heads * s['kv_heads'] / float(s['heads'])))))
    while heads % kv:
        kv -= 1
    hidden = 64
    ffn = max(32, int(round(hidden * s['ffn'] / float(s['hidden']) / 8.0)) * 8)
    return dict(hidden=hidden, layers=2, heads=heads, kv_heads=kv, head_dim=hidden // heads, ffn=ffn,
                vocab=512, seq=64, mbs=2, accum=1, gated=bool(s['gated']), recompute=s['recompute'],
                moe_as_dense=bool(s.get('moe_as_dense')), mla_as_mha=bool(s.get('mla_as_mha')))


def layer_params(sh):
    q = sh['heads'] * sh['head_dim']
    kv = sh['kv_heads'] * sh['head_dim']
    mlp = (3 if sh['gated'] else 2) * sh['hidden'] * sh['ffn']
    return sh['hidden'] * (q + 2 * kv) + q * sh['hidden'] + mlp + 2 * sh['hidden']


def fit_shape(plan, total_bytes, args):
    # The planned layer (hidden, heads, ffn, seq) kept as is; layers and vocabulary cut to fit one GPU.
    # Bytes: mixed-precision AdamW holds fp32 weights + fp32 grads + 2 fp32 moments = 16 B/param, DDP a
    # further 4 B/param gradient bucket (20 in all); activations per layer ~ mbs*seq*(34*h + 8*ffn) bytes
    # without recompute (Korthikanti et al. 2022, arXiv:2205.05198 Table 2, 34sbh for f = 4h), ~2*s*b*h with
    # full recompute; logits ~ 14 bytes per token and vocabulary entry (bf16 + fp32 copies + grad).
    s = dict(plan['shape'])
    s['mbs'] = args.mbs or s['mbs']
    s['seq'] = args.seq or s['seq']
    s['accum'] = args.accum or max(1, min(4, int(s.get('accum', 1))))
    budget = 0.55 * total_bytes
    toks = s['mbs'] * s['seq']
    h = s['hidden']

    def fixed(v):
        return 20.0 * (2 * v * h + h) + 14.0 * toks * v

    vocab = args.vocab or s['vocab']
    if not args.vocab:
        while vocab > 1024 and fixed(vocab) > 0.35 * budget:
            vocab = max(1024, (vocab // 2) // 128 * 128)
    s['vocab'] = vocab
    if s['recompute'] == 'full':
        act = 2.0 * toks * h * 2
        extra = toks * (34.0 * h + 8.0 * s['ffn'])
    else:
        act = toks * (34.0 * h + 8.0 * s['ffn'])
        extra = 0.0
    per_layer = 20.0 * layer_params(s) + act
    fit = int((budget - fixed(vocab) - extra) // per_layer)
    s['layers'] = args.layers or max(1, min(s['layers'], fit))
    return s


def build_model(torch, sh):
    nn = torch.nn
    F = torch.nn.functional
    try:
        from torch.utils.checkpoint import checkpoint
    except ImportError:  # pragma: no cover
        checkpoint = None

    class RMSNorm(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(d))

        def forward(self, x):
            var = x.float().pow(2).mean(-1, keepdim=True)
            return (x.float() * torch.rsqrt(var + 1e-6)).to(x.dtype) * self.weight.to(x.dtype)

    H, KV, D = sh['heads'], sh['kv_heads'], sh['head_dim']
    selective = sh['recompute'] == 'selective' and checkpoint is not None

    def attn_core(q, k, v):
        if KV != H:
            k = k.repeat_interleave(H // KV, dim=1)
            v = v.repeat_interleave(H // KV, dim=1)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            h = sh['hidden']
            self.n1 = RMSNorm(h)
            self.q = nn.Linear(h, H * D, bias=False)
            self.k = nn.Linear(h, KV * D, bias=False)
            self.v = nn.Linear(h, KV * D, bias=False)
            self.o = nn.Linear(H * D, h, bias=False)
            self.n2 = RMSNorm(h)
            self.up = nn.Linear(h, sh['ffn'], bias=False)
            self.gate = nn.Linear(h, sh['ffn'], bias=False) if sh['gated'] else None
            self.down = nn.Linear(sh['ffn'], h, bias=False)

        def forward(self, x):
            b, s, h = x.shape
            y = self.n1(x)
            q = self.q(y).view(b, s, H, D).transpose(1, 2)
            k = self.k(y).view(b, s, KV, D).transpose(1, 2)
            v = self.v(y).view(b, s, KV, D).transpose(1, 2)
            if selective:
                a = checkpoint(attn_core, q, k, v, use_reentrant=False)
            else:
                a = attn_core(q, k, v)
            x = x + self.o(a.transpose(1, 2).reshape(b, s, H * D))
            y = self.n2(x)
            if self.gate is not None:
                y = F.silu(self.gate(y)) * self.up(y)
            else:
                y = F.gelu(self.up(y))
            return x + self.down(y)

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(sh['vocab'], sh['hidden'])
            self.layers = nn.ModuleList([Layer() for _ in range(sh['layers'])])
            self.norm = RMSNorm(sh['hidden'])
            self.head = nn.Linear(sh['hidden'], sh['vocab'], bias=False)

        def forward(self, ids):
            x = self.emb(ids)
            for layer in self.layers:
                if sh['recompute'] == 'full' and checkpoint is not None and self.training:
                    x = checkpoint(layer, x, use_reentrant=False)
                else:
                    x = layer(x)
            return self.head(self.norm(x))

    return Model()


# ----------------------------------------------------------------------------------------- workers

def _sync(torch, cuda):
    if cuda:
        torch.cuda.synchronize()


def _matmul(torch, dev, cuda, n, seconds, dtype):
    a = torch.randn(n, n, device=dev, dtype=dtype)
    b = torch.randn(n, n, device=dev, dtype=dtype)
    for _ in range(3):
        c = a @ b
    _sync(torch, cuda)
    iters, t0 = 0, time.perf_counter()
    while True:
        for _ in range(10):
            c = a @ b
        iters += 10
        _sync(torch, cuda)
        el = time.perf_counter() - t0
        if el >= seconds:
            break
    del c
    return 2.0 * n ** 3 * iters / el / 1e12, el


def _allreduce(torch, dist, dev, cuda, size_bytes, iters, world):
    x = torch.ones(max(1, size_bytes // 4), dtype=torch.float32, device=dev)
    for _ in range(max(1, iters // 4)):
        dist.all_reduce(x)
    _sync(torch, cuda)
    dist.barrier()
    t0 = time.perf_counter()
    for _ in range(iters):
        dist.all_reduce(x)
    _sync(torch, cuda)
    el = (time.perf_counter() - t0) / iters
    nbytes = x.numel() * 4
    algbw = nbytes / el / 1e9
    return dict(n=world, size_bytes=nbytes, time_s=el, algbw_gbs=algbw, busbw_gbs=algbw * 2.0 * (world - 1) / world)


def _train(torch, dist, dev, cuda, sh, steps, warmup, world, amp_dtype):
    torch.manual_seed(1234)
    model = build_model(torch, sh).to(dev)
    params = sum(p.numel() for p in model.parameters())
    if world > 1:
        from torch.nn.parallel import DistributedDataParallel as DDP
        model = DDP(model, device_ids=[dev.index] if cuda else None)
    try:
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True) if cuda else torch.optim.AdamW(model.parameters(), lr=1e-4)
    except (TypeError, RuntimeError):
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    ids = torch.randint(0, sh['vocab'], (sh['mbs'], sh['seq'] + 1), device=dev)
    x, y = ids[:, :-1], ids[:, 1:]
    F = torch.nn.functional

    def step():
        for a in range(sh['accum']):
            sync_ctx = model.no_sync() if (world > 1 and a < sh['accum'] - 1) else contextlib.nullcontext()
            amp = torch.autocast('cuda', dtype=amp_dtype) if (cuda and amp_dtype is not None) else contextlib.nullcontext()
            with sync_ctx:
                with amp:
                    logits = model(x)
                loss = F.cross_entropy(logits.float().reshape(-1, sh['vocab']), y.reshape(-1))
                loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    for _ in range(warmup):
        step()
    _sync(torch, cuda)
    if world > 1:
        dist.barrier()
    t0 = time.perf_counter()
    for _ in range(steps):
        step()
    _sync(torch, cuda)
    if world > 1:
        dist.barrier()
    el = (time.perf_counter() - t0) / steps
    tokens = world * sh['mbs'] * sh['seq'] * sh['accum']
    mem = torch.cuda.max_memory_allocated(dev) / 2 ** 30 if cuda else None
    return dict(n=world, step_s=el, tokens_per_step=tokens, tokens_per_s=tokens / el, params=params,
                max_memory_gib=mem)


def _worker(rank, world, cfg):
    import torch
    cuda = cfg['cuda']
    out = {'rank': rank, 'errors': []}
    if cuda:
        torch.cuda.set_device(rank)
        dev = torch.device('cuda', rank)
    else:
        dev = torch.device('cpu')
        torch.set_num_threads(max(1, cfg['threads'] // world))
    dist = None
    if world > 1 and ('allreduce' in cfg['phases'] or 'train' in cfg['phases']):
        import torch.distributed as dist
        dist.init_process_group('nccl' if cuda else 'gloo', init_method='file://' + cfg['rdzv'],
                                rank=rank, world_size=world)
    try:
        if 'matmul' in cfg['phases']:
            t0 = time.time()
            try:
                tf, el = _matmul(torch, dev, cuda, cfg['matmul_n'], cfg['matmul_seconds'], cfg['matmul_dtype'])
                out['matmul'] = dict(gpu=rank if cuda else None, tflops=tf, dtype=cfg['matmul_dtype_name'],
                                     n=cfg['matmul_n'], seconds=el)
            except Exception as err:  # noqa: BLE001 - reported in the JSON
                out['errors'].append('matmul: %s' % _one_line(err))
            out['matmul_window'] = [t0, time.time()]
        if 'allreduce' in cfg['phases'] and world > 1:
            try:
                out['allreduce'] = _allreduce(torch, dist, dev, cuda, cfg['allreduce_bytes'], cfg['allreduce_iters'], world)
            except Exception as err:  # noqa: BLE001
                out['errors'].append('allreduce n=%d: %s' % (world, _one_line(err)))
        if 'train' in cfg['phases']:
            t0 = time.time()
            try:
                out['train'] = _train(torch, dist, dev, cuda, cfg['shape'], cfg['steps'], cfg['warmup'], world,
                                      cfg['amp_dtype'])
            except Exception as err:  # noqa: BLE001
                msg = _one_line(err)
                if 'out of memory' in msg.lower():
                    msg = 'out of memory with %d layers; rerun with a smaller --layers or --mbs' % cfg['shape']['layers']
                out['errors'].append('train n=%d: %s' % (world, msg))
            out['train_window'] = [t0, time.time()]
    finally:
        if dist is not None:
            try:
                dist.destroy_process_group()
            except Exception:  # noqa: BLE001
                pass
    with open(os.path.join(cfg['tmp'], 'rank-%d-%d.json' % (world, rank)), 'w') as fh:
        json.dump(out, fh)


def _one_line(err):
    text = str(err).strip().splitlines()
    return '%s: %s' % (type(err).__name__, text[0] if text else '')


def _run_world(torch, world, cfg, phases, errors):
    import torch.multiprocessing as mp
    c = dict(cfg)
    c['phases'] = phases
    c['rdzv'] = os.path.join(cfg['tmp'], 'rdzv-%d-%s' % (world, '-'.join(phases)))
    for r in range(world):
        p = os.path.join(cfg['tmp'], 'rank-%d-%d.json' % (world, r))
        if os.path.exists(p):
            os.remove(p)
    try:
        if world == 1 and not cfg['cuda']:
            _worker(0, 1, c)  # no need for a second process (saves a PyTorch import on small CPU boxes)
        else:
            mp.spawn(_worker, args=(world, c), nprocs=world, join=True)
    except Exception as err:  # noqa: BLE001
        errors.append('n=%d %s: %s' % (world, '+'.join(phases), _one_line(err)))
    outs = []
    for r in range(world):
        try:
            with open(os.path.join(cfg['tmp'], 'rank-%d-%d.json' % (world, r))) as fh:
                outs.append(json.load(fh))
        except (OSError, ValueError):
            pass
    for o in outs:
        for e in o.get('errors', []):
            if e not in errors:
                errors.append(e)
    return outs


# ----------------------------------------------------------------------------------------- system info

def _nvidia_info(work):
    info = {'nvidia_smi': _read(os.path.join(work, 'nvidia-smi.txt')),
            'topo': _read(os.path.join(work, 'topo.txt')), 'driver': None, 'cuda': None, 'gpus': []}
    smi = info['nvidia_smi'] or ''
    m = re.search(r'Driver Version:\s*([0-9.]+)', smi)
    if m:
        info['driver'] = m.group(1)
    m = re.search(r'CUDA Version:\s*([0-9.]+)', smi)
    if m:
        info['cuda'] = m.group(1)
    for line in (_read(os.path.join(work, 'gpus.csv')) or '').splitlines():
        cols = [c.strip() for c in line.split(',')]
        if len(cols) < 5 or not cols[0].isdigit():
            continue
        g = {'index': int(cols[0]), 'name': cols[1], 'pci_bus_id': cols[3]}
        try:
            g['memory_gib'] = float(cols[2]) / 1024.0
        except ValueError:
            g['memory_gib'] = None
        info['driver'] = info['driver'] or cols[4]
        info['gpus'].append(g)
    return info


def _host_ram_gib():
    # the server's CPU memory (MemTotal in /proc/meminfo, kB = KiB; proc(5)): what CPU offload keeps its states in
    text = _read('/proc/meminfo') or ''
    m = re.search(r'^MemTotal:\s*([0-9]+)\s*kB', text, re.M)
    return int(m.group(1)) / 2.0 ** 20 if m else None


def _power(work, windows):
    # samples: "unix_time, index, power.draw [W], power.limit [W]" (nvidia-smi --query-gpu, nounits)
    text = _read(os.path.join(work, 'power.csv'))
    if not text:
        return [], None
    rows = []
    for line in text.splitlines():
        cols = [c.strip() for c in line.split(',')]
        if len(cols) < 4:
            continue
        try:
            ts, idx, draw = float(cols[0]), int(cols[1]), float(cols[2])
        except ValueError:
            continue
        try:
            lim = float(cols[3])
        except ValueError:
            lim = None
        rows.append((ts, idx, draw, lim))
    if not rows:
        return [], None
    loaded = [r for r in rows if any(a <= r[0] <= b for a, b in windows)]
    scope = 'load'
    if not loaded:
        loaded, scope = rows, 'whole run'
    out = []
    for idx in sorted({r[1] for r in rows}):
        mine = [r for r in loaded if r[1] == idx]
        if not mine:
            continue
        lims = [r[3] for r in mine if r[3] is not None]
        out.append({'gpu': idx, 'draw_w_mean': sum(r[2] for r in mine) / len(mine),
                    'draw_w_max': max(r[2] for r in mine), 'limit_w': max(lims) if lims else None,
                    'samples': len(mine)})
    return out, scope


# ----------------------------------------------------------------------------------------- main

def _rank_counts(wanted, cuda, max_ranks):
    """The rank counts to measure: --ranks, else 1, 2, 4, ... up to every GPU (and every GPU itself)."""
    if wanted:
        ranks = sorted({int(x) for x in wanted.split(',') if x.strip()})
    else:
        ranks, k = [], 1
        while k <= max_ranks:
            ranks.append(k)
            k *= 2
        if cuda and ranks and ranks[-1] != max_ranks:
            ranks.append(max_ranks)
    if cuda:
        ranks = [r for r in ranks if 1 <= r <= max_ranks]
    return ranks


def _shape_and_dtypes(torch, plan, args, tiny, cuda):
    """The layer shape to train (tiny on CPU, else fitted to the GPU's memory) with its autocast dtype, and the
    matmul dtype: bf16 where the GPU has it, else fp16; fp32 on CPU."""
    if tiny:
        shape = tiny_shape(plan)
        for key in ('layers', 'vocab', 'seq', 'mbs', 'accum'):
            if getattr(args, key):
                shape[key] = getattr(args, key)
    else:
        shape = fit_shape(plan, torch.cuda.get_device_properties(0).total_memory, args)
    prec = plan['shape'].get('precision', 'bf16')
    if cuda and prec in ('bf16', 'fp8') and torch.cuda.is_bf16_supported():
        amp, amp_name = torch.bfloat16, 'bf16'
    elif cuda and prec != 'fp32':
        amp, amp_name = torch.float16, 'fp16'
    else:
        amp, amp_name = None, 'fp32'
    shape['dtype'] = amp_name
    if cuda and torch.cuda.is_bf16_supported():
        mm_dtype, mm_name = torch.bfloat16, 'bf16'
    elif cuda:
        mm_dtype, mm_name = torch.float16, 'fp16'
    else:
        mm_dtype, mm_name = torch.float32, 'fp32'
    return shape, amp, mm_dtype, mm_name


def _run_benchmarks(torch, res, cfg, ranks, skip, world, cuda):
    """Run the phases, adding their rows to ``res``; returns the time windows the power samples average over."""
    windows = []
    # 1. matmul on every GPU at once (so the power samples see all GPUs loaded)
    if 'matmul' not in skip:
        print('kit: matmul %s n=%d on %d %s' % (cfg['matmul_dtype_name'], cfg['matmul_n'], world, 'GPU(s)' if cuda else 'CPU rank'), flush=True)
        for o in _run_world(torch, world, cfg, ['matmul'], res['errors']):
            if 'matmul' in o:
                res['matmul'].append(o['matmul'])
            if 'matmul_window' in o:
                windows.append(tuple(o['matmul_window']))
        res['matmul'].sort(key=lambda r: (r['gpu'] is None, r['gpu']))
    # 2. all-reduce bus bandwidth and training steps at each rank count
    for n in ranks:
        phases = [p for p in ('allreduce', 'train') if p not in skip and not (p == 'allreduce' and n == 1)]
        if not phases:
            continue
        print('kit: %s on %d rank(s)' % (' + '.join(phases), n), flush=True)
        outs = _run_world(torch, n, cfg, phases, res['errors'])
        r0 = [o for o in outs if o.get('rank') == 0]
        if r0 and 'allreduce' in r0[0]:
            res['allreduce'].append(r0[0]['allreduce'])
        if r0 and 'train' in r0[0]:
            res['train_step'].append(r0[0]['train'])
            if n == ranks[-1] and 'train_window' in r0[0]:
                windows.append(tuple(r0[0]['train_window']))
    return windows


def main(argv=None):
    args = _parse_args(sys.argv[1:] if argv is None else argv)
    with open(args.plan, encoding='utf-8') as fh:
        plan = json.load(fh)
    info = _nvidia_info(args.work)
    res = {
        'schema': SCHEMA, 'kit_version': KIT_VERSION,
        'created': datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds'),
        'host': socket.gethostname(), 'platform': platform.platform(), 'python': platform.python_version(),
        'plan': plan.get('plan'), 'gpus': info['gpus'], 'driver': info['driver'], 'cuda': info['cuda'],
        'nvidia_smi': info['nvidia_smi'], 'topo': info['topo'], 'cpu_count': os.cpu_count(),
        'host_ram_gib': _host_ram_gib(),
        'matmul': [], 'allreduce': [], 'train_step': [], 'power': [], 'errors': [],
    }

    def write():
        tmp = args.out + '.tmp'
        with open(tmp, 'w', encoding='utf-8') as fh:
            json.dump(res, fh, indent=1, sort_keys=True)
            fh.write('\n')
        os.replace(tmp, args.out)

    try:
        import torch
    except Exception as err:  # noqa: BLE001
        res['errors'].append('PyTorch is not importable by %s: %s' % (sys.executable, _one_line(err)))
        write()
        print('kit: PyTorch is not installed for %s; system info only was written to %s' % (sys.executable, args.out))
        return 3
    res['torch'] = torch.__version__
    cuda = torch.cuda.is_available() and not args.cpu
    if args.cpu is False and not cuda:
        print('kit: CUDA is not available; falling back to CPU + gloo with tiny sizes')
    tiny = args.tiny or not cuda
    res['mode'] = 'cuda' if cuda else 'cpu'
    res['backend'] = 'nccl' if cuda else 'gloo'
    res['tiny'] = tiny
    if cuda:
        res['cuda_runtime'] = torch.version.cuda
        ngpu = torch.cuda.device_count()
        if not res['gpus']:
            for i in range(ngpu):
                p = torch.cuda.get_device_properties(i)
                res['gpus'].append({'index': i, 'name': p.name, 'memory_gib': p.total_memory / 2 ** 30})
        max_ranks = ngpu
    else:
        max_ranks = 2
        if sys.platform.startswith('linux'):
            os.environ.setdefault('GLOO_SOCKET_IFNAME', 'lo')
        elif sys.platform == 'darwin':
            os.environ.setdefault('GLOO_SOCKET_IFNAME', 'lo0')
    ranks = _rank_counts(args.ranks, cuda, max_ranks)
    if not ranks:
        res['errors'].append('no usable rank counts')
        write()
        return 2

    shape, amp, mm_dtype, mm_name = _shape_and_dtypes(torch, plan, args, tiny, cuda)
    res['shape'] = shape
    import tempfile
    tmp = tempfile.mkdtemp(prefix='ranks-', dir=args.work)
    cfg = dict(
        cuda=cuda, tmp=tmp, threads=os.cpu_count() or 1, shape=shape, amp_dtype=amp,
        matmul_n=args.matmul_n or (256 if tiny else 8192), matmul_dtype=mm_dtype, matmul_dtype_name=mm_name,
        matmul_seconds=args.matmul_seconds if args.matmul_seconds is not None else (0.2 if tiny else 10.0),
        allreduce_bytes=int((args.allreduce_mb if args.allreduce_mb is not None else (1 if tiny else 256)) * 2 ** 20),
        allreduce_iters=args.allreduce_iters or (5 if tiny else 20),
        steps=args.steps or (2 if tiny else 10), warmup=args.warmup if args.warmup is not None else (1 if tiny else 3),
    )
    skip = {s.strip() for s in args.skip.split(',') if s.strip()}
    t_start = time.time()

    windows = _run_benchmarks(torch, res, cfg, ranks, skip, max_ranks if cuda else 1, cuda)
    res['seconds'] = time.time() - t_start
    res['power'], res['power_scope'] = _power(args.work, windows)
    write()
    print('kit: wrote %s%s' % (args.out, (' (%d error(s))' % len(res['errors'])) if res['errors'] else ''))
    return 0 if not res['errors'] else 1


if __name__ == '__main__':
    sys.exit(main())

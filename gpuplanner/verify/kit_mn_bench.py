# GPU Planner multi-node acceptance kit: benchmark part, run by torchrun on every node (written by kit.sh).
# Writes one JSON result on node 0, schema "gpuplanner-kit-multinode/1" (gpuplanner/verify/multinode.py).
#
# Definitions (nccl-tests doc/PERFORMANCE.md):
#   all-reduce  algbw = S / t, busbw = algbw * 2(n-1)/n   (S = bytes per rank)
#   all-gather  algbw = S / t, busbw = algbw * (n-1)/n     (S = bytes gathered per rank, i.e. the output)
# Groups measured: "intra" = the ranks of node 0 (NVLink / PCIe inside a node); "inter" = local rank 0 of every
# node (one GPU per node: the path through one NIC); "world" = every rank. The inter-node all-reduce is repeated
# --repeat times, --interval seconds apart, to show the variance of a shared fabric.
# Scaling: the planned layer shape at small width, trained with DDP on 1, 2, 4, ... GPUs of node 0 and on
# 1..N whole nodes. Operator probe: forward + backward of the same model in the planned precision on the device,
# every ATen operator recorded; an operator that fails on the device is retried on the CPU and listed, an
# operator whose inputs are on the device and outputs on the CPU is listed as a CPU fallback.
import argparse
import datetime
import json
import os
import re
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kit_bench  # noqa: E402  (written next to this file by kit.sh)

SCHEMA = 'gpuplanner-kit-multinode/1'


def _args(argv):
    ap = argparse.ArgumentParser(prog='kit.sh (multi-node)')
    ap.add_argument('--work', required=True)
    ap.add_argument('--plan', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--device', default='auto', choices=['auto', 'cuda', 'npu', 'cpu'])
    ap.add_argument('--sizes', default=None, help='message sizes in bytes, comma list (default 1M..1G, CPU: 64K..4M)')
    ap.add_argument('--iters', type=int, default=None)
    ap.add_argument('--repeat', type=int, default=None, help='repetitions of the inter-node measurement')
    ap.add_argument('--interval', type=float, default=None, help='seconds between repetitions')
    ap.add_argument('--steps', type=int, default=None)
    ap.add_argument('--skip', default='', help='comma list: collectives,scaling,probe')
    ap.add_argument('--probe-inject', action='store_true', help=argparse.SUPPRESS)
    return ap.parse_args(argv)


def _one_line(err):
    text = str(err).strip().splitlines()
    return '%s: %s' % (type(err).__name__, text[0][:200] if text else '')


# ------------------------------------------------------------------------------------------- device

def _device(torch, want):
    if want in ('auto', 'npu'):
        try:
            import torch_npu  # noqa: F401  (Ascend: registers the 'npu' device and HCCL)
            if torch.npu.is_available():
                return 'npu'
        except Exception:  # noqa: BLE001
            if want == 'npu':
                raise
    if want in ('auto', 'cuda') and torch.cuda.is_available():
        return 'cuda'  # NVIDIA (NCCL) and AMD ROCm builds of PyTorch (RCCL behind the same API)
    return 'cpu'


def _backend(kind):
    return {'cuda': 'nccl', 'npu': 'hccl', 'cpu': 'gloo'}[kind]


def _sync(torch, kind):
    if kind == 'cuda':
        torch.cuda.synchronize()
    elif kind == 'npu':
        torch.npu.synchronize()


# ------------------------------------------------------------------------------------------- collectives

def _time_op(torch, dist, kind, op, x, out, group, iters):
    def run():
        if op == 'all_reduce':
            dist.all_reduce(x, group=group)
        else:
            gather(out, x, group=group)
    gather = getattr(dist, 'all_gather_single', None) or dist.all_gather_into_tensor
    for _ in range(max(1, iters // 4)):
        run()
    _sync(torch, kind)
    dist.barrier(group=group)
    t0 = time.perf_counter()
    for _ in range(iters):
        run()
    _sync(torch, kind)
    return (time.perf_counter() - t0) / iters


def _measure(torch, dist, kind, dev, op, size, group, n, iters):
    """One collective on ``group`` (n ranks), size in bytes (all-reduce: per rank; all-gather: the output)."""
    elems = max(n, size // 4)
    if op == 'all_reduce':
        x, out = torch.ones(elems, dtype=torch.float32, device=dev), None
        nbytes = elems * 4
    else:
        per = max(1, elems // n)
        x = torch.ones(per, dtype=torch.float32, device=dev)
        out = torch.empty(per * n, dtype=torch.float32, device=dev)
        nbytes = per * n * 4
    t = _time_op(torch, dist, kind, op, x, out, group, iters)
    algbw = nbytes / t / 1e9
    factor = 2.0 * (n - 1) / n if op == 'all_reduce' else (n - 1) / float(n)
    return dict(op=op, n=n, size_bytes=nbytes, time_s=t, algbw_gbs=algbw, busbw_gbs=algbw * factor)


# ------------------------------------------------------------------------------------------- training

def _train(torch, dist, kind, dev, shape, steps, group, n, amp):
    import contextlib
    F = torch.nn.functional
    torch.manual_seed(1234)
    model = kit_bench.build_model(torch, shape).to(dev)
    if n > 1:
        from torch.nn.parallel import DistributedDataParallel as DDP
        model = DDP(model, device_ids=[dev.index] if kind != 'cpu' else None, process_group=group)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    ids = torch.randint(0, shape['vocab'], (shape['mbs'], shape['seq'] + 1), device=dev)
    x, y = ids[:, :-1], ids[:, 1:]

    def step():
        ctx = torch.autocast(kind, dtype=amp) if (amp is not None and kind != 'cpu') else contextlib.nullcontext()
        with ctx:
            logits = model(x)
        loss = F.cross_entropy(logits.float().reshape(-1, shape['vocab']), y.reshape(-1))
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    step()
    _sync(torch, kind)
    if n > 1:
        dist.barrier(group=group)
    t0 = time.perf_counter()
    for _ in range(steps):
        step()
    _sync(torch, kind)
    if n > 1:
        dist.barrier(group=group)
    el = (time.perf_counter() - t0) / steps
    tokens = n * shape['mbs'] * shape['seq']
    return dict(n=n, step_s=el, tokens_per_s=tokens / el)


# ------------------------------------------------------------------------------------------- operator probe

def probe_operators(torch, kind, dev, shape, amp, inject=False):
    """Forward + backward of the model on ``dev``; every ATen op recorded. Returns a dict with ``ops`` (count),
    ``failed`` [{op, error, cpu_retry}] and ``cpu_fallback`` [op]. ``inject`` adds an operator that has a kernel
    for no device at all (a test of the probe: it must be reported)."""
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_map

    seen, failed, fallback = set(), {}, set()

    def devs(tree):
        out = set()
        tree_map(lambda t: out.add(t.device.type) if isinstance(t, torch.Tensor) else None, tree)
        return out

    class Probe(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            name = str(func.overloadpacket.__name__) if hasattr(func, 'overloadpacket') else str(func)
            seen.add(name)
            try:
                out = func(*args, **kwargs)
            except Exception as err:  # noqa: BLE001 - the point of the probe
                to_cpu = lambda t: t.cpu() if isinstance(t, torch.Tensor) else t  # noqa: E731
                try:
                    res = func(*tree_map(to_cpu, args), **tree_map(to_cpu, kwargs))
                    failed.setdefault(name, {'op': name, 'error': _one_line(err), 'cpu_retry': 'ok'})
                    return tree_map(lambda t: t.to(dev) if isinstance(t, torch.Tensor) else t, res)
                except Exception as err2:  # noqa: BLE001
                    failed.setdefault(name, {'op': name, 'error': _one_line(err), 'cpu_retry': _one_line(err2)})
                    first = next((a for a in args if isinstance(a, torch.Tensor)), None)
                    if first is None:
                        raise
                    # a stand-in of the input's shape so the probe reaches the remaining operators
                    return torch.zeros_like(first)
            if kind != 'cpu' and kind in devs((args, kwargs)) and devs(out) == {'cpu'}:
                fallback.add(name)
            return out

    lib = None
    if inject:
        # an operator with a schema and no kernel for any backend: what an accelerator without that kernel shows
        lib = torch.library.Library('gpuplanner_probe', 'FRAGMENT')
        try:
            lib.define('unsupported_op(Tensor x) -> Tensor')
        except RuntimeError:
            pass
    model = kit_bench.build_model(torch, shape).to(dev)
    ids = torch.randint(0, shape['vocab'], (1, min(32, shape['seq']) + 1), device=dev)
    error = None
    import contextlib
    ctx = torch.autocast(kind, dtype=amp) if (amp is not None and kind != 'cpu') else contextlib.nullcontext()
    try:
        with Probe():
            with ctx:
                logits = model(ids[:, :-1])
                if inject:
                    logits = logits + torch.ops.gpuplanner_probe.unsupported_op(logits)
            loss = torch.nn.functional.cross_entropy(logits.float().reshape(-1, shape['vocab']), ids[:, 1:].reshape(-1))
            loss.backward()
    except Exception as err:  # noqa: BLE001
        error = _one_line(err)
    return dict(device=kind, dtype=str(amp).replace('torch.', '') if amp is not None else 'fp32', ops=len(seen),
                failed=sorted(failed.values(), key=lambda r: r['op']), cpu_fallback=sorted(fallback), error=error)


# ------------------------------------------------------------------------------------------- system info

def _read(path):
    try:
        with open(path, 'r', encoding='utf-8', errors='replace') as fh:
            return fh.read()[:400000]
    except OSError:
        return None


_TRANSPORT_RE = re.compile(r'NET/(IB|Socket|OFI|IBext\w*|AWS\w*)', re.I)


def _nccl_lines(work):
    """NCCL_DEBUG=INFO lines that name the transport (kit.sh sets NCCL_DEBUG_FILE=$WORK/nccl.<host>.<pid>.log)."""
    lines = []
    try:
        names = sorted(os.listdir(work))
    except OSError:
        return lines
    for name in names:
        if not name.startswith('nccl.'):
            continue
        for line in (_read(os.path.join(work, name)) or '').splitlines():
            if 'NET/' in line and ('Using' in line or 'via NET/' in line or 'Using network' in line):
                lines.append(line.strip()[:300])
                if len(lines) >= 40:
                    return lines
    return lines


def _transport(lines):
    kinds = set()
    for line in lines:
        for m in _TRANSPORT_RE.finditer(line):
            kinds.add('Socket' if m.group(1).lower() == 'socket' else 'IB' if m.group(1).upper().startswith('IB') else m.group(1))
    if not kinds:
        return None
    return 'Socket' if 'Socket' in kinds and len(kinds) == 1 else ('+'.join(sorted(kinds)) if len(kinds) > 1 else kinds.pop())


def _node_info(work, kind):
    info = {'host': socket.gethostname()}
    for key, fname in (('ibstat', 'ibstat.txt'), ('ibv_devinfo', 'ibv_devinfo.txt'), ('topo', 'topo.txt'),
                       ('smi_q', 'smi-q.txt'), ('npu_smi', 'npu-smi.txt'), ('rocm_smi', 'rocm-smi.txt')):
        info[key] = _read(os.path.join(work, fname))
    return info


def _groups(dist, nodes, local_world):
    """The process groups, created by every rank in the same order: each node's ranks, one rank per node,
    the first n GPUs of node 0 (n = 1, 2, 4, ... and all), the first j nodes."""
    node_ranks = [list(range(k * local_world, (k + 1) * local_world)) for k in range(nodes)]
    intra = [dist.new_group(r) for r in node_ranks]
    inter_ranks = [k * local_world for k in range(nodes)]
    inter = dist.new_group(inter_ranks)
    gpu_counts, k = [], 1
    while k <= local_world:
        gpu_counts.append(k)
        k *= 2
    if gpu_counts[-1] != local_world:
        gpu_counts.append(local_world)
    gpu_groups = {n: dist.new_group(list(range(n))) for n in gpu_counts if n > 1}
    node_groups = {j: dist.new_group(list(range(j * local_world))) for j in range(2, nodes + 1)}
    return intra, inter, inter_ranks, gpu_counts, gpu_groups, node_groups


def _collectives(torch, dist, kind, dev, plan_rows, rank, nodes, res, args, tiny):
    """All-reduce and all-gather at each size in each scope (one node, one rank per node, everyone); the
    inter-node all-reduce at the largest size is repeated (its spread shows a shared fabric)."""
    errors = res['errors']
    sizes = [int(s) for s in args.sizes.split(',')] if args.sizes else (
        [1 << 16, 1 << 20, 4 << 20] if tiny else [1 << 20, 16 << 20, 128 << 20, 1 << 30])
    iters = args.iters or (3 if tiny else 20)
    repeat = args.repeat or (2 if tiny else 5)
    interval = args.interval if args.interval is not None else (0.0 if tiny else 30.0)
    for scope, group, n, members in plan_rows:
        for op in ('all_reduce', 'all_gather'):
            for size in sizes:
                reps = repeat if (scope == 'inter' and op == 'all_reduce' and size == sizes[-1]) else 1
                for r in range(reps):
                    if r and interval:
                        time.sleep(interval)
                    row = None
                    try:
                        if scope == 'intra' or members is None or rank in members:
                            row = _measure(torch, dist, kind, dev, op, size, group, n, iters)
                    except Exception as err:  # noqa: BLE001
                        errors.append('%s %s %d B: %s' % (scope, op, size, _one_line(err)))
                    dist.barrier()
                    if rank == 0 and row is not None:
                        row.update(scope=scope, nodes=nodes if scope != 'intra' else 1, repeat=r)
                        res['collectives'].append(row)


def _scaling_shape(plan, tiny):
    """The planned model's layer at a small width (512, 8 heads, 4 layers; its KV heads and FFN ratio kept):
    the same on every rank count, so tokens/s compare."""
    shape = kit_bench.tiny_shape(plan) if tiny else dict(kit_bench.tiny_shape(plan), hidden=512, heads=8,
                                                                 head_dim=64, layers=4, vocab=8192, seq=1024, mbs=4)
    if not tiny:
        shape['kv_heads'] = max(1, min(8, shape['kv_heads'] * 2))
        while shape['heads'] % shape['kv_heads']:
            shape['kv_heads'] -= 1
        shape['ffn'] = max(64, int(round(512 * plan['shape']['ffn'] / float(plan['shape']['hidden']) / 64.0)) * 64)
    return shape


def _gather_and_write(dist, res, args, kind, node, local_rank, rank, world):
    """Each node's records (ports, topology, cards, NCCL transport) and every rank's errors, gathered to rank 0,
    which writes the result file."""
    errors = res['errors']
    mine = None
    if local_rank == 0:
        mine = _node_info(args.work, kind)
        mine['node'] = node
        mine['nccl'] = _nccl_lines(args.work)
        mine['transport'] = _transport(mine['nccl']) if kind == 'cuda' else None
    gathered = [None] * world
    try:
        dist.all_gather_object(gathered, mine)
    except Exception as err:  # noqa: BLE001
        errors.append('gather node info: %s' % _one_line(err))
        gathered = [mine]
    errs = [None] * world
    try:
        dist.all_gather_object(errs, errors)
    except Exception:  # noqa: BLE001
        errs = [errors]
    if rank == 0:
        res['hosts'] = sorted([g for g in gathered if g], key=lambda g: g['node'])
        res['errors'] = sorted({e for lst in errs if lst for e in lst})
        tmp = args.out + '.tmp'
        with open(tmp, 'w', encoding='utf-8') as fh:
            json.dump(res, fh, indent=1, sort_keys=True)
            fh.write('\n')
        os.replace(tmp, args.out)
        print('kit: wrote %s%s' % (args.out, (' (%d error(s))' % len(res['errors'])) if res['errors'] else ''), flush=True)


def _local_device(torch, kind, local_rank):
    """This rank's device: its GPU or NPU (made current), else the CPU with one thread per rank."""
    if kind == 'cuda':
        torch.cuda.set_device(local_rank)
        dev = torch.device('cuda', local_rank)
    elif kind == 'npu':
        torch.npu.set_device(local_rank)
        dev = torch.device('npu', local_rank)
    else:
        dev = torch.device('cpu')
        torch.set_num_threads(1)
    return dev


# ------------------------------------------------------------------------------------------- main

def main(argv=None):
    args = _args(sys.argv[1:] if argv is None else argv)
    import torch
    import torch.distributed as dist
    with open(args.plan, encoding='utf-8') as fh:
        plan = json.load(fh)
    rank = int(os.environ['RANK'])
    world = int(os.environ['WORLD_SIZE'])
    local_rank = int(os.environ.get('LOCAL_RANK', 0))
    local_world = int(os.environ.get('LOCAL_WORLD_SIZE', world))
    node = int(os.environ.get('GROUP_RANK', rank // local_world))
    nodes = world // local_world
    kind = _device(torch, args.device)
    dev = _local_device(torch, kind, local_rank)
    tiny = kind == 'cpu'
    dist.init_process_group(_backend(kind), timeout=datetime.timedelta(minutes=10))
    errors = []
    skip = {s.strip() for s in args.skip.split(',') if s.strip()}
    steps = args.steps or (2 if tiny else 10)

    # groups: every rank must create every group, in the same order
    intra, inter, inter_ranks, gpu_counts, gpu_groups, node_groups = _groups(dist, nodes, local_world)

    res = {'schema': SCHEMA, 'created': datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds'),
           'nodes': nodes, 'gpus_per_node': local_world, 'world': world, 'device': kind, 'backend': _backend(kind),
           'tiny': tiny, 'torch': torch.__version__, 'plan': plan.get('plan'), 'collectives': [], 'scaling': [],
           'hosts': [], 'probe': None, 'errors': errors}
    if kind == 'cuda':
        res['cuda_runtime'] = torch.version.cuda
        res['hip'] = getattr(torch.version, 'hip', None)

    # 1. collectives
    if 'collectives' not in skip:
        plan_rows = []
        if local_world > 1:
            plan_rows.append(('intra', intra[node], local_world, None))
        if nodes > 1:
            plan_rows.append(('inter', inter, nodes, inter_ranks))
        if world > 1:
            plan_rows.append(('world', None, world, None))
        _collectives(torch, dist, kind, dev, plan_rows, rank, nodes, res, args, tiny)

    # 2. scaling of the planned model at small width
    shape = _scaling_shape(plan, tiny)
    prec = (plan.get('shape') or {}).get('precision', 'bf16')
    amp = None if kind == 'cpu' or prec == 'fp32' else (torch.float16 if prec == 'fp16' else torch.bfloat16)
    res['shape'] = dict(shape, dtype=str(amp).replace('torch.', '') if amp is not None else 'fp32')
    if 'scaling' not in skip:
        configs = [('gpus', n, gpu_groups.get(n), list(range(n))) for n in gpu_counts]
        configs += [('nodes', j * local_world, node_groups[j], list(range(j * local_world))) for j in range(2, nodes + 1)]
        for scope, n, group, members in configs:
            row = None
            if rank in members:
                try:
                    row = _train(torch, dist, kind, dev, shape, steps, group, n, amp)
                except Exception as err:  # noqa: BLE001
                    errors.append('train %s n=%d: %s' % (scope, n, _one_line(err)))
            dist.barrier()
            if rank == 0 and row is not None:
                row.update(scope=scope, nodes=max(1, n // local_world) if scope == 'nodes' else 1)
                res['scaling'].append(row)

    # 3. operator probe (rank 0, on the device)
    if rank == 0 and 'probe' not in skip:
        try:
            res['probe'] = probe_operators(torch, kind, dev, kit_bench.tiny_shape(plan), amp, inject=args.probe_inject)
        except Exception as err:  # noqa: BLE001
            errors.append('probe: %s' % _one_line(err))

    # 4. per-node records, gathered to rank 0
    _gather_and_write(dist, res, args, kind, node, local_rank, rank, world)
    dist.barrier()
    dist.destroy_process_group()
    return 0


if __name__ == '__main__':
    sys.exit(main())

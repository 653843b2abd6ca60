"""Issue 35, round 15 (h20dec15): why batch-1 decode on the H20 is predicted 35-44% too fast (serving).
Run: ``python bench/validate_serve_h20dec15.py`` (from the repository root or bench/).

What is scored (no new published row; the held H20 engine rows, before and after this round's change):
(Q) servoos14's 36 rows of the Qwen3 speed benchmark (QwenLM/Qwen2.5 ``docs/source/getting_started/
    speed_benchmark.md`` @ac72724: SGLang 0.4.6.post1, H20 96GB, batch 1, 2,048 generated tokens, speed = (prompt +
    generated tokens) / time), the BF16 rows as the presets and the FP8 rows as what they are, 128 x 128
    block-scaled checkpoints (``weight_block_size`` in Qwen3-*-FP8's config.json: what the planner serves when the user
    imports that config; fp8block14's ``block_checkpoints``).
(D) h20serve14's DeepSeek-V3-0324 on 8x H20 (sgl-project/sglang PR #7631; block-scaled FP8), median and mean ITL.
``before``: the planner with :data:`inference.BLOCK_FP8_TILE_ROWS` emptied (main before this round); ``after``: as is.

The diagnosis table (``dense_sizes()``) reads the same benchmark's dense SGLang rows at a 1-token prompt (a decode-only
request: step = 2,049 / speed / 2,048 s) for every dense Qwen3 size and three weight formats, with each model's linear
weights from its public config.json (huggingface.co/Qwen/Qwen3-{0.6B,1.7B,4B,8B,14B,32B}/config.json: hidden,
layers, heads, KV heads, head_dim 128, intermediate, vocab 151,936, tied embeddings for 0.6B-4B). It is what rules
a per-card bandwidth share out: a bandwidth-bound step scales with the BYTES, so AWQ-INT4 (0.5 byte a weight) would
run near half the FP8 step, and it does not (ratio 0.97-1.04 from 4B to 32B).
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gpuplanner.core import inference as inf  # noqa: E402
import validate_serve_fp8block14 as b14  # noqa: E402
import validate_serve_h20_14 as h14  # noqa: E402
import validate_serve_oos14 as s14  # noqa: E402
from validate_serve_oos10 import summary  # noqa: E402

#: (Q)'s dense SGLang rows at a 1-token prompt, tokens/s: {size: (BF16, FP8, AWQ-INT4 or None)} (speed_benchmark.md
#: @ac72724; 0.6B and 1.7B list GPTQ-Int8 instead of AWQ-INT4)
DENSE_SPEED = {"0.6B": (414.17, 458.03, None), "1.7B": (227.80, 333.90, None), "4B": (133.13, 200.61, 199.71),
               "8B": (81.73, 150.25, 144.11), "14B": (47.10, 97.11, 96.49), "32B": (20.72, 46.17, 47.67)}
#: public config.json: (hidden, layers, heads, kv heads, intermediate, tied)
QWEN3_DENSE = {"0.6B": (1024, 28, 16, 8, 3072, True), "1.7B": (2048, 28, 16, 8, 6144, True),
               "4B": (2560, 36, 32, 8, 9728, True), "8B": (4096, 36, 32, 8, 12288, False),
               "14B": (5120, 40, 40, 8, 17408, False), "32B": (5120, 64, 64, 8, 25600, False)}
VOCAB, HEAD_DIM = 151936, 128


@contextlib.contextmanager
def mechanism(on=True):
    """This round's change on (as committed) or off (``BLOCK_FP8_TILE_ROWS`` emptied: main before it)."""
    keep = dict(inf.BLOCK_FP8_TILE_ROWS)
    if not on:
        inf.BLOCK_FP8_TILE_ROWS.clear()
    try:
        yield
    finally:
        inf.BLOCK_FP8_TILE_ROWS.clear()
        inf.BLOCK_FP8_TILE_ROWS.update(keep)


def q_scored():
    """{label: (published, predicted before, predicted after)} for (Q)'s 36 rows, FP8 as block-scaled checkpoints."""
    out = {}
    for on in (False, True):
        with mechanism(on):
            rows = [r for r in s14.scored() if "BF16" in r[2]]
            with b14.block_checkpoints(True):
                rows += [r for r in s14.scored() if "FP8" in r[2]]
        for _, _, label, meas, got, _ in rows:
            out.setdefault(label, [meas])[1:] = out.get(label, [meas])[1:] + [got]
    return {k: tuple(v) for k, v in out.items()}


def d_scored():
    """{label: (published ms, predicted before, predicted after)} for (D)'s ITL rows (block-scaled DeepSeek-V3)."""
    keep = h14.model
    h14.model = lambda preset: dataclasses.replace(keep(preset), block_scaled=True)
    try:
        got = {}
        for on in (False, True):
            with mechanism(on):
                for _, _, label, meas, pred in h14.d_scored()[:2]:
                    got.setdefault(label, [meas]).append(pred)
    finally:
        h14.model = keep
    return {k: tuple(v) for k, v in got.items()}


def linear_params(size):
    """Weights a decode step multiplies for a dense Qwen3 size: the layers' linears and the LM head."""
    h, layers, heads, kv, inter, _ = QWEN3_DENSE[size]
    q, k = heads * HEAD_DIM, kv * HEAD_DIM
    return layers * (h * q + 2 * h * k + q * h + 3 * h * inter) + VOCAB * h


def dense_sizes():
    """[(size, linear params, BF16 ms, FP8 ms, INT4 ms or None, BF16 TB/s, FP8/BF16, INT4/FP8)]: the implied step of
    each 1-token row, the BF16 weight stream rate it implies, and the format ratios (see the module docstring)."""
    out = []
    for size, (bf, f8, i4) in DENSE_SPEED.items():
        p = linear_params(size)
        ms = [None if v is None else 2049.0 / v / 2048.0 * 1e3 for v in (bf, f8, i4)]
        int4 = None if ms[2] is None else ms[2] / ms[1]
        out.append((size, p, *ms, 2.0 * p / (ms[0] * 1e-3) / 1e12, ms[1] / ms[0], int4))
    return out


def qwen3_dense(size, block=False):
    """A dense Qwen3 size as the planner's ServingModel, from its public config (:data:`QWEN3_DENSE`): the linears, the
    vocabulary table (tied for 0.6B-4B: the LM head is the embedding) and the norms left out (0.3 M on 8B)."""
    h, layers, heads, kv, inter, tied = QWEN3_DENSE[size]
    table = VOCAB * h
    lin = linear_params(size) - table
    total = lin + table * (1 if tied else 2)
    return inf.ServingModel(name=f"qwen3-{size.lower()}", params_total=total, params_active=total, num_layers=layers,
                            num_heads=heads, num_kv_heads=kv, head_dim=HEAD_DIM, hidden_size=h, ffn_size=inter,
                            vocab_size=VOCAB, input_embedding=0.0 if tied else table, lm_head=table,
                            block_scaled=block)


def dense_steps():
    """{(size, format): (published ms, predicted before, after)}: each dense size's 1-token row as a decode step on one
    H20 (SGLang; BF16, and FP8 as the block-scaled checkpoint), over the request's mean context (1 + 1,024 tokens)."""
    from gpuplanner.core.catalog_hw import get_gpu
    gpu, out = get_gpu(s14.GPU), {}
    for size, (bf, f8, _) in DENSE_SPEED.items():
        for prec, speed in (("bf16", bf), ("fp8", f8)):
            m = qwen3_dense(size, block=prec == "fp8")
            got = []
            for on in (False, True):
                with mechanism(on):
                    got.append(inf.decode_step_s(
                        m, gpu, precision=prec, kv_bytes=inf.KV_BYTES[s14.KV], batch=1, context=1 + 1024, tp=1,
                        eff=inf.ServingEfficiency(), loop=inf.ENGINE_LOOP["sglang"],
                        tile_rows=inf.dense_tile_rows("sglang", gpu, prec, m),
                        pad_rows=inf.block_tile_rows("sglang", gpu, prec, m))[0] * 1e3)
            out[(size, prec)] = (2049.0 / speed / 2048.0 * 1e3, *got)
    return out


def _err(meas, got):
    return meas / got - 1.0


def main():
    q, d = q_scored(), d_scored()
    print("## H20 engine rows before / after (published / predicted - 1)\n")
    print("| row | published | before | after |")
    print("|---|---|---|---|")
    for label, (meas, before, after) in list(q.items()) + list(d.items()):
        print(f"| {label} | {meas:,.2f} | {before:,.2f} ({_err(meas, before):+.1%}) | {after:,.2f} "
              f"({_err(meas, after):+.1%}) |")
    print()
    for name, sel in (("(Q) all 36", lambda k: True), ("(Q) BF16", lambda k: "BF16" in k),
                      ("(Q) FP8 (block-scaled)", lambda k: "FP8" in k), ("(Q) qwen3-8b", lambda k: "qwen3-8b " in k),
                      ("(Q) MoE", lambda k: "a3b" in k or "a22b" in k)):
        for i, when in ((1, "before"), (2, "after")):
            errs = [(abs(_err(v[0], v[i])), _err(v[0], v[i])) for k, v in q.items() if sel(k)]
            print(summary(f"{name} {when}", errs))
    for i, when in ((1, "before"), (2, "after")):
        print(summary(f"(D) ITL {when}", [(abs(_err(v[0], v[i])), _err(v[0], v[i])) for v in d.values()]))
    steps = dense_steps()
    print("\n## Dense Qwen3 sizes, 1-token prompt: the decode step (ms), published (2,049 / speed / 2,048) vs planner\n")
    print("| size | format | published | before | after |")
    print("|---|---|---|---|---|")
    for (size, prec), (meas, before, after) in steps.items():
        print(f"| {size} | {prec.upper()} | {meas:.2f} | {before:.2f} ({_err(meas, before):+.1%}) | {after:.2f} "
              f"({_err(meas, after):+.1%}) |")
    print()
    for prec in ("bf16", "fp8"):
        for i, when in ((1, "before"), (2, "after")):
            errs = [(abs(_err(v[0], v[i])), _err(v[0], v[i])) for k, v in steps.items() if k[1] == prec]
            print(summary(f"dense steps {prec.upper()} (6 sizes) {when}", errs))
    print("\n## Dense Qwen3, SGLang 0.4.6, H20, 1-token prompt: the implied decode step by weight format\n")
    print("| size | linear weights | BF16 ms | FP8 ms | AWQ-INT4 ms | BF16 weight rate TB/s | FP8/BF16 | INT4/FP8 |")
    print("|---|---|---|---|---|---|---|---|")
    for size, p, bf, f8, i4, rate, r1, r2 in dense_sizes():
        print(f"| {size} | {p / 1e9:.2f} B | {bf:.2f} | {f8:.2f} | {'-' if i4 is None else f'{i4:.2f}'} | {rate:.2f} "
              f"| {r1:.2f} | {'-' if r2 is None else f'{r2:.2f}'} |")


if __name__ == "__main__":
    main()

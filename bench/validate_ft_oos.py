"""Out-of-sample fine-tuning step times: published figures not used by the other ft benches (a check, not fitted).

Usage: python bench/validate_ft_oos.py

Source: modelscope/ms-swift ``docs/source_en/LLM/Benchmark.md`` at commit 4692215 (the memory half of the same
tables is in ``bench/validate_ft_tools.py``; its speed half was left out there because the kept samples' lengths
are not published). Settings, as the page states: ``swift sft`` on one A100, torch 2.1.1, flash_attn 2.3.4,
bitsandbytes 0.41.3.post2, dataset cls-fudan-news-zh, and unless a row says otherwise ``--max_length 2048
--batch_size 1 --gradient_checkpointing true --use_flash_attn true --lora_rank 8 --lora_target_modules DEFAULT
--gradient_accumulation_steps 16``. The script is ``scripts/benchmark/test_memory_time/run_single.py`` (ms-swift
97e4d198b): the figure is the HF Trainer's ``train_samples_per_second`` of one whole run (1,000 samples when
``max_length`` > 2048, else the whole data set).

How a row is entered: each row is the scenario a user would type (``framework: ms-swift``, the model, LoRA
settings, ``seq_len`` = one sample's tokens, batch 1 × 16). The page gives the data set's token statistics
(Qwen tokenizer): mean 3234.4, standard deviation 2547.5, min 91, max 19548. Samples longer than ``max_length``
are dropped (ms-swift v1 ``truncation_strategy`` ``delete``). ASSUMED: the lengths are log-normal with that mean
and deviation; a row's predicted samples/s is 1 / E[time of one micro-batch] over the kept lengths, taken at the
mid-quantiles of ``BINS`` equal-probability bins of the log-normal cut to [91, max_length]. Batch 1 has no padding.

Two views:

* absolute samples/s (``abs``): depends on the length assumption above, so it is shown with that caveat;
* ratios between rows of the same page that share the data and max_length (``ratio``): the length assumption
  mostly cancels, so these test one mechanism each (bnb 4-bit against bf16 LoRA, checkpointing off, eager
  attention, all-linear targets, rank 64).

Error: predicted / published − 1 (+ = predicted too fast), as the other ft benches.
"""

from __future__ import annotations

import math
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import validate_ft_tools as vft  # noqa: E402

SRC = "modelscope/ms-swift docs/source_en/LLM/Benchmark.md @4692215"
MEAN, SD, MIN_LEN = 3234.4, 2547.5, 91
BINS = 6
ACCUM = 16


@dataclass(frozen=True)
class Row:
    id: str
    section: str
    published: float  # samples/s
    model: dict
    training: dict = field(default_factory=dict)
    max_length: int = 2048
    fused_qkv: bool = False
    note: str = ""


def _lognormal():
    s2 = math.log(1.0 + (SD / MEAN) ** 2)
    return math.log(MEAN) - s2 / 2.0, math.sqrt(s2)


def kept_lengths(max_length: int, bins: int = BINS) -> list[int]:
    """Mid-quantile lengths of the log-normal (published mean/sd) cut to [MIN_LEN, max_length] (ASSUMED shape)."""
    from statistics import NormalDist

    mu, sig = _lognormal()
    nd = NormalDist()
    lo = nd.cdf((math.log(MIN_LEN) - mu) / sig)
    hi = nd.cdf((math.log(max_length) - mu) / sig)
    return [max(MIN_LEN, min(max_length, round(math.exp(mu + sig * nd.inv_cdf(lo + (hi - lo) * (i + 0.5) / bins)))))
            for i in range(bins)]


YI_34B = {"preset": "yi-34b"}
CHATGLM3_6B = {"preset": "glm-4-9b", "name": "ChatGLM3-6B", "num_hidden_layers": 28, "vocab_size": 65024}
MISTRAL_7B = {"preset": "mistral-7b-v0.1", "name": "openbuddy-zephyr-7b (Mistral 7B)"}
BAICHUAN2_7B = {"preset": "baichuan2-7b"}
LENGTHS = (512, 1024, 2048, 4096, 8192)
MAXLEN_LORA = {  # "Model Type & Max Length" / LoRA, samples/s at 512 … 8192 (None: 2×A100 or OOM)
    "qwen-1.8b": (vft._qwen_model("1.8B"), True, (9.88, 9.90, 8.77, 5.92, 4.19)),
    "qwen-7b": (vft._qwen_model("7B"), True, (7.43, 6.51, 4.31, 2.05, 1.34)),
    "qwen-14b": (vft._qwen_model("14B"), True, (5.63, 4.36, 2.60, 1.17, 0.79)),
    "chatglm3-6b": (CHATGLM3_6B, True, (6.72, 6.16, 4.20, 1.92, 1.24)),
    "yi-6b": (vft.YI_6B, False, (5.27, 5.07, 3.84, 1.99, 1.35)),
    "yi-34b": (YI_34B, False, (2.32, 1.76, 1.05, 0.47, None)),
    "mistral-7b": (MISTRAL_7B, False, (5.17, 3.92, 3.08, 1.85, 0.92)),
    "baichuan2-7b": (BAICHUAN2_7B, True, (6.09, 5.36, 3.43, 1.69, 1.16)),
}
#: (id, samples/s, training overrides, note) — Qwen-7B-Chat at max_length 2048; the default row is 4.31
QWEN7_VARIANTS = [
    ("int4-bnb", 2.41, dict(method="qlora"), "Quantization: int4 (bnb), bitsandbytes NF4 QLoRA"),
    ("nogc", 6.19, dict(recompute="none"), "gradient_checkpointing false"),
    ("noflash", 3.13, dict(flash_attention=False), "use_flash_attn false: Qwen's own eager attention"),
    ("noflash-nogc", 4.45, dict(flash_attention=False, recompute="none"), "both off"),
    ("r2", 4.27, dict(lora_rank=2), "lora_rank 2, c_attn"),
    ("r64", 4.19, dict(lora_rank=64), "lora_rank 64, c_attn"),
    ("all-r8", 3.22, dict(lora_targets="all_linear"), "lora_target_modules ALL"),
]
QWEN14_BNB = 1.36  # Quantization: qwen-14b-chat int4 (bnb); its bf16 row is 2.60


def rows() -> list[Row]:
    out = []
    for name, (model, fused, sps) in MAXLEN_LORA.items():
        for L, v in zip(LENGTHS, sps):
            if v is not None:
                out.append(Row(f"{name}-lora-{L}", "maxlen", v, model, {}, L, fused))
    q7 = vft._qwen_model("7B")
    for vid, v, kw, note in QWEN7_VARIANTS:
        out.append(Row(f"qwen-7b-{vid}", "variant", v, q7, kw, 2048, True, note))
    out.append(Row("qwen-14b-int4-bnb", "variant", QWEN14_BNB, vft._qwen_model("14B"), dict(method="qlora"), 2048,
                   True, "Quantization: int4 (bnb)"))
    return out


#: ratio rows: (id, numerator row id, denominator row id)
RATIOS = [(f"qwen-7b-{v[0]} / default", f"qwen-7b-{v[0]}", "qwen-7b-lora-2048") for v in QWEN7_VARIANTS] + [
    ("qwen-14b-int4-bnb / default", "qwen-14b-int4-bnb", "qwen-14b-lora-2048"),
    ("qwen-7b 512 / 2048", "qwen-7b-lora-512", "qwen-7b-lora-2048"),
    ("qwen-1.8b 8192 / 2048", "qwen-1.8b-lora-8192", "qwen-1.8b-lora-2048"),
    ("qwen-14b / qwen-7b at 2048", "qwen-14b-lora-2048", "qwen-7b-lora-2048"),
    ("qwen-7b / qwen-1.8b at 512", "qwen-7b-lora-512", "qwen-1.8b-lora-512"),
]


# ------------------------------------------------------------- LLaMA-Factory wiki short table (via Unsloth README)
LFS_SRC = ("unslothai/unsloth README.md @0a2c397393 'Llama-Factory 3rd party benchmarking' (added 28c7550571, "
           "2023-12-28), quoting hiyouga/LLaMA-Factory wiki 'Performance comparison'")
#: (id, framework, bits, flash, TGS): LLaMA2-7B, one A100, batch 4, gradient accumulation 2, LoRA rank 8, max length 1024
LFS_ROWS = [("hf-16", "llamafactory", 16, False, 2392), ("hf-fa2-16", "llamafactory", 16, True, 2954),
            ("unsloth-fa2-16", "unsloth", 16, True, 4007), ("hf-4", "llamafactory", 4, False, 2415),
            ("unsloth-fa2-4", "unsloth", 4, True, 3726)]
LFS_ASSUMED = ("every sample fills the 1024 tokens (TGS counts them)", "A100 40GB (the wiki's long-context table's "
               "card)", "LoRA on q_proj and v_proj (LLaMA-Factory's default lora_target for LLaMA in Dec 2023) -> "
               "lora_targets attention (adds k, o: r 8, small)", "'HF' without FA2: transformers' eager attention",
               "LLaMA-Factory's gradient checkpointing on; Unsloth without Cut Cross-Entropy (Dec 2023)", "bf16, AdamW")


def lfs_predict(fw: str, bits: int, flash: bool) -> float:
    t = {"framework": fw, "method": "qlora" if bits == 4 else "lora", "lora_rank": 8, "lora_targets": "attention",
         "seq_len": 1024, "micro_batch_size": 4, "global_batch_size": 8, "flash_attention": flash}
    if fw == "unsloth":
        t["cut_cross_entropy"] = False
    return vft.predict(vft.Row("lfs", "oos", "tps", 0.0, {"preset": "llama-2-7b"}, t, gpu="a100-sxm-40gb"))


def lfs_results():
    return [(rid, fw, bits, flash, pub, lfs_predict(fw, bits, flash)) for rid, fw, bits, flash, pub in LFS_ROWS]


def micro_batch_s(row: Row, seq: int) -> float:
    t = vft._swift_train(seq_len=seq, **row.training)
    r = vft.Row(row.id, "oos", "step", 0.0, row.model, t, fused_qkv=row.fused_qkv)
    return vft.predict(r) / ACCUM


def predict(row: Row) -> float:
    """Predicted samples/s: 1 / mean micro-batch time over the kept lengths."""
    return 1.0 / statistics.fmean(micro_batch_s(row, L) for L in kept_lengths(row.max_length))


def _pct(v, q):
    return vft._pct(v, q)


def results():
    res = {r.id: (r, predict(r)) for r in rows()}
    return res


def ratio_results(res):
    out = []
    for rid, num, den in RATIOS:
        pub = res[num][0].published / res[den][0].published
        pred = res[num][1] / res[den][1]
        out.append((rid, pub, pred, pred / pub - 1.0))
    return out


def table(res=None) -> list[str]:
    res = res or results()
    lines = ["| row | kept lengths (ASSUMED) | published samples/s | predicted | error |", "|---|---|---:|---:|---:|"]
    for rid, (r, p) in res.items():
        ks = kept_lengths(r.max_length)
        lines.append(f"| {rid} | {ks[0]}…{ks[-1]} | {r.published:.2f} | {p:.2f} | {p / r.published - 1:+.1%} |")
    errs = [abs(p / r.published - 1) for r, p in res.values()]
    lines.append(f"\nabsolute rows: {len(errs)}, median |error| {statistics.median(errs):.1%}, "
                 f"p90 {_pct(errs, 0.9):.1%}")
    lines += ["", "| ratio (same data, same max_length) | published | predicted | error |", "|---|---:|---:|---:|"]
    rr = ratio_results(res)
    for rid, pub, pred, e in rr:
        lines.append(f"| {rid} | {pub:.3f} | {pred:.3f} | {e:+.1%} |")
    re_ = [abs(e) for *_, e in rr]
    lines.append(f"\nratio rows: {len(re_)}, median |error| {statistics.median(re_):.1%}, p90 {_pct(re_, 0.9):.1%}")
    lines += ["", "QLoRA's added time per sample (1 / bnb samples/s − 1 / bf16 samples/s; the length assumption "
              "cancels to first order):", "", "| pair | published ms | predicted ms | error |", "|---|---:|---:|---:|"]
    for q, b in (("qwen-7b-int4-bnb", "qwen-7b-lora-2048"), ("qwen-14b-int4-bnb", "qwen-14b-lora-2048")):
        pub = 1e3 * (1 / res[q][0].published - 1 / res[b][0].published)
        pred = 1e3 * (1 / res[q][1] - 1 / res[b][1])
        lines.append(f"| {q} − {b} | {pub:.0f} | {pred:.0f} | {pred / pub - 1:+.1%} |")
    lines += ["", f"LLaMA-Factory wiki short table ({LFS_SRC}): tokens per GPU per second", "",
              "| run | published | predicted | error |", "|---|---:|---:|---:|"]
    lf = lfs_results()
    for rid, fw, bits, flash, pub, pred in lf:
        lines.append(f"| {rid} ({fw}, {bits}-bit{', FA2' if flash else ''}) | {pub} | {pred:.0f} | {pred / pub - 1:+.1%} |")
    by = {r[0]: r for r in lf}
    for q, b in (("unsloth-fa2-4", "unsloth-fa2-16"), ("hf-4", "hf-16")):
        pub = 4096e3 * (1 / by[q][4] - 1 / by[b][4])
        pred = 4096e3 * (1 / by[q][5] - 1 / by[b][5])
        lines.append(f"| added ms per micro-batch, {q} − {b} | {pub:.0f} | {pred:.0f} | {pred - pub:+.0f} ms |")
    for a in LFS_ASSUMED:
        lines.append(f"ASSUMED lf-short: {a}")
    lines.append(f"ASSUMED ms-swift: log-normal lengths, mean {MEAN}, sd {SD}, cut to [{MIN_LEN}, max_length]")
    return lines


def main() -> int:
    print(f"Source: {SRC}")
    print("\n".join(table()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

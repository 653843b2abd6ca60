"""Published CPU-offload (ZeRO-Offload) step times next to the model's offload part (a sanity table: nothing fitted).

Usage: python bench/offload_step_times.py

Each row names what was published, the configuration the source gives, and what the model is run with where the
source is silent (``ASSUMED``). ``pred`` is the model's ``optimizer_offload`` part of the step (seconds: the CPU
optimizer step and the PCIe copies that do not hide, :func:`gpuplanner.core.timing.offload_seconds`); ``band`` is
what the published figure allows for it. ``counted`` rows are checked by tests/test_mechanics_offload.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

ZENFLOW = "deepspeedai/DeepSpeed blogs/deepspeed-zenflow/README.md ('Offloading-Induced GPU Stalls')"
PR7474 = "deepspeedai/DeepSpeed PR #7474 (docs/_tutorials/zero-offload.md, --bind_cores_to_rank)"

QWEN25_3B = {  # Qwen/Qwen2.5-3B config.json
    "name": "Qwen2.5 3B", "hidden_size": 2048, "num_hidden_layers": 36, "num_attention_heads": 16,
    "num_key_value_heads": 2, "intermediate_size": 11008, "vocab_size": 151936, "tie_word_embeddings": True,
}


def _ds(model, gpu, n, zero=2, mbs=1, seq=2048):
    return {"model": model if isinstance(model, dict) else {"preset": model},
            "training": {"method": "full", "framework": "deepspeed", "seq_len": seq, "micro_batch_size": mbs,
                         "recompute": "full"},
            "parallel": {"zero": zero, "offload_optimizer": True}, "hardware": {"gpu": gpu, "num_gpus": n}}


ZERO_OFFLOAD = ("Ren et al. 2021, ZeRO-Offload (arXiv:2101.06840) abstract: '40 TFlops/GPU on a single NVIDIA V100 "
                "GPU for 10B parameter model'; setup from DeepSpeed docs/_tutorials/zero-offload.md (50 layers, hidden "
                "4096, 32 heads, batch-size 10, checkpoint-activations, ZeRO-2 + offload_optimizer cpu)")
GPT2_10B = {"preset": "gpt2-xl", "name": "GPT-2 10B (ZeRO-Offload tutorial)", "hidden_size": 4096,
            "num_hidden_layers": 50, "num_attention_heads": 32, "num_key_value_heads": 32, "intermediate_size": 16384}

#: (id, source, scenario, published statement, band it allows, counted); the band is for the offload part (s),
#: or, for rows whose id ends in "tflops", for the predicted TFLOP/s per GPU (hardware FLOPs: recompute counted,
#: as Megatron's eq. 3 that the ZeRO papers use)
ROWS = [
    ("zero-offload gpt2-10b 1xv100 tflops", ZERO_OFFLOAD,
     {**_ds(GPT2_10B, "v100-sxm-32gb", 1, mbs=10, seq=1024), "training": {
         "method": "pretrain", "framework": "deepspeed", "seq_len": 1024, "micro_batch_size": 10,
         "recompute": "full", "precision": "fp16"}},
     "40 TFLOP/s per GPU (ASSUMED sequence 1024, the Megatron GPT-2 default; no accumulation)", (30.0, 50.0), True),
    ("zenflow llama-2-7b 4xa100 cpu path", ZENFLOW, _ds("llama-2-7b", "a100-sxm-80gb", 4),
     "'the CPU path can take longer than 4s' (CPU update + parameter upload; ASSUMED ZeRO-2, one host)",
     (4.0, 7.0), True),
    ("zenflow llama-2-7b 4xa100 step inflation", ZENFLOW, _ds("llama-2-7b", "a100-sxm-80gb", 4),
     "'inflate each step from 0.5s to over 7s': offload adds > 6.5 s (the same blog's CPU path: > 4 s)",
     (6.5, 20.0), False),
    ("pr7474 qwen2.5-3b 2xa100-40gb", PR7474, _ds(QWEN25_3B, "a100-sxm-40gb", 2),
     "2383 ms per step with --bind_cores_to_rank (3084 without), 128-core host; 'significant time is spent on "
     "CPUAdam': the offload part is over half the step and below it (batch not given: ASSUMED micro-batch 1)",
     (0.5 * 2.383, 2.383), True),
]


def table() -> list[dict]:
    out = []
    for rid, src, scn, pub, band, counted in ROWS:
        t = estimate(scenario_from_dict(scn)).time
        pred = t.parts.get("optimizer_offload", 0.0)
        if rid.endswith("tflops"):
            pred = t.tokens_per_s_per_gpu * t.hardware_flops_per_token / 1e12
        out.append({"id": rid, "source": src, "pub": pub, "band": band, "counted": counted, "pred": pred,
                    "step": t.step_time_s, "offload": t.parts.get("optimizer_offload", 0.0)})
    return out


def main() -> None:
    for line in markdown():
        print(line)


def markdown() -> list[str]:
    out = ["| run | published | allowed | predicted | offload part / step (s) | in band | counted |",
           "|---|---|---|---|---|---|---|"]
    for r in table():
        lo, hi = r["band"]
        ok = lo <= r["pred"] <= hi
        unit = " TFLOP/s" if r["id"].endswith("tflops") else " s"
        out.append(f"| {r['id']} | {r['pub']} | {lo:.2f}–{hi:.2f}{unit} | {r['pred']:.2f}{unit} | "
                   f"{r['offload']:.2f} / {r['step']:.2f} | {'yes' if ok else 'no'} | {'yes' if r['counted'] else 'no'} |")
    return out


if __name__ == "__main__":
    main()

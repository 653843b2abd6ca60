"""Out-of-sample fine-tuning step time and peak memory, round 12: published rows no other bench holds (not fitted).

Usage: python bench/validate_ft_oos12.py [--before FILE] [--write-before FILE]

Before entering a source I grepped ``bench/``, ``tests/``, ``docs/`` and ``shared/reference`` for its figures
(3155, 2582, 2768, 702, 1388, 3384, 2032) and its commit: none was held. ``bench/validate_time.py`` and
``bench/validate_memory.py`` hold the LATER torchtune README tables (Llama 3.1, 30b8519e; Llama 3.2 3B, 1814feb1);
this is the table they replaced.

* ``tt-readme-2024-05`` -- pytorch/torchtune ``README.md`` at 0217d44c2 (PR #955, 2024-05-09, "Update readme
  table"; unchanged until 30b8519e8, 2024-09-24): "Peak Memory per GPU (GB)" and "Training Speed (tokens/sec)",
  Llama2-7B at "Batch Size = 4, Seq Length = 2048" on RTX 4090s, Llama2-70B at "Batch Size = 4, Seq Length = 4096"
  on 8 x A100. "* = Uses PagedAdamW from bitsandbytes", "** = Uses torch compile". PR #955: "Tokens/sec and Peak
  Memory Usage for Llama2 7B models for a BS of 4 and Seq Length of 2048 ... collected from runs on the right
  hardware". Every input is the stated length: PR #961 (the same table's reproduction, 2024-05-10) forces
  ``input_ids`` to ``(batch, 2048)``; the Alpaca samples of the configs are far shorter, so the table's lengths
  can only be forced ones.
  The recipes and configs at 0217d44c2:
  - tokens/s = ``num_tokens / time_per_step`` with ``num_tokens += input_ids.numel()`` summed over the
    accumulation steps of one optimizer step, on the logging rank: tokens per GPU per second, every token counted.
  - ``recipes/configs/llama2/7B_qlora_single_device.yaml``: ``qlora_llama2_7b`` (torchtune's NF4), LoRA rank 8 on
    q/k/v/output_proj and the MLP, ``torch.optim.AdamW``, ``enable_activation_checkpointing: True``, dtype bf16
    (pure bf16: the LoRA weights and AdamW states in bf16 too), ``torch.nn.CrossEntropyLoss``; the row's "**":
    ``compile: True``.
  - ``7B_lora_single_device.yaml``: LoRA rank 8 on q_proj/v_proj, otherwise as above, no compile.
  - ``7B_full_low_memory.yaml`` (the single-GPU "*" row): ``bitsandbytes.optim.PagedAdamW`` (32-bit states),
    ``optimizer_in_bwd: True``, activation checkpointing, dtype bf16.
  - ``7B_full.yaml`` (4 x 4090): ``full_finetune_distributed``, FSDP1 ``FULL_SHARD`` wrapping each decoder layer,
    ``torch.optim.AdamW``, activation checkpointing, dtype bf16.
  - Memory: ``torchtune/utils/memory.py`` ``get_memory_stats``: peak active / allocated / reserved in units of
    1e9 bytes; the table does not say which, entered as the active peak (as ``bench/validate_memory.py`` reads the
    later table), compared as allocated GiB after converting GB to GiB.

Skipped (settings that must be guessed): "2 x RTX 4090 LoRA" (``7B_lora.yaml`` has
``enable_activation_checkpointing: False``, but 16.2 GB at batch 4 x 2048 on Llama2-7B needs checkpointing -- the
model gives 47.6 GB allocated without it, 13.1 GB with it: the run's setting is not the config's); "8 x A100
Full Finetune *" 70B (no ``70B_full`` config existed at 0217d44c2; the optimizer placement and wrapping of that run
are unknown); "8 x A100 LoRA" 70B (``70B_lora.yaml``: rank 16 on
q/k/v, FSDP1, checkpointing): 3,384 tokens/s per GPU at 4,096-token inputs would need 4 x 70e9 FLOP a token
(forward and input gradients, no recompute) x 3,384 = 9.5e14 FLOP/s, three times an A100's 312 TFLOPS, and 26.4 GB
cannot hold the 21 GB of checkpointed layer inputs (4 x 4096 x 8192 x 2 bytes x 80 layers) beside the 17.5 GB
weight shard: the figure is a total over the GPUs or the inputs were not 4,096 tokens, and the table does not say
which (the later table's 70B figures are likewise left unscored in shared/reference: "not stated whether per GPU
or total"). All three printed, not scored.
* ``qwen-multinode`` -- QwenLM/Qwen ``README.md`` at 2df8e8a, "Profiling of Memory and Speed", the "LoRA
  (multinode)" Qwen-7B row (not held: ``bench/validate_peft.py`` and ``bench/validate_ft_tools.py`` hold the same
  table's single-GPU and single-node ZeRO-3 rows): "two servers, each containing two A100-SXM4-80G GPUs, and the rest
  of configurations are the same as other Qwen-7B experiments" (batch 1, gradient accumulation 8, FlashAttention 2,
  inputs padded to the length). The script for multi-GPU LoRA is ``finetune/finetune_lora_ds.sh`` (HF Trainer,
  ``--use_lora --gradient_checkpointing --bf16``, default ``DS_CONFIG_PATH="finetune/ds_config_zero2.json"``:
  ZeRO-2, ``overlap_comm``, buckets 2e8), ``finetune.py``: LoRA r 64 on c_attn/c_proj/w1/w2, dropout 0.05; the
  memory is the sum over the 4 GPUs ("G" as the other Qwen rows: nvidia-smi MiB / 1000, compared per GPU as device
  GiB). The network between the two servers is not stated: entered as 200 Gb/s InfiniBand. (Round 12 found the
  steps did not move with it; that was ``timing.ep_domain_of`` giving the A100 board's 8-GPU NVLink domain to the
  2-GPU servers, so their reductions ran over NVLink. Round 14, dpo14: ZeRO-2 all-reduces the 16-bit LoRA
  gradients, one bucket after each of the 8 backwards, over the network: +0.08 s a step on InfiniBand HDR, +1.4 s
  on 25 GbE. A fixed cost a step: it cannot give the published excess, which grows with the tokens, 0.9 s at 256
  and 16 s at 8,192; on 25 GbE the 256 row is predicted too slow while the 8,192 row stays 65% too fast.)
* ``tt-pr961`` -- pytorch/torchtune PR #961 (2024-05-10, closed): the single-GPU full run reproduced with every
  input forced to 2,048 tokens (``7B_full_low_memory.yaml batch_size=4``): "20.2 peak memory allocated (and similar
  for reserved)". Memory only.

Error: predicted / published - 1 in throughput terms (+ = predicted too fast); memory (predicted - published) /
published (+ = predicted too much).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import validate_ft_tools as vft  # noqa: E402

TT_SRC = "pytorch/torchtune README.md @0217d44c2 (PR #955)"
GB = 1e9 / 2**30  # one torchtune "GB" (1e9 bytes) in GiB
#: torchtune of May 2024: pure bf16 (dtype bf16, no fp32 master copy), SDPA, per-layer activation checkpointing
TT = {"framework": "hf", "master_weights": False, "flash_attention": True, "precision": "bf16",
      "recompute": "full", "optimizer": "adamw"}
TT_DIST = {**TT, "framework": "fsdp", "fsdp_version": 1}
L2_7B = {"preset": "llama-2-7b"}

#: (id, published tokens/s per GPU, published peak GB, training overrides, gpu, num_gpus, parallel, assumed)
TT_RUNS = (
    ("tt24-l2-7b-qlora-4090-compile", 3155, 12.3, L2_7B,
     {"method": "qlora", "lora_rank": 8, "lora_targets": "all_linear", "torch_compile": True},
     "rtx-4090-24gb", 1, {}, ()),
    ("tt24-l2-7b-lora-4090", 2582, 21.3, L2_7B,
     {"method": "lora", "lora_rank": 8, "lora_targets": "qv"}, "rtx-4090-24gb", 1, {}, ()),
    ("tt24-l2-7b-full-4090-paged", 702, 24.1, L2_7B,
     {"method": "full", "paged_optimizer": True, "optimizer_in_backward": True}, "rtx-4090-24gb", 1, {},
     ("bitsandbytes PagedAdamW (32-bit) entered as adamw + paged_optimizer: 54 GB of states on a 24 GB card "
      "page over PCIe every step, which the time model does not price",)),
    ("tt24-l2-7b-full-4x4090-fsdp", 1388, 24.1, L2_7B, {"method": "full"}, "rtx-4090-24gb", 4, {"zero": 3},
     ("FSDP1 FULL_SHARD entered as framework fsdp, fsdp_version 1, zero 3",)),
)
SHOWN = (  # printed, not scored: the run's settings are not the config's (docstring)
    ("tt24-l2-7b-lora-2x4090 (skipped)", 2768, 16.2),
    ("tt24-l2-70b-full-8xa100-paged (skipped)", 2032, 70.4),
    ("tt24-l2-70b-lora-8xa100 (skipped)", 3384, 26.4),
)
#: PR #961 (rohan-varma, 2024-05-10): the README's single-GPU full run reproduced with every input forced to 2048
#: tokens, ``7B_full_low_memory.yaml batch_size=4``: "20.2 peak memory allocated (and similar for reserved)".
PR961 = ("tt24-pr961-l2-7b-full-paged-repro-mem", 20.2)


def all_rows() -> list[vft.Row]:
    out = []
    for rid, tps, gb, model, tr, gpu, n, par, assumed in TT_RUNS:
        base = TT_DIST if n > 1 else TT
        t = {**base, "seq_len": 2048, "micro_batch_size": 4, "global_batch_size": 4 * n, **tr}
        note = ("every sample forced to the stated length (PR #955/#961)",) + assumed
        out.append(vft.Row(rid, "tt-readme-2024-05", "tps", float(tps), model, t, gpu=gpu, num_gpus=n,
                           parallel=par, assumed=note))
        out.append(vft.Row(rid + "-mem", "tt-readme-2024-05-mem", "memory", gb * GB, model, t, gpu=gpu,
                           num_gpus=n, parallel=par, metric="allocated",
                           assumed=note + ("'GB' = torchtune's 1e9-byte unit; the active peak, compared as "
                                           "allocated GiB",)))
    full = next(r for r in out if r.id == "tt24-l2-7b-full-4090-paged")
    out.append(vft.Row(PR961[0], "tt-readme-2024-05-mem", "memory", PR961[1] * GB, L2_7B, full.training,
                       gpu="a100-sxm-80gb", metric="allocated",
                       assumed=("the PR's card is not named (the reviewer asks 'Are you running on a 4090?'): "
                                "A100 80 GB, where the paged states stay on the device outside the allocator; the "
                                "allocated peak does not depend on the card",)))
    return out


#: QwenLM/Qwen README @2df8e8a, "LoRA (multinode)" Qwen-7B, 2 nodes x 2 A100-SXM4-80G: (G summed over 4 GPUs, s/it)
QWEN_MULTINODE = ((74.7, 2.09), (77.6, 3.16), (84.9, 5.17), (95.1, 9.25), (121.1, 18.1), (155.5, 37.4))
#: hardware of the multinode rows beyond gpu and count (the network is not stated; see the docstring)
QWEN_MN_HW = {"gpus_per_node": 2, "inter_node": "ib-hdr-200"}


def qwen_multinode_rows() -> list[vft.Row]:
    import validate_peft as vp

    out = []
    for seq, (g, s_it) in zip(vp.LENGTHS, QWEN_MULTINODE):
        sc = vp.scenario("7B", "lora", seq)
        t = dict(sc["training"], global_batch_size=8 * 4)
        for kind, val in (("step", s_it), ("memory", g / 4 * vft.QWEN_G_GIB)):
            out.append(vft.Row(f"qwen-readme-7B-lora-multinode-{seq}-{kind}", f"qwen-multinode-{kind}", kind, val,
                               sc["model"], t, num_gpus=4, parallel={"zero": 2}, fused_qkv=True,
                               assumed=("finetune_lora_ds.sh with its default ds_config_zero2.json",
                                        "the two servers joined by 200 Gb/s InfiniBand (not stated; 25 GbE: +1.4 s a step)",
                                        "'G' summed over the 4 GPUs, read as nvidia-smi MiB / 1000, per GPU")))
    return out


def predict(row: vft.Row) -> float:
    """vft.predict, with the multinode rows' servers of two GPUs (``QWEN_MN_HW``)."""
    if "multinode" not in row.id:
        return vft.predict(row)
    import dataclasses

    from gpuplanner.core.estimate import memory_breakdown, resolve
    from gpuplanner.core.memory import model_facts
    from gpuplanner.core.params import count_params
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    d = {"model": row.model, "training": row.training, "parallel": row.parallel,
         "hardware": {"gpu": row.gpu, "num_gpus": row.num_gpus, **QWEN_MN_HW}}
    r = resolve(scenario_from_dict(d))
    arch = r.arch.replace(fused_qkv=True)  # modeling_qwen.py: one c_attn for q, k, v
    r = dataclasses.replace(r, arch=arch, facts=model_facts(arch, count_params(arch)))
    if row.kind == "memory":
        return memory_breakdown(r).metric(row.metric)
    return time_estimate(r).step_time_s


def results() -> list[tuple[vft.Row, float, float]]:
    return [(r, p, vft.error(r, p)) for r in all_rows() + qwen_multinode_rows() for p in (predict(r),)]


def table(before: dict | None = None) -> list[str]:
    lines = ["| run | kind | published | predicted | error | before |", "|---|---|---:|---:|---:|---:|"]
    scored: dict[str, list[float]] = {}
    for r, p, e in results():
        b = "" if not before or r.id not in before else f"{before[r.id]:+.1%}"
        unit = {"tps": "tokens/s/GPU", "step": "s/step"}.get(r.kind, f"GiB {r.metric}")
        fmt = ".2f" if r.kind == "step" else ".1f"
        lines.append(f"| {r.id} | {unit} | {r.measured:{fmt}} | {p:{fmt}} | {e:+.1%} | {b} |")
        scored.setdefault(r.table, []).append(e)
    for rid, tps, gb in SHOWN:
        lines.append(f"| {rid} | tokens/s/GPU, GB | {tps}, {gb} | not scored | | |")
    lines.append("")
    for t, errs in scored.items():
        lines.append(f"{t}: {vft.stats_line(errs)}")
    mem = [e for t, v in scored.items() if t.endswith("-mem") or t.endswith("-memory") for e in v]
    step = [e for t, v in scored.items() if not (t.endswith("-mem") or t.endswith("-memory")) for e in v]
    lines.append(f"all new step-time rows: {vft.stats_line(step)}")
    lines.append(f"all new memory rows: {vft.stats_line(mem)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", type=Path)
    ap.add_argument("--write-before", type=Path)
    a = ap.parse_args(argv)
    before = json.loads(a.before.read_text()) if a.before else None
    print(f"Source: {TT_SRC}")
    print("\n".join(table(before)))
    for r in all_rows() + qwen_multinode_rows()[:2]:
        for x in r.assumed:
            print(f"ASSUMED {r.id}: {x}")
    if a.write_before:
        a.write_before.write_text(json.dumps({r.id: e for r, _, e in results()}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

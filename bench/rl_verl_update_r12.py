"""Issue 35 round 12 (verl12): where verl's ``timing_s/update_actor`` misses — per mini-batch, per micro-batch or per
token. A diagnostic, not a model: nothing here is entered in ``gpuplanner/core``.

Usage: python bench/rl_verl_update_r12.py

For every verl row with a published ``update_actor`` (``bench/rl_step_times*.py``: the play-verl and verl-data rows,
rl12's GRPO-LoRA rows, round 10's ``math/`` rows, RLinf's and the "veRL Benchmark Report" rows) it prints the
published and modelled seconds (``key_split``, the same split the tables print), the miss in seconds
(published − modelled), and that miss spread over what verl repeats in ``update_policy``
(volcengine/verl ``verl/workers/actor/dp_actor.py``, db84a4007 of 2025-05-02 for the play-verl logs, and the same loop
shape from v0.3.0.post1 to v0.5.0):

* ``mini``: optimizer steps per verl step: ``len(batch.split(ppo_mini_batch_size))`` × ``ppo_epochs`` (1 in every
  row), i.e. ``train_batch_size / ppo_mini_batch_size`` — the bench's ``updates_per_generation``. Each ends in
  ``_optimizer_step``: FSDP1 ``clip_grad_norm_`` (one all-reduce of a scalar), ``torch.isfinite(grad_norm)`` in a
  Python ``if`` (a host sync), AdamW's ``step`` and ``grad_norm.item()``.
* ``micro``: forward + backward passes per mini-batch and GPU: ``rearrange_micro_batches`` with
  ``use_dynamic_bsz`` (the bench's ``micro_batch_size`` is already that count's inverse), else
  ``ppo_mini_batch_size × n / GPUs / ppo_micro_batch_size_per_gpu``. Each pass runs FSDP's gathers and
  reduce-scatter (verl does not use ``no_sync``) and five ``.item()`` host syncs.
* ``tok``: trained tokens per micro-batch and GPU (prompt + mean response, the bench's figures).

A miss that is the same number of seconds per mini-batch across rows whose tokens differ tenfold points at something
paid per optimizer step; one that scales with the tokens at a rate, at the compute.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import rl_step_times as R  # noqa: E402
import rl_step_times_r9 as R9  # noqa: E402
import rl_step_times_r10 as R10  # noqa: E402
import rl_step_times_r11 as R11  # noqa: E402


def _rows():
    for rid, _src, scn, pub, _note, _counted in R.ROWS:
        if rid in R.KEYS_PUB and scn["training"]["framework"] == "fsdp":
            yield rid, scn, R.KEYS_PUB[rid]["update_actor"]
    for table in (R9.ROWS, R10.ROWS, R11.ROWS):
        for rid, _src, scn, pub, _note, _counted in table:
            if "update_actor" in pub and scn["training"]["framework"] == "fsdp":
                yield rid, scn, pub["update_actor"]


def table() -> list[dict]:
    out = []
    for rid, scn, pub in _rows():
        tr, rl = scn["training"], scn["training"]["rl"]
        n_gpu = scn["hardware"]["num_gpus"]
        mini = float(rl["updates_per_generation"])
        micro = max(tr["global_batch_size"] / (tr["micro_batch_size"] * n_gpu), 1.0)
        tok = tr["micro_batch_size"] * (rl["prompt_len"] + rl["mean_response_fraction"] * rl["rollout_len"])
        pred = R.key_split(scn)["update_actor"]
        miss = pub - pred
        out.append({"id": rid, "pub": pub, "pred": pred, "err": pred / pub - 1.0, "miss": miss, "mini": mini,
                    "micro": micro, "tok": tok, "per_mini": miss / mini, "per_micro": miss / (mini * micro),
                    "per_ktok": miss / (mini * micro * tok) * 1e3, "method": tr.get("method", "full"),
                    "model": scn["model"].get("preset") or scn["model"].get("name", "custom"), "gpus": n_gpu})
    return out


def main() -> None:
    rows = table()
    print("| row | update_actor published → modelled (s) | miss (s) | mini-batches | micro-batches each | "
          "tokens a micro-batch | miss a mini-batch (s) | miss a micro-batch (s) | miss a 1k tokens (s) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['id']} | {r['pub']:.2f} → {r['pred']:.2f} ({r['err']:+.0%}) | {r['miss']:+.2f} | {r['mini']:.0f} "
              f"| {r['micro']:.0f} | {r['tok']:,.0f} | {r['per_mini']:+.3f} | {r['per_micro']:+.3f} | "
              f"{r['per_ktok']:+.4f} |")
    full = [r for r in rows if r["method"] == "full"]
    for name, sel in (("full fine-tuning", full), ("LoRA", [r for r in rows if r["method"] != "full"])):
        if sel:
            print(f"\n{name}: {len(sel)} rows; |error| median {statistics.median(abs(r['err']) for r in sel):.0%}; "
                  f"miss a mini-batch median {statistics.median(r['per_mini'] for r in sel):+.3f} s")


if __name__ == "__main__":
    main()

"""Round 17 (postoos17), scored before any change: why open-instruct's four-server DeepSpeed DPO runs are 2-3x
slower than the model (the rows of rounds 15-16, ``bench/validate_post_oos16.py``), read from the tool's code.

Usage: python bench/validate_post_oos17.py

Code read at github.com/allenai/open-instruct 93a5b3c51 (the runs' "instrumentation + launch-script fixes"):

* Reference log-probabilities: cached. ``dpo_tune_cache.py`` l. 522-540 runs ``dpo_utils.build_reference_logprobs_
  cache`` over the whole set BEFORE ``start_time`` (l. 542) and ``mfu_interval_start`` (l. 552); inside the loop
  ``compute_loss`` reads ``reference_cache`` (l. 578-584). No reference forward is in a logged step.
* Packing: ``--packing`` swaps only the collator (l. 405-409): ``TensorDataCollatorWithFlatteningDPO`` (chosen and
  rejected flattened into one row, flash-attention varlen) against ``DataCollatorForSeq2SeqDPO(padding="longest")``.
  Without it, ``dpo_utils.concatenated_inputs`` pads chosen AND rejected to ``max(len(chosen), len(rejected))``
  (``max_length = max(chosen.shape[1], rejected.shape[1])``), one pair a micro-batch
  (``per_device_train_batch_size`` 1).
* Gradient checkpointing: ``--activation_memory_budget 0.5`` only gates ``model.gradient_checkpointing_enable()``
  (l. 377-378), whole decoder layers (transformers' HF checkpointing), as the rows enter (``recompute: full``).
* ZeRO stage: 3, ``configs/ds_configs/stage3_no_offloading_accelerate.conf`` (``overlap_comm`` true, the three
  hidden-size keys ``auto``: ``ds_config_auto`` true), ``--zero_hpz_partition_size 1`` (no hpZ).
* The logged tokens/s: ``(chosen_labels != -100).sum() + (rejected_labels != -100).sum()`` over the step (l. 609-611),
  the response tokens only (round 16).
* The sampler: ``RandomSampler(train_dataset, generator=torch.Generator().manual_seed(args.seed))`` (l. 411), seed
  42 in both launch scripts (``ab_dpo_deepspeed.sh``; the unpacked run drops only ``--packing``): both DeepSpeed runs
  train THE SAME PAIRS ON THE SAME RANKS IN THE SAME ORDER. Their step ratio is therefore the counted-rate ratio
  651 / 456 = 1.43 (the same tokens counted), and it measures one thing only: what padding the shorter response of
  each pair to the longer one costs. No other setting differs.

The mechanism this isolates. Under ZeRO-3 every rank meets the others at every layer's all-gather in every
micro-batch, so a micro-batch lasts as long as its slowest rank's (``timing.padded_rank_factor``, z3multi15: the
expected longest of the 32 ranks' draws). The model prices it from the data's length spread (``data.sample_len_std``;
default 0.46 × the mean, ms-swift's median). At 0.46 the model puts the two DeepSpeed runs 1.03× apart, where they
ran 1.43× apart: the model's step is bound by the ZeRO-3 hooks and gathers (flat in tokens), the real run by the
slowest rank's tokens. The model's own padded/flattened straggler arithmetic reproduces 1.43 at one spread only:
the spread is solved from that ratio (bisection, :func:`solve_cv`), not from any step error. ASSUMED: chosen and
rejected drawn independently from one log-normal (they share the prompt, so the real pair is more alike: the spread
read here is then a lower bound on the responses' spread).

Error convention: error = published / predicted − 1 (+ means the model is too fast).
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import validate_post_oos15 as V15  # noqa: E402
import validate_post_oos16 as V16  # noqa: E402

#: the two DeepSpeed runs' counted rates (tok/s/GPU, the doc's "~651" and "~456"): the same pairs, the same count
RATE_RATIO = V15.DS_PACKED_TOK_S_GPU / V15.DS_UNPACKED_TOK_S_GPU
#: the rates are printed to the unit ("~"): ± 0.5 tok/s each
RATE_RATIO_RANGE = ((V15.DS_PACKED_TOK_S_GPU - 0.5) / (V15.DS_UNPACKED_TOK_S_GPU + 0.5),
                    (V15.DS_PACKED_TOK_S_GPU + 0.5) / (V15.DS_UNPACKED_TOK_S_GPU - 0.5))


def with_cv(scn: dict, cv: float | None) -> dict:
    """The scenario with ``data.sample_len_std`` = ``cv`` × the mean (None: the planner's default, 0.46)."""
    s = copy.deepcopy(scn)
    if cv is not None:
        s["data"]["sample_len_std"] = cv * s["data"]["mean_sample_len"]
    return s


def step(scn: dict, cv: float | None = None) -> float:
    return V15.predict(with_cv(scn, cv))["step"]


def model_ratio(cv: float | None) -> float:
    """The model's unpacked / packed DeepSpeed step at spread ``cv``."""
    r = V16.rows()
    return step(r[0][3], cv) / step(r[1][3], cv)


def solve_cv(target: float = RATE_RATIO, lo: float = 0.46, hi: float = 1.5) -> float:
    """The spread at which the model's unpacked / packed ratio is ``target`` (bisection; the ratio rises with the
    spread over this interval)."""
    if not model_ratio(lo) <= target <= model_ratio(hi):
        raise ValueError("ratio outside the model's range")
    for _ in range(30):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if model_ratio(mid) < target else (lo, mid)
    return 0.5 * (lo + hi)


def table(cv: float | None) -> list[dict]:
    out = []
    for rid, kind, src, scn, pub, note in V16.rows():
        pred = V15.predict(with_cv(scn, cv))
        p = pub["step"]
        out.append({"id": rid, "pub": p, "pred": pred["step"], "err": V15.err(p, pred["step"])})
    return out


def breakdown(cv: float | None, i: int = 1) -> dict:
    """The model's per-step parts (s) of row ``i`` (default the packed DeepSpeed row)."""
    from gpuplanner.core.estimate import estimate
    from gpuplanner.core.scenario import scenario_from_dict

    t = estimate(scenario_from_dict(with_cv(V16.rows()[i][3], cv))).time
    return {"step": t.step_time_s, **t.parts, "dp_hidden": t.communication["dp_comm"]["hidden"],
            "dp_exposed": t.communication["dp_comm"]["exposed"]}


def regather_whatif(cv: float) -> list[float]:
    """open-instruct's own investigation doc (801d157d3 → 386bda0ca, docs/dpo_performance_investigation.md
    hypothesis 4.2) says checkpointing makes ZeRO-3 gather every parameter 3× (forward, recompute, backward). The
    model's ``timing.ds_z3_gather_plan`` keeps a 7B layer's weights between recompute and backward
    (``stage3_max_reuse_distance`` 1e9). What-if: every weight gathered a third time."""
    from gpuplanner.core import timing as T

    orig = T.ds_z3_gather_plan
    T.ds_z3_gather_plan = lambda m: (orig(m)[0], 1.0)
    try:
        return [step(r[3], cv) for r in V16.rows()]
    finally:
        T.ds_z3_gather_plan = orig


#: the counted (response) tokens a sequence (round 16: the DeepSpeed runs' MFU-implied length) and the forward's
#: (OLMo-core's count): the prompt is the difference
RESPONSE_LEN, FORWARD_LEN = 505, 849
#: Olmo-3-7B's hardware FLOPs a token under whole-layer recompute: 2·N forward, 2·N recompute, 4·N backward
OLMO3_PARAMS = 7.30e9
PAIRS_PER_RANK_STEP = 4  # per_device_train_batch_size 1 × gradient_accumulation_steps 4


def _lognormal(z, mean: float, cv: float):
    import numpy as np

    sig = np.sqrt(np.log1p(cv * cv))
    return np.exp(np.log(mean) - 0.5 * sig * sig + sig * z)


def shared_prompt_tokens(cv_prompt: float, cv_resp: float, draws: int = 20000, seed: int = 17) -> dict:
    """Token arithmetic outside the model, with what the model's straggler leaves out: chosen and rejected SHARE
    their prompt (``concatenated_inputs`` pads ``prompt + response`` pairs). Prompt and each response log-normal
    (means 849 − 505 and 505), each sequence cut at 16,384; 32 ranks, one pair each a micro-batch. Returns the
    slowest rank's tokens packed (``c + r``) and unpacked (``2·max(c, r)``), their ratio, and the slowest rank's
    over the mean rank's (packed). Fixed draws (``seed``), so the figures are reproducible."""
    import numpy as np

    rng = np.random.default_rng(seed)
    zp, zc, zr = (rng.standard_normal((draws, V15.GPUS)) for _ in range(3))
    p = _lognormal(zp, FORWARD_LEN - RESPONSE_LEN, cv_prompt)
    c = np.minimum(p + _lognormal(zc, RESPONSE_LEN, cv_resp), 16384)
    r = np.minimum(p + _lognormal(zr, RESPONSE_LEN, cv_resp), 16384)
    packed, unpacked = (c + r).max(axis=1).mean(), (2 * np.maximum(c, r)).max(axis=1).mean()
    return {"packed": float(packed), "unpacked": float(unpacked), "ratio": float(unpacked / packed),
            "straggler": float(packed / (c + r).mean())}


def shared_prompt_reading(cv_prompt: float, target: float = RATE_RATIO) -> dict:
    """The response spread at which the slowest rank's unpacked / packed tokens is ``target`` (a per-token-bound
    step), and what the published packed step then says about that rank: its tokens/s and hardware MFU
    (8·N FLOPs a token under whole-layer recompute; attention left out, a few % at these lengths)."""
    lo, hi = 0.05, 4.0
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if shared_prompt_tokens(cv_prompt, mid)["ratio"] < target else (lo, mid)
    out = shared_prompt_tokens(cv_prompt, 0.5 * (lo + hi))
    per_mb = V16.published()["ds_packed"] / PAIRS_PER_RANK_STEP
    rate = out["packed"] / per_mb
    return {"cv_resp": 0.5 * (lo + hi), **out, "rate": rate, "mfu": rate * 8 * OLMO3_PARAMS / V16.H100_FLOPS}


def _print(t: list[dict], label: str) -> None:
    print(f"\n{label}")
    print("| row | published step (s) | model (s) | error |\n|---|---:|---:|---:|")
    for r in t:
        print(f"| {r['id']} | {r['pub']:.2f} | {r['pred']:.2f} | {r['err']:+.1%} |")
    med, p90 = V15._stats([r["err"] for r in t])
    print(f"step |error| median {med:.1%}, p90 {p90:.1%} over {len(t)} rows")


def main() -> None:
    pub = V16.published()
    print(f"published: unpacked / packed DeepSpeed step {pub['ds_unpacked'] / pub['ds_packed']:.3f} (MFU-implied "
          f"lengths); counted-rate ratio {RATE_RATIO:.3f} ({RATE_RATIO_RANGE[0]:.3f}-{RATE_RATIO_RANGE[1]:.3f})")
    print(f"model ratio at the default spread 0.46: {model_ratio(None):.3f}")
    cv = solve_cv()
    lo, hi = solve_cv(RATE_RATIO_RANGE[0]), solve_cv(RATE_RATIO_RANGE[1])
    print(f"spread that gives the published ratio: {cv:.3f} ({lo:.3f}-{hi:.3f})")
    _print(table(None), "before: the default spread (0.46), the model unchanged (= round 16)")
    _print(table(cv), f"at the spread read from the A/B pair ({cv:.2f}), the model unchanged")
    for label, c in (("0.46", None), (f"{cv:.2f}", cv)):
        b = breakdown(c)
        print(f"packed DeepSpeed row, spread {label}: " + ", ".join(f"{k} {v:.3f}" for k, v in b.items()))
    print("\nshared prompts (token arithmetic, no model): the response spread that gives the ratio, the slowest rank")
    print("| prompt spread | response spread | slowest rank's tokens (packed) | over the mean rank | its tok/s | "
          "its hardware MFU |\n|---:|---:|---:|---:|---:|---:|")
    for cvp in (0.5, 1.0, 1.5):
        x = shared_prompt_reading(cvp)
        print(f"| {cvp:.1f} | {x['cv_resp']:.2f} | {x['packed']:,.0f} | {x['straggler']:.2f}x | {x['rate']:,.0f} | "
              f"{x['mfu']:.1%} |")
    rg = regather_whatif(cv)
    print("what-if, every weight gathered a 3rd time in the backward (spread %.2f): " % cv
          + ", ".join(f"{s:.2f} s" for s in rg))


if __name__ == "__main__":
    main()

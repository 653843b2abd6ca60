"""What an infrastructure expert checks before signing a plan: the MFU ceiling, memory headroom, the deadline and
budget at the band's far end, and tensor parallelism over the link the cards really have.

Each check is written once, element-wise (numpy arrays or plain numbers), so the search's vectorised ranking and
:func:`evaluate.evaluate` of one plan give the same verdicts (tests/test_one_answer.py, tests/test_advisor.py).

* **MFU ceiling** (``resources/validation_bands.json`` → ``mfu_ceilings``, written by ``bench/mfu_ceilings.py``
  from the published runs of calibration-runs.jsonl, each with its source, date and layout): per GPU family
  (A100/A800: ``ampere_dc``; H100/H800/H200/H20: ``hopper_dc``) × framework family (``megatron``, ``fsdp``) ×
  model size (dense ≤ 20B / larger), the best utilisation a published run reached. A plan whose modelled MFU is
  above it is timed and costed at the ceiling (training hours × modelled / ceiling); both figures are shown.
  Classes with no published run: a framework family without one (``hf``, ``deepspeed``) takes the lowest ceiling
  of its GPU family and size; a GPU family without one (consumer, workstation, Blackwell, domestic cards) the
  lowest ceiling of its framework family and size over the families that have runs. The user's own MFU
  (``assumptions.mfu``) and a measured run (``assumptions.measured_runs``) are evidence and are not capped;
  ``constraints.rules.mfu_ceiling = false`` turns the ceiling off. FP8 plans are a class of their own
  (:data:`FP8_CEILINGS`: NVIDIA's published FP8 runs), since the MFU is counted on the BF16 peak.
* **Memory headroom** (``memory_margin``): the memory model's 75th-percentile under-prediction on published peaks
  (every published-peak table, each row once: ``bench/memory_margin.py``). A plan using more than ``(1 − margin)``
  of the card is *tight*.
* **Deadline and budget at the band's far end**: the upper end of the calendar and cost band
  (:func:`evaluate.validation_band`, p90) must meet the deadline and budget; a plan meeting them only at the point
  estimate is *at risk*.
* **TP over PCIe**: tensor parallelism on cards whose intra-node link is PCIe (no NVLink) moves four activation
  all-reduces per layer through the host bridge, without Transformer Engine's overlap (its userbuffers need
  peer memory over NVLink); Narayanan et al. 2021 §3.3 keep TP inside the NVLink domain.

* **A multi-node price with a network** (rules ``price_fabric``, :func:`no_fabric`): a plan over several nodes
  whose price is not from a quote of networked servers (InfiniBand or RoCE between them) has no real price: the
  card-hours of single machines buy no network, and clusters are rented as whole servers with a fabric, often by
  the month or for a minimum term. :data:`FABRIC_BIT` is the most serious bit: such a plan ranks after every plan
  whose cost is a quote of the right kind (issue 35 round 8).

The search ranks plans that fail a check after those that pass it (:func:`penalty`), like the poor-MFU rule.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import Any

import numpy as np

from .calibration import pick as calibrating_run
from .catalog_hw import domain_beyond_server
from .shipped import load_json

#: the penalty bits, most serious first (a higher penalty ranks later; equal penalties rank by the objective)
RISK_BIT, TP_PCIE_BIT, POOR_BIT, TIGHT_BIT = 8, 4, 2, 1
#: a plan over several nodes priced from no quote of networked servers (rules ``price_fabric``): above every other
#: bit, since its cost is not a price anyone quoted for what it rents, while a plan at risk still has a real price
FABRIC_BIT = 16
#: each penalty bit with the rule that sets it (its ``constraints.rules`` switch and ``plan --json`` id), most serious
#: first: :func:`penalty` and the search's rank lines read it
BIT_RULES = ((FABRIC_BIT, "price_fabric"), (RISK_BIT, "deadline_risk"), (TP_PCIE_BIT, "tp_over_pcie"),
             (POOR_BIT, "mfu_grade"), (TIGHT_BIT, "memory_headroom"))
DENSE_SPLIT_PARAMS = 20e9


@functools.lru_cache(maxsize=1)
def _doc() -> dict:
    try:
        return load_json("validation_bands.json")
    except (OSError, ValueError):
        return {}


def gpu_family(gpu_id: str) -> str | None:
    g = (gpu_id or "").lower()
    if g.startswith(("a100", "a800")):
        return "ampere_dc"
    if g.startswith("h20-"):
        return "h20"  # a compute-capped Hopper die: a class of its own (:data:`H20_CEILINGS`)
    if g.startswith(("h100", "h800", "h200")):
        return "hopper_dc"
    if g in ("rtx-4090-24gb", "rtx-4090d-24gb"):
        # a consumer card with published runs of its own (:data:`RTX4090_CEILINGS`); the RTX 4090 D is the same AD102
        # die and 24 GB of GDDR6X at 1,008 GB/s with 114 of its 128 SMs (NVIDIA's specifications), so its share of
        # its own peak is at least the 4090's
        return "rtx4090"
    return None


def _h20_run_mfu(step_s: float) -> float:
    """The MFU of the ms-swift H20 benchmark's run (:data:`H20_CEILINGS`) at ``step_s`` seconds an iteration: 6ND
    over Qwen3-14B's 14.8e9 parameters and 16 × 8,192 tokens, on 8 H20 at their 148 BF16 TFLOP/s."""
    return round(6.0 * 14.8e9 * 16 * 8192 / (8 * 148e12 * step_s), 4)


#: Issue 35 round 14 (advice14): the H20 is a class of its own. It is the GH100 die with its tensor rate cut to 148
#: BF16 TFLOP/s and the H100's memory system, so its training GEMMs run at ~0.9 of its figure (timing.fixed_loss_share)
#: and a step reaches an MFU no H100 run does: the H100's best published runs (0.48–0.49, Megatron-LM README) held a
#: year of Qwen2.5-32B full fine-tuning on 8 × H20 at 48% where the model gives 60%, 25% dearer than the tool's own
#: validated time. The class's published run: ms-swift ``examples/megatron/fp8/benchmark.sh`` (modelscope/ms-swift,
#: read at 7cb73c1f; "test_env: H20"; the round-9 note cites 891a9ab3d): ``megatron sft`` of Qwen3-14B, BF16, 8 H20,
#: TP 4 × DP 2 with sequence parallelism, packing to 8,192 tokens, global batch 16, selective recompute, 13 s/it:
#: 6 × 14.8e9 (the model card's 14.8B) × 16 × 8,192 / (8 × 148e12 × 13) = 0.756 (6ND, the packed rows taken full;
#: :func:`_h20_run_mfu`). The model gives that row
#: 13.09 s (bench/validate_megatron_ft_oos9.py). Other tools and the > 20B class borrow it (the family's lowest, the
#: rule of :func:`mfu_ceiling`).
H20_CEILINGS = {
    "h20/megatron/le20b": {
        "mfu": _h20_run_mfu(13.0), "metric": "mfu",
        "row": "ms-swift-qwen3-14b-bf16-8xh20",
        "source": "modelscope/ms-swift examples/megatron/fp8/benchmark.sh (BF16: 13s/it)",
        "source_url": "https://github.com/modelscope/ms-swift/blob/7cb73c1f096e1745a6ec17120ee0cdc4b81eb09e/"
                      "examples/megatron/fp8/benchmark.sh",
        "layout": "8 GPUs, TP 4 × PP 1, 14.8B, seq 8192", "gpu_type": "H20", "source_date": "7cb73c1f"},
}


#: Issue 35 round 17 (advice19): the RTX 4090 has published runs of its own, so it no longer borrows the A100's.
#: AnswerDotAI/fsdp_qlora ``benchmarks_03_2024.md`` (read at 4cd69234; the rows of bench/validate_ft_oos9.py): PEFT
#: LoRA/QLoRA r 64 on 2 × RTX 4090 (FSDP or DDP through torch), full activation checkpointing, 1,024 samples in
#: ``time`` seconds, on the card's 165.2 TFLOP/s FP32-accumulate peak (Ada whitepaper). The runs give tokens/s, so
#: their MFU and HFU are both the time model's FLOP counts over it; the class is compared on MFU, like with like,
#: the figure the MFU grade reads too (rules.grade_bands). The best run per size: ≤ 20B, Mistral-7B QLoRA FSDP + CPU
#: offload at 24,576 tokens, 7,809 s: 1,024 × 24,576 / (2 × 7,809) = 1,611 tokens/s a GPU, MFU 0.4748 (HFU 0.677);
#: > 20B, Yi-34B QLoRA FSDP + CPU offload, batch 4, 2,061 s: 1,024 × 2,048 / (2 × 2,061) = 509 tokens/s, MFU 0.4423
#: (HFU 0.657). By hand for the 2k Llama-2-7B LoRA DDP row (437 s, 2,399 tokens/s): (4 × 6.61e9 matmul weights
#: + 3 × 32 layers × 2 × 2,048 × 4,096 causal attention) × 2,399 / 165.2e12 = 0.408 (the model's count: 0.420;
#: tests/test_advice19_r17.py recomputes the class figures). These runs show a 4090 at 56–68% HFU: the A100
#: Megatron run's 46% HFU the card used to borrow would have capped the 7B LoRA example's #1 (55% HFU) below what
#: the card is published to reach.
_AAI = {"source": "AnswerDotAI/fsdp_qlora benchmarks_03_2024.md (2 × RTX 4090)",
        "source_url": "https://github.com/AnswerDotAI/fsdp_qlora/blob/4cd69234/benchmarks_03_2024.md",
        "gpu_type": "RTX 4090", "source_date": "2024-03", "metric": "mfu"}
RTX4090_CEILINGS = {
    "rtx4090/any/le20b": {**_AAI, "mfu": 0.4748, "row": "aai-mistral-7b-qlora-fsdp-offload-24k",
                          "layout": "2 GPUs, FSDP + CPU offload, 7.2B QLoRA, seq 24576"},
    "rtx4090/any/gt20b": {**_AAI, "mfu": 0.4423, "row": "aai-yi-34b-qlora-fsdp-offload-b4",
                          "layout": "2 GPUs, FSDP + CPU offload, 34.4B QLoRA, seq 2048"},
}

#: Issue 35 round 17 (advice19): a borrowed ceiling is compared on hardware FLOPs utilisation, like with like. The
#: lowest figure over other classes used to mix metrics: Narayanan et al. 2021's 46% is an HFU (§5.1, recomputed
#: FLOPs counted), llm-foundry's 46.4% an MFU, and the plan's MFU was set against either. A run's hardware rate is
#: what carries to another card or tool (a plan's MFU depends on its own recomputation), so the pool is ranked on
#: each run's HFU and the plan's HFU is compared with it. The HFU of the table's MFU runs as their sources print it:
#: mosaicml/llm-foundry ``scripts/train/benchmarking/README.md`` (@8c8dd48f), whose tables give MFU and HFU side by
#: side (activation checkpointing on the 30B and 70B rows). A run whose source prints no HFU (the Megatron-LM
#: README's H100 table gives MFU only) stands at its MFU, the lower bound of its HFU.
SOURCE_HFU = {
    "llmfoundry-a100_80gb-30b-seq2048-8gpu": 0.7374, "llmfoundry-a100_80gb-7b-seq2048-8gpu": 0.6423,
    "llmfoundry-h100_80gb-70b-seq2048-64gpu": 0.5676, "llmfoundry-h100_80gb-7b-seq2048-8gpu": 0.4644,
}


def run_hfu(run: dict) -> float:
    """A published run's hardware FLOPs utilisation (:data:`SOURCE_HFU`; an HFU run's own figure)."""
    if str(run.get("metric") or "mfu") == "hfu":
        return float(run["mfu"])
    return float(SOURCE_HFU.get(str(run.get("row")), run["mfu"]))


def _borrowed(pool: dict, why: str) -> dict:
    """The ceiling a class with no run of its own borrows: the lowest HFU of ``pool`` (:data:`SOURCE_HFU`), kept
    with its published MFU for the grade (``grade_mfu``) where the source gives one."""
    k = min(pool, key=lambda k: run_hfu(pool[k]))
    run = pool[k]
    grade = float(run["mfu"]) if str(run.get("metric") or "mfu") == "mfu" else None
    return {**run, "mfu": run_hfu(run), "metric": "hfu", "grade_mfu": grade, "class": k, "fallback": why}


#: FP8 plans are a class of their own: the time model's MFU counts model FLOPs against the card's dense *BF16* peak
#: (timing: ``mfu = tokens/s × model FLOPs / peak16``), and FP8 GEMMs run at up to twice that rate, so the BF16
#: runs of ``validation_bands.json`` (the shared set has no FP8 run) do not bound an FP8 plan. The best published
#: FP8 runs, by the same MFU (model FLOPs per token with causal attention, the catalogue's 989 TFLOP/s BF16 peak):
#: NVIDIA's NeMo 24.07 pre-training table on DGX-H100 at FP8 (Transformer Engine, Megatron-Core; NVIDIA/NeMo
#: ``docs/source/performance/performance_summary.md`` at commit 8e3d65dcfe, 2024-09-09): Llama 2 7B on 8 GPUs,
#: 16,934 tokens/s/GPU (MFU 0.7336 at 42.86 GFLOP per token); Llama 2 70B on 64 GPUs (TP 4, PP 4, VP 20), 1,728
#: tokens/s/GPU (0.7482 at 428.4 GFLOP per token). Classes without an FP8 run take the lowest FP8 ceiling (the
#: same fallback as the BF16 table's).
FP8_CEILINGS = {
    "hopper_dc/megatron/le20b": {
        "mfu": 0.7336, "metric": "mfu", "row": "nemo-24.07-llama2-7b-fp8-8gpu",
        "source": "NVIDIA NeMo 24.07 performance summary (DGX-H100, FP8)",
        "source_url": "https://github.com/NVIDIA/NeMo/blob/8e3d65dcfe/docs/source/performance/performance_summary.md",
        "source_locator": "docs/source/performance/performance_summary.md, Pretraining table, LLAMA2-7B",
        "layout": "8 GPUs, TP 1 × PP 1, seq 4096, GBS 128", "gpu_type": "H100", "source_date": "2024-09-09"},
    "hopper_dc/megatron/gt20b": {
        "mfu": 0.7482, "metric": "mfu", "row": "nemo-24.07-llama2-70b-fp8-64gpu",
        "source": "NVIDIA NeMo 24.07 performance summary (DGX-H100, FP8)",
        "source_url": "https://github.com/NVIDIA/NeMo/blob/8e3d65dcfe/docs/source/performance/performance_summary.md",
        "source_locator": "docs/source/performance/performance_summary.md, Pretraining table, LLAMA2-70B",
        "layout": "64 GPUs, TP 4 × PP 4 × VP 20, seq 4096, GBS 128", "gpu_type": "H100", "source_date": "2024-09-09"},
}
#: the same script's FP8 run (``--fp8_recipe blockwise``, 8 s/it), on the BF16 peak as :data:`FP8_CEILINGS`:
#: 6 × 14.8e9 × 16 × 8,192 / (8 × 148e12 × 8) = 1.23 (an FP8 step above the BF16 figure)
FP8_CEILINGS["h20/megatron/le20b"] = {
    **H20_CEILINGS["h20/megatron/le20b"], "mfu": _h20_run_mfu(8.0),
    "row": "ms-swift-qwen3-14b-fp8-8xh20", "source": "modelscope/ms-swift examples/megatron/fp8/benchmark.sh "
                                                     "(FP8: 8s/it)"}


def _fp8_ceiling(gpu_id: str, engine: str, params_total: float) -> dict | None:
    """The FP8 class's ceiling (:data:`FP8_CEILINGS`): the class's own run, else the lowest FP8 ceiling."""
    size = "le20b" if params_total <= DENSE_SPLIT_PARAMS else "gt20b"
    fam = gpu_family(gpu_id)
    key = f"{fam}/{engine}/{size}"
    if key in FP8_CEILINGS:
        return {**FP8_CEILINGS[key], "class": key + "/fp8", "fallback": None}
    # the family's lowest FP8 run, else the lowest of all (the H20's own run bounds only the H20: round 14)
    pool = {k: v for k, v in FP8_CEILINGS.items() if fam and k.startswith(fam + "/")} or FP8_CEILINGS
    k = min(pool, key=lambda k: pool[k]["mfu"])
    why = "no_framework_run" if fam in ("hopper_dc", "h20") else "no_gpu_run"
    return {**FP8_CEILINGS[k], "class": k + "/fp8", "fallback": why}


@functools.lru_cache(maxsize=512)
def mfu_ceiling(gpu_id: str, engine: str, params_total: float, precision: str = "bf16") -> dict | None:
    """The ceiling for a GPU × framework family (``engine``: core.frameworks.engine_of) × model size: ``{"mfu",
    "row", "source", "source_date", "layout", "class", "fallback"}``; None when the table is missing. FP8 plans
    (``precision == "fp8"``) have their own class (:data:`FP8_CEILINGS`)."""
    if precision == "fp8":
        return _fp8_ceiling(gpu_id, engine, params_total)
    table = (_doc().get("mfu_ceilings") or {}).get("ceilings") or {}
    if not table:
        return None
    size = "le20b" if params_total <= DENSE_SPLIT_PARAMS else "gt20b"
    fam = gpu_family(gpu_id)
    if fam == "h20":  # its own published run, borrowed by its other tools and sizes (H20_CEILINGS)
        key = f"{fam}/{engine}/{size}"
        if key in H20_CEILINGS:
            return {**H20_CEILINGS[key], "class": key, "fallback": None}
        k = min(H20_CEILINGS, key=lambda k: H20_CEILINGS[k]["mfu"])
        return {**H20_CEILINGS[k], "class": k, "fallback": "no_framework_run"}
    if fam == "rtx4090":  # its own published runs, for every tool (RTX4090_CEILINGS)
        key = f"{fam}/any/{size}"
        return {**RTX4090_CEILINGS[key], "class": key, "fallback": None}
    key = f"{fam}/{engine}/{size}"
    if key in table:
        return {**table[key], "class": key, "fallback": None}
    if fam is not None:
        pool = {k: v for k, v in table.items() if k.startswith(fam + "/") and k.endswith("/" + size)}
        why = "no_framework_run"
    else:
        pool = {k: v for k, v in table.items() if f"/{engine}/" in k and k.endswith("/" + size)}
        why = "no_gpu_run"
        if not pool:
            pool = {k: v for k, v in table.items() if k.endswith("/" + size)}
    if not pool:
        return None
    return _borrowed(pool, why)


#: The GPU families whose best published runs are the planning guide's "mainstream GPU" (§4: "MFU 40–55% with a
#: mainstream GPU and an optimised framework is good"): A100/A800 and H100/H800/H200 in BF16, the runs of
#: ``validation_bands.json`` (Megatron-LM, llm-foundry). The MFU grade (rules.grade_bands) reads the guide's bands
#: for these; a class whose MFU is counted on a peak its runs outgrow (the H20's compute-capped die; FP8 steps
#: counted on the BF16 peak) has its bands scaled to its own best run.
MAINSTREAM_FAMILIES = ("ampere_dc", "hopper_dc")


def mainstream_class(cls: str) -> bool:
    """Whether a ceiling class (:func:`mfu_ceiling`'s ``class``) is one the planning guide's MFU bands speak of."""
    return str(cls).split("/")[0] in MAINSTREAM_FAMILIES and not str(cls).endswith("/fp8")


def class_ceiling(s: Any, gpu_id: str, params_total: float) -> dict | None:
    """The best published run of the plan's class (:func:`mfu_ceiling`), whether or not it caps the plan (a user's
    own MFU or a measured run is not capped, but its grade is still read against its class: rules.grade_bands)."""
    from .frameworks import engine_of

    return mfu_ceiling(gpu_id, engine_of(s.training.framework), float(params_total), str(s.training.precision))


def ceiling_applies(s: Any, gpu_id: str) -> bool:
    """The ceiling is used unless the user gave an MFU, or switched it off, or a run measured on this very GPU
    calibrates its plans (core/calibration.pick: a run on another card, or a CPU smoke test, changes nothing here)."""
    a = s.assumptions
    return (bool(getattr(s.constraints.rules, "mfu_ceiling", True)) and a.mfu is None
            and calibrating_run(s, gpu_id) is None)


def ceiling_for(s: Any, gpu_id: str, params_total: float) -> float | None:
    """The ceiling's MFU for scenario ``s`` on ``gpu_id`` (None: none applies)."""
    c = ceiling_run(s, gpu_id, params_total)
    return None if c is None else float(c["mfu"])


def ceiling_run(s: Any, gpu_id: str, params_total: float) -> dict | None:
    """The class's best published run that caps scenario ``s`` on ``gpu_id`` (None: none applies)."""
    if not ceiling_applies(s, gpu_id):
        return None
    from .frameworks import engine_of

    return mfu_ceiling(gpu_id, engine_of(s.training.framework), float(params_total), str(s.training.precision))


def ceiling_is_hfu(ceiling: dict | None) -> bool:
    """Whether the class's best published run reports hardware FLOPs utilisation (recomputed FLOPs counted) rather
    than model FLOPs utilisation: Narayanan et al. 2021 (arXiv:2104.04473) §5.1 count "the number of floating-point
    operations ... with activation recomputation" (96·B·s·l·h², not 72), so its Table 1 rows carry ``hfu_pct``
    (bench/mfu_ceilings.py writes ``metric: "hfu"``). Issue 35 round 17 (advice18). A borrowed ceiling
    (``fallback``) is the lowest HFU over other classes and is compared on the HFU too (advice19: :func:`_borrowed`)."""
    return bool(ceiling) and str(ceiling.get("metric") or "mfu") == "hfu"


def ceiling_figure(mfu_training, hfu_ratio, hfu: bool):
    """The plan's figure the ceiling is compared with: its training passes' MFU, or their HFU (× hardware FLOPs /
    model FLOPs per token, timing's ``hfu_ratio``) where the class's published run reports HFU
    (:func:`ceiling_is_hfu`): like with like. Comparing a full-recompute plan's MFU with a published HFU let a plan
    whose GPUs run 4/3 × the best published hardware rate pass uncapped (advice18)."""
    mt = np.asarray(mfu_training, dtype=float)
    if not hfu or hfu_ratio is None:
        return mt
    return mt * np.maximum(np.asarray(hfu_ratio, dtype=float), 1.0)


def capped(mfu, ceiling: float | None, mfu_training=None, hfu_ratio=None):
    """``(mfu_used, factor)``: the MFU the plan is timed at and the factor its training hours grow by.

    The ceiling bounds the training passes' MFU (``mfu_training``, timing's: an RL step less its rollout
    generation; without rollouts the MFU itself), or their HFU where ``hfu_ratio`` is given (the class's published
    run reports HFU: :func:`ceiling_figure`): only those passes are slowed to the ceiling, so the step grows
    by ``1 + (train share) × (figure / ceiling − 1)`` with train share = ``mfu / mfu_training``."""
    m = np.asarray(mfu, dtype=float)
    if ceiling is None:
        return m, np.ones_like(m)
    mt = m if mfu_training is None else np.asarray(mfu_training, dtype=float)
    fig = ceiling_figure(mt, hfu_ratio, hfu_ratio is not None)
    over = np.isfinite(m) & np.isfinite(fig) & (fig > ceiling) & (mt > 0)
    f_train = np.where(over, fig / ceiling, 1.0)  # how much the training passes slow down
    share = np.where(over, m / np.where(over, mt, 1.0), 0.0)  # their share of the step (mfu / mfu_training)
    factor = 1.0 + share * (f_train - 1.0)
    used = np.where(over, m / factor, m)
    return used, factor


def time_at(tm: Any, factor: float) -> Any:
    """The time estimate ``tm`` at the MFU the plan is timed at: every part of the step, hidden communication and
    named part stretched by ``factor`` (:func:`capped`), so the step time, tokens/s, MFU and compute days a person
    sees are those the plan is costed at. The modelled shares are kept, as a measured or assumed MFU keeps them
    (timing.time_arrays); ``tm`` itself is the modelled estimate. ``factor`` 1: ``tm`` unchanged."""
    f = float(factor)
    if tm is None or not math.isfinite(f) or f == 1.0:
        return tm
    return dataclasses.replace(tm, **_stretched(tm, f))


def _stretched(tm: Any, f: float) -> dict:
    """:func:`time_at`'s fields. The training passes' MFU (``mfu_training``; an RL step less its rollouts) slows by
    the training passes' own factor, ``1 + (f − 1) · mfu_training / mfu`` (:func:`capped`'s step factor solved for
    it), not by the step's: a capped GRPO plan read "timed at 53.2%" against a 46% ceiling it is timed at (issue
    35 round 18, advinv18). Without rollouts ``mfu_training`` is the MFU and the two factors are one."""
    mt = tm.mfu_training
    f_train = f if mt is None or not tm.mfu else 1.0 + (f - 1.0) * float(mt) / float(tm.mfu)
    return dict(
        step_time_s=tm.step_time_s * f, tokens_per_s_per_gpu=tm.tokens_per_s_per_gpu / f,
        tokens_per_s=tm.tokens_per_s / f, mfu=tm.mfu / f, hfu=tm.hfu / f, compute_days=tm.compute_days * f,
        gpu_hours=tm.gpu_hours * f, seconds={k: v * f for k, v in tm.seconds.items()},
        hidden={k: v * f for k, v in tm.hidden.items()}, parts={k: v * f for k, v in tm.parts.items()},
        p2p_s=tm.p2p_s * f, mfu_training=None if mt is None else mt / f_train)


def memory_margin() -> float:
    """The headroom share a plan needs (``memory_margin.p75``; 0 when the file has none)."""
    return float((_doc().get("memory_margin") or {}).get("p75", 0.0))


def shown_free_share(free: float, margin: float, is_tight: bool) -> float:
    """The free share as a sentence shows it beside the margin (both at 0.1%, ``{free:.1%}`` / ``{margin:.1%}``):
    rounded, then kept on the verdict's side of the shown margin, so a tight plan never reads "14.4% free, less
    than 14.4%" nor a roomy one "14.4% free: more than 14.4%" (ux11; before, the free share was shown to 1%
    beside a margin of 14.4%, "14% of the card free: more than ... 14.4%")."""
    step = 0.001
    shown, edge = round(float(free), 3), round(float(margin), 3)
    if is_tight and shown >= edge:
        return edge - step
    if not is_tight and shown <= edge:
        return edge + step
    return shown


def tight(mem_gib, cap_gib: float, margin: float | None = None):
    margin = memory_margin() if margin is None else margin
    return np.asarray(mem_gib, dtype=float) > cap_gib * (1.0 - margin) + 1e-9


def tp_over_pcie(gpu: Any, tp) -> np.ndarray:
    """TP > 1 on a card with no NVLink inside the node (catalog ``intra_node_link``)."""
    link = getattr(gpu, "intra_node_link", None) or "pcie"
    return np.asarray(link not in ("nvlink", "nvlink-bridge")) & (np.asarray(tp) > 1)


def band_ends(point, lo, hi):
    """The likely range shown and checked for an estimate: the band's ends (the plan's rental arithmetic at the
    family's p10 and p90 training hours) widened to hold the point estimate itself. A family whose published runs
    all ran faster than the model says (Megatron's p90 is below 1: resources/validation_bands.json) would
    otherwise print "12.3 days, likely range 10.8-12.0", an estimate outside its own range (issue 35 round 10,
    advice11). Vectorised: ``point``, ``lo`` and ``hi`` broadcast."""
    return np.minimum(lo, point), band_far_end(point, hi)


def band_far_end(point, hi):
    """The likely range's far end alone (:func:`band_ends`' upper end): the band's upper end widened to hold the
    point estimate. What the deadline/budget risk check reads. Vectorised."""
    return np.maximum(hi, point)


def at_risk(days_hi, cost_hi, deadline, budget):
    """Meets the deadline/budget only at the point estimate: the band's upper end misses one (the point estimate
    is checked by the ranking's own constraint mask)."""
    d = np.asarray(days_hi, dtype=float)
    out = np.zeros(d.shape, bool)
    if deadline is not None:
        out |= d > deadline + 1e-9
    if budget is not None:
        out |= np.asarray(cost_hi, dtype=float) > budget * (1 + 1e-9)
    return out


def nvlink_domain(gpu: Any) -> int:
    """GPUs one NVLink domain joins beyond a server (GB200 NVL72: 72 over 4-GPU trays, catalogue ``nvlink_domain``),
    else 0: the trays of one domain talk over the rack's NVLink switches, not over a network between servers
    (as core/timing.py ``ep_domain_of`` times them)."""
    return domain_beyond_server(gpu) if getattr(gpu, "intra_node_link", None) == "nvlink" else 0


def no_fabric(nodes, multi_node: bool | None, num_gpus=None, domain: int = 0):
    """Rows over several nodes whose price is not known to come from networked servers (``GpuPrice.multi_node``
    not True: a single-machine card-hour, or a quote that does not say): the ``price_fabric`` check fails them.
    Element-wise over ``nodes``; ``multi_node`` is the one price's word (one price bills the rows). Rows whose
    ``num_gpus`` fit in one NVLink domain larger than a server (``domain``, :func:`nvlink_domain`) need no network
    between servers."""
    out = (np.asarray(nodes) > 1) & (multi_node is not True)
    if domain and num_gpus is not None:
        out = out & ~in_nvlink_domain(num_gpus, domain)
    return out


def in_nvlink_domain(num_gpus, domain: int):
    """Whether a plan of ``num_gpus`` fits in one NVLink domain larger than a server (``domain``:
    :func:`nvlink_domain`, 0 when the card has none): its servers talk over the rack's NVLink switches, not a
    network. Element-wise over ``num_gpus``."""
    return (np.asarray(num_gpus) <= domain) & (int(domain) > 0)


def first_rule(pen: int, skip: int = 0) -> str | None:
    """The first rule (in :data:`BIT_RULES` order, the heaviest first) whose bit the penalty ``pen`` sets, leaving
    out the bits in ``skip``; None when it sets none."""
    return next((rid for bit, rid in BIT_RULES if int(pen) & bit and not bit & skip), None)


def penalty(*, risk=False, tp_pcie=False, poor=False, tight_mem=False, fabric=False, switches: Any = None):
    """The ranking penalty (0 = none; compared as a number: a plan without a networked price ranks after one at
    risk, which ranks after one on PCIe TP, ...)."""
    on = (lambda k: bool(getattr(switches, k, True))) if switches is not None else (lambda k: True)
    p = np.zeros(np.shape(risk) or np.shape(tp_pcie) or np.shape(poor) or np.shape(tight_mem) or np.shape(fabric),
                 np.int64)
    flags = {"price_fabric": fabric, "deadline_risk": risk, "tp_over_pcie": tp_pcie, "mfu_grade": poor,
             "memory_headroom": tight_mem}
    for bit, rid in BIT_RULES:
        if on(rid):
            p = p + np.where(np.asarray(flags[rid], bool), bit, 0)
    return p


def finite_or_none(x) -> float | None:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None

"""Regenerate ``examples/*.gpuplan`` (deterministic: fixed timestamps, prices from resources/prices.json).

Run: ``python bench/make_example_plans.py``. The ``results`` section is the estimate at generation time;
re-run after the models change and review the diff.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.io import planfile
from gpuplanner.io.planfile import ChecklistItem, SelectedPlan, UiState

ROOT = Path(__file__).resolve().parents[1] / "examples"
WHEN = datetime(2026, 1, 15, 9, 0, tzinfo=timezone.utc)

PLANS = [
    dict(
        file="7b-lora-1x4090.gpuplan",
        title="Mistral 7B LoRA on one 24 GB card",
        notes="LoRA (rank 16, all linear layers) on a single RTX 4090 with full recomputation; "
              "200M tokens of instruction data. A research-phase run, rented by the hour. The layout is fixed on "
              "purpose: the example shows that one 24 GB consumer card is enough; the Plans page lists what the "
              "search would rent for the same job.",
        scenario={
            "model": {"preset": "mistral-7b-v0.1"},
            "training": {"method": "lora", "precision": "bf16", "optimizer": "adamw", "seq_len": 2048,
                         "micro_batch_size": 1, "global_batch_size": 16, "recompute": "full",
                         "lora_rank": 16, "lora_targets": "all_linear"},
            "hardware": {"gpu": "rtx-4090-24gb", "num_gpus": 1, "gpus_per_node": 8},
            "data": {"tokens": "200M"},
            "constraints": {"deadline_days": 7, "currency": "CNY", "max_gpus": 8, "phase": "research"},
        },
        currency="CNY", provider="算家云",
        checklist=[("gpu_model_and_memory", True), ("driver_cuda", True), ("billing_terms", False)],
        page="memory",
    ),
    dict(
        file="8b-full-8xh100.gpuplan",
        title="Llama 3 8B full fine-tune on 8×H100",
        notes="Full-parameter fine-tune with FSDP (ZeRO-3) on one 8×H100 SXM node, 8k context, "
              "2B tokens. The layout is fixed on purpose, to show this FSDP node; the line under the cost names the "
              "search's best plan for the same job, and the Plans page lists it.",
        scenario={
            "model": {"preset": "llama-3-8b"},
            "training": {"method": "full", "precision": "bf16", "optimizer": "adamw", "framework": "fsdp",
                         "seq_len": 8192, "micro_batch_size": 1, "global_batch_size": 64, "recompute": "full"},
            "parallel": {"zero": 3},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8, "gpus_per_node": 8},
            "data": {"tokens": "2B"},
            "constraints": {"deadline_days": 14, "currency": "USD", "max_gpus": 16},
        },
        currency="USD", provider="Lambda", machine_gpus=8,
        checklist=[("gpu_model_and_memory", True), ("nvlink_topology", True), ("driver_cuda", False),
                   ("storage_throughput", False), ("billing_terms", False)],
        page="time",
    ),
    dict(
        file="70b-cpt-64xh100.gpuplan",
        title="Llama 3 70B continued pretraining on 64 GPUs",
        notes="Continued pretraining on 20B domain tokens with Megatron: TP 8 inside each node, PP 4 "
              "(interleaved, 2 virtual stages), DP 2 with ZeRO-1, sequence parallel, 8 nodes on NDR InfiniBand. "
              "The layout is fixed on purpose, to show this multi-node Megatron stack; the line under the cost "
              "names the search's best plan for the same job, and the Plans page lists it.",
        scenario={
            "model": {"preset": "llama-3-70b"},
            "training": {"method": "pretrain", "precision": "bf16", "optimizer": "adamw", "framework": "megatron",
                         "seq_len": 8192, "micro_batch_size": 1, "global_batch_size": 512,
                         "recompute": "selective"},
            "parallel": {"tp": 8, "pp": 4, "vpp": 2, "zero": 1, "sequence_parallel": True},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 64, "gpus_per_node": 8, "inter_node": "ib-ndr-400",
                         "nics_per_node": 8},
            "data": {"tokens": "20B"},
            "constraints": {"deadline_days": 30, "currency": "USD", "max_gpus": 128, "phase": "stable"},
        },
        currency="USD", provider="CoreWeave", machine_gpus=8,
        checklist=[("gpu_model_and_memory", True), ("nvlink_topology", True), ("inter_node_network", True),
                   ("nccl_all_reduce_bandwidth", False), ("driver_cuda", True), ("storage_throughput", False),
                   ("failure_handling", False), ("billing_terms", False)],
        page="plan",
    ),
    dict(
        file="qwen3-moe-full-16xh100.gpuplan",
        title="Qwen3-30B-A3B (MoE) full fine-tune on 16×H100",
        notes="Full fine-tune of the 128-expert Qwen3 MoE with Megatron expert parallelism (EP 8 inside "
              "each node), ZeRO-1, full recomputation; two nodes on NDR InfiniBand. The layout is fixed on "
              "purpose, to show expert parallelism over two nodes; the line under the cost names the search's "
              "best plan for the same job, and the Plans page lists it.",
        scenario={
            "model": {"preset": "qwen3-30b-a3b"},
            "training": {"method": "full", "precision": "bf16", "optimizer": "adamw", "framework": "megatron",
                         "seq_len": 4096, "micro_batch_size": 1, "global_batch_size": 128, "recompute": "full"},
            "parallel": {"ep": 8, "zero": 1},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 16, "gpus_per_node": 8, "inter_node": "ib-ndr-400"},
            "data": {"tokens": "3B"},
            "constraints": {"deadline_days": 10, "currency": "USD", "max_gpus": 32},
        },
        currency="USD", provider="Lambda", machine_gpus=8,
        checklist=[("gpu_model_and_memory", True), ("nvlink_topology", False), ("inter_node_network", False),
                   ("driver_cuda", False), ("billing_terms", False)],
        page="memory",
    ),
]


def build(spec: dict) -> planfile.PlanDocument:
    scenario = scenario_from_dict(spec["scenario"])
    hw = scenario.hardware
    snap = planfile.price_snapshot([hw.gpu], spec["currency"]).model_copy(update={"taken": WHEN})
    row = next(r for r in snap.prices if r.provider == spec["provider"]
               and r.machine_gpus == spec.get("machine_gpus", r.machine_gpus))
    doc = planfile.new_document(scenario, title=spec["title"])
    doc.created = doc.modified = WHEN
    doc.notes = spec["notes"]
    doc.price_snapshot = snap
    sel = SelectedPlan(
        label=f"{hw.num_gpus} × {hw.gpu} at {row.provider}", gpu=hw.gpu, num_gpus=hw.num_gpus,
        gpus_per_node=hw.gpus_per_node, provider=row.provider, currency=row.currency, card_hour=row.card_hour,
    )
    # the selection's complete scenario: the layout above with the provider's quote as the GPU's price
    full = planfile.selection_scenario(scenario.model_dump(mode="json"), sel.model_dump(mode="json"),
                                       snap.model_dump(mode="json"))
    sel_scenario = scenario_from_dict(full)
    ev = evaluate(sel_scenario)
    doc.selected_plan = sel.model_copy(update={"scenario": sel_scenario, "calendar_days": round(ev.calendar_days, 3),
                                               "cost": None if ev.cost is None else round(ev.cost, 2)})
    doc.vendor_checklist = [ChecklistItem(id=i, checked=c) for i, c in spec["checklist"]]
    doc.ui_state = UiState(current_page=spec["page"])
    doc.results = ev.to_json()
    return doc


def main() -> None:
    ROOT.mkdir(exist_ok=True)
    for spec in PLANS:
        doc = build(spec)
        planfile.atomic_write(ROOT / spec["file"], planfile.dumps(doc), backup=False)
        print(ROOT / spec["file"])


if __name__ == "__main__":
    main()

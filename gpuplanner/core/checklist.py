"""The vendor checklist: what to confirm with a GPU rental vendor before signing, and why.

The items are data (:data:`ITEMS`); titles and explanations are wrapped in
``QT_TRANSLATE_NOOP("Checklist", ...)`` so the UI translates them at display time. What the user ticked and
noted is a :class:`ChecklistState` (``{item_id: {"checked": bool, "notes": str}}``) that the plan file
stores; :meth:`ChecklistState.to_plan_items` / :meth:`ChecklistState.from_plan_items` convert to and from
the plan file's ``vendor_checklist`` list (``[{"id", "checked", "note"}]``).

Item ids are a public contract (plan files store them): add items, never rename an id.
Pure Python: no Qt import here.
"""

from __future__ import annotations

from typing import Any, Iterable

from pydantic import BaseModel, ConfigDict, Field, RootModel

from dataclasses import dataclass
from .i18n import QT_TRANSLATE_NOOP

CTX = "Checklist"


@dataclass(slots=True, frozen=True)
class ChecklistItem:
    id: str
    title: str
    why: str
    domestic_only: bool = False


ITEMS: tuple[ChecklistItem, ...] = (
    ChecklistItem(
        "domestic_compat",
        QT_TRANSLATE_NOOP(CTX, "Framework and operator compatibility checked first (domestic accelerators)"),
        QT_TRANSLATE_NOOP(
            CTX, "Domestic accelerators (Ascend, Kunlun, Hygon, Cambricon …) run PyTorch through vendor plug-ins "
            "(torch_npu and similar). Missing or slow operators — FlashAttention variants, fused optimizers, "
            "custom kernels — can stop a training job or halve its speed. Run your own training script on the "
            "vendor's software stack before anything else on this list."),
        domestic_only=True,
    ),
    ChecklistItem(
        "real_stock",
        QT_TRANSLATE_NOOP(CTX, "Real GPU stock, not “schedulable” capacity"),
        QT_TRANSLATE_NOOP(
            CTX, "Ask for cards that exist and are free for your dates. \"Schedulable\" or pooled capacity can "
            "mean the cards appear only when another customer leaves, so a job that needs all GPUs at once may "
            "wait or start on fewer."),
    ),
    ChecklistItem(
        "failure_sla",
        QT_TRANSLATE_NOOP(CTX, "Hardware failure SLA and free spare swap"),
        QT_TRANSLATE_NOOP(
            CTX, "GPUs, NICs and memory fail during long runs (Meta counted 419 unexpected interruptions in 54 "
            "days on 16,384 H100s, Llama 3 report §3.3.4). Get in writing how fast a failed card or node is "
            "replaced, that the replacement is free, and whether the lost time is credited."),
    ),
    ChecklistItem(
        "data_isolation",
        QT_TRANSLATE_NOOP(CTX, "Data isolation: VPC or bare metal; does data leave the region?"),
        QT_TRANSLATE_NOOP(
            CTX, "Training data and checkpoints are often confidential or regulated. Confirm that the machines "
            "are bare metal or in your own VPC, that storage is not shared with other tenants, and where the "
            "data is stored and backed up (cross-border transfer rules may apply)."),
    ),
    ChecklistItem(
        "idc_licence",
        QT_TRANSLATE_NOOP(CTX, "IDC/ISP licence (check it on the MIIT site)"),
        QT_TRANSLATE_NOOP(
            CTX, "In mainland China, renting out servers and bandwidth needs an IDC (and ISP) value-added telecom "
            "licence. Look the licence number up on the MIIT telecom-licence query platform; an unlicensed "
            "reseller can be shut down mid-run."),
    ),
    ChecklistItem(
        "images_disks",
        QT_TRANSLATE_NOOP(CTX, "Images/snapshots and persistent data disks for resume"),
        QT_TRANSLATE_NOOP(
            CTX, "If the environment and checkpoints survive a release of the machine, a stopped job resumes in "
            "minutes instead of re-installing drivers and re-copying data. Ask whether system images can be "
            "saved and data disks kept (and what they cost) between rentals."),
    ),
    ChecklistItem(
        "in_place_upgrade",
        QT_TRANSLATE_NOOP(CTX, "In-place upgrade (4 → 8 cards) without migration"),
        QT_TRANSLATE_NOOP(
            CTX, "Starting small and growing is cheaper only if more cards can be added to the same machine or "
            "cluster without moving data and rebuilding the environment."),
    ),
    ChecklistItem(
        "frameworks",
        QT_TRANSLATE_NOOP(CTX, "Pre-configured frameworks (DeepSpeed, Megatron-LM, vLLM)"),
        QT_TRANSLATE_NOOP(
            CTX, "Matching driver, CUDA, NCCL and framework versions take time to get right; a tested image saves "
            "paid hours. Check the versions against what your code needs."),
    ),
    ChecklistItem(
        "dedicated_interconnect",
        QT_TRANSLATE_NOOP(CTX, "Interconnect actually dedicated (NVLink, InfiniBand/RoCE not shared)"),
        QT_TRANSLATE_NOOP(
            CTX, "Tensor parallelism needs NVLink inside the node and multi-node jobs need the promised NICs per "
            "node. A shared or oversubscribed network turns into all-reduce time. Check nvidia-smi topo -m and "
            "the kit's all-reduce bandwidth."),
    ),
    ChecklistItem(
        "paid_trial",
        QT_TRANSLATE_NOOP(CTX, "A short paid trial with your own script"),
        QT_TRANSLATE_NOOP(
            CTX, "A few hours on the exact machine type, running GPU Planner's acceptance kit and your own "
            "training step, shows the real MFU, bandwidth and power before you commit to weeks or months."),
    ),
)


#: Only for a plan that keeps states in the servers' CPU memory (CPU offload; :func:`items_for_plan`), so it is not
#: in :data:`ITEMS` (the Verify page's list for every plan). Issue 35 round 18 (advice20): the Mixtral example's #1
#: (8 × L40S, the optimizer in CPU memory) needs about 1,044 GiB of host RAM per server; the plan said so, but the
#: vendor checklist, what the user confirms before signing (planning guide, "Vendor hard indicators"), did not ask.
HOST_RAM_ITEM = ChecklistItem(
    "host_ram",
    QT_TRANSLATE_NOOP(CTX, "Host RAM per server for CPU offload, in the quote"),
    QT_TRANSLATE_NOOP(
        CTX, "This plan keeps optimizer states (or weights) in the servers' CPU memory. A server with less host RAM "
        "than the plan's requirements name cannot run it: the job fails when it allocates its pinned buffers. Get "
        "the host RAM per server written into the quote, and check it on the machine (free -g; the acceptance kit "
        "reads it)."),
)


def items_for_plan(gpu: Any, host_ram_gib: float | None) -> list[ChecklistItem]:
    """The items for a plan: :func:`items_for_gpu`, and the host RAM item where the plan's CPU offload needs host
    RAM (``host_ram_gib``: ``Evaluation.host_ram.total``; None or 0: no offload)."""
    out = items_for_gpu(gpu)
    if host_ram_gib:
        out.append(HOST_RAM_ITEM)
    return out


def items(domestic: bool | None = None) -> list[ChecklistItem]:
    """The checklist items; ``domestic=False`` leaves out the domestic-accelerator items, ``None`` keeps all."""
    return [it for it in ITEMS if domestic is None or domestic or not it.domestic_only]


def items_for_gpu(gpu: Any) -> list[ChecklistItem]:
    """The items that apply to a GPU (catalog id or record): domestic items only for class ``domestic``."""
    from .catalog_hw import get_gpu

    return items(domestic=get_gpu(gpu).gpu_class == "domestic")


def get_item(item_id: str) -> ChecklistItem:
    for it in ITEMS + (HOST_RAM_ITEM,):
        if it.id == item_id:
            return it
    raise KeyError(item_id)


class ChecklistEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    checked: bool = False
    notes: str = Field("", max_length=10_000)


class ChecklistState(RootModel[dict[str, ChecklistEntry]]):
    """What the user ticked and noted, by item id. Unknown ids (from a newer version) are kept."""

    root: dict[str, ChecklistEntry] = Field(default_factory=dict)

    def entry(self, item_id: str) -> ChecklistEntry:
        return self.root.get(item_id) or ChecklistEntry()

    def set(self, item_id: str, checked: bool | None = None, notes: str | None = None) -> None:
        cur = self.root.get(item_id) or ChecklistEntry()
        self.root[item_id] = ChecklistEntry(checked=cur.checked if checked is None else bool(checked),
                                            notes=cur.notes if notes is None else notes)

    def progress(self, applicable: Iterable[ChecklistItem] | None = None) -> tuple[int, int]:
        """(checked, total) over the applicable items (default: all items)."""
        its = list(ITEMS if applicable is None else applicable)
        return sum(1 for it in its if self.entry(it.id).checked), len(its)

    def to_plan_items(self) -> list[dict]:
        """The plan file's ``vendor_checklist`` list: ``[{"id", "checked", "note"}]`` (known items first)."""
        order = [it.id for it in ITEMS if it.id in self.root] + sorted(k for k in self.root if k not in
                                                                     {it.id for it in ITEMS})
        return [{"id": k, "checked": self.root[k].checked, "note": self.root[k].notes} for k in order]

    @classmethod
    def from_plan_items(cls, rows: Iterable[Any]) -> "ChecklistState":
        """Read the plan file's list (dicts or objects with ``id``, ``checked``, ``note``/``notes``)."""
        out: dict[str, ChecklistEntry] = {}
        for row in rows:
            get = row.get if isinstance(row, dict) else (lambda k, d=None, r=row: getattr(r, k, d))
            rid = get("id")
            if not rid:
                continue
            notes = get("note")
            if notes is None:
                notes = get("notes", "")
            out[str(rid)] = ChecklistEntry(checked=bool(get("checked", False)), notes=str(notes or ""))
        return cls(out)

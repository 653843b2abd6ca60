"""Issue 35 round 14 (helper titan14): the torchtitan FSDP2 H100 rows whose card the source does not name, on the
card Meta's torchtitan developers log.

Nothing here changes the model. For each H100 row of ``bench/validate_fsdp_oos.py`` whose source says "8 H100" or "4
H100" without naming the card in its text, this prints the published seconds per step and the model's on three cards
(whatever card the row carries; since this round the bench puts 14 of the 15 on the Grand Teton card):

- the catalogue's H100 SXM 80 GB (700 W, 3.35 TB/s: what the rows use today);
- Meta's Grand Teton H100 96 GB HBM2e (500 W, 2.4 TB/s; ``validate_time.GRAND_TETON_H100``) at the SXM datasheet's
  peaks (989 / 1,979 TFLOPS), as the Dec-2024 torchtitan table computes its MFU with: the upper bound of its speed;
- the same card at the H100 NVL's peaks (835.5 / 1,670.5 TFLOPS, 400 W): that table's footnote 2 puts the 500 W
  card's real peak "between SXM and NVL", so this is the lower bound of its speed.

Why the Grand Teton card: torchtitan logs ``memory: X GiB(Y%)`` with Y = X / the device's total memory
(``DeviceMemoryMonitor``: ``torch.cuda.get_device_properties().total_memory``). Logs by Meta's torchtitan developers
on their H100s give X / Y = 95.0 GiB, the 96 GB card (an 80 GB H100 SXM reports about 79.6 GiB, 81,559 MiB):
pytorch/torchtitan PR #1287 (June 2025, 8B on 8 GPUs: "49.66GiB(52.28%)"), PR #1884 (Oct 2025: "33.21GiB(34.95%)", "44.84GiB(47.19%)"),
``torchtitan/experiments/graph_trainer/.claude/CLAUDE.md`` (2026: "48.87GiB(51.44%)"). The rows' own sources
(pytorch/ao float8nocompile README, docs/float8.md, torchao's training README, torchtitan #1207) print no
percentage, but the logs of the runs behind them do: pytorch/torchtitan PR #808 (vkuzo, Jan 2025: the bf16 5,760,
rowwise 6,468 and tensorwise 7,186 figures of docs/float8.md 7a04053 and #808, "47.65GiB(50.16%)",
"47.77GiB(50.28%)", "47.32GiB(49.81%)") and pytorch/ao PR #1802 (danielvegamyhre, 28 Feb 2025: the benchmark
script behind torchao's H100 table, rowwise "47.79GiB(50.30%)", the table's 47.79 GB peak): 95.0 GiB. The
float8nocompile (same author, 11 Feb 2025) and #1207 rows (same author, May 2025) are an inference.

Error convention as ``validate_fsdp_oos``: predicted tokens/s / published − 1 (+ = the model too fast).
Run: ``python bench/titan14_card_bracket.py``.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gpuplanner.core.catalog_hw import get_gpu  # noqa: E402
from gpuplanner.core.evaluate import evaluate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

#: the groups of validate_fsdp_oos whose card the source does not name (8 or 4 H100)
UNNAMED_GROUPS = ("H100 8 GPUs", "H100 4 GPUs")
#: the H100 NVL's dense peaks (835.5 / 1,670.5 TFLOPS: read from the catalogue's h100-nvl-94gb): the lower bound of
#: the 500 W card's peak
NVL_PEAKS = {k: float(getattr(get_gpu("h100-nvl-94gb"), k)) for k in ("bf16_tflops", "fp8_tflops")}


def catalogue(sc: dict) -> dict:
    """``sc`` on the catalogue's H100 SXM 80 GB (what the rows carried before this round)."""
    hw = {k: v for k, v in sc["hardware"].items() if k not in ("custom_gpus", "inter_node")}
    return {**sc, "hardware": {**hw, "gpu": "h100-sxm-80gb"}}


def gt_card(sc: dict, peaks: dict | None = None) -> dict:
    """``sc`` on the Grand Teton card, at the SXM peaks or at ``peaks``."""
    import validate_fsdp_oos as v
    vt = v._vt()
    card = {**vt.GRAND_TETON_H100, **(peaks or {})}
    if peaks:
        card = {**card, "id": card["id"] + "-nvl-peak", "name": card["name"] + " at NVL peaks"}
    hw = {**catalogue(sc)["hardware"], "gpu": card["id"], "custom_gpus": [card]}
    if sc["hardware"].get("num_gpus", 8) > 8:
        hw["inter_node"] = "ib-ndr-400"
    return {**sc, "hardware": hw}


def step_s(sc: dict) -> float:
    t = evaluate(scenario_from_dict(sc)).time_modelled
    return t.tokens_per_step / sc["hardware"]["num_gpus"] / t.tokens_per_s_per_gpu


def rows() -> list[dict]:
    import validate_fsdp_oos as v
    out = []
    for group, name, sc, pub, _src in v.rows():
        if not group.startswith(UNNAMED_GROUPS):
            continue
        per_gpu = evaluate(scenario_from_dict(sc)).time_modelled.tokens_per_step / sc["hardware"]["num_gpus"]
        out.append({"group": group, "name": name, "pub_s": per_gpu / pub, "cat": step_s(catalogue(sc)),
                    "gt": step_s(gt_card(sc)),
                    "gt_nvl": step_s(gt_card(sc, NVL_PEAKS))})
    return out


def err(pub_s: float, mod_s: float) -> float:
    """Predicted tokens/s / published − 1 (+ = too fast)."""
    return pub_s / mod_s - 1.0


def ac_increments(res: list[dict]) -> list[tuple[str, str, float, float, float, float]]:
    """The float8nocompile AC triples (one layout, AC none / every 2nd layer / full): each AC setting's step minus
    the no-AC step, published and on each card. Recomputation is one more forward of the checkpointed blocks, so
    this difference measures the blocks' forward alone: (triple, setting, published, catalogue, GT SXM, GT NVL)."""
    out = []
    for key in ("BF16 eager", "float8 + compile"):
        grp = {r["name"].split(", ")[1]: r for r in res
               if r["name"].startswith("8B s4096 lbs 1") and r["name"].endswith(key)}
        if len(grp) != 3:
            continue
        base = grp["no AC"]
        for ac in ("AC every 2nd layer", "full AC"):
            r = grp[ac]
            out.append((key, ac, r["pub_s"] - base["pub_s"], r["cat"] - base["cat"], r["gt"] - base["gt"],
                        r["gt_nvl"] - base["gt_nvl"]))
    return out


def main() -> None:
    res = rows()
    print("| row | published s/step | catalogue SXM s (err) | Grand Teton, SXM peaks s (err) | "
          "Grand Teton, NVL peaks s (err) | published inside the bracket? |")
    print("|---|---:|---:|---:|---:|---|")
    for r in res:
        inside = r["gt"] <= r["pub_s"] <= r["gt_nvl"]
        print(f"| {r['name']} | {r['pub_s']:.3f} | {r['cat']:.3f} ({err(r['pub_s'], r['cat']):+.1%}) | "
              f"{r['gt']:.3f} ({err(r['pub_s'], r['gt']):+.1%}) | {r['gt_nvl']:.3f} ({err(r['pub_s'], r['gt_nvl']):+.1%}) | "
              f"{'yes' if inside else 'no'} |")
    print()
    for key, label in (("cat", "catalogue SXM"), ("gt", "Grand Teton, SXM peaks"), ("gt_nvl", "Grand Teton, NVL peaks")):
        e = [err(r["pub_s"], r[key]) for r in res]
        a = sorted(abs(x) for x in e)
        p90 = a[min(len(a) - 1, int(round(0.9 * (len(a) - 1))))]
        print(f"{label}: {len(e)} rows, |err| median {statistics.median(a):.1%}, p90 {p90:.1%}, "
              f"signed median {statistics.median(e):+.1%}")
    print()
    print("| AC triple (8B, 8 H100, 1 x 4096) | setting | published recompute s | model s (model / published − 1): catalogue SXM | GT, SXM peaks | "
          "GT, NVL peaks |")
    print("|---|---|---:|---:|---:|---:|")
    for key, ac, pub, cat, gt, nvl in ac_increments(res):
        print(f"| {key} | {ac} | {pub:.3f} | {cat:.3f} ({cat / pub - 1:+.0%}) | {gt:.3f} ({gt / pub - 1:+.0%}) | "
              f"{nvl:.3f} ({nvl / pub - 1:+.0%}) |")


if __name__ == "__main__":
    main()

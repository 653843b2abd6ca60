"""``gpuplanner estimate FILE [--json]``: every figure of the plan a file stands for (:func:`gpuplanner.app.answer.decide`:
the selected plan; else, with automatic layout, the search's #1; else the scenario as given).

Prints the core's :class:`~gpuplanner.core.evaluate.Evaluation`; ``--json`` is its
:meth:`~gpuplanner.core.evaluate.Evaluation.to_json` (``memory_per_gpu_gib`` with ``total``,
``compute_days``, ``calendar_days``, ``cost``, ``currency``, ``rental_mode``, the complete ``scenario`` …).
"""

from __future__ import annotations


# the core and io are imported by run(): ``gpuplanner --help`` and the other commands do not load them
from ..core.i18n import QT_TRANSLATE_NOOP
from ..formatting import format_plan_time, format_money, format_params, join_clause, format_number, format_percent, format_sig, gpu_display_name
from ._args import label as _lbl, likely_range, rent_vs_build_lines, strict_json
from ._lang import msg, name, translate
from ..formatting import breakdown_rows, format_list, hidden_share_rows, paren, plural_s

CTX = "CLI"



def _time_lines(ev) -> list[str]:
    """The compute and calendar lines, in the one unit of the plan's whole range (hours below a day, as the
    Project page and the app write the same plan; formatting.format_plan_time; ux21, ux22: one message each)."""
    h = format_sig(ev.scenario.constraints.hours_per_week)
    head, compute, _ = format_plan_time(ev.calendar_days, ev.compute_days, ev.calendar_days_band)
    return ["  " + _lbl(translate(CTX, "compute"), 17) + translate(CTX, "{span} around the clock, {hours} card-hours").format(
                span=compute, hours=format_number(ev.gpu_hours)),
            "  " + _lbl(translate(CTX, "calendar"), 17) + translate(
                CTX, "{span} with setup, checkpoints, interruptions and {h} h/week").format(span=head, h=h)]


def register(sub) -> None:
    p = sub.add_parser(
        "estimate",
        help=QT_TRANSLATE_NOOP("CLI", "estimate parameters, memory per GPU, time and cost for a scenario or plan"),
        description=QT_TRANSLATE_NOOP("CLI", "Estimate one plan: the scenario's own GPU, GPU count and parallel layout "
                                      "(a .gpuplan file: its selected plan). Prints the model's size, the memory per "
                                      "GPU and whether it fits, the training time and the rental cost; no search."))
    p.add_argument("file", help=QT_TRANSLATE_NOOP("CLI", "scenario JSON or .gpuplan file (its selected plan)"))
    p.add_argument("--json", action="store_true", help=QT_TRANSLATE_NOOP("CLI", "print a JSON object instead of a table"))
    p.set_defaults(func=run)


def run(args) -> int:
    from ..app.answer import answer

    # the plan the file stands for (app.answer.decide), through the one gate for absurd plans (app.answer.shown)
    ans = answer(args.file)
    ev = ans.evaluation
    data = ev.to_json()
    # the search's best plan when it beats the file's own layout by more than the search's tie (app.answer.better;
    # choice15): the Evaluation stays the file's plan, the line says what the search would rent instead
    better = ans.better
    if args.json:
        data["better_plan"] = None if better is None else better.to_json()
        print(strict_json(data, indent=2, sort_keys=True))
        return 0
    lines = text_lines(ev, data)
    if better is not None:  # under the plan's price, where the answer is given
        at = next((i for i, ln in enumerate(lines) if ln == translate(CTX, "Cost")), len(lines) - 2)
        lines.insert(min(at + 2, len(lines)), "  > " + msg(better.message))
    print("\n".join(lines))
    return 0



def _layout_keys() -> str:
    """What each key of the Layout line means, said once under it: a new user has not heard of ZeRO, and the keys
    are the frameworks' own names, kept as they are so that they can be typed into the scenario (cli18)."""
    return translate(CTX, "(tp: GPUs each layer's weights are split over; pp: pipeline stages; cp: GPUs each "
                          "sequence is split over; ep: GPUs the experts are spread over; vpp: model chunks per "
                          "pipeline stage; dp: copies of the model, each fed its own data; zero: ZeRO stage, what "
                          "is split over the dp copies: 0 nothing, 1 optimizer states, 2 and gradients, 3 and "
                          "weights; mbs: sequences per micro-batch; grad_accum: micro-batches added up before each "
                          "weight update; recompute: activations recomputed in the backward pass instead of kept)")


# long: the text report of one Evaluation, section by section in the printed order; each line formats one field
def text_lines(ev, data: dict) -> list[str]:
    """The Evaluation as the text table, in the CLI's language, every number through the one formatter."""
    from ..core.estimate import tier_guidance

    p = data["params"]
    lay = data["layout"]
    mem = data["memory_per_gpu_gib"]
    part_names = {
        "weights": translate(CTX, "weights"), "gradients": translate(CTX, "gradients"),
        "optimizer": translate(CTX, "optimizer"), "activations": translate(CTX, "activations"),
        "other": translate(CTX, "other"), "reference": translate(CTX, "reference model"),
        "reward": translate(CTX, "reward model"), "critic": translate(CTX, "critic (value) model"),
        "rollout_weights": translate(CTX, "rollout engine weights"), "kv_cache": translate(CTX, "KV cache"),
    }
    lines = [
        _lbl(translate(CTX, "Model")) + str(data["model"]),
        _lbl(translate(CTX, "Parameters")) + translate(CTX, "total {total} ({exact})   active {active}   "
                                                          "trainable {trainable}").format(
            total=format_params(p["total"]), exact=format_number(p["total"]), active=format_params(p["active"]),
            trainable=format_params(p["trainable"]))
        + (translate(CTX, "   (vision encoder {v} + projector {pr})").format(
            v=format_params(p["vision"]), pr=format_params(p["projector"])) if p.get("vision") else ""),
        # the guidance names its tier ("~100B tier: …"): not "100B: ~100B tier: …" (ux17)
        _lbl(translate(CTX, "Tier")) + translate("Tier", tier_guidance(data["tier"], ev.scenario.training.method)),
        _lbl(translate(CTX, "Hardware")) + plural_s(translate(CTX, "{n} × {gpu} ({mem} GiB each, {nodes} node(s))"), ev.nodes).format(
            n=ev.num_gpus, gpu=gpu_display_name(ev.gpu_name), mem=format_sig(ev.gpu_memory_gib), nodes=ev.nodes),
        _lbl(translate(CTX, "Layout")) + "{framework}: tp={tp} pp={pp} cp={cp} ep={ep} vpp={vpp} dp={dp} zero={zero} "
        "mbs={micro_batch_size} grad_accum={grad_accum} recompute={recompute}".format(**lay)
        + (" " + translate(CTX, "(pipeline: {m} micro-batches of {n} per step)").format(
            m=lay["pipeline_microbatches"], n=lay["pipeline_microbatch_size"])
           if lay["pp"] > 1 and lay.get("pipeline_microbatch_size") != lay["micro_batch_size"] else ""),
        _lbl("") + _layout_keys(),
        *([_lbl(translate(CTX, "Objective")) + translate(CTX, "{objective}: models held: {models}").format(
            objective=ev.scenario.training.objective.upper(),
            models=format_list(part_names.get(m, m) for m in data["objective"]["models_held"]) or "-")]
          if ev.scenario.training.objective != "sft" else []),
        "",
        translate(CTX, "Memory per GPU (GiB)"),
    ]
    keys = [k for k in ("weights", "gradients", "optimizer", "activations", "other") if k in mem]
    allocator = ("allocated", "reserved")  # the caching allocator's figures: not parts of the total
    keys += [k for k in mem if k not in keys and k != "total" and k not in allocator
             and isinstance(mem[k], (int, float))]
    for key in keys:
        lines.append("  " + _lbl(part_names.get(key, key), 12) + f"{format_number(mem[key], 2):>8}")
    fit = translate(CTX, "fits") if ev.fits else translate(CTX, "DOES NOT FIT")
    # the margin kept free on top of the estimate said as the sum it is: "+ 2.0 GiB kept free on top of the
    # estimate = 71.42 of 80 GiB" (ux27: "69.42 of 80 GiB (headroom 2.0 GiB)" read as if 80 − 69.4 were 2.0)
    lines.append("  " + _lbl(translate(CTX, "total"), 12) + f"{format_number(mem['total'], 2):>8}   " + translate(
        CTX, "+ {head} GiB kept free on top of the estimate = {need} of {cap} GiB: {fit}").format(
            cap=format_sig(ev.gpu_memory_gib), head=format_number(ev.memory.headroom, 1),
            need=format_number(mem["total"] + ev.memory.headroom, 2), fit=fit))
    hr = data.get("host_ram_per_node_gib")
    if hr:
        have = "" if hr["available"] is None else translate(CTX, " of {n} GiB").format(n=format_number(hr["available"]))
        lines.append("  " + _lbl(translate(CTX, "host RAM"), 12) + f"{format_number(hr['total'], 1):>8}   " + translate(
            CTX, "per node for CPU offload{have} (optimizer {opt}, parameters {par}, × {buf} buffers; "
            "activations {act})").format(have=have, opt=format_number(hr["optimizer"], 1),
                                          par=format_number(hr["params"], 1), buf=format_sig(hr["buffer_factor"]),
                                          act=format_number(hr["activations"], 1)))
    if all(k in mem for k in allocator):
        lines.append("  " + translate(CTX, "PyTorch allocator: {a} GiB allocated, {r} GiB reserved (the total adds the "
                                           "CUDA context and NCCL buffers)").format(
            a=format_number(mem["allocated"], 2), r=format_number(mem["reserved"], 2)))
    lines += [
        "",
        translate(CTX, "Time"),
        "  " + _lbl(translate(CTX, "step time"), 17) + translate(CTX, "{s} s").format(s=format_number(data["step_time_s"], 3)),
        "  " + _lbl(translate(CTX, "tokens/s/GPU"), 17) + format_number(data["tokens_per_s_per_gpu"]),
        "  " + _lbl(translate(CTX, "MFU / HFU"), 17) + f"{format_percent(data['mfu'], 1)} / {format_percent(data['hfu'], 1)}"
        + ("" if ev.mfu_note is None else f" ({msg(ev.mfu_note)})"),
        "  " + _lbl("", 17) + translate(CTX, "(MFU: the share of the GPUs' peak FLOP/s spent on the model's own "
                                             "math; HFU counts recomputed activations too)"),
        # RL: the training passes' MFU, the figure the grade reads (Evaluation.rl_training_mfu: `plan`, the Plans
        # page and the PDF show the same one; parity16)
        *([] if ev.rl_training_mfu is None or abs(ev.rl_training_mfu - ev.time.mfu) < 1e-9 else [
            "  " + _lbl(translate(CTX, "MFU, training"), 17) + translate(
                CTX, "{mfu} of the training passes (rollout generation left out; the MFU grade and ceiling read it)"
            ).format(mfu=format_percent(ev.rl_training_mfu, 1))]),
        *_time_lines(ev),
    ]
    band = likely_range(ev, ev.currency)  # the headline's precision (formatting.format_days_band; mend10c)
    if band is not None:
        lines.append("  " + _lbl(translate(CTX, "likely range"), 17) + join_clause(*band))
    share_names = {k: translate("Timing", v) for k, v in ev.time.breakdown_labels.items()}
    tb = breakdown_rows(ev.time.breakdown)  # the rows the Plans details and the PDF show too
    if tb:
        lines.append("  " + _lbl(translate(CTX, "time share"), 17)
                     + format_list(f"{share_names.get(k, k)} {pct}" for k, pct in tb))
    hidden = hidden_share_rows(ev.time.hidden_shares)  # the rows the Plans details and the PDF show too
    if hidden:
        from ..core.timing import HIDDEN_LABELS

        lines.append("  " + _lbl(translate(CTX, "hidden"), 17) + translate(
            CTX, "run under compute, not in the step time: {parts} of the step").format(parts=format_list(
                f"{translate('Timing', HIDDEN_LABELS[k])} {pct}" for k, pct in hidden)))
    lines += ["", translate(CTX, "Cost")]
    if not ev.memory.fits:  # as the PDF (ux21): a layout that cannot run is not priced, nor rented or built (ux22)
        lines.append("  " + translate(CTX, "No price: this layout does not fit in GPU memory, so it cannot be rented "
                                           "as it is."))
    elif ev.cost is None:
        lines.append("  " + translate(CTX, "no price for this GPU: enter a quote"))
    else:
        lines.append("  " + join_clause(format_money(ev.cost, ev.currency), paren(name('Cost', ev.rental_mode_label))))
        lines += [f"  • {msg(m)}" for m in ev.rental_advice]  # the mode's alternatives, as `plan` prints them
    if ev.rent_vs_build is not None and ev.memory.fits:
        lines += ["", translate(CTX, "Rent or build"), f"  {msg(ev.rent_vs_build.sentence)}"]
        lines += rent_vs_build_lines(ev.rent_vs_build, indent="  ")
    for m in ev.messages:
        lines.append(f"! {msg(m)}")
    return lines

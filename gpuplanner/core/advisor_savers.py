"""A #1 that is tight on memory, or rents a whole week or month for a much shorter run: what the framework's own
memory savers would rent instead (issue 35 round 11, expert11).

The case behind it: GRPO of Qwen3-30B-A3B (full, vLLM colocated, ≤ 32 GPUs, a run of under two hours). No
card-hour quote rents networked servers, so ``price_fabric`` ranks every multi-node plan after the one-node plans;
the only one-node plan that fits is 8 × H200 at 97% of the card, billed by the whole month at 94,000 CNY, for a
job of 0.07 days. A senior engineer would not sign that, nor a 4-node plan whose price buys no network: they would
run the job on one node with the memory savers the framework ships for exactly this case. ms-swift's own example
of this model's colocated GRPO (``examples/megatron/grpo/moe_colocate_full.sh``, modelscope/ms-swift at commit
fd97855315) runs it on one 8-GPU node with ``--sleep_level 2 --offload_model true --offload_optimizer true
--optimizer_cpu_offload true --use_precision_aware_optimizer``: vLLM sleeps while the model trains (vLLM's sleep
mode; TRL ``vllm_enable_sleep_mode``, verl ``free_cache_engine``) and the optimizer states live in CPU memory
(Megatron-Core ``--optimizer-cpu-offload``: megatron/core/optimizer/__init__.py builds a HybridDeviceOptimizer,
megatron/training/arguments.py requires ``--use-precision-aware-optimizer`` with it; DeepSpeed ZeRO-Offload
``offload_optimizer``). The same holds for full training beyond RL: Llama 3.1 70B full fine-tuning on ≤ 64 GPUs
ranks 8 × H200 by the month at 97% of the card first, while with the optimizer in CPU memory 8 × H800 on one node
fits with the headroom on card-hours.

Round 12 (savers12): the savers of colocated RL on Megatron-SWIFT also move the training model to CPU memory while
vLLM generates (``training.rl.offload_model``, the example's ``--offload_model true --offload_optimizer true``):
with vLLM asleep, training and generation each have the card to themselves, at the price of a copy over the host
link each step, where the CPU optimizer costs a CPU Adam step. :func:`saver_options` lists the sets to try, fewest
first; the line names the one whose best plan ranks best by the search's order (the fewer savers on a tie). GRPO of
Qwen3-30B-A3B, cheapest: all three savers give 4 × A800 on one node, card-hours; vLLM asleep and the model
offloaded alone give 8 × H20 on one node (the example's TP 4 × EP 4 × PP 2), faster and dearer.

The user's choices are kept (as ``search.FIT_INSTEAD``: said, never applied): the savers cost time (the optimizer
step on the host, vLLM's wake-up) and host memory, which the search counts for the plan it names. #1 keeps its rank;
its explanation says, right under its rank line, which plan the savers give, at what figures, and which fields to
set. The line is given only when that plan ranks better than #1 by the search's own order: fewer or lighter failed
ranking rules (:data:`advisor.BIT_RULES`), else a better objective.
"""

from __future__ import annotations

from typing import Any, Callable

from . import advisor as advisormod
from . import rules as rulesmod
from .cost import MODE_LABELS
from .i18n import QT_TRANSLATE_NOOP
from .messages import Msg, elapsed_msg
from .frameworks import RL_OFFLOAD_MODEL_TOOLS
from .methods import method_profile
from .units import DAYS_PER_MONTH

CTX = "Plan"

#: a whole-term rent (``week``, ``month``) pays mostly for idle time when the run is shorter than half its term
TERM_DAYS = {"week": 7.0, "month": float(DAYS_PER_MONTH)}  # the one 30-day month (units.DAYS_PER_MONTH)
IDLE_TERM_SHARE = 0.5

#: the saver labels, by what the scenario leaves off (``sleep``: vLLM's sleep mode while the model trains;
#: ``offload``: the optimizer states in CPU memory)
LABELS = {
    ("sleep", "offload"): QT_TRANSLATE_NOOP(
        CTX, "vLLM asleep while the model trains and the optimizer states in CPU memory (training.rl.engine_sleep "
             "and parallel.offload_optimizer: ms-swift's own colocated GRPO examples set both)"),
    ("sleep",): QT_TRANSLATE_NOOP(CTX, "vLLM asleep while the model trains (training.rl.engine_sleep)"),
    ("offload",): QT_TRANSLATE_NOOP(CTX, "the optimizer states in CPU memory (parallel.offload_optimizer)"),
    ("sleep", "model"): QT_TRANSLATE_NOOP(
        CTX, "vLLM asleep while the model trains and the training model in CPU memory while vLLM generates "
             "(training.rl.engine_sleep and training.rl.offload_model: Megatron-SWIFT --sleep_level 2 "
             "--offload_model true --offload_optimizer true)"),
    ("model",): QT_TRANSLATE_NOOP(
        CTX, "the training model in CPU memory while vLLM generates (training.rl.offload_model: Megatron-SWIFT "
             "--offload_model true --offload_optimizer true)"),
    ("sleep", "model", "offload"): QT_TRANSLATE_NOOP(
        CTX, "vLLM asleep while the model trains, the training model in CPU memory while vLLM generates and the "
             "optimizer states in CPU memory (training.rl.engine_sleep, training.rl.offload_model and "
             "parallel.offload_optimizer: ms-swift's moe_colocate_full.sh example sets all three)"),
    ("model", "offload"): QT_TRANSLATE_NOOP(
        CTX, "the training model in CPU memory while vLLM generates and the optimizer states in CPU memory "
             "(training.rl.offload_model and parallel.offload_optimizer)"),
}


#: The frameworks that document the optimizer states alone in CPU memory (``parallel.offload_optimizer``), with
#: the weights and gradients kept on the GPU: DeepSpeed ZeRO-Offload (config ``zero_optimization.offload_optimizer``;
#: ms-swift ships ``zero2_offload``/``zero3_offload``, LLaMA-Factory ``examples/deepspeed/ds_z2_offload_config.json``
#: and ``ds_z3_offload_config.json``); Megatron-Core ``--optimizer-cpu-offload`` (megatron/core/optimizer/
#: __init__.py, HybridDeviceOptimizer), which Megatron-Bridge's OptimizerConfig and Megatron-SWIFT
#: (``--optimizer_cpu_offload``, examples/megatron/grpo/moe_colocate_full.sh) pass through. Left out: FSDP2's
#: CPUOffloadPolicy (torchtitan, torchtune, Accelerate) offloads the parameters and gradients with the optimizer,
#: a different trade; Unsloth, Axolotl's ``cpuoffload_all`` (parameters too), nanotron and GPT-NeoX.
#: Megatron-FSDP (Megatron-Core at ZeRO-2/3) runs no optimizer CPU offload: frameworks.optimizer_offload_refused, which
#: the search reads when it adds this saver (issue 35 round 17, stack17).
OFFLOAD_FRAMEWORKS = ("deepspeed", "megatron", "megatron-swift", "megatron-bridge", "ms-swift", "llamafactory")


def saver_change(s: Any, frameworks: tuple[str, ...] | None = None) -> tuple[tuple[str, ...], dict]:
    """The savers the scenario ``s`` leaves off and the framework runs: ``(keys, change)`` where ``change`` is the
    nested update of the scenario as the user wrote it; ``((), {})`` when none applies. ``frameworks``: those the
    search tries for ``s`` (default: the scenario's own); the optimizer offload keeps the ones of
    :data:`OFFLOAD_FRAMEWORKS` (the search is narrowed to them when it chooses among more), and is not offered when
    none is left."""
    keys: list[str] = []
    change: dict = {}
    prof = method_profile(s.training)
    if prof.rl and prof.engine == "vllm_colocated" and not prof.engine_sleep:
        keys.append("sleep")
        change.setdefault("training", {})["rl"] = {"engine_sleep": True}
    fws = tuple(frameworks) if frameworks else (s.training.framework,)
    ok = [f for f in fws if f in OFFLOAD_FRAMEWORKS]
    if s.training.method in ("full", "pretrain") and not s.parallel.offload_optimizer and ok:
        keys.append("offload")
        change["parallel"] = {"offload_optimizer": True}
        if len(ok) < len(fws):
            change["constraints"] = {"framework_candidates": ok}
    return tuple(keys), change


def saver_options(s: Any, frameworks: tuple[str, ...] | None = None) -> list[tuple[tuple[str, ...], dict]]:
    """The saver sets to search, fewest savers first (issue 35 round 12, savers12): for colocated RL on a tool of
    :data:`frameworks.RL_OFFLOAD_MODEL_TOOLS` among ``frameworks``, the training model in CPU memory while vLLM
    generates (``training.rl.offload_model``, with vLLM asleep: the pair that frees the card for each phase; its
    time is a copy over the host link, no CPU optimizer step; the search narrowed to those tools), then, where the
    method has optimizer states to offload, :func:`saver_change`'s set (vLLM asleep, the optimizer in CPU memory)
    and all three; else :func:`saver_change` alone. Empty when no saver applies."""
    base = saver_change(s, frameworks)
    prof = method_profile(s.training)
    fws = tuple(frameworks) if frameworks else (s.training.framework,)
    tools = [f for f in fws if f in RL_OFFLOAD_MODEL_TOOLS]
    if not (prof.rl and prof.engine == "vllm_colocated" and not prof.offload_model and tools):
        return [base] if base[0] else []
    keys = (("sleep",) if not prof.engine_sleep else ()) + ("model",)
    rl = {"offload_model": True}
    if not prof.engine_sleep:
        rl["engine_sleep"] = True
    change: dict = {"training": {"rl": rl}}
    if len(tools) < len(fws):
        change["constraints"] = {"framework_candidates": tools}
    out = [(keys, change)]
    if base[0]:
        out.append(base)  # round 11's set (vLLM asleep, and the optimizer in CPU memory where it applies)
    if "offload" in base[0]:
        both = _merged(_merged({}, change), {"parallel": {"offload_optimizer": True}})
        out.append((keys + ("offload",), both))  # all three (ms-swift's example)
    return sorted(out, key=lambda kc: len(kc[0]))  # fewest savers first (stable: the model's offload on a tie)


def _failed(p: Any) -> set[str]:
    return {r.id for r in p.evaluation.rules if r.status == "failed"}


def idle_term(p: Any) -> bool:
    """Billed by a whole week or month for a run shorter than :data:`IDLE_TERM_SHARE` of that term."""
    term = TERM_DAYS.get(str(p.rental_mode))
    return term is not None and float(p.calendar_days) < IDLE_TERM_SHARE * term


def wants_savers(p: Any) -> bool:
    """Whether #1 ``p`` is a plan to look past: tight on memory, or paying a term it mostly leaves idle."""
    return "memory_headroom" in _failed(p) or idle_term(p)


def _key(p: Any, objective: str) -> float:
    return float(p.calendar_days) if objective == "fastest" else float(p.cost)


def ranks_better(q: Any, p: Any, objective: str) -> bool:
    """``q`` before ``p`` by the search's order: a lower ranking penalty (``Plan.penalty``, the one the search
    ranked each with), else a better objective."""
    a, b = int(q.penalty), int(p.penalty)
    return a < b or (a == b and _key(q, objective) < _key(p, objective))


def _merged(d: dict, change: dict) -> dict:
    for k, v in change.items():
        d[k] = _merged(dict(d.get(k) or {}), v) if isinstance(v, dict) else v
    return d


def savers_scenario_dict(s: Any, frameworks: tuple[str, ...] | None = None, change: dict | None = None) -> dict | None:
    """The scenario as the user wrote it with the savers on (None: no saver applies); ``change``: one of
    :func:`saver_options` (default: :func:`saver_change`)."""
    if change is None:
        keys, change = saver_change(s, frameworks)
        if not keys:
            return None
    return _merged(s.model_dump(exclude_unset=True), change)


def _best_with_savers(s: Any, one: Any, objective: str, run: Callable[[dict], Any],
                      frameworks: tuple[str, ...] | None, options: list | None = None):
    """(keys, plan) for #1 ``one``: among the saver sets of :func:`saver_options` whose best plan ranks better than
    #1, the one whose plan ranks best by the search's own order (:func:`ranks_better`: fewer or lighter failed
    rules, then the objective); on a tie the earlier set, with fewer savers (each costs time and host memory, and
    each is a change the user must make). (None, None) when none ranks better."""
    best_keys, best = None, None
    for keys, change in (saver_options(s, frameworks) if options is None else options):
        res = run(savers_scenario_dict(s, frameworks, change))
        if res is None or not res.plans:
            continue
        q = res.plans[0]
        if ranks_better(q, one, objective) and (best is None or ranks_better(q, best, objective)):
            best_keys, best = keys, q
    return best_keys, best


def _billed_as(one: Any, q: Any) -> Msg:
    """The savers' plan ``q``'s rental mode as its line says it: with "at the default price …" where #1 (``one``) is
    billed on the user's own quote and ``q`` on a default price the user's quotes do not give (issue 35 round 15,
    advice15: a quote sheet of H800 card-hours, A800 by the month and RTX 4090 spot read "8 × RTX 4090 …, 1,328
    CNY, billed as card-hours on demand" under an H800 plan at the user's 13.5 CNY a card-hour: the 4090's on-demand
    price was the default's, and the two figures were prices of two kinds)."""
    mode = Msg("Cost", MODE_LABELS.get(q.rental_mode, q.rental_mode))
    mine, theirs = getattr(one.evaluation, "price", None), getattr(q.evaluation, "price", None)
    if mine is None or theirs is None or mine.is_default or not (
            theirs.is_default or theirs.kept_fields(q.rental_mode)):
        return mode
    return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{mode} at the default price for {gpu} ({date}), which your quotes do not "
                                           "give"),
               {"mode": mode, "gpu": q.gpu_name, "date": theirs.kept_date or theirs.source_date})


def savers_line(s: Any, plans: list, objective: str, run: Callable[[dict], Any],
                frameworks: tuple[str, ...] | None = None, tight_ahead: bool = False,
                margin: float = 0.0, options: list | None = None) -> Msg | None:
    """The line for #1 (``plans[0]``) of scenario ``s``: the best plan with the savers on (``run``: the scenario
    dict → the search's result, or None when it cannot run; ``frameworks``: those the search tried), when #1 is one
    to look past, or ``tight_ahead`` (a plan better by the objective ranks after #1 only for tight memory: the
    savers are what makes such a plan roomy; issue 35 round 14, advice14), and that plan ranks better; else None.
    A #1 looked past only for ``tight_ahead`` (itself roomy, billed for what it uses) is worth the line only when the
    savers' plan fails fewer rules, or beats it by more than ``margin`` of the objective (the search's FASTEST_TIE:
    two estimates closer than that cannot be told apart, and the savers cost time and host memory). ``options``:
    the saver sets to try (default :func:`saver_options`; the search passes :func:`set_saver_options`, since it
    applies the others itself, round 15)."""
    if not plans or not (wants_savers(plans[0]) or tight_ahead):
        return None
    keys, q = _best_with_savers(s, plans[0], objective, run, frameworks, options)
    if q is None:
        return None
    one = plans[0]
    if not wants_savers(one) and int(q.penalty) >= int(one.penalty) and \
            not _key(q, objective) * (1.0 + margin) < _key(one, objective):
        return None
    args = {"what": Msg(CTX, LABELS[keys]), "n": q.num_gpus, "gpu": q.gpu_name,
            "fw": q.framework_name, "days": float(q.calendar_days),
            "span": elapsed_msg(float(q.calendar_days)), "cost": float(q.cost), "cur": q.currency,
            "mode": _billed_as(one, q)}
    rule = advisormod.first_rule(q.penalty)
    if rule is None:
        text = QT_TRANSLATE_NOOP(CTX, "With {what}, the best plan is {n} × {gpu} ({fw}), {span}, "
                                      "{cost:,.0f} {cur}, billed as {mode}, and it passes every ranking rule. Your "
                                      "choice is kept; change it to plan with this.")
    else:
        args["rule"] = Msg(rulesmod.CTX, rulesmod.RULE_NAMES[rule])
        text = QT_TRANSLATE_NOOP(CTX, "With {what}, the best plan is {n} × {gpu} ({fw}), {span}, "
                                      "{cost:,.0f} {cur}, billed as {mode}, but it fails the planning rule "
                                      "“{rule}”. Your choice is kept; change it to plan with this.")
    return Msg(CTX, text, args)


# ------------------------------------------------------------------------ savers the user left unset (round 15)
#
# Issue 35 round 15 (savers15): request 02 of round 14 (GRPO of Qwen2.5-32B, full, vLLM colocated, ≤ 32 GPUs, 7 days)
# ranked a month of 8 × H200 (94,000 CNY) first for a 1.1-day job, because no one-node 80 GB layout fits with the
# tools' defaults, and the savers that fit one (vLLM asleep, the optimizer states in CPU memory) were only said. A
# saver the user did not set is like a framework the user did not name: the search may choose it. It does so only
# for the layouts that do not fit with the defaults (:func:`unset_saver_options`; ``search._unfit_default``), and a
# plan that needs such a saver yields to a plan without one by :func:`saver_plan_yields`. A saver the user set (on or
# off) is never changed: those keep the round-11 line (said, never applied).

#: each saver's scenario field (section, [sub-model,] field)
SAVER_FIELDS = {"sleep": ("training", "rl", "engine_sleep"), "model": ("training", "rl", "offload_model"),
                "offload": ("parallel", "offload_optimizer")}


def user_set(s: Any, key: str) -> bool:
    """Whether the user wrote the field of saver ``key`` (pydantic ``model_fields_set`` along its path: a section
    the user left out leaves every field in it unset)."""
    obj = s
    for name in SAVER_FIELDS[key]:
        if name not in getattr(obj, "model_fields_set", ()):
            return False
        obj = getattr(obj, name)
    return True


def user_set_savers(s: Any) -> tuple[str, ...]:
    """The savers whose field the user wrote (:func:`user_set`), in :data:`SAVER_FIELDS` order."""
    return tuple(k for k in SAVER_FIELDS if user_set(s, k))


def unset_saver_options(s: Any, frameworks: tuple[str, ...] | None = None) -> list[tuple[tuple[str, ...], dict]]:
    """The :func:`saver_options` the search may choose for ``s``: those whose every saver the user left unset."""
    return [(k, c) for k, c in saver_options(s, frameworks) if not any(user_set(s, x) for x in k)]


def set_saver_options(s: Any, frameworks: tuple[str, ...] | None = None) -> list[tuple[tuple[str, ...], dict]]:
    """The :func:`saver_options` that change a field the user set (said on #1's line, never applied)."""
    return [(k, c) for k, c in saver_options(s, frameworks) if any(user_set(s, x) for x in k)]


def _days(p: Any) -> float:
    return float(p.calendar_days)


def saver_plan_yields(q: Any, p: Any, objective: str, tie: float) -> bool:
    """Whether plan ``q``, which needs savers the user did not ask for, ranks after plan ``p``, which needs none,
    though the search's order would put it first. ``tie``: the search's ``FASTEST_TIE`` (two estimates closer
    than that cannot be told apart). True when

    * ``p`` is within ``tie`` of ``q`` by the objective (cost, or days for "fastest"): the savers buy a difference
      the estimate cannot tell, and each costs time, host memory and a configuration to test — planning guide §4
      (lines 36–41: "cost per unit of *effective* compute"; "the cheap card is not always the cheap plan"; framework
      setup and debugging go into the budget); or
    * ``q`` is more than ``tie`` slower for less than ``tie`` less money: 4 × the time for 2.5% of the cost is no
      saving a team signs (guide §3–§4, lines 28–41: time is the other half of the cost; round-15 finding (b):
      a full 7B fine-tune on 1 × H800 with ZeRO-Offload, 4 × slower for 2.5% less, over a roomy 8-GPU plan).

    Plans of different standing (one misses the constraints or fails a ranking rule the other passes) keep the
    search's order: the rule is only between plans the search would otherwise order by the objective."""
    kq, kp = _key(q, objective), _key(p, objective)
    if kp <= kq * (1.0 + tie) * (1.0 + 1e-12):
        return True
    slower = _days(q) > _days(p) * (1.0 + tie)
    saves = float(q.cost) < float(p.cost) * (1.0 - tie)
    return slower and not saves


def _meets(p: Any, objective: str) -> bool:
    ok = True
    if objective != "fastest":
        ok = bool(getattr(p, "meets_deadline", True))
    if objective != "cheapest":
        ok = ok and bool(getattr(p, "within_budget", True))
    return ok


def _standing(p: Any, objective: str) -> tuple[int, int]:
    """The search's order before the objective: the plans meeting the constraints first, then the ranking
    penalty (``Plan.penalty``)."""
    return (0 if _meets(p, objective) else 1, int(p.penalty))


def saver_plan_first(q: Any, p: Any, objective: str, tie: float) -> bool:
    """Whether ``q`` (unrequested savers) ranks before ``p`` (none): by the search's order (:func:`_standing`, then
    the objective), unless :func:`saver_plan_yields`."""
    sq, sp = _standing(q, objective), _standing(p, objective)
    if sq != sp:
        return sq < sp
    return _key(q, objective) < _key(p, objective) and not saver_plan_yields(q, p, objective, tie)


def _saver_before(a: Any, b: Any, objective: str) -> bool:
    """Between two plans with savers: the search's order; on a tie the earlier list (fewer savers)."""
    return (_standing(a, objective), _key(a, objective)) < (_standing(b, objective), _key(b, objective))


def merge_ranked(plans: list, saver_lists: list[list], objective: str, tie: float, top: int,
                 distinct: bool) -> list:
    """The ranked list of the search with its saver searches (one list per option of :func:`unset_saver_options`,
    fewest savers first, each in the search's order, each plan's ``unrequested_savers`` set): a merge that keeps
    each list's order, puts a saver plan first only by :func:`saver_plan_first`, and with ``distinct`` keeps one
    plan per GPU type and count (the first in the merged order: the search's reducer does the same per list)."""
    heads = [list(x) for x in saver_lists]
    base = list(plans)
    out: list = []
    seen: set = set()
    while (base or any(heads)) and len(out) < top:
        k = None
        for i, h in enumerate(heads):
            if h and (k is None or _saver_before(h[0], heads[k][0], objective)):
                k = i
        if k is not None and (not base or saver_plan_first(heads[k][0], base[0], objective, tie)):
            p = heads[k].pop(0)
        else:
            p = base.pop(0)
        where = (p.gpu, int(p.num_gpus))
        if distinct and where in seen:
            continue
        seen.add(where)
        out.append(p)
    return out


#: the line of a plan that applies savers the user did not ask for (under its rank lines)
UNREQUESTED_LINE = QT_TRANSLATE_NOOP(
    CTX, "Applies memory savers you did not ask for: {what}. This layout does not fit in memory with the tools' "
         "defaults; a plan without savers ranks first when it is within {tie:.0%} of this one by the objective, or "
         "when the savers cost more than {tie:.0%} in time for less than {tie:.0%} in money. Set the fields to keep "
         "this plan, or set them off to plan without them.")


def unrequested_line(keys: tuple[str, ...], tie: float) -> Msg:
    """The line of a plan that applies the savers ``keys`` the user did not ask for."""
    return Msg(CTX, UNREQUESTED_LINE, {"what": Msg(CTX, LABELS[keys]), "tie": tie})

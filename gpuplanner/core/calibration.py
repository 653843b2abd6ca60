"""Measured results applied where they were measured (``assumptions.measured_runs``).

A measured MFU is a fact about one GPU model, one layout and one framework. It is never a global MFU:

* it applies only to plans on the **same GPU** (a result from another GPU, or a CPU smoke test, is shown
  but never applied: :func:`run_status`);
* it calibrates the time model's **matmul-efficiency term** (``timing.GEN_EFFICIENCY`` × size factor) for
  that GPU: the factor ``k`` is chosen so that the model, evaluated at the measured run's own layout (GPU
  count, nodes, TP/PP, framework), reproduces the measured MFU (:func:`efficiency_factor`, a fixed-point
  iteration ``k ← k · m_measured / m_model(k)``). A plan with another layout then keeps its own modelled
  communication, pipeline bubble and overlap: similar layouts move with the measurement, a 16-GPU
  two-node plan still pays its network (the model's own efficiency terms, timing.py).

The latest applicable run (the last in the list with ``apply``) is used. Pure functions, no Qt.
"""

from __future__ import annotations

from typing import Any, Callable

from .catalog_hw import get_gpu
from .errors import PlannerError
from .i18n import QT_TRANSLATE_NOOP
from .messages import Msg

CTX = "Calibration"
#: a calibrated matmul efficiency never exceeds the large-GEMM ceiling measured with the MAMF finder
#: (A100 86.9% of dense peak, stas00/ml-engineering via gpu-catalog.md §4.1)
MAX_EFFICIENCY = 0.87
#: the factor stays within these bounds (a measurement 10× off the model is more likely a wrong GPU or file)
K_MIN, K_MAX = 0.1, 3.0


def run_status(run: Any, gpu_id: str) -> Msg | None:
    """Why ``run`` cannot calibrate plans on ``gpu_id`` (None: it can)."""
    if run.device == "cpu":
        return Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Measured on the CPU (a smoke test of the kit): shown, never applied to a plan."), {})
    if run.gpu != gpu_id:
        return Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Measured on {measured}, not on {gpu}: it does not change plans on {gpu}."),
            {"measured": gpu_name(run.gpu), "gpu": gpu_name(gpu_id)})
    if not run.apply:
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Switched off: not applied."), {})
    return None


def gpu_name(gpu_id: str) -> str:
    """The catalog name of ``gpu_id`` (the id itself for a GPU the catalog lacks)."""
    try:
        return get_gpu(gpu_id).name
    except (PlannerError, KeyError, ValueError):
        return gpu_id


def pick(scenario: Any, gpu_id: str) -> Any | None:
    """The run that calibrates plans on ``gpu_id``: the last applicable one, or None."""
    runs = getattr(scenario.assumptions, "measured_runs", None) or []
    for run in reversed(runs):
        if run_status(run, gpu_id) is None:
            return run
    return None


def efficiency_factor(target_mfu: float, model_mfu: Callable[[float], float], gen_efficiency: float) -> float:
    """``k`` with ``model_mfu(k) ≈ target_mfu``; ``gen_efficiency · k`` is capped at :data:`MAX_EFFICIENCY`."""
    k_cap = min(K_MAX, MAX_EFFICIENCY / max(gen_efficiency, 1e-9))
    k = 1.0
    for _ in range(12):
        m = model_mfu(k)
        if not (m > 0):
            break
        k_new = min(max(k * target_mfu / m, K_MIN), k_cap)
        if abs(k_new - k) < 1e-6 * k:
            k = k_new
            break
        k = k_new
    return k


def describe(run: Any) -> dict:
    """The run as plain values (``Evaluation.to_json()['calibration']``)."""
    return run.model_dump(mode="json", exclude_none=True)

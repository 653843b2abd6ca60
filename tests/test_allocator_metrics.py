"""Allocated vs reserved vs device memory (core/memory.py, "Allocated, reserved, device"): the caching
allocator's two figures and what fits is judged on, hand-derived from the breakdown's parts."""

from __future__ import annotations

import pytest

from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.core.errors import ScenarioError


def _sc(**assumptions):
    return scenario_from_dict({"model": {"preset": "llama-3.1-8b"},
                               "training": {"framework": "fsdp", "seq_len": 4096, "recompute": "op_sac"},
                               "parallel": {"zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8},
                               "assumptions": assumptions})


def test_allocated_reserved_device_hand_derived():
    ev = evaluate(_sc(fragmentation=0.10, cuda_context_gib=1.0))
    m = ev.memory
    states_acts = m.weights + m.gradients + m.optimizer + m.activations
    buffers = m.other - 1.0 - 0.10 * states_acts  # FSDP's gathered layers (current + prefetched)
    assert buffers > 0
    assert m.allocated == pytest.approx(states_acts + buffers)
    assert m.reserved == pytest.approx(m.allocated + 0.10 * states_acts)
    assert m.total == pytest.approx(m.reserved + 1.0)
    assert m.allocated < m.reserved < m.total


def test_metric_chooses_the_figure_not_what_fits():
    a, r = evaluate(_sc(memory_metric="allocated")), evaluate(_sc(memory_metric="reserved"))
    ja, jr = a.to_json(), r.to_json()
    assert ja["memory_metric"] == "allocated" and ja["memory_metric_gib"] == pytest.approx(a.memory.allocated)
    assert jr["memory_metric"] == "reserved" and jr["memory_metric_gib"] == pytest.approx(r.memory.reserved)
    for j in (ja, jr):  # the CLI JSON carries both figures beside the device total
        assert {"allocated", "reserved", "total"} <= set(j["memory_per_gpu_gib"])
    assert a.fits == r.fits and a.memory.total == r.memory.total


def test_default_metric_is_reserved_and_bad_values_refused():
    assert _sc().assumptions.memory_metric == "reserved"
    with pytest.raises(ScenarioError):
        _sc(memory_metric="nvidia-smi")

"""Session 7's review leftovers (issue 35 round 8, tidy8): one list of the prices each rental mode needs, one
shape for generation's detail, and the serving phase's GPU passed on rather than looked up again."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from gpuplanner.core import cost
from gpuplanner.core.cost import GpuPrice, Overheads, rental_costs

FIELDS = ("card_hour", "machine_week", "machine_month", "spot_card_hour")


def _price(**figures) -> GpuPrice:
    return GpuPrice(gpu="x", currency="CNY", machine_gpus=8, source="test", source_date="2026",
                    **{k: figures.get(k) for k in FIELDS})


def test_mode_prices_name_every_mode_and_only_price_fields():
    assert tuple(cost.MODE_PRICES) == cost.MODES
    assert all(set(need) <= set(FIELDS) and need for need in cost.MODE_PRICES.values())
    # a hybrid is card-hours capped at its period's whole-machine price (hand: rental_costs' docstring)
    assert cost.MODE_PRICES["hybrid_week"] == ("card_hour", "machine_week")
    assert cost.MODE_PRICES["hybrid_month"] == ("card_hour", "machine_month")


@pytest.mark.parametrize("present", list(itertools.product((False, True), repeat=4)))
def test_rental_costs_prices_exactly_the_modes_has_mode_allows(present):
    """Every mode rental_costs gives a cost is one has_mode says the price can bill, and the other way round, for
    all 16 ways of quoting (pinned to card-hours so that spot is computed where it is priced)."""
    figures = {k: v for k, v, on in zip(FIELDS, (10.0, 1500.0, 5000.0, 4.0), present) if on}
    price = _price(**figures)
    r = rental_costs(price, num_gpus=8, nodes=1, train_hours=100.0, ckpt_bytes=0.0, setup_hours=0.0,
                     hours_per_week=168.0, phase="stable", overheads=Overheads(), pin="card_hour")
    priced = {m for i, m in enumerate(cost.MODES) if np.isfinite(r.costs[i][0])}
    assert priced == {m for m in cost.MODES if price.has_mode(m)}


def test_spot_can_bill_reads_the_one_list():
    assert cost.spot_can_bill(_price(spot_card_hour=4.0))
    assert not cost.spot_can_bill(_price(spot_card_hour=4.0, machine_month=5000.0))
    assert cost.spot_can_bill(_price(spot_card_hour=4.0, machine_month=5000.0), pin="spot")
    assert not cost.spot_can_bill(_price(card_hour=10.0), pin="spot")


def _rollout_profile(frac: float):
    from gpuplanner.core import methods as M
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict

    r = resolve(scenario_from_dict({
        "model": {"preset": "llama-3.1-8b"},
        "training": {"objective": "grpo", "method": "full", "seq_len": 1536, "micro_batch_size": 4,
                     "rl": {"generation_engine": "vllm_colocated", "mean_response_fraction": frac,
                            "rollout_len": 1024}},
        "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}))
    return M, r, M.method_profile(r.scenario.training)


@pytest.mark.parametrize("frac", [1.0, 0.25])
def test_generation_detail_has_one_shape_with_and_without_net_allreduces(frac):
    """generation_seconds(detail=True) gives a GenerationDetail on both paths; with engines spanning nodes
    (``tp_net``) its net_allreduce is the steps before the wait for the longest, each with two all-reduces a layer
    (hand: 2·L·(latency + live·h·2 B / bytes/s))."""
    M, r, prof = _rollout_profile(frac)
    kw = dict(arch=r.arch, params_total=float(r.params.total), active_params=float(r.params.active), seqs=2.0,
              tp=2.0, peak_flops=989e12, eff=0.55, mem_bw=2.68e12, detail=True)
    lat, bw = 20e-6, 25e9
    plain, net = M.generation_seconds(prof, **kw), M.generation_seconds(prof, tp_net=(lat, bw), **kw)
    assert type(plain) is type(net) is M.GenerationDetail
    assert plain.net_allreduce == 0.0
    with pytest.raises(AttributeError):
        net.seconds = 0.0  # frozen
    steps = net.waves * 1024.0  # waves = decode steps / rollout_len
    live = 2.0 * 1024.0 * frac / steps  # the tokens generated spread over the steps
    tail = 1024.0 - frac * 1024.0  # rollout_len: the longest (no n_rollouts) less the mean
    per_step = 2.0 * r.arch.num_layers * (lat + live * r.arch.hidden_size * 2.0 / bw)
    assert net.net_allreduce == pytest.approx((steps - tail) * per_step, rel=1e-9)
    # and they are inside the seconds: the step with them is longer by exactly their time, in every step
    assert net.seconds - plain.seconds == pytest.approx(steps * per_step, rel=1e-6)


def test_consumer_serving_reads_the_gpu_it_is_given():
    """project._consumer_serving takes the card the phase sized (no second lookup by id: the size passed here has
    no ``gpu_id`` to look up)."""
    from types import SimpleNamespace

    from gpuplanner.core.catalog_hw import get_gpu
    from gpuplanner.core.project import _consumer_serving

    size = SimpleNamespace(gpu_name="NVIDIA GeForce RTX 5090 32GB", tp=2)
    msgs = [m.render() for m in _consumer_serving(size, get_gpu("rtx-5090-32gb"))]
    assert len(msgs) == 2 and "GeForce driver licence" in msgs[0] and "without P2P" in msgs[1], msgs
    assert _consumer_serving(SimpleNamespace(gpu_name="H100", tp=2), get_gpu("h100-sxm-80gb")) == []

"""Views select and format; they do not compute (issue 34). The figures the report and the pages used to work out
themselves — servers per job, GPUs per node as used, the link names and their figures, a per-card price turned
into a machine's — come from one place in the core, and the views show exactly those values."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from answer_examples import NAMES, example_path

PKG = Path(__file__).resolve().parents[1] / "gpuplanner"
VIEWS = [p for d in ("ui", "report", "commands", "app") for p in (PKG / d).rglob("*.py")] + [PKG / "cli.py"]

#: arithmetic a view must not write again: servers per job (core.units.nodes), a card's machine size default
#: (the price table's machine_gpus), the per-card → per-machine quote fields (core.cost.quote_from_card_price)
RECOMPUTES = [
    (re.compile(r"ceil\([^)]*(num_gpus|gpus)[^)]*/[^)]*(per_node|gpn|node)"), "ceil(gpus / per node): core.units.nodes"),
    (re.compile(r"//\s*[\w.]*gpus_per_node"), "gpus // per node: core.units.nodes"),
    (re.compile(r"gpus_per_node\s+or\s+8"), "a machine's GPUs: the price's machine_gpus"),
    (re.compile(r"min\([\w.]*gpus_per_node,\s*[\w.]*num_gpus\)"), "GPUs per node as used: Evaluation.links"),
    (re.compile(r"\"card_week\":\s*\"machine_week\""), "per-card column → quote field: core.cost.QUOTE_FIELD_OF_COLUMN"),
]


def test_no_view_recomputes_the_plan_figures():
    found = []
    for p in VIEWS:
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            for rx, what in RECOMPUTES:
                if rx.search(line):
                    found.append(f"{p.relative_to(PKG)}:{i}: {what}")
    assert not found, "\n".join(found)


def test_the_scan_finds_a_recomputation():
    """The scan can fail: each pattern catches the line it was written for."""
    lines = ["nodes = math.ceil(num_gpus / per_node)", "n = h.num_gpus // h.gpus_per_node",
             "g = gpu.gpus_per_node or 8", "gpn = min(h.gpus_per_node, h.num_gpus)",
             'f = {"card_hour": "card_hour", "card_week": "machine_week"}[k]']
    assert all(any(rx.search(line) for rx, _ in RECOMPUTES) for line in lines)


@pytest.mark.parametrize("name", [n for n in NAMES if not n.startswith("auto:")])
def test_report_links_are_the_evaluations(name, tmp_path):
    """The report's link names, figures and GPUs per node are the Evaluation's (``Evaluation.links``), and the
    requirements the vendor is asked for quote those figures."""
    from gpuplanner.app.answer import answer
    from gpuplanner.formatting import format_number
    from gpuplanner.report.content import build_report_data

    a = answer(example_path(name, tmp_path))
    data = build_report_data(a)
    for plan in [data.plan, *data.alternatives]:
        links = plan.evaluation.links
        assert (plan.gpus_per_node, plan.intra_node, plan.intra_node_bw_gbs, plan.inter_node,
                plan.inter_node_gbps_per_node) == (links.gpus_per_node, links.intra_node, links.intra_node_bw_gbs,
                                                   links.inter_node, links.inter_node_gbps_per_node)
        assert links.gpus_per_node == min(plan.evaluation.gpus_per_node, plan.num_gpus)
        assert (links.intra_node is None) == (plan.num_gpus == 1)
        assert (links.inter_node is None) or plan.nodes > 1
    req = data.requirements
    links = data.plan.evaluation.links
    if links.inter_node_gbps_per_node:
        assert req.inter_node.params["gbps"] == format_number(links.inter_node_gbps_per_node, 0)
        assert req.inter_node.params["net"] == links.inter_node


def test_links_follow_the_scenario():
    """Across nodes the fabric's Gb/s per node counts the NICs the time model counts; a forced PCIe link inside
    the node is named PCIe with PCIe's figure, not the card's NVLink figure."""
    from gpuplanner.core.catalog_hw import get_network, intra_node_bandwidth_gbs
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.scenario import Scenario

    base = {"model": {"preset": "llama-3.1-8b"}, "data": {"tokens": "1B"},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 16, "gpus_per_node": 8, "inter_node": "ib-ndr-400",
                         "nics_per_node": 4}}
    ev = evaluate(Scenario.model_validate(base))
    net = get_network("ib-ndr-400")
    assert ev.nodes == 2
    assert ev.links.inter_node == net.name
    assert ev.links.inter_node_gbps_per_node == pytest.approx(net.gbps_per_nic * 4)
    assert ev.links.gpus_per_node == 8
    pcie = dict(base, hardware=dict(base["hardware"], intra_node="pcie"))
    ev2 = evaluate(Scenario.model_validate(pcie))
    assert ev2.links.intra_node == "PCIE"
    assert ev2.links.intra_node_bw_gbs == pytest.approx(2 * intra_node_bandwidth_gbs("h100-sxm-80gb", "pcie"))
    assert ev2.links.intra_node_bw_gbs < ev.links.intra_node_bw_gbs
    one = dict(base, hardware={"gpu": "h100-sxm-80gb", "num_gpus": 1, "gpus_per_node": 8})
    ev3 = evaluate(Scenario.model_validate(one))
    assert (ev3.links.gpus_per_node, ev3.links.intra_node, ev3.links.inter_node) == (1, None, None)


def test_quote_from_card_price_round_trips():
    """A week or month typed per card is stored for the whole machine and shown back per card."""
    from gpuplanner.core.cost import GpuPrice, quote_from_card_price

    q = quote_from_card_price("card_week", 700.0, 8)
    assert q == {"machine_week": 5600.0, "machine_gpus": 8}
    assert quote_from_card_price("card_hour", 20.0, 8) == {"card_hour": 20.0, "machine_gpus": 8}
    p = GpuPrice(gpu="x", currency="CNY", card_hour=None, machine_week=q["machine_week"], machine_month=None,
                 spot_card_hour=None, machine_gpus=q["machine_gpus"], source="", source_date="")
    assert p.card_week == 700.0


def test_array_nodes_match_the_scalar_ones():
    """core.units.nodes on the search's float and integer columns gives the scalar answer row by row (the cost
    and time arrays use it)."""
    import numpy as np

    from gpuplanner.core.units import nodes

    n = np.array([1, 7, 8, 9, 16, 17, 64])
    for per in (1, 4, 8):
        want = [nodes(int(k), per) for k in n]
        assert nodes(n, per).tolist() == want
        assert nodes(n.astype(float), float(per)).tolist() == [float(w) for w in want]


def test_report_storage_is_the_evaluations(tmp_path):
    """The report's storage requirements quote ``Evaluation.storage``, whose checkpoint is the one the costs
    count (``cost_inputs``)."""
    from gpuplanner.app.answer import answer
    from gpuplanner.core.evaluate import cost_inputs
    from gpuplanner.report.content import build_report_data, fmt_bytes

    a = answer(example_path("llama3-8b-full-8xh100-zero3.json", tmp_path))
    ev = a.evaluation
    need = ev.storage
    ci = cost_inputs(ev.scenario, ev.arch, ev.params.total, ev.trainable)
    assert need.checkpoint_bytes == ci.ckpt_bytes
    texts = [t.params for t in build_report_data(a).requirements.storage]
    assert {"ckpt": fmt_bytes(need.checkpoint_bytes)} in texts
    assert {"data": fmt_bytes(need.data_bytes)} in texts
    assert {"w": fmt_bytes(need.weights_bytes)} in texts

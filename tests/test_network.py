"""verify/network.py and ``gpuplanner net``: real ibstat / ibv_devinfo outputs (tests/data/net/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core.messages import Msg
from gpuplanner.verify.network import (NetworkError, diagnose_network, parse_ports, plan_network,
                                       planned_network)
from gpuplanner.verify.topology import parse_topo

DATA = Path(__file__).parent / "data" / "net"


def ports(name):
    return parse_ports((DATA / name).read_bytes())


def test_ibstat_ndr_infiniband_real():
    ps = ports("ib-ndr-400-h20-ibstat.txt")
    assert [(p.device, p.port, p.link_layer, p.state, p.rate_gbps) for p in ps] == [
        ("mlx5_0", 1, "InfiniBand", "Active", 400.0), ("mlx5_1", 1, "InfiniBand", "Active", 400.0)]


def test_ibstat_hdr_with_a_port_down_real():
    ps = ports("ib-hdr-200-port-down-ibstat.txt")
    assert [(p.state, p.rate_gbps, p.phys_state) for p in ps] == [("Active", 200.0, "LinkUp"), ("Down", 10.0, "Disabled")]
    rep = diagnose_network(ps)
    assert any(f.severity == "warn" and "mlx5_1/1" in f.text for f in rep.findings)


def test_ibstat_roce_real_and_truncated_paste():
    ps = ports("roce-200-ibstat-truncated.txt")
    assert [(p.device, p.link_layer, p.rate_gbps, p.state) for p in ps] == [
        ("mlx5_0", "Ethernet", 200.0, "Active"), ("mlx5_1", "Ethernet", 200.0, "Active"), ("mlx5_10", None, None, "Down")]
    assert {p.kind for p in ps[:2]} == {"RoCE"}
    assert [(p.link_layer, p.rate_gbps) for p in ports("roce-100-ibstat.txt")] == [("Ethernet", 100.0)] * 2


def test_noise_tabs_prompts_failed_open_ibwarn():
    assert [(p.device, p.rate_gbps) for p in ports("ib-hdr-200-tabs-ibpanic-ibstat.txt")] == [("mlx5_7", 200.0)]
    (p,) = ports("ib-active-failed-open-ibv_devinfo.txt")
    assert (p.device, p.state, p.link_layer, p.rate_gbps) == ("mlx4_2", "Active", "InfiniBand", None)
    (p,) = ports("ib-port-down-ibv_devinfo.txt")
    assert (p.state, p.link_layer) == ("Down", "InfiniBand")
    a, b = ports("fdr-56-two-ports-ibwarn-ibstat.txt")
    assert (a.state, b.state, b.rate_gbps) == ("Down", "Active", 56.0)
    (p,) = ports("softroce-no-link-layer-ibv_devinfo.txt")
    assert p.link_layer is None and p.active


def test_ibv_devinfo_verbose_rate_is_width_times_lane_speed():
    ps = ports("constructed-ndr-hdr-ibv_devinfo-v.txt")
    # 4X x 100 (code 128 printed as "invalid speed" by older rdma-core), 4X x 50 (HDR), 4X x 100 Gbps (RoCE 400GbE)
    assert [(p.device, p.link_layer, p.rate_gbps) for p in ps] == [
        ("mlx5_0", "InfiniBand", 400.0), ("mlx5_1", "InfiniBand", 200.0), ("mlx5_2", "Ethernet", 400.0)]


def test_ibstatus():
    ps = ports("constructed-ibstatus.txt")
    assert [(p.state, p.rate_gbps, p.link_layer) for p in ps] == [("Active", 400.0, "InfiniBand"),
                                                                   ("Down", 10.0, "InfiniBand")]


@pytest.mark.parametrize("name,line", [("garbage-first-line.txt", 1), ("garbage-line3.txt", 3), ("bad-rate-line6.txt", 6)])
def test_garbage_names_the_line(name, line):
    with pytest.raises(NetworkError, match=rf"^line {line}: "):
        ports(name)


def test_unrelated_and_empty_text_and_bounds():
    with pytest.raises(NetworkError, match="no HCA port"):
        parse_ports("")
    with pytest.raises(NetworkError, match="line 1"):
        parse_ports((Path(__file__).parent / "data" / "topo" / "1gpu.txt").read_text())
    with pytest.raises(NetworkError, match="too long"):
        parse_ports("x" * 2_000_001)
    with pytest.raises(NetworkError, match="unknown port state"):
        parse_ports("CA 'mlx5_0'\n Port 1:\n  State: Sleeping\n")


def _sev(rep, severity, needle):
    return any(f.severity == severity and needle in f.text for f in rep.findings)


def test_verdict_roce_where_infiniband_was_promised():
    rep = diagnose_network(ports("constructed-8x-roce-400-ibstat.txt"), planned_network("ib-ndr-400"))
    assert rep.worst == "bad" and _sev(rep, "bad", "are RoCE")
    rep = diagnose_network(ports("roce-200-ibstat-truncated.txt"), planned_network("ib-ndr-400"))
    assert _sev(rep, "bad", "are RoCE (200 Gb/s)")
    # and the reverse
    rep = diagnose_network(ports("ib-ndr-400-h20-ibstat.txt"), planned_network("roce-400"))
    assert _sev(rep, "bad", "are InfiniBand")


def test_verdict_counts_rates_and_down_ports_against_the_plan():
    ok = diagnose_network(ports("constructed-8x-ndr-400-plus-2-eth-ibstat.txt"), planned_network("ib-ndr-400"))
    assert ok.worst == "ok" and _sev(ok, "ok", "8 active InfiniBand ports")
    # 7 of 8 compute ports up: short of one NIC (88 %), not "RoCE" because of the two storage ports
    one_down = diagnose_network(ports("constructed-8x-ndr-one-down-ibstat.txt"), planned_network("ib-ndr-400"))
    assert _sev(one_down, "bad", "Only 7 active InfiniBand ports") and _sev(one_down, "bad", "88%")
    assert not _sev(one_down, "bad", "are RoCE") and _sev(one_down, "warn", "mlx5_3/1")
    slow = diagnose_network(ports("constructed-8x-ib-200-ibstat.txt"), planned_network("ib-ndr-400"))
    assert _sev(slow, "bad", "run at 200 Gb/s, below the 400 Gb/s")
    hdr = diagnose_network(ports("constructed-8x-ib-200-ibstat.txt"), planned_network("ib-hdr-200"))
    assert hdr.worst == "ok"
    # problems first
    assert [f.severity for f in one_down.findings][0] == "bad"


def test_affinity_from_topo_and_storage_nics_ignored():
    topo = parse_topo((DATA / "constructed-dgx-h100-topo.txt").read_text())
    rep = diagnose_network(ports("constructed-8x-ndr-400-plus-2-eth-ibstat.txt"), planned_network("ib-ndr-400"), topo)
    assert rep.affinity["mlx5_0"] == {"nic": "NIC0", "gpus": ["GPU0"], "class": "PIX"}
    assert rep.affinity["mlx5_5"]["gpus"] == ["GPU4"]
    assert rep.worst == "ok"  # the Ethernet storage NICs (NODE/SYS) are not compute ports of this plan


def test_plan_network_from_scenario_and_single_node():
    from gpuplanner.io.scenario_files import load_scenario

    s, _ = load_scenario(DATA / "plan-16x-h100.json")
    pn = plan_network(s)
    assert (pn.network, pn.nics, pn.link_layer, pn.gbps, pn.multi_node) == ("ib-ndr-400", 8, "InfiniBand", 400.0, True)
    one = s.model_copy(deep=True)
    one.hardware.num_gpus = 8
    rep = diagnose_network(ports("roce-100-ibstat.txt"), plan_network(one))
    assert rep.worst == "ok" and _sev(rep, "info", "fits in one node")


def test_findings_are_translatable_messages():
    rep = diagnose_network(ports("constructed-8x-roce-400-ibstat.txt"), planned_network("ib-ndr-400"))
    for f in rep.findings:
        assert isinstance(f.msg, Msg) and f.msg.context == "Network" and "{" in f.msg.text
        assert f.text == f.msg.render()


def test_cli_json_and_exit_codes(capsys):
    assert run_cli(["net", str(DATA / "ib-ndr-400-h20-ibstat.txt"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(p["device"], p["port"], p["link_layer"], p["state"], p["rate_gbps"]) for p in out["ports"]] == [
        ("mlx5_0", 1, "InfiniBand", "Active", 400.0), ("mlx5_1", 1, "InfiniBand", "Active", 400.0)]
    assert isinstance(out["verdict"], list) and out["verdict"]
    assert run_cli(["net", str(DATA / "roce-100-ibstat.txt"), "--json", "--plan", str(DATA / "plan-16x-h100.json"),
                    "--strict"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert {p["link_layer"] for p in out["ports"]} == {"Ethernet"} and {p["rate_gbps"] for p in out["ports"]} == {100.0}
    assert any("are RoCE" in v for v in out["verdict"]) and out["worst"] == "bad"
    assert run_cli(["net", str(DATA / "garbage-line3.txt")]) == 2
    err = capsys.readouterr().err
    assert "line 3" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert run_cli(["net", str(DATA / "missing.txt")]) == 2


def test_long_unbroken_lines_are_fast():
    import time

    from gpuplanner.verify.health import check_health, HealthError

    for text in ("a@" + "b" * 200_000, "user@host:" + "x" * 200_000 + " y", "CA 'x'\n Port 1:\n  " + "A" * 200_000 + ":"):
        t0 = time.perf_counter()
        with pytest.raises(NetworkError):
            parse_ports(text)
        with pytest.raises(HealthError):
            check_health(text)
        assert time.perf_counter() - t0 < 2.0

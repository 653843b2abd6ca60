"""verify/multinode.py: the multi-node kit's script and the analysis of its result (the benchmark itself runs
on CPU with gloo in tests_validate/test_kit_multinode_cpu.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.verify.multinode import (MultiNodeError, analyse_multinode, device_for_vendor,
                                         load_multinode_result, parse_multinode_result, render_multinode_kit)

DATA = Path(__file__).parent / "data"
PLAN = DATA / "net" / "plan-16x-h100.json"
GOOD = DATA / "kit" / "multinode-2x8-h100-ib-constructed.json"
BAD = DATA / "kit" / "multinode-socket-fallback-constructed.json"


def scenario(**hw):
    d = json.loads(PLAN.read_text())
    d["hardware"].update(hw)
    return scenario_from_dict(d)


def sev(a, severity, needle):
    return any(f.severity == severity and needle in f.text for f in a.findings)


def test_good_cluster_against_the_ndr_plan():
    a = analyse_multinode(load_multinode_result(GOOD), scenario())
    assert a.network == "ib-ndr-400" and a.nics_per_node == 8
    inter, world = a.inter
    # one NDR NIC: 400 Gb/s = 50 GB/s line rate, x 0.96 NCCL efficiency (networks.json) = 48 GB/s
    assert inter.line_rate_gbs == pytest.approx(50.0) and inter.achievable_gbs == pytest.approx(48.0)
    assert inter.busbw_gbs == pytest.approx(45.1) and inter.runs == [45.1, 44.6, 45.8, 44.9, 45.3]
    assert inter.spread == pytest.approx((45.8 - 44.6) / 45.1)
    # all GPUs: 8 NICs x 48 = 384 GB/s, capped by the H100 NVLink busbw of the catalog (370 GB/s)
    assert world.achievable_gbs == pytest.approx(370.0) and world.ratio == pytest.approx(338 / 370)
    assert a.worst == "ok" and sev(a, "ok", "NET/IB") and sev(a, "ok", "95% of linear at 16 GPUs")


def test_socket_fallback_variance_scaling_and_probe():
    a = analyse_multinode(load_multinode_result(BAD), scenario())
    assert a.transports == {"node0 (host-a)": "IB", "node1 (host-b)": "Socket"}
    assert sev(a, "bad", "NET/Socket") and sev(a, "bad", "8% of the 48 GB/s")
    assert sev(a, "warn", "varied by 52% over 5 runs")
    assert sev(a, "bad", "38% of linear at 16 GPUs")
    assert sev(a, "bad", "_scaled_dot_product_flash_attention") and sev(a, "warn", "index_put")
    # what node 1 recorded: RoCE ports where the plan says InfiniBand, a throttled card with ECC errors
    assert sev(a, "bad", "node1 (host-b): The plan assumes InfiniBand") and sev(a, "bad", "node1 (host-b): GPU0: power limit")
    assert sev(a, "ok", "node0 (host-a): network ports and cards as planned")
    assert [f.severity for f in a.findings][0] == "bad"


def test_roce_plan_changes_the_reference():
    a = analyse_multinode(load_multinode_result(GOOD), scenario(inter_node="roce-200", nics_per_node=4))
    inter, world = a.inter
    assert inter.achievable_gbs == pytest.approx(200 / 8 * 0.96)
    assert world.achievable_gbs == pytest.approx(4 * 24.0)


def test_result_validation_names_the_field():
    data = json.loads(GOOD.read_text())
    data["collectives"][0]["busbw_gbs"] = -1
    with pytest.raises(MultiNodeError, match=r"collectives\[0\]\.busbw_gbs"):
        parse_multinode_result(data)
    with pytest.raises(MultiNodeError, match="schema"):
        parse_multinode_result({"schema": "gpuplanner-kit/1"})


def test_vendor_picks_the_device():
    assert [device_for_vendor(v) for v in ("NVIDIA", "AMD", "Huawei", "Cambricon")] == ["cuda", "cuda", "npu", "auto"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash not available")
@pytest.mark.parametrize("gpu,device,stack", [("h100-sxm-80gb", "cuda", "NCCL"), ("mi300x-192gb", "cuda", "RCCL"),
                                              ("ascend-910b-64gb", "npu", "HCCL")])
def test_rendered_kit_passes_bash_n_and_prints_commands(tmp_path, gpu, device, stack):
    d = json.loads(PLAN.read_text())
    d["hardware"]["gpu"] = gpu
    d["model"]["name"] = "@MNBENCH@ $(touch pwned)"
    text = render_multinode_kit(scenario_from_dict(d), 3)
    assert f'DEVICE="{device}"' in text and stack in text and "$(touch pwned)" in text.split("\n")[2]
    kit = tmp_path / "kit.sh"
    kit.write_text(text)
    assert subprocess.run(["bash", "-n", str(kit)], capture_output=True).returncode == 0
    out = subprocess.run(["bash", str(kit), "--master", "10.0.0.1"], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0
    lines = [ln.strip() for ln in out.stdout.splitlines() if ln.strip().startswith("node ")]
    assert lines == [f"node {r}:  bash kit.sh --master 10.0.0.1 --port 29400 --node-rank {r}" for r in range(3)]
    assert not (tmp_path / "pwned").exists()
    assert subprocess.run(["bash", str(kit)], capture_output=True, cwd=tmp_path).returncode == 2


def test_cli_kit_nodes_and_kit_import(tmp_path, capsys):
    out = tmp_path / "kit.sh"
    assert run_cli(["kit", str(PLAN), "--nodes", "2", "-o", str(out)]) == 0
    assert "gpuplanner-kit-multinode/1" in out.read_text() and "torch.distributed.run" in out.read_text()
    capsys.readouterr()
    assert run_cli(["kit-import", str(PLAN), str(BAD), "--json", "--strict"]) == 1
    res = json.loads(capsys.readouterr().out)
    assert res["analysis"]["worst"] == "bad" and res["server"]["nodes"] == 2
    assert run_cli(["kit-import", str(PLAN), str(GOOD)]) == 0
    assert "Inter-node" in capsys.readouterr().out
    broken = tmp_path / "r.json"
    broken.write_text('{"schema": "gpuplanner-kit-multinode/1", "nodes": 0, "gpus_per_node": 8}')
    assert run_cli(["kit-import", str(PLAN), str(broken)]) == 2
    assert "nodes" in capsys.readouterr().err


def test_measured_network_feeds_the_time_model():
    from gpuplanner.core.estimate import estimate
    from gpuplanner.io.model_files import ModelFiles
    from gpuplanner.verify.multinode import measured_network_scenario

    s = scenario()
    good = analyse_multinode(load_multinode_result(GOOD), s)
    new, nics = measured_network_scenario(s, good)
    assert nics == 7 == int(338.0 // 48.0) and new.hardware.nics_per_node == 7 and s.hardware.nics_per_node is None
    bad = analyse_multinode(load_multinode_result(BAD), s)
    slow, nics = measured_network_scenario(s, bad)
    assert nics == 1
    t0 = estimate(s, ModelFiles(None)).time.tokens_per_s_per_gpu
    t1 = estimate(slow, ModelFiles(None)).time.tokens_per_s_per_gpu
    assert t1 < t0  # one NIC per node instead of eight: FSDP across nodes waits on the network
    cpu = json.loads(GOOD.read_text())
    cpu["device"] = "cpu"
    assert measured_network_scenario(s, analyse_multinode(parse_multinode_result(cpu), s)) is None

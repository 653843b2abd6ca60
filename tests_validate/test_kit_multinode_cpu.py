"""The multi-node kit as a vendor would run it: kit.sh on 2 "nodes" x 2 processes, all on 127.0.0.1, CPU + gloo.
Produces a result file; kit-import analyses it; the operator probe reports a deliberately unsupported operator.
About 40-70 s on a 2-core VM (six PyTorch processes start), so the sizes and steps are cut down."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.verify.multinode import analyse_multinode, load_multinode_result, render_multinode_kit

PLAN = Path(__file__).resolve().parents[1] / "tests" / "data" / "net" / "plan-16x-h100.json"


def _free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))  # bind only: the harness forbids connect() in this process
    port = s.getsockname()[1]
    s.close()
    return port


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash not available")
def test_multinode_kit_two_nodes_on_localhost(tmp_path):
    s = scenario_from_dict(json.loads(PLAN.read_text()))
    kit = tmp_path / "kit.sh"
    kit.write_text(render_multinode_kit(s, 2), encoding="utf-8")
    assert subprocess.run(["bash", "-n", str(kit)]).returncode == 0
    port = str(_free_port())
    common = ["--master", "127.0.0.1", "--port", port, "--cpu", "--python", sys.executable,
              "--sizes", "65536,1048576", "--iters", "2", "--repeat", "2", "--steps", "1", "--probe-inject"]
    procs = [subprocess.Popen(["bash", str(kit), "--node-rank", str(r), *common], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for r in (0, 1)]
    outs = [p.communicate(timeout=300)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], "\n".join(o[-3000:] for o in outs)
    res = load_multinode_result(tmp_path / "gpuplanner-kit-multinode.json")
    assert (res.nodes, res.gpus_per_node, res.world, res.device, res.backend) == (2, 2, 4, "cpu", "gloo")
    assert res.errors == []
    scopes = {(c.scope, c.op, c.n) for c in res.collectives}
    assert scopes == {(sc, op, n) for sc, n in (("intra", 2), ("inter", 2), ("world", 4))
                      for op in ("all_reduce", "all_gather")}
    inter_big = [c for c in res.collectives if c.scope == "inter" and c.op == "all_reduce" and c.size_bytes == 1 << 20]
    assert sorted(c.repeat for c in inter_big) == [0, 1]  # the repeated inter-node measurement
    assert all(c.busbw_gbs > 0 for c in res.collectives)
    assert [(r.scope, r.n) for r in res.scaling] == [("gpus", 1), ("gpus", 2), ("nodes", 4)]
    assert [h.node for h in res.hosts] == [0, 1]
    # the probe went on past the unsupported operator and through the backward pass
    assert [f.op for f in res.probe.failed] == ["unsupported_op"] and res.probe.ops > 20
    a = analyse_multinode(res, s)
    assert any(f.severity == "bad" and "unsupported_op" in f.text for f in a.findings)
    assert any("gloo" in f.text for f in a.findings) and len(a.inter) == 2
    # and through the CLI
    from gpuplanner.cli import run_cli

    assert run_cli(["kit-import", str(PLAN), str(tmp_path / "gpuplanner-kit-multinode.json"), "--json"]) == 0

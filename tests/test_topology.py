"""nvidia-smi topo -m parsing and diagnosis.

Samples: /work/shared/reference/topo-samples (real outputs quoted in gpu-catalog.md §2.5) and constructed
variants in tests/data/topo. Expected values below are read off the matrices by hand.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gpuplanner.core.errors import PlannerError
from gpuplanner.verify.topology import (
    TopologyError,
    diagnose,
    format_matrix,
    max_nvlink_tp,
    parse_query_gpu_csv,
    parse_topo,
    power_starved,
)

SAMPLES = Path("/work/shared/reference/topo-samples")
DATA = Path(__file__).parent / "data" / "topo"


def _sample(name: str) -> str:
    path = SAMPLES / name
    if not path.exists():
        pytest.skip(f"shared reference sample missing: {path}")
    return path.read_text(encoding="utf-8")


def _data(name: str) -> str:
    return (DATA / name).read_bytes().decode("utf-8")


def _sev(diag, needle: str) -> str:
    hits = [f for f in diag.verdict if needle in f.text]
    assert len(hits) == 1, (needle, diag.verdict_lines())
    return hits[0].severity


# ------------------------------------------------------------------------------------------- shared samples


def test_hgx_h100_full_mesh():
    topo = parse_topo(_sample("hgx-8xh100-sxm.txt"))
    assert topo.gpus == 8
    assert topo.gpu_names == [f"GPU{i}" for i in range(8)]
    assert topo.link(0, 7) == "NV18" and topo.link(5, 2) == "NV18" and topo.link(3, 3) == "X"
    assert topo.nics == []
    assert topo.cpu_affinity[0] == "0-47,96-143" and topo.cpu_affinity[7] == "48-95,144-191"
    assert topo.numa == ["0"] * 4 + ["1"] * 4
    assert topo.gpu_numa_id == [None] * 8  # all N/A
    d = diagnose(topo)
    assert d.gpus == 8
    assert d.nvlink == "full"
    assert d.max_nvlink_tp == 8
    assert d.numa_nodes == 2
    assert len(d.pairs) == 28 and set(d.pairs.values()) == {"NV18"}
    assert d.verdict_lines()[0] == (
        "Full NVLink mesh across 8 GPUs (NV18): tensor parallelism up to 8 runs over NVLink."
    )
    assert d.verdict[0].severity == "ok"
    assert _sev(d, "GPUs span 2 NUMA nodes") == "ok"
    assert d.worst == "ok"


def test_hgx_h100_plan_tp8_ok_and_multinode_without_nic_is_bad():
    d = diagnose(parse_topo(_sample("hgx-8xh100-sxm.txt")), plan_tp=8, plan_gpus=16)
    assert _sev(d, "plan uses TP=8: every TP group is on NVLink") == "ok"
    assert _sev(d, "lists no NIC") == "bad"


def test_dgx_a100_first_four_rows_partial_with_nics():
    topo = parse_topo(_sample("dgx-a100-first4rows.txt"))
    assert topo.gpus == 8
    assert topo.nics == [f"NIC{i}" for i in range(12)]
    assert topo.rows_present == [True] * 4 + [False] * 4
    # rows 0-3 known, pairs among GPU4..GPU7 unknown: C(4,2) = 6 of 28
    assert topo.link(0, 5) == "NV12" and topo.link(6, 2) == "NV12"  # by symmetry from row GPU2
    assert topo.link(4, 5) is None
    assert topo.gpu_nic[0][:3] == ["PXB", "PXB", "SYS"]
    assert topo.gpu_nic[2][:4] == ["SYS", "SYS", "PXB", "PXB"]
    assert topo.gpu_nic[5] == [None] * 12
    assert topo.numa[:4] == ["3", "3", "1", "1"] and topo.numa[4:] == [None] * 4
    d = diagnose(topo, plan_tp=8)
    assert d.nvlink == "full"  # every listed pair is NV12
    assert sorted(d.unknown_pairs) == sorted(
        ["GPU4-GPU5", "GPU4-GPU6", "GPU4-GPU7", "GPU5-GPU6", "GPU5-GPU7", "GPU6-GPU7"]
    )
    assert d.max_nvlink_tp == 8  # if the missing pairs match
    assert d.max_nvlink_tp_confirmed == 1  # GPU4-GPU5 unknown breaks even TP=2 groups
    assert d.numa_nodes == 2  # NUMA 3 and 1 among the listed rows
    assert d.gpu_nic_affinity["GPU0"] == {"nics": ["NIC0", "NIC1"], "class": "PXB"}
    assert d.gpu_nic_affinity["GPU3"] == {"nics": ["NIC2", "NIC3"], "class": "PXB"}
    assert d.gpu_nic_affinity["GPU6"] == {"nics": [], "class": None}
    assert _sev(d, "Partial output: rows GPU4, GPU5, GPU6, GPU7 are missing, so 6 of 28") == "warn"
    assert _sev(d, "GPU4\u2013GPU5 is not in the pasted output") == "warn"
    js = d.to_json()
    assert js["complete"] is False and js["pairs"]["GPU4-GPU5"] is None


def test_crlf_tabs_and_spaces_parse_identically():
    text = _sample("hgx-8xh100-sxm.txt")
    variants = [
        text.replace("\n", "\r\n"),
        text.replace("    ", "\t"),
        "\n".join("   " + ln.replace(" ", "  ") + "  " for ln in text.split("\n")),
    ]
    ref = parse_topo(text)
    for v in variants:
        t = parse_topo(v)
        assert t.links == ref.links and t.numa == ref.numa and t.cpu_affinity == ref.cpu_affinity


def test_double_spaced_paste_and_trailing_text_after_blank_line():
    text = _sample("hgx-8xh100-sxm.txt")
    doubled = text.replace("\n", "\n\n") + "\nsome chat message after the paste\n"
    t = parse_topo(doubled)
    assert t.rows_present == [True] * 8 and t.links == parse_topo(text).links


def test_utf16_bytes_from_powershell_redirect():
    text = _sample("hgx-8xh100-sxm.txt")
    topo = parse_topo(text.replace("\n", "\r\n").encode("utf-16"))
    assert topo.gpus == 8 and topo.link(1, 6) == "NV18"


# ------------------------------------------------------------------------------------------- constructed


def test_pcie_only_8x4090_with_nic_legend():
    topo = parse_topo(_data("8x4090-pcie-nics.txt"))
    assert topo.gpus == 8 and topo.nics == ["NIC0", "NIC1"]
    assert topo.nic_names == {"NIC0": "mlx5_0", "NIC1": "mlx5_1"}
    assert (topo.link(0, 1), topo.link(0, 2), topo.link(4, 6), topo.link(3, 4)) == ("PIX", "PXB", "NODE", "SYS")
    d = diagnose(topo, plan_tp=8)
    assert d.nvlink == "none"
    assert d.max_nvlink_tp == 1
    assert d.numa_nodes == 2
    assert d.verdict_lines()[0] == (
        "No NVLink: GPU pairs talk over PCIe (PIX/PXB/NODE/SYS) \u2014 keep TP=1 and prefer ZeRO/FSDP data parallelism"
    )
    # First SYS pair in the TP=8 group, in (i, j) order: GPU0-GPU4.
    assert _sev(d, "plan uses TP=8 but GPU0\u2013GPU4 cross the CPU socket (SYS): choose another server or TP\u22641") == "bad"
    # NICs sit behind the GPU6/GPU7 switch: only GPU6 and GPU7 are PIX to a NIC.
    assert d.gpu_nic_affinity["GPU6"] == {"nics": ["NIC0 (mlx5_0)", "NIC1 (mlx5_1)"], "class": "PIX"}
    assert d.gpu_nic_affinity["GPU4"]["class"] == "NODE"
    assert _sev(d, "GPU0, GPU1, GPU2, GPU3, GPU4, GPU5 have no NIC at PIX/PXB distance") == "warn"
    # with a multi-node plan the same finding is bad
    d16 = diagnose(topo, plan_gpus=16)
    assert _sev(d16, "have no NIC at PIX/PXB distance") == "bad"
    assert "NIC0: mlx5_0" in format_matrix(topo)


def test_nvlink_bridged_pairs_crlf():
    raw = (DATA / "8gpu-bridged-pairs-crlf.txt").read_bytes()
    assert b"\r\n" in raw  # the file really is CRLF
    topo = parse_topo(raw)
    assert topo.gpus == 8
    assert topo.link(0, 1) == "NV4" and topo.link(2, 3) == "NV4" and topo.link(1, 2) == "PHB"
    assert topo.link(0, 4) == "SYS"
    d = diagnose(topo, plan_tp=8)
    assert d.nvlink == "pairs"
    assert d.max_nvlink_tp == 2
    assert d.pairs["GPU0-GPU1"] == "NV4" and d.pairs["GPU1-GPU2"] == "PHB"
    assert _sev(d, "NVLink only between pairs (GPU0\u2013GPU1, GPU2\u2013GPU3, GPU4\u2013GPU5, GPU6\u2013GPU7)") == "warn"
    assert _sev(d, "plan uses TP=8 but GPU0\u2013GPU4 cross the CPU socket (SYS): choose another server or TP\u22642") == "bad"
    # TP=4 inside a socket: the worst pair is PHB (GPU0-GPU2 is the first PHB pair)
    d4 = diagnose(topo, plan_tp=4)
    assert _sev(d4, "plan uses TP=4 but GPU0\u2013GPU2 talk over PCIe (PHB)") == "bad"
    d2 = diagnose(topo, plan_tp=2)
    assert _sev(d2, "plan uses TP=2: every TP group is on NVLink") == "ok"


def test_non_consecutive_bridges_suggest_device_order():
    # GPU0-GPU2 and GPU1-GPU3 bridged: consecutive TP=2 groups {0,1},{2,3} miss the bridges.
    text = (
        "\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\tNUMA Affinity\n"
        "GPU0\t X \tPHB\tNV4\tPHB\t0-7\t0\n"
        "GPU1\tPHB\t X \tPHB\tNV4\t0-7\t0\n"
        "GPU2\tNV4\tPHB\t X \tPHB\t0-7\t0\n"
        "GPU3\tPHB\tNV4\tPHB\t X \t0-7\t0\n"
    )
    d = diagnose(parse_topo(text))
    assert d.nvlink == "pairs" and d.max_nvlink_tp == 1
    assert _sev(d, "CUDA_VISIBLE_DEVICES=0,2,1,3") == "warn"
    assert d.numa_nodes == 1


def test_two_nvlink_islands_prompt_and_trailing_prompt():
    topo = parse_topo(_data("8gpu-two-nvlink-islands.txt"))
    assert topo.gpus == 8 and len(topo.nics) == 4
    assert topo.nic_names["NIC3"] == "mlx5_3"
    d = diagnose(topo, plan_tp=8)
    assert d.nvlink == "partial"
    assert d.max_nvlink_tp == 4
    # two islands of 4: 2 * C(4,2) = 12 NVLink pairs of 28
    assert sum(1 for c in d.pairs.values() if c == "NV8") == 12
    assert _sev(d, "plan uses TP=8 but GPU0\u2013GPU4 cross the CPU socket (SYS): choose another server or TP\u22644") == "bad"
    assert d.worst == "bad"
    assert d.gpu_nic_affinity["GPU5"] == {"nics": ["NIC2 (mlx5_2)"], "class": "PXB"}
    assert diagnose(topo, plan_tp=4).worst != "bad"


def test_sixteen_gpus_without_gpu_numa_id():
    topo = parse_topo(_data("16gpu-nvswitch-nv6.txt"))
    assert topo.gpus == 16 and not topo.has_gpu_numa_id and topo.has_numa
    assert topo.link(15, 0) == "NV6" and topo.link(9, 10) == "NV6"
    d = diagnose(topo)
    assert d.nvlink == "full" and d.max_nvlink_tp == 16 and d.numa_nodes == 2
    assert len(d.pairs) == 16 * 15 // 2


def test_four_gpus_old_driver_with_prompt():
    topo = parse_topo(_data("4gpu-old-driver-prompt.txt"))
    assert topo.gpus == 4 and topo.has_numa and not topo.has_gpu_numa_id
    assert topo.numa == ["0"] * 4
    d = diagnose(topo)
    assert d.nvlink == "none" and d.max_nvlink_tp == 1 and d.numa_nodes == 1
    assert not any("NUMA nodes" in line for line in d.verdict_lines())


def test_two_gpus_very_old_driver_mlx5_columns_and_soc():
    topo = parse_topo(_data("2gpu-very-old-driver-mlx5-soc.txt"))
    assert topo.gpus == 2 and topo.nics == ["mlx5_0"]
    assert topo.gpu_nic == [["PHB"], ["SYS"]]  # SOC is the old spelling of SYS
    assert not topo.has_numa
    d = diagnose(topo)
    assert d.nvlink == "full" and d.max_nvlink_tp == 2
    assert d.numa_nodes is None
    assert _sev(d, "GPU0, GPU1 have no NIC at PIX/PXB distance") == "warn"


def test_single_gpu():
    topo = parse_topo(_data("1gpu.txt"))
    assert topo.gpus == 1 and topo.cpu_affinity == ["0-15"] and topo.numa == ["0"]
    d = diagnose(topo, plan_tp=2)
    assert d.nvlink == "none" and d.max_nvlink_tp == 1 and d.pairs == {}
    assert _sev(d, "plan uses TP=2 but this server has only 1 GPU:") == "bad"  # (one GPU: issue 35 r4 plurals)


def test_max_nvlink_tp_needs_consecutive_power_of_two_groups():
    # 6 GPUs, full mesh: 6 is not a power of two; 4 does not divide 6 -> 2.
    n = 6
    rows = ["\t" + "\t".join(f"GPU{i}" for i in range(n)) + "\tCPU Affinity"]
    for i in range(n):
        rows.append(f"GPU{i}\t" + "\t".join(" X " if i == j else "NV12" for j in range(n)) + "\t0-7")
    topo = parse_topo("\n".join(rows))
    assert max_nvlink_tp(topo) == 2
    assert diagnose(topo).nvlink == "full"


def test_nv8_full_mesh_warns_reduced_bandwidth():
    n = 8
    rows = ["\t" + "\t".join(f"GPU{i}" for i in range(n)) + "\tCPU Affinity"]
    for i in range(n):
        rows.append(f"GPU{i}\t" + "\t".join(" X " if i == j else "NV8" for j in range(n)) + "\t0-7")
    d = diagnose(parse_topo("\n".join(rows)))
    assert d.max_nvlink_tp == 8
    assert _sev(d, "NV8 on every pair") == "warn"


# ------------------------------------------------------------------------------------------- errors


def test_garbage_line_names_the_line():
    with pytest.raises(TopologyError) as exc:
        parse_topo(_data("garbage-line4.txt"))
    msg = str(exc.value)
    assert msg == "line 4: expected a GPU row like 'GPU0  X  NV12 ...', got 'foo bar'"
    assert isinstance(exc.value, PlannerError)


@pytest.mark.parametrize(
    "text, needle",
    [
        ("", "empty input"),
        ("\n  \r\n$ nvidia-smi topo -m\n", "empty input"),
        ("GPU0\t X \tNV12\nGPU1\tNV12\t X \n", "no 'nvidia-smi topo -m' header found"),
        ("hello world\n", "line 1 is 'hello world'"),
        ("\tGPU0\tGPU1\tCPU Affinity\n", "header found but no GPU rows"),
        ("\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNVX\t0-7\n", "line 2: GPU0 column GPU1: unknown link class 'NVX'"),
        ("\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV4\t0-7\nGPU2\tNV4\t X \t0-7\n", "line 3: row GPU2 is not among"),
        ("\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV4\t0-7\nGPU0\t X \tNV4\t0-7\n", "line 3: row GPU0 appears twice"),
        ("\tGPU0\tGPU1\tCPU Affinity\nGPU0\tNV4\t X \t0-7\n", "'X' must mark the row's own column"),
        ("\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV4\t0-7\t9\t9\n", "line 2: row GPU0 has 5 entries"),
        ("\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV4\tcores\n", "line 2: GPU0 CPU Affinity: unexpected value 'cores'"),
        ("\tGPU1\tGPU0\tCPU Affinity\nGPU0\t X \tNV4\t0-7\n", "line 1: expected GPU columns GPU0..GPU1 in order"),
    ],
)
def test_bad_inputs_give_clear_one_line_errors(text, needle):
    with pytest.raises(TopologyError) as exc:
        parse_topo(text)
    assert needle in str(exc.value)
    assert "\n" not in str(exc.value)


def test_truncated_row_keeps_what_is_there():
    text = "\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\nGPU0\t X \tNV4\tNV4\tNV4\t0-7\nGPU1\tNV4\t X \n"
    topo = parse_topo(text)
    assert topo.link(1, 2) is None and topo.link(0, 3) == "NV4" and topo.link(1, 0) == "NV4"
    assert topo.unknown_pairs() == [(1, 2), (1, 3), (2, 3)]


# ------------------------------------------------------------------------------------------- JSON / CLI


def test_to_json_fields():
    js = diagnose(parse_topo(_data("8gpu-two-nvlink-islands.txt")), plan_tp=8).to_json()
    assert js["gpus"] == 8 and isinstance(js["gpus"], int)
    assert js["nvlink"] == "partial" and js["max_nvlink_tp"] == 4 and js["numa_nodes"] == 2
    assert js["pairs"]["GPU0-GPU4"] == "SYS" and js["pairs"]["GPU4-GPU7"] == "NV8"
    assert len(js["verdict"]) == len(js["severities"]) and all(isinstance(v, str) for v in js["verdict"])
    assert "bad" in js["severities"] and js["worst"] == "bad"
    json.dumps(js)  # serialisable


def _cli(*args, stdin: str | None = None):
    return subprocess.run(
        [sys.executable, "-m", "gpuplanner", "topo", *args], capture_output=True, text=True, input=stdin, timeout=60
    )


def test_cli_json_and_text_and_stdin():
    res = _cli(str(DATA / "8gpu-bridged-pairs-crlf.txt"), "--json", "--tp", "4")
    assert res.returncode == 0, res.stderr
    js = json.loads(res.stdout)
    assert js["nvlink"] == "pairs" and js["max_nvlink_tp"] == 2
    assert any("plan uses TP=4" in v for v in js["verdict"])

    res = _cli("-", "--tp", "8", "--strict", stdin=_data("8gpu-two-nvlink-islands.txt"))
    assert res.returncode == 1  # --strict: a bad verdict line
    assert "[BAD]" in res.stdout and "GPU0\u2013GPU4" in res.stdout and "NV8" in res.stdout


def test_cli_garbage_exits_2_with_one_line():
    res = _cli(str(DATA / "garbage-line4.txt"), "--json")
    assert res.returncode == 2
    assert res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert lines == ["gpuplanner: error: line 4: expected a GPU row like 'GPU0  X  NV12 ...', got 'foo bar'"]

    res = _cli(str(DATA / "does-not-exist.txt"))
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1 and "not found" in res.stderr  # the safe reader's message, as net and health


# ------------------------------------------------------------------------------------------- query-gpu CSV

QUERY_CSV = """\
name, memory.total [MiB], power.draw [W], power.limit [W], utilization.gpu [%]
NVIDIA H100 80GB HBM3, 81559 MiB, 690.12 W, 700.00 W, 100 %
NVIDIA H100 80GB HBM3, 81559 MiB, 310.50 W, 700.00 W, 97 %
NVIDIA GeForce RTX 4090, 24564 MiB, [N/A], 450.00 W, 0 %
"""


def test_query_gpu_csv_and_power_starved():
    rows = parse_query_gpu_csv(QUERY_CSV.replace("\n", "\r\n"))
    assert len(rows) == 3
    assert rows[0]["name"] == "NVIDIA H100 80GB HBM3"
    assert rows[0]["memory.total"] == 81559.0 and rows[0]["_units"]["memory.total"] == "MiB"
    assert rows[1]["power.draw"] == 310.5 and rows[1]["utilization.gpu"] == 97.0
    assert rows[2]["power.draw"] is None
    starved = power_starved(rows)
    # 690.12/700 = 0.986 fine; 310.5/700 = 0.4436 < 0.6 starved; row 2 has no draw -> skipped
    assert [s["gpu"] for s in starved] == [1]
    assert starved[0]["ratio"] == pytest.approx(310.5 / 700)
    assert "44%" in starved[0]["text"] and "idle" in starved[0]["text"]
    assert [s["gpu"] for s in power_starved(rows, threshold=0.99)] == [0, 1]


def test_query_gpu_csv_bad_value_names_line():
    with pytest.raises(TopologyError, match="line 3: power.draw: expected a number in W, got 'lots'"):
        parse_query_gpu_csv("name, power.draw [W]\nA100, 100 W\nA100, lots\n")
    with pytest.raises(TopologyError, match="line 2: expected 2 comma-separated values"):
        parse_query_gpu_csv("name, power.draw [W]\nA100\n")

"""Every parser of pasted text is linear by construction (issue #32, hole 2).

Each parser gets 100 KB of each of its worst patterns (a long run of the character class a quantifier
repeats, a prefix its regexes match repeated without the part that completes them, a run of line breaks)
after the first lines of its own tool's output, so the parser reaches its deeper rules. Quadratic code
takes minutes on 100 KB; the bound (CPU time of this process, so a busy machine does not fail it) is
1.5 s per case.
"""

from __future__ import annotations

import time

import pytest

from gpuplanner.core.errors import PlannerError
from gpuplanner.verify import health, network, topology

SIZE = 100_000
LIMIT_S = 1.5


def _fill(unit: str, head: str = "", tail: str = "") -> str:
    return head + unit * max(1, (SIZE - len(head) - len(tail)) // len(unit)) + tail


# the generic worst cases: runs of what \s, \d, [A-Za-z ...] and .* repeat, each left unfinished
GENERIC = {
    "newlines": _fill("\n", "x"),
    "spaces": _fill(" ", "A", "x"),
    "tabs": _fill("\t", "A", "x"),
    "digits": _fill("1", "", "x"),
    "digits-slash": _fill("1", "", " /"),
    "letters": _fill("a"),
    "key-spaces": _fill(" ", "Key", "x"),
    "pipes": _fill("| "),
    "pipe-spaces": _fill(" ", "|", "x"),
    "brackets": _fill("a["),
    "dashes": _fill("-"),
    "colons": _fill(":"),
    "crlf": _fill("\r\n", "x"),
    "nvrm-gpu": _fill("NVRM: GPU 0000:b3:00.0 "),
    "nvrm-xid": _fill("NVRM: Xid (0000:b3:00.0): 1"),
    "nvrm-the": _fill("NVRM: The NVIDIA GPU 0000:b3:00.0 "),
    "npu-smi": _fill("| npu-smi "),
    "npu-name": _fill("| NPU  Name "),
    "gpu-temp": _fill("GPU  Temp "),
    "driver": _fill(" Driver Version "),
    "ca": _fill("CA '"),
    "hca": _fill("hca_id: "),
    "port": _fill("Port 1"),
    "gpu-cols": _fill("GPU0\t"),
    "nv": _fill("NV1 "),
    "cpu-aff": _fill(" ", "CPU", "x"),
    "cpu-list": _fill("0-1,", "", "x"),
    "nic": _fill("NIC0: "),
    "prompt": _fill("user@host:~$ "),
    "frac": _fill("1 / 1 ", "", "/"),
    "unit": _fill(" ", "a", "[x"),
}

HEADS = {
    "nvidia": "==============NVSMI LOG==============\n\nDriver Version : 535.104.05\nGPU 00000000:18:00.0\n    ",
    "npu": "+----+\n| npu-smi 25.2.0    Version: 25.2.0   |\n| NPU   Name  | Health | Power(W) |\n",
    "amd": "=== ROCm System Management Interface ===\nDevice  Node  IDs  Temp  Power\n",
    "dmesg": "[  1.0] NVRM: loading\n",
    "topo": "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\nGPU0\t X \tNV6\t0-23\t0\n",
    "net": "CA 'mlx5_0'\n\tCA type: MT4129\n\tPort 1:\n\t\t",
    "csv": "name, memory.total [MiB], power.draw [W]\n",
}


def _parsers():
    return {
        "check_health": (lambda t: health.check_health(t), ["nvidia", "npu", "amd", "dmesg"]),
        "parse_nvidia_smi_q": (health.parse_nvidia_smi_q, ["nvidia"]),
        "parse_xid": (health.parse_xid, ["dmesg"]),
        "parse_npu_smi": (health.parse_npu_smi, ["npu"]),
        "parse_rocm_smi": (health.parse_rocm_smi, ["amd"]),
        "detect_kind": (health.detect_kind, ["nvidia", "dmesg"]),
        "parse_topo": (topology.parse_topo, ["topo"]),
        "parse_query_gpu_csv": (topology.parse_query_gpu_csv, ["csv"]),
        "parse_ports": (network.parse_ports, ["net"]),
    }


def _time(fn, text: str) -> float:
    t0 = time.process_time()
    try:
        fn(text)
    except PlannerError:
        pass
    return time.process_time() - t0


@pytest.mark.parametrize("parser", sorted(_parsers()))
def test_each_parser_is_linear_on_its_worst_patterns(parser):
    fn, heads = _parsers()[parser]
    slow = []
    for head in [""] + [HEADS[h] for h in heads]:
        for name, body in GENERIC.items():
            for text in (head + body, head + body.replace("\n", " ") + "\n" + body):
                dt = _time(fn, text[: 2 * SIZE])
                if dt > LIMIT_S:
                    slow.append((name, head[:20], round(dt, 2)))
    assert not slow, slow


def test_the_issue_reproducers_are_fast():
    """The two inputs of the issue: 4,000 'NVRM: GPU …' on one line (20.6 s before) and 'x' + 80,000 line
    breaks (43.5 s before)."""
    for text in ("NVRM: GPU 0000:b3:00.0 " * 4000 + "\n", "x" + "\n" * 80_000):
        assert _time(lambda t: health.check_health(t), text) < LIMIT_S

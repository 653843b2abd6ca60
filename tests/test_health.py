"""verify/health.py and ``gpuplanner health``: real outputs in tests/data/health (sources in its README)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core.messages import Msg
from gpuplanner.verify.health import (HealthError, check_health, parse_npu_smi, parse_nvidia_smi_q, parse_rocm_smi,
                                      parse_xid)

DATA = Path(__file__).parent / "data" / "health"


def read(name):
    return (DATA / name).read_bytes()


def sev(rep, severity, needle):
    return any(f.severity == severity and needle in f.text for f in rep.findings)


def test_nvidia_smi_q_real_excerpts():
    info, (g,) = parse_nvidia_smi_q(read("nvidia-smi-q-h100-clocks-event-reasons-excerpt.txt"))
    assert g.throttle_active == ["Idle"] and g.throttle_seen and (g.memory_total_mib, g.memory_used_mib) == (81559, 1)
    info, (g,) = parse_nvidia_smi_q(read("nvidia-smi-q-clocks-throttle-grep.txt"))
    assert g.throttle_active == ["Idle"]
    info, (g,) = parse_nvidia_smi_q(read("nvidia-smi-q-temperature-max-operating.txt"))
    assert info == {"driver": "465.27", "cuda": "11.3"}
    assert (g.bus_id, g.temp_c, g.slowdown_temp_c, g.shutdown_temp_c, g.max_operating_temp_c) == (
        "00000000:2D:00.0", 56, 97, 102, 57)
    rep = check_health(read("nvidia-smi-q-h100-clocks-event-reasons-excerpt.txt"), "h100-sxm-80gb")
    assert rep.worst == "ok" and sev(rep, "ok", "No clock slowdown")


def test_old_driver_for_hopper_and_cuda11_warning():
    rep = check_health(read("nvidia-smi-q-temperature-max-operating.txt"), "h100-sxm-80gb")
    assert sev(rep, "bad", "Hopper (sm_90) needs CUDA 11.8")
    rep = check_health(read("nvidia-smi-q-temperature-max-operating.txt"), "a100-sxm-80gb")
    assert rep.worst == "warn" and sev(rep, "warn", "CUDA 12 builds")


def test_throttled_capped_ecc_and_processes_findings_first():
    rep = check_health(read("constructed-nvidia-smi-q-h100-throttled-ecc.txt"), "h100-sxm-80gb")
    g0, g1 = rep.gpus
    assert g0.ecc_volatile_uncorrected == 2 and g0.remap_pending is True and g0.power_limit_w == 500
    assert g0.processes == [{"pid": 48211, "name": "/usr/bin/python3", "type": "C", "memory_mib": 33544.0}]
    assert g1.processes == [] and g1.remap_pending is False
    assert sev(rep, "bad", "within 5 °C of the slowdown temperature")
    assert sev(rep, "bad", "HW Slowdown, HW Thermal Slowdown, SW Thermal Slowdown")
    assert sev(rep, "bad", "power limit 500 W, below the 700 W TDP")
    assert sev(rep, "bad", "uncorrectable ECC errors") and sev(rep, "bad", "pending")
    assert sev(rep, "warn", "processes already running (/usr/bin/python3)")
    assert not any("GPU1" in f.text for f in rep.findings if f.severity in ("bad", "warn"))
    order = [f.severity for f in rep.findings]
    assert order == sorted(order, key=["bad", "warn", "info", "ok"].index)
    for f in rep.findings:
        assert isinstance(f.msg, Msg) and f.msg.context == "Health"


def test_xid_lines():
    xs = parse_xid(read("dmesg-xid.txt"))
    assert [(x.code, x.pci) for x in xs] == [(63, "0000:10:1c"), (79, "0000:b3:00.0"), (79, "0000:44:00")]
    rep = check_health(read("dmesg-xid.txt"))
    assert rep.kind == "dmesg" and sev(rep, "bad", "Xid 79") and sev(rep, "warn", "Xid 63")
    rep = check_health(read("nvidia-smi-q-h100-clocks-event-reasons-excerpt.txt"), dmesg=read("dmesg-xid.txt"))
    assert rep.worst == "bad" and len(rep.xids) == 3


def test_npu_smi_real_and_constructed():
    info, npus, procs = parse_npu_smi(read("npu-smi-910b4-hami.txt"))
    assert info["version"] == "25.2.0" and procs == []
    assert [(n.npu, n.chip, n.name, n.health, n.power_w, n.temp_c, n.hbm_used_mb, n.hbm_total_mb) for n in npus] == [
        (0, 0, "910B4-1", "OK", 91.3, 33, 3197, 65536), (1, 0, "910B4-1", "OK", 88.1, 32, 3197, 65536)]
    assert check_health(read("npu-smi-910b4-hami.txt"), "ascend-910b-64gb").worst == "ok"
    _, npus, _ = parse_npu_smi(read("npu-smi-ascend910-hbm-in-use.txt"))
    assert [(n.npu, n.chip, n.power_w, n.hbm_used_mb) for n in npus] == [(0, 0, 178.9, 57784), (0, 1, None, 57831)]
    assert sev(check_health(read("npu-smi-ascend910-hbm-in-use.txt")), "warn", "57831 MB of HBM")
    rep = check_health(read("constructed-npu-smi-warning-processes.txt"), "ascend-910b-64gb")
    assert rep.processes == [{"npu": 1, "chip": 0, "pid": 387112, "name": "python3.10", "memory_mb": 17720}]
    assert sev(rep, "warn", "health 'Warning'") and sev(rep, "warn", "python3.10")


def test_rocm_smi_old_and_rocm6_layouts():
    (r,) = parse_rocm_smi(read("rocm-smi-old-concise.txt"))
    assert (r.device, r.temp_c, r.power_w, r.power_cap_w, r.vram_pct, r.gpu_pct) == (1, 24.0, 3.0, 170.0, None, 0)
    rows = parse_rocm_smi(read("rocm-smi-mi300x-concise.txt"))
    assert [(r.device, r.temp_c, r.power_w, r.power_cap_w) for r in rows][:2] == [(15, 42.0, 131.0, 750.0),
                                                                                 (16, 46.0, 136.0, 750.0)]
    assert check_health(read("rocm-smi-mi300x-concise.txt"), "mi300x-192gb").worst == "ok"
    rep = check_health(read("constructed-rocm-smi-mi300x-capped-busy.txt"), "mi300x-192gb")
    assert sev(rep, "bad", "power cap 600 W, below the 750 W TDP") and sev(rep, "warn", "GPU 16 busy")
    # the wrong vendor for the plan
    assert sev(check_health(read("rocm-smi-mi300x-concise.txt"), "h100-sxm-80gb"), "bad", "AMD accelerators")


@pytest.mark.parametrize("text,line", [
    (b"==============NVSMI LOG==============\nhello, this is not nvidia-smi\n", 2),
    (b"| npu-smi 25.2.0 | Version |\n| 0  910B | OK |\n", 2),
    (b"GPU  Temp   AvgPwr  SCLK    MCLK    Fan     Perf  PwrCap  VRAM%  GPU%\n1 24.0c 3.0W\n", 2),
    (b"just some text\n", 1),
])
def test_garbage_names_the_line(text, line):
    with pytest.raises(HealthError, match=rf"^line {line}: "):
        check_health(text)


def test_bounds():
    with pytest.raises(HealthError, match="too long"):
        check_health(b"x" * 4_000_001)
    with pytest.raises(HealthError):
        check_health(b"")


def test_cli(capsys):
    assert run_cli(["health", str(DATA / "constructed-nvidia-smi-q-h100-throttled-ecc.txt"), "--gpu", "h100-sxm-80gb",
                    "--json", "--strict"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["kind"] == "nvidia" and out["worst"] == "bad" and out["gpus"][0]["power_limit_w"] == 500
    assert run_cli(["health", str(DATA / "garbage-nvidia-smi-line2.txt")]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "Traceback" not in err

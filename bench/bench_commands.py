"""Command start-up: wall time of each CLI command against Python's own floors, interleaved runs, medians.

    python bench/bench_commands.py [--repeat 9] [--no-report] [--json out.json] [--root SOURCE_TREE]

Each round runs, one after the other (so a busy machine slows them alike): ``python -c pass``,
``python -c "import numpy, pydantic"`` (the floor of any command that reads a scenario), the same with a
one-field pydantic model defined (pydantic's model machinery, loaded lazily on the first model: the floor of any
command that validates with pydantic; plugin discovery off, as ``gpuplanner`` runs it), ``gpuplanner
--version``, ``gpuplanner --help``, ``gpuplanner estimate`` and ``gpuplanner report`` on the 8B example
(``tests/data/examples_fixed/llama3-8b-full-8xh100-zero3.json``). Medians over ``--repeat`` rounds. The ratios are paired: each
round's command over the same round's floor, run just before it (a machine whose speed drifts between rounds
slows both alike), then the median (min–max) of those per-round ratios. Bytecode is cached (in a temporary
``PYTHONPYCACHEPREFIX``) as it is for an installed app. ``--root`` times another source tree (e.g. an older
commit unpacked with ``git archive``) with the same harness.

Targets (issue 34, "One answer per document"): ``estimate`` ≤ 2.5 × the numpy + pydantic floor; ``--help`` ≤ 3 ×
``python -c pass``; ``report`` ≤ 1.5 s median.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"
# the smallest use of pydantic's models; PYDANTIC_DISABLE_PLUGINS as gpuplanner/__main__.py sets it by default
ONE_MODEL = ("import os; os.environ.setdefault('PYDANTIC_DISABLE_PLUGINS', '__all__'); import numpy, pydantic\n"
             "class One(pydantic.BaseModel):\n    x: int = 1\n")


def _run(cmd: list[str], env: dict, cwd: Path = ROOT) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system of the process and its children, from ``wait4``). On a shared
    machine the CPU time is the steadier figure: waiting for a core counts in the wall time only."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd)
    stderr = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    p.stderr.close()
    if p.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}): {stderr.decode()[-1000:]}")
    return dt, usage.ru_utime + usage.ru_stime


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--no-report", action="store_true", help="skip the PDF report (the slowest command)")
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument("--root", type=Path, default=ROOT, help="the source tree to time (default: this one)")
    args = ap.parse_args(argv)
    root = args.root.resolve()
    example = root / EXAMPLE.relative_to(ROOT)

    py = sys.executable
    # bytecode cached as an installed app has it (a session with PYTHONDONTWRITEBYTECODE=1 would otherwise
    # compile every module from source on every run), in a folder of its own, not in the source tree
    env = dict(os.environ, PYTHONPATH=str(root), QT_QPA_PLATFORM="offscreen",
               PYTHONPYCACHEPREFIX=tempfile.mkdtemp(prefix="gpuplanner-pyc-"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out_pdf = Path(tempfile.mkdtemp()) / "r.pdf"
    cases = {
        "python -c pass": [py, "-c", "pass"],
        "python -c 'import numpy, pydantic'": [py, "-c", "import numpy, pydantic"],
        "python: numpy, pydantic + one model": [py, "-c", ONE_MODEL],
        "gpuplanner --version": [py, "-m", "gpuplanner", "--version"],
        "gpuplanner --help": [py, "-m", "gpuplanner", "--help"],
        "gpuplanner estimate (8B example)": [py, "-m", "gpuplanner", "estimate", str(example)],
    }
    if not args.no_report:
        cases["gpuplanner report (8B example)"] = [py, "-m", "gpuplanner", "report", str(example), "-o", str(out_pdf)]
    for cmd in cases.values():  # warm the file cache and the .pyc files
        _run(cmd, env, root)
    times: dict[str, list[float]] = {k: [] for k in cases}
    cpu: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(args.repeat):
        for k, cmd in cases.items():
            wall, used = _run(cmd, env, root)
            times[k].append(wall)
            cpu[k].append(used)
    med = {k: statistics.median(v) for k, v in times.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    floor0, floor1 = "python -c pass", "python -c 'import numpy, pydantic'"
    pairs = {"version_over_pass": ("gpuplanner --version", floor0, None),
             "help_over_pass": ("gpuplanner --help", floor0, 3.0),
             "estimate_over_numpy_pydantic": ("gpuplanner estimate (8B example)", floor1, 2.5),
             "one_model_over_numpy_pydantic": ("python: numpy, pydantic + one model", floor1, None)}
    res = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "root": str(root), "python": sys.version.split()[0], "machine": platform.machine(),
           "cpu": _cpu_name(), "cores": os.cpu_count(), "load_average": os.getloadavg(), "repeat": args.repeat,
           "median_s": {k: round(v, 4) for k, v in med.items()},
           "median_cpu_s": {k: round(v, 4) for k, v in med_cpu.items()}}
    print(f"{'':<40} {'wall':>8}    {'cpu':>8}")
    for k, v in med.items():
        print(f"{k:<40} {v * 1e3:8.0f} ms {med_cpu[k] * 1e3:8.0f} ms")
    for key, (cmd, floor, target) in pairs.items():
        res[key] = {}
        for what, series in (("wall", times), ("cpu", cpu)):
            ratios = sorted(a / b for a, b in zip(series[cmd], series[floor]))
            r = res[key][what] = {"median": round(statistics.median(ratios), 2), "min": round(ratios[0], 2),
                                  "max": round(ratios[-1], 2)}
            print(f"{cmd} / {floor} ({what}, paired): {r['median']:.2f} ({r['min']:.2f}-{r['max']:.2f})"
                  + (f"  target <= {target}" if target else ""))
        res[key]["target"] = target
    if "gpuplanner report (8B example)" in med:
        print(f"report: {med['gpuplanner report (8B example)']:.2f} s (target <= 1.5 s)")
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Command start-up: wall time of each CLI command against Python's own floors, interleaved runs, medians.

    python bench/bench_commands.py [--repeat 9] [--no-report] [--json out.json]

Each round runs, one after the other (so a busy machine slows them alike): ``python -c pass``,
``python -c "import numpy, pydantic"`` (the floor of any command that reads a scenario), the same with a
one-field pydantic model defined (pydantic's model machinery, loaded lazily on the first model: the floor of any
command that validates with pydantic; plugin discovery off, as ``gpuplanner`` runs it), ``gpuplanner
--version``, ``gpuplanner --help``, ``gpuplanner estimate`` and ``gpuplanner report`` on the 8B example
(``examples/llama3-8b-full-8xh100-zero3.json``). Medians over ``--repeat`` rounds; ratios against the floors.
Bytecode is cached (in a temporary ``PYTHONPYCACHEPREFIX``) as it is for an installed app.

Targets (issue "Fast at any size"): ``--version`` ≤ 3 × ``python -c pass``; ``estimate`` ≤ 1.5 × the
numpy + pydantic floor; ``report`` ≤ 1.5 s median.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "llama3-8b-full-8xh100-zero3.json"
# the smallest use of pydantic's models; PYDANTIC_DISABLE_PLUGINS as gpuplanner/__main__.py sets it by default
ONE_MODEL = ("import os; os.environ.setdefault('PYDANTIC_DISABLE_PLUGINS', '__all__'); import numpy, pydantic\n"
             "class One(pydantic.BaseModel):\n    x: int = 1\n")


def _run(cmd: list[str], env: dict) -> float:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    dt = time.perf_counter() - t0
    if p.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.decode()[-1000:]}")
    return dt


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--no-report", action="store_true", help="skip the PDF report (the slowest command)")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)

    py = sys.executable
    # bytecode cached as an installed app has it (a session with PYTHONDONTWRITEBYTECODE=1 would otherwise
    # compile every module from source on every run), in a folder of its own, not in the source tree
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen",
               PYTHONPYCACHEPREFIX=tempfile.mkdtemp(prefix="gpuplanner-pyc-"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out_pdf = Path(tempfile.mkdtemp()) / "r.pdf"
    cases = {
        "python -c pass": [py, "-c", "pass"],
        "python -c 'import numpy, pydantic'": [py, "-c", "import numpy, pydantic"],
        "python: numpy, pydantic + one model": [py, "-c", ONE_MODEL],
        "gpuplanner --version": [py, "-m", "gpuplanner", "--version"],
        "gpuplanner --help": [py, "-m", "gpuplanner", "--help"],
        "gpuplanner estimate (8B example)": [py, "-m", "gpuplanner", "estimate", str(EXAMPLE)],
    }
    if not args.no_report:
        cases["gpuplanner report (8B example)"] = [py, "-m", "gpuplanner", "report", str(EXAMPLE), "-o", str(out_pdf)]
    for cmd in cases.values():  # warm the file cache and the .pyc files
        _run(cmd, env)
    times: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(args.repeat):
        for k, cmd in cases.items():
            times[k].append(_run(cmd, env))
    med = {k: statistics.median(v) for k, v in times.items()}
    floor0 = med["python -c pass"]
    floor1 = med["python -c 'import numpy, pydantic'"]
    res = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "cores": os.cpu_count(), "load_average": os.getloadavg(), "repeat": args.repeat,
           "median_s": {k: round(v, 4) for k, v in med.items()},
           "version_over_pass": round(med["gpuplanner --version"] / floor0, 2),
           "help_over_pass": round(med["gpuplanner --help"] / floor0, 2),
           "estimate_over_numpy_pydantic": round(med["gpuplanner estimate (8B example)"] / floor1, 2),
           "one_model_over_numpy_pydantic": round(med["python: numpy, pydantic + one model"] / floor1, 2)}
    for k, v in med.items():
        print(f"{k:<40} {v * 1e3:8.0f} ms")
    print(f"--version / python -c pass: {res['version_over_pass']:.2f} (target <= 3)")
    print(f"--help / python -c pass: {res['help_over_pass']:.2f}")
    print(f"estimate / numpy+pydantic: {res['estimate_over_numpy_pydantic']:.2f} (target <= 1.5)")
    print(f"one pydantic model / numpy+pydantic: {res['one_model_over_numpy_pydantic']:.2f} (what any pydantic "
          f"validation costs before the first scenario field)")
    if "gpuplanner report (8B example)" in med:
        print(f"report: {med['gpuplanner report (8B example)']:.2f} s (target <= 1.5 s)")
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Budgets for the frozen (PyInstaller onedir) bundle: compressed size and cold start to the first window.

    python bench/bench_bundle.py [--dist dist] [--runs 7] [--json out.json]

Measures
* **size**: the onedir folder (``dist/gpuplanner``) unpacked, and packed as ``.tar.gz`` (gzip level 9,
  what a Linux download would be; Windows/macOS installers use LZMA/bzip2 and come out smaller or similar).
  Budget: compressed <= 100 MB.
* **cold start to first window**: wall time from launching the frozen executable to the line
  ``gpuplanner: first window painted`` on its stdout. The app prints it (and exits) when
  ``GPUPLANNER_EXIT_AFTER_FIRST_WINDOW=1`` is set, right after the first paint of its main window has been
  processed (``gpuplanner/__main__.py``). The first run after a build/copy is the coldest one available
  without root; with ``--drop-caches`` (Linux, root) the page cache is dropped before every run. The
  median of ``--runs`` runs is compared with the budget: <= 2 s.

Runs headless (``QT_QPA_PLATFORM=offscreen``) unless a display is available or the variable is already set.
Exit code 1 when a budget is exceeded, 2 when the bundle is missing or does not start.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = "gpuplanner: first window painted"
SIZE_BUDGET_MB = 100.0
START_BUDGET_S = 2.0


def find_executable(dist: Path) -> tuple[Path, Path]:
    """(bundle folder, executable) for the platform's PyInstaller output under ``dist``."""
    app = dist / "GPU Planner.app"
    if sys.platform == "darwin" and app.is_dir():
        return app, app / "Contents" / "MacOS" / "gpuplanner"
    folder = dist / "gpuplanner"
    for name in ("gpuplanner-cli.exe", "gpuplanner.exe", "gpuplanner"):
        if (folder / name).is_file():
            return folder, folder / name
    raise FileNotFoundError(f"no frozen gpuplanner under {dist} (build it with packaging/build_linux.sh)")


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def compressed_size(folder: Path) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bundle.tar.gz"
        with tarfile.open(out, "w:gz", compresslevel=9) as tar:
            tar.add(folder, arcname=folder.name)
        return out.stat().st_size


def drop_caches() -> bool:
    try:
        os.sync()
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
        return True
    except OSError:
        return False


def _children_cpu() -> float | None:
    try:
        import resource
    except ImportError:  # Windows
        return None
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def first_window_seconds(exe: Path, timeout: float = 60.0) -> tuple[float, int | None, float | None]:
    """Seconds from launch to the marker line, the app's own in-process figure (ms) if printed, and the
    CPU seconds (user + system) the process used (it exits right after the marker, so this is the CPU
    cost of reaching the first window; unlike wall time it hardly depends on other load on the machine)."""
    cpu0 = _children_cpu()
    env = dict(os.environ, GPUPLANNER_EXIT_AFTER_FIRST_WINDOW="1")
    if not env.get("QT_QPA_PLATFORM") and sys.platform.startswith("linux") and not env.get("DISPLAY"):
        env["QT_QPA_PLATFORM"] = "offscreen"
    with tempfile.TemporaryDirectory() as home:
        # A throwaway settings/home folder: a first start, not one with the user's recent files.
        env.update(HOME=home, XDG_CONFIG_HOME=home, XDG_DATA_HOME=home, XDG_CACHE_HOME=home, APPDATA=home,
                   LOCALAPPDATA=home)
        t0 = time.perf_counter()
        proc = subprocess.Popen([str(exe)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
        try:
            deadline = t0 + timeout
            for line in proc.stdout:  # type: ignore[union-attr]
                if line.startswith(MARKER):
                    elapsed = time.perf_counter() - t0
                    found = re.search(r"\bms=(\d+)", line)
                    proc.wait(timeout=30)
                    cpu1 = _children_cpu()
                    cpu = cpu1 - cpu0 if cpu0 is not None and cpu1 is not None else None
                    return elapsed, int(found.group(1)) if found else None, cpu
                if time.perf_counter() > deadline:
                    break
            raise RuntimeError(f"{exe} exited (code {proc.wait()}) without printing {MARKER!r}")
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()


def _load() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Size and cold-start budgets of the frozen bundle.")
    ap.add_argument("--dist", type=Path, default=ROOT / "dist", help="PyInstaller dist folder (default: dist)")
    ap.add_argument("--runs", type=int, default=7, help="start-up runs (median reported; default 7)")
    ap.add_argument("--drop-caches", action="store_true", help="drop the page cache before each run (Linux, root)")
    ap.add_argument("--no-size", action="store_true", help="skip the (slow, ~15 s) compression")
    ap.add_argument("--json", type=Path, help="also write the results as JSON here")
    args = ap.parse_args(argv)

    try:
        bundle, exe = find_executable(args.dist)
    except FileNotFoundError as err:
        print(f"bench_bundle: {err}", file=sys.stderr)
        return 2
    result: dict = {"platform": f"{platform.system()} {platform.machine()}", "python": platform.python_version(),
                    "bundle": str(bundle)}
    ok = True
    if not args.no_size:
        unpacked = folder_size(bundle)
        t = time.perf_counter()
        packed = compressed_size(bundle)
        result.update(unpacked_mb=round(unpacked / 1e6, 1), tar_gz_mb=round(packed / 1e6, 1),
                      compress_s=round(time.perf_counter() - t, 1))
        ok &= packed / 1e6 <= SIZE_BUDGET_MB
        print(f"size: {unpacked / 1e6:.1f} MB unpacked, {packed / 1e6:.1f} MB as .tar.gz "
              f"(budget {SIZE_BUDGET_MB:.0f} MB) -> {'ok' if packed / 1e6 <= SIZE_BUDGET_MB else 'OVER BUDGET'}")
    times, inner, cpus = [], [], []
    dropped = False
    try:
        for _ in range(max(1, args.runs)):
            if args.drop_caches:
                dropped = drop_caches()
            seconds, inner_ms, cpu = first_window_seconds(exe)
            times.append(seconds)
            if cpu is not None:
                cpus.append(cpu)
            if inner_ms is not None:
                inner.append(inner_ms)
    except (OSError, RuntimeError) as err:
        print(f"bench_bundle: {err}", file=sys.stderr)
        return 2
    median = statistics.median(times)
    result.update(start_runs_s=[round(t, 3) for t in times], start_first_s=round(times[0], 3),
                  start_median_s=round(median, 3), start_inprocess_median_ms=statistics.median(inner) if inner else None,
                  start_cpu_median_s=round(statistics.median(cpus), 3) if cpus else None,
                  page_cache_dropped=dropped, load_average=_load())
    ok &= median <= START_BUDGET_S
    print(f"cold start to first window: first run {times[0]:.2f} s, median of {len(times)} {median:.2f} s "
          f"(min {min(times):.2f}, max {max(times):.2f}; page cache {'dropped' if dropped else 'warm after run 1'}) "
          f"(budget {START_BUDGET_S:.0f} s) -> {'ok' if median <= START_BUDGET_S else 'OVER BUDGET'}")
    if inner:
        print(f"  of which after Python started (in-process): median {statistics.median(inner):.0f} ms")
    if cpus:
        print(f"  CPU time (user+sys) to first window: median {statistics.median(cpus):.2f} s "
              f"(machine load average {result['load_average']})")
    result["within_budgets"] = bool(ok)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

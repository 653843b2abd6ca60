"""Round-14 hostile-input probe (bench/probe_hostile_r14.py): the holes it found, each as the user meets it.

Every test here failed before its fix (run against main 652765e5).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import stat
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = json.loads((ROOT / "examples" / "llama3-8b-full-8xh100-zero3.json").read_text(encoding="utf-8"))
LORA_JSON = ROOT / "examples" / "7b-lora-1x4090.json"
PLAN_LORA = ROOT / "examples" / "7b-lora-1x4090.gpuplan"


def _cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = run_cli(argv)
        except SystemExit as e:
            rc = e.code
    return rc, out.getvalue(), err.getvalue()


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gpuplanner: error: "), err[:500]
    assert "Traceback" not in err
    return lines[0]


def _scenario(tmp_path: Path, base: dict, **paths) -> Path:
    d = copy.deepcopy(base)
    for path, value in paths.items():
        node = d
        keys = path.split("__")
        for k in keys[:-1]:
            node = node.setdefault(k, {})
        node[keys[-1]] = value
    f = tmp_path / "s.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    return f


# 1. An output path naming a device, FIFO or socket was replaced by a regular file (os.replace over it): as root,
#    ``gpuplanner report x -o /dev/full`` (or /dev/null, or a link to it) put a PDF where the device node was.

def _special(tmp_path: Path, kind: str) -> Path:
    p = tmp_path / "out"
    if kind == "fifo":
        os.mkfifo(p)
    elif kind == "chardev":
        if os.geteuid() != 0:
            pytest.skip("mknod needs root")
        os.mknod(p, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # /dev/null's numbers, in the test's folder
    return p


@pytest.mark.parametrize("kind", ["fifo", "chardev"])
def test_atomic_write_never_replaces_a_special_file(tmp_path, kind):
    from gpuplanner.io.planfile import PlanFileError, write_output

    p = _special(tmp_path, kind)
    mode = p.lstat().st_mode
    with pytest.raises(PlanFileError, match="not a regular file"):
        write_output(p, b"%PDF")
    assert p.lstat().st_mode == mode  # still the FIFO / device
    link = tmp_path / "link.sh"
    link.symlink_to(p)
    with pytest.raises(PlanFileError, match="not a regular file"):
        write_output(link, b"#!/bin/sh")
    assert p.lstat().st_mode == mode and link.is_symlink()


def test_kit_output_onto_a_fifo_is_one_line(tmp_path):
    p = _special(tmp_path, "fifo")
    rc, _, err = _cli(["kit", str(LORA_JSON), "-o", str(p)])
    assert rc == 2 and "not a regular file" in _one_line(err)
    assert stat.S_ISFIFO(p.lstat().st_mode)

"""``scripts/run-app.sh``: pip only when pyproject.toml changed (a stamp in the venv), and on Linux a check of
the Qt platform plugin's libraries with ``ldd`` that prints the one install command when some are missing.

Runs the real scripts, copied with the real pyproject.toml into a temporary checkout, against a stand-in
venv: ``bin/python`` records each pip call, ``bin/gpuplanner`` records that the app was started, and an
``ldd`` first on PATH prints the output of the real ``ldd`` captured on a Debian 12 machine without
``libxcb-cursor0``/``libxcb-icccm4``/``libxcb-keysyms1`` (lines kept verbatim, addresses included).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="bash scripts")

QXCB_MISSING = """\tlinux-vdso.so.1 (0x00007ffd3a5f2000)
\tlibQt6XcbQpa.so.6 => /v/lib/python3.12/site-packages/PySide6/Qt/plugins/platforms/../../lib/libQt6XcbQpa.so.6 (0x00007f0c1e600000)
\tlibQt6Gui.so.6 => /v/lib/python3.12/site-packages/PySide6/Qt/plugins/platforms/../../lib/libQt6Gui.so.6 (0x00007f0c1dc00000)
\tlibGL.so.1 => /lib/x86_64-linux-gnu/libGL.so.1 (0x00007f0c1e579000)
\tlibxkbcommon-x11.so.0 => /lib/x86_64-linux-gnu/libxkbcommon-x11.so.0 (0x00007f0c1e56f000)
\tlibxcb-cursor.so.0 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxcb-util.so.1 => /lib/x86_64-linux-gnu/libxcb-util.so.1 (0x00007f0c1e567000)
\tlibxcb-keysyms.so.1 => not found
\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007f0c1e53c000)
\tlibxcb-cursor.so.0 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0c1d800000)
\t/lib64/ld-linux-x86-64.so.2 (0x00007f0c1e6f1000)
"""
QXCB_OK = """\tlinux-vdso.so.1 (0x00007ffd3a5f2000)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f0c1e56f000)
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0c1d800000)
"""
SUDO = "" if hasattr(os, "geteuid") and os.geteuid() == 0 else "sudo "


@pytest.fixture
def checkout(tmp_path):
    """A checkout (scripts + pyproject.toml), a stand-in venv, a fake ldd and an os-release file."""
    root = tmp_path / "checkout"
    (root / "scripts").mkdir(parents=True)
    for name in ("run-app.sh", "_python.sh"):
        shutil.copy(ROOT / "scripts" / name, root / "scripts" / name)
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    log = tmp_path / "calls.log"
    (venv / "bin" / "python").write_text(f'#!/bin/sh\necho "python $*" >> "{log}"\n')
    (venv / "bin" / "gpuplanner").write_text(f'#!/bin/sh\necho "gpuplanner $*" >> "{log}"\n')
    for exe in (venv / "bin").iterdir():
        exe.chmod(0o755)
    platforms = venv / "lib" / "python3.12" / "site-packages" / "PySide6" / "Qt" / "plugins" / "platforms"
    platforms.mkdir(parents=True)
    for plugin in ("libqxcb.so", "libqwayland.so", "libqoffscreen.so"):
        (platforms / plugin).write_bytes(b"")
    fakebin = tmp_path / "fakebin"
    fakebin.mkdir()
    (fakebin / "ldd").write_text(
        '#!/bin/sh\ncase "$1" in\n'
        f'  *libqxcb.so) cat "{tmp_path}/ldd-xcb.txt" ;;\n'
        f'  *libqwayland.so) cat "{tmp_path}/ldd-wayland.txt" ;;\n'
        'esac\n')
    (fakebin / "ldd").chmod(0o755)
    (tmp_path / "ldd-xcb.txt").write_text(QXCB_OK)
    (tmp_path / "ldd-wayland.txt").write_text(QXCB_OK)
    (tmp_path / "os-release").write_text('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n')
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY", "LD_LIBRARY_PATH")}
    env.update(PATH=f"{fakebin}:{env.get('PATH', '/usr/bin:/bin')}", GPUPLANNER_VENV=str(venv),
               GPUPLANNER_OS_RELEASE=str(tmp_path / "os-release"))

    class Checkout:
        path, dir, venv_dir, environ = root, tmp_path, venv, env

        @staticmethod
        def run(*args: str, **extra_env: str) -> subprocess.CompletedProcess:
            if log.exists():
                log.unlink()
            return subprocess.run(["bash", str(root / "scripts" / "run-app.sh"), *args], env={**env, **extra_env},
                                  capture_output=True, text=True, timeout=60)

        @staticmethod
        def calls() -> list[str]:
            return log.read_text().splitlines() if log.exists() else []

    return Checkout


def test_pip_runs_on_the_first_start_only(checkout):
    proc = checkout.run("plan.gpuplan")
    assert proc.returncode == 0, proc.stderr
    assert checkout.calls() == [f"python -m pip install --quiet -e {checkout.path}", "gpuplanner plan.gpuplan"]
    t0 = time.perf_counter()
    proc = checkout.run()
    elapsed = time.perf_counter() - t0
    assert proc.returncode == 0, proc.stderr
    assert checkout.calls() == ["gpuplanner "]  # no pip
    assert elapsed < 5, elapsed  # ~0.05 s here: a few shell builtins, cksum and one ldd
    # a changed pyproject.toml (a new dependency, say) installs again, once
    with (checkout.path / "pyproject.toml").open("a") as fh:
        fh.write("\n# changed\n")
    checkout.run()
    assert checkout.calls()[0].startswith("python -m pip install")
    checkout.run()
    assert checkout.calls() == ["gpuplanner "]


def test_an_install_with_extras_serves_a_plain_start(checkout):
    """scripts/test.sh installs [test]; the app's start after it needs no pip (and not the other way round)."""
    env = checkout.environ
    src = f'source "{checkout.path}/scripts/_python.sh"; ensure_venv "[test]"'
    subprocess.run(["bash", "-c", src], env=env, check=True, timeout=60)
    assert checkout.run().returncode == 0
    assert checkout.calls() == ["gpuplanner "]
    subprocess.run(["bash", "-c", src], env=env, check=True, timeout=60)  # [test] is stamped too: no pip
    stamp = (checkout.venv_dir / ".gpuplanner-install-stamp").read_text().splitlines()
    assert [line.split(" ", 1)[1] if " " in line else "" for line in stamp] == ["[test]"]


def test_missing_xcb_libraries_print_the_apt_line_and_do_not_start(checkout):
    (checkout.dir / "ldd-xcb.txt").write_text(QXCB_MISSING)
    proc = checkout.run()
    assert proc.returncode == 1
    assert "gpuplanner " not in "\n".join(checkout.calls())  # the app was not started
    lines = proc.stderr.splitlines()
    assert lines[0] == ("gpuplanner: Qt cannot open a window: these system libraries are missing: "
                        "libxcb-cursor.so.0 libxcb-icccm.so.4 libxcb-keysyms.so.1")
    assert lines[1] == f"Install them with:  {SUDO}apt-get install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1"
    assert len(lines) == 2


def test_fedora_gets_the_dnf_line(checkout):
    (checkout.dir / "ldd-xcb.txt").write_text(QXCB_MISSING)
    (checkout.dir / "os-release").write_text('NAME="Fedora Linux"\nID=fedora\n')
    proc = checkout.run()
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[1] == (
        f"Install them with:  {SUDO}dnf install xcb-util-cursor xcb-util-keysyms xcb-util-wm")
    (checkout.dir / "os-release").write_text('ID=rocky\nID_LIKE="rhel centos fedora"\n')
    assert "dnf install" in checkout.run().stderr


def test_platforms_that_need_nothing_from_the_desktop_start(checkout):
    (checkout.dir / "ldd-xcb.txt").write_text(QXCB_MISSING)
    assert checkout.run(QT_QPA_PLATFORM="offscreen").returncode == 0
    assert checkout.calls()[-1] == "gpuplanner "
    # a Wayland session whose wayland plugin has its libraries does not need xcb
    assert checkout.run(WAYLAND_DISPLAY="wayland-0").returncode == 0
    # ... but one whose wayland plugin lacks them falls back to xcb, which lacks them too
    (checkout.dir / "ldd-wayland.txt").write_text("\tlibwayland-cursor.so.0 => not found\n")
    proc = checkout.run(WAYLAND_DISPLAY="wayland-0")
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[1] == (
        f"Install them with:  {SUDO}apt-get install libwayland-cursor0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1")
    # QT_QPA_PLATFORM=xcb checks only xcb
    (checkout.dir / "ldd-xcb.txt").write_text(QXCB_OK)
    assert checkout.run(WAYLAND_DISPLAY="wayland-0", QT_QPA_PLATFORM="xcb").returncode == 0


@pytest.mark.parametrize(("lib", "deb", "rpm"), [
    ("libxcb-icccm.so.4", "libxcb-icccm4", "xcb-util-wm"),
    ("libxcb-render-util.so.0", "libxcb-render-util0", "xcb-util-renderutil"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0", "libxkbcommon-x11"),  # name ends in a digit: hyphen
    ("libX11-xcb.so.1", "libx11-xcb1", "libX11-xcb"),
    ("libxcb-xkb.so.1", "libxcb-xkb1", "libxcb"),
    ("libEGL.so.1", "libegl1", "libglvnd-egl"),
    ("libdbus-1.so.3", "libdbus-1-3", "dbus-libs"),
    ("libglib-2.0.so.0", "libglib2.0-0", "glib2"),
    ("libfoo.so.7.1.2", "libfoo7", "'libfoo.so.7.1.2()(64bit)'"),
])
def test_package_names(lib, deb, rpm):
    """Debian policy 8.1 (package named after the soname) and Fedora's names for the same libraries."""
    script = f'source "{ROOT}/scripts/run-app.sh"; deb_package {lib}; rpm_package {lib}'
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30,
                         env={**os.environ, "GPUPLANNER_VENV": "/nonexistent"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [deb, rpm]


@pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("ldd") is None, reason="Linux ldd")
def test_real_ldd_output_parses_like_the_captured_one(tmp_path):
    """The awk filter on this machine's real ldd: a library that does not exist is reported."""
    script = (f'source "{ROOT}/scripts/run-app.sh"; missing_libs "$1"')
    # an ELF that needs a library nobody has: a copy of /bin/true with its DT_NEEDED "libc.so.6" renamed
    data = Path(shutil.which("true")).read_bytes()
    assert data.count(b"libc.so.6\0") >= 1
    fake = tmp_path / "needs-missing"
    fake.write_bytes(data.replace(b"libc.so.6\0", b"libq.so.6\0"))
    fake.chmod(0o755)
    out = subprocess.run(["bash", "-c", script, "x", str(fake)], capture_output=True, text=True, timeout=30,
                         env={**os.environ, "GPUPLANNER_VENV": "/nonexistent"})
    assert out.stdout.splitlines() == ["libq.so.6"], out.stdout + out.stderr

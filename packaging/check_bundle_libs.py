"""Does the Linux bundle carry every shared library its Qt plugins need?  (run by packaging/build_linux.sh)

    python packaging/check_bundle_libs.py dist/gpuplanner                 # check; exit 1 with the problems
    python packaging/check_bundle_libs.py --system-copies dist/gpuplanner # system files of the bundled xcb libs

A bundle built on a machine without ``libxcb-cursor0``, ``libxcb-icccm4`` … cannot carry them (PyInstaller
collects what it finds there), and the ``xcb`` platform plugin then fails on every desktop that lacks them
(Qt: "Could not load the Qt platform plugin "xcb" … xcb-cursor0 or libxcb-cursor0 is needed"). Two checks:

1. **DT_NEEDED closure.** Every ELF file in the bundle (Qt plugins, Qt libraries, Python extensions and the
   libraries they pulled in) is read with a small ELF reader; each library it names must be in the bundle
   or be one of :data:`SYSTEM_LIBS`, the libraries a Linux desktop provides and a bundle must not carry
   (glibc; the OpenGL/EGL stack and libdrm, which must match the machine's GPU driver; ``libxcb.so.1``, the
   X client core every X11/XWayland session has; the Wayland client libraries every Wayland session has).
   These are the names PyInstaller itself refuses to bundle (``PyInstaller/depend/dylib.py``,
   ``_unix_excludes``), so the list and the build agree.
2. **ldd cross-check.** ``ldd`` on every Qt plugin with ``LD_LIBRARY_PATH`` set to the bundle's ``_internal``
   folder, as the PyInstaller bootloader sets it before starting Python (PyInstaller manual, "The Bootstrap
   Process in Detail": "GNU/Linux: … Prepend our path to LD_LIBRARY_PATH"): no "not found" except a system
   library, and every library the bundle carries resolves to the bundle's copy.

``--system-copies`` prints the system files (through ``ldconfig -p``, resolved to real files) of the X
client libraries the bundle carries — ``libxcb-*`` (but ``libxcb.so.1`` and the DRI ones),
``libxkbcommon*``, ``libX11-xcb`` — so build_linux.sh can make them unreadable in a private mount namespace
and start the frozen app on Xvfb as on a machine without them.
"""

from __future__ import annotations

import argparse
import os
import re
import struct
import subprocess
import sys
from pathlib import Path

# Libraries that come from the user's system, never from the bundle (see the module docstring).
SYSTEM_LIBS = re.compile(
    r"^(?:"
    r"ld-linux[\w.-]*|libc|libm|libdl|libpthread|librt|libutil|libresolv|libanl|libthread_db|libBrokenLocale"  # glibc
    r"|libnss_\w+|libcrypt"
    r"|libE?(?:Open)?GLX?(?:ESv1_CM|ESv2)?(?:dispatch)?|libdrm"  # OpenGL / EGL (libglvnd) and DRM: the GPU driver's
    r"|libxcb|libxcb-dri\d*"  # the X client core of every X11/XWayland session
    r"|libwayland-(?:client|cursor|egl|server)"  # every Wayland session
    r")\.so(?:\.[\d.]+)?$"
)
# The X client libraries Qt's xcb platform plugin needs and a desktop may lack (issue: libxcb-cursor0 …).
XCB_CLIENT_LIBS = re.compile(r"^lib(?:xcb-(?!dri)[\w-]+|xkbcommon(?:-x11)?|X11-xcb)\.so(?:\.[\d.]+)?$")

PT_LOAD, PT_DYNAMIC = 1, 2
DT_NULL, DT_NEEDED, DT_STRTAB = 0, 1, 5


def elf_needed(path: Path) -> list[str] | None:
    """The DT_NEEDED names of an ELF shared object or executable; None for a file that is not ELF.

    Layout from the System V ABI / ELF specification (``Elf{32,64}_Ehdr``, ``_Phdr``, ``_Dyn``): the dynamic
    segment's DT_STRTAB is a virtual address, mapped to a file offset through the PT_LOAD segment holding it.
    """
    with open(path, "rb") as fh:
        head = fh.read(64)
        if len(head) < 52 or head[:4] != b"\x7fELF":
            return None
        is64 = head[4] == 2
        end = "<" if head[5] == 1 else ">"
        if is64:
            phoff, = struct.unpack_from(end + "Q", head, 32)
            phentsize, phnum = struct.unpack_from(end + "HH", head, 54)
            ph_fmt, dyn_fmt = end + "IIQQQQQQ", end + "qQ"
        else:
            phoff, = struct.unpack_from(end + "I", head, 28)
            phentsize, phnum = struct.unpack_from(end + "HH", head, 42)
            ph_fmt, dyn_fmt = end + "IIIIIIII", end + "iI"
        loads, dynamic = [], None
        for i in range(phnum):
            fh.seek(phoff + i * phentsize)
            raw = fh.read(struct.calcsize(ph_fmt))
            if is64:
                p_type, _flags, p_offset, p_vaddr, _paddr, p_filesz, _memsz, _align = struct.unpack(ph_fmt, raw)
            else:
                p_type, p_offset, p_vaddr, _paddr, p_filesz, _memsz, _flags, _align = struct.unpack(ph_fmt, raw)
            if p_type == PT_LOAD:
                loads.append((p_vaddr, p_offset, p_filesz))
            elif p_type == PT_DYNAMIC:
                dynamic = (p_offset, p_filesz)
        if dynamic is None:
            return []  # statically linked
        fh.seek(dynamic[0])
        raw = fh.read(dynamic[1])
        step = struct.calcsize(dyn_fmt)
        needed_offsets, strtab = [], None
        for pos in range(0, len(raw) - step + 1, step):
            tag, val = struct.unpack_from(dyn_fmt, raw, pos)
            if tag == DT_NULL:
                break
            if tag == DT_NEEDED:
                needed_offsets.append(val)
            elif tag == DT_STRTAB:
                strtab = val
        if strtab is None:
            return []
        base = next((off + strtab - vaddr for vaddr, off, size in loads if vaddr <= strtab < vaddr + size), None)
        if base is None:
            raise ValueError(f"{path}: DT_STRTAB outside every PT_LOAD segment")
        names = []
        for off in needed_offsets:
            fh.seek(base + off)
            chunk = fh.read(256)
            names.append(chunk.split(b"\0", 1)[0].decode("utf-8", "replace"))
        return names


def internal_dir(bundle: Path) -> Path:
    """The folder PyInstaller (>= 6) puts the libraries in; older layouts keep them next to the executable."""
    return bundle / "_internal" if (bundle / "_internal").is_dir() else bundle


def bundle_elves(bundle: Path) -> tuple[dict[str, Path], dict[Path, list[str]]]:
    """(every file name in the bundle -> one path, every ELF file -> its DT_NEEDED)."""
    names: dict[str, Path] = {}
    needed: dict[Path, list[str]] = {}
    for path in sorted(bundle.rglob("*")):
        if not (path.is_file() or path.is_symlink()):
            continue
        names.setdefault(path.name, path)
        if path.is_symlink() or not path.is_file():
            continue
        deps = elf_needed(path)
        if deps is not None:
            needed[path] = deps
    return names, needed


def qt_plugins(bundle: Path) -> list[Path]:
    return sorted(p for p in bundle.rglob("*.so") if "/plugins/" in p.as_posix() and p.is_file())


def closure_problems(bundle: Path) -> tuple[list[str], dict[str, set[str]]]:
    """([problem lines], {system library: bundled files needing it})."""
    names, needed = bundle_elves(bundle)
    problems, system = [], {}
    for path, deps in needed.items():
        for dep in deps:
            if dep in names:
                continue
            if SYSTEM_LIBS.match(dep):
                system.setdefault(dep, set()).add(path.name)
                continue
            problems.append(f"{path.relative_to(bundle)} needs {dep}: not in the bundle and not a system library")
    if not qt_plugins(bundle):
        problems.append("no Qt plugins found in the bundle")
    return sorted(set(problems)), system


def parse_ldd(text: str) -> dict[str, str | None]:
    """``ldd`` output -> {library name: resolved path, or None for "not found"}."""
    out: dict[str, str | None] = {}
    for line in text.splitlines():
        m = re.match(r"\s*(\S+)\s+=>\s+(not found|\S+)", line)
        if m:
            out[m.group(1)] = None if m.group(2) == "not found" else m.group(2)
    return out


def ldd_problems(bundle: Path, ldd: str = "ldd") -> list[str]:
    lib_dir = internal_dir(bundle)
    env = dict(os.environ, LD_LIBRARY_PATH=str(lib_dir))
    bundled = {p.name for p in bundle.rglob("*") if p.is_file() or p.is_symlink()}
    root = str(bundle.resolve()) + os.sep
    problems = []
    for plugin in qt_plugins(bundle):
        proc = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            problems.append(f"ldd {plugin.relative_to(bundle)} failed: {proc.stderr.strip()[:200]}")
            continue
        for name, where in parse_ldd(proc.stdout).items():
            if where is None:
                if not SYSTEM_LIBS.match(name):
                    problems.append(f"{plugin.relative_to(bundle)}: {name} => not found")
            elif name in bundled and not os.path.realpath(where).startswith(root):
                problems.append(f"{plugin.relative_to(bundle)}: {name} => {where}, not the bundle's copy")
    return sorted(set(problems))


def system_copies(bundle: Path) -> list[str]:
    """Real files, on this system, of the X client libraries the bundle carries (for hiding them)."""
    carried = {p.name for p in bundle.rglob("*") if XCB_CLIENT_LIBS.match(p.name)}
    proc = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True, check=True)
    files = set()
    for line in proc.stdout.splitlines():
        m = re.match(r"\s*(\S+)\s+\(([^)]*)\)\s+=>\s+(\S+)", line)
        if m and m.group(1) in carried and os.path.exists(m.group(3)):
            files.add(os.path.realpath(m.group(3)))
    return sorted(files)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("bundle", type=Path, help="dist/gpuplanner")
    parser.add_argument("--system-copies", action="store_true",
                        help="print the system files of the X client libraries the bundle carries")
    args = parser.parse_args(argv)
    bundle = args.bundle.resolve()
    if not bundle.is_dir():
        print(f"check_bundle_libs: {bundle} is not a folder", file=sys.stderr)
        return 2
    if args.system_copies:
        print("\n".join(system_copies(bundle)))
        return 0
    problems, system = closure_problems(bundle)
    problems += ldd_problems(bundle)
    xcb = sorted(p.name for p in bundle.rglob("*") if XCB_CLIENT_LIBS.match(p.name))
    print(f"check_bundle_libs: {len(qt_plugins(bundle))} Qt plugins; X client libraries carried: {', '.join(xcb) or 'none'}")
    print(f"check_bundle_libs: from the system: {', '.join(sorted(system))}")
    for line in problems:
        print(f"check_bundle_libs: {line}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""The Linux bundle's checks (run by packaging/build_linux.sh on the real bundle): the library check
(``packaging/check_bundle_libs.py``) on hand-built ELF files, and the blank-screenshot check
(``packaging/check_screenshot.py``) on drawn images."""

from __future__ import annotations

import importlib.util
import shutil
import struct
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "packaging" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


libs = _load("check_bundle_libs")


def make_elf(needed: list[str], *, is64: bool = True, big_endian: bool = False, base: int = 0x1000) -> bytes:
    """A minimal ELF shared object: one PT_LOAD mapping the file at ``base`` (so virtual addresses and file
    offsets differ by ``base``), a PT_DYNAMIC with DT_NEEDED entries, DT_STRTAB (a virtual address) and DT_NULL.
    Layout by hand from the ELF specification: Ehdr (64/52 bytes), 2 Phdrs (56/32 bytes), strtab, dynamic."""
    e = ">" if big_endian else "<"
    ehsize, phentsize = (64, 56) if is64 else (52, 32)
    strtab = b"\0" + b"".join(n.encode() + b"\0" for n in needed)
    offsets, pos = [], 1
    for n in needed:
        offsets.append(pos)
        pos += len(n) + 1
    str_off = ehsize + 2 * phentsize
    dyn_off = str_off + len(strtab) + (-(str_off + len(strtab)) % 8)
    dyn_fmt = e + ("qQ" if is64 else "iI")
    entries = [(1, o) for o in offsets] + [(5, base + str_off), (0, 0)]
    dynamic = b"".join(struct.pack(dyn_fmt, t, v) for t, v in entries)
    total = dyn_off + len(dynamic)
    ident = b"\x7fELF" + bytes([2 if is64 else 1, 2 if big_endian else 1, 1, 0]) + b"\0" * 8
    if is64:
        ehdr = ident + struct.pack(e + "HHIQQQIHHHHHH", 3, 62, 1, 0, ehsize, 0, 0, ehsize, phentsize, 2, 0, 0, 0)
        ph = struct.pack(e + "IIQQQQQQ", 1, 4, 0, base, base, total, total, 0x1000)
        ph += struct.pack(e + "IIQQQQQQ", 2, 4, dyn_off, base + dyn_off, base + dyn_off, len(dynamic), len(dynamic), 8)
    else:
        ehdr = ident + struct.pack(e + "HHIIIIIHHHHHH", 3, 3, 1, 0, ehsize, 0, 0, ehsize, phentsize, 2, 0, 0, 0)
        ph = struct.pack(e + "IIIIIIII", 1, 0, base, base, total, total, 4, 0x1000)
        ph += struct.pack(e + "IIIIIIII", 2, dyn_off, base + dyn_off, base + dyn_off, len(dynamic), len(dynamic), 4, 4)
    blob = ehdr + ph + strtab
    blob += b"\0" * (dyn_off - len(blob)) + dynamic
    assert len(ehdr) == ehsize and len(blob) == total
    return blob


@pytest.mark.parametrize(("is64", "big_endian"), [(True, False), (False, False), (True, True)])
def test_elf_needed_reads_hand_built_files(tmp_path, is64, big_endian):
    path = tmp_path / "libx.so"
    path.write_bytes(make_elf(["libxcb-icccm.so.4", "libc.so.6"], is64=is64, big_endian=big_endian))
    assert libs.elf_needed(path) == ["libxcb-icccm.so.4", "libc.so.6"]
    (tmp_path / "text").write_text("not an ELF file, but long enough to have a header's worth of bytes......")
    assert libs.elf_needed(tmp_path / "text") is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a glibc executable")
def test_elf_needed_on_a_system_executable():
    assert "libc.so.6" in libs.elf_needed(Path(shutil.which("true")).resolve())


def _bundle(tmp_path: Path, files: dict[str, list[str]]) -> Path:
    bundle = tmp_path / "gpuplanner"
    for rel, needed in files.items():
        path = bundle / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(make_elf(needed))
    return bundle


QXCB = "_internal/PySide6/Qt/plugins/platforms/libqxcb.so"


def test_closure_names_a_missing_xcb_library_and_accepts_system_ones(tmp_path):
    bundle = _bundle(tmp_path, {
        QXCB: ["libQt6XcbQpa.so.6", "libGL.so.1", "libxcb.so.1", "libc.so.6"],
        "_internal/PySide6/Qt/lib/libQt6XcbQpa.so.6": ["libxcb-icccm.so.4", "libxkbcommon-x11.so.0", "libEGL.so.1"],
        "_internal/libxkbcommon-x11.so.0": ["libxkbcommon.so.0", "libxcb.so.1"],
        "_internal/libxkbcommon.so.0": ["libc.so.6"],
    })
    problems, system = libs.closure_problems(bundle)
    assert problems == ["_internal/PySide6/Qt/lib/libQt6XcbQpa.so.6 needs libxcb-icccm.so.4: "
                        "not in the bundle and not a system library"]
    assert set(system) == {"libGL.so.1", "libxcb.so.1", "libc.so.6", "libEGL.so.1"}
    assert system["libxcb.so.1"] == {"libqxcb.so", "libxkbcommon-x11.so.0"}
    (bundle / "_internal" / "libxcb-icccm.so.4").write_bytes(make_elf(["libxcb.so.1"]))
    assert libs.closure_problems(bundle)[0] == []


def test_closure_needs_qt_plugins(tmp_path):
    bundle = _bundle(tmp_path, {"_internal/libz.so.1": ["libc.so.6"]})
    assert libs.closure_problems(bundle)[0] == ["no Qt plugins found in the bundle"]


@pytest.mark.parametrize("name", [
    "libc.so.6", "libm.so.6", "ld-linux-x86-64.so.2", "libGL.so.1", "libEGL.so.1", "libGLX.so.0", "libOpenGL.so.0",
    "libGLdispatch.so.0", "libGLESv2.so.2", "libdrm.so.2", "libxcb.so.1", "libxcb-dri3.so.0",
    "libwayland-client.so.0", "libwayland-cursor.so.0", "libwayland-egl.so.1"])
def test_system_libraries(name):
    assert libs.SYSTEM_LIBS.match(name)
    assert not libs.XCB_CLIENT_LIBS.match(name)


@pytest.mark.parametrize("name", [
    "libxcb-icccm.so.4", "libxcb-cursor.so.0", "libxcb-keysyms.so.1", "libxcb-render-util.so.0", "libxcb-xkb.so.1",
    "libxkbcommon.so.0", "libxkbcommon-x11.so.0", "libX11-xcb.so.1"])
def test_xcb_client_libraries_are_bundled_not_system(name):
    assert libs.XCB_CLIENT_LIBS.match(name)
    assert not libs.SYSTEM_LIBS.match(name)


def test_system_list_agrees_with_pyinstaller():
    """The bundle check and PyInstaller draw the same line: what PyInstaller refuses to collect is exactly
    what the check accepts from the system (for the libraries Qt's plugins name)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("PyInstaller's Linux exclude list")
    dylib = pytest.importorskip("PyInstaller.depend.dylib")
    names = ["libc.so.6", "libm.so.6", "libGL.so.1", "libEGL.so.1", "libGLX.so.0", "libOpenGL.so.0", "libdrm.so.2",
             "libxcb.so.1", "libxcb-dri3.so.0", "libwayland-client.so.0", "libwayland-cursor.so.0",
             "libxcb-icccm.so.4", "libxcb-cursor.so.0", "libxkbcommon-x11.so.0", "libX11-xcb.so.1", "libX11.so.6",
             "libfontconfig.so.1", "libfreetype.so.6", "libglib-2.0.so.0", "libdbus-1.so.3", "libstdc++.so.6"]
    for name in names:
        assert bool(libs.SYSTEM_LIBS.match(name)) == (not dylib.include_library(name)), name


def test_parse_ldd():
    text = ("\tlinux-vdso.so.1 (0x00007ffd3a5f2000)\n"
            "\tlibQt6Gui.so.6 => /b/_internal/PySide6/Qt/lib/libQt6Gui.so.6 (0x00007f0c1dc00000)\n"
            "\tlibxcb-icccm.so.4 => not found\n"
            "\t/lib64/ld-linux-x86-64.so.2 (0x00007f0c1e6f1000)\n")
    assert libs.parse_ldd(text) == {"libQt6Gui.so.6": "/b/_internal/PySide6/Qt/lib/libQt6Gui.so.6",
                                    "libxcb-icccm.so.4": None}


def test_ldd_check_on_captured_output(tmp_path):
    """ldd_problems with a stand-in ldd printing what the real one prints: a missing xcb library is a
    problem, a missing GL library is not (the system's), a bundled library resolved elsewhere is."""
    bundle = _bundle(tmp_path, {QXCB: ["libc.so.6"], "_internal/libxkbcommon.so.0": ["libc.so.6"]})
    out = tmp_path / "ldd-out.txt"
    fake = tmp_path / "ldd"
    fake.write_text(f'#!/bin/sh\n[ "$LD_LIBRARY_PATH" = "{bundle / "_internal"}" ] || exit 9\ncat "{out}"\n')
    fake.chmod(0o755)
    inside = bundle / "_internal" / "libxkbcommon.so.0"
    out.write_text(f"\tlibGL.so.1 => not found\n\tlibxkbcommon.so.0 => {inside} (0x00007f0c1e56f000)\n")
    assert libs.ldd_problems(bundle, ldd=str(fake)) == []
    out.write_text("\tlibxcb-icccm.so.4 => not found\n"
                   "\tlibxkbcommon.so.0 => /lib/x86_64-linux-gnu/libxkbcommon.so.0 (0x00007f0c1e56f000)\n")
    assert libs.ldd_problems(bundle, ldd=str(fake)) == [
        "_internal/PySide6/Qt/plugins/platforms/libqxcb.so: libxcb-icccm.so.4 => not found",
        "_internal/PySide6/Qt/plugins/platforms/libqxcb.so: libxkbcommon.so.0 => "
        "/lib/x86_64-linux-gnu/libxkbcommon.so.0, not the bundle's copy"]


@pytest.mark.skipif(shutil.which("ldconfig") is None and not Path("/sbin/ldconfig").exists(), reason="glibc ldconfig")
def test_system_copies_are_the_real_files_of_carried_xcb_libraries(tmp_path):
    import os
    import subprocess

    cache = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    if "libxcb-icccm.so.4 " not in cache:
        pytest.skip("libxcb-icccm4 is not installed here (CI installs it)")
    bundle = _bundle(tmp_path, {QXCB: ["libc.so.6"], "_internal/libxcb-icccm.so.4": ["libc.so.6"],
                                "_internal/libz.so.1": ["libc.so.6"]})
    files = libs.system_copies(bundle)
    assert len(files) == 1 and os.path.basename(files[0]).startswith("libxcb-icccm.so.4")
    assert not os.path.islink(files[0]) and os.path.isfile(files[0])  # the file itself, for mount --bind


# --------------------------------------------------------------------------- screenshot


@pytest.fixture
def shots(qapp, tmp_path):  # text drawing needs the QGuiApplication
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QFont, QImage, QPainter

    blank = QImage(320, 200, QImage.Format.Format_RGB32)
    blank.fill(QColor("black"))
    blank.save(str(tmp_path / "blank.png"))
    nearly = QImage(blank)  # an unmapped window: the root plus a few stray pixels
    for x in range(40):
        nearly.setPixelColor(x, 0, QColor(x * 6, 0, 0))
    nearly.save(str(tmp_path / "nearly.png"))
    window = QImage(blank)
    window.fill(QColor("white"))
    p = QPainter(window)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    p.fillRect(0, 0, 80, 200, QColor("#1565c0"))
    p.setFont(QFont("DejaVu Sans", 12))
    for row in range(8):
        p.drawText(90, 20 + row * 22, "GPU Planner 1 · Model 8.03B")
    p.setPen(Qt.GlobalColor.white)
    p.drawText(6, 30, "Model")
    p.end()
    window.save(str(tmp_path / "window.png"))
    return tmp_path


def test_screenshot_check(shots, capsys):
    shot = _load("check_screenshot")
    assert shot.main([str(shots / "blank.png")]) == 1
    assert "1 colours, the commonest covers 100.0%: blank" in capsys.readouterr().out
    assert shot.main([str(shots / "nearly.png")]) == 1  # 41 colours but 99% one of them
    assert shot.main([str(shots / "window.png")]) == 0
    w, h, colours, dominant = shot.colour_stats(str(shots / "window.png"))
    assert (w, h) == (320, 200) and colours >= 32 and dominant < 0.9
    assert shot.main([str(shots / "missing.png")]) == 1


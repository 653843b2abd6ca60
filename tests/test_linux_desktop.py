"""Linux desktop integration of the bundle: ``install-desktop.sh`` (menu entry, ``application/x-gpuplan`` for
``*.gpuplan``, icons, default application), installed per user into a throwaway HOME.

The bundle layout comes from the spec's own ``add_linux_desktop_files`` (what PyInstaller's build runs), with
a stand-in ``gpuplanner`` executable that records its arguments, in a folder whose name has a space. The
freedesktop tools (``desktop-file-validate``, ``xdg-mime``, ``update-mime-database``) check the result when
installed (CI installs them: ``.ci/run``); a test that needs a missing one is skipped with the reason.
"""

from __future__ import annotations

import ast
import os
import shlex
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "packaging"
SPEC = PKG / "gpuplanner.spec"
MIME = "application/x-gpuplan"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux desktop integration")


def _spec_functions(*names: str) -> dict:
    tree = ast.parse(SPEC.read_text(encoding="utf-8"))
    keep = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))
            and not (getattr(n, "module", "") or "").startswith("PyInstaller")]
    wanted = {"SPEC_DIR", "ICONS", *names}
    keep += [n for n in tree.body if (isinstance(n, ast.FunctionDef) and n.name in wanted)
             or (isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id in wanted for t in n.targets))]
    ns: dict = {"SPECPATH": str(PKG)}
    exec(compile(ast.Module(body=keep, type_ignores=[]), str(SPEC), "exec"), ns)  # noqa: S102
    return ns


@pytest.fixture
def bundle(tmp_path) -> Path:
    """dist/gpuplanner as the spec lays it out on Linux, with a recording stand-in executable."""
    ns = _spec_functions("LINUX_DESKTOP_FILES", "add_linux_desktop_files")
    folder = tmp_path / "GPU Planner $HOME 100%" / "gpuplanner"  # a space, a $ and a % in the path
    folder.mkdir(parents=True)
    ns["add_linux_desktop_files"](folder)
    exe = folder / "gpuplanner"
    exe.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {shlex.quote(str(tmp_path / "opened.txt"))}\n')
    exe.chmod(0o755)
    return folder


def _env(tmp_path: Path, path: str | None = None) -> dict:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(home), XDG_DATA_DIRS="/usr/share", XDG_CONFIG_DIRS="/etc/xdg")
    env.pop("DESKTOP_SESSION", None)
    if path is not None:
        env["PATH"] = path
    return env


def _install(bundle: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    proc = subprocess.run(["bash", str(bundle / "install-desktop.sh"), *args], env=env, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc


def _desktop_exec(text: str) -> list[str]:
    """The Exec key split as the Desktop Entry spec says: string unescape, then quoted arguments."""
    line = next(ln for ln in text.splitlines() if ln.startswith("Exec="))[len("Exec="):]
    value = line.replace("\\\\", "\\")  # string-level escape
    args, cur, i, quoted = [], "", 0, False
    while i < len(value):
        c = value[i]
        if quoted and c == "\\" and i + 1 < len(value):
            cur += value[i + 1]
            i += 2
            continue
        if c == '"':
            quoted = not quoted
        elif c == " " and not quoted:
            args.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    args.append(cur)
    return [a.replace("%%", "%") if a != "%f" else a for a in args]


def test_bundle_layout_from_the_spec(bundle):
    for rel in ("install-desktop.sh", "desktop/gpuplanner.desktop", "desktop/gpuplanner-mime.xml",
                "desktop/gpuplanner.png", "desktop/gpuplan-document.png"):
        assert (bundle / rel).is_file(), rel
    assert os.access(bundle / "install-desktop.sh", os.X_OK)
    mime = (bundle / "desktop" / "gpuplanner-mime.xml").read_text(encoding="utf-8")
    assert f'<mime-type type="{MIME}">' in mime and '<glob pattern="*.gpuplan"/>' in mime


def test_document_icon_is_the_ico_s_256px_image():
    """packaging/linux/gpuplan-document.png is the 256 px PNG inside the Windows document icon (same art)."""
    data = (PKG / "icons" / "gpuplan-document.ico").read_bytes()
    _, _, count = struct.unpack_from("<HHH", data, 0)
    for i in range(count):
        w, _h, _c, _r, _p, _b, size, offset = struct.unpack_from("<BBBBHHII", data, 6 + 16 * i)
        if w == 0:  # 256 px
            assert (PKG / "linux" / "gpuplan-document.png").read_bytes() == data[offset:offset + size]
            return
    pytest.fail("no 256 px image in gpuplan-document.ico")


def test_install_writes_entry_type_icons_and_default(bundle, tmp_path):
    # PATH without the freedesktop tools: the script writes mimeapps.list itself
    env = _env(tmp_path, path="/usr/bin:/bin")
    bare = tmp_path / "bin"
    bare.mkdir()
    for tool in ("bash", "sh", "cat", "mkdir", "install", "mktemp", "mv", "rm", "awk", "chmod", "dirname", "readlink"):
        src = shutil.which(tool)
        assert src, tool
        (bare / tool).symlink_to(src)
    env["PATH"] = str(bare)
    out = _install(bundle, env).stdout
    assert "opens .gpuplan files" in out
    data = Path(env["HOME"]) / ".local" / "share"
    desktop = (data / "applications" / "gpuplanner.desktop").read_text(encoding="utf-8")
    assert _desktop_exec(desktop) == [str(bundle / "gpuplanner"), "%f"]
    assert f"MimeType={MIME};" in desktop.splitlines()
    assert (data / "mime" / "packages" / "gpuplanner.xml").is_file()
    assert (data / "icons" / "hicolor" / "512x512" / "apps" / "gpuplanner.png").is_file()
    assert (data / "icons" / "hicolor" / "256x256" / "mimetypes" / "application-x-gpuplan.png").is_file()
    mimeapps = Path(env["HOME"]) / ".config" / "mimeapps.list"
    assert mimeapps.read_text(encoding="utf-8").splitlines() == ["[Default Applications]", f"{MIME}=gpuplanner.desktop;"]
    # again: idempotent; then uninstall removes only ours
    _install(bundle, env)
    assert mimeapps.read_text(encoding="utf-8").count(MIME) == 1
    mimeapps.write_text(mimeapps.read_text(encoding="utf-8") + "text/plain=other.desktop;\n[Added Associations]\nx=y;\n")
    _install(bundle, env, "--uninstall")
    assert not (data / "applications" / "gpuplanner.desktop").exists()
    assert not (data / "mime" / "packages" / "gpuplanner.xml").exists()
    assert mimeapps.read_text(encoding="utf-8").splitlines() == [
        "[Default Applications]", "text/plain=other.desktop;", "[Added Associations]", "x=y;"]


def test_exec_line_runs_the_bundle_with_the_plan(bundle, tmp_path):
    """What a file manager does on double-click: replace %f with the file and run the Exec arguments."""
    env = _env(tmp_path)
    _install(bundle, env)
    desktop = (Path(env["HOME"]) / ".local/share/applications/gpuplanner.desktop").read_text(encoding="utf-8")
    plan = tmp_path / "my plan.gpuplan"
    plan.write_text("{}")
    argv = [str(plan) if a == "%f" else a for a in _desktop_exec(desktop)]
    subprocess.run(argv, check=True, timeout=30)
    assert (tmp_path / "opened.txt").read_text(encoding="utf-8").splitlines() == [str(plan)]


def test_desktop_file_validates(bundle, tmp_path):
    tool = shutil.which("desktop-file-validate")
    if tool is None:
        pytest.skip("desktop-file-validate not installed (apt-get install desktop-file-utils; CI installs it)")
    env = _env(tmp_path)
    _install(bundle, env)
    installed = Path(env["HOME"]) / ".local/share/applications/gpuplanner.desktop"
    proc = subprocess.run([tool, str(installed)], capture_output=True, text=True)
    assert proc.returncode == 0 and not proc.stdout.strip(), proc.stdout + proc.stderr


def test_xdg_mime_sees_the_association(bundle, tmp_path):
    xdg_mime = shutil.which("xdg-mime")
    if xdg_mime is None:
        pytest.skip("xdg-mime not installed (apt-get install xdg-utils; CI installs it)")
    env = _env(tmp_path)
    query = [xdg_mime, "query", "default", MIME]
    assert subprocess.run(query, env=env, capture_output=True, text=True).stdout.strip() == ""  # fresh HOME
    _install(bundle, env)
    assert subprocess.run(query, env=env, capture_output=True, text=True).stdout.strip() == "gpuplanner.desktop"
    if shutil.which("update-mime-database"):  # the user's shared MIME database maps *.gpuplan to the type
        globs = (Path(env["HOME"]) / ".local/share/mime/globs2").read_text(encoding="utf-8").splitlines()
        assert f"50:{MIME}:*.gpuplan" in globs
        assert (Path(env["HOME"]) / ".local/share/mime/application/x-gpuplan.xml").is_file()
    _install(bundle, env, "--uninstall")
    assert subprocess.run(query, env=env, capture_output=True, text=True).stdout.strip() == ""

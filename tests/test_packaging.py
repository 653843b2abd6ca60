"""Packaging files: the CI workflow, the PyInstaller spec, the Windows/macOS installer scripts and the icons.

Fast checks only. The real PyInstaller build and the frozen app's smoke test run in
``packaging/build_linux.sh`` (called by ``.ci/run`` after the test suite).
"""

from __future__ import annotations

import ast
import os
import plistlib
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "packaging"
WORKFLOW = ROOT / ".github" / "workflows" / "build.yml"
SPEC = PKG / "gpuplanner.spec"
ISS = PKG / "windows" / "gpuplanner.iss"
PLIST = PKG / "macos" / "Info.plist"
PNG_SIG = b"\x89PNG\r\n\x1a\n"


# --------------------------------------------------------------------------- workflow


def _workflow() -> dict:
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _steps(job: dict) -> list[dict]:
    steps = job.get("steps")
    assert isinstance(steps, list) and steps, "a job without steps"
    return steps


def test_workflow_is_a_valid_github_actions_document():
    wf = _workflow()
    # YAML 1.1 reads the bare key `on` as True.
    triggers = wf.get("on", wf.get(True))
    assert {"push", "pull_request"} <= set(triggers)
    assert wf["jobs"], "no jobs"
    for name, job in wf["jobs"].items():
        assert "runs-on" in job, name
        for step in _steps(job):
            # each step does exactly one thing: run a command or use an action
            assert ("run" in step) != ("uses" in step), (name, step)
            if "uses" in step:
                assert re.fullmatch(r"[\w.-]+/[\w.-]+@v\d+", step["uses"]), step["uses"]
            if "shell" in step:
                assert step["shell"] in {"bash", "pwsh", "powershell", "cmd", "sh", "python"}, step["shell"]


def test_workflow_builds_on_the_three_desktop_runners():
    job = _workflow()["jobs"]["installers"]
    assert job["runs-on"] == "${{ matrix.os }}"
    runners = {entry["os"] for entry in job["strategy"]["matrix"]["include"]}
    # macos-latest is arm64; Intel needs macos-15-intel (macos-13 is retired).
    assert runners == {"windows-latest", "macos-latest", "macos-15-intel"}
    assert job["strategy"]["fail-fast"] is False
    artifacts = [entry["artifact"] for entry in job["strategy"]["matrix"]["include"]]
    assert len(set(artifacts)) == 3, "artifact names must differ per runner"


def test_workflow_tests_then_freezes_then_self_tests_then_uploads():
    steps = _steps(_workflow()["jobs"]["installers"])

    def index(pred, what):
        hits = [i for i, s in enumerate(steps) if pred(s)]
        assert hits, f"no step that {what}"
        return hits[0]

    run = lambda s: s.get("run", "")  # noqa: E731
    tests = index(lambda s: "pytest" in run(s), "runs the tests")
    freeze = index(lambda s: "PyInstaller" in run(s) and "gpuplanner.spec" in run(s), "runs PyInstaller")
    self_test = index(lambda s: "--self-test" in run(s), "runs the frozen --self-test")
    iscc = index(lambda s: "gpuplanner.iss" in run(s), "compiles the Inno Setup script")
    dmg = index(lambda s: "make_dmg.sh" in run(s), "builds the .dmg")
    upload = index(lambda s: s.get("uses", "").startswith("actions/upload-artifact@")
                   and s.get("if") is None, "uploads the installer")
    assert tests < freeze < self_test < min(iscc, dmg) < upload
    assert steps[iscc]["if"] == "runner.os == 'Windows'" and steps[dmg]["if"] == "runner.os == 'macOS'"
    with_ = steps[upload]["with"]
    assert with_["if-no-files-found"] == "error"
    assert "dist/installers/*.exe" in with_["path"] and "dist/installers/*.dmg" in with_["path"]
    # the self-test uses the frozen executable, not the installed package
    assert "${{ matrix.exe }}" in steps[self_test]["run"]
    exes = {e["os"]: e["exe"] for e in _workflow()["jobs"]["installers"]["strategy"]["matrix"]["include"]}
    assert exes["windows-latest"].startswith("dist/gpuplanner/")
    assert exes["macos-latest"].startswith("dist/GPU Planner.app/Contents/MacOS/")


def test_workflow_linux_job_runs_ci_and_uploads_the_bundle():
    steps = _steps(_workflow()["jobs"]["linux"])
    assert any("bash .ci/run" in s.get("run", "") for s in steps)
    uploads = [s for s in steps if s.get("uses", "").startswith("actions/upload-artifact@")]
    assert uploads and all(u["with"]["if-no-files-found"] == "error" for u in uploads)


def test_workflow_references_files_that_exist():
    text = WORKFLOW.read_text(encoding="utf-8")
    refs = set(re.findall(r"(?:packaging|\.ci|scripts|bench)[/\\][\w./\\-]+\.(?:sh|spec|iss|py)\b", text))
    refs |= {".ci/run"} if ".ci/run" in text else set()
    assert "packaging/gpuplanner.spec" in refs and "packaging/macos/make_dmg.sh" in refs
    for ref in refs:
        assert (ROOT / ref.replace("\\", "/")).is_file(), f"build.yml names {ref}, which does not exist"


def test_ci_run_builds_the_linux_bundle_after_the_tests():
    lines = [ln.strip() for ln in (ROOT / ".ci" / "run").read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    assert "set -euo pipefail" in lines  # a failing packaging step fails CI
    build = next(i for i, ln in enumerate(lines) if ln.endswith("bash packaging/build_linux.sh"))
    assert lines.index("bash scripts/test.sh") < build
    # CI fails when the frozen app's display checks (Xvfb + xcb, Weston + wayland; system X libraries hidden)
    # cannot run
    assert lines[build] == "GPUPLANNER_REQUIRE_DISPLAY_CHECK=1 bash packaging/build_linux.sh"
    text = (ROOT / ".ci" / "run").read_text()
    for package in ("xvfb", "weston", "desktop-file-utils", "xdg-utils", "libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1"):
        assert package in text, package


@pytest.mark.skipif(shutil.which("actionlint") is None, reason="actionlint not installed")
def test_workflow_passes_actionlint():
    proc = subprocess.run(["actionlint", str(WORKFLOW)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# --------------------------------------------------------------------------- PyInstaller spec


def _spec_namespace(*names: str) -> dict:
    """Execute the named top-level assignments/functions of the spec (not the build itself)."""
    tree = ast.parse(SPEC.read_text(encoding="utf-8"))
    keep = []
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not (getattr(node, "module", "") or "").startswith("PyInstaller"):
            keep.append(node)
        elif isinstance(node, ast.FunctionDef) and node.name in names:
            keep.append(node)
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in names for t in node.targets):
            keep.append(node)
    ns: dict = {"SPECPATH": str(PKG)}  # PyInstaller defines SPECPATH (the spec's folder)
    exec(compile(ast.Module(body=keep, type_ignores=[]), str(SPEC), "exec"), ns)  # noqa: S102
    return ns


def test_spec_is_onedir_and_keeps_qtopengl():
    text = SPEC.read_text(encoding="utf-8")
    ast.parse(text)  # valid Python
    assert "COLLECT(" in text and "exclude_binaries=True" in text  # onedir
    assert 'name="gpuplanner"' in text.split("COLLECT(", 1)[1].split("\n", 1)[0]
    excludes = _spec_namespace("QT_EXCLUDES")["QT_EXCLUDES"]
    assert "PySide6.QtQml" in excludes and "PySide6.QtWebEngineCore" in excludes
    # pyqtgraph 0.14 imports QtOpenGL unconditionally; the frozen app dies without it
    assert not {"PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets", "PySide6.QtPrintSupport"} & set(excludes)


def test_spec_keeps_only_english_and_chinese_qt_translations():
    keep = _spec_namespace("QT_LANGS", "keep_data")["keep_data"]
    qt = "PySide6/Qt/translations/"
    assert keep((qt + "qtbase_zh_CN.qm", "/src", "DATA"))
    assert keep((qt + "qtbase_en.qm", "/src", "DATA"))
    assert not keep((qt + "qtbase_de.qm", "/src", "DATA"))
    assert not keep((qt + "qt_help_zh_TW.qm", "/src", "DATA"))
    assert not keep(("PySide6\\Qt\\translations\\qtbase_fr.qm", "/src", "DATA"))  # Windows separators
    # our own translations and other data are never filtered
    assert keep(("gpuplanner/resources/i18n/gpuplanner_de.qm", "/src", "DATA"))
    assert keep(("gpuplanner/resources/gpus.json", "/src", "DATA"))


def test_spec_bundles_the_package_resources():
    ns = _spec_namespace("ROOT", "SPEC_DIR", "PKG", "RES", "RES_SKIP_SUFFIXES", "resource_datas")
    datas = ns["resource_datas"]()
    dests = {(Path(src).name, dest.replace("\\", "/")) for src, dest in datas}
    assert ("gpus.json", "gpuplanner/resources") in dests
    assert ("llama-3-8b.json", "gpuplanner/resources/models") in dests
    assert ("gpuplanner.png", "gpuplanner/resources/icons") in dests
    shipped = {Path(src) for src, _ in datas}
    expected = set((ROOT / "gpuplanner" / "resources").rglob("*.json")) | set((ROOT / "gpuplanner" / "resources").rglob("*.qm"))
    assert expected <= shipped, f"resources left out: {sorted(map(str, expected - shipped))[:5]}"
    assert not any(p.suffix in {".py", ".pyc", ".ts"} for p in shipped)


def test_spec_references_files_that_exist():
    text = SPEC.read_text(encoding="utf-8")
    refs = re.findall(r'SPEC_DIR\s*/\s*"([^"]+)"(?:\s*/\s*"([^"]+)")?', text)
    refs += [("icons", name) for name in re.findall(r'ICONS\s*/\s*"([^"]+)"', text)]
    paths = {PKG.joinpath(*[p for p in parts if p]) for parts in refs}
    assert PKG / "launcher.py" in paths and PKG / "runtime_hook.py" in paths
    assert PKG / "macos" / "Info.plist" in paths and PKG / "icons" / "gpuplanner.ico" in paths
    for path in paths:
        assert path.is_file() or path.is_dir(), f"the spec names {path.relative_to(ROOT)}, which does not exist"


def test_linux_plugin_trim_drops_only_embedded_platforms(monkeypatch):
    ns = _spec_namespace("LINUX_DROP_PLUGINS", "LINUX_DROP_LIBS", "keep_binary")
    monkeypatch.setattr(sys, "platform", "linux")
    keep = ns["keep_binary"]
    plugins = "PySide6/Qt/plugins/"
    assert keep((plugins + "platforms/libqxcb.so", "/src", "BINARY"))
    assert keep((plugins + "platforms/libqwayland.so", "/src", "BINARY"))
    assert keep((plugins + "platforms/libqoffscreen.so", "/src", "BINARY"))
    assert not keep((plugins + "platforms/libqvnc.so", "/src", "BINARY"))
    assert not keep((plugins + "platformthemes/libqgtk3.so", "/src", "BINARY"))  # links the system GTK 3
    assert keep((plugins + "platformthemes/libqxdgdesktopportal.so", "/src", "BINARY"))
    assert keep((plugins + "xcbglintegrations/libqxcb-glx-integration.so", "/src", "BINARY"))
    assert not keep((plugins + "egldeviceintegrations/libqeglfs-kms-integration.so", "/src", "BINARY"))
    assert not keep(("PySide6/Qt/lib/libQt6EglFSDeviceIntegration.so.6", "/src", "BINARY"))
    assert keep(("PySide6/Qt/lib/libQt6Gui.so.6", "/src", "BINARY"))
    monkeypatch.setattr(sys, "platform", "darwin")
    assert keep((plugins + "platforms/libqvnc.so", "/src", "BINARY"))  # only Linux is trimmed


# --------------------------------------------------------------------------- Windows installer


def _iss() -> str:
    raw = ISS.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf"), "ISCC needs a UTF-8 BOM to read the Chinese strings as UTF-8"
    return raw.decode("utf-8-sig")


def _iss_sections(text: str) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith(";"):
            continue
        m = re.fullmatch(r"\[(\w+)\]", s)
        if m:
            current = m.group(1)
            sections.setdefault(current, [])
        elif current:
            sections[current].append(s)
    return sections


def test_iss_setup_is_per_user_with_association_and_clean_upgrade():
    sec = _iss_sections(_iss())
    setup = dict(line.split("=", 1) for line in sec["Setup"] if "=" in line and not line.startswith("#"))
    assert re.fullmatch(r"\{\{[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\}", setup["AppId"])
    assert setup["PrivilegesRequired"] == "lowest"
    assert setup["ChangesAssociations"] == "yes"
    assert setup["DefaultDirName"].startswith("{autopf}")
    assert "{app}" in setup["UninstallDisplayIcon"]
    assert setup["OutputDir"] == r"..\..\dist\installers"  # what build.yml uploads
    assert any(r'Name: "{app}\_internal"' in line and "filesandordirs" in line for line in sec["InstallDelete"])
    assert any("{autoprograms}" in line for line in sec["Icons"])  # Start menu
    languages = " ".join(sec["Languages"])
    assert 'Name: "english"' in languages and 'Name: "chinesesimplified"' in languages
    registry = "\n".join(sec["Registry"])
    assert r'Subkey: "Software\Classes\.gpuplan"' in registry and "Root: HKA" in registry
    assert r'"""{app}\{#AppExe}"" ""%1"""' in registry
    assert r"{app}\gpuplan-document.ico" in registry
    # every custom message exists in both languages
    custom = [line.split("=", 1)[0] for line in sec["CustomMessages"]]
    names = {c.split(".", 1)[1] for c in custom}
    for name in names:
        assert f"english.{name}" in custom and f"chinesesimplified.{name}" in custom, name


def test_iss_references_files_that_exist():
    text = _iss()
    defines = dict(re.findall(r'#define\s+(\w+)\s+"([^"]*)"', text))
    assert defines["Bundle"] == r"..\..\dist\gpuplanner" and defines["AppExe"] == "gpuplanner.exe"
    spec = SPEC.read_text(encoding="utf-8")
    assert 'name="gpuplanner", console=False' in spec  # the windowed gpuplanner.exe the .iss installs
    sec = _iss_sections(text)
    setup_icon = next(line.split("=", 1)[1] for line in sec["Setup"] if line.startswith("SetupIconFile="))
    sources = [setup_icon] + [re.search(r'Source:\s*"([^"]+)"', line).group(1) for line in sec["Files"]]
    checked = 0
    for src in sources:
        if src.startswith("{#Bundle}"):
            continue  # PyInstaller output (dist/gpuplanner), checked above against the spec
        path = (ISS.parent / src.replace("\\", "/")).resolve()
        assert path.is_file(), f"gpuplanner.iss names {src}, which does not exist"
        checked += 1
    assert checked >= 2
    # installed document icon is what the registry's DefaultIcon points at
    assert any("gpuplan-document.ico" in s for s in sources)
    # the Chinese messages: Inno's own copy or the one CI fetches next to the script
    assert "#ifexist" in text and r"languages\ChineseSimplified.isl" in text


# --------------------------------------------------------------------------- macOS bundle


def test_info_plist_declares_the_gpuplan_document_type():
    with PLIST.open("rb") as fh:
        info = plistlib.load(fh)
    assert info["CFBundleIdentifier"] == "com.gpuplanner.app"
    assert info["NSHighResolutionCapable"] is True
    assert info["CFBundleExecutable"] == "gpuplanner"
    doc = info["CFBundleDocumentTypes"][0]
    assert doc["CFBundleTypeRole"] == "Editor" and doc["LSHandlerRank"] == "Owner"
    assert "gpuplan" in doc["CFBundleTypeExtensions"]
    (uti,) = doc["LSItemContentTypes"]
    exported = {t["UTTypeIdentifier"]: t for t in info["UTExportedTypeDeclarations"]}
    assert exported[uti]["UTTypeTagSpecification"]["public.filename-extension"] == ["gpuplan"]
    for icon in (info["CFBundleIconFile"], doc["CFBundleTypeIconFile"]):
        assert (PKG / "icons" / icon).is_file(), icon
    assert "zh_CN" in info["CFBundleLocalizations"]


def test_dmg_script_links_applications_and_retries_hdiutil():
    text = (PKG / "macos" / "make_dmg.sh").read_text(encoding="utf-8")
    assert "ln -s /Applications" in text
    assert re.search(r"for attempt in 1 2 3 4 5; do\s+if hdiutil create", text)
    assert "dist/GPU Planner.app" in text and "entitlements.plist" in text
    assert (PKG / "macos" / "entitlements.plist").is_file()
    for var in ("CODESIGN_IDENTITY", "APPLE_ID", "APPLE_TEAM_ID", "APPLE_APP_PASSWORD"):
        assert "${" + var + ":-}" in text, f"{var} must be optional"
    with (PKG / "macos" / "entitlements.plist").open("rb") as fh:
        assert plistlib.load(fh)["com.apple.security.cs.allow-unsigned-executable-memory"] is True


@pytest.mark.parametrize("script", ["build_linux.sh", "linux/install-desktop.sh", "macos/make_dmg.sh", "macos/setup_signing.sh"])
def test_shell_scripts_parse(script):
    proc = subprocess.run(["bash", "-n", str(PKG / script)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


# --------------------------------------------------------------------------- icons


def _png_size(blob: bytes) -> tuple[int, int]:
    assert blob[:8] == PNG_SIG and blob[12:16] == b"IHDR"
    return struct.unpack(">II", blob[16:24])


def check_ico(data: bytes) -> list[int]:
    reserved, kind, count = struct.unpack_from("<HHH", data, 0)
    assert (reserved, kind) == (0, 1) and count > 0
    sizes = []
    for i in range(count):
        w, h, colours, res, planes, bpp, size, offset = struct.unpack_from("<BBBBHHII", data, 6 + 16 * i)
        assert (colours, res, planes, bpp) == (0, 0, 1, 32)
        assert offset + size <= len(data)
        pw, ph = _png_size(data[offset:offset + size])
        assert (pw, ph) == (w or 256, h or 256)
        sizes.append(pw)
    return sizes


def check_icns(data: bytes) -> dict[bytes, int]:
    assert data[:4] == b"icns"
    assert struct.unpack(">I", data[4:8])[0] == len(data)
    pos, entries = 8, {}
    while pos < len(data):
        kind, length = data[pos:pos + 4], struct.unpack(">I", data[pos + 4:pos + 8])[0]
        assert length > 8 and pos + length <= len(data)
        w, h = _png_size(data[pos + 8:pos + length])
        assert w == h
        entries[kind] = w
        pos += length
    assert pos == len(data)
    return entries


def test_make_icons_writes_valid_ico_and_icns(qapp, tmp_path):
    sys.path.insert(0, str(PKG))
    try:
        import make_icons
    finally:
        sys.path.remove(str(PKG))
    written = make_icons.build(out_dir=tmp_path, app_icon=tmp_path / "app.png")
    names = {p.name for p in written}
    assert {"gpuplanner.ico", "gpuplanner.icns", "gpuplan-document.ico", "gpuplan-document.icns",
            "gpuplanner.png", "app.png"} <= names
    assert sorted(check_ico((tmp_path / "gpuplanner.ico").read_bytes())) == [16, 24, 32, 48, 64, 128, 256]
    icns = check_icns((tmp_path / "gpuplanner.icns").read_bytes())
    # Apple's PNG-based types: ic10 is 512@2x = 1024 px, ic11 is 16@2x = 32 px
    assert icns[b"ic10"] == 1024 and icns[b"ic07"] == 128 and icns[b"ic11"] == 32 and icns[b"icp4"] == 16
    assert _png_size((tmp_path / "app.png").read_bytes()) == (256, 256)
    # the committed icons are the script's output for the committed source
    assert check_ico((PKG / "icons" / "gpuplanner.ico").read_bytes())
    assert check_icns((PKG / "icons" / "gpuplan-document.icns").read_bytes())
    assert _png_size((PKG / "icons" / "source.png").read_bytes()) == (1024, 1024)


def test_ico_writer_layout_by_hand():
    """Two tiny fake PNG payloads: header, directory entries and offsets computed by hand."""
    sys.path.insert(0, str(PKG))
    try:
        import make_icons
    finally:
        sys.path.remove(str(PKG))
    a, b = b"A" * 10, b"B" * 20
    data = make_icons.ico_bytes({256: b, 16: a})
    assert data[:6] == b"\x00\x00\x01\x00\x02\x00"
    # first entry: 16 px, 10 bytes at offset 6 + 2*16 = 38; second: 256 px stored as 0, 20 bytes at 48
    assert struct.unpack_from("<BBBBHHII", data, 6) == (16, 16, 0, 0, 1, 32, 10, 38)
    assert struct.unpack_from("<BBBBHHII", data, 22) == (0, 0, 0, 0, 1, 32, 20, 48)
    assert data[38:48] == a and data[48:68] == b and len(data) == 68


# --------------------------------------------------------------------------- runtime hook, bench hook


def _load_runtime_hook():
    import importlib.util

    spec = importlib.util.spec_from_file_location("gp_runtime_hook", PKG / "runtime_hook.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # on Linux the hook does nothing at import
    return module


def test_runtime_hook_moves_macos_apps_out_of_root(monkeypatch, tmp_path):
    hook = _load_runtime_hook()
    moved = []
    monkeypatch.setattr(os, "chdir", lambda p: moved.append(p))
    monkeypatch.setattr(os, "getcwd", lambda: "/")
    monkeypatch.setattr(os.path, "expanduser", lambda p: str(tmp_path))
    monkeypatch.setattr(sys, "argv", ["gpuplanner", "/abs/plan.gpuplan"])
    hook._macos_cwd()
    assert moved == [str(tmp_path)]
    moved.clear()
    monkeypatch.setattr(sys, "argv", ["gpuplanner", "relative/plan.gpuplan"])  # still needs the cwd
    hook._macos_cwd()
    assert moved == []
    monkeypatch.setattr(os, "getcwd", lambda: "/Users/me/plans")
    monkeypatch.setattr(sys, "argv", ["gpuplanner"])
    hook._macos_cwd()
    assert moved == []


def test_first_window_hook_prints_marker_and_exits(tmp_path):
    """The hook bench/bench_bundle.py times (and build_linux.sh uses to see which plan the window opened):
    the app prints the marker with the window title after its first paint and exits 0."""
    from gpuplanner.__main__ import FIRST_WINDOW_ENV, FIRST_WINDOW_MARKER

    plan = sorted((ROOT / "examples").glob("*.gpuplan"))[0]
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", **{FIRST_WINDOW_ENV: "1"})
    proc = subprocess.run([sys.executable, "-m", "gpuplanner", str(plan)], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(FIRST_WINDOW_MARKER)]
    assert len(lines) == 1
    m = re.fullmatch(re.escape(FIRST_WINDOW_MARKER) + r" ms=(\d+) title=(.*)", lines[0])
    assert m, lines[0]
    assert 0 < int(m.group(1)) < 120_000
    assert plan.name in m.group(2)  # the window opened the plan given on the command line


def test_windows_version_resource_matches_the_package_version(monkeypatch):
    """The spec's VSVersionInfo (built on Windows only; pefile, imported but unused for building it, is
    stubbed here) carries gpuplanner.__version__ as text and as the 4-part numeric file version."""
    import types

    import gpuplanner

    compat = pytest.importorskip("PyInstaller.compat")
    monkeypatch.setattr(compat, "win32api", None, raising=False)
    monkeypatch.setitem(sys.modules, "pefile", types.ModuleType("pefile"))
    monkeypatch.delitem(sys.modules, "PyInstaller.utils.win32.versioninfo", raising=False)
    ns = _spec_namespace("SPEC_DIR", "ROOT", "PKG", "VERSION", "APP_NAME", "windows_version_info")
    assert ns["VERSION"] == gpuplanner.__version__
    info = ns["windows_version_info"]()
    parts = [int(x) for x in gpuplanner.__version__.split(".")] + [0] * 4
    ffi = info.ffi
    assert (ffi.fileVersionMS >> 16, ffi.fileVersionMS & 0xFFFF, ffi.fileVersionLS >> 16) == tuple(parts[:3])
    text = str(info)
    assert f"StringStruct('ProductVersion', '{gpuplanner.__version__}')" in text
    assert "StringStruct('OriginalFilename', 'gpuplanner.exe')" in text


def test_frozen_entry_calls_freeze_support_before_the_app():
    """The frozen app's plan-search process is the executable started again (``spawn``): the entry script must
    call ``multiprocessing.freeze_support()`` before anything else in its main block, or that process would
    open a second window (gpuplanner/app/search_process.py)."""
    tree = ast.parse((PKG / "launcher.py").read_text(encoding="utf-8"))
    main_block = next(n for n in tree.body if isinstance(n, ast.If) and "__main__" in ast.unparse(n.test))
    calls = [ast.unparse(n.value.func) for n in main_block.body if isinstance(n, ast.Expr)
             and isinstance(n.value, ast.Call)]
    assert calls and calls[0] == "multiprocessing.freeze_support", calls
    first_app_call = next(i for i, n in enumerate(main_block.body) if "main()" in ast.unparse(n))
    freeze = next(i for i, n in enumerate(main_block.body) if "freeze_support" in ast.unparse(n))
    assert freeze < first_app_call

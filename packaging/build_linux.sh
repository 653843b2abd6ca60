#!/usr/bin/env bash
# Build the Linux onedir bundle with packaging/gpuplanner.spec and smoke-test the frozen app:
#   0. the bundle carries every library its Qt plugins need but the documented system ones
#      (packaging/check_bundle_libs.py: DT_NEEDED closure + ldd against the bundle's own lib dir)
#   1. --self-test (opens the main window, walks the pages, renders the charts, exits 0), headless, then on
#      real display servers, Xvfb (QT_QPA_PLATFORM=xcb) and a headless Weston (wayland), with the system's
#      copies of the X client libraries the bundle carries made unreadable (a private mount namespace, root
#      or sudo -n), and a screenshot of the first window that must not be blank (check_screenshot.py)
#   2. opens an example .gpuplan passed on the command line (GUI, with --self-test) and reads it with the
#      frozen CLI (`gpuplanner estimate PLAN`)
#   3. exports a PDF report (`gpuplanner report PLAN -o OUT.pdf`) when the report command exists
# Prints the time of each step. Output: dist/gpuplanner/ and dist/gpuplanner-linux-<arch>.tar.gz (--archive).
#
#   bash packaging/build_linux.sh [--archive] [--bench]
#
# Python: the project venv (.venv, created/updated with the [build] extra, as scripts/test.sh does), or the
# interpreter in $GPUPLANNER_BUILD_PYTHON when set (it must already have PyInstaller and the package).
#
# System packages (Debian names; installed here when run as root or with sudo -n, else named and required):
# the X client libraries Qt's xcb platform plugin links (PyInstaller bundles what it finds on the build
# machine, so they must be here), Xvfb and Weston for the display checks. Without root (no mount namespace)
# or without Xvfb/Weston a display check is skipped with a note, unless GPUPLANNER_REQUIRE_DISPLAY_CHECK=1
# (.ci/run).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
ARCHIVE=0; BENCH=0
for arg in "$@"; do
    case "$arg" in
        --archive) ARCHIVE=1 ;;
        --bench) BENCH=1 ;;
        *) echo "usage: $0 [--archive] [--bench]" >&2; exit 2 ;;
    esac
done

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }
step() { printf '\n== %s\n' "$*"; }
fail() { echo "build_linux: FAILED: $*" >&2; exit 1; }

T_ALL=$(now)
XCB_PACKAGES="libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-xkb1 \
libxkbcommon-x11-0 libxkbcommon0 libxcb-shape0 libxcb-randr0 libxcb-util1 libxcb-shm0 libxcb-sync1 libxcb-xfixes0 \
libxcb-render0 libx11-xcb1"
AS_ROOT=()  # how to run a command as root: directly, or with password-less sudo (a GitHub runner); else none
if [ "$(id -u)" = 0 ]; then AS_ROOT=(env)
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then AS_ROOT=(sudo -n)
fi
if command -v dpkg >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    if ! dpkg -s $XCB_PACKAGES xvfb weston >/dev/null 2>&1; then
        if [ ${#AS_ROOT[@]} -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
            step "apt-get install the X client libraries to bundle, Xvfb and Weston"
            "${AS_ROOT[@]}" apt-get update -qq >/dev/null 2>&1 || true
            # shellcheck disable=SC2086
            "${AS_ROOT[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $XCB_PACKAGES xvfb weston \
                >/dev/null || fail "apt-get install $XCB_PACKAGES xvfb weston"
        else
            # shellcheck disable=SC2086
            dpkg -s $XCB_PACKAGES >/dev/null 2>&1 \
                || fail "the bundle needs the X client libraries on the build machine: sudo apt-get install $XCB_PACKAGES"
        fi
    fi
fi
if [ -n "${GPUPLANNER_BUILD_PYTHON:-}" ]; then
    PY="$GPUPLANNER_BUILD_PYTHON"
else
    source "$ROOT/scripts/_python.sh"
    step "venv with the [build] extra"
    T=$(now); ensure_venv "[build]"; echo "venv ready in $(since "$T")"
    PY="$VENV/bin/python"
fi
"$PY" -c "import PyInstaller, gpuplanner" || fail "$PY lacks PyInstaller or gpuplanner"

step "pyinstaller packaging/gpuplanner.spec"
T=$(now)
LOG="$ROOT/build/pyinstaller-linux.log"
mkdir -p "$ROOT/build"
if ! "$PY" -m PyInstaller --noconfirm --log-level WARN --distpath "$ROOT/dist" --workpath "$ROOT/build/pyinstaller" \
        packaging/gpuplanner.spec >"$LOG" 2>&1; then
    tail -40 "$LOG" >&2
    fail "PyInstaller (full log: $LOG)"
fi
BUILD_TIME=$(since "$T")
# collect_submodules() skips a gpuplanner module that fails to import: the bundle would lack it.
if grep -E "Failed to collect submodules for 'gpuplanner|Hidden import 'gpuplanner[^']*' not found" "$LOG" >&2; then
    fail "a gpuplanner module did not import at build time (see $LOG)"
fi
BUNDLE="$ROOT/dist/gpuplanner"
EXE="$BUNDLE/gpuplanner"
[ -x "$EXE" ] || fail "$EXE missing"
echo "built $BUNDLE in $BUILD_TIME ($(du -sh "$BUNDLE" | cut -f1) unpacked)"

step "libraries of the bundled Qt plugins (packaging/check_bundle_libs.py)"
"$PY" "$ROOT/packaging/check_bundle_libs.py" "$BUNDLE" || fail "the bundle lacks libraries its Qt plugins need"

export QT_QPA_PLATFORM=offscreen
SMOKE_HOME="$(mktemp -d)"
XVFB_PID=""
WESTON_PID=""
trap 'for p in $XVFB_PID $WESTON_PID; do kill "$p" 2>/dev/null || true; done; rm -rf "$SMOKE_HOME"' EXIT
# Never touch the real user's settings/recent files while smoke-testing.
export HOME="$SMOKE_HOME" XDG_CONFIG_HOME="$SMOKE_HOME/config" XDG_DATA_HOME="$SMOKE_HOME/data" XDG_CACHE_HOME="$SMOKE_HOME/cache"
run() {  # run the frozen app with a time limit, from a neutral folder
    (cd "$SMOKE_HOME" && timeout 120 "$EXE" "$@")
}

step "frozen --self-test"
T=$(now)
run --self-test || fail "frozen --self-test exited $?"
echo "self-test ok in $(since "$T")"

# The frozen app on real display servers, as on a desktop without the X client libraries: inside a private
# mount namespace the system files of the X client libraries the bundle carries (libxcb-icccm.so.4 …) are
# each covered by /dev/null, so any attempt to load a system copy fails ("file too short"); the host and the
# display servers (outside the namespace) are untouched. The namespace is made as root (or sudo -n); the
# app then runs as the calling user again (setpriv).
display_skip() {
    if [ "${GPUPLANNER_REQUIRE_DISPLAY_CHECK:-0}" = 1 ]; then fail "display check: $*"; fi
    echo "build_linux: skipped: $*" >&2
}
CAN_HIDE=0
if [ ${#AS_ROOT[@]} -gt 0 ] && "${AS_ROOT[@]}" unshare --mount --propagation private true 2>/dev/null; then
    CAN_HIDE=1
    mapfile -t HIDE < <("$PY" "$ROOT/packaging/check_bundle_libs.py" --system-copies "$BUNDLE")
    echo "system files hidden from the app: $(for f in "${HIDE[@]}"; do basename "$f"; done | tr '\n' ' ')"
    QXCB="$(find "$BUNDLE" -path '*/plugins/platforms/libqxcb.so' | head -1)"
    [ -n "$QXCB" ] || fail "no libqxcb.so in the bundle"
fi
# hidden_self_test PLATFORM VAR=VALUE…: --self-test with QT_QPA_PLATFORM=PLATFORM (no fallback: Qt aborts
# when the plugin or the display fails) and the display variables given; the screenshot of the first
# window (dist/linux-PLATFORM-first-window.png) must not be blank.
hidden_self_test() {
    local platform="$1" shot="$ROOT/dist/linux-$1-first-window.png" log="$SMOKE_HOME/$1-app.log"
    shift
    rm -f "$shot"
    # shellcheck disable=SC2016
    if ! (cd "$SMOKE_HOME" && "${AS_ROOT[@]}" unshare --mount --propagation private bash -c '
            set -euo pipefail
            uid="$1"; gid="$2"; qxcb="$3"; shift 3
            while [ "$1" != -- ]; do mount --bind /dev/null "$1"; [ ! -s "$1" ]; shift; done; shift
            # control: without the bundle on the library path the xcb plugin no longer resolves
            if out="$(env -u LD_LIBRARY_PATH ldd "$qxcb" 2>&1)"; then
                case "$out" in
                    *"not found"*) ;;
                    *) echo "$out" >&2; echo "the system X client libraries are still visible" >&2; exit 3 ;;
                esac
            fi
            if [ "$uid" != 0 ]; then exec setpriv --reuid="$uid" --regid="$gid" --clear-groups -- "$@"; fi
            exec "$@"' hide "$(id -u)" "$(id -g)" "$QXCB" "${HIDE[@]}" -- \
            env HOME="$HOME" XDG_CONFIG_HOME="$XDG_CONFIG_HOME" XDG_DATA_HOME="$XDG_DATA_HOME" \
            XDG_CACHE_HOME="$XDG_CACHE_HOME" "$@" QT_QPA_PLATFORM="$platform" \
            GPUPLANNER_SELF_TEST_SCREENSHOT="$shot" timeout 120 "$EXE" --self-test) >"$log" 2>&1; then
        cat "$log" >&2
        fail "frozen --self-test with the $platform platform"
    fi
    grep -v "propagateSizeHints" "$log" || true
    "$PY" "$ROOT/packaging/check_screenshot.py" "$shot" || fail "the first window ($platform) is blank ($shot)"
}

step "frozen --self-test on an X server (Xvfb, QT_QPA_PLATFORM=xcb, the system's X client libraries hidden)"
if ! command -v Xvfb >/dev/null 2>&1; then
    display_skip "the X11 check: Xvfb is not installed (apt-get install xvfb)"
elif [ "$CAN_HIDE" = 0 ]; then
    display_skip "the X11 check: hiding the system's X client libraries needs root (or sudo -n) and unshare -m"
else
    T=$(now)
    mkdir -p "$SMOKE_HOME/xvfb"
    # -displayfd: Xvfb picks a free display number and writes it on fd 3 once it accepts clients.
    Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$SMOKE_HOME/xvfb/display" 2>"$SMOKE_HOME/xvfb/log" &
    XVFB_PID=$!
    for _ in $(seq 100); do [ -s "$SMOKE_HOME/xvfb/display" ] && break; sleep 0.1; done
    [ -s "$SMOKE_HOME/xvfb/display" ] || { cat "$SMOKE_HOME/xvfb/log" >&2; fail "Xvfb did not start"; }
    hidden_self_test xcb DISPLAY=":$(head -1 "$SMOKE_HOME/xvfb/display")"
    kill "$XVFB_PID" 2>/dev/null || true
    XVFB_PID=""
    echo "xcb self-test ok in $(since "$T")"
fi

step "frozen --self-test on a Wayland compositor (headless Weston, QT_QPA_PLATFORM=wayland, same libraries hidden)"
if ! command -v weston >/dev/null 2>&1; then
    display_skip "the Wayland check: weston is not installed (apt-get install weston)"
elif [ "$CAN_HIDE" = 0 ]; then
    display_skip "the Wayland check: hiding the system's X client libraries needs root (or sudo -n) and unshare -m"
else
    T=$(now)
    WL_RUNTIME="$SMOKE_HOME/wayland-runtime"
    mkdir -m 700 "$WL_RUNTIME"
    XDG_RUNTIME_DIR="$WL_RUNTIME" weston --backend=headless-backend.so --socket=gpuplanner-wl --width=1280 \
        --height=800 --idle-time=0 >"$SMOKE_HOME/weston.log" 2>&1 &
    WESTON_PID=$!
    for _ in $(seq 100); do [ -S "$WL_RUNTIME/gpuplanner-wl" ] && break; sleep 0.1; done
    [ -S "$WL_RUNTIME/gpuplanner-wl" ] || { cat "$SMOKE_HOME/weston.log" >&2; fail "weston did not start"; }
    hidden_self_test wayland XDG_RUNTIME_DIR="$WL_RUNTIME" WAYLAND_DISPLAY=gpuplanner-wl
    kill "$WESTON_PID" 2>/dev/null || true
    WESTON_PID=""
    echo "wayland self-test ok in $(since "$T")"
fi

step "install-desktop.sh (menu entry, application/x-gpuplan for *.gpuplan) in the throwaway HOME"
"$BUNDLE/install-desktop.sh" || fail "install-desktop.sh"
if command -v desktop-file-validate >/dev/null 2>&1; then
    desktop-file-validate "$XDG_DATA_HOME/applications/gpuplanner.desktop" || fail "the installed .desktop file is invalid"
fi
if command -v xdg-mime >/dev/null 2>&1; then
    [ "$(xdg-mime query default application/x-gpuplan)" = gpuplanner.desktop ] || fail "xdg-mime: .gpuplan files do not open with GPU Planner"
fi
"$BUNDLE/install-desktop.sh" --uninstall >/dev/null || fail "install-desktop.sh --uninstall"

step "frozen CLI"
run --version || fail "frozen --version"
run gpus >/dev/null || fail "frozen 'gpus' command"

PLAN="$(ls "$ROOT"/examples/*.gpuplan 2>/dev/null | head -1 || true)"
if [ -n "$PLAN" ]; then
    step "open an example plan: $(basename "$PLAN")"
    T=$(now)
    run --self-test "$PLAN" || fail "frozen app with $PLAN exited $?"
    # The window really opened it: its title (printed by the first-window hook) names the file.
    FIRST="$(GPUPLANNER_EXIT_AFTER_FIRST_WINDOW=1 run "$PLAN" 2>/dev/null)" || fail "frozen app with $PLAN did not show a window"
    case "$FIRST" in *"title="*"$(basename "$PLAN")"*) ;; *) fail "the window did not open $PLAN: $FIRST" ;; esac
    run estimate "$PLAN" >/dev/null || fail "frozen 'estimate $PLAN'"
    echo "plan opened (GUI --self-test and CLI estimate) in $(since "$T")"
else
    echo "build_linux: no examples/*.gpuplan; skipped the plan check" >&2
fi

if [ -f "$ROOT/gpuplanner/commands/report.py" ] && [ -n "$PLAN" ]; then
    step "PDF report"
    T=$(now)
    PDF="$SMOKE_HOME/report.pdf"
    run report "$PLAN" -o "$PDF" || fail "frozen 'report $PLAN -o $PDF' exited $?"
    [ -s "$PDF" ] && [ "$(head -c 5 "$PDF")" = "%PDF-" ] || fail "$PDF is not a PDF"
    if command -v pdftotext >/dev/null 2>&1; then
        TEXT="$(pdftotext "$PDF" - 2>/dev/null || true)"  # (no `| grep -q`: SIGPIPE + pipefail)
        case "$TEXT" in *"GPU Planner"*) ;; *) fail "$PDF has no 'GPU Planner' text" ;; esac
    fi
    echo "PDF report ok ($(stat -c %s "$PDF") bytes) in $(since "$T")"
    # Simplified Chinese: the bundled gpuplanner_zh_CN.qm must be found (no "no translation file" note).
    T=$(now)
    ZH="$SMOKE_HOME/report-zh_CN.pdf"
    NOTE="$(run report "$PLAN" --lang zh_CN -o "$ZH" 2>&1 >/dev/null)" || fail "frozen 'report --lang zh_CN' failed: $NOTE"
    case "$NOTE" in *"no translation file"*) fail "the bundle lacks the zh_CN translation: $NOTE" ;; esac
    [ "$(head -c 5 "$ZH")" = "%PDF-" ] || fail "$ZH is not a PDF"
    if command -v pdftotext >/dev/null 2>&1; then
        pdftotext "$ZH" - 2>/dev/null | "$PY" -c 'import re, sys; sys.exit(0 if re.search("[\u4e00-\u9fff]", sys.stdin.read()) else 1)' \
            || fail "$ZH has no Chinese text"
    fi
    echo "Chinese PDF report ok in $(since "$T")"
else
    echo "build_linux: no 'report' command yet; skipped the PDF check" >&2
fi

if [ "$ARCHIVE" = 1 ]; then
    step "archive"
    OUT="$ROOT/dist/gpuplanner-$("$PY" -c 'import gpuplanner; print(gpuplanner.__version__)')-linux-$(uname -m).tar.gz"
    tar -C "$ROOT/dist" -czf "$OUT" gpuplanner
    echo "wrote $OUT ($(du -h "$OUT" | cut -f1))"
fi

if [ "$BENCH" = 1 ]; then
    step "bench/bench_bundle.py"
    "$PY" "$ROOT/bench/bench_bundle.py" --dist "$ROOT/dist"
fi

printf '\nbuild_linux: OK (PyInstaller %s, total %s)\n' "$BUILD_TIME" "$(since "$T_ALL")"

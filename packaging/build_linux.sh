#!/usr/bin/env bash
# Build the Linux onedir bundle with packaging/gpuplanner.spec and smoke-test the frozen app headless:
#   1. --self-test (opens the main window, walks the pages, renders the charts, exits 0)
#   2. opens an example .gpuplan passed on the command line (GUI, with --self-test) and reads it with the
#      frozen CLI (`gpuplanner estimate PLAN`)
#   3. exports a PDF report (`gpuplanner report PLAN -o OUT.pdf`) when the report command exists
# Prints the time of each step. Output: dist/gpuplanner/ and dist/gpuplanner-linux-<arch>.tar.gz (--archive).
#
#   bash packaging/build_linux.sh [--archive] [--bench]
#
# Python: the project venv (.venv, created/updated with the [build] extra, as scripts/test.sh does), or the
# interpreter in $GPUPLANNER_BUILD_PYTHON when set (it must already have PyInstaller and the package).
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

export QT_QPA_PLATFORM=offscreen
SMOKE_HOME="$(mktemp -d)"
trap 'rm -rf "$SMOKE_HOME"' EXIT
# Never touch the real user's settings/recent files while smoke-testing.
export HOME="$SMOKE_HOME" XDG_CONFIG_HOME="$SMOKE_HOME/config" XDG_DATA_HOME="$SMOKE_HOME/data" XDG_CACHE_HOME="$SMOKE_HOME/cache"
run() {  # run the frozen app with a time limit, from a neutral folder
    (cd "$SMOKE_HOME" && timeout 120 "$EXE" "$@")
}

step "frozen --self-test"
T=$(now)
run --self-test || fail "frozen --self-test exited $?"
echo "self-test ok in $(since "$T")"

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

#!/usr/bin/env bash
# Install GPU Planner with its test dependencies into .venv and run the whole test suite headless;
# then (with no arguments) the PyTorch memory harness in tests_validate/, in its own .venv-validate
# (Python 3.11, CPU build of torch, the project's core without Qt). Fails if either fails.
# GPUPLANNER_SKIP_VALIDATE=1 skips the harness.
source "$(dirname "$0")/_python.sh"
ensure_venv "[test]"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
cd "$ROOT"
set +e
"$VENV/bin/python" -m pytest -q "$@"
main_rc=$?
set -e
if [ $# -gt 0 ] || [ "${GPUPLANNER_SKIP_VALIDATE:-0}" = 1 ]; then
    exit $main_rc
fi
VVENV="${GPUPLANNER_VALIDATE_VENV:-$ROOT/.venv-validate}"
validate_rc=0
(
    set -e
    if [ ! -x "$VVENV/bin/python" ]; then
        # the torch 2.13.0 CPU wheel this machine kind carries is built for CPython 3.11
        py=""
        for cand in "${GPUPLANNER_VALIDATE_PYTHON:-}" python3.11; do
            if [ -n "$cand" ] && command -v "$cand" >/dev/null 2>&1; then py="$cand"; break; fi
        done
        if [ -z "$py" ]; then echo "tests_validate: python3.11 not found (set GPUPLANNER_VALIDATE_PYTHON)" >&2; exit 1; fi
        "$py" -m venv "$VVENV"
    fi
    # the [validate] extra from pyproject.toml (torch pinned: pip takes the local CPU wheel, never a CUDA build)
    mapfile -t extra < <("$VVENV/bin/python" -c 'import sys, tomllib; print("\n".join(tomllib.load(open(sys.argv[1], "rb"))["project"]["optional-dependencies"]["validate"]))' "$ROOT/pyproject.toml")
    "$VVENV/bin/python" -m pip install --quiet --disable-pip-version-check "${extra[@]}" numpy pydantic platformdirs pytest
    "$VVENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -e "$ROOT"
    cd "$ROOT/tests_validate"
    "$VVENV/bin/python" -m pytest -q
) || validate_rc=$?
if [ $main_rc -ne 0 ]; then exit $main_rc; fi
exit $validate_rc

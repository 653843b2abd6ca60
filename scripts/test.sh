#!/usr/bin/env bash
# Install GPU Planner with its test dependencies into .venv and run the whole test suite headless.
source "$(dirname "$0")/_python.sh"
ensure_venv "[test]"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
cd "$ROOT"
exec "$VENV/bin/python" -m pytest -q "$@"

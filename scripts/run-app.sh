#!/usr/bin/env bash
# Install GPU Planner into .venv (first run only does real work) and start the desktop app.
source "$(dirname "$0")/_python.sh"
ensure_venv ""
exec "$VENV/bin/gpuplanner" "$@"

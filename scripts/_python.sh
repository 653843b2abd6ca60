# Sourced by the other scripts: find a Python >= 3.12 (preferred; PySide6 6.12 crashes on 3.11)
# and create/refresh the project virtual environment in .venv.
set -euo pipefail
find_python() {
    for cand in "${GPUPLANNER_PYTHON:-}" python3.12 python3.13; do
        [ -n "$cand" ] || continue
        if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null; then
            echo "$cand"; return 0
        fi
    done
    # pyenv installs that are not on the shim's global list
    for cand in "$HOME"/.pyenv/versions/3.12*/bin/python3 "$HOME"/.pyenv/versions/3.13*/bin/python3 /usr/bin/python3 python3; do
        if [ -x "$cand" ] || command -v "$cand" >/dev/null 2>&1; then
            if "$cand" -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null; then echo "$cand"; return 0; fi
        fi
    done
    # last resort: 3.11 works with PySide6-Essentials < 6.12 (pinned in pyproject.toml)
    for cand in python3.11 python3; do
        if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null; then echo "$cand"; return 0; fi
    done
    echo "GPU Planner needs Python 3.12 or newer (3.11 works with PySide6-Essentials<6.12)" >&2
    return 1
}
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${GPUPLANNER_VENV:-$ROOT/.venv}"
# pip install -e only when it can change something: a new venv, or pyproject.toml (dependencies, entry
# points, version) or the checkout's path changed since the last install. The editable install serves the
# sources from the checkout, so editing or adding modules needs no reinstall; skipping pip saves about 6 s
# and a setuptools banner on every start. $VENV/.gpuplanner-install-stamp holds "<hash> <extras>" per
# install done for the current hash; an install with extras also satisfies a plain one.
install_key() {
    { printf '%s\n' "$ROOT"; cat "$ROOT/pyproject.toml"; } | cksum | tr ' ' '-'  # POSIX cksum: Linux and macOS
}
ensure_venv() {
    local extras="$1" stamp="$VENV/.gpuplanner-install-stamp" key
    if [ ! -x "$VENV/bin/python" ]; then
        local py; py="$(find_python)"
        "$py" -m venv "$VENV"
        "$VENV/bin/python" -m pip install --quiet --upgrade pip
    fi
    key="$(install_key)"
    if [ -x "$VENV/bin/gpuplanner" ] && [ -f "$stamp" ]; then
        local k e
        while read -r k e; do
            if [ "$k" = "$key" ] && { [ -z "$extras" ] || [ "$e" = "$extras" ]; }; then return 0; fi
        done <"$stamp"
    fi
    "$VENV/bin/python" -m pip install --quiet -e "$ROOT$extras"
    { if [ -f "$stamp" ]; then grep "^$key " "$stamp" | grep -vxF "$key $extras" || true; fi
      printf '%s %s\n' "$key" "$extras"; } >"$stamp.new"
    mv "$stamp.new" "$stamp"
}

#!/usr/bin/env bash
# Desktop integration for the GPU Planner Linux bundle, for the current user only (no root needed):
#   * a menu entry        $XDG_DATA_HOME/applications/gpuplanner.desktop  (Exec = this bundle's gpuplanner)
#   * the plan file type  $XDG_DATA_HOME/mime/packages/gpuplanner.xml     (application/x-gpuplan, *.gpuplan)
#   * icons               $XDG_DATA_HOME/icons/hicolor/{512x512/apps,256x256/mimetypes}/
#   * GPU Planner as the default application for .gpuplan files ($XDG_CONFIG_HOME/mimeapps.list), so
#     double-clicking a plan file opens it.
# $XDG_DATA_HOME defaults to ~/.local/share and $XDG_CONFIG_HOME to ~/.config (XDG Base Directory spec).
# The menu entry points at this folder: run the script again after moving the bundle.
#
#   ./install-desktop.sh              install (or update) the entries
#   ./install-desktop.sh --uninstall  remove them again
#
# Specs followed: Desktop Entry 1.0 (Exec quoting), shared-mime-info (mime/packages),
# Icon Theme (hicolor), "Association between MIME types and applications" (mimeapps.list).
set -euo pipefail

HERE="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
EXE="$HERE/gpuplanner"
SRC="$HERE/desktop"
DATA="${XDG_DATA_HOME:-$HOME/.local/share}"
CONFIG="${XDG_CONFIG_HOME:-$HOME/.config}"
MIME_TYPE="application/x-gpuplan"
DESKTOP_ID="gpuplanner.desktop"
APPS="$DATA/applications"
DESKTOP_FILE="$APPS/$DESKTOP_ID"
MIME_XML="$DATA/mime/packages/gpuplanner.xml"
APP_ICON="$DATA/icons/hicolor/512x512/apps/gpuplanner.png"
DOC_ICON="$DATA/icons/hicolor/256x256/mimetypes/application-x-gpuplan.png"
MIMEAPPS="$CONFIG/mimeapps.list"

usage() { echo "usage: $0 [--uninstall]"; }

# Desktop Entry spec, "The Exec key": a quoted argument escapes " ` $ \ with a backslash, and the value,
# being a string, escapes each backslash once more; a literal % is written %%.
exec_quote() {
    local s="$1"
    s="${s//\\/\\\\}"; s="${s//\"/\\\"}"; s="${s//\`/\\\`}"; s="${s//\$/\\\$}"
    s="${s//\\/\\\\}"
    s="${s//%/%%}"
    printf '"%s"' "$s"
}

# Set (or with an empty $2, remove when it is ours) the [Default Applications] entry for $MIME_TYPE.
set_default() {
    local app="$1" tmp
    mkdir -p "$CONFIG"
    [ -f "$MIMEAPPS" ] || : >"$MIMEAPPS"
    tmp="$(mktemp "$MIMEAPPS.XXXXXX")"
    awk -v key="$MIME_TYPE=" -v app="$app" -v ours="$DESKTOP_ID" '
        function flush() { if (insec && !done && app != "") { print key app ";"; } done = done || insec }
        /^\[/ { flush(); insec = ($0 == "[Default Applications]"); seen = seen || insec; print; next }
        insec && index($0, key) == 1 {
            if (app != "") { print key app ";"; done = 1 }
            else if ($0 != key ours && $0 != key ours ";") print
            next
        }
        { print }
        END { flush(); if (!seen && app != "") { print "[Default Applications]"; print key app ";" } }
    ' "$MIMEAPPS" >"$tmp"
    mv "$tmp" "$MIMEAPPS"
}

refresh() {  # caches that desktops read; each tool is optional
    if command -v update-mime-database >/dev/null 2>&1; then update-mime-database "$DATA/mime" >/dev/null 2>&1 || true; fi
    if command -v update-desktop-database >/dev/null 2>&1; then update-desktop-database -q "$APPS" 2>/dev/null || true; fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$DATA/icons/hicolor/index.theme" ]; then
        gtk-update-icon-cache -q -t -f "$DATA/icons/hicolor" 2>/dev/null || true
    fi
}

install_entries() {
    [ -x "$EXE" ] || { echo "install-desktop: $EXE not found (run this script from the unpacked bundle)" >&2; exit 1; }
    case "$HERE" in *$'\n'*) echo "install-desktop: the bundle path contains a newline; move it" >&2; exit 1 ;; esac
    mkdir -p "$APPS" "$(dirname "$MIME_XML")" "$(dirname "$APP_ICON")" "$(dirname "$DOC_ICON")"
    install -m 644 "$SRC/gpuplanner.png" "$APP_ICON"
    install -m 644 "$SRC/gpuplan-document.png" "$DOC_ICON"
    install -m 644 "$SRC/gpuplanner-mime.xml" "$MIME_XML"
    local template exec tmp
    template="$(cat "$SRC/gpuplanner.desktop")"
    exec="$(exec_quote "$EXE")"
    tmp="$(mktemp "$DESKTOP_FILE.XXXXXX")"
    printf '%s\n' "${template//@EXEC@/"$exec"}" >"$tmp"
    chmod 644 "$tmp"
    mv "$tmp" "$DESKTOP_FILE"
    refresh
    if command -v xdg-mime >/dev/null 2>&1; then
        xdg-mime default "$DESKTOP_ID" "$MIME_TYPE" 2>/dev/null || set_default "$DESKTOP_ID"
    else
        set_default "$DESKTOP_ID"
    fi
    echo "GPU Planner is in your applications menu and opens .gpuplan files ($DESKTOP_FILE)."
}

uninstall_entries() {
    rm -f "$DESKTOP_FILE" "$MIME_XML" "$APP_ICON" "$DOC_ICON"
    if [ -f "$MIMEAPPS" ]; then set_default ""; fi
    refresh
    echo "GPU Planner's menu entry and .gpuplan association are removed."
}

case "${1:-}" in
    "") install_entries ;;
    --uninstall) uninstall_entries ;;
    -h|--help) usage ;;
    *) usage >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Install GPU Planner into .venv and start the desktop app. pip runs on the first start and after
# pyproject.toml changes only (see ensure_venv in _python.sh); a later start goes straight to the app.
# On Linux it first asks ldd whether Qt's platform plugin finds its system libraries; when some are missing
# it names them and prints the one command that installs them, instead of Qt's "Could not load the Qt
# platform plugin "xcb"" abort.
source "$(dirname "${BASH_SOURCE[0]}")/_python.sh"

# Debian/Ubuntu package holding a library: Debian policy 8.1 names a shared-library package after its
# soname (libfoo.so.3 -> libfoo3; a name ending in a digit takes a hyphen: libxkbcommon-x11.so.0 ->
# libxkbcommon-x11-0), lower case; the few exceptions Qt needs are listed.
deb_package() {
    case "$1" in
        libglib-2.0.so.*|libgthread-2.0.so.*) echo libglib2.0-0 ;;
        libgcc_s.so.*) echo libgcc-s1 ;;
        *)
            local name="${1%%.so*}" ver="${1##*.so.}"
            ver="${ver%%.*}"
            name="$(printf '%s' "$name" | tr '[:upper:]' '[:lower:]')"
            case "$name" in *[0-9]) echo "$name-$ver" ;; *) echo "$name$ver" ;; esac ;;
    esac
}

# Fedora/RHEL package holding a library; otherwise RPM's automatic soname capability, which dnf resolves.
rpm_package() {
    case "$1" in
        libxcb-icccm.so.*|libxcb-ewmh.so.*) echo xcb-util-wm ;;
        libxcb-keysyms.so.*) echo xcb-util-keysyms ;;
        libxcb-cursor.so.*) echo xcb-util-cursor ;;
        libxcb-image.so.*) echo xcb-util-image ;;
        libxcb-render-util.so.*) echo xcb-util-renderutil ;;
        libxcb-util.so.*) echo xcb-util ;;
        libxcb.so.*|libxcb-*.so.*) echo libxcb ;;
        libxkbcommon-x11.so.*) echo libxkbcommon-x11 ;;
        libxkbcommon.so.*) echo libxkbcommon ;;
        libX11-xcb.so.*) echo libX11-xcb ;;
        libX11.so.*) echo libX11 ;;
        libEGL.so.*) echo libglvnd-egl ;;
        libGL.so.*|libGLX.so.*) echo libglvnd-glx ;;
        libOpenGL.so.*) echo libglvnd-opengl ;;
        libfontconfig.so.*) echo fontconfig ;;
        libfreetype.so.*) echo freetype ;;
        libdbus-1.so.*) echo dbus-libs ;;
        libglib-2.0.so.*|libgthread-2.0.so.*) echo glib2 ;;
        libwayland-client.so.*) echo libwayland-client ;;
        libwayland-cursor.so.*) echo libwayland-cursor ;;
        *) echo "'$1()(64bit)'" ;;
    esac
}

# The package manager of this distribution: apt-get or dnf (from /etc/os-release, else what is installed).
package_manager() {
    local os_release="${GPUPLANNER_OS_RELEASE:-/etc/os-release}" ids=""
    if [ -r "$os_release" ]; then
        ids="$(. "$os_release" 2>/dev/null; echo " ${ID:-} ${ID_LIKE:-} ")"
    fi
    case "$ids" in
        *" debian "*|*" ubuntu "*) echo apt-get; return ;;
        *" fedora "*|*" rhel "*|*" centos "*) echo dnf; return ;;
    esac
    if command -v apt-get >/dev/null 2>&1; then echo apt-get
    elif command -v dnf >/dev/null 2>&1; then echo dnf
    fi
}

# Libraries ldd cannot find for a Qt platform plugin (one per line; nothing when all are found).
missing_libs() {
    { ldd "$1" 2>/dev/null || true; } | awk '$2 == "=>" && $3 == "not" && $4 == "found" { print $1 }' | sort -u
}

# Check the platform plugins Qt will try (QT_QPA_PLATFORM, else wayland then xcb in a Wayland session,
# else xcb). Fine as soon as one has all its libraries; otherwise print the fix and return 1.
check_qt_platform() {
    local plugins platforms p plugin missing="" found
    plugins="$(echo "$VENV"/lib/python3*/site-packages/PySide6/Qt/plugins/platforms)"
    [ -d "$plugins" ] || return 0  # no PySide6 layout we know: let Qt speak for itself
    if [ -n "${QT_QPA_PLATFORM:-}" ]; then platforms="${QT_QPA_PLATFORM//;/ }"
    elif [ -n "${WAYLAND_DISPLAY:-}" ]; then platforms="wayland xcb"
    else platforms="xcb"
    fi
    for p in $platforms; do
        case "${p%%:*}" in
            xcb) plugin="$plugins/libqxcb.so" ;;
            wayland*) plugin="$plugins/libqwayland.so" ;;
            *) return 0 ;;  # offscreen, minimal, vnc …: nothing from the desktop needed
        esac
        [ -f "$plugin" ] || return 0
        found="$(missing_libs "$plugin")"
        [ -n "$found" ] || return 0
        missing="$(printf '%s\n%s\n' "$missing" "$found" | sed '/^$/d' | sort -u)"
    done
    local libs pm pkgs="" lib sudo=""
    libs="$(echo $missing)"
    echo "gpuplanner: Qt cannot open a window: these system libraries are missing: $libs" >&2
    [ "$(id -u)" = 0 ] || sudo="sudo "
    pm="$(package_manager)"
    case "$pm" in
        apt-get) for lib in $missing; do pkgs="$pkgs $(deb_package "$lib")"; done
                 echo "Install them with:  ${sudo}apt-get install$(echo "$pkgs" | tr ' ' '\n' | sort -u | tr '\n' ' ' | sed 's/ $//')" >&2 ;;
        dnf)     for lib in $missing; do pkgs="$pkgs $(rpm_package "$lib")"; done
                 echo "Install them with:  ${sudo}dnf install$(echo "$pkgs" | tr ' ' '\n' | sort -u | tr '\n' ' ' | sed 's/ $//')" >&2 ;;
        *)       echo "Install the packages of your distribution that provide them, then start again." >&2 ;;
    esac
    return 1
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then  # run, not sourced (tests source it for the functions)
    ensure_venv ""
    if [ "$(uname -s)" = Linux ]; then
        check_qt_platform || exit 1
    fi
    exec "$VENV/bin/gpuplanner" "$@"
fi

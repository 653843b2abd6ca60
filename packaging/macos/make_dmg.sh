#!/usr/bin/env bash
# Package dist/"GPU Planner.app" (built by `pyinstaller packaging/gpuplanner.spec` on macOS) as a .dmg with an
# /Applications link, signing and notarising when the credentials are in the environment.
#
#   bash packaging/macos/make_dmg.sh
#   -> dist/installers/GPUPlanner-<version>-macos-<arm64|x86_64>.dmg
#
# Environment (all optional; without them the .app and .dmg stay unsigned and Gatekeeper warns on first open):
#   CODESIGN_IDENTITY   "Developer ID Application: ..." in the keychain (packaging/macos/setup_signing.sh
#                       imports it in CI). Signs the .app (hardened runtime, packaging/macos/entitlements.plist)
#                       and the .dmg.
#   APPLE_ID, APPLE_TEAM_ID, APPLE_APP_PASSWORD (app-specific password)
#                       with CODESIGN_IDENTITY: notarise the .app and the .dmg with `xcrun notarytool` and staple
#                       the tickets (MusicBrainz Picard's macos-notarize-app.sh flow).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/packaging/macos"
APP="$ROOT/dist/GPU Planner.app"
OUT_DIR="$ROOT/dist/installers"
warn() { if [ -n "${GITHUB_ACTIONS:-}" ]; then echo "::warning::$*"; else echo "make_dmg: warning: $*" >&2; fi; }
fail() { echo "make_dmg: FAILED: $*" >&2; exit 1; }

[ "$(uname -s)" = Darwin ] || fail "hdiutil/codesign need macOS"
[ -d "$APP" ] || fail "$APP missing: run 'pyinstaller --noconfirm packaging/gpuplanner.spec' first"
EXE="$APP/Contents/MacOS/gpuplanner"
[ -x "$EXE" ] || fail "$EXE missing"
VERSION="$(/usr/libexec/PlistBuddy -c 'Print :CFBundleShortVersionString' "$APP/Contents/Info.plist")"
ARCH="${TARGET_ARCH:-$(uname -m)}"
DMG="$OUT_DIR/GPUPlanner-$VERSION-macos-$ARCH.dmg"

# 1. The bundle is complete: it starts, declares the .gpuplan document type and carries both icons.
"$EXE" --version || fail "the app does not start"
/usr/libexec/PlistBuddy -c 'Print :CFBundleDocumentTypes:0:LSItemContentTypes:0' "$APP/Contents/Info.plist" \
    | grep -qx 'com.gpuplanner.plan' || fail "Info.plist lacks the .gpuplan document type"
for icon in gpuplanner.icns gpuplan-document.icns; do
    [ -f "$APP/Contents/Resources/$icon" ] || fail "Contents/Resources/$icon missing"
done

notarise() {  # notarise FILE (zip/dmg); waits for Apple's verdict
    xcrun notarytool submit "$1" --apple-id "$APPLE_ID" --team-id "$APPLE_TEAM_ID" \
        --password "$APPLE_APP_PASSWORD" --wait --timeout 20m
}

SIGN=0; NOTARISE=0
if [ -n "${CODESIGN_IDENTITY:-}" ]; then
    SIGN=1
    if [ -n "${APPLE_ID:-}" ] && [ -n "${APPLE_TEAM_ID:-}" ] && [ -n "${APPLE_APP_PASSWORD:-}" ]; then
        NOTARISE=1
    else
        warn "APPLE_ID/APPLE_TEAM_ID/APPLE_APP_PASSWORD not set: signed but not notarised"
    fi
else
    warn "CODESIGN_IDENTITY not set: building an unsigned .dmg (Gatekeeper will ask the user to confirm)"
fi

# 2. Sign (again: PyInstaller signed the pieces during BUNDLE; this seals the whole bundle) and notarise.
if [ "$SIGN" = 1 ]; then
    codesign --force --deep --timestamp --options runtime --entitlements "$HERE/entitlements.plist" \
        --sign "$CODESIGN_IDENTITY" "$APP"
    codesign --verify --deep --strict --verbose=2 "$APP"
    if [ "$NOTARISE" = 1 ]; then
        ZIP="$(mktemp -d)/GPUPlanner.zip"
        ditto -c -k --rsrc --keepParent "$APP" "$ZIP"
        notarise "$ZIP"
        xcrun stapler staple "$APP"
    fi
fi

# 3. The disk image: the app plus a link to /Applications to drag it onto.
STAGE="$(mktemp -d)"
trap 'rm -rf "$STAGE"' EXIT
ditto "$APP" "$STAGE/GPU Planner.app"
ln -s /Applications "$STAGE/Applications"
mkdir -p "$OUT_DIR"
rm -f "$DMG"
# hdiutil sometimes fails with "Resource busy" right after a build: retry (Picard's packaging script does too).
for attempt in 1 2 3 4 5; do
    if hdiutil create -volname "GPU Planner $VERSION" -srcfolder "$STAGE" -ov -fs HFS+ \
            -format UDZO -imagekey zlib-level=9 "$DMG"; then
        break
    fi
    [ "$attempt" = 5 ] && fail "hdiutil create failed 5 times"
    echo "hdiutil create failed (attempt $attempt), retrying in 10 s" >&2
    sleep 10
done

if [ "$SIGN" = 1 ]; then
    codesign --force --timestamp --sign "$CODESIGN_IDENTITY" "$DMG"
    if [ "$NOTARISE" = 1 ]; then
        notarise "$DMG"
        xcrun stapler staple "$DMG"
        spctl --assess --type open --context context:primary-signature --verbose=2 "$DMG" || warn "spctl rejected $DMG"
    fi
fi

# 4. The image mounts and holds the app and the Applications link.
hdiutil verify "$DMG"
MNT="$(mktemp -d)"
hdiutil attach -nobrowse -readonly -mountpoint "$MNT" "$DMG" >/dev/null
ok=1
[ -x "$MNT/GPU Planner.app/Contents/MacOS/gpuplanner" ] || ok=0
[ -L "$MNT/Applications" ] || ok=0
hdiutil detach "$MNT" >/dev/null || hdiutil detach -force "$MNT" >/dev/null || true
[ "$ok" = 1 ] || fail "$DMG lacks the app or the Applications link"
echo "wrote $DMG ($(du -h "$DMG" | cut -f1); signed=$SIGN notarised=$NOTARISE)"

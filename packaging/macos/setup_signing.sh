#!/usr/bin/env bash
# CI helper: import a Developer ID certificate into a temporary keychain so PyInstaller's BUNDLE and
# make_dmg.sh can sign. Skipped (exit 0, with a warning) when the secrets are absent, so forks and pull
# requests still build unsigned artifacts.
#
# Environment: MACOS_CERTIFICATE (base64 .p12), MACOS_CERTIFICATE_PASSWORD, CODESIGN_IDENTITY.
# On success appends CODESIGN_IDENTITY to $GITHUB_ENV (when running in GitHub Actions).
set -euo pipefail
if [ -z "${MACOS_CERTIFICATE:-}" ] || [ -z "${MACOS_CERTIFICATE_PASSWORD:-}" ] || [ -z "${CODESIGN_IDENTITY:-}" ]; then
    echo "::warning::no signing certificate in the environment: the macOS build stays unsigned"
    exit 0
fi
KEYCHAIN="$RUNNER_TEMP/gpuplanner-signing.keychain-db"
KEYCHAIN_PASSWORD="$(uuidgen)"
P12="$RUNNER_TEMP/certificate.p12"
echo "$MACOS_CERTIFICATE" | base64 --decode > "$P12"
security create-keychain -p "$KEYCHAIN_PASSWORD" "$KEYCHAIN"
security set-keychain-settings -lut 21600 "$KEYCHAIN"
security unlock-keychain -p "$KEYCHAIN_PASSWORD" "$KEYCHAIN"
security import "$P12" -k "$KEYCHAIN" -P "$MACOS_CERTIFICATE_PASSWORD" -T /usr/bin/codesign
security set-key-partition-list -S apple-tool:,apple:,codesign: -s -k "$KEYCHAIN_PASSWORD" "$KEYCHAIN" >/dev/null
security list-keychains -d user -s "$KEYCHAIN" $(security list-keychains -d user | tr -d '"')
rm -f "$P12"
security find-identity -v -p codesigning "$KEYCHAIN" | grep -q "$CODESIGN_IDENTITY" \
    || { echo "setup_signing: identity '$CODESIGN_IDENTITY' not in the imported certificate" >&2; exit 1; }
[ -n "${GITHUB_ENV:-}" ] && echo "CODESIGN_IDENTITY=$CODESIGN_IDENTITY" >> "$GITHUB_ENV"
echo "signing identity ready: $CODESIGN_IDENTITY"

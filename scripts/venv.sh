#!/usr/bin/env bash
# scripts/venv.sh [runtime|dev]
# Create .venv if missing and install requirements.txt (runtime) or requirements-dev.txt (dev).
# A stamp file .venv/.installed-<kind>-<hash of the requirement files> skips the install
# when nothing changed; so does a venv without the stamp whose packages are all at their pinned
# versions (scripts/venv_current.py): production's, made by hand, where `make backup` must not
# run pip again (and never as root into the service user's venv).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

KIND=${1:-runtime}
PYTHON=${PYTHON:-python3}
VENV=.venv

case "$KIND" in
    runtime) FILES=(requirements.txt) ;;
    dev) FILES=(requirements.txt requirements-dev.txt) ;;
    *) die "usage: scripts/venv.sh [runtime|dev]" ;;
esac

if ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
    command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found (Muster needs Python 3.11)"
    "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || die "$PYTHON is older than 3.11"
    # Debian splits venv/ensurepip into python3-venv (python3.11-venv).
    if ! "$PYTHON" -c 'import ensurepip, venv' >/dev/null 2>&1; then
        apt_install python3-venv
    fi
    log "creating $VENV with $("$PYTHON" --version)"
    rm -rf "$VENV"
    "$PYTHON" -m venv "$VENV" || { rm -rf "$VENV"; apt_install python3-venv; "$PYTHON" -m venv "$VENV"; }
fi

HASH=$(cat "${FILES[@]}" | sha256sum | cut -c1-16)
STAMP="$VENV/.installed-$KIND-$HASH"
if [ -e "$STAMP" ]; then
    exit 0
fi
if "$VENV/bin/python" scripts/venv_current.py "${FILES[@]}" 2>/dev/null; then
    exit 0
fi
log "installing ${FILES[-1]} into $VENV"
"$VENV/bin/python" -m pip install --disable-pip-version-check -q -r "${FILES[-1]}"
rm -f "$VENV"/.installed-"$KIND"-*
touch "$STAMP"
if [ "$KIND" = dev ]; then
    # dev includes runtime: spare `make run` a reinstall.
    RUNTIME_STAMP="$VENV/.installed-runtime-$(sha256sum <requirements.txt | cut -c1-16)"
    rm -f "$VENV"/.installed-runtime-*
    touch "$RUNTIME_STAMP"
fi

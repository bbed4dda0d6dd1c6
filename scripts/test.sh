#!/usr/bin/env bash
# scripts/test.sh [pytest args...]     (what `make test` runs)
#
# DB=postgres (default): a throwaway PostgreSQL cluster; DB=sqlite: SQLite, no PostgreSQL.
# Always: a throwaway Redis (TEST_REDIS_URL) and the system Chromium (PLAYWRIGHT_CHROMIUM).
# Installs what is missing (dev requirements; Debian packages postgresql, redis-server,
# chromium), runs pytest, then stops every server and removes the temp dir, whatever
# happened.  Exits with pytest's exit code.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
. scripts/services.sh

DB=${DB:-postgres}
case "$DB" in
    postgres | sqlite) ;;
    *) die "DB must be postgres or sqlite, not '$DB'" ;;
esac
START=$SECONDS

# --- what the tests need ------------------------------------------------------------
missing=()
if [ "$DB" = postgres ] && [ -z "$(postgres_bindir)" ]; then missing+=(postgresql); fi
if ! command -v redis-server >/dev/null 2>&1; then missing+=(redis-server); fi
CHROMIUM=${PLAYWRIGHT_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
    [ "$CHROMIUM" = /usr/bin/chromium ] || die "PLAYWRIGHT_CHROMIUM=$CHROMIUM is not executable"
    missing+=(chromium)
fi
if [ "${#missing[@]}" -gt 0 ]; then
    apt_install "${missing[@]}"
fi
bash scripts/venv.sh dev
PYTHON=$PWD/.venv/bin/python

# --- throwaway services, always torn down ----------------------------------------------
SERVICES_DIR=$(mktemp -d "${TMPDIR:-/tmp}/muster-test.XXXXXX")

cleanup() {
    local rc=$?
    trap - EXIT INT TERM HUP
    set +e
    services_stop
    rm -rf "$SERVICES_DIR"
    log "services stopped, $SERVICES_DIR removed ($((SECONDS - START))s in all, exit $rc)"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

if [ "$DB" = postgres ]; then
    pg_port=$(free_port 54329)
    postgres_start "$pg_port"
    export DATABASE_URL="postgres://muster:muster@127.0.0.1:$pg_port/muster"
else
    unset DATABASE_URL
    export MUSTER_TEST_DB=sqlite
fi
redis_port=$(free_port 63799)
redis_start "$redis_port"
export TEST_REDIS_URL="redis://127.0.0.1:$redis_port/0"
unset REDIS_URL  # the app stays eager; tests that want Redis read TEST_REDIS_URL
unset DEBUG      # tests run like production (tests/plugin_env.py supplies SECRET_KEY)
export PLAYWRIGHT_CHROMIUM=$CHROMIUM
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

log "pytest on $DB ${*:+(args: $*)}"
set +e
.venv/bin/pytest "$@"
rc=$?
set -e
exit "$rc"

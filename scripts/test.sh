#!/usr/bin/env bash
# scripts/test.sh [pytest args...]     (what `make test` runs)
#
# DB=postgres (default): a throwaway PostgreSQL cluster; DB=sqlite: SQLite, no PostgreSQL.
# Always: a throwaway Redis (TEST_REDIS_URL) and the system Chromium (PLAYWRIGHT_CHROMIUM).
# Installs what is missing (dev requirements; Debian packages postgresql, redis-server, gettext,
# chromium, nginx-light), runs pytest, then stops every server and removes the temp dir, whatever
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
if [ ! -x /usr/sbin/nginx ]; then missing+=(nginx-light); fi
# xgettext and msgmerge: tests/test_catalogs.py extracts the marked phrases as `make messages` does
if ! command -v xgettext >/dev/null 2>&1 || ! command -v msgmerge >/dev/null 2>&1; then missing+=(gettext); fi
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
# pytest runs in the background so that a signal to this script is handled at once
# (bash defers traps until a foreground child exits): stop pytest, then clean up.
PYTEST_PID=""
on_signal() {
    local sig=$1 code=$2 _
    if [ -n "$PYTEST_PID" ]; then
        # Ctrl-C reached pytest too: let it finish its own interrupt first.
        if [ "$sig" = INT ]; then
            for _ in $(seq 50); do kill -0 "$PYTEST_PID" 2>/dev/null || break; sleep 0.1; done
        fi
        kill -TERM "$PYTEST_PID" 2>/dev/null || true
        wait "$PYTEST_PID" 2>/dev/null || true
    fi
    exit "$code"
}
trap cleanup EXIT
trap 'on_signal INT 130' INT
trap 'on_signal TERM 143' TERM
trap 'on_signal HUP 129' HUP

if [ "$DB" = postgres ]; then
    pg_port=$(free_port 54329)
    postgres_start "$pg_port"
    export DATABASE_URL="postgres://muster:muster@127.0.0.1:$pg_port/muster"
    # the cluster's socket folder, where only its superuser connects (the restore test needs it; another
    # run's leftover folder under /tmp must not be taken for this one)
    export TEST_PG_SOCKET_DIR="$SERVICES_DIR/postgres"
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
# (A background job would ignore Ctrl-C; `trap - INT` restores it for pytest.)
(trap - INT QUIT; exec .venv/bin/pytest "$@") &
PYTEST_PID=$!
set +e
wait "$PYTEST_PID"
rc=$?
set -e
PYTEST_PID=""
exit "$rc"

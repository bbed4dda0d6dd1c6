#!/usr/bin/env bash
# deploy/pg_restore.sh FILE: restore a dump of deploy/pg_backup.sh (pg_dump -Fc) into the database
# DATABASE_URL names, as the app's role (docs/operations.md, "Restoring PostgreSQL").
#
# The database must be new and empty, made by postgres with the app's role as its owner
# (createdb -O muster muster): the restore then runs as that role, so every table, sequence and index
# it makes is the app's own. Run as postgres instead, with --no-owner, the tables would be postgres's
# and the app would answer "permission denied for table ..." on every page. One transaction: a restore
# that fails leaves the database empty, to try again.
set -euo pipefail

die() { printf 'pg_restore.sh: %s\n' "$*" >&2; exit 1; }

if [ -z "${MUSTER_ENV_LOADED:-}" ]; then
    [ $# -eq 1 ] || die "usage: pg_restore.sh FILE (a dump written by deploy/pg_backup.sh)"
    exec "$(dirname "$(readlink -f "$0")")/muster-env" "$(readlink -f "$0")" "$(readlink -f "$1")"
fi
FILE=$1
[ -r "$FILE" ] || die "cannot read $FILE as $(id -un)"
case "${DATABASE_URL:-}" in
    postgres://* | postgresql://*) ;;
    *) die "DATABASE_URL in the env file is not a PostgreSQL URL: nothing to restore into" ;;
esac
tables=$(psql -X -A -t -d "$DATABASE_URL" -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") \
    || die "cannot connect with DATABASE_URL (above): make the database first (createdb -O muster muster, as postgres)"
[ "$tables" = 0 ] || die "the database already has $tables tables: restore into a new, empty one (docs/operations.md, Restoring PostgreSQL)"
pg_restore --no-owner --no-privileges --exit-on-error --single-transaction -d "$DATABASE_URL" "$FILE"

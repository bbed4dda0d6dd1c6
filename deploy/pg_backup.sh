#!/usr/bin/env bash
# deploy/pg_backup.sh: a pg_dump -Fc of the database DATABASE_URL names, as the app's role, into
# $BACKUP_DIR/postgres/muster-YYYY-MM-DD_HHMMSS.dump (UTC), keeping the newest BACKUP_KEEP (14) dumps
# there (docs/operations.md, "Backups and restore"; /etc/cron.d/muster-backup runs it nightly).
#
# It connects with DATABASE_URL from /etc/muster/env (deploy/muster-env runs it as the service user),
# so it needs no PostgreSQL superuser and works from any machine the app works from. The dump is
# written under a hidden .part name and renamed only once pg_dump succeeded and it is on disk: a failed
# run (a wrong password, a full disk, a kill) leaves no file that looks like a dump, nor an empty one
# in the way of the next run. Quiet when all went well (cron mails what it prints), except on a terminal.
set -euo pipefail

die() { printf 'pg_backup.sh: %s\n' "$*" >&2; exit 1; }

if [ -z "${MUSTER_ENV_LOADED:-}" ]; then
    exec "$(dirname "$(readlink -f "$0")")/muster-env" "$(readlink -f "$0")" "$@"
fi
[ $# -eq 0 ] || die "takes no arguments: it reads DATABASE_URL, BACKUP_DIR and BACKUP_KEEP from /etc/muster/env"
case "${DATABASE_URL:-}" in
    postgres://* | postgresql://*) ;;
    *) die "DATABASE_URL in the env file is not a PostgreSQL URL: there is nothing for pg_dump to dump" ;;
esac
[ -n "${BACKUP_DIR:-}" ] || die "set BACKUP_DIR in the env file (e.g. /var/backups/muster): the dumps go to its postgres/ folder"
KEEP=${BACKUP_KEEP:-14}
[[ "$KEEP" =~ ^[1-9][0-9]*$ ]] || die "BACKUP_KEEP must be a whole number of dumps to keep, at least 1, not '$KEEP'"
command -v pg_dump >/dev/null 2>&1 || die "pg_dump not found: apt-get install postgresql-client"

DIR=$BACKUP_DIR/postgres
mkdir -p "$DIR"
exec 9>"$DIR/.lock"
flock -n 9 || die "another pg_backup.sh is writing into $DIR: try again once it is done"
rm -f "$DIR"/.muster-*.dump.part  # left by a run that was killed (the lock says none runs now)

name=muster-$(date -u +%Y-%m-%d_%H%M%S)
suffix=""
while [ -e "$DIR/$name$suffix.dump" ]; do suffix=-$(( ${suffix#-} + 1 )); done
final=$DIR/$name$suffix.dump
part=$DIR/.$name$suffix.dump.part
trap 'rm -f "$part"' EXIT
pg_dump -Fc -d "$DATABASE_URL" -f "$part" || die "pg_dump failed (above): no dump written"
sync "$part"
mv "$part" "$final"
sync "$DIR"
trap - EXIT

# The newest KEEP dumps stay (their names sort by time); nothing else in the folder is touched.
mapfile -t dumps < <(find "$DIR" -maxdepth 1 -name 'muster-*.dump' -printf '%f\n' | sort)
for old in "${dumps[@]:0:$(( ${#dumps[@]} > KEEP ? ${#dumps[@]} - KEEP : 0 ))}"; do
    rm -f "$DIR/$old"
done
if [ -t 1 ]; then
    echo "$final ($(stat -c %s "$final") bytes; the newest $KEEP kept)"
fi

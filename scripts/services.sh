# Throwaway PostgreSQL and Redis for the test suite (sourced by scripts/test.sh).
#
# Everything lives in $SERVICES_DIR (a fresh temp dir): data, sockets, logs, pid files.
# Both servers listen on 127.0.0.1 only.  services_stop stops whatever was started and
# is safe to call more than once, or when nothing started.
#
# Needs: scripts/lib.sh sourced, SERVICES_DIR and PYTHON set.

PG_STARTED=""
PG_BIN=""
PG_DATA=""
REDIS_STARTED=""

# Run a PostgreSQL binary as the cluster owner: initdb refuses root, so root runs it as
# the `postgres` system user; anyone else runs it as themselves.
_as_pg() {
    if is_root; then
        (cd "$SERVICES_DIR" && runuser -u postgres -- "$@")
    else
        "$@"
    fi
}

# postgres_start PORT : a cluster with role and database `muster` (password `muster`).
postgres_start() {
    local port=$1
    PG_BIN=$(postgres_bindir)
    [ -n "$PG_BIN" ] || die "PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin"
    local pgdir="$SERVICES_DIR/postgres"
    PG_DATA="$pgdir/data"
    mkdir -p "$pgdir"
    if is_root; then
        id postgres >/dev/null 2>&1 || die "no 'postgres' system user to run PostgreSQL as"
        chmod 711 "$SERVICES_DIR"
        chown postgres: "$pgdir"
    fi
    _as_pg "$PG_BIN/initdb" -D "$PG_DATA" -U postgres -E UTF8 --locale=C.UTF-8 \
        --auth-local=trust --auth-host=scram-sha-256 --no-sync >"$SERVICES_DIR/initdb.log" 2>&1 \
        || { cat "$SERVICES_DIR/initdb.log" >&2; die "initdb failed"; }
    cat >>"$PG_DATA/postgresql.conf" <<CONF

# --- throwaway test cluster (scripts/services.sh) ---
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$pgdir'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 50
CONF
    PG_STARTED=1
    _as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$pgdir/postgres.log" -w -t 60 start >/dev/null \
        || { cat "$pgdir/postgres.log" >&2; die "PostgreSQL did not start"; }
    "$PG_BIN/psql" -h "$pgdir" -p "$port" -U postgres -d postgres -X -q -v ON_ERROR_STOP=1 \
        -c "CREATE ROLE muster LOGIN CREATEDB PASSWORD 'muster'" \
        -c "CREATE DATABASE muster OWNER muster" >/dev/null
    log "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
}

postgres_stop() {
    [ -n "$PG_STARTED" ] || return 0
    PG_STARTED=""
    if [ -f "$PG_DATA/postmaster.pid" ]; then
        if ! _as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast -w -t 30 stop >/dev/null 2>&1; then
            local pid
            pid=$(head -n 1 "$PG_DATA/postmaster.pid" 2>/dev/null || true)
            [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
        fi
    fi
}

# redis_start PORT
redis_start() {
    local port=$1
    command -v redis-server >/dev/null 2>&1 || die "redis-server not found"
    local dir="$SERVICES_DIR/redis"
    mkdir -p "$dir"
    REDIS_STARTED=1
    redis-server --bind 127.0.0.1 --port "$port" --save "" --appendonly no \
        --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --dir "$dir" \
        || die "redis-server did not start"
    local _
    for _ in $(seq 100); do
        if "$PYTHON" -c 'import socket,sys; s=socket.create_connection(("127.0.0.1",int(sys.argv[1])),1); s.sendall(b"PING\r\n"); sys.exit(s.recv(7)!=b"+PONG\r\n")' "$port" 2>/dev/null; then
            log "Redis $(redis-server --version | grep -o 'v=[^ ]*' | cut -c3-) on 127.0.0.1:$port"
            return 0
        fi
        sleep 0.1
    done
    cat "$dir/redis.log" >&2 || true
    die "Redis did not answer on 127.0.0.1:$port"
}

redis_stop() {
    [ -n "$REDIS_STARTED" ] || return 0
    REDIS_STARTED=""
    local pidfile="$SERVICES_DIR/redis/redis.pid" pid _
    pid=$(cat "$pidfile" 2>/dev/null || true)
    [ -n "$pid" ] || return 0
    kill "$pid" 2>/dev/null || return 0
    for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
}

services_stop() {
    postgres_stop
    redis_stop
}

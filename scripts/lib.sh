# Shared helpers for scripts/*.sh (sourced, not run).  Bash only.

log() { printf '\033[1m[muster]\033[0m %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

is_root() { [ "$(id -u)" -eq 0 ]; }

# Run a command as root: directly when root, else with sudo if there is one.
as_root() {
    if is_root; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        die "need root to run '$*' (not root, and no sudo)"
    fi
}

# apt_install PACKAGE... : install Debian packages, updating the index first (once).
_APT_UPDATED=""
apt_install() {
    command -v apt-get >/dev/null 2>&1 || die "apt-get not found: install $* by hand"
    if [ -z "$_APT_UPDATED" ]; then
        log "apt-get update"
        as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        _APT_UPDATED=1
    fi
    log "apt-get install $*"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

# The newest installed PostgreSQL server binaries (Debian layout), or nothing.
postgres_bindir() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
        echo "$dir"
    fi
}

# free_port PREFERRED : print PREFERRED if nothing listens on 127.0.0.1 there, else any free port.
free_port() {
    "$PYTHON" - "$1" <<'PY'
import socket, sys

def bindable(port):
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as servers do: TIME_WAIT is no conflict
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True

port = int(sys.argv[1])
if not bindable(port):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
print(port)
PY
}

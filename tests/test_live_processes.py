"""The live push through real servers started as ``make run`` starts them (scripts/serve.py: uvicorn).

Two server processes on one database, joined by Redis: a phone's push connection on one server
hears about an action posted to the other, and then fetches its new view there. Without Redis one
server pushes to its own phones through the in-process channel layer. A push carries the key only
(muster/live.py); what the phone shows comes from its own fetch.

The servers listen on 127.0.0.1 and 127.0.0.2 (the venue address), SQLite files in temporary
directories; the Redis is the suite's throwaway one (TEST_REDIS_URL). Traffic stays on loopback.
"""

import json
import os
import urllib.parse

import pytest
import redis
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tabletop.engines import get_engine

from tests.venue_server import GM_HOST, VENUE_HOST, Client, VenueServer

pytestmark = pytest.mark.venue

PUSH_WAIT = 10  # seconds a push may take before the test gives up (a bound, not a measurement)


def redis_url(database: int) -> str:
    """The suite's throwaway Redis, database ``database`` of it, emptied: the servers of one test share it with
    no other test's. Each server starts on a new SQLite file whose tables take the ids an earlier test's tables
    had, and an earlier server still running would tell this test's phones about its own table of that id (a
    seat's phone away: tabletop/away.py, muster/presence.py), as two instances on one Redis database would."""
    url = os.environ.get("TEST_REDIS_URL", "")
    if not url:
        pytest.skip("TEST_REDIS_URL is unset: two server processes share their push only through Redis (make test)")
    url = urllib.parse.urlsplit(url)._replace(path=f"/{database}").geturl()
    redis.Redis.from_url(url).flushdb()
    return url


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory):
    """Servers A and B, each one process, on one SQLite file, their push through Redis."""
    url = redis_url(1)
    shared = tmp_path_factory.mktemp("live-shared") / "db.sqlite3"
    environment = {"REDIS_URL": url, "WEB_CONCURRENCY": "1"}
    servers = []
    try:
        for name in ("a", "b"):  # one after the other: each migrates the file first
            directory = tmp_path_factory.mktemp(f"live-{name}")
            servers.append(VenueServer(directory, environment=environment, database=shared).start())
        yield servers
    finally:
        for server in servers:
            server.stop()


@pytest.fixture(scope="module")
def lone_server(tmp_path_factory):
    """``make run`` as it is on game day: no Redis, one process, the in-process layer."""
    server = VenueServer(tmp_path_factory.mktemp("live-lone")).start()
    yield server
    server.stop()


def table_version(server: VenueServer, table_id: int) -> int:
    ((version,),) = server.query("SELECT version FROM tabletop_table WHERE id = ?", [table_id])
    return version


def first_seat_acts(server: VenueServer, table: dict) -> tuple[str, int, dict]:
    """The token of a seat that acts now, the table's version and a legal action of that seat."""
    ((state, version),) = server.query("SELECT state, version FROM tabletop_table WHERE id = ?", [table["id"]])
    state = json.loads(state)
    engine = get_engine("gridaris")
    seat = engine.to_act(state)[0]
    action = next(action for action in engine.legal_actions(state) if action["seat"] == seat)
    return table["tokens"][seat], version, action


def tap(phone: Client, token: str, version: int, action: dict) -> int:
    """What the seat page's button posts (htmx, CSRF token in the form and the header)."""
    return phone.act(token, version, action)


def next_key(socket) -> str:
    """The next key pushed on ``socket``, waiting at most PUSH_WAIT seconds."""
    return json.loads(socket.recv(timeout=PUSH_WAIT))["key"]


def poll(phone: Client, token: str, key: str):
    return phone.request("GET", f"/play/{token}/poll/?v={key}", headers={"HX-Request": "true"})


def member_seat_token(server: VenueServer, username: str) -> str:
    """The token of the demo table's seat of ``username`` (load_demo's 'Gridaris at the Inn')."""
    sql = """SELECT s.token FROM tabletop_seat s JOIN campaign_membership m ON m.id = s.membership_id
             JOIN auth_user u ON u.id = m.user_id WHERE u.username = ? ORDER BY s.id LIMIT 1"""
    ((token,),) = server.query(sql, [username])
    return token


# --- two server processes, one Redis ---------------------------------------------------------------


def test_an_action_posted_to_one_server_reaches_a_phone_connected_to_the_other(two_servers):
    server_a, server_b = two_servers
    table = server_a.seed("tables", "1")["tables"][0]
    token, version, action = first_seat_acts(server_a, table)
    watcher_token = next(t for t in table["tokens"] if t != token)  # the other seat's phone, on B
    watcher = Client(VENUE_HOST, server_b.port)
    assert watcher.request("GET", f"/play/{watcher_token}/").status == 200
    with watcher.websocket(f"/ws/play/{watcher_token}/") as socket:
        assert next_key(socket) == str(version)  # on connect: the key now
        assert poll(watcher, watcher_token, str(version)).status == 204

        actor = Client(VENUE_HOST, server_a.port)
        assert tap(actor, token, version, action) == 200
        assert next_key(socket) == str(version + 1)  # through Redis, from A's process to B's

    assert table_version(server_b, table["id"]) == version + 1
    caught_up = poll(watcher, watcher_token, str(version))
    assert caught_up.status == 200
    assert 'id="live"' in caught_up.body and f'data-version="{version + 1}"' in caught_up.body
    assert poll(watcher, watcher_token, str(version + 1)).status == 204


def test_every_page_of_the_table_on_either_server_hears_the_move(two_servers):
    """The GM's tablet (a member's socket, its login's cookies) on A and both phones on B and A."""
    server_a, server_b = two_servers
    table = server_a.seed("tables", "1")["tables"][0]
    token, version, action = first_seat_acts(server_a, table)
    gm = Client(GM_HOST, server_a.port)
    gm.log_in("gm", server_a.password("gm"))
    phones = [Client(VENUE_HOST, server.port) for server in (server_b, server_a)]
    sockets = [gm.websocket(f"/ws/c/distelblute/tables/{table['id']}/")]
    pairs = zip(phones, table["tokens"], strict=True)
    sockets += [phone.websocket(f"/ws/play/{seat_token}/") for phone, seat_token in pairs]
    try:
        assert [next_key(socket) for socket in sockets] == [str(version)] * 3
        assert tap(Client(VENUE_HOST, server_b.port), token, version, action) == 200
        assert [next_key(socket) for socket in sockets] == [str(version + 1)] * 3
    finally:
        for socket in sockets:
            socket.close()


def test_with_redis_make_run_serves_from_several_processes_and_sigterm_stops_them_all(tmp_path):
    import psutil

    server = VenueServer(tmp_path, environment={"REDIS_URL": redis_url(2), "WEB_CONCURRENCY": "2"}).start()
    try:
        assert "Live push through Redis: 2 server processes." in server.output
        workers = [
            child
            for child in psutil.Process(server.process.pid).children()
            if "spawn_main" in " ".join(child.cmdline())
        ]
        assert len(workers) == 2
        table = server.seed("tables", "1")["tables"][0]
        token, version, action = first_seat_acts(server, table)
        phones = [Client(VENUE_HOST, server.port) for _ in range(4)]  # the kernel spreads them over both
        sockets = [phone.websocket(f"/ws/play/{table['tokens'][0]}/") for phone in phones]
        try:
            assert [next_key(socket) for socket in sockets] == [str(version)] * 4
            assert tap(Client(VENUE_HOST, server.port), token, version, action) == 200
            assert [next_key(socket) for socket in sockets] == [str(version + 1)] * 4
        finally:
            for socket in sockets:
                socket.close()
    finally:
        server.stop()
    assert server.process.returncode is not None
    assert not [worker for worker in workers if worker.is_running() and worker.status() != psutil.STATUS_ZOMBIE]


# --- one server, no Redis: the in-process layer ------------------------------------------------------


def test_make_run_is_one_process_that_pushes_to_its_own_phones(lone_server):
    assert "Live push within this one server process (no Redis)" in lone_server.output
    table = lone_server.seed("tables", "1")["tables"][0]
    token, version, action = first_seat_acts(lone_server, table)
    phones = [Client(VENUE_HOST, lone_server.port) for _ in table["tokens"]]
    pairs = zip(phones, table["tokens"], strict=True)
    sockets = [phone.websocket(f"/ws/play/{seat_token}/") for phone, seat_token in pairs]
    try:
        assert [next_key(socket) for socket in sockets] == [str(version)] * 2
        acting_phone = phones[table["tokens"].index(token)]
        assert tap(acting_phone, token, version, action) == 200
        assert [next_key(socket) for socket in sockets] == [str(version + 1)] * 2  # the actor's own phone too
    finally:
        for socket in sockets:
            socket.close()


def test_a_members_seat_pushes_only_to_that_members_login(lone_server):
    token = member_seat_token(lone_server, "ann")
    ann = Client(VENUE_HOST, lone_server.port)
    ann.log_in("ann", lone_server.password("ann"))
    sql = "SELECT t.version FROM tabletop_table t JOIN tabletop_seat s ON s.table_id = t.id WHERE s.token = ?"
    ((version,),) = lone_server.query(sql, [token])
    with ann.websocket(f"/ws/play/{token}/") as socket:
        assert next_key(socket) == str(version)

    ben = Client(VENUE_HOST, lone_server.port)
    ben.log_in("ben", lone_server.password("ben"))
    for stranger in (Client(VENUE_HOST, lone_server.port), ben):  # no login; another member's login
        assert_refused(stranger, f"/ws/play/{token}/")
    assert_refused(Client(VENUE_HOST, lone_server.port), "/ws/play/not-a-real-token/")


def test_a_socket_from_a_page_of_another_origin_is_refused(lone_server):
    """AllowedHostsOriginValidator: a page on a host the server does not serve cannot listen in."""
    table = lone_server.seed("tables", "1")["tables"][0]
    stranger = Client(VENUE_HOST, lone_server.port, host_header="evil.example")
    with pytest.raises(InvalidStatus) as refusal:
        stranger.websocket(f"/ws/play/{table['tokens'][0]}/")
    assert refusal.value.response.status_code == 403


def test_a_refused_socket_is_closed_with_the_refusal_code(lone_server):
    token = member_seat_token(lone_server, "ann")
    with Client(VENUE_HOST, lone_server.port).websocket(f"/ws/play/{token}/") as socket:
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=PUSH_WAIT)
    assert closed.value.rcvd.code == 4403


def assert_refused(device: Client, path: str) -> None:
    """The server refuses the socket: no key is ever sent (the handshake answers 403, or the socket
    is closed with 4403 once accepted)."""
    try:
        socket = device.websocket(path)
    except InvalidStatus as refusal:
        assert refusal.response.status_code == 403
        return
    with socket:
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=PUSH_WAIT)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403


# --- what a page may not do ------------------------------------------------------------------------


def test_a_frame_over_a_few_kilobytes_is_refused_with_1009_before_it_is_read(lone_server):
    table = lone_server.seed("tables", "1")["tables"][0]
    phone = Client(VENUE_HOST, lone_server.port)
    with phone.websocket(f"/ws/play/{table['tokens'][0]}/") as socket:
        next_key(socket)
        with pytest.raises(ConnectionClosed) as closed:
            socket.send(b"x" * 1_000_000)
            socket.recv(timeout=PUSH_WAIT)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big


def test_a_small_message_closes_the_socket_and_an_unknown_route_is_refused_in_one_line(lone_server):
    table = lone_server.seed("tables", "1")["tables"][0]
    phone = Client(VENUE_HOST, lone_server.port)
    with phone.websocket(f"/ws/play/{table['tokens'][0]}/") as socket:
        next_key(socket)
        socket.send("hello")
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=PUSH_WAIT)
    assert closed.value.rcvd.code == 1003
    with pytest.raises(InvalidStatus) as refused:
        phone.websocket("/ws/c/x/")
    assert refused.value.response.status_code == 403
    assert "403 WS /ws/c/x/ user=-: no such websocket route" in lone_server.output
    assert "Traceback" not in lone_server.output

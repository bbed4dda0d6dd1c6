"""Phones join ``make run``: the server listens on the network, prints its address, links carry it.

The end-to-end tests start the server exactly as ``make run`` does (scripts/serve.py: uvicorn,
one process, DEBUG off, SQLite, WhiteNoise) on 127.0.0.1 and 127.0.0.2, where 127.0.0.2 stands for the venue
address phones use. Traffic stays on loopback.
"""

import json
import os
import re
import subprocess
import sys

import pytest
import segno
from django.urls import reverse
from websockets.exceptions import InvalidStatus

from armies.demo_logins import LEGACY_PASSWORD, read_logins

from tests.factories import gridaris_table
from tests.venue_server import GM_HOST, VENUE_HOST, Client, VenueServer, load_serve_script

DEBUG_PAGE_MARKERS = ("Traceback", "DEBUG = True", "Django tried these URL patterns", "DisallowedHost", "Help</h2>")


def join_links(html: str) -> list[str]:
    """The join links the GM's table page shows (one per seat)."""
    return re.findall(r'class="join-url"[^>]*value="([^"]+)"', html)


# --- the join links, through the test client ------------------------------------------------------


def test_join_links_and_qr_codes_carry_the_public_address_when_the_gm_browses_via_localhost(
    client, world, settings
):
    settings.PUBLIC_BASE_URL = "http://127.0.0.2:8000"
    table = gridaris_table(world.campaign, [world.ann, "Gus the guest"])
    client.force_login(world.gm.user)
    html = client.get(reverse("tabletop:gm_table", args=[table.campaign.slug, table.pk]), HTTP_HOST="localhost").content
    html = html.decode()
    guest_url = f"http://127.0.0.2:8000/play/{table.seats.get(index=1).token}/"
    assert guest_url in join_links(html)
    assert not [link for link in join_links(html) if not link.startswith("http://127.0.0.2:8000/play/")]
    assert segno.make(guest_url, error="m").svg_data_uri(scale=4) in html  # the QR code encodes that link


def test_without_a_public_address_join_links_use_the_host_the_request_came_to(client, world, settings):
    settings.PUBLIC_BASE_URL = ""
    table = gridaris_table(world.campaign, ["Gus the guest", "Gia the guest"])
    client.force_login(world.gm.user)
    html = client.get(reverse("tabletop:gm_table", args=[table.campaign.slug, table.pk]), HTTP_HOST="localhost")
    assert f"http://localhost/play/{table.seats.get(index=0).token}/" in join_links(html.content.decode())


# --- the serve script's choices ----------------------------------------------------------------------


def test_make_run_listens_on_every_interface_and_advertises_the_venue_address():
    serve = load_serve_script()
    venue = serve.venue_from_environment({"MUSTER_HOST": "192.168.1.20"})
    assert venue.addresses == [("0.0.0.0", 8000)]
    assert venue.base_url == "http://192.168.1.20:8000"
    assert venue.allowed_hosts == ["localhost", "127.0.0.1", "192.168.1.20"]


def test_a_specific_bind_address_is_also_an_allowed_host_and_no_local_address_is_promised():
    serve = load_serve_script()
    venue = serve.venue_from_environment({"MUSTER_HOST": "192.168.1.20", "MUSTER_BIND": "127.0.0.2,0.0.0.0"})
    assert venue.allowed_hosts == ["localhost", "127.0.0.1", "192.168.1.20", "127.0.0.2"]
    only_venue = serve.venue_from_environment({"MUSTER_HOST": "127.0.0.2", "MUSTER_BIND": "127.0.0.2"})
    assert "On this machine" not in serve.banner(only_venue)
    assert "On this machine: http://127.0.0.1:8000/" in serve.banner(venue)


def test_the_server_runs_with_debug_off_over_plain_http():
    serve = load_serve_script()
    venue = serve.venue_from_environment({"MUSTER_HOST": "127.0.0.2", "MUSTER_PORT": "9000"})
    env = serve.server_environment(venue, {"DEBUG": "1", "SECRET_KEY": "given"})
    assert env["DEBUG"] == "0" and env["MUSTER_VENUE"] == "1" and env["SECRET_KEY"] == "given"
    assert env["PUBLIC_BASE_URL"] == "http://127.0.0.2:9000"
    assert env["MUSTER_ASGI"] == "1"  # migrate and the served application read the same settings


def test_without_redis_it_is_one_process_whatever_the_concurrency_asked():
    """The in-process channel layer reaches only its own process's pages: a second process would
    leave the phones connected to it deaf to actions posted to the first."""
    serve = load_serve_script()
    assert serve.processes({}) == 1
    assert serve.processes({"WEB_CONCURRENCY": "4"}) == 1
    assert serve.processes({"REDIS_URL": "redis://127.0.0.1:6379/0"}) == 2
    assert serve.processes({"REDIS_URL": "redis://127.0.0.1:6379/0", "WEB_CONCURRENCY": "3"}) == 3


def test_uvicorn_serves_the_asgi_application_with_pings_and_no_access_log():
    config = load_serve_script().uvicorn_config(1)
    assert config.app == "muster.asgi:application"
    assert (config.loop, config.http, config.ws) == ("uvloop", "httptools", "websockets-sansio")
    assert (config.ws_ping_interval, config.ws_ping_timeout) == (20, 20)
    assert config.ws_max_size == 4096  # pages send nothing: no 16 MB frames
    assert not config.access_log and not config.proxy_headers
    assert config.lifespan == "on"  # its shutdown stops the computer's pool (muster/lifespan.py)


def test_every_bind_address_gets_a_listening_socket_before_the_server_starts():
    from tests.venue_server import free_port

    serve = load_serve_script()
    port = free_port(GM_HOST, VENUE_HOST)
    sockets = serve.listening_sockets(serve.Venue(host=VENUE_HOST, binds=(GM_HOST, VENUE_HOST), port=port))
    try:
        assert [sock.getsockname() for sock in sockets] == [(GM_HOST, port), (VENUE_HOST, port)]
        assert all(sock.get_inheritable() for sock in sockets)  # shared with the server processes
        with pytest.raises(SystemExit, match=f"Cannot listen on {GM_HOST} port {port}"):
            serve.listening_sockets(serve.Venue(host=VENUE_HOST, binds=(GM_HOST,), port=port))
    finally:
        for sock in sockets:
            sock.close()


SECURITY_SETTINGS = ("SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS")


def production_settings(names=SECURITY_SETTINGS, **environment) -> dict:
    """The settings ``names`` (default: the security ones) muster/settings.py computes in a fresh process for
    ``environment``."""
    from tests.venue_server import ROOT

    names = list(names)
    code = f"import json; from muster import settings as s; print(json.dumps({{n: getattr(s, n) for n in {names!r}}}))"
    env = {"PATH": os.environ["PATH"], "DEBUG": "0", "SECRET_KEY": "settings-test", **environment}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_venue_mode_serves_plain_http_and_production_keeps_https_only():
    assert production_settings() == {
        "SECURE_SSL_REDIRECT": True,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_HSTS_SECONDS": 31536000,
    }
    assert production_settings(MUSTER_VENUE="1") == {
        "SECURE_SSL_REDIRECT": False,
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
        "SECURE_HSTS_SECONDS": 0,
    }


def test_make_runs_log_shows_warnings_and_errors_and_production_keeps_info():
    """make run's terminal (MUSTER_VENUE) shows no INFO line, Celery's and kombu's not even at LOG_LEVEL=INFO;
    production logs at INFO (issue 35). A terminal's view of it: tests/test_serving_terminal.py."""
    def levels(**environment) -> tuple[str, str | None]:
        logging = production_settings(["LOGGING"], **environment)["LOGGING"]
        return logging["root"]["level"], logging["loggers"].get("celery", {}).get("level")

    assert levels() == ("INFO", None)
    assert levels(LOG_LEVEL="DEBUG") == ("DEBUG", None)
    assert levels(MUSTER_VENUE="1") == ("WARNING", "WARNING")
    assert levels(MUSTER_VENUE="1", LOG_LEVEL="INFO") == ("INFO", "WARNING")


def test_the_in_memory_broker_names_its_host_so_kombu_has_nothing_to_warn_about(caplog):
    from django.conf import settings
    from kombu import Connection

    assert not settings.CELERY_BROKER_URL.startswith("redis")
    Connection(settings.CELERY_BROKER_URL).info()
    assert "No hostname was supplied" not in caplog.text


def test_the_secret_key_is_generated_once_and_kept(tmp_path):
    serve = load_serve_script()
    first = serve.secret_key(tmp_path / "key")
    assert len(first) >= 50
    assert serve.secret_key(tmp_path / "key") == first
    assert (tmp_path / "key").stat().st_mode & 0o077 == 0


def test_the_secret_key_file_is_ignored_by_git():
    from tests.venue_server import ROOT

    assert ".secret_key" in (ROOT / ".gitignore").read_text().split()


# --- a real server, started as make run starts it ----------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    venue = VenueServer(tmp_path_factory.mktemp("venue")).start()
    yield venue
    venue.stop()


@pytest.fixture(scope="module")
def guest_table(server):
    return server.seed("tables", "1")["tables"][0]


@pytest.mark.venue
def test_the_terminal_shows_the_address_phones_open_a_qr_code_and_the_demo_logins(server):
    output = server.output
    assert f"http://{VENUE_HOST}:{server.port}/" in output
    assert "▀" in output and "█" in output  # the QR code, drawn in the terminal
    assert "DEBUG is off" in output
    assert re.search(rf"^\s+gm\s+{re.escape(server.password('gm'))}\s", output, re.MULTILINE)


@pytest.mark.venue
def test_the_demo_logins_are_generated_kept_private_and_printed_only_on_the_terminal(server):
    """Nobody on the Wi-Fi knows a demo password: each is generated, kept in a 0600 file, shown here."""
    logins = read_logins(server.logins_path)
    assert sorted(logins) == ["admin", "ann", "ben", "cara", "gm"]
    assert LEGACY_PASSWORD not in logins.values() and LEGACY_PASSWORD not in server.output
    assert server.logins_path.stat().st_mode & 0o777 == 0o600
    assert all(f"{username:<7} {password}" in server.output for username, password in logins.items())
    phone = Client(VENUE_HOST, server.port)
    phone.request("GET", "/accounts/login/")
    refused = phone.request(
        "POST",
        "/accounts/login/",
        {"username": "admin", "password": LEGACY_PASSWORD, "csrfmiddlewaretoken": phone.csrf_token()},
    )
    assert refused.status == 200 and "sessionid" not in phone.cookies  # the form again, no session
    phone.log_in("admin", logins["admin"])
    assert phone.request("GET", "/admin/").status == 200


@pytest.mark.venue
def test_the_server_is_reached_at_the_venue_address_beyond_127_0_0_1(server):
    for host in (VENUE_HOST, GM_HOST):
        reply = Client(host, server.port).request("GET", "/healthz")
        assert (reply.status, json.loads(reply.body)) == (200, {"status": "ok"})


@pytest.mark.venue
@pytest.mark.parametrize("gm_host", ["127.0.0.1", "localhost"])
def test_the_gm_page_seen_via_localhost_gives_join_links_on_the_venue_address(server, guest_table, gm_host):
    gm = Client(GM_HOST, server.port, host_header=f"{gm_host}:{server.port}")
    gm.log_in("gm", server.password("gm"))
    page = gm.request("GET", f"/c/distelblute/tables/{guest_table['id']}/")
    assert page.status == 200
    links = join_links(page.body)
    assert f"http://{VENUE_HOST}:{server.port}/play/{guest_table['tokens'][0]}/" in links
    assert all(link.startswith(f"http://{VENUE_HOST}:{server.port}/") for link in links)


@pytest.mark.venue
def test_a_second_device_joins_a_guest_seat_through_its_link_at_the_venue_address(server, guest_table):
    gm = Client(GM_HOST, server.port)
    gm.log_in("gm", server.password("gm"))
    links = join_links(gm.request("GET", f"/c/distelblute/tables/{guest_table['id']}/").body)
    phone_link = next(link for link in links if guest_table["tokens"][1] in link)
    path = phone_link.removeprefix(f"http://{VENUE_HOST}:{server.port}")
    phone = Client(VENUE_HOST, server.port)
    seat = phone.request("GET", path)
    assert seat.status == 200
    assert "Guest 1b" in seat.body and 'name="csrfmiddlewaretoken"' in seat.body


@pytest.mark.venue
def test_a_phone_logs_in_over_plain_http_without_being_sent_to_https(server):
    phone = Client(VENUE_HOST, server.port)
    login = phone.request("GET", "/accounts/login/")
    assert login.status == 200  # no redirect to https://
    phone.log_in("ann", server.password("ann"))
    home = phone.request("GET", "/")
    assert home.status == 200 and "Distelblute" in home.body
    assert "strict-transport-security" not in home.headers


@pytest.mark.venue
def test_a_page_on_another_port_of_the_venue_address_cannot_open_the_push(server, guest_table):
    """Same host, other port (another program on the laptop): not the site's own origin (muster/origin.py)."""
    phone = Client(VENUE_HOST, server.port)
    path = f"/ws/play/{guest_table['tokens'][0]}/"
    with pytest.raises(InvalidStatus) as refusal:
        phone.websocket(path, origin=f"http://{VENUE_HOST}:{server.port + 1}")
    assert refusal.value.response.status_code == 403
    with phone.websocket(path) as socket:  # its own origin, port and all
        assert json.loads(socket.recv(timeout=10))["key"]


@pytest.mark.venue
def test_static_files_are_served_by_whitenoise_under_hashed_names(server):
    phone = Client(VENUE_HOST, server.port)
    page = phone.request("GET", "/accounts/login/").body
    stylesheet = re.search(r'href="(/static/css/muster\.[0-9a-f]{12}\.css)"', page).group(1)
    reply = phone.request("GET", stylesheet)
    assert reply.status == 200 and "immutable" in reply.headers["cache-control"]


@pytest.mark.venue
@pytest.mark.parametrize(
    "method, path, host, status",
    [
        ("GET", "/no-such-page/", None, 404),
        ("GET", "/play/not-a-real-token/", None, 404),
        ("GET", "/healthz", "evil.example", 400),  # a host it does not serve
        ("POST", "/accounts/login/", None, 403),  # no CSRF token
    ],
)
def test_errors_show_no_debug_page_or_traceback(server, method, path, host, status):
    phone = Client(VENUE_HOST, server.port, host_header=host)
    reply = phone.request(method, path, {} if method == "POST" else None)
    assert reply.status == status
    assert not [marker for marker in DEBUG_PAGE_MARKERS if marker in reply.body]


@pytest.mark.venue
@pytest.mark.browser
def test_a_phone_scans_the_join_link_and_plays_while_the_gm_tablet_follows(server, guest_table):
    """The whole game day path in Chromium: the GM's tablet on 127.0.0.1, a guest's phone through the
    link the tablet shows (on 127.0.0.2); the phone's move reaches the tablet (static files, htmx, the push)."""
    from tests.browser import PHONE, TABLET, chromium, wait_for_version

    local, venue = f"http://{GM_HOST}:{server.port}", f"http://{VENUE_HOST}:{server.port}"
    with chromium() as browser:
        tablet = browser.new_context(**TABLET).new_page()
        server.log_in(tablet)
        tablet.goto(f"{local}/c/distelblute/tables/{guest_table['id']}/")
        version = int(tablet.get_attribute("#live", "data-version"))
        link = tablet.locator(".join-url").first.input_value()
        assert link == f"{venue}/play/{guest_table['tokens'][0]}/"

        phone = browser.new_context(**PHONE).new_page()
        phone.goto(link)
        wait_for_version(phone, version)
        phone.locator(".hand-card input[type=radio]").first.check()
        phone.locator("button.cell.playable").first.click()
        wait_for_version(phone, version + 1)
        wait_for_version(tablet, version + 1)  # the push (or, without it, the poll) brought the move


def test_the_banner_gives_the_owners_link_on_the_venue_address_and_on_this_machine():
    serve = load_serve_script()
    venue = serve.venue_from_environment({"MUSTER_HOST": "192.168.1.20"})
    banner = serve.banner(venue, owner_path="/owner/T0KEN/")
    assert "http://192.168.1.20:8000/owner/T0KEN/" in banner and "http://127.0.0.1:8000/owner/T0KEN/" in banner
    assert "once" in banner
    assert "/owner/" not in serve.banner(venue)
    elsewhere = serve.venue_from_environment({"MUSTER_HOST": "192.168.1.20", "MUSTER_BIND": "192.168.1.20"})
    assert "127.0.0.1" not in serve.banner(elsewhere, owner_path="/owner/T0KEN/")


@pytest.mark.venue
def test_the_terminal_gives_a_one_time_link_that_makes_the_owners_own_account(server):
    """The owner's link (issue 35): on this terminal only, on both addresses; it makes one account, staff
    when ticked, logs it in on the home page; a second use is refused, and the log never shows the token."""
    links = server.owner_links()
    token = links[0].rsplit("/", 2)[-2]
    assert sorted(links) == sorted([f"http://{GM_HOST}:{server.port}/owner/{token}/",
                                    f"http://{VENUE_HOST}:{server.port}/owner/{token}/"])
    [(stored,)] = server.query("SELECT token_hash FROM people_ownerlink")
    assert len(token) == 32 and token not in stored  # only its hash
    laptop = Client(GM_HOST, server.port)
    page = laptop.request("GET", f"/owner/{token}/")
    assert page.status == 200 and 'name="staff"' in page.body
    submission = re.search(r'name="submission" value="([^"]+)"', page.body).group(1)
    form = {"username": "olga", "display_name": "Olga", "password1": "lantern-quarry-91",
            "password2": "lantern-quarry-91", "staff": "on", "submission": submission,
            "csrfmiddlewaretoken": laptop.csrf_token()}
    made = laptop.request("POST", f"/owner/{token}/", form)
    assert made.status == 302 and made.headers["location"] == "/"
    home = laptop.request("GET", "/")
    assert home.status == 200 and "New campaign" in home.body
    assert server.query("SELECT is_staff, first_name FROM auth_user WHERE username = 'olga'") == [(1, "Olga")]
    phone = Client(VENUE_HOST, server.port)
    again = phone.request("GET", f"/owner/{token}/")
    assert again.status == 410 and "works once" in again.body
    assert "/owner/***/" in server.output and server.output.count(token) == 2  # the two links printed, no more


def test_muster_demo_0_asks_for_no_demo():
    serve = load_serve_script()
    assert serve.demo_wanted({}) and serve.demo_wanted({"MUSTER_DEMO": "1"})
    assert not [value for value in ("0", "no", "off", "false", " OFF ") if serve.demo_wanted({"MUSTER_DEMO": value})]
    venue = serve.venue_from_environment({"MUSTER_HOST": "192.168.1.20"})
    assert "http://127.0.0.1:8000/signup/" in serve.banner(venue, demo=False)
    assert "signup" not in serve.banner(venue)


@pytest.mark.venue
def test_make_run_demo_0_serves_with_no_demo_users_and_the_first_account_page_open(tmp_path):
    server = VenueServer(tmp_path, environment={"MUSTER_DEMO": "0"}).start()
    try:
        assert server.query("SELECT count(*) FROM auth_user") == [(0,)]
        assert server.query("SELECT count(*) FROM campaign_campaign") == [(0,)]
        assert not server.logins_path.exists() and "Logins" not in server.output
        assert f"http://{GM_HOST}:{server.port}/signup/" in server.output
        signup = Client(GM_HOST, server.port).request("GET", "/signup/")
        assert signup.status == 200 and 'name="password1"' in signup.body
    finally:
        server.stop()


def test_a_served_sqlite_process_keeps_each_threads_connection_and_postgresql_takes_them_from_its_pool():
    """make run's server (SQLite) keeps a connection per thread between requests (issue 40: opening and
    closing one per request, its functions registered each time, was a tenth of an action's CPU); a served
    PostgreSQL process takes its connections from the pool, which persistent connections would defeat."""

    def served(url: str, **environment) -> dict:
        default = production_settings(["DATABASES"], DATABASE_URL=url, **environment)["DATABASES"]["default"]
        return {"max_age": default["CONN_MAX_AGE"], "pool": "pool" in default.get("OPTIONS", {})}

    sqlite, postgres = "sqlite:////tmp/muster-settings-test.sqlite3", "postgres://u:p@127.0.0.1:5432/d"
    assert served(sqlite, MUSTER_ASGI="1") == {"max_age": 60, "pool": False}
    assert served(sqlite, MUSTER_ASGI="1", CONN_MAX_AGE="5") == {"max_age": 5, "pool": False}
    assert served(postgres, MUSTER_ASGI="1") == {"max_age": 0, "pool": True}
    assert served(postgres) == {"max_age": 60, "pool": False}  # Celery, manage.py

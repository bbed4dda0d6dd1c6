"""The proxy as docs/operations.md sets it up (issue 37): ``deploy/nginx/muster.conf``, run by a real nginx.

Two "web machines" (real ``uvicorn muster.asgi:application`` processes on loopback, one database,
each with its own static root from collectstatic) stand for a rolling deploy half done: one runs
the previous release, whose stylesheet has another hashed name. nginx runs the shipped configuration
rendered onto loopback ports (tests/nginx_proxy.py) with a self-signed certificate, HTTPS on a port
other than 443. Through it: a form passes Django's origin check, the live push connects, the access
log holds no secret link, plain HTTP is redirected to HTTPS, neither an archive upload nor an admin's
catalog file is refused by the proxy and either release's stylesheet is found. Directly at a web
process: ``X-Forwarded-Proto`` is believed from the proxy's address only.
"""

from __future__ import annotations

import re
import socket
import ssl
import uuid

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.test.utils import override_settings
from django.urls import reverse
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from muster.live import REFUSED
from muster.request_log import without_secrets
from tabletop.admin.catalog import CatalogAdmin
from tabletop.catalog import MAX_UPLOAD_BYTES

from tests.nginx_proxy import (
    PROXY_HOST,
    SHIPPED,
    WEB_HOST,
    Browser,
    Nginx,
    WebProcess,
    migrate,
    release_sources,
    request,
)
from tests.venue_server import ROOT, free_port

DOCS = ROOT / "docs" / "operations.md"

# Paths with a secret (a seat's, an invite's, a projector's, the owner's, a reset link's), and some without.
SAMPLE_PATHS = [
    "/play/s3cr3t-seat-token/",
    "/play/s3cr3t-seat-token/act/",
    "/join/s3cr3t-invite-token/signup/",
    "/projector/s3cr3t-projector-token/",
    "/owner/s3cr3t-owner-token/",
    "/accounts/reset/MQ/s3cr3t-reset-token/",
    "/account/reset/MQ/s3cr3t-reset-token/",
    "/ws/play/s3cr3t-seat-token/",
    "/ws/projector/s3cr3t-projector-token/",
    "/c/a-campaign/tables/3/",
    "/accounts/login/",
]


# --- the docs show what the project ships -----------------------------------------------------------


def test_the_docs_show_the_shipped_configuration_verbatim():
    blocks = re.findall(r"```nginx\n(.*?)```", DOCS.read_text(), re.DOTALL)
    assert SHIPPED.read_text() in blocks


def test_the_docs_uvicorn_commands_serve_an_upstream_and_trust_only_the_proxy():
    docs, shipped = DOCS.read_text(), SHIPPED.read_text()
    commands = re.findall(r"uvicorn muster\.asgi:application (?:.*\\\n)*.*", docs)
    assert commands
    for command in commands:
        host, port = re.search(r"--host (\S+) --port (\d+)", command).groups()
        assert f"server {host}:{port};" in shipped
        [trusted] = re.findall(r"--forwarded-allow-ips (\S+)", command)
        assert f"This machine is the proxy, {trusted}:" in shipped


# --- the two web machines, and nginx in front ---------------------------------------------------------


def collect_release(static_root, sources) -> None:
    """collectstatic for one release: hashed names and their manifest, as production's storage writes them
    (without the compressed copies, which name nothing)."""
    storages = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"}}
    with override_settings(STATIC_ROOT=str(static_root), STATICFILES_DIRS=[str(sources)], STORAGES=storages):
        call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=["admin"])


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    """Two web machines sharing one database: "old" (the previous release) and "new"."""
    directory = tmp_path_factory.mktemp("web")
    database = directory / "db.sqlite3"
    machines = []
    for mark in ("old", "new"):
        static_root = directory / f"staticfiles-{mark}"
        collect_release(static_root, release_sources(directory, mark))
        machines.append(WebProcess(directory, free_port(WEB_HOST), static_root, database))
    migrate(database, machines[0].static_root)
    try:
        for machine in machines:
            machine.start()
        for machine in machines:
            machine.wait()
        yield machines
    finally:
        for machine in machines:
            machine.stop()


@pytest.fixture(scope="module")
def proxy(web, tmp_path_factory):
    nginx = Nginx(tmp_path_factory.mktemp("nginx"), [machine.port for machine in web],
                  free_port("127.0.0.1"), free_port("127.0.0.1"))
    checked = nginx.check()
    assert checked.returncode == 0, checked.stderr
    try:
        yield nginx.start()
    finally:
        nginx.stop()


@pytest.fixture
def browser(proxy):
    return Browser(proxy.https_port, proxy.directory / "cert.pem")


def stylesheet(html: str) -> str:
    [href] = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
    return href


# --- through nginx ----------------------------------------------------------------------------------------


@pytest.mark.nginx
def test_nginx_accepts_the_configuration(proxy):
    checked = proxy.check()
    assert checked.returncode == 0 and "test is successful" in checked.stderr, checked.stderr


@pytest.mark.nginx
def test_a_form_posted_over_https_on_another_port_passes_the_origin_check(browser):
    page = browser.request("GET", "/accounts/login/")
    assert page.status == 200 and browser.cookies.get("csrftoken")
    reply = browser.request("POST", "/accounts/login/", form={
        "username": "nobody", "password": "wrong", "csrfmiddlewaretoken": browser.cookies["csrftoken"]})
    assert reply.status == 200, reply.text[:500]  # the form again, with its error: the view read it
    assert 'value="nobody"' in reply.text


@pytest.mark.nginx
def test_the_live_push_connects_through_the_proxy_on_another_port(proxy):
    """The socket's Origin (the page's, port included) must match what the web process sees."""
    tls = ssl.create_default_context(cafile=str(proxy.directory / "cert.pem"))
    site = f"localhost:{proxy.https_port}"
    with socket.create_connection(("127.0.0.1", proxy.https_port), timeout=10) as sock:
        # the handshake passes (a page of another origin is refused there, with HTTP 403) ...
        with connect(f"wss://{site}/ws/play/no-such-seat/", sock=sock, ssl=tls, origin=f"https://{site}",
                     open_timeout=10, close_timeout=5, compression=None) as websocket:
            # ... and the consumer answers: a seat that does not exist is closed with its refusal
            with pytest.raises(ConnectionClosed) as closed:
                websocket.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == REFUSED


@pytest.mark.nginx
def test_the_access_log_holds_no_secret_link(proxy, browser):
    """nginx's log masks each path as Muster's own log does (muster/request_log.py SECRET_PATHS)."""
    marker = uuid.uuid4().hex
    for path in SAMPLE_PATHS:
        browser.request("GET", path, headers={"User-Agent": f"{marker} https", "Referer": f"https://x{path}"})
        plain = {"Host": "localhost", "User-Agent": f"{marker} http"}
        request("127.0.0.1", proxy.http_port, "GET", path, headers=plain)
    # a link written with escapes (%61 is "a") or with a newline after it is the same link to the web process
    for path in ("/pl%61y/s3cr3t-seat-token/", "/play/s3cr3t-seat-token/%0Aforged", "/play/s3cr3t-seat-token/?next=/x"):
        browser.request("GET", path, headers={"User-Agent": "odd"})
    lines = [line for line in proxy.access_log.read_text().splitlines() if marker in line]
    assert len(lines) == 2 * len(SAMPLE_PATHS)
    assert "s3cr3t" not in proxy.access_log.read_text()
    logged = [re.search(r'"GET (\S*) HTTP/1\.1"', line)[1] for line in lines]
    assert logged == [without_secrets(path) for path in SAMPLE_PATHS for _ in ("https", "http")]


@pytest.mark.nginx
def test_plain_http_is_redirected_to_https_with_its_path_and_the_https_port(proxy, browser):
    reply = request("127.0.0.1", proxy.http_port, "GET", "/accounts/login/?next=/c/x/",
                    headers={"Host": f"localhost:{proxy.http_port}"})
    assert reply.status == 301
    assert reply.headers["location"] == f"https://localhost:{proxy.https_port}/accounts/login/?next=/c/x/"
    assert browser.request("GET", "/accounts/login/?next=/c/x/").status == 200


def upload(browser, path: str, field: str, filename: str, content: bytes):
    """A form posting one file, as a browser sends it (the CSRF token first)."""
    browser.request("GET", "/accounts/login/")
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrfmiddlewaretoken\"\r\n\r\n"
            f"{browser.cookies['csrftoken']}\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; "
            f"filename=\"{filename}\"\r\nContent-Type: application/octet-stream\r\n\r\n").encode()
    body += content + f"\r\n--{boundary}--\r\n".encode()
    return browser.request("POST", path, body=body,
                           headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})


def catalog_import_paths() -> list[str]:
    """The admin's catalog imports (tabletop/admin/catalog.py), one a catalog."""
    return [reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_import")
            for model, model_admin in admin.site._registry.items() if isinstance(model_admin, CatalogAdmin)]


@pytest.mark.nginx
def test_an_archive_upload_of_2_6_mb_reaches_muster(browser):
    """nginx's default limit (1 MB) answered a bare 413 where Muster takes 50 MB (archive/upload.py)."""
    reply = upload(browser, "/campaigns/import/", "archive", "a.muster.jsonl.gz", b"\x1f\x8b" + b"x" * 2_600_000)
    # Muster read it: nobody is logged in, so it asks for a login
    assert reply.status == 302 and reply.headers["location"].startswith("/accounts/login/"), reply.text[:300]


@pytest.mark.nginx
def test_a_catalog_file_as_large_as_the_admin_takes_reaches_muster_on_every_catalog(browser):
    """The admin's catalog import takes a file of MAX_UPLOAD_BYTES (2,000,000): nginx's 1 MB answered 413."""
    paths = catalog_import_paths()
    assert {path.split("/")[2] for path in paths} == {"tabletop", "armies"}  # both apps' catalogs
    for path in paths:
        reply = upload(browser, path, "file", "cards.csv", b"x" * MAX_UPLOAD_BYTES)
        # Muster read it: nobody is logged in, so the admin asks for a login
        assert reply.status == 302, (path, reply.status, reply.text[:300])
        assert reply.headers["location"].startswith("/admin/login/"), path


@pytest.mark.nginx
def test_a_rolling_deploy_serves_both_releases_stylesheets(web, browser):
    """Half way through a deploy a page names either release's stylesheet; each is found, every time."""
    names = {stylesheet(request(WEB_HOST, machine.port, "GET", "/accounts/login/",
                                headers={"Host": "localhost", "X-Forwarded-Proto": "https"},
                                source=PROXY_HOST).text) for machine in web}
    assert len(names) == 2  # the releases differ
    statuses = [browser.request("GET", name).status for name in sorted(names) for _ in range(4)]
    assert statuses == [200] * 8


# --- directly at a web process -----------------------------------------------------------------------------


def test_x_forwarded_proto_is_believed_only_from_the_proxy(web):
    machine = web[0]
    forged = {"Host": "localhost", "X-Forwarded-Proto": "https"}
    from_elsewhere = request(WEB_HOST, machine.port, "GET", "/accounts/login/", headers=forged, source="127.0.0.1")
    assert from_elsewhere.status == 301
    assert from_elsewhere.headers["location"] == "https://localhost/accounts/login/"
    from_proxy = request(WEB_HOST, machine.port, "GET", "/accounts/login/", headers=forged, source=PROXY_HOST)
    assert from_proxy.status == 200
    plain_from_proxy = request(WEB_HOST, machine.port, "GET", "/accounts/login/", headers={"Host": "localhost"},
                               source=PROXY_HOST)
    assert plain_from_proxy.status == 301

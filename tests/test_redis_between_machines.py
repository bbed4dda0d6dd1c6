"""Redis between machines with a password and with TLS (issue 37, muster/redis_urls.py).

Each test starts its own redis-server on loopback (a free port, a temporary directory): one that asks
for a password (and knows an ACL user), one that speaks only TLS with a certificate made here by openssl
for 127.0.0.1. A fresh process reads muster/settings.py with ``REDIS_URL`` (and ``REDIS_CA_FILE``) set, as
a web process or worker does, and goes through every consumer of the URL: Django's cache (a set and a
get), the live push's channel layer (a group_send received), Celery (a task sent: its message in the
broker's queue; a result stored and read back through the result backend) and the watch counts
(muster/presence.py). A wrong password and a certificate from a CA not trusted are refused by each.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from tests.redis_server import need, start_redis, stop
from tests.venue_server import free_port

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "s3cret-pass"
ACL_USER, ACL_PASSWORD = "muster", "acl-pass"
CONSUMERS = ("cache", "channel layer", "celery broker", "celery result", "presence")

PROBE = """
import asyncio, json, os, sys, uuid
sys.path.insert(0, os.getcwd())
import django
django.setup()

answers = {}

def attempt(name, consumer):
    try:
        answers[name] = consumer()
    except Exception as failure:
        answers[name] = f"refused: {type(failure).__name__}: {failure}"[:300]

def cache():
    from django.core.cache import cache
    key = uuid.uuid4().hex
    cache.set(key, "kept", 30)
    return cache.get(key)

def channel_layer():
    from channels.layers import get_channel_layer
    async def push():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add("probe", channel)
        await layer.group_send("probe", {"type": "probe.moved", "key": "pushed"})
        message = await asyncio.wait_for(layer.receive(channel), 5)
        await layer.flush()
        return message["key"]
    return asyncio.run(push())

sent = {}

def celery_broker():
    from muster.celery import app
    queue = f"probe-{uuid.uuid4().hex}"
    sent["task"] = app.send_task("probe.task", args=[1], queue=queue)
    with app.connection_for_write() as connection:
        return connection.default_channel.client.llen(queue)

def celery_result():
    from muster.celery import app
    task_id = uuid.uuid4().hex
    app.backend.store_result(task_id, {"answer": 42}, "SUCCESS")
    return app.AsyncResult(task_id).get(timeout=5)

def presence():
    from muster import presence
    presence.started("probe-space", "viewer")
    try:
        return presence.watched("probe-space")
    finally:
        presence.ended("probe-space", "viewer")

for name, consumer in [("cache", cache), ("channel layer", channel_layer), ("celery broker", celery_broker),
                       ("celery result", celery_result), ("presence", presence)]:
    attempt(name, consumer)
print(json.dumps(answers))
"""
REACHED = {"cache": "kept", "channel layer": "pushed", "celery broker": 1, "celery result": {"answer": 42},
           "presence": {"viewer": 1}}


def openssl(directory: Path, *args: str) -> None:
    subprocess.run([need("openssl"), *args], cwd=directory, check=True, capture_output=True, timeout=60)


def make_ca(directory: Path, name: str) -> None:
    openssl(directory, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", f"{name}.key", "-out", f"{name}.pem", "-days", "2", "-subj", f"/CN=Muster test {name}")


@pytest.fixture(scope="module")
def certificates(tmp_path_factory) -> Path:
    """A CA, a server certificate it signed for 127.0.0.1, and another CA that signed nothing here."""
    directory = tmp_path_factory.mktemp("redis-tls")
    make_ca(directory, "ca")
    make_ca(directory, "other-ca")
    openssl(directory, "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1")
    (directory / "san.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    openssl(directory, "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "server.pem", "-days", "2", "-extfile", "san.ext")
    return directory


@pytest.fixture(scope="module")
def password_redis(tmp_path_factory):
    """A Redis asking for a password (its default user) and knowing an ACL user."""
    directory = tmp_path_factory.mktemp("redis-password")
    port = free_port("127.0.0.1")
    config = f"port {port}\nrequirepass {PASSWORD}\nuser {ACL_USER} on >{ACL_PASSWORD} ~* &* +@all\n"
    process = start_redis(directory, config, redis.Redis(port=port, password=PASSWORD, socket_connect_timeout=1))
    try:
        yield port
    finally:
        stop(process)


@pytest.fixture(scope="module")
def tls_redis(tmp_path_factory, certificates):
    """A Redis speaking only TLS (no plain port), with a password."""
    directory = tmp_path_factory.mktemp("redis-tls-server")
    port = free_port("127.0.0.1")
    config = (
        f"port 0\ntls-port {port}\ntls-cert-file {certificates / 'server.pem'}\n"
        f"tls-key-file {certificates / 'server.key'}\ntls-ca-cert-file {certificates / 'ca.pem'}\n"
        f"tls-auth-clients no\nrequirepass {PASSWORD}\n"
    )
    client = redis.Redis(port=port, password=PASSWORD, ssl=True, ssl_ca_certs=str(certificates / "ca.pem"),
                         socket_connect_timeout=1)
    process = start_redis(directory, config, client)
    try:
        yield port
    finally:
        stop(process)


def through_every_consumer(url: str, ca_file: str = "") -> dict:
    """What each consumer of ``REDIS_URL`` answered, in a process that read the settings with it."""
    unset = {"DEBUG", "REDIS_URL", "REDIS_CA_FILE", "DJANGO_SETTINGS_MODULE"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(SECRET_KEY="redis-test", DEBUG="0", REDIS_URL=url, DJANGO_SETTINGS_MODULE="muster.settings")
    if ca_file:
        env["REDIS_CA_FILE"] = ca_file
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def refused_by_every_consumer(answers: dict) -> bool:
    return set(answers) == set(CONSUMERS) and all(str(answer).startswith("refused:") for answer in answers.values())


def test_a_password_in_the_url_reaches_redis_through_every_consumer(password_redis):
    assert through_every_consumer(f"redis://:{PASSWORD}@127.0.0.1:{password_redis}/0") == REACHED


def test_an_acl_user_and_password_reach_redis_through_every_consumer(password_redis):
    assert through_every_consumer(f"redis://{ACL_USER}:{ACL_PASSWORD}@127.0.0.1:{password_redis}/1") == REACHED


def test_a_wrong_password_is_refused_by_every_consumer(password_redis):
    answers = through_every_consumer(f"redis://:wrong-{PASSWORD}@127.0.0.1:{password_redis}/0")
    assert refused_by_every_consumer(answers), answers


def test_tls_with_the_servers_ca_reaches_redis_through_every_consumer(tls_redis, certificates):
    url = f"rediss://:{PASSWORD}@127.0.0.1:{tls_redis}/0"
    assert through_every_consumer(url, str(certificates / "ca.pem")) == REACHED


def test_a_certificate_from_an_untrusted_ca_is_refused_by_every_consumer(tls_redis, certificates):
    url = f"rediss://:{PASSWORD}@127.0.0.1:{tls_redis}/0"
    answers = through_every_consumer(url, str(certificates / "other-ca.pem"))
    assert refused_by_every_consumer(answers), answers
    assert "certificate verify failed" in answers["cache"]

"""How every consumer of ``REDIS_URL`` reaches Redis: with a password, and over TLS that checks the server.

Redis between machines is a trusted component: whoever can write to it can queue Celery tasks (a day end,
a restore) and publish into the live channels, whose messages carry HTML that the pages swap in. So a
Redis off the web machine wants a password (``redis://:PASSWORD@host:6379/0``, or a Redis ACL user:
``redis://muster:PASSWORD@host:6379/0``) and, across a network anyone else shares, TLS:
``rediss://muster:PASSWORD@redis.internal:6380/0``. With ``rediss://`` the server's certificate is always
verified, against ``REDIS_CA_FILE`` (a CA bundle, PEM) when it is set, else against the system's CAs, and
its name must match the URL's host; nothing here turns verification off.

Each consumer takes these options its own way (docs/operations.md, "Redis between machines"):

* redis-py clients (Django's ``RedisCache`` OPTIONS, channels_redis's host dict, muster/presence.py):
  ``client_options``, keyword arguments of ``redis.ConnectionPool.from_url``.
* Celery's broker (kombu) and result backend: ``celery_ssl``, the dict ``broker_use_ssl`` and
  ``redis_backend_use_ssl`` ask for (without it Celery refuses a ``rediss://`` URL).

Whatever crosses into these is plain data: strings and one ``ssl`` constant.
"""

from __future__ import annotations

import ssl
from urllib.parse import urlsplit


def uses_tls(url: str) -> bool:
    return urlsplit(url).scheme == "rediss"


def client_options(url: str, ca_file: str = "") -> dict:
    """redis-py's keyword arguments for ``url``: none for ``redis://``; for ``rediss://`` a verified
    certificate (and the CA bundle, if one is given)."""
    if not uses_tls(url):
        return {}
    options = {"ssl_cert_reqs": "required", "ssl_check_hostname": True}
    if ca_file:
        options["ssl_ca_certs"] = ca_file
    return options


def celery_ssl(url: str, ca_file: str = "") -> dict | None:
    """Celery's ``broker_use_ssl`` / ``redis_backend_use_ssl`` for ``url``: None without TLS."""
    if not uses_tls(url):
        return None
    options = {"ssl_cert_reqs": ssl.CERT_REQUIRED}
    if ca_file:
        options["ssl_ca_certs"] = ca_file
    return options


def channel_layer_host(url: str, ca_file: str = "") -> dict:
    """One host of channels_redis's ``hosts``: the URL and the client's options."""
    return {"address": url, **client_options(url, ca_file)}

"""A counted request: at most so many queries, and the answer it counts checked, its status and a piece of
what it shows (CONVENTIONS 16b). A query count alone passes on a 404 or a redirect to the login page, which
make fewer queries than the page; Zulip's test_num_queries_for_realm_admin checks both for that reason."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection
from django.http import HttpResponse
from django.test.utils import CaptureQueriesContext


@dataclass(frozen=True)
class Counted:
    response: HttpResponse
    text: str
    queries: int  # how many the request made: a later count can pin itself to it


def counted_get(client, url: str, *, queries: int, contains: str | Iterable[str], status: int = 200, data=None,
                **headers) -> Counted:
    """GET ``url`` with ``client``: it answers ``status``, its page shows each piece of ``contains``, and it
    makes at most ``queries`` queries (the queries are listed when there are more)."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, data, **headers)
    text = response.content.decode()
    assert response.status_code == status, f"GET {url} answered {response.status_code}, not {status}"
    for piece in [contains] if isinstance(contains, str) else contains:
        assert piece in text, f"GET {url} does not show {piece!r}"
    made = [query["sql"] for query in captured.captured_queries]
    assert len(made) <= queries, f"GET {url} made {len(made)} queries, more than {queries}:\n" + "\n".join(made)
    return Counted(response, text, len(made))

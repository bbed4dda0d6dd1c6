"""Posting forms as a browser would: with the one-time token a rendered form carries; and as no browser
would (the fuzz of a form: every answer a sentence or a page, never a 500)."""

import json
import re

from django.core.files.uploadedfile import SimpleUploadedFile

from campaign.submissions import FIELD, new_token

TOKEN = re.compile(r'name="submission" value="([^"]+)"')


def once(**fields) -> dict:
    """Form data with a fresh one-time token, as a freshly rendered form would post it."""
    return {FIELD: new_token(), **fields}


def tokens_in(html: str) -> list[str]:
    """Every one-time token on a rendered page, in page order."""
    return TOKEN.findall(html)


def logged_in_client(user):
    """A separate device (its own session) logged in as ``user``: one of several posting at once."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def assert_answered(reply, what: str) -> None:
    """A fuzzed post's answer: never a 500; a page that answers 200 is a form or a page with a way on."""
    assert reply.status_code < 500, what
    if reply.status_code == 200 and reply.get("Content-Type", "").startswith("text/html"):
        page = reply.content.decode()
        assert "<form" in page or "href" in page, what


def wrong_type_posts(client, url: str, fields: list[str]) -> dict:
    """{what was tried: the answer} for posts of ``fields`` with values of the wrong shape."""
    return {
        "lists": client.post(url, {field: ["a", "b" * 5000] for field in fields}),
        "bracketed names": client.post(url, {f"{field}[]": "x" for field in fields}),
        "json": client.post(url, json.dumps({field: {"nested": [1, 2]} for field in fields}),
                            content_type="application/json"),
        "file": client.post(url, {field: SimpleUploadedFile("x.txt", b"\x00\xff" * 100) for field in fields}),
        "nothing": client.post(url),
        "get with garbage": client.get(url, {field: "\x00" * 10 for field in fields}),
    }

"""Posting forms as a browser would: with the one-time token a rendered form carries."""

import re

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

"""The tabletop's pages as a viewer loads them, and what a request of a phone or of the GM's tablet costs in
queries: shared by the secrets, abandon, fork, lean-request, bot and new-table tests (CONVENTIONS 16b: never
from a test module).

Each request has a fixed number of queries, whatever the table's length; tests/tabletop/views/test_lean_requests.py
says what a member's phone, a guest's phone and the GM's tablet read.
"""

import re

from django.urls import reverse

from tabletop.engines.kernel import GM, PUBLIC
from tabletop.models import Table

HX = {"HTTP_HX_REQUEST": "true"}

# the seat with its table's key and its member's user; the session (a member's phone only)
SEAT = 1
SESSION = 1
# savepoint, the table locked with its stake, the state saved, the log entry, release
PLAY = 5
# the session; the membership with its campaign and user (campaign.permissions.membership_of_login); the
# table's key
TABLET = 3


def pages(client, table: Table) -> dict:
    """Every page and fragment a viewer loads, by viewer (GM, the two seats, the projector)."""
    slug = table.campaign.slug

    def get(name, *args, **params):
        return client.get(reverse(name, args=args), params, **(HX if params else {})).content.decode()

    seats = {seat.index: seat.token for seat in table.seats.all()}
    found = {GM: get("tabletop:gm_table", slug, table.pk),
             PUBLIC: get("tabletop:public_table", slug, table.pk) + get("tabletop:public_poll", slug, table.pk, v=-1)}
    for index, token in seats.items():
        found[index] = get("tabletop:seat_table", token) + get("tabletop:seat_poll", token, v=-1)
    return found


def preview(html: str) -> str:
    return re.search(r"<section class=\"table-preview\".*?</section>", html, re.S).group(0)


def seats(html: str) -> list[str]:
    listed = re.search(r"<ol class=\"table-preview-seats\"[^>]*>(.*?)</ol>", preview(html), re.S).group(1)
    items = re.findall(r"<li>(.*?)</li>", listed, re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", item)).strip() for item in items]

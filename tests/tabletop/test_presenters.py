"""What the presenters give every render of a table (tabletop/presenters.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tabletop import presenters
from tabletop.models import Table

pytestmark = pytest.mark.django_db


def test_a_seats_links_are_worked_out_once_and_each_render_gets_its_own(world, table, monkeypatch):
    """A seat's links depend on its token and whether the game goes on: reversed once per process (issue
    40: five reversals a render), each caller handed a dict of its own."""
    seat = table.seats.get(index=0)
    token = seat.token
    expected = {
        "act": f"/play/{token}/act/", "poll": f"/play/{token}/poll/", "page": f"/play/{token}/",
        "log": "", "coach": f"/play/{token}/coach/", "socket": f"/ws/play/{token}/",
    }
    assert presenters.seat_urls(seat) == expected
    reversed_ = []
    monkeypatch.setattr(presenters, "reverse", lambda *a, **k: reversed_.append(a) or reverse(*a, **k))
    first = presenters.seat_urls(seat)
    first["act"] = "changed by one render"
    assert presenters.seat_urls(seat) == expected and reversed_ == []
    table.status = Table.Status.FINISHED  # the log is offered once the game is over
    assert presenters.seat_urls(seat)["log"] == reverse("tabletop:seat_log", args=[token])

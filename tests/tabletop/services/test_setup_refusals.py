"""A table that cannot open as asked is refused with a sentence, as a ``Refusal`` (issue 39).

The engines import only the standard library, so their setup refuses a config with a plain ``ValueError``;
``table_create`` (tabletop/services/tables.py), the one place that calls an engine's setup, says it as a
``SetupRefused``, as it says its own checks of the seats. A plain ``ValueError`` anywhere else is a bug
and answers 500 (muster/answers.py)."""

from __future__ import annotations

import pytest

from muster.answers import status_of
from muster.refusals import Refusal
from tabletop.engines.gridaris.starter import STARTER_CARDS
from tabletop.models import Seat, Table
from tabletop.services.tables import SeatSpec, SetupRefused, table_create

pytestmark = pytest.mark.django_db


def _open(world, seats, config):
    return table_create(campaign=world.campaign, game="gridaris", title="Practice", seats=seats, config=config)


def test_the_engines_setup_refusal_comes_as_a_refusal_with_the_engines_sentence(world):
    short = [card for card in STARTER_CARDS if card["tier"] == "gold"] + STARTER_CARDS[:11]
    with pytest.raises(SetupRefused) as refused:
        _open(world, [SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
              {"mode": "standard", "cards": short})
    assert isinstance(refused.value, Refusal) and not isinstance(refused.value, ValueError)
    assert str(refused.value) == "2 players need at least 12 silver cards; the deck has 11."
    assert status_of(refused.value) == 400
    assert not Table.objects.exists() and not Seat.objects.exists()


def test_a_guest_seat_without_a_name_is_a_refusal(world):
    with pytest.raises(SetupRefused, match="Every guest seat needs a name."):
        _open(world, [SeatSpec(membership=world.ann), SeatSpec(guest_name="  ")],
              {"mode": "standard", "cards": STARTER_CARDS})
    assert not Table.objects.exists()

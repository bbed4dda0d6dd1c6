"""A move the rules refuse is answered in the reader's language (issue 41): the seat page shows the engine's
sentence said by ``say(gettext)`` with its values put in, while the table's state keeps no word of it."""

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tabletop.engines import get_engine
from tabletop.services.tables import SeatSpec, table_create

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
GERMAN = Path(settings.LOCALE_PATHS[0]) / "de" / "LC_MESSAGES" / "django.mo"


@pytest.fixture
def gotm_table(world):
    return table_create(
        campaign=world.campaign,
        game="gotm",
        title="Booty Bay duel",
        seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
        config={"series_game": 0},
        seed=5,
    )


def out_of_turn(client, world, table, language: str):
    """Ann (seat 0) says she is done shopping while Ben is to shop: the page's answer and Ben's name."""
    assert get_engine("gotm").to_act(table.state) == [1]
    client.force_login(world.ann.user)
    url = reverse("tabletop:seat_act", args=[table.seats.get(index=0).token])
    response = client.post(
        url,
        {"action": json.dumps({"type": "done", "seat": 0}), "version": 0, "client_action_id": f"early-{language}"},
        HTTP_ACCEPT_LANGUAGE=language,
        **HX,
    )
    return response, table.state["players"][1]


def test_an_english_reader_gets_the_engines_sentence_with_the_players_name(client, world, gotm_table):
    response, ben = out_of_turn(client, world, gotm_table, "en-gb")
    assert response.status_code == 400
    assert f"It is {ben}&#x27;s turn, not yours." in response.content.decode()


@pytest.mark.skipif(
    not GERMAN.exists(),
    reason="the German catalog is not compiled yet (scripts/messages.py "
    "merges locale/incoming/engines.po and writes locale/de/.../django.mo)",
)
def test_a_german_reader_gets_the_engines_sentence_in_german_with_the_players_name(client, world, gotm_table):
    state = gotm_table.state
    response, ben = out_of_turn(client, world, gotm_table, "de")
    assert response.status_code == 400
    assert f"{ben} ist am Zug, nicht du." in response.content.decode()
    gotm_table.refresh_from_db()
    assert gotm_table.state == state and gotm_table.version == 0

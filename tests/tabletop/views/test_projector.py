"""The projector link (issue 25, ruling PJ1): the GM makes a secret, revocable link that shows a table's
public view full-screen to whoever opens it, without an account; never a hidden card, never a form."""

from __future__ import annotations

import html
import logging
import random

import pytest
from django.urls import reverse

from tabletop.engines import ENGINES, get_engine
from tabletop.engines.kernel import PUBLIC, SeededRng
from tabletop.engines.sight import sight
from tabletop.models import ProjectorLink, Table
from tabletop.services.forks import table_fork
from tabletop.services.projector import projector_issue, projector_revoke
from tabletop.services.tables import SeatSpec, table_create

from tests.cards import names_card
from tests.tables import play_next, play_random

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def gm_post(client, world, table, name, **fields):
    client.force_login(world.gm.user)
    return client.post(reverse(name, args=[world.campaign.slug, table.pk]), fields)


def projector_url(token: str, name: str = "tabletop:projector") -> str:
    return reverse(name, args=[token])


def test_the_gm_makes_a_link_the_table_page_shows_it_and_anyone_with_it_sees_the_public_view(client, world, table):
    response = gm_post(client, world, table, "tabletop:projector_issue", replacing="")
    assert response.status_code == 302
    link = ProjectorLink.objects.get(table=table)
    gm_page = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])).content.decode()
    assert projector_url(link.token) in gm_page and 'id="projector-revoke"' in gm_page
    client.logout()
    response = client.get(projector_url(link.token))
    assert response.status_code == 200
    page = response.content.decode()
    assert html.escape(table.title) in page and 'class="projector-page' in page
    assert "<form" not in page and "<nav" not in page and "topbar" not in page  # read-only, no navigation
    assert f'ws-connect="/ws/projector/{link.token}/"' in page  # live, keyed by the link
    assert projector_url(link.token, "tabletop:projector_poll") in page


def test_the_projector_is_live_its_poll_answers_204_until_the_table_moves(client, world, table):
    link = projector_issue(table_id=table.pk, replacing="", user=world.gm.user)
    poll = projector_url(link.token, "tabletop:projector_poll")
    assert client.get(poll, {"v": str(table.version)}, **HX).status_code == 204
    table = play_next(table)
    response = client.get(poll, {"v": "0"}, **HX)
    assert response.status_code == 200
    assert f'data-key="{table.version}"' in response.content.decode()
    assert "<form" not in response.content.decode()


def test_a_revoked_or_forged_link_is_refused_with_a_sentence_and_the_log_never_holds_the_token(
    client, world, table, caplog
):
    link = projector_issue(table_id=table.pk, replacing="", user=world.gm.user)
    assert client.get(projector_url(link.token)).status_code == 200
    assert gm_post(client, world, table, "tabletop:projector_revoke", token=link.token).status_code == 302
    assert not ProjectorLink.objects.filter(table=table).exists()
    client.logout()
    with caplog.at_level(logging.INFO):
        for token in (link.token, "forged-token"):
            response = client.get(projector_url(token))
            assert response.status_code == 404
            assert "This projector link was revoked, or never was" in response.content.decode()
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("django.request")]
    assert lines == ["404 GET /projector/***/ user=anonymous: This projector link was revoked, or never was: "
                     "ask the GM for the current one."] * 2
    assert link.token not in caplog.text
    # A page still open when the link is revoked reloads at its next fetch, and then shows the refusal.
    response = client.get(projector_url(link.token, "tabletop:projector_poll"), {"v": "0"}, **HX)
    assert response.status_code == 200 and response["HX-Refresh"] == "true"


def test_a_new_link_replaces_the_old_and_a_repeated_post_makes_no_second(client, world, table):
    first = projector_issue(table_id=table.pk, replacing="", user=world.gm.user)
    again = projector_issue(table_id=table.pk, replacing="", user=world.gm.user)  # the same form posted twice
    assert again.token == first.token
    second = projector_issue(table_id=table.pk, replacing=first.token, user=world.gm.user)
    assert second.token != first.token
    assert client.get(projector_url(first.token)).status_code == 404
    assert client.get(projector_url(second.token)).status_code == 200
    assert projector_revoke(table_id=table.pk, token=first.token) is False  # a stale revoke changes nothing
    assert client.get(projector_url(second.token)).status_code == 200


def test_a_what_if_only_the_gm_plays_has_no_projector_link(client, world, table):
    table = play_next(table)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    fork = table_fork(table_id=table.pk, version=table.version, user=world.gm.user, players=False)
    response = gm_post(client, world, fork, "tabletop:projector_issue", replacing="")
    assert response.status_code == 400 and "only you play" in response.content.decode()
    assert not ProjectorLink.objects.exists()


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_the_projector_never_shows_a_hidden_card_of_any_game(client, world, game):
    engine = get_engine(game)
    config = engine.random_config(SeededRng(25))
    specs = [SeatSpec(guest_name=f"Guest {n}") for n in range(len(config["players"]))]
    table = table_create(campaign=world.campaign, game=game, title="Projected", config=config, seats=specs, seed=25)
    link = projector_issue(table_id=table.pk, replacing="", user=world.gm.user)
    chooser = random.Random(game)
    checked = 0
    for _ in range(8):
        page = client.get(projector_url(link.token)).content.decode()
        fragment = client.get(projector_url(link.token, "tabletop:projector_poll"), {"v": "x"}, **HX).content.decode()
        # What the public view holds (sight.py); whether that view itself keeps every secret is the engines'
        # tests' (simulate.py) and tests/tabletop/views/test_secrets_views.py's: here, that the page adds nothing.
        seen = sight(engine, table.state, PUBLIC)
        names = engine.card_names(table.state)
        for shown in (page, fragment):
            assert "<form" not in shown
            for card_id in seen.hidden:
                assert not names_card(shown, card_id), (game, card_id)
                name = names.get(card_id)
                if name and not any(name in string for string in seen.strings):
                    assert html.escape(name) not in shown, (game, name)
        checked += 1
        table = play_random(table, chooser.randint(1, 6), chooser)
    assert checked == 8


def test_the_link_box_shows_the_venue_address_when_the_gm_browses_via_localhost(client, world, table, settings):
    """The screen at the venue opens the link the box shows: on PUBLIC_BASE_URL, as the seat links and
    invites are, not on the GM browser's own host (issue 35)."""
    settings.PUBLIC_BASE_URL = "http://127.0.0.2:8000"
    link = projector_issue(table_id=table.pk, replacing="", user=world.gm.user)
    client.force_login(world.gm.user)
    response = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk]), HTTP_HOST="localhost")
    assert response.status_code == 200
    page = response.content.decode()
    assert f'value="http://127.0.0.2:8000{projector_url(link.token)}" aria-label="Projector link"' in page
    assert "//localhost" not in page


def test_without_a_venue_address_the_link_box_uses_the_host_the_gm_came_to(client, world, table, settings):
    settings.PUBLIC_BASE_URL = ""
    link = projector_issue(table_id=table.pk, replacing="", user=world.gm.user)
    client.force_login(world.gm.user)
    page = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk]),
                      HTTP_HOST="127.0.0.1:8000").content.decode()
    assert f'value="http://127.0.0.1:8000{projector_url(link.token)}" aria-label="Projector link"' in page

"""A player's campaign page is live (issue 25): a table or battle they sit at appears when it opens and
shows it finished, without a reload. The page's region polls (204 while its key is unchanged) and its
socket hears the member's group, which the table services tell after they commit."""

import pytest
from django.urls import reverse

from campaign import live
from campaign.live import HomeConsumer
from tabletop.services.abandon import table_abandon
from tabletop.services.tables import table_undo

from tests.factories import gridaris_table
from tests.tables import play_next

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def told(monkeypatch):
    """Every (group, key) the pushes announce, at once (no transaction to wait for in these tests)."""
    heard = []
    monkeypatch.setattr("muster.live.transaction.on_commit", lambda fn: fn())
    monkeypatch.setattr("muster.live.announce", lambda group, key: heard.append((group, key)))
    return heard


def page_key(html: str) -> str:
    start = html.index('data-key="') + len('data-key="')
    return html[start:html.index('"', start)]


def test_the_player_page_has_a_live_region_that_answers_204_until_a_table_of_theirs_opens(client, world):
    home = reverse("campaign:detail", args=[world.campaign.slug])
    client.force_login(world.ann.user)
    page = client.get(home).content.decode()
    key = page_key(page)
    assert 'data-live-region' in page and f'ws-connect="/ws/c/{world.campaign.slug}/home/"' in page
    assert client.get(home, {"v": key}, **HX).status_code == 204

    gridaris_table(world.campaign, [world.ann, world.ben], title="Friday duel")

    response = client.get(home, {"v": key}, **HX)
    fresh = response.content.decode()
    assert response.status_code == 200 and "Friday duel" in fresh and "<html" not in fresh
    assert page_key(fresh) != key and client.get(home, {"v": page_key(fresh)}, **HX).status_code == 204


def test_a_table_not_theirs_changes_nothing_on_their_page(client, world):
    home = reverse("campaign:detail", args=[world.campaign.slug])
    client.force_login(world.ann.user)
    key = page_key(client.get(home).content.decode())
    gridaris_table(world.campaign, [world.ben, "Gus"])
    assert client.get(home, {"v": key}, **HX).status_code == 204


def test_opening_finishing_abandoning_and_reopening_tell_the_seated_members(world, told):
    ann, ben = live.member_group(world.ann.pk), live.member_group(world.ben.pk)
    table = gridaris_table(world.campaign, [world.ann, "Gus"])
    assert (ann, live.MOVED) in told and (ben, live.MOVED) not in told

    told.clear()
    table = play_next(table)
    assert not [group for group, _ in told if group.startswith("member.")]  # a move is not news there
    while table.status == "active":
        table = play_next(table)
    assert (ann, live.MOVED) in told

    told.clear()
    table_undo(table_id=table.pk, version=table.version, user=world.gm.user)
    assert (ann, live.MOVED) in told

    other = gridaris_table(world.campaign, [world.ben, world.ann])
    told.clear()
    table_abandon(table_id=other.pk, version=other.version, gm=world.gm.user, reason="Closing")
    assert {(ann, live.MOVED), (ben, live.MOVED)} <= set(told)


def test_the_socket_watches_the_member_s_own_group_with_the_page_key(client, world):
    group, key = HomeConsumer().watch(world.ann.user, slug=world.campaign.slug)
    client.force_login(world.ann.user)
    page = client.get(reverse("campaign:detail", args=[world.campaign.slug])).content.decode()
    assert group == live.member_group(world.ann.pk) and key == page_key(page)


def test_an_idle_poll_costs_a_fixed_few_queries(client, world, django_assert_num_queries):
    home = reverse("campaign:detail", args=[world.campaign.slug])
    for n in range(3):
        gridaris_table(world.campaign, [world.ann, world.ben], title=f"Table {n}")
    client.force_login(world.ann.user)
    key = page_key(client.get(home).content.decode())
    with django_assert_num_queries(2 + 1):  # session, membership with its campaign and user; the tables' key
        assert client.get(home, {"v": key}, **HX).status_code == 204

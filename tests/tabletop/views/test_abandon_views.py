"""The GM's "Abandon this table" confirm page and post (tabletop/views/abandon.py), and how an abandoned
table looks on the GM, seat and projector pages."""

import html

import pytest
from django.urls import reverse

from campaign.ledger import balance_of
from campaign.models import Activity
from tabletop.engines import army
from tabletop.engines.kernel import GM, PUBLIC
from tabletop.engines.sight import sight
from tabletop.models import Table
from tabletop.services.abandon import table_abandon

from tests.counted import counted_get
from tests.factories import army_table
from tests.forms import logged_in_client, once, tokens_in
from tests.tables import play_next
from tests.tabletop._pages import pages
from tests.tabletop._stakes import open_staked, purse

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def url(table, name="tabletop:table_abandon"):
    return reverse(name, args=[table.campaign.slug, table.pk])


def post(client, table, **fields):
    data = once(version=table.version, reason="The tavern closed")
    data.update(fields)
    return client.post(url(table), data)


@pytest.fixture
def staked(world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 30)
    return open_staked(world, [world.ann, world.ben, "Gus"], [ann, ben], fee=10, seed=2), ann, ben


def test_the_confirm_page_shows_each_seats_refund_and_the_version(client, world, staked):
    table, ann, ben = staked
    client.force_login(world.gm.user)
    page = client.get(url(table)).content.decode()
    assert "Abandon Gridaris at the Inn?" in page
    assert "gets back 10 coins" in page and html.escape("Ann the Bold's purse") in page
    assert "nothing: guests play without stakes" in page
    assert f'name="version" value="{table.version}"' in page
    assert len(tokens_in(page)) == 1
    assert 'name="outcome"' not in page  # only a game with a result to keep offers the choice
    assert f'href="{url(table)}"' in client.get(url(table, "tabletop:gm_table")).content.decode()


def test_the_gm_abandons_and_every_page_says_so(client, world, staked):
    table, ann, ben = staked
    client.force_login(world.gm.user)
    response = post(client, table, reason="Ann had to leave")
    assert response.status_code == 302 and response["Location"] == url(table, "tabletop:gm_table")
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED
    assert (balance_of(ann), balance_of(ben)) == (50, 30)

    gm_page = client.get(response["Location"]).content.decode()
    assert "was abandoned. Every entry fee was refunded." in gm_page
    assert "Abandoned by gm on day 1: Ann had to leave" in gm_page
    assert 'id="undo"' not in gm_page and 'id="abandon"' not in gm_page
    assert "hx-trigger" not in gm_page  # nothing polls a table that can no longer change
    assert "refunded 10" in gm_page and "every fee was refunded" in gm_page
    seen = {"public": client.get(url(table, "tabletop:public_table")).content.decode()}
    for member in (world.ann, world.ben):
        seat = table.seats.get(membership=member)
        seen[member.user.username] = logged_in_client(member.user).get(
            reverse("tabletop:seat_table", args=[seat.token])).content.decode()
    for viewer, page in seen.items():
        assert "Abandoned by gm on day 1: Ann had to leave" in page, viewer
        assert "refunded 10" in page, viewer


def test_a_double_post_is_already_abandoned_and_refunds_once(client, world, staked):
    table, ann, ben = staked
    client.force_login(world.gm.user)
    data = once(version=table.version, reason="Closing")
    assert client.post(url(table), data).status_code == 302
    response = client.post(url(table), data, follow=True)
    assert "Already abandoned: Gridaris at the Inn was abandoned before" in response.content.decode()
    assert (balance_of(ann), balance_of(ben)) == (50, 30)
    assert Activity.objects.filter(kind=Activity.Kind.TABLE_ABANDON).count() == 1
    assert "Already abandoned" in client.get(url(table), follow=True).content.decode()


def test_a_stale_page_gets_the_fresh_page_with_a_sentence(client, world, table):
    seen = table.version
    table = play_next(table)
    client.force_login(world.gm.user)
    response = post(client, table, version=seen, reason="Late")
    page = response.content.decode()
    assert response.status_code == 200
    assert "The table moved on while you were choosing." in page
    assert f'name="version" value="{table.version}"' in page and ">\nLate</textarea>" in page
    table.refresh_from_db()
    assert table.status == Table.Status.ACTIVE
    assert post(client, table, version=table.version).status_code == 302


def test_a_missing_reason_is_shown_on_the_form(client, world, table):
    client.force_login(world.gm.user)
    response = post(client, table, reason="")
    assert response.status_code == 200 and "This field is required." in response.content.decode()
    response = client.post(url(table), {"version": table.version, "reason": "x"})  # no one-time token
    assert "one-time token" in response.content.decode()
    table.refresh_from_db()
    assert table.status == Table.Status.ACTIVE


def test_a_finished_table_is_refused_with_a_sentence(client, world, table):
    while not table.is_finished:
        table = play_next(table)
    client.force_login(world.gm.user)
    response = client.get(url(table), follow=True)
    assert "a finished table cannot be abandoned" in response.content.decode()
    assert 'id="abandon"' not in client.get(url(table, "tabletop:gm_table")).content.decode()


def test_an_army_table_offers_the_choice_and_keeps_the_result_when_chosen(client, world):
    table = army_table(world.campaign, [world.ann, world.ben])
    client.force_login(world.gm.user)
    page = client.get(url(table)).content.decode()
    assert 'name="outcome" value="release"' in page and 'name="outcome" value="keep"' in page
    assert "not played for stakes" in page
    assert post(client, table, outcome="keep").status_code == 302
    assert Activity.objects.get(kind=Activity.Kind.TABLE_ABANDON).details["keep_result"] is True


@pytest.mark.parametrize("who, status", [("ann", 403), ("ben", 403), ("outsider", 404), ("staff", 404)])
def test_only_the_gm_may_open_or_post_the_confirm_page(client, world, staked, who, status):
    table = staked[0]
    user = getattr(world, who)
    client.force_login(getattr(user, "user", user))
    assert client.get(url(table)).status_code == status
    assert post(client, table).status_code == status
    table.refresh_from_db()
    assert table.status == Table.Status.ACTIVE


def test_anonymous_is_sent_to_log_in(client, world, table):
    response = client.get(url(table))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post(url(table), once(version=0, reason="x")).status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.ACTIVE


def test_a_seat_gets_the_log_of_an_abandoned_table(client, world, table):
    table_abandon(table_id=table.pk, version=table.version, gm=world.gm.user, reason="Over")
    client.force_login(world.ann.user)
    seat = table.seats.get(index=0)
    page = client.get(reverse("tabletop:seat_table", args=[seat.token])).content.decode()
    log_url = reverse("tabletop:seat_log", args=[seat.token])
    assert log_url in page
    assert client.get(log_url).status_code == 200


def test_polls_notice_the_abandon_though_the_version_stays(client, world, table):
    client.force_login(world.gm.user)
    poll = url(table, "tabletop:gm_poll")
    assert client.get(poll, {"v": table.version}, **HX).status_code == 204
    table_abandon(table_id=table.pk, version=table.version, gm=world.gm.user, reason="Over")
    response = client.get(poll, {"v": table.version}, **HX)
    assert response.status_code == 200 and "Abandoned by gm" in response.content.decode()


def test_the_abandoned_gm_page_does_a_fixed_number_of_queries(client, world, staked):
    table = staked[0]
    table_abandon(table_id=table.pk, version=table.version, gm=world.gm.user, reason="Over")
    client.force_login(world.gm.user)
    counted_get(client, url(table, "tabletop:gm_table"), queries=10,
                contains=["Abandoned by gm on day 1: Over", "refunded 10", "every fee was refunded"])


def test_the_abandoned_pages_never_show_another_seats_hidden_cards(client, world):
    table = army_table(world.campaign, ["Ann", "Ben"])  # guests: one client opens every seat
    for _ in range(6):
        table = play_next(table)
    table_abandon(table_id=table.pk, version=table.version, gm=world.gm.user, reason="Over")
    table.refresh_from_db()
    client.force_login(world.gm.user)
    found = pages(client, table)
    names = army.card_names(table.state)
    for viewer in (0, 1, PUBLIC):
        seen = sight(army, table.state, viewer)
        shown = {names[card] for card in names if card not in seen.hidden} | seen.names
        secret = {names[card] for card in seen.hidden} - shown
        assert secret, viewer  # the check has something to find
        assert [name for name in secret if html.escape(name) in found[viewer]] == [], viewer
        assert "Abandoned by gm" in found[viewer]
    assert all(html.escape(names[card]) in found[GM] for card in sight(army, table.state, 0).hidden)


def test_the_campaign_pages_list_the_table_as_abandoned(client, world, table):
    table_abandon(table_id=table.pk, version=table.version, gm=world.gm.user, reason="Over")
    home = reverse("campaign:detail", args=[world.campaign.slug])
    client.force_login(world.gm.user)
    assert "Mercenaries of Gridaris · Abandoned" in client.get(home).content.decode()
    assert "Mercenaries of Gridaris · Abandoned" in logged_in_client(world.ann.user).get(home).content.decode()

"""A new campaign's GM home lists its first steps, each a link, each ticked once done, until all are."""

import re

import pytest
from django.urls import NoReverseMatch, reverse

from campaign import first_steps
from campaign.models import Membership
from campaign.services import campaign_create, membership_add
from tabletop.models import Table

from tests.armies.factories import CommanderFactory, UnitCardFactory
from tests.factories import UserFactory, gridaris_table

pytestmark = pytest.mark.django_db

LABELS = ["Invite players", "Create commanders", "Publish offers", "Open a first table or battle"]
STEP = re.compile(r'<li><span aria-hidden="true">(✓|○)</span> <a[^>]* href="([^"]+)">([^<]+)</a>')


@pytest.fixture
def fresh(client):
    """A campaign just started by its GM, who is logged in."""
    gm = UserFactory()
    client.force_login(gm)
    return campaign_create(creator=gm, name="Winter War")


def steps_on_home(client, campaign) -> list[tuple[str, str, bool]]:
    """(label, link, ticked) for each first step on the GM home, in page order; [] when the list is gone."""
    response = client.get(reverse("campaign:detail", args=[campaign.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    if "First steps" not in html:
        return []
    return [(label, url, mark == "✓") for mark, url, label in STEP.findall(html)]


def test_every_app_registers_its_steps_in_order(fresh):
    assert [step.label for step in first_steps.steps_for(fresh)] == LABELS


def test_a_new_campaign_shows_every_step_as_a_link_none_ticked(client, fresh):
    slug = fresh.slug
    assert steps_on_home(client, fresh) == [
        ("Invite players", first_steps.invites_url(fresh), False),
        ("Create commanders", reverse("armies:commander_new", args=[slug]), False),
        ("Publish offers", reverse("armies:offer_list", args=[slug]), False),
        ("Open a first table or battle", reverse("tabletop:table_new", args=[slug, "gridaris"]), False),
    ]


def test_the_invite_link_is_the_invites_page_once_it_exists_else_the_members_list(fresh, monkeypatch):
    home_members = reverse("campaign:detail", args=[fresh.slug]) + "#members"
    try:
        expected = reverse("people:invites", args=[fresh.slug])
    except NoReverseMatch:  # the invites page is being built (issue 23)
        expected = None
    if expected is not None:
        assert first_steps.invites_url(fresh) == expected
    monkeypatch.setattr(first_steps, "INVITE_PAGES", ("people:no-such-page",))
    assert first_steps.invites_url(fresh) == home_members


def test_each_step_is_ticked_as_it_is_done_and_the_list_goes_once_all_are(client, fresh):
    def ticked():
        return [label for label, _url, done in steps_on_home(client, fresh) if done]

    assert ticked() == []
    membership_add(campaign=fresh, user=UserFactory(), role=Membership.Role.GM)  # a second GM is no player
    assert ticked() == []
    player = membership_add(campaign=fresh, user=UserFactory())
    assert ticked() == ["Invite players"]
    CommanderFactory(membership=player)
    assert ticked() == ["Invite players", "Create commanders"]
    fresh.offers.create(card=UnitCardFactory(), price=10, quantity=2)
    assert ticked() == ["Invite players", "Create commanders", "Publish offers"]
    table = gridaris_table(fresh, [player, "A guest"])
    Table.objects.filter(pk=table.pk).update(what_if=True)  # a what-if is no first table
    assert ticked() == ["Invite players", "Create commanders", "Publish offers"]
    gridaris_table(fresh, [player, "A guest"])
    assert steps_on_home(client, fresh) == []


def test_a_player_never_sees_the_first_steps(client, fresh):
    player = membership_add(campaign=fresh, user=UserFactory())
    client.force_login(player.user)
    response = client.get(reverse("campaign:detail", args=[fresh.slug]))
    assert response.status_code == 200 and "First steps" not in response.content.decode()

"""A table's seat sheet to print (issue 24): for the GM only, a card (name, QR code, link) for each seat a
person plays; none for a seat the computer plays (ruling BOT32) nor for a what-if only the GM plays
(ruling WI10). The paper itself (one page, nothing off it): tests/armies/test_browser_print.py."""

import pytest
from django.urls import reverse

from campaign.models import Membership
from tabletop.models import Seat
from tabletop.services.forks import table_fork

from tests.factories import CampaignFactory, MembershipFactory, gridaris_table

pytestmark = pytest.mark.django_db


def sheet_url(world, table):
    return reverse("tabletop:gm_seat_sheet", args=[world.campaign.slug, table.pk])


@pytest.fixture
def five(world):
    """Ann, Ben and three guests, the last of whom the computer plays."""
    table = gridaris_table(world.campaign, [world.ann, world.ben, "Cora", "Dov", "Eli"], title="Five at the inn")
    Seat.objects.filter(table=table, index=4).update(bot="quick")
    return table


def test_every_seat_a_person_plays_has_its_card_with_qr_code_and_link(client, world, five):
    client.force_login(world.gm.user)
    response = client.get(sheet_url(world, five))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    html = response.content.decode()
    seats = {seat.index: seat for seat in five.seats.all()}
    assert html.count('class="seat-card"') == 4 and html.count('src="data:image/svg+xml') == 4
    for index in range(4):
        assert seats[index].token in html and f'id="seat-{index}"' in html
    assert "Ann" in html and "Cora" in html
    # the computer's seat: named as played by the computer, with neither card nor link (BOT32)
    assert seats[4].token not in html and 'id="seat-4"' not in html and "Eli" in html
    assert reverse("tabletop:gm_table", args=[world.campaign.slug, five.pk]) in html


def test_the_table_page_links_to_the_sheet_and_a_gm_only_what_if_has_no_card(client, world, five):
    client.force_login(world.gm.user)
    page = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, five.pk])).content.decode()
    assert sheet_url(world, five) in page
    fork = table_fork(table_id=five.pk, version=five.version, user=world.gm.user)
    assert fork.gm_only
    fork_page = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, fork.pk])).content.decode()
    assert sheet_url(world, fork) not in fork_page
    response = client.get(sheet_url(world, fork))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="seat-card"' not in html and "only the GM plays" in html
    assert not any(seat.token in html for seat in fork.seats.all())


def test_who_may_open_the_sheet(client, world, five):
    assert client.get(sheet_url(world, five)).status_code == 302
    for player in (world.ann, world.ben):
        client.force_login(player.user)
        assert client.get(sheet_url(world, five)).status_code == 403
    other = MembershipFactory(campaign=CampaignFactory(slug="elsewhere"), role=Membership.Role.GM)
    client.force_login(other.user)
    assert client.get(sheet_url(world, five)).status_code == 404
    assert client.get(reverse("tabletop:gm_seat_sheet", args=["elsewhere", five.pk])).status_code == 404


def test_the_sheet_uses_a_fixed_number_of_queries(client, world, django_assert_max_num_queries):
    two = gridaris_table(world.campaign, [world.ann, "Cora"], title="Two")
    five = gridaris_table(world.campaign, [world.ann, world.ben, "Cora", "Dov", "Eli"], title="Five")
    client.force_login(world.gm.user)
    with django_assert_max_num_queries(8) as few:
        response = client.get(sheet_url(world, two))
    assert response.status_code == 200 and response.content.decode().count('class="seat-card"') == 2
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(sheet_url(world, five))
    assert response.status_code == 200 and response.content.decode().count('class="seat-card"') == 5

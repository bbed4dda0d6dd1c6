import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Day, Membership
from campaign.services import campaign_create, membership_add

from tests.armies.factories import CommanderFactory
from tests.factories import PASSWORD, UserFactory, gridaris_table

pytestmark = pytest.mark.django_db


def test_a_new_campaign_opens_day_one_with_its_gm():
    gm = UserFactory()
    campaign = campaign_create(name="Winter War", slug="winter-war", gm=gm)
    assert campaign.current_day == 1
    assert list(Day.objects.filter(campaign=campaign).values_list("number", flat=True)) == [1]
    assert Membership.objects.get(campaign=campaign).role == Membership.Role.GM


def test_one_user_can_be_gm_of_one_campaign_and_player_in_another(client):
    user, other_gm = UserFactory(), UserFactory()
    mine = campaign_create(name="Mine", slug="mine", gm=user)
    theirs = campaign_create(name="Theirs", slug="theirs", gm=other_gm)
    membership_add(campaign=theirs, user=user)
    client.force_login(user)
    html = client.get(reverse("campaign:home")).content.decode()
    assert "Mine" in html and "Theirs" in html
    assert client.get(reverse("tabletop:table_new", args=[mine.slug, "gridaris"])).status_code == 200
    assert client.get(reverse("tabletop:table_new", args=[theirs.slug, "gridaris"])).status_code == 403


def test_the_gm_home_lists_days_members_and_tables(client, world, table):
    client.force_login(world.gm.user)
    html = client.get(reverse("campaign:detail", args=[world.campaign.slug])).content.decode()
    assert "Day 1" in html and "Ann the Bold" in html and "Ben the Sly" in html
    assert reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk]) in html


def test_a_player_home_shows_their_seats_and_nobody_elses(client, world, table):
    ben_only = gridaris_table(world.campaign, [world.ben, "A guest"], title="Ben and a guest")
    client.force_login(world.ann.user)
    html = client.get(reverse("campaign:detail", args=[world.campaign.slug])).content.decode()
    assert table.seats.get(index=0).token in html
    assert table.seats.get(index=1).token not in html
    assert ben_only.title not in html
    assert "New Mercenaries of Gridaris table" not in html


def test_the_campaign_home_does_a_fixed_number_of_queries(client, world, django_assert_max_num_queries):
    for index in range(5):
        gridaris_table(world.campaign, [world.ann, world.ben], title=f"Table {index}")
    client.force_login(world.gm.user)
    with django_assert_max_num_queries(14):
        response = client.get(reverse("campaign:detail", args=[world.campaign.slug]))
    assert response.status_code == 200 and "Table 4" in response.content.decode()


def _gm_home_queries(client, campaign) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("campaign:detail", args=[campaign.slug]))
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_a_new_campaigns_gm_home_with_its_first_steps_does_as_many_queries_small_or_big(client):
    gm = UserFactory()
    client.force_login(gm)
    small = campaign_create(creator=gm, name="Small")
    big = campaign_create(creator=gm, name="Big")
    for campaign, size in ((small, 1), (big, 8)):  # no offers yet: the first steps stay on the page
        for index in range(size):
            membership = membership_add(campaign=campaign, user=UserFactory(), character_name=f"Player {index}")
            CommanderFactory(membership=membership)
            gridaris_table(campaign, [membership, "A guest"], title=f"Table {index}")
    small_count, small_html = _gm_home_queries(client, small)
    big_count, big_html = _gm_home_queries(client, big)
    assert "First steps" in small_html and "Publish offers" in small_html
    assert "First steps" in big_html and "Player 7" in big_html and "Table 7" in big_html
    assert small_count == big_count <= 14


def test_log_in_and_out_through_the_styled_pages(client, world):
    page = client.get(reverse("login")).content.decode()
    assert 'class="brand"' in page
    response = client.post(reverse("login"), {"username": "ann", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("campaign:home")
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("campaign:home")).status_code == 302


def test_a_wrong_password_is_refused_with_a_message(client, world):
    response = client.post(reverse("login"), {"username": "ann", "password": "nope"})
    assert response.status_code == 200
    assert "didn't match" in response.content.decode()


def test_a_player_changes_their_password(client, world):
    client.force_login(world.ann.user)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "a-much-longer-secret-9",
            "new_password2": "a-much-longer-secret-9",
        },
    )
    assert response.status_code == 302
    world.ann.user.refresh_from_db()
    assert world.ann.user.check_password("a-much-longer-secret-9")

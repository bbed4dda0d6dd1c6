"""Pages that show a member's money or roster say ``Cache-Control: private, no-store``: a proxy or
shared cache in front must never hand one member's treasury to the next person who asks."""

import pytest
from django.urls import URLPattern, reverse
from django.utils.cache import get_max_age

from armies import urls as armies_urls
from campaign import urls as campaign_urls

from .armies.factories import CommanderFactory

pytestmark = pytest.mark.django_db


def assert_private(response):
    assert response.status_code == 200, response.status_code
    directives = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"private", "no-store"} <= directives
    assert get_max_age(response) is None


@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey", balance=30)


@pytest.mark.parametrize(
    "name, needs_commander",
    [
        ("campaign:home", False),
        ("campaign:detail", False),
        ("campaign:activity", False),
        ("campaign:settings", False),
        ("armies:treasury", False),
        ("armies:ledger_csv", False),
        ("armies:list", False),
        ("armies:commander_new", False),
        ("armies:offer_list", False),
        ("armies:battle_new", False),
        ("armies:day_end", False),
        ("armies:commander", True),
        ("armies:commander_ledger_csv", True),
        ("armies:commander_edit", True),
    ],
)
def test_the_gms_money_and_roster_pages_are_private_and_not_stored(client, world, vey, name, needs_commander):
    client.force_login(world.gm.user)
    args = [world.campaign.slug, vey.pk] if needs_commander else [world.campaign.slug]
    if name == "campaign:home":
        args = []
    query = {"day": world.campaign.current_day} if name == "armies:day_end" else {}
    assert_private(client.get(reverse(name, args=args), query))


@pytest.mark.parametrize("name", ["armies:commander", "armies:commander_ledger_csv"])
def test_a_players_own_commander_pages_are_private_and_not_stored(client, world, vey, name):
    client.force_login(world.ann.user)
    assert_private(client.get(reverse(name, args=[world.campaign.slug, vey.pk])))


@pytest.mark.parametrize(
    "pattern",
    [*campaign_urls.urlpatterns, *armies_urls.urlpatterns],
    ids=lambda pattern: pattern.name,
)
def test_every_campaign_and_armies_view_answers_private_even_a_refusal(client, world, pattern: URLPattern):
    """Every view of the two apps, a new one too, carries the header, on its login redirect or 405 as well."""
    kwargs = {name: world.campaign.slug if name == "slug" else 1 for name in pattern.pattern.converters}
    response = client.get(reverse(f"{pattern_app(pattern)}:{pattern.name}", kwargs=kwargs))
    assert response.status_code in {302, 405}, response.status_code
    assert {"private", "no-store"} <= {part.strip() for part in response.get("Cache-Control", "").split(",")}


def pattern_app(pattern: URLPattern) -> str:
    return "campaign" if pattern in campaign_urls.urlpatterns else "armies"

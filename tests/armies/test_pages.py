"""The army pages as a player and as the GM."""

import pytest
from django.urls import reverse

from armies.models import ArmyUnit, UnitUse
from campaign.models import LedgerEntry

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, RecruitOfferFactory, UnitCardFactory
from tests.counted import counted_get
from tests.forms import once

pytestmark = pytest.mark.django_db


@pytest.fixture
def armies(world):
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", balance=100, weapons=6, alchemy=2)
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", balance=5)
    spearmen = UnitCardFactory(name="Spearmen", strength=2, upkeep=3, price=20)
    ArmyUnitFactory(commander=vey, card=spearmen)
    ArmyUnitFactory(commander=marr, card=UnitCardFactory(name="Secret Golem", strength=6, upkeep=8))
    return vey, marr, spearmen


def roster_section(response) -> str:
    html = response.content.decode()
    start = html.index('<section class="card" id="roster">')
    return html[start : html.index("</section>", start)]


def commander_url(world, commander, name="armies:commander", *extra):
    return reverse(name, args=[world.campaign.slug, commander.pk, *extra])


def test_a_player_sees_their_roster_and_treasury(client, world, armies):
    vey, _, _ = armies
    client.force_login(world.ann.user)
    html = client.get(commander_url(world, vey)).content.decode()
    assert "Spearmen" in html and "Treasury: 100 coins" in html


def test_a_player_never_sees_another_players_commander(client, world, armies):
    _, marr, _ = armies
    client.force_login(world.ann.user)
    assert client.get(commander_url(world, marr)).status_code == 404
    listing = client.get(reverse("armies:list", args=[world.campaign.slug])).content.decode()
    assert "Lord Marr" not in listing and "Secret Golem" not in listing


def test_the_gm_sees_every_army_the_preview_and_the_chart(client, world, armies):
    vey, marr, _ = armies
    UnitUse.objects.create(unit=vey.units.get(), commander=vey, day=1)
    client.force_login(world.gm.user)
    html = client.get(reverse("armies:list", args=[world.campaign.slug])).content.decode()
    assert "Lady Vey" in html and "Lord Marr" in html
    assert "Upkeep due at the end of day 1" in html
    assert "<svg" in html and "Lady Vey: 100" in html


def test_a_player_recruits_from_an_offer(client, world, armies):
    vey, _, spearmen = armies
    offer = RecruitOfferFactory(campaign=world.campaign, card=spearmen, price=20, quantity=2)
    client.force_login(world.ann.user)
    response = client.post(commander_url(world, vey, "armies:buy", offer.pk), once(price=20), follow=True)
    assert "Spearmen joined Lady Vey" in response.content.decode()
    assert vey.units.filter(status=ArmyUnit.Status.ACTIVE).count() == 2
    assert LedgerEntry.objects.filter(account=vey.account, amount=-20).exists()


def test_a_recruit_the_commander_cannot_afford_is_refused_with_the_reason(client, world, armies):
    _, marr, spearmen = armies
    offer = RecruitOfferFactory(campaign=world.campaign, card=spearmen, price=20, quantity=2)
    client.force_login(world.ben.user)
    response = client.post(commander_url(world, marr, "armies:buy", offer.pk), once(price=20), follow=True)
    assert "has 5 coins and this needs 20" in response.content.decode()
    assert marr.units.count() == 1


def test_a_player_trains_a_unit_with_item_cards(client, world, armies):
    vey, _, _ = armies
    unit = vey.units.get()
    client.force_login(world.ann.user)
    response = client.post(
        commander_url(world, vey, "armies:train", unit.pk),
        once(pay_with="items", weapons=6, shields=0, alchemy=2),
        follow=True,
    )
    assert "trained: +1 Strength" in response.content.decode()
    unit.refresh_from_db()
    vey.refresh_from_db()
    assert unit.trained and vey.weapons == 0 and vey.alchemy == 0


def test_only_the_gm_posts_adjustments(client, world, armies):
    vey, _, _ = armies
    client.force_login(world.ann.user)
    assert client.post(commander_url(world, vey, "armies:adjust"), {"amount": 50, "reason": "Gift"}).status_code == 403
    client.force_login(world.gm.user)
    client.post(commander_url(world, vey, "armies:adjust"), once(amount=-30, reason="Fine for looting"))
    assert LedgerEntry.objects.get(account=vey.account, kind=LedgerEntry.Kind.ADJUSTMENT).amount == -30


def test_the_roster_page_costs_the_same_queries_for_10_and_200_units(client, world):
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", balance=10)
    card = UnitCardFactory()
    client.force_login(world.ann.user)
    ArmyUnit.objects.bulk_create(ArmyUnit(commander=vey, card=card, joined_day=1) for _ in range(10))
    small = counted_get(client, commander_url(world, vey), queries=12, contains=["Lady Vey", card.name]).queries
    ArmyUnit.objects.bulk_create(ArmyUnit(commander=vey, card=card, joined_day=1) for _ in range(190))
    large = counted_get(client, commander_url(world, vey), queries=small, contains=["Lady Vey", card.name])
    assert large.queries == small


def test_the_roster_as_it_stood_on_a_past_day(client, world, armies):
    vey, _, _ = armies
    ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Late Recruits"), joined_day=3)
    world.campaign.current_day = 4
    world.campaign.save()
    client.force_login(world.ann.user)
    past = roster_section(client.get(commander_url(world, vey), {"day": 2}))
    now = roster_section(client.get(commander_url(world, vey)))
    assert "Late Recruits" not in past and "Roster at the end of day 2" in past
    assert "Late Recruits" in now


def test_the_gm_creates_a_commander_for_a_player(client, world):
    client.force_login(world.gm.user)
    url = reverse("armies:commander_new", args=[world.campaign.slug])
    response = client.post(
        url,
        {
            "name": "Dame Ortolan",
            "membership": world.ann.pk,
            "kind": "pc",
            "role": "healer",
            "path": "nature",
            "progression": 4,
            "favors": 1,
            "influence_halves": 2,
            "opening_balance": 30,
            **once(),
        },
    )
    commander = world.ann.commanders.get(name="Dame Ortolan")
    assert response.status_code == 302 and response["Location"].endswith(f"/armies/{commander.pk}/")
    assert LedgerEntry.objects.get(account=commander.account).amount == 30


def test_a_commander_the_rules_refuse_is_explained_on_the_form(client, world):
    client.force_login(world.gm.user)
    response = client.post(
        reverse("armies:commander_new", args=[world.campaign.slug]),
        {
            "name": "Sneaky",
            "membership": world.ann.pk,
            "kind": "npc",
            "role": "healer",
            "path": "nature",
            "progression": 0,
            "favors": 0,
            "influence_halves": 0,
            "opening_balance": 0,
            **once(),
        },
    )
    assert response.status_code == 200
    assert "An NPC commander belongs to the GM" in response.content.decode()


def test_the_gm_sets_what_a_commander_holds_for_training(client, world, armies):
    vey, _, _ = armies
    client.force_login(world.gm.user)
    client.post(
        commander_url(world, vey, "armies:items"), once(weapons=3, shields=4, alchemy=1, build_points=60)
    )
    vey.refresh_from_db()
    assert (vey.weapons, vey.shields, vey.alchemy, vey.build_points) == (3, 4, 1, 60)

"""Every create / state-changing army form is applied once per submission (issue 12)."""

import pytest
from django.urls import reverse

from armies.models import ArmyUnit, Battle, Commander, RecruitOffer
from campaign.ledger import balance_of
from campaign.models import LedgerEntry

from tests.armies._battles import posted
from tests.armies.factories import ArmyUnitFactory, CommanderFactory, RecruitOfferFactory, UnitCardFactory
from tests.concurrency import race
from tests.forms import logged_in_client, once, tokens_in


@pytest.fixture
def armies(world):
    vey = CommanderFactory(
        membership=world.ann, name="Lady Vey", role="aggressor", path="steel", balance=100, weapons=10
    )
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", role="aggressor", path="steel")
    ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Spearmen", strength=3))
    ArmyUnitFactory(commander=marr, card=UnitCardFactory(name="Secret Golem", strength=1))
    return vey, marr


def battle_url(world):
    return reverse("armies:battle_new", args=[world.campaign.slug])


def commander_url(world, commander, name="armies:commander", *extra):
    return reverse(name, args=[world.campaign.slug, commander.pk, *extra])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_three_concurrent_open_battle_posts_open_one_battle(world, armies):
    vey, marr = armies
    clients = [logged_in_client(world.gm.user) for _ in range(3)]
    data = posted(vey, marr)  # one rendered form (with its token), sent three times at once

    responses = race([lambda client=client: client.post(battle_url(world), data) for client in clients])

    battle = Battle.objects.get()
    gm_table = reverse("tabletop:gm_table", args=[world.campaign.slug, battle.table_id])
    assert [(response.status_code, response["Location"]) for response in responses] == [(302, gm_table)] * 3


@pytest.mark.django_db
def test_the_same_open_battle_form_sent_twice_opens_one_battle_and_shows_it(client, world, armies):
    vey, marr = armies
    client.force_login(world.gm.user)
    data = posted(vey, marr)
    client.post(battle_url(world), data)
    again = client.post(battle_url(world), data, follow=True)
    battle = Battle.objects.get()
    assert again.redirect_chain[-1][0].endswith(f"/tables/{battle.table_id}/")
    assert f"Already done: Battle #{battle.pk} was opened by this form" in again.content.decode()


def recruit(world, vey, _marr):
    offer = RecruitOfferFactory(campaign=world.campaign, card=UnitCardFactory(name="Pikes"), price=30, quantity=5)
    return commander_url(world, vey, "armies:buy", offer.pk), once(price=30), world.ann.user


def train(world, vey, _marr):
    unit = vey.units.get()
    return commander_url(world, vey, "armies:train", unit.pk), once(pay_with="items", weapons=10), world.ann.user


def adjust(world, vey, _marr):
    return commander_url(world, vey, "armies:adjust"), once(amount=-30, reason="Fine"), world.gm.user


def grant(world, vey, _marr):
    offer = RecruitOfferFactory(campaign=world.campaign, card=UnitCardFactory(name="Ghosts"), price=0, quest="Lay them")
    return commander_url(world, vey, "armies:grant", offer.pk), once(), world.gm.user


def items(world, vey, _marr):
    data = once(weapons=12, shields=0, alchemy=0, build_points=0)
    return commander_url(world, vey, "armies:items"), data, world.gm.user


def commander_new(world, _vey, _marr):
    data = once(name="Dame Ortolan", membership=world.ann.pk, kind="pc", role="healer", path="nature",
                progression=0, favors=0, influence_halves=0, opening_balance=30)
    return reverse("armies:commander_new", args=[world.campaign.slug]), data, world.gm.user


def offer_new(world, _vey, _marr):
    data = once(card=UnitCardFactory(name="Archers").pk, price=5, quantity=2)
    return reverse("armies:offer_new", args=[world.campaign.slug]), data, world.gm.user


def state(vey):
    """Everything these forms change, read fresh."""
    vey = Commander.objects.get(pk=vey.pk)
    return {
        "units": ArmyUnit.objects.filter(commander=vey).count(),
        "trained": ArmyUnit.objects.filter(commander=vey, trained=True).count(),
        "balance": balance_of(vey.account),
        "entries": LedgerEntry.objects.count(),
        "weapons": vey.weapons,
        "commanders": Commander.objects.count(),
        "offers": RecruitOffer.objects.count(),
        "sold": sum(RecruitOffer.objects.values_list("sold", flat=True)),
    }


@pytest.mark.django_db
@pytest.mark.parametrize("form", [recruit, train, adjust, grant, items, commander_new, offer_new])
def test_each_army_form_sent_twice_is_applied_once_and_says_so(client, world, armies, form):
    vey, marr = armies
    url, data, user = form(world, vey, marr)
    client.force_login(user)
    before = state(vey)
    client.post(url, data)
    once_applied = state(vey)
    again = client.post(url, data, follow=True)
    assert once_applied != before
    assert state(vey) == once_applied
    assert "Already done" in again.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("form", [recruit, train, adjust, grant, items, commander_new, offer_new])
def test_an_army_post_without_its_token_asks_to_reload_and_changes_nothing(client, world, armies, form):
    vey, marr = armies
    url, data, user = form(world, vey, marr)
    client.force_login(user)
    before = state(vey)
    response = client.post(url, {**data, "submission": ""}, follow=True)
    assert response.status_code == 200 and "reload the page" in response.content.decode()
    assert state(vey) == before


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_double_tapped_recruit_racing_itself_buys_one_unit(world, armies):
    vey, _ = armies
    offer = RecruitOfferFactory(campaign=world.campaign, card=UnitCardFactory(name="Pikes"), price=30, quantity=5)
    clients = [logged_in_client(world.ann.user) for _ in range(3)]
    data = once(price=30)
    url = commander_url(world, vey, "armies:buy", offer.pk)

    responses = race([lambda client=client: client.post(url, data) for client in clients])

    assert [response.status_code for response in responses] == [302] * 3
    assert ArmyUnit.objects.filter(commander=vey).count() == 2
    assert balance_of(vey.account) == 70


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["commander", "armies", "new_commander", "new_battle"])
def test_every_posting_form_on_the_gm_pages_carries_its_own_token(client, world, armies, page):
    vey, marr = armies
    RecruitOfferFactory(campaign=world.campaign, card=UnitCardFactory(name="Pikes"), price=30, quantity=5)
    RecruitOfferFactory(campaign=world.campaign, card=UnitCardFactory(name="Ghosts"), price=0, quest="Lay them")
    urls = {
        "commander": commander_url(world, vey),
        "armies": reverse("armies:list", args=[world.campaign.slug]),
        "new_commander": reverse("armies:commander_new", args=[world.campaign.slug]),
        "new_battle": battle_url(world) + f"?attacker={vey.pk}&defender={marr.pk}",
    }
    client.force_login(world.gm.user)
    html = client.get(urls[page]).content.decode()
    forms = [chunk.split("</form>")[0] for chunk in html.split("<form")[1:]]
    posting = [form for form in forms if 'method="post"' in form.split(">")[0]]
    # End day is pinned to its day (ruling U9); logging out changes no campaign state
    creating = [form for form in posting if "day-end" not in form.split(">")[0] and "logout" not in form.split(">")[0]]
    tokens = [tokens_in(form) for form in creating]
    assert creating and all(len(found) == 1 for found in tokens)
    assert len({found[0] for found in tokens}) == len(tokens)


@pytest.mark.django_db
def test_an_open_battle_post_without_its_token_asks_to_reload_and_opens_nothing(client, world, armies):
    vey, marr = armies
    client.force_login(world.gm.user)
    response = client.post(battle_url(world), {**posted(vey, marr), "submission": ""})
    assert response.status_code == 200 and "reload the page and send it again" in response.content.decode()
    assert not Battle.objects.exists()

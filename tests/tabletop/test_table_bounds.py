"""Bounds on the numbers typed for tables and card catalogs: form, service, validators, database (issue 12)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaign import bounds
from campaign.models import LedgerEntry
from tabletop.models import DungeonCard, GridarisCard, MercenariumCard, MercenariumHymn, Stake, Table
from tabletop.services.stakes import StakeTerms, stakes_collect
from tabletop.services.tables import SetupRefused

from tests.constraints import refused_by_the_database
from tests.factories import gridaris_table
from tests.forms import once
from tests.tabletop._stakes import purse

pytestmark = pytest.mark.django_db


def new_table_url(world, game="gridaris"):
    return reverse("tabletop:table_new", args=[world.campaign.slug, game])


@pytest.mark.parametrize("fee", [bounds.MAX_COINS + 1, 10**20])
def test_an_entry_fee_beyond_its_bound_is_refused_on_the_form_and_charges_nobody(client, world, fee):
    purse(world.ann, 50), purse(world.ben, 50)
    client.force_login(world.gm.user)
    data = once(title="Dear", members=[world.ann.pk, world.ben.pk], mode="standard", entry_fee=str(fee))
    response = client.post(new_table_url(world), data)
    assert response.status_code == 200 and "Ensure this value is less than or equal to" in response.content.decode()
    assert not Table.objects.exists() and not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.STAKE).exists()


def test_a_gotm_series_game_beyond_its_bound_is_refused_on_the_form(client, world):
    client.force_login(world.gm.user)
    data = once(title="Series", members=[world.ann.pk, world.ben.pk], series_game=str(10**20))
    response = client.post(new_table_url(world, "gotm"), data)
    assert response.status_code == 200 and "Ensure this value is less than or equal to" in response.content.decode()
    assert not Table.objects.exists()


def test_stakes_collect_refuses_an_entry_fee_beyond_its_bound(world):
    accounts = {member.pk: purse(member, 50) for member in (world.ann, world.ben)}
    table = gridaris_table(world.campaign, [world.ann, world.ben])
    with pytest.raises(SetupRefused, match="An entry fee is at most 1,000,000 coins"):
        stakes_collect(table=table, terms=StakeTerms(entry_fee=bounds.MAX_COINS + 1, payout="winner_takes_all",
                                                     accounts=accounts))
    assert not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.STAKE).exists()


def test_the_database_refuses_a_stake_beyond_its_bound(world):
    table = gridaris_table(world.campaign, [world.ann, world.ben])
    assert refused_by_the_database(lambda: Stake.objects.create(table=table, entry_fee=bounds.MAX_COINS + 1))
    assert not refused_by_the_database(lambda: Stake.objects.create(table=table, entry_fee=bounds.MAX_COINS))


@pytest.mark.parametrize(
    "model, field, value",
    [
        (GridarisCard, "stars", 10),
        (GridarisCard, "stars", 0),
        (MercenariumCard, "value", 16),
        (MercenariumCard, "top", 6),
        (MercenariumCard, "left", 70000),
        (MercenariumHymn, "number", 16),
    ],
)
def test_a_catalog_number_beyond_its_bound_is_refused_by_its_validators_and_the_database(world, model, field, value):
    row = model.objects.order_by("pk").first()
    setattr(row, field, value)
    with pytest.raises(ValidationError) as refused:
        row.full_clean(validate_unique=False)
    assert field in refused.value.message_dict
    assert refused_by_the_database(lambda: model.objects.filter(pk=row.pk).update(**{field: value}))


def test_a_dungeon_card_with_too_many_copies_is_refused_by_its_validator_and_the_database(world):
    card = DungeonCard.objects.create(code="goblin", kind="monster", name="Goblin", stats={"health": 2, "copies": 18})
    card.stats = {"health": 2, "copies": 200000}
    with pytest.raises(ValidationError, match="copies must be between 0 and 100"):
        card.full_clean()
    card.stats = {"health": 10**9, "copies": 2}
    with pytest.raises(ValidationError, match="health must be between"):
        card.full_clean()
    assert refused_by_the_database(lambda: DungeonCard.objects.filter(pk=card.pk).update(stats={"copies": 200000}))
    assert not refused_by_the_database(lambda: DungeonCard.objects.filter(pk=card.pk).update(stats={"copies": 100}))

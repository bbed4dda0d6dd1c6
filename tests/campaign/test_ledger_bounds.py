"""Bounds on every typed number: form, service and database (campaign/bounds.py; issue 12)."""

import pytest
from django.urls import reverse

from campaign.bounds import MAX_COINS, MAX_DAY, MAX_LEDGER_AMOUNT, OutOfBounds
from campaign.ledger import ledger_post
from campaign.models import Account, Campaign, Day, LedgerEntry
from campaign.services import ledger_adjust

from tests.armies.factories import CommanderFactory
from tests.constraints import refused_by_the_database
from tests.forms import once

pytestmark = pytest.mark.django_db

BIGINT_MAX = 9223372036854775807


def pages(world, commander):
    slug = world.campaign.slug
    return [
        reverse("campaign:detail", args=[slug]),
        reverse("armies:list", args=[slug]),
        reverse("armies:commander", args=[slug, commander.pk]),
    ]


@pytest.mark.parametrize("amount", [BIGINT_MAX, 10**20, -(10**20), MAX_COINS + 1])
def test_a_huge_gm_adjustment_is_refused_with_a_message_and_every_page_stays_whole(client, world, amount):
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", balance=100)
    client.force_login(world.gm.user)
    url = reverse("armies:adjust", args=[world.campaign.slug, vey.pk])
    response = client.post(url, once(amount=str(amount), reason="Typo"), follow=True)
    assert "Ensure this value is" in response.content.decode()
    assert LedgerEntry.objects.filter(kind=LedgerEntry.Kind.ADJUSTMENT).count() == 0
    assert [client.get(page).status_code for page in pages(world, vey)] == [200, 200, 200]


def test_the_largest_adjustment_the_form_allows_is_posted(client, world):
    vey = CommanderFactory(membership=world.ann, name="Lady Vey")
    client.force_login(world.gm.user)
    url = reverse("armies:adjust", args=[world.campaign.slug, vey.pk])
    client.post(url, once(amount=str(MAX_COINS), reason="A king's ransom"))
    assert LedgerEntry.objects.get(kind=LedgerEntry.Kind.ADJUSTMENT).amount == MAX_COINS
    assert [client.get(page).status_code for page in pages(world, vey)] == [200, 200, 200]


def test_the_services_refuse_out_of_bounds_amounts_with_a_sentence(world):
    account = Account.objects.create(campaign=world.campaign, name="Purse")
    with pytest.raises(OutOfBounds, match="at most 1,000,000 coins either way"):
        ledger_adjust(account=account, amount=BIGINT_MAX, reason="Typo", gm=world.gm.user)
    with pytest.raises(OutOfBounds, match="between -1,000,000,000 and 1,000,000,000"):
        ledger_post(account=account, amount=MAX_LEDGER_AMOUNT + 1, kind="adjustment", reason="Typo")
    assert not LedgerEntry.objects.exists()


def test_the_database_refuses_a_ledger_entry_beyond_its_bound_even_past_the_service(world):
    account = Account.objects.create(campaign=world.campaign, name="Purse")

    def entry(amount, day=1):
        return lambda: LedgerEntry.objects.create(account=account, amount=amount, day=day, kind="adjustment", reason="")

    assert refused_by_the_database(entry(BIGINT_MAX))
    assert refused_by_the_database(entry(-MAX_LEDGER_AMOUNT - 1))
    assert refused_by_the_database(entry(5, day=MAX_DAY + 1))
    assert not refused_by_the_database(entry(MAX_LEDGER_AMOUNT))


def test_the_database_refuses_campaign_and_day_numbers_out_of_bounds(world):
    campaign = world.campaign
    assert refused_by_the_database(lambda: Campaign.objects.filter(pk=campaign.pk).update(current_day=MAX_DAY + 1))
    assert refused_by_the_database(lambda: Campaign.objects.filter(pk=campaign.pk).update(current_day=0))
    assert refused_by_the_database(lambda: Day.objects.create(campaign=campaign, number=MAX_DAY + 1))
    assert not refused_by_the_database(lambda: Day.objects.create(campaign=campaign, number=2))

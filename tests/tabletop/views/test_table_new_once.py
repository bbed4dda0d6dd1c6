"""A "new table" form is applied once per submission, stakes included (issue 12)."""

import pytest
from django.urls import reverse

from campaign.ledger import balance_of
from campaign.models import LedgerEntry
from tabletop.models import Stake, Table

from tests.concurrency import race
from tests.forms import logged_in_client, once, tokens_in
from tests.tabletop._stakes import purse


def new_table_url(world):
    return reverse("tabletop:table_new", args=[world.campaign.slug, "gridaris"])


def staked_form(world, token, **extra):
    return {"title": "Gridaris at the Inn", "members": [world.ann.pk, world.ben.pk], "mode": "standard",
            "entry_fee": 10, "submission": token, **extra}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_four_concurrent_identical_new_table_posts_make_one_table_and_charge_the_fee_once(world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 50)
    clients = [logged_in_client(world.gm.user) for _ in range(4)]
    data = staked_form(world, once()["submission"])  # one rendered form, sent four times at once

    responses = race([lambda client=client: client.post(new_table_url(world), data) for client in clients])

    table = Table.objects.get()
    assert [response.status_code for response in responses] == [302] * 4
    assert {response["Location"] for response in responses} == {reverse(
        "tabletop:gm_table", args=[world.campaign.slug, table.pk])}
    assert Stake.objects.count() == 1
    assert LedgerEntry.objects.filter(kind=LedgerEntry.Kind.STAKE).count() == 2
    assert (balance_of(ann), balance_of(ben)) == (40, 40)


@pytest.mark.django_db
def test_the_same_new_table_form_sent_twice_opens_one_table_and_says_it_was_already_done(client, world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 50)
    client.force_login(world.gm.user)
    [token] = tokens_in(client.get(new_table_url(world)).content.decode())

    first = client.post(new_table_url(world), staked_form(world, token))
    again = client.post(new_table_url(world), staked_form(world, token), follow=True)

    table = Table.objects.get()
    assert first["Location"] == again.redirect_chain[-1][0]
    assert "Already done: Gridaris at the Inn was opened by this form and its entry fees were collected once." in (
        again.content.decode()
    )
    assert (balance_of(ann), balance_of(ben)) == (40, 40) and table.stake.entry_fee == 10


@pytest.mark.django_db
def test_a_second_rendering_of_the_form_opens_a_second_table(client, world):
    client.force_login(world.gm.user)
    for _ in range(2):
        client.post(new_table_url(world), {**staked_form(world, "", entry_fee=""), **once()})
    assert Table.objects.count() == 2


@pytest.mark.django_db
def test_a_new_table_post_without_its_token_asks_to_reload_and_opens_nothing(client, world):
    purse(world.ann, 50), purse(world.ben, 50)
    client.force_login(world.gm.user)
    response = client.post(new_table_url(world), staked_form(world, ""))
    assert response.status_code == 200
    assert "reload the page and send it again" in response.content.decode()
    assert not Table.objects.exists() and not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.STAKE).exists()

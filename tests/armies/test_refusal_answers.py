"""A refusal is a sentence on the page; a programming error is a 500 (issue 39).

Only a ``Refusal`` (muster/refusals.py) a service raises becomes a sentence: a plain ``ValueError`` or
``TypeError`` from the same call is a bug, and the page must not hide it behind a flash message.
"""

import pytest
from django.urls import reverse

from campaign.models import LedgerEntry
from muster.refusals import Refusal

from tests.armies.factories import CommanderFactory
from tests.forms import once


@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey", role="aggressor", path="steel", balance=10)


def _adjust(client, world, vey, **fields):
    client.force_login(world.gm.user)
    url = reverse("armies:adjust", args=[world.campaign.slug, vey.pk])
    return client.post(url, once(amount=5, reason="Bounty", **fields), follow=True)


@pytest.mark.django_db
@pytest.mark.parametrize("bug", [ValueError, TypeError])
def test_a_plain_error_in_the_adjust_service_is_a_500_not_a_flash(client, world, vey, monkeypatch, bug):
    def broken(**_kwargs):
        raise bug("a slip in the code, not a sentence for the GM")

    monkeypatch.setattr("armies.views.commanders.ledger_adjust", broken)
    client.raise_request_exception = False
    reply = _adjust(client, world, vey)
    assert reply.status_code == 500
    assert "a slip in the code" not in reply.content.decode()


@pytest.mark.django_db
def test_a_refusal_of_the_adjust_service_is_its_sentence_on_the_commander_page(client, world, vey, monkeypatch):
    def refusing(**_kwargs):
        raise Refusal("Lady Vey's treasury holds 10 coins: a debit of 50 would overdraw it.")

    monkeypatch.setattr("armies.views.commanders.ledger_adjust", refusing)
    reply = _adjust(client, world, vey)
    assert reply.status_code == 200
    assert reply.redirect_chain[-1][0].endswith(reverse("armies:commander", args=[world.campaign.slug, vey.pk]))
    assert "a debit of 50 would overdraw it" in reply.content.decode()
    assert not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.ADJUSTMENT).exists()

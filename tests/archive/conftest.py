"""Fixtures of the archive tests: a campaign with something of every core kind, and the round trip's steps."""

from __future__ import annotations

import io
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.utils import timezone

from archive.export import campaign_export
from archive.importer import campaign_import
from campaign.models import Day, Membership
from campaign.services import account_create, ledger_adjust
from people.models import Invite
from tabletop.engines.gridaris.starter import STARTER_CARDS
from tabletop.services.forks import table_fork
from tabletop.services.stakes import StakeTerms, table_open_with_stakes
from tabletop.services.tables import SeatSpec, table_undo

from tests.archive._helpers import archive_lines, claim_invites, rewrite, use_claims
from tests.factories import gridaris_table
from tests.tables import play_next


@pytest.fixture
def full_campaign(world):
    """The world's campaign with two days, purses and ledger entries, a played Gridaris table with an
    undo, a staked table with a guest, a GM-only and a players' what-if, and an open invite."""
    campaign, gm = world.campaign, world.gm.user
    Day.objects.filter(campaign=campaign, number=1).update(closed_at=timezone.now())
    Day.objects.create(campaign=campaign, number=2)
    campaign.current_day = 2
    campaign.save(update_fields=["current_day"])
    ann_purse = account_create(campaign=campaign, name="Ann's purse", owner=world.ann)
    ben_purse = account_create(campaign=campaign, name="Ben's purse", owner=world.ben)
    account_create(campaign=campaign, name="The bank")
    ledger_adjust(account=ann_purse, amount=50, reason="Opening", gm=gm)
    ledger_adjust(account=ben_purse, amount=30, reason="Opening", gm=gm)
    ledger_adjust(account=ben_purse, amount=-5, reason="A fine", gm=gm)

    played = gridaris_table(campaign, [world.ann, world.ben], title="Duel at the Inn")
    for _ in range(3):
        played = play_next(played)
    played = table_undo(table_id=played.pk, version=played.version, user=gm)
    played = play_next(play_next(played))

    staked = table_open_with_stakes(
        campaign=campaign, game="gridaris", title="Stakes at the Inn",
        seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben), SeatSpec(guest_name="Gus")],
        config={"mode": "standard", "cards": STARTER_CARDS}, seed=2, created_by=gm,
        stakes=StakeTerms(entry_fee=10, payout="winner_takes_all",
                          accounts={world.ann.pk: ann_purse, world.ben.pk: ben_purse}),
    )
    play_next(staked)

    table_fork(table_id=played.pk, version=2, user=gm)  # the GM's own what-if
    players_fork = table_fork(table_id=played.pk, version=2, user=gm, players=True)
    play_next(players_fork)

    Invite.objects.create(campaign=campaign, role=Membership.Role.PLAYER, max_uses=3,
                          expires_at=timezone.now() + timedelta(days=3), created_by=gm)
    return world


def export_bytes(campaign) -> bytes:
    out = io.BytesIO()
    campaign_export(campaign, out)
    return out.getvalue()


def import_bytes(data: bytes, user, **kwargs):
    return campaign_import(io.BytesIO(data), importer=user, **kwargs)


@pytest.fixture
def exported():
    return export_bytes


@pytest.fixture
def imported():
    return import_bytes


def row_counts() -> dict[str, int]:
    """How many rows every model of the project (and the users) has."""
    labels = {"campaign", "tabletop", "armies", "people", "auth"}
    return {model._meta.label: model._base_manager.count() for model in apps.get_models()
            if model._meta.app_label in labels}


@pytest.fixture
def archives():
    return SimpleNamespace(lines=archive_lines, rewrite=rewrite, rows=row_counts, claims=claim_invites,
                           use_claims=use_claims)

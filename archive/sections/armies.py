"""The armies part of a campaign archive: commanders, rosters with their history, offers, day ends and
settlements, and the registry of every armies section (docs/archive-format.md, "Armies"); the unit cards
are in archive/sections/unit_cards.py, the battles in archive/sections/battles.py.

Every armies model that belongs to a campaign has a section (``tests/archive/test_armies_sections.py``
walks the models and fails on one without). Export: one query per section, streamed
(``values()`` + ``iterator``), whatever the campaign's size. Import: each record becomes an unsaved
instance queued on the ``ImportContext`` (written by ``bulk_create`` in batches), its references
mapped from source ids to new ids through ``ctx.id_for``.

Ids inside data need more than a copy: a unit event's ``cause_id`` points at the offer, settlement, battle,
commander or activity that caused it, and is mapped like a reference. An event's cause "Killed in battle
#N" is renumbered with its battle. A commander whose player has no account here yet is run by the GM until
the claim is used (``ImportContext.claim_commander``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from django.utils.translation import gettext_noop

from armies.models import COMMANDER_ROLES, ArmyUnit, Commander, DayEnd, RecruitOffer, Settlement, UnitEvent
from campaign.models import Campaign
from people.selectors.claims import waiting_claim_of

from .. import records as r
from ..context import ImportContext, claimant
from ..format import ArchiveRefused
from ..records import rows
from . import Section, register
from .battles import export_battles, export_unit_uses, load_battle, load_unit_use
from .kinds import (
    ACCOUNT,
    ARMY_UNIT,
    BATTLE,
    COMMANDER,
    DAY_END,
    MEMBERSHIP,
    NAMES,
    ORDER,
    RECRUIT_OFFER,
    SETTLEMENT,
    UNIT_CARD,
    UNIT_EVENT,
    UNIT_USE,
)
from .unit_cards import PATHS, export_unit_cards, load_unit_card

# Choices as sets, made once: an enum's ``values`` builds a new list at every call (a third of the
# import's time in loaders with 240,000 records, bench/archive.py).
COMMANDER_KINDS, COMMANDER_ROLE_KEYS = frozenset(Commander.Kind.values), frozenset(key for key, _ in COMMANDER_ROLES)
UNIT_STATUSES, EVENT_KINDS = frozenset(ArmyUnit.Status.values), frozenset(UnitEvent.Kind.values)
DAY_END_STATUSES = frozenset(DayEnd.Status.values)

BATTLE_NUMBER = re.compile(r"battle #(\d+)")


# ------------------------------------------------------------------------------------------ commanders

COMMANDER_NUMBERS = ("progression", "favors", "influence_halves", "weapons", "shields", "alchemy", "build_points")


def export_commanders(campaign: Campaign) -> Iterator[dict]:
    """Each commander; one a waiting claim gives back (a GM runs it meanwhile) is its claimant's, as it was
    their member's before the import (archive/sections/people.py ``export_members``)."""
    fields = ("id", "membership_id", "account_id", "name", "role", "path", *COMMANDER_NUMBERS, "retired_day")
    commanders = Commander.objects.filter(campaign=campaign).annotate(claim=waiting_claim_of(campaign, "commander"))
    for row in rows(commanders, (*fields, "claim"), commander_kind="kind"):
        claim = row.pop("claim")
        yield {**row, "membership_id": claimant(claim) or row["membership_id"]}


def load_commander(record: dict, ctx: ImportContext) -> None:
    what = r.named(gettext_noop("commander"))
    old_member = ctx.member_ident(record, "membership_id")
    membership_id = ctx.id_for(MEMBERSHIP, old_member, what=what)
    unclaimed = membership_id is None  # its player has no account here yet: the GM runs it until they claim it
    commander = Commander(
        campaign=ctx.campaign,
        membership_id=ctx.importer_membership.pk if unclaimed else membership_id,
        account_id=ctx.id_for(ACCOUNT, r.int_of(record, "account_id", what=what), what=what),
        name=r.str_of(record, "name", what=what, blank=False),
        kind=r.str_of(record, "commander_kind", what=what, choices=COMMANDER_KINDS),
        role=r.str_of(record, "role", what=what, choices=COMMANDER_ROLE_KEYS),
        path=r.str_of(record, "path", what=what, choices=PATHS),
        retired_day=r.int_of(record, "retired_day", what=what, null=True),
        **{name: r.int_of(record, name, what=what) for name in COMMANDER_NUMBERS},
    )
    old_id = r.int_of(record, "id", what=what)
    ctx.add(commander, kind=COMMANDER, old_id=old_id)
    if unclaimed:
        ctx.claim_commander(old_member, old_id)


# ------------------------------------------------------------------------------------------ rosters


def export_army_units(campaign: Campaign) -> Iterator[dict]:
    fields = ("id", "commander_id", "card_id", "trained", "status", "joined_day", "left_day")
    return rows(ArmyUnit.objects.filter(commander__campaign=campaign), fields)


def load_army_unit(record: dict, ctx: ImportContext) -> None:
    what = r.named(gettext_noop("unit"))
    unit = ArmyUnit(
        commander_id=ctx.id_for(COMMANDER, r.int_of(record, "commander_id", what=what), what=what),
        card_id=ctx.id_for(UNIT_CARD, r.int_of(record, "card_id", what=what), what=what),
        trained=r.bool_of(record, "trained", what=what),
        status=r.str_of(record, "status", what=what, choices=UNIT_STATUSES),
        joined_day=r.int_of(record, "joined_day", what=what),
        left_day=r.int_of(record, "left_day", what=what, null=True),
    )
    ctx.add(unit, kind=ARMY_UNIT, old_id=r.int_of(record, "id", what=what))


def export_unit_events(campaign: Campaign) -> Iterator[dict]:
    fields = ("id", "unit_id", "day", "cause", "cause_type", "cause_id", "created_at")
    return rows(UnitEvent.objects.filter(unit__commander__campaign=campaign), fields, event_kind="kind")


def load_unit_event(record: dict, ctx: ImportContext) -> None:
    what = r.named(gettext_noop("unit event"))
    cause_type = r.str_of(record, "cause_type", what=what)
    old_cause = r.int_of(record, "cause_id", what=what, null=True)
    cause = r.str_of(record, "cause", what=what)
    new_battle = ctx.ids[BATTLE].get(old_cause) if cause_type == "battle" else None
    if new_battle is not None:
        cause = BATTLE_NUMBER.sub(lambda m: f"battle #{new_battle}" if int(m.group(1)) == old_cause else m[0], cause)
    event = UnitEvent(
        unit_id=ctx.id_for(ARMY_UNIT, r.int_of(record, "unit_id", what=what), what=what),
        day=r.int_of(record, "day", what=what),
        kind=r.str_of(record, "event_kind", what=what, choices=EVENT_KINDS),
        cause=cause,
        cause_type=cause_type,
    )
    # what caused it: an offer, a settlement, a battle, a commander or an activity, by its new id
    ctx.free_ref(event, "cause_id", cause_type, old_cause)
    ctx.add(event, kind=UNIT_EVENT, old_id=r.int_of(record, "id", what=what),
            times={"created_at": r.time_of(record, "created_at", what=what)})


# ------------------------------------------------------------------------------------------ offers


def export_recruit_offers(campaign: Campaign) -> Iterator[dict]:
    fields = ("id", "card_id", "price", "quantity", "sold", "until_day", "quest", "withdrawn_at", "created_at")
    return rows(RecruitOffer.objects.filter(campaign=campaign), fields)


def load_recruit_offer(record: dict, ctx: ImportContext) -> None:
    what = r.named(gettext_noop("offer"))
    offer = RecruitOffer(
        campaign=ctx.campaign,
        card_id=ctx.id_for(UNIT_CARD, r.int_of(record, "card_id", what=what), what=what),
        price=r.int_of(record, "price", what=what),
        quantity=r.int_of(record, "quantity", what=what, minimum=1),
        sold=r.int_of(record, "sold", what=what),
        until_day=r.int_of(record, "until_day", what=what, null=True, minimum=1),
        quest=r.str_of(record, "quest", what=what),
        withdrawn_at=r.time_of(record, "withdrawn_at", what=what, null=True),
    )
    ctx.add(offer, kind=RECRUIT_OFFER, old_id=r.int_of(record, "id", what=what),
            times={"created_at": r.time_of(record, "created_at", what=what)})


# ------------------------------------------------------------------------------------------ day ends, upkeep


def export_day_ends(campaign: Campaign) -> Iterator[dict]:
    fields = ("id", "day", "status", "total", "done", "error", "started_by__username", "created_at",
              "heartbeat_at", "finished_at")
    for row in rows(DayEnd.objects.filter(campaign=campaign), fields):
        row["started_by"] = row.pop("started_by__username")
        yield row


def load_day_end(record: dict, ctx: ImportContext) -> None:
    what = r.named(gettext_noop("day end"))
    username = r.field_of(record, "started_by", (str,), null=True, what=what)
    started_by = ctx.member_user(username)
    day_end = DayEnd(
        campaign=ctx.campaign,
        day=r.int_of(record, "day", what=what),
        status=r.str_of(record, "status", what=what, choices=DAY_END_STATUSES),
        total=r.int_of(record, "total", what=what),
        done=r.int_of(record, "done", what=what),
        error=r.str_of(record, "error", what=what),
        started_by=started_by,
        heartbeat_at=r.time_of(record, "heartbeat_at", what=what, null=True),
        finished_at=r.time_of(record, "finished_at", what=what, null=True),
    )
    ctx.add(day_end, kind=DAY_END, old_id=r.int_of(record, "id", what=what),
            times={"created_at": r.time_of(record, "created_at", what=what)})


def export_settlements(campaign: Campaign) -> Iterator[dict]:
    fields = ("id", "commander_id", "day", "owed", "paid", "deserted", "created_at", "reverted_at")
    return rows(Settlement.objects.filter(commander__campaign=campaign), fields)


def load_settlement(record: dict, ctx: ImportContext) -> None:
    what = r.named(gettext_noop("settlement"))
    deserted = r.json_of(record, "deserted", (list,), what=what)
    if not all(isinstance(name, str) for name in deserted):
        raise ArchiveRefused(
            gettext_noop("The archive's settlement names its deserted units with something other than text.")
        )
    settlement = Settlement(
        commander_id=ctx.id_for(COMMANDER, r.int_of(record, "commander_id", what=what), what=what),
        day=r.int_of(record, "day", what=what),
        owed=r.int_of(record, "owed", what=what),
        paid=r.int_of(record, "paid", what=what),
        deserted=deserted,
        reverted_at=r.time_of(record, "reverted_at", what=what, null=True),
    )
    ctx.add(settlement, kind=SETTLEMENT, old_id=r.int_of(record, "id", what=what),
            times={"created_at": r.time_of(record, "created_at", what=what)})


# ------------------------------------------------------------------------------------------ the registry

SECTIONS = tuple(
    register(Section(kind=kind, order=ORDER[kind], export=export, load=load, names=NAMES[kind]))
    for kind, export, load in (
        (UNIT_CARD, export_unit_cards, load_unit_card),
        (COMMANDER, export_commanders, load_commander),
        (ARMY_UNIT, export_army_units, load_army_unit),
        (RECRUIT_OFFER, export_recruit_offers, load_recruit_offer),
        (DAY_END, export_day_ends, load_day_end),
        (SETTLEMENT, export_settlements, load_settlement),
        (BATTLE, export_battles, load_battle),
        (UNIT_USE, export_unit_uses, load_unit_use),
        (UNIT_EVENT, export_unit_events, load_unit_event),
    )
)

"""Reads for the battle pages: the set-up form's armies, battle lists, a battle's result for one viewer.

Every read is a fixed number of queries whatever the size of the rosters.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F, Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext

from campaign.models import Membership
from tabletop.models import Seat, Table

from ..models import ArmyUnit, Battle, Commander
from ..rules import can_fight


def battle_commanders(campaign_id: int) -> list[Commander]:
    """The commanders who may be picked for a new battle: retired ones are out of play (ruling K3)."""
    return list(Commander.objects.filter(campaign_id=campaign_id, retired_day__isnull=True).order_by("name"))


def battle_units(commander_ids: list[int]) -> dict[int, list[ArmyUnit]]:
    """Commander id -> active units (card joined), in roster order: one query for both armies."""
    units: dict[int, list[ArmyUnit]] = {pk: [] for pk in commander_ids}
    active = ArmyUnit.objects.filter(commander_id__in=commander_ids, status=ArmyUnit.Status.ACTIVE)
    for unit in active.select_related("card").order_by("joined_day", "pk"):
        units[unit.commander_id].append(unit)
    return units


def fighting(units: list[ArmyUnit]) -> tuple[list[ArmyUnit], list[ArmyUnit]]:
    """(units that may be brought to a battle, units that cannot fight)."""
    return [u for u in units if can_fight(u)], [u for u in units if not can_fight(u)]


IN_PROGRESS_FIRST = (F("ended_at").desc(nulls_first=True), F("started_at").desc())


def _battles() -> QuerySet[Battle]:
    return Battle.objects.select_related("attacker", "defender", "winner", "routed")


def campaign_battles(campaign_id: int, limit: int = 30) -> list[Battle]:
    """The campaign's battles, those in progress first, then the latest."""
    return list(_battles().filter(campaign_id=campaign_id).order_by(*IN_PROGRESS_FIRST)[:limit])


@dataclass(frozen=True)
class BattleLink:
    battle: Battle
    seat_token: str  # the viewer's seat at its table ("" when they have none)


def commander_battles(commander: Commander, membership: Membership, limit: int = 10) -> list[BattleLink]:
    """The commander's battles (in progress first) with the viewer's seat at each table: two queries."""
    battles = list(
        _battles().filter(Q(attacker=commander) | Q(defender=commander)).order_by(*IN_PROGRESS_FIRST)[:limit]
    )
    seats = Seat.objects.filter(
        table_id__in=[b.table_id for b in battles if b.table_id], membership=membership, bot=""
    )  # a computer seat has no link (ruling BOT32)
    tokens = {(seat.table_id, seat.index): seat.token for seat in seats}
    return [
        BattleLink(battle=b, seat_token=tokens.get((b.table_id, 0 if b.attacker_id == commander.pk else 1), ""))
        for b in battles
    ]


def battle_for(membership: Membership, pk: int) -> Battle:
    """Battle ``pk`` if the member may see it: the GM, or the player of one of its PC commanders; else 404."""
    battle = (
        _battles()
        .select_related("attacker__membership", "defender__membership")
        .filter(campaign_id=membership.campaign_id, pk=pk)
        .first()
    )
    if battle is None or not (membership.is_gm or membership.pk in battle_players(battle)):
        raise Http404("No such battle.")
    return battle


def battle_players(battle: Battle) -> set[int]:
    """The memberships of the battle's PC commanders."""
    return {c.membership_id for c in (battle.attacker, battle.defender) if c.kind == Commander.Kind.PC}


def seat_tokens(battle: Battle, membership: Membership) -> dict[int, str]:
    """Seat index -> token of the viewer's seats at the battle's table that a person plays."""
    if battle.table_id is None:
        return {}
    seats = Seat.objects.filter(table_id=battle.table_id, membership=membership, bot="")  # none for a computer seat
    return dict(seats.values_list("index", "token"))


def battle_sides(battle: Battle, membership: Membership) -> list[dict]:
    """Each side of the battle as ``membership`` may see it (ruling B6): two queries.

    While the battle is fought a player sees only their own army's cards (the other army
    is the other side's hand); afterwards, and for the GM, both.
    """
    over = battle.result is not None
    tokens = seat_tokens(battle, membership)
    config = {}
    if battle.table_id:
        config = Table.objects.filter(pk=battle.table_id).values_list("config", flat=True).first() or {}
    sides = []
    for seat, commander in enumerate((battle.attacker, battle.defender)):
        own = commander.kind == Commander.Kind.PC and commander.membership_id == membership.pk
        shown = over or membership.is_gm or own
        sides.append(
            {
                "seat": seat,
                "title": gettext("Attacker") if seat == 0 else gettext("Defender"),
                "commander": commander,
                "result": battle.result["sides"][seat] if over else None,
                "may_see_roster": membership.is_gm or own,
                "brought": [card["name"] for card in config["units"][seat]] if shown and config else [],
                "seat_token": tokens.get(seat, "") if own else "",
            }
        )
    return sides

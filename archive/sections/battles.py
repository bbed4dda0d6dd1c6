"""The battles of an archive's armies, the units each used, and the tables of battles still being fought
(docs/archive-format.md, "Armies").

A battle's ``result`` names commanders and units by id: they are mapped like references
(``_battle_result``). A battle still being fought keeps its table's cards as ``u<unit id>``
(``battle_tables.card_id``), which is how the result finds the roster's units when the table finishes: once
everything is written, its table's config, state and log are renumbered to the new units and its digests
recomputed by a replay (``_renumber_open_battle_table``). A finished battle's table is left exactly as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext_noop

from armies.models import Battle, UnitUse
from armies.services.battle_tables import card_id, unit_pk
from campaign.models import Campaign
from tabletop.engines.kernel import digest
from tabletop.engines.replay import ReplayError, apply_recorded, start_state_of
from tabletop.models import Table, TableAction

from .. import records as r
from ..context import ImportContext
from ..format import ArchiveRefused
from ..records import rows
from .kinds import ARMY_UNIT, BATTLE, COMMANDER, TABLE, UNIT_USE

# ------------------------------------------------------------------------------------------ battles


def export_battles(campaign: Campaign) -> Iterator[dict]:
    fields = ("id", "attacker_id", "defender_id", "day", "table_id", "started_at", "ended_at", "routed_id",
              "winner_id", "override_reason", "result", "abandoned_at")
    return rows(Battle.objects.filter(campaign=campaign), fields)


def _battle_result(result: Any, ctx: ImportContext) -> dict | None:
    """The result with its commanders and units renumbered (see ``battle_tables._side_result``)."""
    if result is None:
        return None
    what = r.named(gettext_noop("battle result"))
    if not isinstance(result, dict) or not isinstance(result.get("sides"), list):
        raise ArchiveRefused(gettext_noop("The archive holds a battle result without its sides."))
    sides = []
    for side in result["sides"]:
        if not isinstance(side, dict):
            raise ArchiveRefused(gettext_noop("The archive holds a battle result whose side is not a record."))
        side = dict(side)
        side["commander_id"] = ctx.id_for(COMMANDER, r.int_of(side, "commander_id", what=what), what=what)
        for pile in ("killed", "used"):
            entries = r.json_of(side, pile, (list,), what=what)
            if not all(isinstance(entry, dict) for entry in entries):
                raise ArchiveRefused(
                    gettext_noop("The archive holds a battle result whose %(pile)s units are not records."), pile=pile
                )
            side[pile] = [
                {**entry, "unit": ctx.id_for(ARMY_UNIT, r.int_of(entry, "unit", what=what), what=what)}
                for entry in entries
            ]
        sides.append(side)
    return {**result, "sides": sides}


def load_battle(record: dict, ctx: ImportContext) -> None:
    what = r.named(gettext_noop("battle"))
    old_id = r.int_of(record, "id", what=what)
    battle = Battle(
        campaign=ctx.campaign,
        attacker_id=ctx.id_for(COMMANDER, r.int_of(record, "attacker_id", what=what), what=what),
        defender_id=ctx.id_for(COMMANDER, r.int_of(record, "defender_id", what=what), what=what),
        day=r.int_of(record, "day", what=what),
        table_id=ctx.id_for(TABLE, r.int_of(record, "table_id", what=what, null=True), what=what),
        ended_at=r.time_of(record, "ended_at", what=what, null=True),
        routed_id=ctx.id_for(COMMANDER, r.int_of(record, "routed_id", what=what, null=True), what=what),
        winner_id=ctx.id_for(COMMANDER, r.int_of(record, "winner_id", what=what, null=True), what=what),
        override_reason=r.str_of(record, "override_reason", what=what),
        result=_battle_result(record.get("result"), ctx),
        abandoned_at=r.time_of(record, "abandoned_at", what=what, null=True),
    )
    ctx.add(battle, kind=BATTLE, old_id=old_id, times={"started_at": r.time_of(record, "started_at", what=what)})
    if battle.ended_at is None and battle.table_id is not None:
        ctx.after(lambda: _renumber_open_battle_table(ctx, old_id))


def export_unit_uses(campaign: Campaign) -> Iterator[dict]:
    fields = ("id", "unit_id", "commander_id", "day", "first_battle_id")
    return rows(UnitUse.objects.filter(commander__campaign=campaign), fields)


def load_unit_use(record: dict, ctx: ImportContext) -> None:
    what = r.named(gettext_noop("unit use"))
    use = UnitUse(
        unit_id=ctx.id_for(ARMY_UNIT, r.int_of(record, "unit_id", what=what), what=what),
        commander_id=ctx.id_for(COMMANDER, r.int_of(record, "commander_id", what=what), what=what),
        day=r.int_of(record, "day", what=what),
        first_battle_id=ctx.id_for(BATTLE, r.int_of(record, "first_battle_id", what=what, null=True), what=what),
    )
    ctx.add(use, kind=UNIT_USE, old_id=r.int_of(record, "id", what=what))


# ------------------------------------------------------------------------------------------ open battles' tables


def _renamed(value: Any, names: dict[str, str]) -> Any:
    """``value`` with every string (and key) that is an old card id replaced by the new one."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_renamed(item, names) for item in value]
    if isinstance(value, dict):
        return {names.get(key, key): _renamed(item, names) for key, item in value.items()}
    return value


def _renumber_open_battle_table(ctx: ImportContext, old_battle_id: int) -> None:
    """A battle still being fought: its table's cards ``u<old unit id>`` become ``u<new unit id>`` in the
    config, the state and every logged action, and the log's digests are recomputed by replaying it, so the
    table finishes into the new roster (``battle_table_record``) and still replays."""
    battle = Battle.objects.select_related("table").get(pk=ctx.ids[BATTLE][old_battle_id])
    table = battle.table
    units = ctx.ids[ARMY_UNIT]
    names = {}
    for side in table.config.get("units", []):
        for card in side:
            old = unit_pk(card.get("id", "")) if isinstance(card, dict) else None
            if old is not None and old in units:
                names[card_id(old)] = card_id(units[old])
    if not names or all(old == new for old, new in names.items()):
        return
    config = _renamed(table.config, names)
    actions = list(TableAction.objects.filter(table=table).order_by("seq"))
    refusal = ArchiveRefused(
        gettext_noop("The archive's battle #%(battle)s is still being fought and its table could not be carried "
                     "over: finish or abandon it, then export again."),
        battle=old_battle_id,
    )
    try:
        states = [start_state_of(table.game, config, table.setup_draws, table.start_state)]
        for action in actions:
            if action.kind == TableAction.Kind.UNDO:
                states.pop()
            else:
                action.action = _renamed(action.action, names)
                states.append(apply_recorded(table.game, states[-1], action.action, action.draws))
            action.digest = digest(states[-1])
    except (ReplayError, ValueError, KeyError, IndexError):
        raise refusal from None
    if states[-1] != _renamed(table.state, names) and digest(states[-1]) != digest(_renamed(table.state, names)):
        raise refusal
    Table.objects.filter(pk=table.pk).update(config=config, state=states[-1])
    TableAction.objects.bulk_update(actions, ["action", "digest"], batch_size=500)

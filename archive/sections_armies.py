"""The armies part of a campaign archive: unit cards, commanders, rosters with their history, offers,
day ends and settlements, battles and the units they used (docs/archive-format.md, "Armies").

Every armies model that belongs to a campaign has a section here (``tests/archive/test_armies_sections.py``
walks the models and fails on one without). Export: one query per section, streamed
(``values()`` + ``iterator``), whatever the campaign's size. Import: each record becomes an unsaved
instance queued on the ``ImportContext`` (written by ``bulk_create`` in batches), its references
mapped from source ids to new ids through ``ctx.id_for``.

What needs more than a copy:

* **Unit cards** are instance-wide (one catalog every GM's offers draw from), so an archive, which is
  outside data, must not write it: a "Free Dragons" card (Strength 9, price 0) in one GM's archive
  would be offered to every GM (issue 34). The archive carries the definition of every card the
  campaign's units and offers use, and each is matched to the catalog here by its code (or a code an
  earlier staff import gave it, ``<code>-<n>``) with every rule field equal (``CARD_DEFINITION``). A card
  that does not match is refused with a sentence naming it and what differs, unless staff (or the
  operator, on the command line) import: then it is added under its code (or the first free
  ``<code>-<n>``), marked imported and **inactive**, so the campaign's units and offers keep it and no
  GM is offered it until staff activate it in the admin. A card here is never changed by an import.
  An empty catalog (a fresh instance) is first given Muster's starter units, as any GM may (ruling
  AC2), so a campaign played with them imports anywhere.
* **Ids inside data**: a battle's ``result`` names commanders and units by id, a unit event's
  ``cause_id`` points at the offer, settlement, battle, commander or activity that caused it: they are
  mapped like references. An event's cause "Killed in battle #N" is renumbered with its battle.
* **A battle still being fought** keeps its table's cards as ``u<unit id>`` (``battle_tables.card_id``),
  which is how the result finds the roster's units when the table finishes: once everything is written,
  its table's config, state and log are renumbered to the new units and its digests recomputed by a
  replay (``_renumber_open_battle_tables``). A finished battle's table is left exactly as it was.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Iterator
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import F, Q

from armies.catalog import unit_catalog_load_starter
from armies.models import (
    COMMANDER_ROLES,
    ArmyUnit,
    Battle,
    Commander,
    DayEnd,
    Path,
    RecruitOffer,
    Role,
    Settlement,
    UnitCard,
    UnitEvent,
    UnitUse,
)
from armies.services.battle_tables import card_id, unit_pk
from campaign.models import Campaign
from people.selectors import waiting_claim_of
from tabletop.catalog import CatalogImportError
from tabletop.engines.kernel import digest
from tabletop.engines.replay import ReplayError, apply_recorded, start_state_of
from tabletop.models import CatalogEntry, Table, TableAction

from .context import ImportContext, claimant
from .format import ArchiveRefused
from .sections import Section, register

CHUNK = 2000  # rows a streamed export query fetches at a time

# The kinds this module writes, and those of the core sections its records refer to.
UNIT_CARD = "unit_card"
COMMANDER = "commander"
ARMY_UNIT = "army_unit"
RECRUIT_OFFER = "recruit_offer"
DAY_END = "day_end"
SETTLEMENT = "settlement"
BATTLE = "battle"
UNIT_USE = "unit_use"
UNIT_EVENT = "unit_event"
MEMBERSHIP = "member"
ACCOUNT = "account"
TABLE = "table"
ACTIVITY = "activity"

# Where the armies sections sit among the core ones (archive/sections_core.py: campaign 10, day 20,
# member 30, account 40, table 100-130, invite 160, activity 170, ledger_entry 180): commanders after the
# members and accounts they belong to; battles after the tables they are played at; unit events last,
# after the activity log, so their causes (offers, settlements, battles, activities) map as they load.
ORDER = {
    UNIT_CARD: 50,
    COMMANDER: 55,
    ARMY_UNIT: 60,
    RECRUIT_OFFER: 65,
    DAY_END: 70,
    SETTLEMENT: 75,
    BATTLE: 150,
    UNIT_USE: 155,
    UNIT_EVENT: 190,
}

# What other records call each kind in a free reference (a unit event's or ledger entry's ``cause_type``,
# an activity's ``target_type``, which is the model's name): ``ImportContext.free_ref`` maps them.
NAMES = {
    UNIT_CARD: ("unitcard",),
    COMMANDER: ("commander",),
    ARMY_UNIT: ("armyunit",),
    RECRUIT_OFFER: ("offer", "recruitoffer"),
    DAY_END: ("dayend",),
    SETTLEMENT: ("settlement",),
    BATTLE: ("battle",),
    UNIT_USE: ("unituse",),
    UNIT_EVENT: ("unitevent",),
}

# Choices as sets, made once: an enum's ``values`` builds a new list at every call (a third of the
# import's time in loaders with 240,000 records, bench/archive.py).
ROLES, PATHS, SOURCES = frozenset(Role.values), frozenset(Path.values), frozenset(CatalogEntry.Source.values)
COMMANDER_KINDS, COMMANDER_ROLE_KEYS = frozenset(Commander.Kind.values), frozenset(key for key, _ in COMMANDER_ROLES)
UNIT_STATUSES, EVENT_KINDS = frozenset(ArmyUnit.Status.values), frozenset(UnitEvent.Kind.values)
DAY_END_STATUSES = frozenset(DayEnd.Status.values)

CARD_DEFINITION = ("name", "strength", "role", "path", "traits", "abilities", "upkeep", "price", "text")
CARD_CODE_LENGTH = UnitCard._meta.get_field("code").max_length
BATTLE_NUMBER = re.compile(r"battle #(\d+)")


# ------------------------------------------------------------------------------------------ reading records


def _field(record: dict, name: str, kinds: tuple[type, ...], *, null: bool = False, what: str) -> Any:
    value = record.get(name)
    if value is None and null:
        return None
    if not isinstance(value, kinds) or isinstance(value, bool) and bool not in kinds:
        raise ArchiveRefused(f"The archive's {what} has no valid {name!r}.")
    return value


def _int(record: dict, name: str, *, what: str, null: bool = False, minimum: int = 0) -> int | None:
    value = _field(record, name, (int,), null=null, what=what)
    if value is not None and value < minimum:
        raise ArchiveRefused(f"The archive's {what} has a {name!r} below {minimum}.")
    return value


def _str(record: dict, name: str, *, what: str, choices: Iterable[str] | None = None, blank: bool = True) -> str:
    value = _field(record, name, (str,), what=what)
    if choices is not None and value not in choices:
        raise ArchiveRefused(f"The archive's {what} has an unknown {name} {value[:40]!r}.")
    if not blank and not value:
        raise ArchiveRefused(f"The archive's {what} has an empty {name!r}.")
    return value


def _bool(record: dict, name: str, *, what: str) -> bool:
    return _field(record, name, (bool,), what=what)


def _time(record: dict, name: str, *, what: str, null: bool = False) -> datetime.datetime | None:
    value = _field(record, name, (str,), null=null, what=what)
    if value is None:
        return None
    try:
        parsed = datetime.datetime.fromisoformat(value)
    except ValueError:
        raise ArchiveRefused(f"The archive's {what} has {name} {value[:40]!r}, which is not a time.") from None
    if parsed.tzinfo is None:
        raise ArchiveRefused(f"The archive's {what} has {name} {value[:40]!r} without its time zone.")
    return parsed


def _json(record: dict, name: str, kinds: tuple[type, ...], *, what: str, null: bool = False) -> Any:
    return _field(record, name, kinds, null=null, what=what)


def _rows(queryset, fields: Iterable[str], **renamed: str) -> Iterator[dict]:
    """The rows' ``fields`` as records, in id order, streamed; ``renamed``: record name -> model field (a
    model's own ``kind`` is not the record's kind)."""
    rows = queryset.order_by("pk").values(*fields, **{name: F(field) for name, field in renamed.items()})
    return rows.iterator(chunk_size=CHUNK)


# ------------------------------------------------------------------------------------------ unit cards


def export_unit_cards(campaign: Campaign) -> Iterator[dict]:
    used = Q(pk__in=ArmyUnit.objects.filter(commander__campaign=campaign).values("card_id")) | Q(
        pk__in=RecruitOffer.objects.filter(campaign=campaign).values("card_id")
    )
    fields = ("id", "code", *CARD_DEFINITION, "source", "active")
    return _rows(UnitCard.objects.filter(used), fields)


def _card_variant(code: str, number: int) -> str:
    suffix = f"-{number}"
    return code[: CARD_CODE_LENGTH - len(suffix)] + suffix


def _is_variant(found: str, code: str) -> bool:
    """Whether ``found`` is ``code`` or a code an earlier import gave a different card of that code."""
    if found == code:
        return True
    head, _, number = found.rpartition("-")
    return number.isdigit() and found == _card_variant(code, int(number))


def _card_definition(values: dict) -> tuple:
    return tuple(values[name] for name in CARD_DEFINITION)


def _differences(card: UnitCard, values: dict) -> str:
    """What differs between the catalog's ``card`` and the archive's definition, in words."""
    return ", ".join(f"{name} {_shown(values[name])} in the archive, {_shown(getattr(card, name))} here"
                     for name in CARD_DEFINITION if getattr(card, name) != values[name])


def _shown(value: Any) -> str:
    text = "none" if value is None else repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "…"


def _card_refusal(code: str, values: dict, same_code: UnitCard | None) -> ArchiveRefused:
    card = f"The archive's unit card “{values['name'][:60]}” ({code[:CARD_CODE_LENGTH]})"
    if same_code is None:
        why = "is not in this site's unit catalog"
    else:
        why = f"differs from this site's card of that code ({_differences(same_code, values)})"
    return ArchiveRefused(
        f"{card} {why}. An import changes no card every GM is offered: staff add the card in the admin, "
        "or import the archive themselves (its cards are then kept for that campaign, not offered to other GMs)."
    )


def _fill_an_empty_catalog(ctx: ImportContext) -> None:
    """Muster's starter units into an empty unit catalog, once per import, as any GM may (ruling AC2)."""
    if ctx.catalog_looked_at:
        return
    ctx.catalog_looked_at = True
    if UnitCard.objects.exists():
        return
    try:
        unit_catalog_load_starter()
    except (CatalogImportError, LookupError):  # no starter data here: every card must then match (or staff add it)
        pass


def load_unit_card(record: dict, ctx: ImportContext) -> None:
    what = "unit card"
    code = _str(record, "code", what=what, blank=False)
    values = {
        "name": _str(record, "name", what=what, blank=False),
        "strength": _int(record, "strength", what=what, null=True),
        "role": _str(record, "role", what=what, choices=ROLES),
        "path": _str(record, "path", what=what, choices=PATHS),
        "traits": _json(record, "traits", (list,), what=what),
        "abilities": _json(record, "abilities", (list,), what=what),
        "upkeep": _int(record, "upkeep", what=what),
        "price": _int(record, "price", what=what),
        "text": _str(record, "text", what=what),
    }
    _str(record, "source", what=what, choices=SOURCES)
    _bool(record, "active", what=what)
    _fill_an_empty_catalog(ctx)
    wanted = _card_definition(values)
    near = list(UnitCard.objects.filter(code__startswith=code[: CARD_CODE_LENGTH - 12]))
    same = [card for card in near if _is_variant(card.code, code) and _card_definition(vars(card)) == wanted]
    if same:
        card = min(same, key=lambda card: (card.code != code, len(card.code), card.code))
    elif not ctx.may_add_cards:
        raise _card_refusal(code, values, next((card for card in near if card.code == code), None))
    else:
        taken = {card.code for card in near}
        new_code = code if code not in taken else next(
            _card_variant(code, n) for n in range(2, len(taken) + 3) if _card_variant(code, n) not in taken
        )
        # kept for the imported campaign's units and offers; offered to no GM until staff activate it
        card = UnitCard(code=new_code, source=CatalogEntry.Source.IMPORTED, active=False, **values)
        try:
            card.full_clean()
        except ValidationError as error:
            raise ArchiveRefused(f"The archive's unit card {code[:40]!r} is not a valid card: {error}") from None
        card.save()
        ctx.cards_added.append(card.pk)
    ctx.record_id(UNIT_CARD, _int(record, "id", what=what), card.pk)


# ------------------------------------------------------------------------------------------ commanders

COMMANDER_NUMBERS = ("progression", "favors", "influence_halves", "weapons", "shields", "alchemy", "build_points")


def export_commanders(campaign: Campaign) -> Iterator[dict]:
    """Each commander; one a waiting claim gives back (a GM runs it meanwhile) is its claimant's, as it was
    their member's before the import (archive/sections_core.py ``export_members``)."""
    fields = ("id", "membership_id", "account_id", "name", "role", "path", *COMMANDER_NUMBERS, "retired_day")
    commanders = Commander.objects.filter(campaign=campaign).annotate(claim=waiting_claim_of(campaign, "commander"))
    for row in _rows(commanders, (*fields, "claim"), commander_kind="kind"):
        claim = row.pop("claim")
        yield {**row, "membership_id": claimant(claim) or row["membership_id"]}


def load_commander(record: dict, ctx: ImportContext) -> None:
    what = "commander"
    old_member = ctx.member_ident(record, "membership_id")
    membership_id = ctx.id_for(MEMBERSHIP, old_member, what=what)
    unclaimed = membership_id is None  # its player has no account here yet: the GM runs it until they claim it
    commander = Commander(
        campaign=ctx.campaign,
        membership_id=ctx.importer_membership.pk if unclaimed else membership_id,
        account_id=ctx.id_for(ACCOUNT, _int(record, "account_id", what=what), what=what),
        name=_str(record, "name", what=what, blank=False),
        kind=_str(record, "commander_kind", what=what, choices=COMMANDER_KINDS),
        role=_str(record, "role", what=what, choices=COMMANDER_ROLE_KEYS),
        path=_str(record, "path", what=what, choices=PATHS),
        retired_day=_int(record, "retired_day", what=what, null=True),
        **{name: _int(record, name, what=what) for name in COMMANDER_NUMBERS},
    )
    old_id = _int(record, "id", what=what)
    ctx.add(commander, kind=COMMANDER, old_id=old_id)
    if unclaimed:
        ctx.claim_commander(old_member, old_id)


# ------------------------------------------------------------------------------------------ rosters


def export_army_units(campaign: Campaign) -> Iterator[dict]:
    fields = ("id", "commander_id", "card_id", "trained", "status", "joined_day", "left_day")
    return _rows(ArmyUnit.objects.filter(commander__campaign=campaign), fields)


def load_army_unit(record: dict, ctx: ImportContext) -> None:
    what = "unit"
    unit = ArmyUnit(
        commander_id=ctx.id_for(COMMANDER, _int(record, "commander_id", what=what), what=what),
        card_id=ctx.id_for(UNIT_CARD, _int(record, "card_id", what=what), what=what),
        trained=_bool(record, "trained", what=what),
        status=_str(record, "status", what=what, choices=UNIT_STATUSES),
        joined_day=_int(record, "joined_day", what=what),
        left_day=_int(record, "left_day", what=what, null=True),
    )
    ctx.add(unit, kind=ARMY_UNIT, old_id=_int(record, "id", what=what))


def export_unit_events(campaign: Campaign) -> Iterator[dict]:
    fields = ("id", "unit_id", "day", "cause", "cause_type", "cause_id", "created_at")
    return _rows(UnitEvent.objects.filter(unit__commander__campaign=campaign), fields, event_kind="kind")


def load_unit_event(record: dict, ctx: ImportContext) -> None:
    what = "unit event"
    cause_type = _str(record, "cause_type", what=what)
    old_cause = _int(record, "cause_id", what=what, null=True)
    cause = _str(record, "cause", what=what)
    new_battle = ctx.ids[BATTLE].get(old_cause) if cause_type == "battle" else None
    if new_battle is not None:
        cause = BATTLE_NUMBER.sub(lambda m: f"battle #{new_battle}" if int(m.group(1)) == old_cause else m[0], cause)
    event = UnitEvent(
        unit_id=ctx.id_for(ARMY_UNIT, _int(record, "unit_id", what=what), what=what),
        day=_int(record, "day", what=what),
        kind=_str(record, "event_kind", what=what, choices=EVENT_KINDS),
        cause=cause,
        cause_type=cause_type,
    )
    # what caused it: an offer, a settlement, a battle, a commander or an activity, by its new id
    ctx.free_ref(event, "cause_id", cause_type, old_cause)
    ctx.add(event, kind=UNIT_EVENT, old_id=_int(record, "id", what=what),
            times={"created_at": _time(record, "created_at", what=what)})


# ------------------------------------------------------------------------------------------ offers


def export_recruit_offers(campaign: Campaign) -> Iterator[dict]:
    fields = ("id", "card_id", "price", "quantity", "sold", "until_day", "quest", "withdrawn_at", "created_at")
    return _rows(RecruitOffer.objects.filter(campaign=campaign), fields)


def load_recruit_offer(record: dict, ctx: ImportContext) -> None:
    what = "offer"
    offer = RecruitOffer(
        campaign=ctx.campaign,
        card_id=ctx.id_for(UNIT_CARD, _int(record, "card_id", what=what), what=what),
        price=_int(record, "price", what=what),
        quantity=_int(record, "quantity", what=what, minimum=1),
        sold=_int(record, "sold", what=what),
        until_day=_int(record, "until_day", what=what, null=True, minimum=1),
        quest=_str(record, "quest", what=what),
        withdrawn_at=_time(record, "withdrawn_at", what=what, null=True),
    )
    ctx.add(offer, kind=RECRUIT_OFFER, old_id=_int(record, "id", what=what),
            times={"created_at": _time(record, "created_at", what=what)})


# ------------------------------------------------------------------------------------------ day ends, upkeep


def export_day_ends(campaign: Campaign) -> Iterator[dict]:
    fields = ("id", "day", "status", "total", "done", "error", "started_by__username", "created_at",
              "heartbeat_at", "finished_at")
    for row in _rows(DayEnd.objects.filter(campaign=campaign), fields):
        row["started_by"] = row.pop("started_by__username")
        yield row


def load_day_end(record: dict, ctx: ImportContext) -> None:
    what = "day end"
    username = _field(record, "started_by", (str,), null=True, what=what)
    started_by = ctx.member_user(username)
    day_end = DayEnd(
        campaign=ctx.campaign,
        day=_int(record, "day", what=what),
        status=_str(record, "status", what=what, choices=DAY_END_STATUSES),
        total=_int(record, "total", what=what),
        done=_int(record, "done", what=what),
        error=_str(record, "error", what=what),
        started_by=started_by,
        heartbeat_at=_time(record, "heartbeat_at", what=what, null=True),
        finished_at=_time(record, "finished_at", what=what, null=True),
    )
    ctx.add(day_end, kind=DAY_END, old_id=_int(record, "id", what=what),
            times={"created_at": _time(record, "created_at", what=what)})


def export_settlements(campaign: Campaign) -> Iterator[dict]:
    fields = ("id", "commander_id", "day", "owed", "paid", "deserted", "created_at", "reverted_at")
    return _rows(Settlement.objects.filter(commander__campaign=campaign), fields)


def load_settlement(record: dict, ctx: ImportContext) -> None:
    what = "settlement"
    deserted = _json(record, "deserted", (list,), what=what)
    if not all(isinstance(name, str) for name in deserted):
        raise ArchiveRefused("The archive's settlement names its deserted units with something other than text.")
    settlement = Settlement(
        commander_id=ctx.id_for(COMMANDER, _int(record, "commander_id", what=what), what=what),
        day=_int(record, "day", what=what),
        owed=_int(record, "owed", what=what),
        paid=_int(record, "paid", what=what),
        deserted=deserted,
        reverted_at=_time(record, "reverted_at", what=what, null=True),
    )
    ctx.add(settlement, kind=SETTLEMENT, old_id=_int(record, "id", what=what),
            times={"created_at": _time(record, "created_at", what=what)})


# ------------------------------------------------------------------------------------------ battles


def export_battles(campaign: Campaign) -> Iterator[dict]:
    fields = ("id", "attacker_id", "defender_id", "day", "table_id", "started_at", "ended_at", "routed_id",
              "winner_id", "override_reason", "result", "abandoned_at")
    return _rows(Battle.objects.filter(campaign=campaign), fields)


def _battle_result(result: Any, ctx: ImportContext) -> dict | None:
    """The result with its commanders and units renumbered (see ``battle_tables._side_result``)."""
    if result is None:
        return None
    what = "battle result"
    if not isinstance(result, dict) or not isinstance(result.get("sides"), list):
        raise ArchiveRefused("The archive holds a battle result without its sides.")
    sides = []
    for side in result["sides"]:
        if not isinstance(side, dict):
            raise ArchiveRefused("The archive holds a battle result whose side is not a record.")
        side = dict(side)
        side["commander_id"] = ctx.id_for(COMMANDER, _int(side, "commander_id", what=what), what=what)
        for pile in ("killed", "used"):
            entries = _json(side, pile, (list,), what=what)
            if not all(isinstance(entry, dict) for entry in entries):
                raise ArchiveRefused(f"The archive holds a battle result whose {pile} units are not records.")
            side[pile] = [
                {**entry, "unit": ctx.id_for(ARMY_UNIT, _int(entry, "unit", what=what), what=what)}
                for entry in entries
            ]
        sides.append(side)
    return {**result, "sides": sides}


def load_battle(record: dict, ctx: ImportContext) -> None:
    what = "battle"
    old_id = _int(record, "id", what=what)
    battle = Battle(
        campaign=ctx.campaign,
        attacker_id=ctx.id_for(COMMANDER, _int(record, "attacker_id", what=what), what=what),
        defender_id=ctx.id_for(COMMANDER, _int(record, "defender_id", what=what), what=what),
        day=_int(record, "day", what=what),
        table_id=ctx.id_for(TABLE, _int(record, "table_id", what=what, null=True), what=what),
        ended_at=_time(record, "ended_at", what=what, null=True),
        routed_id=ctx.id_for(COMMANDER, _int(record, "routed_id", what=what, null=True), what=what),
        winner_id=ctx.id_for(COMMANDER, _int(record, "winner_id", what=what, null=True), what=what),
        override_reason=_str(record, "override_reason", what=what),
        result=_battle_result(record.get("result"), ctx),
        abandoned_at=_time(record, "abandoned_at", what=what, null=True),
    )
    ctx.add(battle, kind=BATTLE, old_id=old_id, times={"started_at": _time(record, "started_at", what=what)})
    if battle.ended_at is None and battle.table_id is not None:
        ctx.after(lambda: _renumber_open_battle_table(ctx, old_id))


def export_unit_uses(campaign: Campaign) -> Iterator[dict]:
    fields = ("id", "unit_id", "commander_id", "day", "first_battle_id")
    return _rows(UnitUse.objects.filter(commander__campaign=campaign), fields)


def load_unit_use(record: dict, ctx: ImportContext) -> None:
    what = "unit use"
    use = UnitUse(
        unit_id=ctx.id_for(ARMY_UNIT, _int(record, "unit_id", what=what), what=what),
        commander_id=ctx.id_for(COMMANDER, _int(record, "commander_id", what=what), what=what),
        day=_int(record, "day", what=what),
        first_battle_id=ctx.id_for(BATTLE, _int(record, "first_battle_id", what=what, null=True), what=what),
    )
    ctx.add(use, kind=UNIT_USE, old_id=_int(record, "id", what=what))


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
        f"The archive's battle #{old_battle_id} is still being fought and its table could not be carried over: "
        "finish or abandon it, then export again."
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

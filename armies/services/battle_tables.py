"""A battle played live: open a ``tabletop.Table`` of game ``army`` from two armies, and
take its outcome back into the campaign when the table finishes.

Opening (``battle_table_open``, one transaction): the campaign row is locked and the day
checked (battles are fought on the current day, before its day end starts: ruling B1);
``battle_open`` locks both commanders and applies the locks (the GM may override them with
a reason); the chosen units are locked and checked (active, of that commander, able to
fight or a Ritual: ruling B4); then the engine config is built, a SNAPSHOT of the cards as they are
now (id ``u<unit pk>``, Strength +1 if trained, traits, abilities, upkeep: later errata
never change the table) and of the commanders (kind, progression, Favors, Influence,
class; Morale carried from their earlier battle today and the Cleric's once-a-Day use:
ruling B2); the table is created with seat 0 = attacker, seat 1 = defender, each bound to
the membership that runs the commander (an NPC's seat is the GM's: the GM plays it
hot-seat, ruling B3), and an NPC's seat is called by the NPC's name, never the GM's (``seat_spec``).

Finishing (``battle_table_finished``, the ``on_finish`` hook of game ``army``, inside the
table's transaction): the outcome's sides map back to units by card id; ``battle_finish``
records the winner, the routed army, the killed units (they leave the roster, cause
"Killed in battle #N", cause_type "battle") and one ``UnitUse`` per unit used that day;
Favors and Influence spent saving units are deducted from the commanders (``F()``, never
below 0); what the campaign took is stored in ``Battle.result`` (final Morale for the
same-day carry included; ruling B5). A refusal (the day was settled meanwhile) refuses the table's
last action: nothing is saved (ruling B1). Once recorded, the table cannot be undone
(``battle_undo_refusal``, ruling B5). Rulings: docs/rulings.md.

Abandoning (``battle_table_abandoned``, the ``on_abandon`` hook of game ``army``, inside
``table_abandon``'s transaction): the battle gets ``abandoned_at`` and ``ended_at`` (the
"still in progress" lock is lifted; the rematch cooldown counts from then). By default its
units are simply released: nothing reaches the rosters (no kill, no ``UnitUse``, so no upkeep).
If the GM keeps "the result so far", what the table shows is recorded as a finished battle's
would be, without a winner or a routed army: the Killed piles leave the rosters ("Killed in
battle #N (abandoned)"), every unit used so far is used that day, Favors and Influence spent
are deducted; refused, like any result, on a day being settled or over (ruling B1).
Rulings T3-T6 (docs/rulings.md).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from datetime import datetime

from django.db import transaction
from django.db.models import F, Q, Value
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from campaign import bounds
from campaign.activity import UNITS, Line, counted
from campaign.submissions import applied_once
from tabletop.engines.army.aftermath import result as army_result
from tabletop.engines.kernel import IllegalAction
from tabletop.models import Seat, Table
from tabletop.services.tables import SeatSpec, SetupRefused, table_create
from tabletop.titles import battle_title

from ..models import ArmyUnit, Battle, Commander
from ..rules import can_fight
from . import ArmyError
from .battles import battle_day_refusal, battle_finish, battle_open, campaign_day_locked
from .commanders import require_bounded

DEFENDING = {"attacker": 0, "defender": 1, None: None}
SEAT_NAME_LENGTH = Seat._meta.get_field("guest_name").max_length


def card_id(unit_pk: int) -> str:
    return f"u{unit_pk}"


def unit_pk(card: str) -> int | None:
    """The roster unit behind a battle card id, or None (a power-granted card)."""
    return int(card[1:]) if card.startswith("u") and card[1:].isdigit() else None


def unit_card(unit: ArmyUnit) -> dict:
    """The engine card of a roster unit, as its catalog card is now (a snapshot)."""
    card = unit.card
    strength = None if card.strength is None else card.strength + (1 if unit.trained else 0)
    return {
        "id": card_id(unit.pk),
        "name": card.name,
        "strength": strength,
        "role": card.role,
        "path": card.path,
        "traits": list(card.traits or []),
        "abilities": [dict(ability) for ability in card.abilities or []],
        "upkeep": card.upkeep,
    }


def seat_spec(commander: Commander, bot: str = "") -> SeatSpec:
    """The commander's seat: bound to who runs it; an NPC's (the GM's) goes by the NPC's name, so the
    table, its config's players, its log and every seat list show the NPC and not the GM (ruling B3)."""
    if commander.kind == Commander.Kind.NPC:
        return SeatSpec(membership=commander.membership, guest_name=commander.name[:SEAT_NAME_LENGTH], bot=bot)
    return SeatSpec(membership=commander.membership, bot=bot)


def _side_today(commander: Commander, day: int, *, exclude: int | None = None) -> list[dict]:
    """The commander's sides in the battles of ``day`` already recorded, earliest first."""
    battles = (
        Battle.objects.filter(Q(attacker=commander) | Q(defender=commander), day=day, result__isnull=False)
        .exclude(pk=exclude)
        .order_by("ended_at", "pk")
        .values_list("result", flat=True)
    )
    return [side for result in battles for side in result["sides"] if side["commander_id"] == commander.pk]


def commander_entry(commander: Commander, day: int, *, battle_pk: int) -> dict:
    """The engine commander: its campaign numbers now, Morale and the Cleric carried from today (B2)."""
    today = _side_today(commander, day, exclude=battle_pk)
    entry = {
        "name": commander.name,
        "kind": commander.kind,
        "progression": commander.progression,
        "favors": commander.favors,
        "influence_halves": commander.influence_halves,
        "role": commander.role,
        "path": commander.path,
        "options": {"cleric_available": not any(side["cleric_used"] for side in today)},
    }
    if today:
        entry["morale"] = today[-1]["morale_left"]
    return entry


def _chosen_units(commander: Commander, units: Iterable) -> list[ArmyUnit]:
    """The chosen units (instances or ids), locked and checked; raises ``ArmyError`` with a sentence."""
    wanted = sorted({getattr(unit, "pk", unit) for unit in units})
    if not wanted:
        raise ArmyError(gettext("Choose at least one unit of %(commander)s's army.") % {"commander": commander.name})
    found = {
        unit.pk: unit
        for unit in ArmyUnit.objects.select_related("card")
        .select_for_update(of=("self",))
        .filter(pk__in=wanted)
        .order_by("pk")
    }
    chosen = []
    for pk in wanted:
        unit = found.get(pk)
        if unit is None or unit.commander_id != commander.pk:
            raise ArmyError(
                gettext("Unit #%(pk)s is not in %(commander)s's army.") % {"pk": pk, "commander": commander.name}
            )
        if unit.status != ArmyUnit.Status.ACTIVE:
            raise ArmyError(
                gettext("%(card)s (unit #%(pk)s) left %(commander)s's army on day %(left_day)s.")
                % {"card": unit.card.name, "pk": pk, "commander": commander.name, "left_day": unit.left_day}
            )
        if not can_fight(unit):
            raise ArmyError(
                gettext("%(card)s (unit #%(pk)s) has no Strength and is not a Ritual: it cannot fight.")
                % {"card": unit.card.name, "pk": pk}
            )
        chosen.append(unit)
    return chosen


@applied_once("battle_open")
@transaction.atomic
def battle_table_open(
    *,
    attacker: Commander,
    defender: Commander,
    attacker_units: Iterable,
    defender_units: Iterable,
    defending: str | None = "defender",
    base_morale: int = 0,
    dice: str = "app",
    override_reason: str = "",
    computers: tuple[str, str] = ("", ""),
    opened_by,
    seed: int | None = None,
) -> Battle:
    """Open a battle and its live table in one transaction; raises ``ArmyError`` (``BattleLocked``
    for the locks) or ``PermissionDenied`` with a sentence, and then nothing is saved."""
    if defending not in DEFENDING:
        raise ArmyError(
            gettext("The defending army is the attacker's, the defender's or none, not %(defending)r.")
            % {"defending": defending}
        )
    if dice not in ("app", "physical"):
        raise ArmyError(
            gettext("Dice are rolled by the app or physical dice typed by the GM, not %(dice)r.") % {"dice": dice}
        )
    if isinstance(base_morale, int) and base_morale < 0:
        raise ArmyError(gettext("Base Morale cannot be negative (got %(base_morale)s).") % {"base_morale": base_morale})
    require_bounded(gettext("Base Morale"), base_morale, 0, bounds.MAX_BASE_MORALE)
    day = campaign_day_locked(attacker.campaign_id)
    refusal = battle_day_refusal(campaign_id=attacker.campaign_id, day=day, current_day=day)
    if refusal:
        raise ArmyError(refusal)
    battle = battle_open(
        attacker=attacker, defender=defender, day=day, override_reason=override_reason, opened_by=opened_by
    )
    attacker, defender = battle.attacker, battle.defender  # the locked, fresh rows
    sides = [_chosen_units(attacker, attacker_units), _chosen_units(defender, defender_units)]
    config = {
        "dice": dice,
        "commanders": [commander_entry(c, day, battle_pk=battle.pk) for c in (attacker, defender)],
        "units": [[unit_card(unit) for unit in side] for side in sides],
    }
    defending_seat = DEFENDING[defending]
    if defending_seat is not None:
        config["defender"], config["base_morale"] = defending_seat, base_morale
    try:
        table = table_create(
            campaign=battle.campaign,
            game=Table.Game.ARMY,
            title=battle_title(battle.pk, attacker.name, defender.name),
            seats=[seat_spec(commander, bot) for commander, bot in zip((attacker, defender), computers, strict=True)],
            config=config,
            created_by=opened_by,
            seed=seed,
            record_activity=False,  # battle_open wrote the act's one line, about the battle
            coach=False,  # a battle's result reaches the armies: no coach unless the GM allows it (ruling CO1)
        )
    except SetupRefused as error:  # the engine refuses a card (e.g. an ability it does not know), a strength
        raise ArmyError(gettext("The battle cannot be set up: %(error)s") % {"error": error}) from error
    battle.table = table
    battle.save(update_fields=["table"])
    return battle


# --- the end ------------------------------------------------------------------------------------


def _side_result(side: dict, commander: Commander, names: dict[int, str], units: dict[int, ArmyUnit]) -> dict:
    def listed(card_ids):
        pks = [pk for pk in map(unit_pk, card_ids) if pk in units]
        return [{"unit": pk, "name": names[pk]} for pk in pks]

    base_left = side["base_morale"] - side["base_morale_used"]
    return {
        "seat": side["seat"],
        "commander_id": commander.pk,
        "commander": commander.name,
        "kills": side["kills"],
        "killed": listed(side["killed"]),
        "used": listed(side["used"]),
        "morale": side["morale"],
        "morale_left": side["morale"] - base_left,  # without the Base's: what carries to the next battle today
        "start_morale": side["start_morale"],
        "base_morale": side["base_morale"],
        "base_morale_used": side["base_morale_used"],
        "routed": side["routed"],
        "winner": side["winner"],
        "spent_favors": side["spent_favors"],
        "spent_influence_halves": side["spent_influence_halves"],
        "cleric_used": side["cleric_used"],
    }


ABANDONED_HOW = "abandoned"


def result_so_far(state: dict) -> dict:
    """A table outcome for a battle abandoned mid-way: the engine's own summary of the piles now,
    with no winner and nobody routed (ruling T4). The table's state is not changed."""
    summary = army_result(copy.deepcopy(state), "gm", forced=None)
    sides = [{**side, "winner": False, "routed": False} for side in summary["sides"]]
    return {"winner": None, "how": ABANDONED_HOW, "reason": "The GM abandoned the battle: nobody wins.", "sides": sides}


@transaction.atomic
def battle_table_record(
    *, battle: Battle, table: Table, ended_at: datetime | None = None, outcome: dict | None = None
) -> Battle:
    """Take a finished table's outcome (or ``outcome``: an abandoned one's result so far) into the
    campaign (see the module docstring)."""
    outcome = outcome or table.outcome
    if outcome is None:
        raise ArmyError(gettext("Battle #%(battle_id)s is still being fought.") % {"battle_id": battle.pk})
    abandoned = outcome.get("how") == ABANDONED_HOW
    refusal = battle_day_refusal(
        campaign_id=battle.campaign_id, day=battle.day, current_day=campaign_day_locked(battle.campaign_id)
    )
    if refusal and abandoned:
        raise ArmyError(
            gettext(
                "The result so far of battle #%(battle_id)s cannot be kept. %(refusal)s Abandon it without keeping "
                "the result: then nothing is written."
            )
            % {"battle_id": battle.pk, "refusal": refusal}
        )
    if refusal:
        raise ArmyError(
            gettext("Battle #%(battle_id)s cannot be recorded. %(refusal)s Undo the last action, or ask an admin.")
            % {"battle_id": battle.pk, "refusal": refusal}
        )
    commanders = [battle.attacker, battle.defender]
    names = {unit_pk(card["id"]): card["name"] for side in table.config["units"] for card in side}
    units = {unit.pk: unit for unit in ArmyUnit.objects.select_related("card").filter(pk__in=list(names))}
    sides = [_side_result(outcome["sides"][seat], commanders[seat], names, units) for seat in (0, 1)]
    winner = outcome["winner"]
    routed = next((commanders[side["seat"]] for side in sides if side["routed"]), None)
    killed = [units[entry["unit"]] for side in sides for entry in side["killed"]]
    # a unit the GM removed from the roster during the battle has left already: used, not killed again
    killed = [unit for unit in killed if unit.status == ArmyUnit.Status.ACTIVE]
    used = [units[entry["unit"]] for side in sides for entry in side["used"]]
    battle = battle_finish(
        battle=battle,
        ended_at=ended_at or table.finished_at or timezone.now(),
        winner=None if winner is None else commanders[winner],
        routed=routed,
        used_units=used,
        killed_units=killed,
        abandoned=abandoned,
    )
    for side in sides:
        spent = {"favors": side["spent_favors"], "influence_halves": side["spent_influence_halves"]}
        changes = {field: Greatest(F(field) - Value(n), Value(0)) for field, n in spent.items() if n}
        if changes:
            Commander.objects.filter(pk=side["commander_id"]).update(**changes)
    battle.result = {"winner": winner, "reason": outcome["reason"], "how": outcome["how"], "sides": sides}
    battle.abandoned_at = battle.ended_at if abandoned else None
    battle.save(update_fields=["result", "abandoned_at"])
    return battle


def battle_table_finished(table: Table) -> None:
    """The ``on_finish`` hook of game ``army``: a refusal becomes the table's ``IllegalAction``."""
    battle = Battle.objects.select_related("attacker", "defender").filter(table_id=table.pk).first()
    if battle is None:  # an army table opened without a campaign battle: nothing to record
        return
    try:
        battle_table_record(battle=battle, table=table)
    except ArmyError as refusal:
        raise IllegalAction(str(refusal)) from refusal


def battle_undo_refusal(table: Table) -> str | None:
    """The ``undo_blocked`` hook of game ``army`` (ruling B5)."""
    battle_pk = Battle.objects.filter(table_id=table.pk, ended_at__isnull=False).values_list("pk", flat=True).first()
    if battle_pk is None:
        return None
    return gettext(
        "Battle #%(battle_id)s's result is already in the rosters (killed units removed, units used recorded): "
        "it cannot be undone."
    ) % {"battle_id": battle_pk}


def battle_table_abandoned(table: Table, keep_result: bool) -> Line | None:
    """The ``on_abandon`` hook of game ``army`` (rulings T3-T6); a refusal becomes ``IllegalAction``."""
    battle = (
        Battle.objects.select_related("attacker", "defender")
        .select_for_update(of=("self",))
        .filter(table_id=table.pk)
        .first()
    )
    if battle is None or battle.ended_at is not None:  # no campaign battle, or it ended already
        return None
    now = timezone.now()
    if not keep_result:
        battle.abandoned_at = battle.ended_at = now
        battle.save(update_fields=["abandoned_at", "ended_at"])
        return Line(
            gettext_noop("Battle #%(battle)s's units were released: nothing was written to the rosters."),
            battle=battle.pk,
        )
    try:
        battle = battle_table_record(battle=battle, table=table, ended_at=now, outcome=result_so_far(table.state))
    except ArmyError as refusal:
        raise IllegalAction(str(refusal)) from refusal
    killed = sum(len(side["killed"]) for side in battle.result["sides"])
    used = sum(len(side["used"]) for side in battle.result["sides"])
    return Line(
        gettext_noop("Battle #%(battle)s's result so far was kept: %(killed)s killed, %(used)s used on day %(day)s."),
        battle=battle.pk,
        killed=counted(killed, *UNITS),
        used=counted(used, *UNITS),
        day=battle.day,
    )

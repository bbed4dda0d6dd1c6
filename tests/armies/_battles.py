"""Battles opened from two armies and played at their table (armies/services/battle_tables.py): the
commanders, their armies, the opening and the driving to the end that the battle, luck, abandon and fork
tests share, and the battle form as the GM's page posts it (CONVENTIONS 16b: never from a test module)."""

import pytest

from armies.rules import can_fight
from armies.services.battle_tables import battle_table_open
from tabletop.engines import get_engine
from tabletop.engines.army.choices import dice_needed
from tabletop.engines.kernel import GM
from tabletop.models import Table
from tabletop.services.tables import table_play

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory
from tests.forms import once

ARMY = get_engine("army")


# The battles' commanders: fixtures every armies test module sees (tests/armies/conftest.py); a module with
# commanders of its own defines its own.
@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey", role="aggressor", path="steel", progression=4)


@pytest.fixture
def marr(world):
    return CommanderFactory(membership=world.ben, name="Lord Marr", role="aggressor", path="steel")


@pytest.fixture
def king(world):
    return CommanderFactory(membership=world.gm, kind="npc", name="The Bandit King", role="aggressor", path="steel")


def army(commander, *strengths, **card):
    return [ArmyUnitFactory(commander=commander, card=UnitCardFactory(strength=s, **card)) for s in strengths]


def open_battle(world, attacker, defender, a_units=None, d_units=None, **kwargs):
    """A battle with every active unit that can fight unless units are given (GM opens, seed 11)."""
    a_units = a_units if a_units is not None else [u for u in attacker.units.filter(status="active") if can_fight(u)]
    d_units = d_units if d_units is not None else [u for u in defender.units.filter(status="active") if can_fight(u)]
    kwargs.setdefault("opened_by", world.gm.user)
    kwargs.setdefault("seed", 11)
    return battle_table_open(attacker=attacker, defender=defender, attacker_units=a_units, defender_units=d_units,
                             **kwargs)


def strong_offense(label: str) -> int:
    """Physical dice: every Offense die a 6, every other die a 1."""
    return 6 if "(Offense)" in label else 1


def drive(table: Table, *, dice=strong_offense, prefer=None, limit=400) -> Table:
    """Play legal actions to the end: the first legal action of whoever decides, unless ``prefer`` picks
    one (a function of the legal actions); the GM enters ``dice(label)`` at a physical table."""
    for _ in range(limit):
        if table.is_finished:
            return table
        seat = ARMY.to_act(table.state)[0]
        if seat == GM:
            action = {"type": "roll", "values": [dice(need["label"]) for need in dice_needed(table.state)]}
        else:
            legal = [a for a in ARMY.legal_actions(table.state) if a["seat"] == seat]
            action = (prefer(legal) if prefer else None) or legal[0]
            action = {k: v for k, v in action.items() if k != "seat"}
        table = table_play(table_id=table.pk, seat=seat, action=action, version=table.version).table
    raise AssertionError("The battle did not end.")


def posted(vey, defender, units=None, **fields):
    data = {"attacker": vey.pk, "defender": defender.pk, "defending": "defender", "base_morale": 1, "dice": "app",
            "attacker_units": [u.pk for u in (units if units is not None else vey.units.exclude(card__name="Banner"))],
            "defender_units": [u.pk for u in defender.units.all()], "override_reason": "", **once()}
    data.update(fields)
    return data

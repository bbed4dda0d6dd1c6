"""The Army table of the tabletop's army tests, played by hand to the moments they look at (CONVENTIONS 16b:
never from a test module): tests/tabletop/views/test_army_views.py and tests/armies/test_activity_wiring.py.

Ann (seat 0, Lady Vey, Master of Arms) and Ben (seat 1, Captain Orrin, Tactician) hold cards with different
names, so a name on the wrong page is a leak.
"""

from tabletop.engines import army
from tabletop.services.tables import SeatSpec, table_create, table_play

ANN, BEN = 0, 1
ANN_UNITS = ("heavy_cavalry", "soldier", "field_surgeon", "war_banner")
BEN_UNITS = ("treant", "arcane_ward", "wolf_pack", "skeleton_horde")


def army_table(world, dice="app"):
    config = army.starter_config(
        players=["Ann", "Ben"], units=(ANN_UNITS, BEN_UNITS), dice=dice, defender=BEN, base_morale=2
    )
    return table_create(
        campaign=world.campaign,
        game="army",
        title="Siege of Vey",
        seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
        config=config,
        seed=11,
    )


def play(table, pick):
    """Apply the first legal action ``pick`` accepts, for whoever decides now."""
    seat = army.to_act(table.state)[0]
    action = next(a for a in army.legal_actions(table.state) if pick(a))
    return table_play(table_id=table.pk, seat=seat, action=action, version=table.version).table


def to_anns_offense(table):
    """Ben declines his Tactician benefit; whoever chooses lets Ann attack first."""
    while table.state["step"]["kind"] != "offense":
        table = play(table, lambda a: a["type"] == "decline" or a.get("first") == ANN)
    assert table.state["step"]["seat"] == ANN
    return table


def decline_reactions(table):
    while table.state["step"] and table.state["step"]["kind"] in ("react", "heal"):
        table = play(table, lambda a: a["type"] == "decline")
    return table


def revealed(table, offense="s0-1", defense="s1-1"):
    """Heavy Cavalry attacks, the Treant defends: both revealed, the first reaction window open."""
    table = play(to_anns_offense(table), lambda a: a["type"] == "play" and a["card"] == offense and "role" not in a)
    return play(table, lambda a: a["type"] == "play" and a["card"] == defense and "role" not in a)

"""A table's version counts every change at it, and only its moves and undos are logged (issue 35).

Stopping the coach or handing a seat to the computer moves the table's version on (a stale page is refused)
and logs nothing, so its log has gaps: an entry's ``seq`` is the version it made. The import took the
version for the log's length and refused the whole campaign after one coach toggle. These tests play a
table of each game, do each kind of GM action at it, and export and import the campaign after each: the
copy's tables, versions and logs are the original's (archive/compare.py over both archives).
"""

from __future__ import annotations

import gzip
import io
import json
import random
from dataclasses import replace

import pytest
from django.db import DatabaseError

from archive import sections
from archive.compare import archives_differences
from archive.format import ArchiveRefused, encode_line
from armies.rules import can_fight
from armies.services.battle_tables import battle_table_open
from campaign.models import Membership
from campaign.services import account_create, ledger_adjust
from people.services.members import member_remove
from tabletop.engines import army, get_engine
from tabletop.models import Seat, Table, TableAction
from tabletop.services.abandon import table_abandon
from tabletop.services.coach import table_set_coach
from tabletop.services.computer_moves import give_back
from tabletop.services.forks import table_fork
from tabletop.services.projector import projector_issue
from tabletop.services.seats import seat_set_bot
from tabletop.services.stakes import UNSTAKED_GAMES, StakeTerms, table_open_with_stakes
from tabletop.services.tables import SeatSpec, table_undo

from tests.archive._helpers import CLAIMED, without_joins
from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory
from tests.tables import play_random

pytestmark = pytest.mark.django_db

CONFIGS = {
    "army": lambda: army.starter_config(
        players=["Ann", "Ben"], units=(("heavy_cavalry", "soldier", "field_surgeon"),
                                       ("treant", "arcane_ward", "wolf_pack")), dice="app"),
    "gotm": lambda: {"series_game": 0},
    "gridaris": lambda: {"mode": "standard", "cards": get_engine("gridaris").STARTER_CARDS},
    "mercenarium": lambda: {},
    "dungeon": lambda: {"mode": "competitive", "variant": "pairs"},
}
GAMES = sorted(CONFIGS)


def open_table(world, game: str, seed: int, *, staked: bool = False) -> Table:
    """A table of ``game`` for Ann and Ben; ``staked``: each pays 5 coins in from their purse."""
    stakes = None
    if staked:
        purses = {}
        for member in (world.ann, world.ben):
            purses[member.pk] = account_create(campaign=world.campaign, name=f"{member.user} {game}", owner=member)
            ledger_adjust(account=purses[member.pk], amount=20, reason="Opening", gm=world.gm.user)
        stakes = StakeTerms(entry_fee=5, payout="winner_takes_all", accounts=purses)
    return table_open_with_stakes(
        campaign=world.campaign, game=game, title=f"{game} at the Inn", config=CONFIGS[game](), seed=seed,
        seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)], stakes=stakes,
        created_by=world.gm.user)


def round_trip_differences(world, exported, imported, archives) -> list[str]:
    """What differs between the campaign's archive and that of its import once every claim was used."""
    first = exported(world.campaign)
    copy = imported(first, world.gm.user)
    archives.use_claims(copy)
    again = archives.rewrite(exported(copy), without_joins)
    return archives_differences(io.BytesIO(first), io.BytesIO(again), ignore=CLAIMED)


def test_a_coach_toggle_at_a_gotm_table_does_not_refuse_the_archive(world, exported, imported, archives):
    table = play_random(open_table(world, "gotm", 3), 2, random.Random(3))
    table = table_set_coach(table_id=table.pk, on=False, user=world.gm.user)
    assert table.version == TableAction.objects.filter(table=table).count() + 1  # the version no entry has
    assert round_trip_differences(world, exported, imported, archives) == []


def _last_logged(table: Table) -> int:
    return TableAction.objects.filter(table=table).order_by("-seq").values_list("seq", flat=True).first() or 0


def gm_actions(world, seed: int):
    """Each kind of GM action at a table, in an order that keeps every one possible: (name, action), each
    action taking the table and giving it back as it is after."""
    gm, rng = world.gm.user, random.Random(seed)

    def coach(on):
        return lambda t: table_set_coach(table_id=t.pk, on=on, stakes_real=True, user=gm)

    def seat_to(bot):
        return lambda t: seat_set_bot(table_id=t.pk, index=1, bot=bot, version=t.version, user=gm)

    def computer_gives_back(t):  # the computer's move refused, or its turn overdue (services/computer_moves.py)
        t = seat_to("quick")(t)
        assert give_back(t.pk, 1, t.version, "its turn was overdue")
        return Table.objects.get(pk=t.pk)

    def projector(t):
        projector_issue(table_id=t.pk, replacing="", user=gm)
        return t

    def moves_then_undo(t):
        t = play_random(t, 2, rng)
        return table_undo(table_id=t.pk, version=t.version, user=gm)

    def fork(t):  # a players' what-if from the latest logged move, played on and its coach stopped
        what_if = table_fork(table_id=t.pk, version=_last_logged(t), user=gm, players=True)
        what_if = play_random(what_if, 1, rng)
        if what_if.status == Table.Status.ACTIVE:
            coach(not what_if.coach)(what_if)
        return Table.objects.get(pk=t.pk)

    def abandon(t):
        return table_abandon(table_id=t.pk, version=t.version, gm=gm, reason="The inn closes")

    def renewed_links(t):  # Ben leaves: his seats get new links nobody holds (ruling MB4)
        member_remove(membership=Membership.objects.get(pk=world.ben.pk), gm=gm)
        assert not Seat.objects.filter(table=t, membership=world.ben).exists()
        return t

    return [
        ("coach on", coach(True)), ("coach off", coach(False)), ("seat to the computer", seat_to("quick")),
        ("seat back to a person", seat_to("")), ("the computer gives a seat back", computer_gives_back),
        ("projector link", projector), ("undo", moves_then_undo), ("fork", fork), ("abandon", abandon),
        ("renewed seat links", renewed_links),
    ]


def check_every_gm_action(world, game: str, seed: int, exported, imported, archives) -> None:
    table = play_random(open_table(world, game, seed, staked=game not in UNSTAKED_GAMES), 3, random.Random(seed))
    for name, action in gm_actions(world, seed):
        if table.status != Table.Status.ACTIVE and name not in ("fork", "renewed seat links"):
            continue  # the random moves ended the game: an action at a table in play has nothing to do
        table = action(table)
        differences = round_trip_differences(world, exported, imported, archives)
        if name == "renewed seat links":  # the removal's activity line names a member no archive holds now
            differences = [line for line in differences if "target_id:membership" not in line]
        assert differences == [], f"{game}, after {name}: {differences}"
    # the GM's settings counted versions no entry has: the log has gaps, and they travelled
    assert TableAction.objects.filter(table=table).count() < table.version


@pytest.mark.parametrize("game", GAMES)
def test_the_archive_round_trips_after_every_gm_action(game, world, exported, imported, archives):
    check_every_gm_action(world, game, 5, exported, imported, archives)


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("game", GAMES)
def test_the_archive_round_trips_after_every_gm_action_soak(game, seed, world, exported, imported, archives):
    check_every_gm_action(world, game, 100 + seed, exported, imported, archives)


def _gotm_archive(world, exported) -> bytes:
    """The campaign with a GOT'M table played 3 moves, its coach stopped after the first (seq 1, 3, 4)."""
    table = play_random(open_table(world, "gotm", 3), 1, random.Random(3))
    table = table_set_coach(table_id=table.pk, on=False, user=world.gm.user)
    play_random(table, 2, random.Random(4))
    return exported(world.campaign)


def _refusal(data: bytes, world, imported) -> str:
    with pytest.raises(ArchiveRefused) as caught:
        imported(data, world.gm.user)
    return caught.value.sentence


def test_a_log_out_of_order_is_named_without_blaming_the_file(world, exported, imported, archives):
    data = _gotm_archive(world, exported)
    assert [r["seq"] for r in archives.lines(data) if r.get("kind") == "table_action"] == [1, 3, 4]

    def swapped(records):
        actions = [r for r in records if r["kind"] == "table_action"]
        actions[1]["seq"], actions[2]["seq"] = actions[2]["seq"], actions[1]["seq"]
    assert _refusal(archives.rewrite(data, swapped), world, imported) == (
        "The table “gotm at the Inn” has a log no Muster writes (entry 3: it comes after entry 4).")

    def version_behind(records):
        next(r for r in records if r["kind"] == "table")["version"] = 3
    assert _refusal(archives.rewrite(data, version_behind), world, imported) == (
        "The table “gotm at the Inn” has a log no Muster writes (its end: its last entry is 4, "
        "past the table's version 3).")

    def version_far_ahead(records):
        next(r for r in records if r["kind"] == "table")["version"] = 2**31 - 1
    assert "has version 2147483647, outside 0..1073741824" in _refusal(
        archives.rewrite(data, version_far_ahead), world, imported)

    def version_ahead(records):  # more settings than the original counted: the version is taken as given
        next(r for r in records if r["kind"] == "table")["version"] = 9
    copy = imported(archives.rewrite(data, version_ahead), world.gm.user)
    assert Table.objects.get(campaign=copy).version == 9


def test_only_a_digest_says_the_archive_was_changed(world, exported, imported, archives):
    data = _gotm_archive(world, exported)

    def other_digest(records):
        next(r for r in records if r["kind"] == "table_action")["digest"] = "0" * 64
    assert _refusal(archives.rewrite(data, other_digest), world, imported) == (
        "The table “gotm at the Inn” does not replay from its log (entry 1: its state differs from the recorded "
        "digest): the archive was changed, or made by a Muster whose rules differ.")

    def unknown_move(records):  # the engine refuses it: another Muster's rules, no digest consulted
        next(r for r in records if r["kind"] == "table_action")["action"] = {"type": "no_such_move"}
    sentence = _refusal(archives.rewrite(data, unknown_move), world, imported)
    assert sentence.startswith("The table “gotm at the Inn” does not replay from its log (entry 1: ")
    assert sentence.endswith("): the archive was made by a Muster whose rules differ.") and "changed" not in sentence


def test_a_file_that_miscounts_is_called_changed_only_by_its_digest(world, exported, imported):
    raw = gzip.decompress(_gotm_archive(world, exported))
    lines = raw.splitlines(keepends=True)
    trailer = json.loads(lines[-1])
    miscounted = gzip.compress(b"".join(lines[:-1]) + encode_line({**trailer, "records": trailer["records"] + 1}))
    assert _refusal(miscounted, world, imported) == (
        f"The file's last line counts {trailer['records'] + 1} records but the file holds {trailer['records']}.")
    dropped = gzip.compress(b"".join(lines[:3] + lines[4:]))  # a record gone, the trailer kept
    assert _refusal(dropped, world, imported) == (
        f"The file's last line counts {trailer['records']} records but the file holds {trailer['records'] - 1}: "
        "it was changed after export.")


def test_a_value_the_database_refuses_is_named_without_blaming_the_file(world, exported, imported, monkeypatch):
    data = _gotm_archive(world, exported)
    section = sections.section_for("table_action")

    def load(record, ctx):
        raise DatabaseError("integer out of range")

    monkeypatch.setitem(sections._registry, "table_action", replace(section, load=load))
    assert _refusal(data, world, imported) == (
        "The archive holds a value this database refuses (a number or a text past what it keeps).")


def test_a_battle_still_fought_after_the_gms_settings_round_trips(world, exported, imported, archives):
    """An open battle's table is renumbered on import (archive/sections/battles.py): its gaps travel too."""
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", role="aggressor")
    king = CommanderFactory(membership=world.gm, kind="npc", name="The Bandit King", role="savant")
    for commander in (vey, king):
        ArmyUnitFactory(commander=commander, card=UnitCardFactory(name=f"Pikes of {commander.name}", strength=3))
    units = [[u for u in c.units.filter(status="active") if can_fight(u)] for c in (vey, king)]
    table = battle_table_open(attacker=vey, defender=king, attacker_units=units[0], defender_units=units[1],
                              opened_by=world.gm.user, seed=11).table
    table = play_random(table, 2, random.Random(1))
    for action in gm_actions(world, 1)[:5]:  # the settings: coach on and off, a seat to the computer and back
        table = action[1](table)
    copy = imported(exported(world.campaign), world.gm.user)
    twin = Table.objects.get(campaign=copy)
    assert twin.version == table.version > TableAction.objects.filter(table=table).count()
    assert list(TableAction.objects.filter(table=twin).values_list("seq", "kind")) == list(
        TableAction.objects.filter(table=table).values_list("seq", "kind"))
    assert play_random(twin, 1, random.Random(2)).version == table.version + 1  # and it plays on

"""tabletop/services/forks.py: a what-if table forked from any entry of a table's log (rulings WI1-WI9).

A fork's state digest equals the original's at the fork point, for every game and at several points
(after an undo in the original too); whatever is played, finished or abandoned at a fork, nothing of
the campaign changes (ledger, balances, rosters, battles, activity but the fork's own lines).
"""

import random

import pytest
from django.core.exceptions import PermissionDenied

from armies.models import ArmyUnit, Battle, Commander, UnitEvent, UnitUse
from campaign.ledger import balance_of
from campaign.models import Account, Activity, LedgerEntry
from campaign.submissions import AlreadyDone
from tabletop.engines import ENGINES, get_engine
from tabletop.engines.kernel import IllegalAction, SeededRng, digest
from tabletop.engines.replay import replay_log, setup_state
from tabletop.engines.simulate import state_at
from tabletop.models import Seat, Stake, Table, TableAction
from tabletop.selectors import table_log
from tabletop.services.abandon import table_abandon
from tabletop.services.forks import dealt_anew, fork_title, forks_of, table_fork
from tabletop.services.stakes import StakeTerms, stakes_collect
from tabletop.services.tables import SeatSpec, SetupRefused, table_create, table_undo, undo_refusal

from tests.armies._battles import army, drive, marr, open_battle, vey  # noqa: F401 (fixtures)
from tests.tables import play_next, play_random
from tests.tabletop._computer import log_of, version_of, wait_for
from tests.tabletop._computer import open_table as bot_table
from tests.tabletop._stakes import open_staked, play_to_the_end, purse

pytestmark = pytest.mark.django_db


def open_game(world, game: str, seed: int = 3) -> Table:
    """A table of ``game`` over its engine's random config: Ann, Ben, then guests."""
    config = get_engine(game).random_config(SeededRng(seed))
    specs = [SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)]
    specs += [SeatSpec(guest_name=f"Guest {n}") for n in range(2, len(config["players"]))]
    return table_create(
        campaign=world.campaign, game=game, title=f"{game} night", seats=specs[: len(config["players"])],
        config=config, created_by=world.gm.user, seed=seed,
    )


def recorded(table: Table, version: int) -> str:
    if version == 0:
        return digest(setup_state(table.game, table.config, table.setup_draws))
    return TableAction.objects.get(table=table, seq=version).digest


# --- the fork point -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_a_fork_has_the_originals_digest_at_every_point_it_is_forked_at(world, game):
    chooser = random.Random(f"fork-{game}")
    table = play_random(open_game(world, game), 6, chooser)
    table = table_undo(table_id=table.pk, version=table.version, user=world.gm.user)
    after_undo = table.version
    table = play_random(table, 5, chooser)
    table = table_undo(table_id=table.pk, version=table.version, user=world.gm.user)
    table = table_undo(table_id=table.pk, version=table.version, user=world.gm.user)  # two in a row
    table = play_random(table, 3, chooser)
    points = sorted({0, 1, 3, after_undo - 1, after_undo, after_undo + 1, table.version - 1, table.version})
    assert TableAction.objects.filter(table=table, kind="undo").count() == 3
    for version in points:
        fork = table_fork(table_id=table.pk, version=version, user=world.gm.user)
        assert digest(fork.state) == recorded(table, version), f"{game} at move {version}"
        fork.refresh_from_db()
        assert digest(fork.state) == recorded(table, version)
        assert (fork.what_if, fork.forked_from_id, fork.forked_at) == (True, table.pk, version)
        assert (fork.game, fork.config, fork.setup_draws, fork.gm_only) == (
            table.game, table.config, table.setup_draws, True)  # only the GM plays the real deal (WI10)
        assert fork.seed != table.seed  # fresh dice
        log = table_log(fork)
        assert replay_log(log).mismatches == []
        assert [entry["seq"] for entry in log["entries"]] == list(range(1, fork.version + 1))
        assert all("undo" not in entry for entry in log["entries"])
        assert log["final_digest"] == recorded(table, version)
        assert log["table"]["what_if"] == {"forked_from": table.pk, "forked_at": version, "dealt_anew": False}
    assert "what_if" not in table_log(table)["table"]


def test_the_fork_copies_the_live_actions_with_their_draws_and_leaves_out_what_was_undone(world):
    table = play_random(open_game(world, "army", seed=5), 4, random.Random(1))
    table = table_undo(table_id=table.pk, version=table.version, user=world.gm.user)  # seq 5 undoes 4
    table = play_random(table, 2, random.Random(2))  # seq 6, 7
    original = {entry.seq: entry for entry in TableAction.objects.filter(table=table)}

    fork = table_fork(table_id=table.pk, version=6, user=world.gm.user)

    copied = list(TableAction.objects.filter(table=fork).order_by("seq"))
    assert [entry.seq for entry in copied] == [1, 2, 3, 4]  # 1, 2, 3 and 6: 4 is undone, 7 comes after
    for entry, source in zip(copied, [original[1], original[2], original[3], original[6]], strict=True):
        assert (entry.kind, entry.seat, entry.action, entry.draws) == ("action", source.seat, source.action,
                                                                       source.draws)
    assert copied[-1].digest == original[6].digest and fork.version == 4
    assert fork.title == "What-if: army night from move 6"

    at_the_undo = table_fork(table_id=table.pk, version=5, user=world.gm.user)
    assert at_the_undo.version == 3 and digest(at_the_undo.state) == original[5].digest


def test_the_gm_undoes_inside_a_fork_and_plays_on_from_there(world, table):
    for _ in range(4):
        table = play_next(table)
    fork = table_fork(table_id=table.pk, version=3, user=world.gm.user)
    assert undo_refusal(fork) is None
    fork = table_undo(table_id=fork.pk, version=fork.version, user=world.gm.user)
    assert digest(fork.state) == recorded(table, 2)
    fork = play_next(play_next(fork))
    assert replay_log(table_log(fork)).mismatches == []
    table.refresh_from_db()
    assert table.version == 4  # the original never moves


def test_seats_belong_to_the_same_members_with_new_links_and_the_computer_settings(world, table):
    Seat.objects.filter(table=table, index=1).update(bot="strong")
    fork = table_fork(table_id=table.pk, version=0, user=world.gm.user)
    seats = list(fork.seats.order_by("index"))
    originals = list(table.seats.select_related("membership__user").order_by("index"))
    assert [seat.name for seat in seats] == [seat.name for seat in originals] == ["Ann the Bold", "Ben the Sly"]
    assert [seat.membership_id for seat in seats] == [world.ann.pk, world.ben.pk]  # ruling WI3
    assert all(seat.stake_account_id is None for seat in seats)
    assert {seat.token for seat in seats}.isdisjoint({seat.token for seat in originals})
    assert [seat.bot for seat in seats] == ["", "strong"]


def test_a_fork_of_a_fork_and_of_a_finished_abandoned_or_released_table(world, table):
    for _ in range(3):
        table = play_next(table)
    fork = table_fork(table_id=table.pk, version=3, user=world.gm.user)
    fork = play_next(fork)
    again = table_fork(table_id=fork.pk, version=4, user=world.gm.user)
    assert again.forked_from_id == fork.pk and again.what_if
    assert digest(again.state) == recorded(fork, 4)
    assert again.title == f"What-if: {table.title} from move 4"  # the table named once (issue 25)

    finished = play_to_the_end(table)
    Table.objects.filter(pk=finished.pk).update(log_released_at=finished.finished_at)  # ruling WI1
    last = table_fork(table_id=finished.pk, version=finished.version, user=world.gm.user)
    assert last.status == Table.Status.FINISHED and last.outcome == finished.outcome
    assert undo_refusal(last) is None  # the GM takes the last move back inside the what-if
    table_undo(table_id=last.pk, version=last.version, user=world.gm.user)

    table_abandon(table_id=fork.pk, version=fork.version, gm=world.gm.user, reason="Enough of that")
    assert table_fork(table_id=fork.pk, version=2, user=world.gm.user).status == Table.Status.ACTIVE


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("quick_bots")
def test_a_computer_seat_to_act_at_the_fork_point_moves_in_the_what_if(world):
    table = bot_table(world, [world.ann, ("Computer", "quick")])
    table = play_next(table)  # Ann moves; the computer answers at the original
    wait_for(lambda: version_of(table) >= 2, "the computer's move at the original")

    fork = table_fork(table_id=table.pk, version=1, user=world.gm.user)

    assert [seat.bot for seat in fork.seats.order_by("index")] == ["", "quick"]
    wait_for(lambda: version_of(fork) >= 2, "the computer's move at the what-if")
    assert [entry.seat for entry in log_of(fork)][:2] == ["0", "1"]


def test_a_version_the_table_never_had_is_refused_with_a_sentence_and_nothing_is_made(world, table):
    table = play_next(table)
    for version in (2, -1, 99, "1"):
        with pytest.raises(IllegalAction, match=r"has no move .*moves 0 to 1"):
            table_fork(table_id=table.pk, version=version, user=world.gm.user)
    assert not Table.objects.filter(what_if=True).exists()
    assert not Activity.objects.filter(kind=Activity.Kind.TABLE_FORK).exists()


def test_a_log_that_does_not_replay_to_what_it_recorded_is_not_forked(world, table):
    table = play_next(play_next(table))
    TableAction.objects.filter(table=table, seq=2).update(digest="0" * 64)
    with pytest.raises(IllegalAction, match="does not replay to the state it recorded at move 2"):
        table_fork(table_id=table.pk, version=2, user=world.gm.user)
    TableAction.objects.filter(table=table, seq=1).update(draws=[1, 2, 3, 4, 5, 6, 7, 8, 9])
    with pytest.raises(IllegalAction, match="does not replay"):
        table_fork(table_id=table.pk, version=1, user=world.gm.user)
    assert table_fork(table_id=table.pk, version=0, user=world.gm.user).version == 0
    assert Table.objects.filter(what_if=True).count() == 1


def test_only_the_gm_forks(world, table):
    for user in (world.ann.user, world.outsider, world.staff):
        with pytest.raises(PermissionDenied):
            table_fork(table_id=table.pk, version=0, user=user)
    assert not Table.objects.filter(what_if=True).exists()


def test_a_repeated_token_makes_one_fork(world, table):
    first = table_fork(table_id=table.pk, version=0, user=world.gm.user, submission="fork-token-0123456789")
    with pytest.raises(AlreadyDone) as done:
        table_fork(table_id=table.pk, version=0, user=world.gm.user, submission="fork-token-0123456789")
    assert done.value.result == first
    assert Table.objects.filter(what_if=True).count() == 1


def test_the_fork_is_recorded_in_the_activity_log_and_listed_on_the_original(world, table):
    table = play_next(table)
    first = table_fork(table_id=table.pk, version=0, user=world.gm.user)
    second = table_fork(table_id=table.pk, version=1, user=world.gm.user)
    line = Activity.objects.get(kind=Activity.Kind.TABLE_FORK, target_id=second.pk)
    assert (line.target_type, line.details["original"], line.details["version"]) == ("table", table.pk, 1)
    assert "Nothing played there counts" in line.summary and line.actor == world.gm.user
    assert [fork.pk for fork in forks_of(table)] == [second.pk, first.pk]
    assert list(Table.objects.counted()) == [table]
    assert set(Table.objects.what_ifs()) == {first, second}


def test_a_long_title_is_shortened_to_fit():
    title = fork_title("x" * 120, 1234)
    assert len(title) <= 120 and title.startswith("What-if: xxx") and title.endswith("… from move 1234")


def test_a_players_what_if_is_settled_on_its_new_cards_so_it_never_waits_for_ever():
    """Issue 36 (ruling WI13): at the state simulate found (GOT'M seed 205, step 97), Ben must hire; a deal
    of the what-if that leaves him a hand that pays for nothing ends the game (M4) instead of waiting."""
    engine = get_engine("gotm")
    state = state_at(engine, 205, 97)
    stuck = [seed for seed in range(60)
             if not engine.legal_actions(engine.redeal(state, [0], SeededRng(f"{seed}:what-if deal")))]
    assert stuck, "no deal of this what-if leaves Ben stuck any more: the case is gone"
    for seed in stuck[:3]:
        dealt = dealt_anew("gotm", state, [0], seed)
        assert engine.outcome(dealt) is not None and engine.invariants(dealt) == []
        assert "has no mercenary left and cannot afford to recruit one" in dealt["result"]["reason"]
        assert engine.view(dealt, 0)["hand"] == engine.view(state, 0)["hand"]


# --- nothing counts -------------------------------------------------------------------------------


def campaign_snapshot(campaign, forks=()):
    """Everything a what-if must never change: ledger, balances, rosters, battles, activity but the forks'."""
    fork_ids = [fork.pk for fork in forks]
    return {
        "ledger": list(LedgerEntry.objects.filter(account__campaign=campaign).order_by("pk").values()),
        "balances": {account.pk: balance_of(account) for account in Account.objects.filter(campaign=campaign)},
        "units": list(ArmyUnit.objects.filter(commander__campaign=campaign).order_by("pk").values()),
        "events": list(UnitEvent.objects.order_by("pk").values()),
        "uses": list(UnitUse.objects.order_by("pk").values()),
        "commanders": list(Commander.objects.filter(campaign=campaign).order_by("pk").values()),
        "battles": list(Battle.objects.filter(campaign=campaign).order_by("pk").values()),
        "stakes": list(Stake.objects.order_by("pk").values()),
        "activity": list(
            Activity.objects.filter(campaign=campaign)
            .exclude(target_type="table", target_id__in=fork_ids)
            .order_by("pk").values()
        ),
        "counted": list(Table.objects.counted().filter(campaign=campaign).order_by("pk").values()),
    }


def test_playing_a_fork_of_a_battle_to_its_end_kills_nobody_in_the_rosters(world, vey, marr):  # noqa: F811
    army(vey, 5, 5)
    army(marr, 1, 1)
    battle = open_battle(world, vey, marr, dice="physical")
    before = campaign_snapshot(world.campaign)

    fork = table_fork(table_id=battle.table_id, version=0, user=world.gm.user)
    fork = drive(fork)  # every 6 against 1 kills: the battle's own table would kill both of Marr's units

    assert fork.is_finished and fork.outcome is not None
    assert campaign_snapshot(world.campaign, [fork]) == before
    battle.refresh_from_db()
    assert battle.ended_at is None and battle.result in (None, {})

    other = table_fork(table_id=battle.table_id, version=0, user=world.gm.user)
    table_abandon(table_id=other.pk, version=0, gm=world.gm.user, reason="Try another day")
    with pytest.raises(IllegalAction, match="writes nothing"):
        table_abandon(table_id=table_fork(table_id=battle.table_id, version=0, user=world.gm.user).pk,
                      version=0, gm=world.gm.user, reason="Keep it", keep_result=True)
    forks = Table.objects.what_ifs()
    assert campaign_snapshot(world.campaign, forks) == before

    drive(battle.table)  # the battle itself still counts: its kills reach the rosters
    assert ArmyUnit.objects.filter(commander=marr, status="killed").count() == 2


def test_a_what_if_runs_no_finish_undo_or_abandon_hook(world, table):
    from tabletop import hooks

    called = []

    def finish(t):
        called.append(("finish", t.pk))

    def undo(t):
        called.append(("undo", t.pk))
        return "The hook refuses."

    def abandon(t, keep):
        called.append(("abandon", t.pk))

    for register, fn in ((hooks.on_finish, finish), (hooks.undo_blocked, undo), (hooks.on_abandon, abandon)):
        register("gridaris")(fn)
    try:
        fork = play_to_the_end(table_fork(table_id=table.pk, version=0, user=world.gm.user))
        assert fork.is_finished and undo_refusal(fork) is None
        table_undo(table_id=fork.pk, version=fork.version, user=world.gm.user)
        other = table_fork(table_id=table.pk, version=0, user=world.gm.user)
        table_abandon(table_id=other.pk, version=0, gm=world.gm.user, reason="Done")
        assert called == []
        play_to_the_end(table)  # the original's hooks run
        assert called == [("finish", table.pk)]
    finally:
        for fn in (finish, undo, abandon):
            hooks.unregister(fn)


def test_a_fork_of_a_staked_table_takes_no_stake_and_pays_out_nothing(world):
    purses = [purse(world.ann, 100), purse(world.ben, 100)]
    table = open_staked(world, [world.ann, world.ben], purses)
    table = play_next(play_next(table))
    before = campaign_snapshot(world.campaign)

    fork = table_fork(table_id=table.pk, version=2, user=world.gm.user)
    assert not Stake.objects.filter(table=fork).exists()
    fork = play_to_the_end(fork)
    assert fork.outcome is not None
    other = table_fork(table_id=table.pk, version=1, user=world.gm.user)
    table_abandon(table_id=other.pk, version=other.version, gm=world.gm.user, reason="Stop")
    with pytest.raises(SetupRefused, match="played for nothing"):
        stakes_collect(table=other, terms=StakeTerms(entry_fee=5, payout="winner_takes_all",
                                                     accounts={a.owner_id: a for a in purses}))

    assert campaign_snapshot(world.campaign, Table.objects.what_ifs()) == before
    assert [balance_of(account) for account in purses] == [90, 90]

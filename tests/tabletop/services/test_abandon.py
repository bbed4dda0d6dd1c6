"""tabletop/services/abandon.py: abandon an unfinished table, refund its stakes, keep its log (rulings T1-T2)."""

import pytest
from django.core.exceptions import PermissionDenied
from django.db.models import Sum

from campaign.ledger import balance_of
from campaign.models import Activity, LedgerEntry
from campaign.submissions import AlreadyDone
from tabletop import hooks
from tabletop.engines.kernel import IllegalAction, digest
from tabletop.engines.replay import replay_log
from tabletop.models import Table, TableAction
from tabletop.selectors import table_log
from tabletop.services.abandon import AlreadyAbandoned, table_abandon
from tabletop.services.stakes import stakes_pay_out
from tabletop.services.tables import StaleVersion, table_play, table_release_log, table_undo, undo_refusal

from tests.factories import gridaris_table
from tests.forms import once
from tests.tables import next_move, play_next
from tests.tabletop._stakes import open_staked, purse, table_entries

pytestmark = pytest.mark.django_db


def abandon(world, table, reason="The tavern closed", **kwargs):
    table.refresh_from_db()
    kwargs.setdefault("version", table.version)
    return table_abandon(table_id=table.pk, gm=world.gm.user, reason=reason, **kwargs)


def test_stakes_are_refunded_exactly_by_new_entries_and_the_pot_is_zero(world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 30)
    table = open_staked(world, [world.ann, world.ben, "Gus"], [ann, ben], fee=10, seed=2)
    table = play_next(play_next(table))
    entries_before = list(LedgerEntry.objects.order_by("id").values_list("id", "account_id", "amount", "reason"))

    table = abandon(world, table)

    assert (balance_of(ann), balance_of(ben)) == (50, 30)  # as before the table was opened
    after = list(LedgerEntry.objects.order_by("id").values_list("id", "account_id", "amount", "reason"))
    assert after[: len(entries_before)] == entries_before  # the ledger only grew
    refunds = after[len(entries_before):]
    reason = "Refund: Gridaris at the Inn was abandoned"
    assert [(a, amount, r) for _, a, amount, r in refunds] == [(ann.pk, 10, reason), (ben.pk, 10, reason)]
    new = table_entries(table).filter(reason=reason)
    assert set(new.values_list("kind", "created_by")) == {(LedgerEntry.Kind.STAKE, world.gm.user.pk)}
    assert table_entries(table).aggregate(pot=Sum("amount"))["pot"] == 0
    assert table.stake.is_paid_out  # the pot is settled: never paid out again
    stakes_pay_out(table)
    assert table_entries(table).aggregate(pot=Sum("amount"))["pot"] == 0


def test_guests_get_nothing_and_a_table_without_stakes_moves_no_coins(world):
    table = gridaris_table(world.campaign, [world.ann, "Gus"])
    table = abandon(world, table)
    assert table.status == Table.Status.ABANDONED and table.finished_at is not None
    assert not LedgerEntry.objects.exists()
    line = Activity.objects.get(kind=Activity.Kind.TABLE_ABANDON)
    assert "Stakes" not in line.summary and line.details["refunds"] == []


def test_the_table_is_kept_with_its_log_which_still_replays(world, table):
    table = play_next(play_next(play_next(table)))
    state, version = table.state, table.version

    table = abandon(world, table)

    table.refresh_from_db()
    assert (table.state, table.version, table.outcome) == (state, version, None)
    assert TableAction.objects.filter(table=table).count() == version
    log = table_log(table)
    assert log["table"]["status"] == "abandoned"
    replayed = replay_log(log)
    assert replayed.mismatches == [] and replayed.applied == 3 and replayed.checked_digests >= 3
    assert digest(replayed.state) == log["final_digest"]


def test_an_abandoned_table_refuses_actions_and_undo(world, table):
    table = play_next(table)
    abandon(world, table)
    table.refresh_from_db()
    seat, action = next_move(table)

    with pytest.raises(IllegalAction, match="This table was abandoned: nothing more can be played or undone."):
        table_play(table_id=table.pk, seat=seat, action=action, version=table.version)
    with pytest.raises(IllegalAction, match="This table was abandoned"):
        table_undo(table_id=table.pk, version=table.version, user=world.gm.user)
    assert undo_refusal(table).startswith("This table was abandoned")
    assert TableAction.objects.filter(table=table).count() == 1


def test_the_seats_get_the_log_of_an_abandoned_table(world, table):
    """Ruling T2: an abandoned game is over, as a finished one is (P1)."""
    with pytest.raises(IllegalAction, match="when the game is over"):
        table_release_log(table_id=table.pk)
    abandon(world, table)
    assert table_release_log(table_id=table.pk).log_released_at is not None


def test_abandoning_twice_is_answered_already_abandoned_and_refunds_once(world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 30)
    table = open_staked(world, [world.ann, world.ben], [ann, ben], fee=10)
    abandon(world, table)

    with pytest.raises(AlreadyAbandoned, match="Already abandoned"):
        abandon(world, table, version=0)
    token = once()["submission"]
    table2 = open_staked(world, [world.ann, world.ben], [ann, ben], fee=5, title="Second")
    abandon(world, table2, submission=token)
    with pytest.raises(AlreadyDone):
        abandon(world, table2, submission=token)

    assert (balance_of(ann), balance_of(ben)) == (50, 30)
    assert Activity.objects.filter(kind=Activity.Kind.TABLE_ABANDON).count() == 2


def test_a_stale_version_is_refused_with_the_table_as_it_is_now(world, table):
    seen = table.version
    table = play_next(table)
    with pytest.raises(StaleVersion) as stale:
        abandon(world, table, version=seen)
    assert stale.value.table.version == table.version
    table.refresh_from_db()
    abandoned = Activity.objects.filter(kind=Activity.Kind.TABLE_ABANDON)
    assert table.status == Table.Status.ACTIVE and not abandoned.exists()


def test_a_finished_table_cannot_be_abandoned(world, table):
    while not table.is_finished:
        table = play_next(table)
    with pytest.raises(IllegalAction, match="is finished: a finished table cannot be abandoned"):
        abandon(world, table)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


@pytest.mark.parametrize("reason", ["", "   ", "x" * 241])
def test_a_reason_is_required_and_bounded(world, table, reason):
    with pytest.raises(IllegalAction, match="Say why the table is abandoned|Keep the reason under 240"):
        abandon(world, table, reason=reason)
    table.refresh_from_db()
    assert table.status == Table.Status.ACTIVE


def test_only_the_gm_abandons(world, table):
    with pytest.raises(PermissionDenied):
        table_abandon(table_id=table.pk, version=0, gm=world.ann.user, reason="Mine")
    table.refresh_from_db()
    assert table.status == Table.Status.ACTIVE


def test_keep_result_is_refused_for_a_game_without_a_result_to_keep(world, table):
    with pytest.raises(IllegalAction, match="no result to keep"):
        abandon(world, table, keep_result=True)


def test_one_activity_line_with_the_reason_and_the_refunds(world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 30)
    table = open_staked(world, [world.ann, world.ben], [ann, ben], fee=10)
    abandon(world, table, reason="Ann had to leave")

    line = Activity.objects.get(kind=Activity.Kind.TABLE_ABANDON)
    assert (line.kind, line.actor, line.day, line.target_type, line.target_id) == (
        Activity.Kind.TABLE_ABANDON, world.gm.user, 1, "table", table.pk)
    assert line.summary == (
        "Abandoned Gridaris at the Inn: Ann had to leave. Stakes refunded: 10 to Ann the Bold, 10 to Ben the Sly."
    )
    assert line.details["reason"] == "Ann had to leave" and line.details["keep_result"] is False
    assert [(r["seat_index"], r["account_id"], r["amount"]) for r in line.details["refunds"]] == [
        (0, ann.pk, 10), (1, ben.pk, 10)]


def test_a_hook_runs_in_the_transaction_and_its_refusal_saves_nothing(world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 30)
    table = open_staked(world, [world.ann, world.ben], [ann, ben], fee=10)
    seen = []

    def refuse(t, keep_result):
        seen.append((t.status, keep_result))
        raise IllegalAction("Not today.")

    hooks.on_abandon("gridaris")(refuse)
    try:
        with pytest.raises(IllegalAction, match="Not today."):
            abandon(world, table)
    finally:
        hooks.unregister(refuse)
    assert seen == [(Table.Status.ABANDONED, False)]
    table.refresh_from_db()
    assert table.status == Table.Status.ACTIVE
    abandoned = Activity.objects.filter(kind=Activity.Kind.TABLE_ABANDON)
    assert (balance_of(ann), balance_of(ben)) == (40, 20) and not abandoned.exists()


def test_a_hooks_sentence_goes_into_the_activity_line(world, table):
    def say(t, keep_result):
        return "The hook did its part."

    hooks.on_abandon("gridaris")(say)
    try:
        abandon(world, table)
    finally:
        hooks.unregister(say)
    line = Activity.objects.get(kind=Activity.Kind.TABLE_ABANDON)
    assert line.summary.endswith("The hook did its part.") and line.details["hooks"] == ["The hook did its part."]

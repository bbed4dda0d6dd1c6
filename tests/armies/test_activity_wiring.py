"""The GM's existing actions write exactly one activity line, in their own transaction.

Day ends (the GM's button and the schedule), treasury adjustments, battles opened despite a lock,
and GM overrides at a table. Refusals, hot-seat play and the GM's ordinary dice write nothing.
(Opening a table writes its own line, ruling L3: the table tests leave it aside; test_activity_lines.py
pins it with recruiting, training, grants and the ends of tables and battles.)
"""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from armies.models import Battle, DayEnd
from armies.services import ArmyError
from armies.services.battles import BattleLocked, battle_open
from armies.services.day_end import DayEndUnderway, day_end_start
from campaign.ledger import InsufficientFunds
from campaign.models import Activity, Campaign
from campaign.services import ledger_adjust
from campaign.submissions import AlreadyDone, new_token
from tabletop.engines import army
from tabletop.engines.kernel import GM, IllegalAction
from tabletop.services.tables import table_play

from tests.armies.factories import CommanderFactory
from tests.forms import once
from tests.tabletop._army import army_table, decline_reactions, revealed, to_anns_offense

pytestmark = pytest.mark.django_db

Kind = Activity.Kind


@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey")


@pytest.fixture
def marr(world):
    return CommanderFactory(membership=world.ben, name="Lord Marr")


def only_line(*, besides: tuple[str, ...] = ()) -> Activity:
    """The one line written, leaving aside lines of the kinds ``besides`` (a table's opening)."""
    lines = list(Activity.objects.exclude(kind__in=besides))
    assert len(lines) == 1, [entry.summary for entry in lines]
    return lines[0]


# --- day ends -------------------------------------------------------------------------------------------


def test_the_gms_day_end_writes_one_line_about_the_day_end(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        day_end = day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)
    entry = only_line()
    assert (entry.kind, entry.actor, entry.actor_name, entry.day) == (Kind.DAY_END, world.gm.user, "gm", 1)
    assert (entry.summary, entry.target_type, entry.target_id) == ("Day 1 ended", "dayend", day_end.pk)


def test_the_schedules_day_end_is_logged_as_the_schedule(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        day_end_start(campaign=world.campaign, day=1, started_by=None)
    entry = only_line()
    assert (entry.actor, entry.actor_name, entry.summary) == (None, "schedule", "Day 1 ended")


def test_a_day_end_settled_in_process_still_writes_one_line(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)
    assert Campaign.objects.get(pk=world.campaign.pk).current_day == 2
    assert only_line().summary == "Day 1 ended"


def test_a_failed_day_end_sent_again_says_so(world, django_capture_on_commit_callbacks):
    DayEnd.objects.create(campaign=world.campaign, day=1, status=DayEnd.Status.FAILED, error="boom")
    with django_capture_on_commit_callbacks(execute=False):
        day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)
    assert only_line().summary == "Day 1 end sent again"


def test_refused_day_ends_write_nothing(world, django_capture_on_commit_callbacks):
    with pytest.raises(ArmyError, match="has not begun"):
        day_end_start(campaign=world.campaign, day=2, started_by=world.gm.user)
    with pytest.raises(PermissionDenied):
        day_end_start(campaign=world.campaign, day=1, started_by=world.ann.user)
    with django_capture_on_commit_callbacks(execute=False):
        day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)
    with pytest.raises(DayEndUnderway, match="already being settled"):
        day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)  # underway: left to its worker
    assert only_line().summary == "Day 1 ended"


# --- treasury adjustments -------------------------------------------------------------------------------


def test_an_adjustment_writes_one_line_about_the_account(world, vey):
    entry = ledger_adjust(account=vey.account, amount=5, reason="Found a purse", gm=world.gm.user)
    line = only_line()
    assert (line.kind, line.actor, line.day) == (Kind.ADJUSTMENT, world.gm.user, 1)
    assert line.summary == f"Adjusted {vey.account.name} by +5: Found a purse"
    assert (line.target_type, line.target_id) == ("account", vey.account.pk)
    assert line.details.pop("said")  # its words (issue 41); the rest as before
    assert line.details == {"entry_id": entry.pk, "amount": 5, "reason": "Found a purse"}


def test_a_refused_adjustment_writes_nothing(world, vey):
    with pytest.raises(InsufficientFunds):
        ledger_adjust(account=vey.account, amount=-5, reason="A fine", gm=world.gm.user)
    assert not Activity.objects.exists()


def test_a_repeated_adjustment_writes_one_line(world, vey):
    token = new_token()
    ledger_adjust(account=vey.account, amount=3, reason="Loot", gm=world.gm.user, submission=token)
    with pytest.raises(AlreadyDone):
        ledger_adjust(account=vey.account, amount=3, reason="Loot", gm=world.gm.user, submission=token)
    assert only_line().summary.endswith("by +3: Loot")


def test_the_adjust_page_writes_the_line_with_the_gm(client, world, vey):
    client.force_login(world.gm.user)
    client.post(reverse("armies:adjust", args=[world.campaign.slug, vey.pk]), once(amount="0", reason="x"))
    assert not Activity.objects.exists()  # 0 is refused by the form
    client.post(reverse("armies:adjust", args=[world.campaign.slug, vey.pk]), once(amount="7", reason="Bounty"))
    assert only_line().actor == world.gm.user


# --- battles opened despite a lock ----------------------------------------------------------------------


def test_a_battle_opened_despite_a_lock_writes_one_line_with_the_reason(world, vey, marr):
    first = Battle.objects.create(campaign=world.campaign, attacker=vey, defender=marr, day=1)
    Battle.objects.filter(pk=first.pk).update(ended_at=timezone.now() - timedelta(minutes=5))
    with pytest.raises(BattleLocked):
        battle_open(attacker=vey, defender=marr, day=1, opened_by=world.gm.user)
    assert not Activity.objects.exists()

    battle = battle_open(attacker=vey, defender=marr, day=1, opened_by=world.gm.user, override_reason="A duel")

    line = only_line()
    assert (line.kind, line.actor, line.target_type, line.target_id) == (
        Kind.BATTLE_OPEN, world.gm.user, "battle", battle.pk
    )
    assert line.summary == f"Opened battle #{battle.pk}, Lady Vey against Lord Marr, despite a lock: A duel"
    assert line.details["reason"] == "A duel" and "may fight again" in line.details["locks"][0]


def test_a_battle_without_a_lock_writes_the_ordinary_line_even_with_a_reason(world, vey, marr):
    first = battle_open(attacker=vey, defender=marr, day=1, opened_by=world.gm.user, override_reason="Just because")
    battle_open(attacker=CommanderFactory(membership=world.ann), defender=marr, day=1, opened_by=world.ann.user)
    assert not Activity.objects.filter(kind=Kind.BATTLE_OPEN).exists()
    assert Activity.objects.filter(kind=Kind.BATTLE_NEW).count() == 2  # ruling L3
    assert Activity.objects.filter(target_id=first.pk).get().summary == (
        f"Opened battle #{first.pk}, Lady Vey against Lord Marr."
    )


# --- GM overrides at a table ----------------------------------------------------------------------------


def test_a_gm_override_writes_one_line_with_the_label_the_gm_saw(world):
    table = to_anns_offense(army_table(world))
    table = table_play(
        table_id=table.pk,
        seat=GM,
        action={"type": "gm_move_card", "card": "s1-1", "to": "killed"},
        version=table.version,
        user=world.gm.user,
    ).table
    line = only_line(besides=(Kind.TABLE_NEW,))
    assert (line.kind, line.actor) == (Kind.OVERRIDE, world.gm.user)
    assert (line.target_type, line.target_id) == ("table", table.pk)
    assert line.summary == "Override at Siege of Vey: Move a card to a hand or pile"
    assert line.details.pop("said")  # its words (issue 41); the rest as before
    assert line.details == {"action": "gm_move_card", "version": table.version}
    card = table.state["cards"]["s1-1"]["name"]
    assert card not in line.summary and card not in str(line.details)  # a hidden card is never named


def test_the_gm_page_override_writes_the_line(client, world):
    table = to_anns_offense(army_table(world))
    client.force_login(world.gm.user)
    client.post(
        reverse("tabletop:gm_act", args=[world.campaign.slug, table.pk]),
        {"type": "gm_morale", "target:int": "0", "amount:int": "-1", "as_seat": "gm", "version": table.version},
    )
    assert only_line(besides=(Kind.TABLE_NEW,)).summary == "Override at Siege of Vey: Add or remove Morale"


def test_hot_seat_play_and_the_gms_dice_are_not_overrides(world):
    table = decline_reactions(revealed(army_table(world, dice="physical")))  # the GM played both seats
    assert table.state["step"]["kind"] == "dice" and table.state["step"]["seat"] == GM
    table_play(table_id=table.pk, seat=GM, action={"type": "roll", "values": [5, 1]}, version=table.version,
               user=world.gm.user)
    assert not Activity.objects.exclude(kind=Kind.TABLE_NEW).exists()


def test_a_refused_override_writes_nothing(world):
    table = to_anns_offense(army_table(world))
    with pytest.raises(IllegalAction):
        table_play(table_id=table.pk, seat=GM, action={"type": "gm_morale", "target": 0, "amount": 0},
                   version=table.version, user=world.gm.user)
    assert not Activity.objects.exclude(kind=Kind.TABLE_NEW).exists()
    assert army.view(table.state, GM)["overrides"]  # there were overrides to choose from

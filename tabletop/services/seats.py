"""The GM hands a seat to the computer at a strength, or back to a person (issue 16)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from campaign.activity import COINS, Line, activity_record, counted
from campaign.models import Activity

from .. import selectors, titles, viewers
from ..computer.scheduling import turn_after_commit
from ..computer.strengths import strength_check
from ..engines.kernel import IllegalAction
from ..models import Seat, Table, new_token
from .stakes import STAKE_TO_COMPUTER, STAKE_TO_PERSON
from .tables import StaleVersion


@transaction.atomic
def seat_set_bot(*, table_id: int, index: int, bot: str, version: int, user=None) -> Table:
    """The computer plays seat ``index`` at strength ``bot`` from now on ("" gives it back to a
    person, with a new secret link). The table's version moves on (every page refetches; a stale
    tab is refused), the activity log names the seat and the strength, and a computer to act gets
    its turn."""
    table = (
        selectors.with_computer_seats(Table.objects.select_related("stake"))
        .select_for_update(of=("self",))
        .defer(*selectors.UNSHOWN_TABLE_FIELDS)
        .get(pk=table_id)
    )
    if version != table.version:
        raise StaleVersion(table)
    if table.status != Table.Status.ACTIVE:
        raise IllegalAction(gettext("Only a table in play can hand a seat to the computer or back."))
    try:
        strength_check(bot)
    except ValueError as error:
        raise IllegalAction(str(error)) from None
    seat = Seat.objects.filter(table=table, index=index).select_related("membership__user").first()
    if seat is None:
        raise IllegalAction(gettext("This table has no seat %(number)s.") % {"number": index + 1})
    if seat.bot == bot:  # nothing changes hands; a computer to act gets its turn again if none is under way (BOT34)
        turn_after_commit(table)
        return table
    was, seat.bot = seat.bot, bot
    if not bot:  # a person's again: a new link, so none scanned or leaked before works (ruling BOT32)
        seat.token = new_token()
    seat.save(update_fields=["bot", "token"])
    setattr(table, f"bot_{index}", bot)
    table.version += 1
    table.save(update_fields=["version", "updated_at"])
    viewers.table_moved(table)
    now = Line(gettext_noop("the computer (%(strength)s)"), strength=bot) if bot else Line(gettext_noop("a person"))
    summary = Line(
        gettext_noop("%(title)s: seat %(number)s (%(name)s) is now played by %(now)s"),
        title=titles.as_line(table.title),
        number=index + 1,
        name=seat.name,
        now=now,
    )
    stake = getattr(table, "stake", None)  # ruling S9: a member's stake stays with the seat, whoever plays it
    if stake is not None and seat.stake_account_id and not stake.is_paid_out and bool(was) != bool(bot):
        warning = Line(
            STAKE_TO_COMPUTER if bot else STAKE_TO_PERSON, name=seat.name, coins=counted(stake.entry_fee, *COINS)
        )
        summary = Line(gettext_noop("%(line)s. %(warning)s"), line=summary, warning=warning)
    activity_record(
        campaign=table.campaign_id,
        actor=user,
        kind=Activity.Kind.OVERRIDE,
        summary=summary,  # activity_record keeps its first 300 characters
        target=table,
        details={"seat": index, "before": was, "after": bot, "version": table.version},
    )
    turn_after_commit(table)
    return table

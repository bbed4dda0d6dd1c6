"""The GM allows or stops the coach at a table (issue 27, ruling CO1): whether its players may ask the
computer what it would do (``tabletop/computer/coach.py`` answers them).

A table opens with the coach on when nothing rides on it (no stakes, not a battle) and every what-if
has it on; the GM switches it from the table's page. Switching it on at a staked table needs the GM's
word that the stakes are real (``stakes_real``): a player who asks plays for real coins with the
computer's help. The switch moves the version on (every page re-renders with the button shown or gone,
so a page that offered it is stale) and leaves a line in the activity log; unlike handing a seat to the
computer, it is not refused when the game moved since the GM's page was drawn (it means the same).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from campaign.activity import Line, activity_record
from campaign.models import Activity

from .. import selectors, titles, viewers
from ..engines.kernel import IllegalAction
from ..models import Table

STAKES_REAL = gettext_noop("The stakes at this table are real: tick that you know it to let its players ask the "
                           "computer what it would do.")
NOT_IN_PLAY = gettext_noop("Only a table in play can let its players ask the computer, or stop them.")


@transaction.atomic
def table_set_coach(*, table_id: int, on: bool, stakes_real: bool = False, user=None) -> Table:
    """Let the table's players ask the computer (``on``) or stop them. Refused with a sentence at a table
    not in play, or when switching it on at a staked table without ``stakes_real``. Nothing changes when the
    table is already so (a repeated post). It takes no version: a move made since the GM's page was drawn
    (a computer's, a player's) does not refuse the switch, which means the same whatever the game did (a
    GOT'M table's quick computer moved before the GM's first tap, and every such tap was refused)."""
    table = (
        selectors.with_computer_seats(Table.objects.select_related("stake"))
        .select_for_update(of=("self",))
        .defer(*selectors.UNSHOWN_TABLE_FIELDS)
        .get(pk=table_id)
    )
    if table.coach == on:
        return table
    if table.status != Table.Status.ACTIVE:
        raise IllegalAction(gettext(NOT_IN_PLAY))
    staked = getattr(table, "stake", None) is not None
    if on and staked and not stakes_real:
        raise IllegalAction(gettext(STAKES_REAL))
    table.coach = on
    table.version += 1
    table.save(update_fields=["coach", "version", "updated_at"])
    viewers.table_moved(table)
    if on and staked:
        said = gettext_noop("%(title)s: its players may now ask the computer what it would do (the stakes are real)")
    elif on:
        said = gettext_noop("%(title)s: its players may now ask the computer what it would do")
    else:
        said = gettext_noop("%(title)s: its players may no longer ask the computer what it would do")
    activity_record(
        campaign=table.campaign_id,
        actor=user,
        kind=Activity.Kind.OVERRIDE,
        summary=Line(said, title=titles.as_line(table.title)),
        target=table,
        details={"coach": on, "version": table.version},
    )
    return table

"""An all-computer table ends after a hard number of actions (issue 36): never a table that runs for ever.

Every rule loop the rulebooks leave open ends by a rule of their own kind (the third repetition of a
position: tabletop/engines/repetition.py), and the bench shows every game ending. A table where every
seat is the computer's has no person to notice an engine bug that still loops, so it has a last bound
too: once its version (every change of the table counts) reaches ``COMPUTER_TABLE_ACTIONS`` (5,000 by
default, far above any game the bench has played to its end), no further turn is sent; the table is
abandoned instead, with ``SENTENCE`` as the reason the GM and the players read on its page and in the
activity log. A table with a person's seat is never ended by it: the person is there to see it.

``reached`` costs nothing below the limit (the version is on the row), and one query above it.
``scheduling.turn_after_commit`` checks it after every committed change and sends the task
``COMPUTER_LIMIT`` (``services.computer_moves.end_at_limit``) in place of a turn.
"""

from __future__ import annotations

from django.conf import settings

from ..models import Seat, Table

DEFAULT_LIMIT = 5000
COMPUTER_LIMIT = "tabletop.computer_limit"  # an all-computer table at its limit: abandon it with the sentence


def action_limit() -> int:
    return int(getattr(settings, "COMPUTER_TABLE_ACTIONS", DEFAULT_LIMIT))


def reached(table: Table) -> bool:
    """Whether ``table`` (in play) has every seat the computer's and has reached the action limit."""
    if table.status != Table.Status.ACTIVE or table.version < action_limit():
        return False
    seats = Seat.objects.filter(table_id=table.pk)
    return seats.exists() and not seats.filter(bot="").exists()


def sentence() -> str:
    """The reason the table is abandoned with (under the abandon's 240 characters)."""
    return (f"every seat was the computer's and the game had no result after {action_limit():,} actions, "
            "the limit of an all-computer table, so it was ended rather than left to run for ever")

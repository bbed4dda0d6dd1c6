"""Abandon an unfinished table: refund its stakes, close it for good, keep its log.

``table_abandon`` runs in one transaction with the table row locked, pinned to the version
the GM saw (``StaleVersion`` otherwise). Only a table in play can be abandoned; a second
abandon is answered ``AlreadyAbandoned`` (an information, not an error: a double tap).

* Stakes: every staked account gets back what it paid into the table's pot, by new STAKE
  entries (reason "Refund: <title> was abandoned", cause ``table``/id); nothing is edited, and
  the table's STAKE entries then sum to 0 (ruling T1). Guests paid nothing and get nothing.
* The table: status ABANDONED, ``finished_at`` now, its state and log kept (the log still
  replays to the same digest; its version stays the number of its log entries: the pages'
  polls notice the status instead).
  ``table_play`` and ``table_undo`` refuse it from then on; its log is released to the seats
  as a finished table's is (ruling T2).
* The game's ``on_abandon`` hooks run in the same transaction (an army battle releases its
  units or keeps its result so far: ``armies/services/battle_tables.py``); one that raises
  ``IllegalAction`` refuses the abandon whole.
* One activity line (kind ``table_abandon``) with the reason, the refunds and what the hooks did.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from campaign.activity import LIST_MORE, Line, activity_record
from campaign.ledger import Posting, ledger_post_many
from campaign.models import Activity, LedgerEntry
from campaign.permissions import is_gm
from campaign.submissions import applied_once
from muster.refusals import Refusal

from .. import hooks, titles, viewers
from ..engines.kernel import IllegalAction
from ..models import Seat, Stake, Table
from ..pots import CAUSE_TYPE
from .tables import StaleVersion

MAX_REASON = 240
REFUNDED = gettext_noop("%(amount)s to %(seat)s")  # a stake refunded, in the activity log


class AlreadyAbandoned(IllegalAction, Refusal):
    """The table was abandoned before (a double tap): nothing more was done."""

    def __init__(self, table: Table):
        sentence = gettext("Already abandoned: %(title)s was abandoned before; nothing more was done.")
        super().__init__(sentence % {"title": table.shown_title})
        self.table = table


def refund_reason(table: Table) -> str:
    return f"Refund: {table.title} was abandoned"


def pot_by_account(table: Table) -> dict[int, int]:
    """What each account has in the table's pot now (what it paid in, less what it got back)."""
    rows = (
        LedgerEntry.objects.filter(cause_type=CAUSE_TYPE, cause_id=table.pk, kind=LedgerEntry.Kind.STAKE)
        .order_by()
        .values_list("account_id")
        .annotate(total=Sum("amount"))
    )
    return {account_id: -total for account_id, total in rows if total < 0}


def refunds_planned(table: Table) -> list[dict]:
    """Per staked seat, in seat order: the seat, its account and the coins it would get back now."""
    pot = pot_by_account(table)
    seats = (
        Seat.objects.filter(table_id=table.pk, stake_account__isnull=False)
        .select_related("membership__user", "stake_account")
        .order_by("index")
    )
    return [
        {"seat": seat, "account": seat.stake_account, "amount": pot.get(seat.stake_account_id, 0)} for seat in seats
    ]


@applied_once("table_abandon")
@transaction.atomic
def table_abandon(*, table_id: int, version: int, gm, reason: str, keep_result: bool = False) -> Table:
    """Abandon the table in play ``table_id`` as the GM ``gm`` saw it at ``version``.

    Raises ``AlreadyAbandoned`` (a double tap), ``StaleVersion`` (the table moved on),
    ``IllegalAction`` with a sentence (a finished table, no reason, a hook's refusal) or
    ``PermissionDenied`` (not the campaign's GM); then nothing is saved.
    """
    table = Table.objects.select_for_update().select_related("campaign").get(pk=table_id)
    if not is_gm(gm, table.campaign):
        raise PermissionDenied(gettext("Only the GM can abandon a table."))
    if table.status == Table.Status.ABANDONED:
        raise AlreadyAbandoned(table)
    if version != table.version:
        raise StaleVersion(table)
    if table.status != Table.Status.ACTIVE:
        raise IllegalAction(
            gettext("%(title)s is finished: a finished table cannot be abandoned.") % {"title": table.shown_title}
        )
    reason = " ".join((reason or "").split())
    if not reason:
        raise IllegalAction(gettext("Say why the table is abandoned: the players will read it."))
    if len(reason) > MAX_REASON:
        raise IllegalAction(
            gettext("Keep the reason under %(limit)s characters (it has %(length)s).")
            % {"limit": MAX_REASON, "length": len(reason)}
        )
    if keep_result and (table.what_if or not hooks.can_keep_result(table.game)):
        raise IllegalAction(gettext("This game has no result to keep: abandoning it writes nothing."))

    refunds = [] if table.what_if else _refund_stakes(table, gm)  # a what-if has no stakes (services/forks.py)
    table.status, table.finished_at = Table.Status.ABANDONED, timezone.now()
    table.save(update_fields=["status", "finished_at", "updated_at"])
    viewers.table_moved(table)
    viewers.members_moved(table)  # their campaign pages show it abandoned
    # may raise IllegalAction: everything rolls back; a what-if runs none (it wrote nothing to the campaign)
    said = [] if table.what_if else hooks.table_abandoned(table, keep_result)

    parts = [Line(gettext_noop("Abandoned %(title)s: %(reason)s."), title=titles.as_line(table.title), reason=reason)]
    if refunds:
        refunded = [Line(REFUNDED, amount=row["amount"], seat=row["seat"]) for row in refunds]
        for row in reversed(refunded[:-1]):  # "5 to Ann, 5 to Ben"
            refunded[-1] = Line(LIST_MORE, first=row, rest=refunded[-1])
        parts.append(Line(gettext_noop("Stakes refunded: %(refunds)s."), refunds=refunded[-1]))
    parts += [part for part in said if part]  # the game's own lines, as it wrote them
    summary = parts[-1]
    for part in reversed(parts[:-1]):
        summary = Line(gettext_noop("%(first)s %(rest)s"), first=part, rest=summary)
    activity_record(
        campaign=table.campaign,
        actor=gm,
        kind=Activity.Kind.TABLE_ABANDON,
        summary=summary,
        target=table,
        details={
            "reason": reason,
            "keep_result": keep_result,
            "refunds": refunds,
            "hooks": [part.english() if isinstance(part, Line) else part for part in said],  # as they read
            "version": version,
        },
    )
    return table


def _refund_stakes(table: Table, gm) -> list[dict]:
    """Give every staked account back what it has in the pot (new STAKE entries); mark the pot settled."""
    stake = Stake.objects.select_for_update().filter(table=table).first()
    if stake is None:
        return []
    rows = [row for row in refunds_planned(table) if row["amount"] > 0]
    ledger_post_many([  # every purse locked at once, in pk order (campaign/ledger.py)
        Posting(account_id=row["account"].pk, amount=row["amount"], kind=LedgerEntry.Kind.STAKE,
                reason=refund_reason(table), cause_type=CAUSE_TYPE, cause_id=table.pk,
                created_by_id=gm.pk)
        for row in rows
    ])
    refunds = [{"seat": row["seat"].name, "seat_index": row["seat"].index, "account_id": row["account"].pk,
                "amount": row["amount"]} for row in rows]
    stake.paid_out_at = timezone.now()  # the pot is settled: never paid out again
    stake.save(update_fields=["paid_out_at"])
    return refunds

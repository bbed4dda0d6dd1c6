"""The treasury ledger: the one module that writes ``LedgerEntry`` rows and locks accounts for them.

Why one module: a payment is a balance check and an insert under the account's row lock. Written
by hand in three places (the purchase path, the day end's upkeep and its take-back) the lock came
out three different ways and the order of locks lived in docstrings; here it is one function,
``accounts_locked``, and every writer goes through ``ledger_post`` (one entry) or
``ledger_post_many`` (many, in one insert: the day end writes thousands). The archive's verbatim
restore writes the rows of a campaign nobody sees yet, and may keep doing so itself.

The rules every entry obeys: it has a reason, it moves at least one coin and at most
``MAX_LEDGER_AMOUNT``, and a debit may not take an account below zero unless its campaign allows
credit (``InsufficientFunds``, with the sentence the player reads). The ledger is append-only:
nothing here changes or deletes an entry; a mistake is put right by a CORRECTION entry.

Lock order (``accounts_locked``): every transaction that writes money takes its row locks in this
order, so two of them wait for each other instead of deadlocking:

1. the campaign row, when the writer holds it (``armies.services.battles.campaign_day_locked``:
   the day end's start, the battle checks, the day end's take-back);
2. the day end's ``DayEnd`` row (the settlement's chunks, the take-back);
3. the rows the money is for: an offer, a table and its stake, a commander (``commander_lock``);
4. the accounts, by primary key, in one query (this module);
5. what the money changes: the used units that desert, the settlements and deserters taken back.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import QuerySet, Sum
from django.utils.translation import gettext as _

from muster.refusals import Refusal

from .bounds import MAX_LEDGER_AMOUNT, require_between
from .models import Account, LedgerEntry


class InsufficientFunds(Refusal):
    """A debit would take an account below zero in a campaign that allows no credit."""


@dataclass(frozen=True)
class Posting:
    """One entry to append, as plain data (``ledger_post_many``). ``day`` None: the campaign's current day."""

    account_id: int
    amount: int
    kind: str
    reason: str
    day: int | None = None
    cause_type: str = ""
    cause_id: int | None = None
    created_by_id: int | None = None


@dataclass
class Locked:
    """Accounts whose rows this transaction holds (``accounts_locked``), each with its campaign.

    ``balances()`` reads their balances once (one aggregate query) and keeps them up to date with
    what ``ledger_post_many`` appends through it, so a caller that decides by the balances (the
    day end's bills) and the overdraft check read the same numbers under the same lock.
    """

    accounts: dict[int, Account]
    _balances: dict[int, int] | None = field(default=None, repr=False)

    def balances(self) -> dict[int, int]:
        if self._balances is None:
            self._balances = balances_of(list(self.accounts))
        return self._balances

    def moved(self, amounts: dict[int, int]) -> None:
        """Entries were appended: keep the balances read so far true (nothing to do when none was read)."""
        if self._balances is not None:
            for account_id, amount in amounts.items():
                self._balances[account_id] = self._balances.get(account_id, 0) + amount


def accounts_locked(account_ids: Iterable[int] | None = None, *, campaign_id: int | None = None) -> Locked:
    """Lock the accounts' rows for the rest of the transaction: by primary key, in one query.

    The accounts are ``account_ids``, or every account of ``campaign_id``; each comes with its
    campaign (read, not locked). The order of locks across tables is the module docstring's.
    """
    accounts = Account.objects.select_related("campaign").select_for_update(of=("self",)).order_by("pk")
    if account_ids is not None:
        accounts = accounts.filter(pk__in=list(account_ids))
    if campaign_id is not None:
        accounts = accounts.filter(campaign_id=campaign_id)
    return Locked(accounts={account.pk: account for account in accounts})


def balance_of(account: Account) -> int:
    return LedgerEntry.objects.filter(account=account).aggregate(total=Sum("amount"))["total"] or 0


def balances_of(account_ids: Iterable[int] | QuerySet) -> dict[int, int]:
    """Account id -> balance, for the accounts with entries (``.get(pk, 0)``). One aggregate query.

    ``account_ids`` may be a queryset of ids: it is then a subquery of the same query.
    """
    rows = LedgerEntry.objects.filter(account_id__in=account_ids).values("account_id").annotate(total=Sum("amount"))
    return {row["account_id"]: row["total"] for row in rows.order_by()}


def _checked_reason(amount: int, reason: str) -> str:
    """The entry's reason, stripped; refused (a sentence) without one, for no coin, or beyond the bounds."""
    if not reason.strip():
        raise ValueError("Every ledger entry needs a reason.")
    if amount == 0:
        raise ValueError("A ledger entry moves at least one coin.")
    require_between(_("A ledger entry"), amount, -MAX_LEDGER_AMOUNT, MAX_LEDGER_AMOUNT)
    return reason.strip()


def _refuse_overdraft(account: Account, balance: int, amount: int) -> None:
    if amount < 0 and not account.campaign.allow_credit and balance + amount < 0:
        raise InsufficientFunds(
            _("%(account)s has %(balance)s coins and this needs %(needed)s.")
            % {"account": account.name, "balance": balance, "needed": -amount}
        )


@transaction.atomic
def ledger_post(
    *,
    account: Account,
    amount: int,
    kind: str,
    reason: str,
    day: int | None = None,
    cause_type: str = "",
    cause_id: int | None = None,
    created_by=None,
) -> LedgerEntry:
    """Append one entry. A debit is refused if it would overdraw the account (unless the campaign allows credit).

    The account row is locked first, so two debits at the same moment cannot both pass the check.
    """
    reason = _checked_reason(amount, reason)
    locked = accounts_locked([account.pk]).accounts.get(account.pk)
    if locked is None:
        raise Account.DoesNotExist(f"There is no account #{account.pk}.")
    if amount < 0 and not locked.campaign.allow_credit:
        _refuse_overdraft(locked, balance_of(locked), amount)
    return LedgerEntry.objects.create(
        account=locked,
        amount=amount,
        day=locked.campaign.current_day if day is None else day,
        kind=kind,
        reason=reason,
        cause_type=cause_type,
        cause_id=cause_id,
        created_by=created_by,
    )


def ledger_post_many(postings: Sequence[Posting], *, locked: Locked | None = None) -> list[LedgerEntry]:
    """Append many entries with one insert (a batch per 999 parameters on SQLite), all or none.

    Each posting obeys what ``ledger_post`` checks, in order, as if posted one by one: the first
    debit that would overdraw its account refuses the lot with ``InsufficientFunds``. ``locked`` is
    the caller's ``accounts_locked`` when it already holds the accounts (and perhaps read their
    balances): its transaction is then the one the entries are written in, with no savepoint of
    their own (the day end posts a chunk at a time and counts its queries). Without it the
    postings' accounts are locked here, in a transaction of this call.
    """
    reasons = [_checked_reason(posting.amount, posting.reason) for posting in postings]
    if not postings:
        return []
    if locked is not None:
        return _posted(postings, reasons, locked)
    with transaction.atomic():
        return _posted(postings, reasons, accounts_locked({posting.account_id for posting in postings}))


def _posted(postings: Sequence[Posting], reasons: list[str], locked: Locked) -> list[LedgerEntry]:
    """Check every posting against the locked accounts, then insert them all (``bulk_create`` is atomic)."""
    missing = sorted({posting.account_id for posting in postings} - set(locked.accounts))
    if missing:
        raise ValueError(f"Account #{missing[0]} is not locked for this posting: lock it with accounts_locked first.")
    checked = any(
        posting.amount < 0 and not locked.accounts[posting.account_id].campaign.allow_credit for posting in postings
    )
    balances = locked.balances() if checked else {}
    moved: dict[int, int] = defaultdict(int)
    for posting in postings:
        if checked:
            account = locked.accounts[posting.account_id]
            _refuse_overdraft(account, balances.get(posting.account_id, 0) + moved[posting.account_id], posting.amount)
        moved[posting.account_id] += posting.amount
    entries = LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(
                account_id=posting.account_id,
                amount=posting.amount,
                day=locked.accounts[posting.account_id].campaign.current_day if posting.day is None else posting.day,
                kind=posting.kind,
                reason=reason,
                cause_type=posting.cause_type,
                cause_id=posting.cause_id,
                created_by_id=posting.created_by_id,
            )
            for posting, reason in zip(postings, reasons, strict=True)
        ]
    )
    locked.moved(moved)
    return entries

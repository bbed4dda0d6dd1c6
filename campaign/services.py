from __future__ import annotations

from django.db import transaction
from django.db.models import Sum

from .bounds import MAX_COINS, MAX_LEDGER_AMOUNT, OutOfBounds, require_between
from .models import Account, Campaign, Day, LedgerEntry, Membership
from .submissions import applied_once


class InsufficientFunds(ValueError):
    """A debit would take an account below zero in a campaign that allows no credit."""


@transaction.atomic
def campaign_create(*, name: str, slug: str, gm, description: str = "") -> Campaign:
    campaign = Campaign.objects.create(name=name, slug=slug, description=description, current_day=1)
    Day.objects.create(campaign=campaign, number=1)
    Membership.objects.create(user=gm, campaign=campaign, role=Membership.Role.GM)
    return campaign


def membership_add(
    *, campaign: Campaign, user, role: str = Membership.Role.PLAYER, character_name: str = ""
) -> Membership:
    membership, _ = Membership.objects.update_or_create(
        campaign=campaign, user=user, defaults={"role": role, "character_name": character_name}
    )
    return membership


def account_create(*, campaign: Campaign, name: str, owner: Membership | None = None) -> Account:
    return Account.objects.create(campaign=campaign, name=name, owner=owner)


def balance_of(account: Account) -> int:
    return LedgerEntry.objects.filter(account=account).aggregate(total=Sum("amount"))["total"] or 0


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
    if not reason.strip():
        raise ValueError("Every ledger entry needs a reason.")
    if amount == 0:
        raise ValueError("A ledger entry moves at least one coin.")
    require_between("A ledger entry", amount, -MAX_LEDGER_AMOUNT, MAX_LEDGER_AMOUNT)
    locked = Account.objects.select_related("campaign").select_for_update(of=("self",)).get(pk=account.pk)
    campaign = locked.campaign
    if amount < 0 and not campaign.allow_credit:
        balance = balance_of(locked)
        if balance + amount < 0:
            raise InsufficientFunds(f"{locked.name} has {balance} coins and this needs {-amount}.")
    return LedgerEntry.objects.create(
        account=locked,
        amount=amount,
        day=campaign.current_day if day is None else day,
        kind=kind,
        reason=reason.strip(),
        cause_type=cause_type,
        cause_id=cause_id,
        created_by=created_by,
    )


@applied_once("ledger_adjust")
def ledger_adjust(*, account: Account, amount: int, reason: str, gm) -> LedgerEntry:
    """A GM adjustment: up to ``MAX_COINS`` either way, with a reason, recorded against the GM who made it."""
    if isinstance(amount, int) and not isinstance(amount, bool) and abs(amount) > MAX_COINS:
        raise OutOfBounds(f"An adjustment moves at most {MAX_COINS:,} coins either way (got {amount:,}).")
    return ledger_post(account=account, amount=amount, kind=LedgerEntry.Kind.ADJUSTMENT, reason=reason, created_by=gm)

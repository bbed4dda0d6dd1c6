"""The campaign's own sections of an archive: the campaign, its days, accounts with their ledger, and the
activity log (docs/archive-format.md).

Each section exports a campaign's rows of one kind as plain records and loads one record into the new
campaign. An account travels with the balance its ledger comes to, and the import checks, once every entry
is in, that each account comes to it again (``_check_balances``; archive/proof.py checks it before the write
pass too). A user a record names (an entry's or a line's author) is the importer or nobody; the activity line
keeps the name it showed.

Where these kinds load among the others: archive/sections/kinds.py.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.conf import settings
from django.db.models import Sum
from django.utils.translation import gettext_noop

from campaign.bounds import MAX_COOLDOWN_MINUTES, MAX_DAY, MAX_LEDGER_AMOUNT
from campaign.models import Account, Activity, Campaign, Day, LedgerEntry, validate_time_zone
from people.selectors.claims import waiting_claim_of

from .. import records as r
from ..context import ImportContext, claimant
from ..format import ArchiveRefused
from ..records import CHUNK, iso, username
from . import Section, register

# Orders (archive/sections/kinds.py shows every kind's place among them)
CAMPAIGN, DAY, ACCOUNT, ACTIVITY, LEDGER_ENTRY = 10, 20, 40, 170, 180

# Choices as sets, made once: an enum's ``values`` builds a new list at every call (18 % of the write pass
# of 200,000 activity records, bench/archive.py --attack lock).
DESERTIONS = frozenset(Campaign.Desertion.values)
LANGUAGES = frozenset(["", *(code for code, _name in settings.LANGUAGES)])  # a campaign's, or none
LEDGER_KINDS, ACTIVITY_KINDS = frozenset(LedgerEntry.Kind.values), frozenset(Activity.Kind.values)


# ------------------------------------------------------------------------------------------------ campaign


def export_campaign(campaign: Campaign) -> Iterator[dict]:
    yield {
        "id": campaign.pk,
        "name": campaign.name,
        "slug": campaign.slug,
        "description": campaign.description,
        "current_day": campaign.current_day,
        "allow_credit": campaign.allow_credit,
        "desertion": campaign.desertion,
        "day_end_time": iso(campaign.day_end_time),
        "time_zone": campaign.time_zone,
        "language": campaign.language,
        "battle_cooldown_minutes": campaign.battle_cooldown_minutes,
        "created_at": iso(campaign.created_at),
    }


def load_campaign(record: dict, ctx: ImportContext) -> None:
    if ctx.ids["campaign"]:
        raise ArchiveRefused(gettext_noop("The archive holds two campaigns."))
    campaign = ctx.campaign
    campaign.name = r.text(record, "name", 120, blank=False)
    campaign.description = r.text(record, "description", 20_000)
    campaign.current_day = r.integer(record, "current_day", 1, MAX_DAY)
    campaign.allow_credit = r.boolean(record, "allow_credit")
    campaign.desertion = r.choice(record, "desertion", DESERTIONS)
    campaign.day_end_time = r.time_of_day(record, "day_end_time", null=True)
    campaign.time_zone = r.text(record, "time_zone", 64, blank=False)
    try:
        validate_time_zone(campaign.time_zone)
    except Exception:
        raise ArchiveRefused(
            gettext_noop("The archive's campaign has the time zone %(zone)s, which this site does not know."),
            zone=repr(campaign.time_zone),
        ) from None
    # a language Django knows, or "" (each browser's own); archives made before issue 41 have none
    campaign.language = r.choice(record, "language", LANGUAGES, default="")
    campaign.battle_cooldown_minutes = r.integer(record, "battle_cooldown_minutes", 0, MAX_COOLDOWN_MINUTES)
    campaign.save()
    Campaign.objects.filter(pk=campaign.pk).update(created_at=r.moment(record, "created_at"))
    ctx.record_id("campaign", r.ident(record), campaign.pk)


# ------------------------------------------------------------------------------------------------ days


def export_days(campaign: Campaign) -> Iterator[dict]:
    for day in Day.objects.filter(campaign=campaign).order_by("number").iterator(chunk_size=CHUNK):
        yield {"id": day.pk, "number": day.number, "opened_at": iso(day.opened_at), "closed_at": iso(day.closed_at)}


def load_day(record: dict, ctx: ImportContext) -> None:
    ctx.add(
        Day(campaign=ctx.campaign, number=r.integer(record, "number", 1, MAX_DAY),
            closed_at=r.moment(record, "closed_at", null=True)),
        kind="day", old_id=r.ident(record), times={"opened_at": r.moment(record, "opened_at")},
    )

# ------------------------------------------------------------------------------------------------ accounts


def export_accounts(campaign: Campaign) -> Iterator[dict]:
    accounts = (Account.objects.filter(campaign=campaign)
                .annotate(balance=Sum("entries__amount"), claim=waiting_claim_of(campaign, "account")).order_by("pk"))
    for account in accounts.iterator(chunk_size=CHUNK):
        yield {
            "id": account.pk,
            "name": account.name,
            "owner_id": account.owner_id if account.claim is None else claimant(account.claim),  # nobody's till then
            "balance": account.balance or 0,
            "created_at": iso(account.created_at),
        }


def load_account(record: dict, ctx: ImportContext) -> None:
    old_id = r.ident(record)
    ctx.balances[old_id] = r.integer(record, "balance", -(2**62), 2**62)
    ctx.after(_check_balances_of(ctx))
    owner_old = ctx.member_ident(record, "owner_id", null=True)
    ctx.add(
        Account(campaign=ctx.campaign, name=r.text(record, "name", 120),
                owner_id=ctx.id_for("member", owner_old, what=r.named(gettext_noop("account %(id)s"), id=old_id))),
        kind="account", old_id=old_id, times={"created_at": r.moment(record, "created_at")},
    )
    unclaimed = ctx.unclaimed_member(owner_old)
    if unclaimed is not None:  # nobody's until its owner's claim is used
        unclaimed.accounts.append(old_id)


def export_ledger(campaign: Campaign) -> Iterator[dict]:
    entries = (LedgerEntry.objects.filter(account__campaign=campaign).select_related("created_by")
               .order_by("account_id", "pk"))
    for entry in entries.iterator(chunk_size=CHUNK):
        yield {
            "id": entry.pk,
            "account_id": entry.account_id,
            "amount": entry.amount,
            "day": entry.day,
            "ledger_kind": entry.kind,
            "reason": entry.reason,
            "cause_type": entry.cause_type,
            "cause_id": entry.cause_id,
            "created_by": username(entry.created_by),
            "created_at": iso(entry.created_at),
        }


def load_ledger_entry(record: dict, ctx: ImportContext) -> None:
    old_id = r.ident(record)
    account_id = r.ident(record, "account_id")
    amount = r.integer(record, "amount", -MAX_LEDGER_AMOUNT, MAX_LEDGER_AMOUNT)
    entry = LedgerEntry(
        account_id=ctx.id_for("account", account_id, what=r.named(gettext_noop("ledger entry %(id)s"), id=old_id)),
        amount=amount,
        day=r.integer(record, "day", 1, MAX_DAY),
        kind=r.choice(record, "ledger_kind", LEDGER_KINDS),
        reason=r.text(record, "reason", 240),
        cause_type=r.text(record, "cause_type", 40),
        created_by=ctx.member_user(record.get("created_by")),
    )
    ctx.free_ref(entry, "cause_id", entry.cause_type, r.integer(record, "cause_id", 0, 2**63 - 1, null=True))
    ctx.add(entry, kind="ledger_entry", old_id=old_id, times={"created_at": r.moment(record, "created_at")})


def _check_balances_of(ctx: ImportContext):
    if ctx.balance_check is None:
        ctx.balance_check = lambda: _check_balances(ctx)
    return ctx.balance_check


def _check_balances(ctx: ImportContext) -> None:
    """Every account's balance after the import is the one the archive states (its entries all arrived)."""
    wanted = {ctx.ids["account"][old]: balance for old, balance in ctx.balances.items()}
    names = dict(Account.objects.filter(campaign=ctx.campaign).values_list("pk", "name"))
    found = dict(
        Account.objects.filter(campaign=ctx.campaign).annotate(balance=Sum("entries__amount"))
        .values_list("pk", "balance")
    )
    for pk, balance in wanted.items():
        if (found.get(pk) or 0) != balance:
            raise balance_refusal(names.get(pk), found.get(pk) or 0, balance)


def balance_refusal(name: str | None, found: int, wanted: int) -> ArchiveRefused:
    """An account whose ledger entries do not come to the balance the archive states (checked before the
    write pass by archive/proof.py, and once more after it here)."""
    return ArchiveRefused(gettext_noop("The account “%(name)s” comes to %(found)s coins from its ledger entries, but "
                                       "the archive says %(wanted)s: its ledger is incomplete or was changed."),
                          name=name, found=found, wanted=wanted)


# ------------------------------------------------------------------------------------------------ activity


def export_activity(campaign: Campaign) -> Iterator[dict]:
    lines = Activity.objects.filter(campaign=campaign).select_related("actor").order_by("pk")
    for line in lines.iterator(chunk_size=CHUNK):
        yield {
            "id": line.pk,
            "actor": username(line.actor),
            "actor_name": line.actor_name,
            "day": line.day,
            "activity_kind": line.kind,
            "summary": line.summary,
            "target_type": line.target_type,
            "target_id": line.target_id,
            "details": line.details,
            "created_at": iso(line.created_at),
        }


def load_activity(record: dict, ctx: ImportContext) -> None:
    line = Activity(
        campaign=ctx.campaign,
        actor=ctx.member_user(record.get("actor")),
        actor_name=r.text(record, "actor_name", 150),
        day=r.integer(record, "day", 1, MAX_DAY),
        kind=r.choice(record, "activity_kind", ACTIVITY_KINDS),
        summary=r.text(record, "summary", 300),
        target_type=r.text(record, "target_type", 40),
        details=r.json_value(record, "details", types=(dict,)),
    )
    ctx.free_ref(line, "target_id", line.target_type, r.integer(record, "target_id", 0, 2**63 - 1, null=True))
    ctx.add(line, kind="activity", old_id=r.ident(record), times={"created_at": r.moment(record, "created_at")})


register(Section("campaign", CAMPAIGN, export_campaign, load_campaign))
register(Section("day", DAY, export_days, load_day))
register(Section("account", ACCOUNT, export_accounts, load_account, names=("account",)))
register(Section("activity", ACTIVITY, export_activity, load_activity,
                 names=("activity", "gm", "day_end_revert", "training")))
register(Section("ledger_entry", LEDGER_ENTRY, export_ledger, load_ledger_entry, names=("ledgerentry",)))

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.formats import number_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from muster import languages
from muster.refusals import Refusal

from .activity import QUOTED, Line, activity_record, in_parts
from .bounds import MAX_COINS, MAX_COOLDOWN_MINUTES, OutOfBounds, require_between
from .ledger import ledger_post
from .models import Account, Activity, Campaign, Day, LedgerEntry, Membership, default_time_zone, time_zone_named
from .permissions import require_campaign_creator
from .quotas import campaign_quota_check
from .submissions import applied_once


class SettingsRefused(Refusal):
    """A campaign setting the service will not save; the message is a sentence."""


def membership_add(
    *, campaign: Campaign, user, role: str = Membership.Role.PLAYER, character_name: str = ""
) -> Membership:
    membership, _ = Membership.objects.update_or_create(
        campaign=campaign, user=user, defaults={"role": role, "character_name": character_name}
    )
    return membership


def account_create(*, campaign: Campaign, name: str, owner: Membership | None = None) -> Account:
    return Account.objects.create(campaign=campaign, name=name, owner=owner)


@applied_once("ledger_adjust")
def ledger_adjust(*, account: Account, amount: int, reason: str, gm) -> LedgerEntry:
    """A GM adjustment: up to ``MAX_COINS`` either way, with a reason, recorded against the GM who made it."""
    if isinstance(amount, int) and not isinstance(amount, bool) and abs(amount) > MAX_COINS:
        raise OutOfBounds(
            _("An adjustment moves at most %(max)s coins either way (got %(amount)s).")
            % {
                "max": number_format(MAX_COINS, force_grouping=True),
                "amount": number_format(amount, force_grouping=True),
            }
        )
    with transaction.atomic():
        entry = ledger_post(
            account=account, amount=amount, kind=LedgerEntry.Kind.ADJUSTMENT, reason=reason, created_by=gm
        )
        activity_record(
            campaign=entry.account.campaign,
            actor=gm,
            kind=Activity.Kind.ADJUSTMENT,
            summary=Line(
                gettext_noop("Adjusted %(account)s by %(amount)s: %(reason)s"),
                account=entry.account.name,
                amount=f"{entry.amount:+}",
                reason=entry.reason,
            ),
            target_type="account",
            target_id=entry.account_id,
            details={"entry_id": entry.pk, "amount": entry.amount, "reason": entry.reason},
            day=entry.day,
        )
    return entry


# --- campaign settings ------------------------------------------------------------------------------

SETTINGS = (
    "name", "description", "desertion", "allow_credit", "time_zone", "language", "day_end_time",
    "battle_cooldown_minutes",
)  # fmt: skip
MAX_NAME = Campaign._meta.get_field("name").max_length
MAX_DESCRIPTION = 2_000


DESERTION_WORDS = {  # a desertion policy as the activity log names it
    "most_expensive": gettext_noop("most expensive"),
    "cheapest": gettext_noop("cheapest"),
    "all_used": gettext_noop("all used"),
}


def _setting_words(field: str, value: Any, zone: str) -> str | Line:
    """How a setting's value reads in the activity log (a time of day with the zone it is read in)."""
    if field == "desertion":
        return Line(DESERTION_WORDS[value]) if value in DESERTION_WORDS else value.replace("_", " ")
    if field == "allow_credit":
        return Line(gettext_noop("yes") if value else gettext_noop("no"))
    if field == "day_end_time":
        return f"{value:%H:%M} {zone}" if value is not None else Line(gettext_noop("none"))
    if field == "name":
        return Line(QUOTED, name=value)
    if field == "language":
        return value or Line(gettext_noop("each browser's own"))
    return str(value)


def _setting_json(value: Any) -> Any:
    return value.strftime("%H:%M:%S") if isinstance(value, dt.time) else value


# A setting's name in the activity log: (as the line's first words, after another change).
SETTING_NAMES = {
    "name": (gettext_noop("Name"), gettext_noop("name")),
    "desertion": (gettext_noop("Desertion policy"), gettext_noop("desertion policy")),
    "allow_credit": (gettext_noop("Allow credit"), gettext_noop("allow credit")),
    "time_zone": (gettext_noop("Time zone"), gettext_noop("time zone")),
    "language": (gettext_noop("Language"), gettext_noop("language")),
    "day_end_time": (gettext_noop("Day-end time"), gettext_noop("day-end time")),
}
DESCRIPTION_CHANGES = {  # (rewritten, first) -> words
    (True, True): gettext_noop("Description rewritten"),
    (True, False): gettext_noop("description rewritten"),
    (False, True): gettext_noop("Description removed"),
    (False, False): gettext_noop("description removed"),
}
COOLDOWN_CHANGES = {
    True: gettext_noop("Battle cooldown %(before)s → %(after)s minutes"),
    False: gettext_noop("battle cooldown %(before)s → %(after)s minutes"),
}


def _setting_change(field: str, before: Any, after: Any, zones: tuple[str, str], first: bool) -> Line:
    """One change in the settings' line; ``first`` starts the line (with a capital)."""
    if field == "description":
        return Line(DESCRIPTION_CHANGES[bool(after), first])
    if field == "battle_cooldown_minutes":
        return Line(COOLDOWN_CHANGES[first], before=before, after=after)
    return Line(
        gettext_noop("%(setting)s: %(before)s → %(after)s"),
        setting=Line(SETTING_NAMES.get(field, SETTING_NAMES["day_end_time"])[0 if first else 1]),
        before=_setting_words(field, before, zones[0]),
        after=_setting_words(field, after, zones[1]),
    )


def _clean_setting(field: str, value: Any) -> Any:
    """The service's copy of each setting's bounds (the form has the same): a sentence when refused."""
    if field == "name":
        value = (value or "").strip() if isinstance(value, str) else value
        if not isinstance(value, str) or not value:
            raise SettingsRefused(_("A campaign needs a name."))
        if len(value) > MAX_NAME:
            raise SettingsRefused(_("A campaign's name has at most %(max)s characters.") % {"max": MAX_NAME})
    elif field == "description":
        value = (value or "").strip() if isinstance(value, str) or value is None else value
        if not isinstance(value, str) or len(value) > MAX_DESCRIPTION:
            raise SettingsRefused(
                _("A description has at most %(max)s characters.")
                % {"max": number_format(MAX_DESCRIPTION, force_grouping=True)}
            )
    elif field == "desertion":
        if value not in Campaign.Desertion.values:
            choices = ", ".join(choice.replace("_", " ") for choice in Campaign.Desertion.values)
            raise SettingsRefused(_("The desertion policy is one of: %(choices)s.") % {"choices": choices})
    elif field == "allow_credit":
        if not isinstance(value, bool):
            raise SettingsRefused(_("Allow credit is yes or no."))
    elif field == "time_zone":
        named = time_zone_named(value)
        if named is None:
            raise SettingsRefused(
                _("The time zone is an IANA name this site knows, such as Europe/Berlin, America/New_York or UTC.")
            )
        value = named
    elif field == "language":
        value = value or ""
        if value and value not in languages.offered_codes():
            raise SettingsRefused(_("Muster does not speak that language yet: choose one of the list."))
    elif field == "day_end_time":
        if value is not None and not isinstance(value, dt.time):
            raise SettingsRefused(_("The day-end time is a time of day (e.g. 18:00), or empty for none."))
        if value is not None:
            value = value.replace(second=0, microsecond=0, tzinfo=None)
    elif field == "battle_cooldown_minutes":
        try:
            require_between(_("The battle cooldown"), value, 0, MAX_COOLDOWN_MINUTES)
        except OutOfBounds as error:
            raise SettingsRefused(_("%(refusal)s Minutes; 0 means no cooldown.") % {"refusal": error}) from None
    return value


@applied_once("campaign_settings")
def campaign_settings_update(*, campaign: Campaign, gm, **fields: Any) -> Activity | None:
    """Change a campaign's settings; returns the activity line, or None when nothing changed.

    Only the fields given are considered (``SETTINGS``); only those that differ are saved, and
    one ``Activity`` line says in words what changed, with the values before and after.
    """
    unknown = sorted(set(fields) - set(SETTINGS))
    if unknown:
        raise SettingsRefused(_("There is no campaign setting called %(names)s.") % {"names": ", ".join(unknown)})
    cleaned = {field: _clean_setting(field, value) for field, value in fields.items()}
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if not Membership.objects.filter(campaign=locked, user_id=gm.pk, role=Membership.Role.GM).exists():
            raise PermissionDenied(_("Only the GM can change the campaign's settings."))
        changed = [field for field in SETTINGS if field in cleaned and getattr(locked, field) != cleaned[field]]
        if not changed:
            return None
        before = {field: getattr(locked, field) for field in changed}
        zones = (locked.time_zone, cleaned.get("time_zone", locked.time_zone))
        for field in changed:
            setattr(locked, field, cleaned[field])
        locked.save(update_fields=changed)
        summary = in_parts(
            _setting_change(field, before[field], cleaned[field], zones, first=index == 0)
            for index, field in enumerate(changed)
        )
        activity = activity_record(
            campaign=locked,
            actor=gm,
            kind=Activity.Kind.SETTINGS,
            summary=summary,
            target=locked,
            details={
                "before": {field: _setting_json(before[field]) for field in changed},
                "after": {field: _setting_json(cleaned[field]) for field in changed},
            },
        )
    for field in changed:
        setattr(campaign, field, cleaned[field])
    return activity


# --- starting a campaign ----------------------------------------------------------------------------

MAX_SLUG = Campaign._meta.get_field("slug").max_length
SLUG_ATTEMPTS = 5  # a slug taken between our look and our insert (two starts at once): take the next free one
DEFAULTS = {
    "language": "",  # each browser's own
    "desertion": Campaign._meta.get_field("desertion").default,
    "allow_credit": Campaign._meta.get_field("allow_credit").default,
    "day_end_time": None,
    "battle_cooldown_minutes": Campaign._meta.get_field("battle_cooldown_minutes").default,
}


def _slug_base(text: str) -> str:
    """An ASCII slug for ``text`` with room for a "-NNN" suffix; "campaign" when nothing is left of it."""
    return slugify(text)[: MAX_SLUG - 8].strip("-_") or "campaign"


def _free_slug(base: str) -> str:
    """``base``, or ``base-2``, ``base-3``… : the first one no campaign has. One query."""
    numbered = rf"^{re.escape(base)}-[0-9]+$"
    taken = set(Campaign.objects.filter(Q(slug=base) | Q(slug__regex=numbered)).values_list("slug", flat=True))
    if base not in taken:
        return base
    number = 2
    while f"{base}-{number}" in taken:
        number += 1
    return f"{base}-{number}"


@applied_once("campaign_create")
def campaign_create(
    *,
    creator=None,
    name: str,
    description: str = "",
    time_zone: str | None = None,
    slug: str = "",
    by_operator: bool = False,
    gm=None,
    **settings: Any,
) -> Campaign:
    """Start a campaign: ``creator`` becomes its GM, day 1 opens, and the log says who started it.

    The slug comes from ``slug`` or else the name (ASCII, lower case); when another campaign has it,
    ``-2``, ``-3``… is appended. ``settings`` are the other campaign settings (``SETTINGS``: desertion,
    allow_credit, day_end_time, battle_cooldown_minutes), each checked as the settings page checks it,
    defaulting to the model's defaults; ``time_zone`` defaults to the site's (settings.TIME_ZONE).

    Who may start one is settings.CAMPAIGN_CREATORS (``PermissionDenied`` otherwise), and how many an
    account starts an hour and a day is settings.CAMPAIGNS_PER_HOUR/_PER_DAY (``QuotaExceeded``, staff
    exempt: campaign/quotas.py), unless the site's operator starts it for someone (``by_operator``: the
    demo data and the benchmarks). ``gm=`` is the older spelling those scripts use: a campaign made by
    the operator with that GM.
    """
    if gm is not None:
        creator, by_operator = gm, True
    if creator is None:
        raise TypeError("campaign_create() needs the creator (the new campaign's GM).")
    if not by_operator:
        require_campaign_creator(creator)
        campaign_quota_check(creator)
    unknown = sorted(set(settings) - set(DEFAULTS))
    if unknown:
        raise SettingsRefused(_("There is no campaign setting called %(names)s.") % {"names": ", ".join(unknown)})
    fields = {
        "name": name,
        "description": description,
        "time_zone": default_time_zone() if time_zone is None else time_zone,
        **DEFAULTS,
        **settings,
    }
    cleaned = {field: _clean_setting(field, value) for field, value in fields.items()}
    base = _slug_base(slug or cleaned["name"])
    with transaction.atomic():
        for attempt in range(SLUG_ATTEMPTS):
            try:
                with transaction.atomic():
                    campaign = Campaign.objects.create(slug=_free_slug(base), current_day=1, **cleaned)
                break
            except IntegrityError:
                if attempt == SLUG_ATTEMPTS - 1:
                    raise
        Day.objects.create(campaign=campaign, number=1)
        Membership.objects.create(user=creator, campaign=campaign, role=Membership.Role.GM)
        activity_record(
            campaign=campaign,
            actor=creator,
            kind=Activity.Kind.CAMPAIGN_NEW,
            summary=Line(
                gettext_noop("Started the campaign “%(name)s” (time zone %(zone)s)"),
                name=campaign.name,
                zone=campaign.time_zone,
            ),
            target=campaign,
            details={
                "slug": campaign.slug,
                **{field: _setting_json(value) for field, value in cleaned.items() if field != "description"},
            },
            day=1,
        )
    return campaign

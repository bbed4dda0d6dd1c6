"""The GM activity log: record what was done (inside the change's own transaction), and read it back.

Every service that a GM (or the schedule) uses to change a campaign calls ``activity_record``
in the same transaction as the change, so the log holds a line for every change that
committed and for nothing that rolled back. Entries are append-only (``models.Activity``).
"""

from __future__ import annotations

from django.db.models import Model, QuerySet
from django.urls import NoReverseMatch, reverse

from .models import Activity, Campaign

Kind = Activity.Kind


def actor_label(user) -> str:
    """How the log names who acted: their full name or username; 'schedule' for the clock."""
    if user is None:
        return "schedule"
    return (user.get_full_name() or user.get_username())[:150]


def one_full_stop(summary: str) -> str:
    """``summary`` ending once (issue 35). A summary is built as f"...{text}." where ``text`` may end a
    sentence itself (a name "Lord Marr Jr.", a reason "Quest done!"): the added stop goes, an ellipsis
    stays an ellipsis, and a summary that ends once is left as it is."""
    body = summary.rstrip(".")
    dots = len(summary) - len(body)
    if dots == 1 and body.endswith(("!", "?")):
        return body
    if dots == 2:
        return body + "."
    if dots > 3:
        return body + "..."
    return summary


def activity_record(
    *,
    campaign: Campaign | int,
    actor,
    kind: str,
    summary: str,
    target: Model | None = None,
    target_type: str = "",
    target_id: int | None = None,
    details: dict | None = None,
    day: int | None = None,
    actor_name: str = "",
) -> Activity:
    """Append one line to ``campaign``'s activity log. Call it inside the change's transaction.

    ``actor`` is the user who acted (None: the schedule). The summary ends with one full stop at most
    (``one_full_stop``). ``target`` (or ``target_type`` and ``target_id``) says what it was about, so the
    log can link to it. ``day`` defaults to the campaign's current day. ``actor_name`` names who acted
    when no user did but it was not the schedule either (a guest's seat, the computer at a table).
    """
    campaign_id = getattr(campaign, "pk", campaign)
    if day is None:
        day = (
            campaign.current_day
            if isinstance(campaign, Campaign)
            else Campaign.objects.values_list("current_day", flat=True).get(pk=campaign_id)
        )
    if target is not None:
        target_type, target_id = target._meta.model_name, target.pk
    return Activity.objects.create(
        campaign_id=campaign_id,
        actor=actor,
        actor_name=(actor_name or actor_label(actor))[:150],
        day=day,
        kind=kind,
        summary=one_full_stop(summary)[:300],
        target_type=target_type,
        target_id=target_id,
        details=details or {},
    )


def activity_for(
    campaign: Campaign,
    *,
    kind: str = "",
    actor_id: int | None = None,
    day: int | None = None,
    by_schedule: bool = False,
) -> QuerySet[Activity]:
    """The campaign's log, newest first, filtered by kind, actor (or the schedule) and day when given."""
    entries = Activity.objects.filter(campaign=campaign)
    if kind:
        entries = entries.filter(kind=kind)
    if by_schedule:
        entries = entries.filter(actor__isnull=True, actor_name=actor_label(None))
    elif actor_id is not None:
        entries = entries.filter(actor_id=actor_id)
    if day is not None:
        entries = entries.filter(day=day)
    return entries.order_by("-created_at", "-id")


# What a line is about -> the page that shows it. ``campaign`` imports neither ``armies`` nor
# ``tabletop``: their pages are named here as URL names (strings) and resolved at render time.
# A GM adjustment is about a treasury ("account"): the armies overview lists every commander's coins.
TARGET_PAGES: dict[str, tuple[str, bool]] = {  # target_type -> (URL name, whether it takes the id)
    "commander": ("armies:commander", True),
    "table": ("tabletop:gm_table", True),
    "battle": ("armies:battle_result", True),
    "recruitoffer": ("armies:list", False),
    "dayend": ("armies:list", False),
    "account": ("armies:list", False),
    "campaign": ("campaign:settings", False),
    "membership": ("people:members", False),
}


def target_url(activity: Activity, slug: str) -> str:
    """The GM page about what ``activity`` was about, in the campaign ``slug``; "" when unknown."""
    page = TARGET_PAGES.get(activity.target_type)
    if page is None:
        return ""
    name, takes_id = page
    if takes_id and activity.target_id is None:
        return ""
    try:
        return reverse(name, args=[slug, activity.target_id] if takes_id else [slug])
    except NoReverseMatch:  # the app that shows it is not installed
        return ""

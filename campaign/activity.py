"""The GM activity log: record what was done (inside the change's own transaction), and read it back.

Every service that a GM (or the schedule) uses to change a campaign calls ``activity_record``
in the same transaction as the change, so the log holds a line for every change that
committed and for nothing that rolled back. Entries are append-only (``models.Activity``).
"""

from __future__ import annotations

from django.db.models import Model, QuerySet
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext, gettext_noop

from .models import Activity, Campaign

Kind = Activity.Kind


SCHEDULE = "schedule"  # who acted when the clock did (kept in English, said in the reader's: ``actor_said``)


def actor_label(user) -> str:
    """How the log names who acted: their full name or username; 'schedule' for the clock."""
    if user is None:
        return SCHEDULE
    return (user.get_full_name() or user.get_username())[:150]


def actor_said(activity: Activity) -> str:
    """Who acted, as the page names them: the clock in the reader's language, anyone else by their name."""
    if activity.actor_id is None and activity.actor_name == SCHEDULE:
        # Translators: who did it in the activity log when the campaign's clock ended the day.
        return gettext("schedule")
    return activity.actor_name


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


class Line:
    """An activity line as words (issue 41): its English template, marked with ``gettext_noop``, and its named
    values (a value may be a ``Line`` too, said in the same language). The log keeps the English as its
    ``summary`` and the words beside it (``details["said"]``); its page says the words in the reader's
    language (``line_said``). A line kept before issue 41 has its English alone, shown as it is."""

    __slots__ = ("text", "values")

    def __init__(self, text: str, /, **values) -> None:
        self.text, self.values = text, values

    def english(self) -> str:
        return self.text % {
            key: value.english() if isinstance(value, Line) else value for key, value in self.values.items()
        }

    def said(self, translate=None) -> str:
        """The line in ``translate``'s language (default: the active one, Django's ``gettext``)."""
        return _said(self.data(), translate or gettext)

    def data(self) -> dict:
        """Plain data for the log's JSON (and the archive): text and values, lines within as the same."""
        return {
            "text": self.text,
            "values": {key: value.data() if isinstance(value, Line) else value for key, value in self.values.items()},
        }


# Lists in a line's words: "A, B and C" (each language says its own "and"), and "A; B; C" (a line's parts).
LIST_MORE = gettext_noop("%(first)s, %(rest)s")
LIST_LAST = gettext_noop("%(first)s and %(last)s")
PARTS = gettext_noop("%(first)s; %(rest)s")
CHANGE = gettext_noop("%(field)s %(before)s → %(after)s")
QUOTED = gettext_noop("“%(name)s”")  # a name or a text as typed, in the language's quotation marks


def listed(items) -> str | Line:
    """``items`` (names or lines) as one value: "A", "A and B", "A, B and C"; its English as it reads."""
    items = list(items)
    if len(items) == 1:
        return items[0]
    line = Line(LIST_LAST, first=items[-2], last=items[-1])
    for item in reversed(items[:-2]):
        line = Line(LIST_MORE, first=item, rest=line)
    return line


def in_parts(items) -> str | Line:
    """``items`` (lines) as one value, "A; B; C": the parts of a change said one after the other."""
    items = list(items)
    line = items[-1]
    for item in reversed(items[:-1]):
        line = Line(PARTS, first=item, rest=line)
    return line


def change(field: str, before, after) -> Line:
    """ "price 10 → 12": ``field`` (its English name, marked with gettext_noop) from one value to another."""
    return Line(CHANGE, field=Line(field), before=before, after=after)


COINS = (gettext_noop("1 coin"), gettext_noop("%(count)s coins"))  # counted(n, *COINS)
UNITS = (gettext_noop("1 unit"), gettext_noop("%(count)s units"))


def counted(count: int, one: str, many: str) -> Line:
    """``count`` with its noun: ``one`` (gettext_noop("%(count)s coin")) for 1, else ``many``."""
    return Line(one if count == 1 else many, count=count)


def _said(data, translate) -> str:
    if not (isinstance(data, dict) and isinstance(data.get("text"), str) and isinstance(data.get("values"), dict)):
        raise ValueError("not a line")
    values = {
        key: _said(value, translate) if isinstance(value, dict) else value for key, value in data["values"].items()
    }
    return translate(data["text"]) % values if values else translate(data["text"])


def line_said(activity: Activity, translate=gettext) -> str:
    """The line in ``translate``'s language (the request's): its words, or its English when it has none or its
    words cannot be said (an imported archive's, a catalog's translation that lost a value)."""
    data = (activity.details or {}).get("said") if isinstance(activity.details, dict) else None
    if data is None:
        return activity.summary
    try:
        return one_full_stop(_said(data, translate))[:300]
    except (KeyError, TypeError, ValueError):
        return activity.summary


def activity_record(
    *,
    campaign: Campaign | int,
    actor,
    kind: str,
    summary: str | Line,
    target: Model | None = None,
    target_type: str = "",
    target_id: int | None = None,
    details: dict | None = None,
    day: int | None = None,
    actor_name: str = "",
) -> Activity:
    """Append one line to ``campaign``'s activity log. Call it inside the change's transaction.

    ``actor`` is the user who acted (None: the schedule). ``summary`` is a ``Line`` (its words kept too, said in
    each reader's language) or English text (said as it is). The summary ends with one full stop at most
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
    if isinstance(summary, Line):
        details, summary = {**(details or {}), "said": summary.data()}, summary.english()
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

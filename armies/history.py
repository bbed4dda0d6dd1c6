"""A commander's roster history: every change to its units as a sentence, with a link to its cause.

Built from the ``UnitEvent`` rows (each carries ``cause``, ``cause_type``, ``cause_id``) plus
what the causes point at, read in bulk: the offers a unit came from, the settlements it
deserted at (what was owed, what the treasury held), the battles it died in and the ledger
entries that paid for it. A fixed number of queries whatever the roster size (at most seven).

Links go where the cause can be seen by the reader: the ledger entry on the commander page
(``#entry-<id>``), the battle's result, and for the GM only the GM treasury's settlement
line and the activity log. A cause type this module does not know falls back to the stored
``cause`` text, so a new kind of change is explained from the day it is written.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Q, Sum
from django.urls import NoReverseMatch, reverse
from django.utils.http import urlencode
from django.utils.translation import gettext, gettext_noop, ngettext

from campaign.models import Activity, LedgerEntry

from .models import Battle, Commander, RecruitOffer, Settlement, UnitEvent

Kind = UnitEvent.Kind

# How a sentence names each kind of change ("Pikemen deserted ..."): English, as the stored causes are (they
# are matched against them); translated where the sentence is made.
VERBS = {
    Kind.JOINED: gettext_noop("joined"),
    Kind.TRAINED: gettext_noop("trained"),
    Kind.KILLED: gettext_noop("killed"),
    Kind.DESERTED: gettext_noop("deserted"),
    Kind.DISMISSED: gettext_noop("dismissed"),
    Kind.RELEASED: gettext_noop("released"),
    Kind.RETURNED: gettext_noop("returned"),
    Kind.CORRECTED: gettext_noop("training corrected"),
}
# Stored causes that open with their own label: the label is dropped, the rest kept.
LABELS = {Kind.RETURNED: "back in the army:", Kind.CORRECTED: "training corrected"}
PRICE = re.compile(r"for (\d+) coins")


@dataclass(frozen=True)
class HistoryLine:
    """One change: ``when`` ("Day 3", "End of day 4"), ``text`` (what and why), a link to its cause."""

    event_id: int
    day: int
    kind: str
    unit_name: str
    when: str
    text: str
    url: str | None = None
    link_text: str = ""
    taken_back: bool = False  # a desertion whose day end was taken back later

    @property
    def sentence(self) -> str:
        return f"{self.when}: {self.text}"


def activity_url(slug: str, activity_id: int | None, *, kind: str = "", day: int | None = None) -> str | None:
    """The GM activity log filtered to the line's kind and day; None while the log page does not exist."""
    try:
        url = reverse("campaign:activity", args=[slug])
    except NoReverseMatch:
        return None
    query = urlencode({key: value for key, value in (("kind", kind), ("day", day)) if value})
    return f"{url}{'?' + query if query else ''}{f'#activity-{activity_id}' if activity_id else ''}"


def activity_urls(slug: str, ids) -> dict[int, str | None]:
    """Activity id -> its link in the GM activity log (filtered by its kind and day). One query."""
    ids = {pk for pk in ids if pk is not None}
    if not ids:
        return {}
    rows = Activity.objects.filter(pk__in=ids).values_list("pk", "kind", "day")
    return {pk: activity_url(slug, pk, kind=kind, day=day) for pk, kind, day in rows}


def treasury_settlement_url(slug: str, settlement: Settlement) -> str:
    """The settlement's line on the GM treasury page (its day's settlements are listed there)."""
    return f"{reverse('armies:treasury', args=[slug])}?settled={settlement.day}#settlement-{settlement.pk}"


def _generic(name: str, event: UnitEvent) -> str:
    """'<unit> <verb> <the rest of the stored cause>', or '<unit> <verb>: <cause>' when it does not fit."""
    english = VERBS.get(event.kind)
    verb = gettext(english) if english else event.get_kind_display().lower()
    cause = event.cause.strip()
    label = LABELS.get(event.kind, english or verb)
    if cause.lower().startswith(label):
        rest = cause[len(label) :].strip()
        if event.kind == Kind.CORRECTED:
            return (gettext("%(name)s: training corrected %(rest)s") % {"name": name, "rest": rest}).rstrip()
        if rest and not label.endswith(":"):
            return gettext("%(name)s %(verb)s %(rest)s") % {"name": name, "verb": verb, "rest": rest}
        if rest:
            return gettext("%(name)s %(verb)s: %(rest)s") % {"name": name, "verb": verb, "rest": rest}
        return gettext("%(name)s %(verb)s") % {"name": name, "verb": verb}
    if event.kind == Kind.CORRECTED:
        return gettext("%(name)s: training corrected: %(cause)s") % {"name": name, "cause": cause}
    if cause:
        return gettext("%(name)s %(verb)s: %(cause)s") % {"name": name, "verb": verb, "cause": cause}
    return gettext("%(name)s %(verb)s") % {"name": name, "verb": verb}


def commander_history(commander: Commander, *, slug: str, viewer_is_gm: bool = False) -> list[HistoryLine]:
    """Every change to the commander's units, newest first; at most seven queries.

    ``viewer_is_gm`` adds the links only the GM may follow (the GM treasury, the activity log).
    The caller has already checked that the viewer may see this commander.
    """
    events = list(
        UnitEvent.objects.filter(unit__commander_id=commander.pk).select_related("unit__card").order_by("-day", "-id")
    )
    ids: dict[str, set[int]] = defaultdict(set)
    for event in events:
        if event.cause_id is not None:
            ids[event.cause_type].add(event.cause_id)

    offers = (
        {offer.pk: offer for offer in RecruitOffer.objects.filter(pk__in=ids["offer"]).only("id", "quest")}
        if ids["offer"]
        else {}
    )
    settlements = (
        {s.pk: s for s in Settlement.objects.filter(pk__in=ids["settlement"], commander_id=commander.pk)}
        if ids["settlement"]
        else {}
    )
    battles = (
        set(Battle.objects.filter(pk__in=ids["battle"], campaign_id=commander.campaign_id).values_list("pk", flat=True))
        if ids["battle"]
        else set()
    )
    # The ledger entries that paid for a recruit or a settlement: one query.
    paid_by: dict[tuple[str, int, int], list[LedgerEntry]] = defaultdict(list)
    if offers or settlements:
        entries = (
            LedgerEntry.objects.filter(account_id=commander.account_id)
            .filter(
                Q(cause_type="offer", cause_id__in=list(offers))
                | Q(cause_type="settlement", cause_id__in=list(settlements))
            )
            .only("id", "day", "amount", "cause_type", "cause_id")
            .order_by("id")
        )
        for entry in entries:
            paid_by[(entry.cause_type, entry.cause_id, entry.day)].append(entry)
    # What the treasury held when each settlement was made: one aggregate query.
    activities = activity_urls(slug, ids["gm"] | ids["day_end_revert"]) if viewer_is_gm else {}
    held: dict[int, int] = {}
    if settlements:
        sums = LedgerEntry.objects.filter(account_id=commander.account_id).aggregate(
            **{f"s{pk}": Sum("amount", filter=Q(created_at__lt=s.created_at)) for pk, s in settlements.items()}
        )
        held = {pk: sums[f"s{pk}"] or 0 for pk in settlements}

    page = reverse("armies:commander", args=[slug, commander.pk])

    def entry_url(entry: LedgerEntry | None) -> str | None:
        return f"{page}#entry-{entry.pk}" if entry else None

    # Recruits of the same offer on the same day are matched to their payments oldest first.
    recruit_entries = {key: list(found) for key, found in paid_by.items() if key[0] == "offer"}
    joined_oldest_first = [e for e in reversed(events) if e.kind == Kind.JOINED and e.cause_type == "offer"]
    payment_of: dict[int, LedgerEntry] = {}
    for event in joined_oldest_first:
        queue = recruit_entries.get(("offer", event.cause_id, event.day))
        if queue:
            payment_of[event.pk] = queue.pop(0)

    lines = []
    for event in events:
        name = event.unit.card.name
        when, url, link_text, taken_back = gettext("Day %(day)s") % {"day": event.day}, None, "", False
        text = _generic(name, event)
        offer = offers.get(event.cause_id) if event.cause_type == "offer" else None
        settlement = settlements.get(event.cause_id) if event.cause_type == "settlement" else None

        if event.kind == Kind.JOINED and offer is not None:
            payment = payment_of.get(event.pk)
            if offer.quest:
                text = gettext("%(name)s joined: granted for the quest “%(quest)s”") % {
                    "name": name,
                    "quest": offer.quest,
                }
            else:
                found = PRICE.search(event.cause)
                price = -payment.amount if payment else (int(found.group(1)) if found else None)
                names = {"name": name, "offer": offer.pk, "price": price}
                if price is None:
                    text = gettext("%(name)s joined: recruited from offer #%(offer)s") % names
                elif price == 0:
                    text = gettext("%(name)s joined: recruited from offer #%(offer)s for free") % names
                else:
                    text = (
                        ngettext(
                            "%(name)s joined: recruited from offer #%(offer)s (%(price)s coin)",
                            "%(name)s joined: recruited from offer #%(offer)s (%(price)s coins)",
                            price,
                        )
                        % names
                    )
            url, link_text = entry_url(payment), gettext("payment") if payment else ""
        elif event.cause_type == "battle" and event.cause_id in battles:
            url = reverse("armies:battle_result", args=[slug, event.cause_id])
            link_text = gettext("battle #%(battle_id)s") % {"battle_id": event.cause_id}
        elif event.kind == Kind.DESERTED and settlement is not None:
            when = gettext("End of day %(day)s") % {"day": event.day}
            names = {"name": name, "owed": settlement.owed, "held": held[settlement.pk], "paid": settlement.paid}
            if settlement.paid == 0:
                text = (
                    ngettext(
                        "%(name)s deserted: upkeep %(owed)s could not be paid (%(held)s coin in the treasury, nothing "
                        "paid)",
                        "%(name)s deserted: upkeep %(owed)s could not be paid (%(held)s coins in the treasury, "
                        "nothing paid)",
                        held[settlement.pk],
                    )
                    % names
                )
            else:
                text = (
                    ngettext(
                        "%(name)s deserted: upkeep %(owed)s could not be paid (%(held)s coin in the treasury, "
                        "%(paid)s paid)",
                        "%(name)s deserted: upkeep %(owed)s could not be paid (%(held)s coins in the treasury, "
                        "%(paid)s paid)",
                        held[settlement.pk],
                    )
                    % names
                )
            taken_back = settlement.reverted_at is not None
            entries = paid_by.get(("settlement", settlement.pk, settlement.day))
            if entries:
                url, link_text = entry_url(entries[0]), gettext("ledger entry")
            elif viewer_is_gm:
                url, link_text = treasury_settlement_url(slug, settlement), gettext("settlement")
        elif event.cause_type in ("gm", "day_end_revert") and activities.get(event.cause_id):
            url, link_text = activities[event.cause_id], gettext("activity log")

        lines.append(
            HistoryLine(
                event_id=event.pk,
                day=event.day,
                kind=event.kind,
                unit_name=name,
                when=when,
                text=text,
                url=url,
                link_text=link_text,
                taken_back=taken_back,
            )
        )
    return lines

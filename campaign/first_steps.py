"""The "First steps" list on a new campaign's GM home, which other apps fill in.

``campaign`` imports neither ``tabletop``, ``armies`` nor ``people`` (docs/architecture.md): like
``panels.py``, each app registers its steps from its AppConfig.ready, and the GM home shows them, in
order, each a link and each ticked once done, until every one is done.

A step is ``(order, label, url_for(campaign) -> str, done(campaign) -> bool)``; the label is English, marked
with ``gettext_noop``, and said in the request's language when the page is drawn. ``done`` is one query
at most, so the GM home does a fixed number of queries whatever the campaign's size. Registering a
label again replaces that step (an app's ready may run twice in tests).

"Invite players" is campaign's own: done once the campaign has a member who is not a GM. Its link
is the invites page (``people:invites``), resolved when the page is drawn; until that page exists,
the members page (``people:members``), else the members list on the GM home.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext, gettext_noop

from .models import Campaign, Membership


@dataclass(frozen=True)
class Step:
    order: int
    label: str
    url_for: Callable[[Campaign], str]
    done: Callable[[Campaign], bool]


@dataclass(frozen=True)
class StepShown:
    label: str
    url: str
    done: bool


_STEPS: dict[str, Step] = {}


def register(*, order: int, label: str, url_for: Callable[[Campaign], str], done: Callable[[Campaign], bool]) -> Step:
    step = Step(order=order, label=label, url_for=url_for, done=done)
    _STEPS[label] = step
    return step


def steps_for(campaign: Campaign) -> list[StepShown]:
    """Every registered step for ``campaign``, in order, with its link and whether it is done."""
    ordered = sorted(_STEPS.values(), key=lambda step: (step.order, step.label))
    return [
        StepShown(label=gettext(step.label), url=step.url_for(campaign), done=bool(step.done(campaign)))
        for step in ordered
    ]


def still_to_do(campaign: Campaign) -> list[StepShown]:
    """The steps to show on the GM home: all of them while one is not done, none once all are."""
    steps = steps_for(campaign)
    return [] if all(step.done for step in steps) else steps


INVITE_PAGES = ("people:invites", "people:members")  # the first that exists; else the GM home's members list


def invites_url(campaign: Campaign) -> str:
    for name in INVITE_PAGES:
        try:
            return reverse(name, args=[campaign.slug])
        except NoReverseMatch:  # that page is not there (yet)
            continue
    return reverse("campaign:detail", args=[campaign.slug]) + "#members"


def has_players(campaign: Campaign) -> bool:
    return Membership.objects.filter(campaign=campaign).exclude(role=Membership.Role.GM).exists()


register(order=10, label=gettext_noop("Invite players"), url_for=invites_url, done=has_players)

"""A day end's push (muster/live.py): the GM's progress bar is told when the settlement
moved on (a chunk settled, the status changed), by the web process or the Celery worker
that did it, and fetches the bar."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaign.permissions import is_gm, membership_for
from muster.live import LiveConsumer, announce_on_commit

from .models import DayEnd


def day_end_group(day_end_id: int) -> str:
    return f"dayend.{day_end_id}"


def day_end_key(day_end: DayEnd) -> str:
    return f"{day_end.status}-{day_end.done}"


def day_end_moved(day_end_id: int) -> None:
    """The GM's progress bar learns the day end's new key once the current transaction commits."""

    def key() -> str:
        return day_end_key(DayEnd.objects.only("status", "done").get(pk=day_end_id))

    announce_on_commit(day_end_group(day_end_id), key)


class DayEndConsumer(LiveConsumer):
    def watch(self, user, *, slug: str, pk: int) -> tuple[str, str]:
        membership = membership_for(user, slug)
        if not is_gm(user, membership.campaign):
            raise PermissionDenied("Only the GM follows a day end.")
        day_end = DayEnd.objects.filter(campaign=membership.campaign, pk=int(pk)).first()
        if day_end is None:
            raise Http404("No such day end.")
        return day_end_group(day_end.pk), day_end_key(day_end)

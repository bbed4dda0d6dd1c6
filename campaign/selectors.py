from __future__ import annotations

from django.db.models import QuerySet

from .models import Campaign, Day, Membership


def memberships_of(user) -> QuerySet[Membership]:
    # a campaign still being imported (archive/importer.py) is nobody's yet
    return (Membership.objects.filter(user=user, campaign__importing_at__isnull=True).select_related("campaign")
            .order_by("campaign__name"))


def campaign_members(campaign: Campaign) -> QuerySet[Membership]:
    return Membership.objects.filter(campaign=campaign).select_related("user").order_by("role", "user__username")


def campaign_days(campaign: Campaign) -> QuerySet[Day]:
    return Day.objects.filter(campaign=campaign).order_by("-number")


def campaign_gms(campaign: Campaign) -> list[Membership]:
    """The campaign's GMs (user joined), by name: who the activity log can be filtered by."""
    return list(
        Membership.objects.filter(campaign=campaign, role=Membership.Role.GM)
        .select_related("user")
        .order_by("user__username")
    )

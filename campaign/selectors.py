from __future__ import annotations

from django.db.models import QuerySet

from .models import Campaign, Day, Membership


def memberships_of(user) -> QuerySet[Membership]:
    return Membership.objects.filter(user=user).select_related("campaign").order_by("campaign__name")


def campaign_members(campaign: Campaign) -> QuerySet[Membership]:
    return Membership.objects.filter(campaign=campaign).select_related("user").order_by("role", "user__username")


def campaign_days(campaign: Campaign) -> QuerySet[Day]:
    return Day.objects.filter(campaign=campaign).order_by("-number")

from __future__ import annotations

from django.db import transaction

from .models import Campaign, Day, Membership


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

"""The invite pages for the GM of another campaign: every one is 404, as for any stranger (the matrix
of the other roles is in tests/test_authorization.py); their own invites stay theirs."""

import pytest
from django.urls import reverse

from campaign.models import Membership
from people.models import Invite
from people.services.invites import invite_create

from tests.factories import CampaignFactory, MembershipFactory
from tests.forms import once

pytestmark = pytest.mark.django_db


def test_the_gm_of_another_campaign_gets_404_everywhere(client, world):
    invite = invite_create(campaign=world.campaign, created_by=world.gm.user)
    other = MembershipFactory(campaign=CampaignFactory(slug="elsewhere"), role=Membership.Role.GM)
    own = invite_create(campaign=other.campaign, created_by=other.user)
    client.force_login(other.user)
    slug = world.campaign.slug
    for method, url in [
        ("get", reverse("people:invites", args=[slug])),
        ("post", reverse("people:invites", args=[slug])),
        ("get", reverse("people:invite_sheet", args=[slug])),
        ("post", reverse("people:invite_sheet", args=[slug])),
        ("post", reverse("people:invite_revoke", args=[slug, invite.pk])),
        ("post", reverse("people:invite_reissue", args=[slug, invite.pk])),
        # their own campaign's address with this campaign's invite: not found either
        ("post", reverse("people:invite_revoke", args=["elsewhere", invite.pk])),
        ("post", reverse("people:invite_reissue", args=["elsewhere", invite.pk])),
    ]:
        response = getattr(client, method)(url, once() if method == "post" else None)
        assert response.status_code == 404, (method, url)
    assert Invite.objects.filter(revoked_at__isnull=False).count() == 0 and Invite.objects.count() == 2
    assert client.get(reverse("people:invites", args=["elsewhere"])).status_code == 200
    assert own.token in client.get(reverse("people:invites", args=["elsewhere"])).content.decode()

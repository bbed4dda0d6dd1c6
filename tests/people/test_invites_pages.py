"""The invite pages: the GM's list (a fixed number of queries), revoke and re-issue buttons, the sheet,
and an invite link opened on a phone (sign up and land on one's commander; spent links refused)."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from armies.models import Commander
from campaign.models import Membership
from campaign.services import account_create
from people.models import Invite, InviteUse
from people.services.claims import ClaimSpec, claims_make
from people.services.invites import invite_accept, invite_create, invite_revoke, invites_for_sheet

from tests.armies.factories import CommanderFactory
from tests.factories import PASSWORD, CampaignFactory, UserFactory, gridaris_table
from tests.forms import once

pytestmark = pytest.mark.django_db


@pytest.fixture
def slot(world):
    return CommanderFactory(membership=world.gm, name="Lady Vey", kind=Commander.Kind.PC)


def invites_url(world, name="people:invites", *extra):
    return reverse(name, args=[world.campaign.slug, *extra])


def sign_up(name="cora"):
    return once(username=name, display_name="Cora the Brave", password1=PASSWORD + "!x", password2=PASSWORD + "!x")


def test_the_gm_makes_an_invite_and_sees_its_link_and_qr_code(client, world, settings, slot):
    settings.PUBLIC_BASE_URL = "http://127.0.0.2:8000"
    client.force_login(world.gm.user)
    response = client.post(invites_url(world), once(role="player", commander=slot.pk, max_uses=1, days=7))
    invite = Invite.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"#invite-{invite.pk}")
    page = client.get(invites_url(world)).content.decode()
    assert f"http://127.0.0.2:8000/join/{invite.token}/" in page and "data:image/svg+xml" in page
    assert "Lady Vey" in page and "open" in page


def test_the_form_refuses_a_gm_invite_for_several_people_and_writes_nothing(client, world):
    client.force_login(world.gm.user)
    response = client.post(invites_url(world), once(role="gm", max_uses=100, days=7))
    assert response.status_code == 400
    assert "A GM invite is for one person" in response.content.decode()
    assert not Invite.objects.exists()


def test_the_invites_page_does_a_fixed_number_of_queries(client, world, django_assert_max_num_queries, slot):
    client.force_login(world.gm.user)

    def queries_with(count):
        for n in range(count):
            invite = invite_create(campaign=world.campaign, created_by=world.gm.user, max_uses=3)
            invite_accept(token=invite.token, user=UserFactory(username=f"p{count}-{n}"))
        with django_assert_max_num_queries(14) as captured:
            response = client.get(invites_url(world))
        assert response.status_code == 200 and "Joined by it" in response.content.decode()
        return len(captured)

    assert queries_with(1) == queries_with(12)


def test_revoke_and_reissue_buttons(client, world):
    invite = invite_create(campaign=world.campaign, created_by=world.gm.user)
    client.force_login(world.gm.user)
    assert client.post(invites_url(world, "people:invite_revoke", invite.pk), once()).status_code == 302
    invite.refresh_from_db()
    assert invite.revoked_at is not None
    response = client.post(invites_url(world, "people:invite_reissue", invite.pk), once(), follow=True)
    assert "same terms" in response.content.decode()
    assert Invite.objects.filter(reissued_from=invite, revoked_at__isnull=True).count() == 1
    twice = client.post(invites_url(world, "people:invite_revoke", invite.pk), once(), follow=True)
    assert "already revoked" in twice.content.decode()


def invite_line(html: str, invite) -> str:
    """The invite's line on the invites page."""
    found = re.search(rf'<div class="invite-line" id="invite-{invite.pk}">.*?<div class="invite-actions">.*?</div>',
                      html, re.DOTALL)
    assert found, f"no line for invite {invite.pk}"
    return found[0]


def test_a_used_up_invite_offers_no_revoke_but_an_open_one_does(client, world):
    spent = invite_create(campaign=world.campaign, created_by=world.gm.user)
    invite_accept(token=spent.token, user=UserFactory(username="cora"))
    fresh = invite_create(campaign=world.campaign, created_by=world.gm.user)
    client.force_login(world.gm.user)

    response = client.get(invites_url(world))

    assert response.status_code == 200
    html = response.content.decode()
    assert "used up" in invite_line(html, spent)
    assert invites_url(world, "people:invite_revoke", spent.pk) not in invite_line(html, spent)
    assert invites_url(world, "people:invite_revoke", fresh.pk) in invite_line(html, fresh)


def test_a_plain_invite_notes_whom_it_is_for(client, world, slot):
    seats = invite_create(campaign=world.campaign, created_by=world.gm.user, max_uses=3)
    co_gm = invite_create(campaign=world.campaign, created_by=world.gm.user, role=Membership.Role.GM)
    vey = invite_create(campaign=world.campaign, created_by=world.gm.user, commander=slot)
    client.force_login(world.gm.user)

    html = client.get(invites_url(world)).content.decode()

    assert "For up to 3 new players, whoever opens the link" in invite_line(html, seats)
    assert "For one new GM, whoever opens the link" in invite_line(html, co_gm)
    assert "For the new player who will run Lady Vey as their PC" in invite_line(html, vey)


def test_a_repeated_button_is_applied_once(client, world):
    invite = invite_create(campaign=world.campaign, created_by=world.gm.user)
    client.force_login(world.gm.user)
    data = once()
    client.post(invites_url(world, "people:invite_reissue", invite.pk), data)
    again = client.post(invites_url(world, "people:invite_reissue", invite.pk), data, follow=True)
    assert "Already done" in again.content.decode()
    assert Invite.objects.count() == 2


def test_an_invite_of_another_campaign_is_404(client, world):
    other_gm = Membership.objects.create(user=UserFactory(username="og"), campaign=world.campaign, role="gm")
    invite = invite_create(campaign=world.campaign, created_by=other_gm.user)
    elsewhere = CampaignFactory(slug="elsewhere")
    Membership.objects.create(user=world.gm.user, campaign=elsewhere, role="gm")
    client.force_login(world.gm.user)
    url = reverse("people:invite_revoke", args=["elsewhere", invite.pk])
    assert client.post(url, once()).status_code == 404


def test_the_sheet_shows_a_card_per_open_invite(client, world, slot):
    client.force_login(world.gm.user)
    form = client.get(invites_url(world)).content.decode()
    [box] = re.findall(rf'<input type="checkbox" name="commanders" value="{slot.pk}"[^>]*>', form)
    assert "checked" in box  # a PC without a player is ticked for the sheet
    response = client.post(invites_url(world, "people:invite_sheet"), once(seats=2, days=7, commanders=[slot.pk]))
    assert response.status_code == 302
    spent = invite_create(campaign=world.campaign, created_by=world.gm.user)
    invite_revoke(invite=spent, gm=world.gm.user)
    page = client.get(invites_url(world, "people:invite_sheet")).content.decode()
    assert page.count('class="invite-card"') == 3 and "Play Lady Vey" in page and spent.token not in page
    assert world.campaign.name in page


def test_the_sheet_sets_its_cards_in_the_seat_sheets_two_column_grid(client, world):
    invites_for_sheet(campaign=world.campaign, gm=world.gm.user, seats=6)
    client.force_login(world.gm.user)

    table = gridaris_table(world.campaign, [world.ann, world.ben])
    sheet = client.get(invites_url(world, "people:invite_sheet"))
    seats = client.get(reverse("tabletop:gm_seat_sheet", args=[world.campaign.slug, table.pk]))

    assert sheet.status_code == seats.status_code == 200
    grid = re.search(r'<div class="([^"]*)">\s*<article class="invite-card"', sheet.content.decode())
    assert grid and "qr-cards" in grid[1].split()  # the class the seat sheet's cards sit in
    assert re.search(r'<div class="[^"]*\bqr-cards\b[^"]*">\s*<section class="seat-card"', seats.content.decode())


# --- the link on a phone -----------------------------------------------------------------------------


def test_sign_up_through_an_invite_lands_on_ones_commander(client, world, slot):
    invite = invite_create(campaign=world.campaign, created_by=world.gm.user, commander=slot)
    page = client.get(reverse("people:join", args=[invite.token]))
    assert page.status_code == 200 and "You will play <strong>Lady Vey</strong>" in page.content.decode()
    response = client.post(reverse("people:join_signup", args=[invite.token]), sign_up())
    assert response.status_code == 302
    assert response["Location"] == reverse("armies:commander", args=[world.campaign.slug, slot.pk])
    cora = Membership.objects.get(user__username="cora")
    assert cora.display_name == "Cora the Brave" and not cora.user.is_staff and not cora.user.is_superuser
    assert client.get(response["Location"]).status_code == 200  # logged in, and it is hers


def test_log_in_then_join_in_one_tap(client, world):
    invite = invite_create(campaign=world.campaign, created_by=world.gm.user)
    dan = UserFactory(username="dan")
    anonymous = client.get(reverse("people:join", args=[invite.token])).content.decode()
    assert f"/accounts/login/?next=%2Fjoin%2F{invite.token}%2F" in anonymous
    client.force_login(dan)
    assert "Join as" in client.get(reverse("people:join", args=[invite.token])).content.decode()
    response = client.post(reverse("people:join", args=[invite.token]))
    assert response["Location"] == reverse("campaign:detail", args=[world.campaign.slug])
    assert Membership.objects.filter(user=dan, campaign=world.campaign, role="player").exists()


def test_an_anonymous_post_to_join_asks_to_log_in(client, world):
    invite = invite_create(campaign=world.campaign, created_by=world.gm.user)
    response = client.post(reverse("people:join", args=[invite.token]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not InviteUse.objects.exists()


def test_a_member_opening_the_link_again_lands_on_the_campaign(client, world):
    invite = invite_create(campaign=world.campaign, created_by=world.gm.user)
    client.force_login(world.ann.user)
    for method in (client.get, client.post):
        response = method(reverse("people:join", args=[invite.token]))
        assert response["Location"] == reverse("campaign:detail", args=[world.campaign.slug])
    assert not InviteUse.objects.exists()


@pytest.mark.parametrize(("spoil", "status", "sentence"), [
    ("revoked", 410, "withdrawn"), ("expired", 410, "expired"), ("used", 410, "used as many"),
    ("forged", 404, "not one of ours"),
])
def test_a_spent_or_forged_link_gets_a_sentence_and_writes_nothing(client, world, spoil, status, sentence):
    invite = invite_create(campaign=world.campaign, created_by=world.gm.user)
    token = invite.token
    if spoil == "revoked":
        invite_revoke(invite=invite, gm=world.gm.user)
    elif spoil == "expired":
        Invite.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    elif spoil == "used":
        invite_accept(token=token, user=UserFactory(username="first"))
    else:
        token = "Z" * 32
    users = Membership.objects.count()
    for response in (
        client.get(reverse("people:join", args=[token])),
        client.post(reverse("people:join_signup", args=[token]), sign_up()),
    ):
        assert response.status_code == status and sentence in response.content.decode()
    client.force_login(UserFactory(username="late"))
    response = client.post(reverse("people:join", args=[token]))
    assert response.status_code == status and sentence in response.content.decode()
    assert Membership.objects.count() == users
    assert not Membership.objects.filter(user__username="cora").exists()


def _claims(world, count: int) -> list[Invite]:
    """``count`` claim invites (as an archive's import makes them), each with two commanders, a purse and
    three seats."""
    specs = []
    for n in range(count):
        commanders = [CommanderFactory(membership=world.gm, name=f"Hero {count}-{n}-{k}") for k in range(2)]
        purse = account_create(campaign=world.campaign, name=f"Purse {count}-{n}")
        seats = [gridaris_table(world.campaign, [world.gm, f"Guest {k}"]).seats.get(index=1) for k in range(3)]
        specs.append(ClaimSpec(username=f"p{count}-{n}", display_name=f"Player {n}", role="player",
                               seats=[(seat.pk, "") for seat in seats],
                               account_ids=[purse.pk, *(c.account_id for c in commanders)],
                               commander_ids=[c.pk for c in commanders]))
    return claims_make(campaign=world.campaign, created_by=world.gm.user, specs=specs)


def test_the_invites_page_says_whom_each_claim_is_for_in_fixed_queries(client, world,
                                                                       django_assert_max_num_queries):
    client.force_login(world.gm.user)

    def queries_with(count):
        _claims(world, count)
        with django_assert_max_num_queries(10) as captured:
            response = client.get(invites_url(world))
        text = response.content.decode()
        assert response.status_code == 200
        assert f"Claim: Player 0 (p{count}-0) — 2 commanders, 1 purse, 3 seats" in text
        return len(captured)

    assert queries_with(1) == queries_with(12)


def test_a_claims_card_names_the_place_and_a_gm_can_revoke_it(client, world):
    invite = _claims(world, 1)[0]
    client.force_login(world.gm.user)
    page = client.get(invites_url(world)).content.decode()
    assert "The place of Player 0 (p1-0)" in page
    invite_revoke(invite=invite, gm=world.gm.user)
    page = client.get(invites_url(world)).content.decode()
    assert "Claim: Player 0 (p1-0) — 2 commanders, 1 purse, 3 seats" in page and "revoked" in page

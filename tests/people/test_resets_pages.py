"""The reset-link pages: the GM's and staff's link with its QR code on the venue address, the link's
own page (once, then a sentence), the shared throttling, and Django's reset by e-mail where mail is set."""

import re
from datetime import datetime, timedelta

import pytest
import segno
from axes.models import AccessAttempt
from django.conf import settings
from django.core import mail
from django.urls import reverse

from campaign.models import Activity, Membership
from people.services.resets import reset_link_tokens

from tests.factories import PASSWORD, CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-new-tabletop-secret"
LOCKED = "Too many failed attempts from this address"
LINK = re.compile(r'value="(http[^"]*/account/reset/[^"]+)"')


def member_reset_url(world, membership):
    return reverse("people:member_reset", args=[world.campaign.slug, membership.pk])


def made_link(client, world, membership) -> str:
    client.force_login(world.gm.user)
    page = client.post(member_reset_url(world, membership))
    assert page.status_code == 200
    client.logout()
    return LINK.search(page.content.decode()).group(1)


def set_password(client, url, password=NEW_PASSWORD, **extra):
    return client.post(url, {"new_password1": password, "new_password2": password}, **extra)


def assert_no_store(response):
    assert {"private", "no-store"} <= {part.strip() for part in response["Cache-Control"].split(",")}


def test_the_gm_sees_a_button_then_the_link_and_its_qr_code_on_the_venue_address(client, world, settings):
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    client.force_login(world.gm.user)
    confirm = client.get(member_reset_url(world, world.ann))
    assert confirm.status_code == 200 and "Make the link" in confirm.content.decode()
    assert_no_store(confirm)
    made = client.post(member_reset_url(world, world.ann))
    html = made.content.decode()
    url = LINK.search(html).group(1)
    assert url.startswith("http://192.168.1.20:8000/account/reset/")
    assert segno.make(url, error="m").svg_data_uri(scale=4) in html
    assert "30 minutes" in html and "Ann the Bold" in html
    assert_no_store(made)
    assert Activity.objects.filter(kind=Activity.Kind.RESET_LINK, actor=world.gm.user).count() == 1


def test_the_link_sets_a_new_password_logs_in_and_then_is_dead(client, world):
    url = made_link(client, world, world.ann)
    form = client.get(url)
    assert form.status_code == 200 and 'name="new_password1"' in form.content.decode()
    assert_no_store(form)
    done = set_password(client, url)
    assert done.status_code == 302 and done["Location"] == reverse("campaign:home")
    assert client.session["_auth_user_id"] == str(world.ann.user.pk)
    again = client.get(url)
    assert again.status_code == 400 and "used already" in again.content.decode()
    world.ann.user.refresh_from_db()
    assert world.ann.user.check_password(NEW_PASSWORD)


def test_a_refused_password_shows_the_form_with_the_sentence_and_keeps_the_link(client, world):
    url = made_link(client, world, world.ann)
    reply = set_password(client, url, password="123")
    assert reply.status_code == 200 and "too short" in reply.content.decode()
    assert set_password(client, url).status_code == 302


def test_an_expired_link_gets_its_sentence_and_counts_as_a_failure(client, world, monkeypatch):
    url = made_link(client, world, world.ann)
    monkeypatch.setattr(reset_link_tokens, "_now", lambda: datetime.now() + timedelta(minutes=31))
    reply = set_password(client, url)
    assert reply.status_code == 400 and "expired (a link works for 30 minutes)" in reply.content.decode()
    assert AccessAttempt.objects.get().failures_since_start == 1
    world.ann.user.refresh_from_db()
    assert world.ann.user.check_password(PASSWORD)


def test_forged_links_count_as_failed_logins_and_lock_the_address_out(client, world):
    good = made_link(client, world, world.ann)
    forged = good.rstrip("/")[:-1] + "x/"
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        reply = client.get(forged, REMOTE_ADDR="10.0.0.7")
        assert reply.status_code == 400 and "not a link Muster made" in reply.content.decode()
    assert client.get(forged, REMOTE_ADDR="10.0.0.7").status_code == 429  # the failure that locks (axes' page)
    locked = set_password(client, good, REMOTE_ADDR="10.0.0.7")
    assert locked.status_code == 429 and LOCKED in locked.content.decode()
    world.ann.user.refresh_from_db()
    assert world.ann.user.check_password(PASSWORD)  # the real link changed nothing while locked out
    login = client.post(reverse("login"), {"username": "ben", "password": PASSWORD}, REMOTE_ADDR="10.0.0.7")
    assert login.status_code == 429  # the same throttling as the login page
    assert set_password(client, good, REMOTE_ADDR="10.0.0.8").status_code == 302  # another address is not


def test_a_gm_gets_404_for_a_member_of_another_campaign_and_a_sentence_for_a_staff_member(client, world):
    stranger = MembershipFactory(campaign=CampaignFactory(), user__username="stranger")
    staff_member = MembershipFactory(campaign=world.campaign, user=world.staff)
    client.force_login(world.gm.user)
    assert client.post(member_reset_url(world, stranger)).status_code == 404
    refused = client.post(member_reset_url(world, staff_member))
    assert refused.status_code == 400 and "only staff can make a reset link" in refused.content.decode()
    assert not LINK.search(refused.content.decode())


def test_a_gm_makes_no_link_for_a_member_who_also_plays_in_another_campaign(client, world):
    """Issue 34: the GM of this campaign invited a player of another; a link would hand the GM that
    player's hand there (and log the player out). The GM is told to ask staff, and nothing changes."""
    elsewhere = MembershipFactory(campaign=CampaignFactory(), user=world.ann.user)
    client.force_login(world.gm.user)
    page = client.get(member_reset_url(world, world.ann))
    html = page.content.decode()
    assert page.status_code == 200 and "ask staff for a reset link" in html and "Make the link" not in html
    refused = client.post(member_reset_url(world, world.ann))
    html = refused.content.decode()
    assert refused.status_code == 400 and "Ann the Bold also plays in a campaign you do not run" in html
    assert not LINK.search(html)
    world.ann.user.refresh_from_db()
    assert world.ann.user.check_password(PASSWORD)
    assert Membership.objects.filter(pk=elsewhere.pk).exists()


def test_the_gm_of_another_campaign_cannot_reach_this_campaigns_reset_pages(client, world):
    other_gm = MembershipFactory(campaign=CampaignFactory(), role=Membership.Role.GM, user__username="rival")
    client.force_login(other_gm.user)
    assert client.get(member_reset_url(world, world.ann)).status_code == 404
    assert client.post(member_reset_url(world, world.ann)).status_code == 404
    own = reverse("people:member_reset", args=[other_gm.campaign.slug, world.ann.pk])
    assert client.post(own).status_code == 404  # Ann is no member of the rival's campaign


def test_staff_make_a_link_by_user_name(client, world):
    client.force_login(world.staff)
    page = client.get(reverse("people:staff_reset"))
    assert page.status_code == 200
    assert_no_store(page)
    made = client.post(reverse("people:staff_reset"), {"username": "gm"})
    assert made.status_code == 200 and LINK.search(made.content.decode())
    unknown = client.post(reverse("people:staff_reset"), {"username": "nobody"})
    assert unknown.status_code == 200 and "No account has that user name" in unknown.content.decode()


def test_the_login_page_offers_the_mailed_reset_only_where_mail_is_set(client, settings):
    settings.EMAIL_CONFIGURED = False
    assert "Forgot your password?" not in client.get(reverse("login")).content.decode()
    form = client.get(reverse("password_reset")).content.decode()
    assert "sends no mail" in form and 'name="email"' not in form
    settings.EMAIL_CONFIGURED = True
    assert "Forgot your password?" in client.get(reverse("login")).content.decode()


def test_the_mailed_reset_works_in_the_house_style(client, world, settings):
    settings.EMAIL_CONFIGURED = True
    world.ann.user.email = "ann@example.org"
    world.ann.user.save()
    form = client.get(reverse("password_reset"))
    assert 'class="card narrow"' in form.content.decode() and 'name="email"' in form.content.decode()
    sent = client.post(reverse("password_reset"), {"email": "ann@example.org"})
    assert sent.status_code == 302
    assert "Check your mail" in client.get(sent["Location"]).content.decode()
    (message,) = mail.outbox
    assert message.subject == "A new password for Muster" and "ann" in message.body
    url = re.search(r"http://\S+", message.body).group(0)
    confirm = client.get(url, follow=True)
    assert 'class="card narrow"' in confirm.content.decode() and 'name="new_password1"' in confirm.content.decode()
    done = set_password(client, confirm.redirect_chain[-1][0], follow=True)
    assert "Your password is set" in done.content.decode()
    world.ann.user.refresh_from_db()
    assert world.ann.user.check_password(NEW_PASSWORD)
    dead = client.get(url).content.decode()
    assert "This link does not work" in dead


def test_forged_mailed_links_count_as_failed_logins_and_lock_the_address_out(client, world, settings):
    settings.EMAIL_CONFIGURED = True
    forged = reverse("password_reset_confirm", args=["MQ", "forged-token"])
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        reply = client.get(forged, REMOTE_ADDR="10.0.0.9")
        assert reply.status_code == 200 and "This link does not work" in reply.content.decode()
    assert AccessAttempt.objects.filter(ip_address="10.0.0.9").exists()
    assert "forged-token" not in str(list(AccessAttempt.objects.values_list("path_info", flat=True)))
    client.get(forged, REMOTE_ADDR="10.0.0.9")  # the failure that locks
    assert client.get(forged, REMOTE_ADDR="10.0.0.9").status_code == 429
    assert client.get(forged, REMOTE_ADDR="10.0.0.10").status_code == 200  # another address is not

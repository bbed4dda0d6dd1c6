"""Every form of one's account and of the reset links (people/forms/accounts.py, resets.py), posted garbage: huge,
empty, NUL, unicode, wrong types (lists, a JSON body, a file). Each answers 4xx, or its form with a
sentence, or does what it says: never a 500."""


import pytest
from django.urls import reverse

from people.services.resets import reset_link_for_member

from tests.factories import CampaignFactory, MembershipFactory
from tests.forms import assert_answered, wrong_type_posts

pytestmark = pytest.mark.django_db

PAYLOADS = {
    "empty": "",
    "huge": "x" * 200_000,
    "nul": "ann\x00",
    "unicode": "Ånn 🐉 \u202e\u0301 مرحبا",
    "surrogate-ish": "\udcff".encode("utf-8", "surrogatepass").decode("utf-8", "replace"),
    "spaces": "   \t\n",
    "number": "12345",
}


def forms(world):
    """(url, fields, who) for every new form: who posts it."""
    link = reset_link_for_member(gm=world.gm.user, membership=world.ben)
    wanderer = MembershipFactory(campaign=world.campaign, user__username="wanderer")
    MembershipFactory(campaign=CampaignFactory(), user=wanderer.user)
    return {
        "name": (reverse("people:account_name"), ["display_name"], world.ann.user),
        "password": (
            reverse("people:account_password"), ["old_password", "new_password1", "new_password2"], world.ann.user
        ),
        "reset": (link.path, ["new_password1", "new_password2"], None),
        "staff": (reverse("people:staff_reset"), ["username"], world.staff),
        "member reset": (
            reverse("people:member_reset", args=[world.campaign.slug, world.ann.pk]), ["anything"], world.gm.user
        ),
        "member reset, plays elsewhere": (  # issue 34: refused with a sentence, whatever is posted
            reverse("people:member_reset", args=[world.campaign.slug, wanderer.pk]), ["anything"], world.gm.user
        ),
    }


FORMS = ["name", "password", "reset", "staff", "member reset", "member reset, plays elsewhere"]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("payload", sorted(PAYLOADS))
def test_garbage_in_every_field_never_breaks_the_page(client, world, settings, form, payload):
    settings.AXES_FAILURE_LIMIT = 1000  # the guesses are the point here, not the lock-out
    url, fields, who = forms(world)[form]
    if who is not None:
        client.force_login(who)
    value = PAYLOADS[payload]
    reply = client.post(url, {field: value for field in fields})
    assert_answered(reply, f"{form} {payload}")
    if form == "member reset, plays elsewhere":
        assert reply.status_code == 400 and "ask staff" in reply.content.decode()


@pytest.mark.parametrize("form", FORMS)
def test_wrong_types_never_break_the_page(client, world, settings, form):
    settings.AXES_FAILURE_LIMIT = 1000
    url, fields, who = forms(world)[form]
    if who is not None:
        client.force_login(who)
    for name, reply in wrong_type_posts(client, url, fields).items():
        assert_answered(reply, f"{form} {name}")


@pytest.mark.parametrize(
    "uidb64, token",
    [("x" * 5000, "y" * 5000), ("%00", "%00"), ("🐉", "🐉-🐉"), ("MQ", "-"), ("MQ", "1-2-3"), ("", "")],
)
def test_garbage_in_a_reset_link_is_a_sentence(client, uidb64, token, world, settings):
    settings.AXES_FAILURE_LIMIT = 1000
    url = f"/account/reset/{uidb64}/{token}/"
    for reply in (client.get(url), client.post(url, {"new_password1": "x", "new_password2": "x"})):
        assert reply.status_code in (400, 404), url

"""Every invite and sign-up form posted garbage: huge, empty, NUL, unicode, wrong types (lists, a JSON
body, a file), with and without a one-time token. Each answers 4xx, or its form with a sentence, or
does what it says: never a 500. Garbage in an invite link's token is a 404 with a sentence."""


import pytest
from django.urls import reverse

from armies.models import Commander
from people.services.invites import invite_create

from tests.armies.factories import CommanderFactory
from tests.forms import assert_answered, once, wrong_type_posts

pytestmark = pytest.mark.django_db

PAYLOADS = {
    "empty": "",
    "huge": "x" * 200_000,
    "huge number": "9" * 5000,
    "negative": "-1",
    "float": "1.5",
    "nul": "ann\x00",
    "unicode": "Ånn 🐉 \u202e\u0301 مرحبا",
    "spaces": "   \t\n",
    "number": "12345",
}
FIELDS = {
    "invite": ["role", "commander", "max_uses", "days"],
    "sheet": ["seats", "days"],
    "revoke": [],
    "reissue": [],
    "join": [],
    "invite signup": ["username", "display_name", "password1", "password2"],
    "open signup": ["username", "display_name", "password1", "password2"],
}


def forms(world):
    """(url, who) for every new form."""
    CommanderFactory(membership=world.gm, name="Lady Vey", kind=Commander.Kind.PC)
    invite = invite_create(campaign=world.campaign, created_by=world.gm.user, max_uses=50)
    slug = world.campaign.slug
    return {
        "invite": (reverse("people:invites", args=[slug]), world.gm.user),
        "sheet": (reverse("people:invite_sheet", args=[slug]), world.gm.user),
        "revoke": (reverse("people:invite_revoke", args=[slug, invite.pk]), world.gm.user),
        "reissue": (reverse("people:invite_reissue", args=[slug, invite.pk]), world.gm.user),
        "join": (reverse("people:join", args=[invite.token]), world.outsider),
        "invite signup": (reverse("people:join_signup", args=[invite.token]), None),
        "open signup": (reverse("people:signup"), None),
    }


@pytest.fixture(autouse=True)
def no_lockout(settings):
    settings.AXES_FAILURE_LIMIT = 1000  # the garbage is the point here, not the lock-out
    settings.SIGNUP = "open"


@pytest.mark.parametrize("form", sorted(FIELDS))
@pytest.mark.parametrize("payload", sorted(PAYLOADS))
@pytest.mark.parametrize("token", [True, False], ids=["with token", "without token"])
def test_garbage_in_every_field_never_breaks_the_page(client, world, form, payload, token):
    url, who = forms(world)[form]
    if who is not None:
        client.force_login(who)
    data = {field: PAYLOADS[payload] for field in FIELDS[form]}
    assert_answered(client.post(url, once(**data) if token else data), f"{form} {payload}")


@pytest.mark.parametrize("form", sorted(FIELDS))
def test_wrong_types_never_break_the_page(client, world, form):
    url, who = forms(world)[form]
    if who is not None:
        client.force_login(who)
    fields = FIELDS[form] + ["submission"]
    for name, reply in wrong_type_posts(client, url, fields).items():
        assert_answered(reply, f"{form} {name}")


@pytest.mark.parametrize("token", ["x" * 5000, "%00", "🐉", "-", "a b", "A" * 32, "..", "%2F%2F"])
def test_garbage_in_an_invite_link_is_a_404_with_a_sentence(client, world, token):
    for url in (f"/join/{token}/", f"/join/{token}/signup/"):
        for reply in (client.get(url), client.post(url, once(username="x"))):
            assert reply.status_code in (404, 405), url

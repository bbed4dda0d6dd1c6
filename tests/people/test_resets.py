"""One-time reset links (people/services/resets.py): who may make one, and every way a link is refused."""

from datetime import datetime, timedelta

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from campaign.models import Activity, Membership
from people.services import PeopleError
from people.services.resets import (
    ResetLinkRefused,
    reset_link_by_staff,
    reset_link_for_member,
    reset_link_tokens,
    reset_link_user,
    reset_password_set,
)

from tests.factories import PASSWORD, CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-new-tabletop-secret"


def parts(link):
    """The uid and token of a made link's path (/account/reset/<uid>/<token>/)."""
    uidb64, token = link.path.rstrip("/").split("/")[-2:]
    return uidb64, token


def test_a_gm_makes_a_link_for_a_member_and_the_log_says_so_without_the_link(world):
    link = reset_link_for_member(gm=world.gm.user, membership=world.ann)
    assert link.username == "ann" and link.minutes == 30
    entry = Activity.objects.get(campaign=world.campaign, kind=Activity.Kind.RESET_LINK)
    assert entry.actor == world.gm.user and "Ann the Bold" in entry.summary
    _, token = parts(link)
    assert token not in entry.summary and token not in str(entry.details)
    assert reset_link_user(uidb64=parts(link)[0], token=token) == world.ann.user


def test_the_link_sets_the_password_once(world):
    uidb64, token = parts(reset_link_for_member(gm=world.gm.user, membership=world.ann))
    reset_password_set(uidb64=uidb64, token=token, new_password=NEW_PASSWORD)
    with pytest.raises(ResetLinkRefused, match="used already"):
        reset_password_set(uidb64=uidb64, token=token, new_password="yet-another-secret-1")
    world.ann.user.refresh_from_db()
    assert world.ann.user.check_password(NEW_PASSWORD)


def test_using_one_link_kills_every_other_link_made_for_that_account(world):
    first = parts(reset_link_for_member(gm=world.gm.user, membership=world.ann))
    second = parts(reset_link_by_staff(staff=world.staff, username="ann"))
    reset_password_set(uidb64=second[0], token=second[1], new_password=NEW_PASSWORD)
    with pytest.raises(ResetLinkRefused):
        reset_link_user(uidb64=first[0], token=first[1])


def test_an_expired_link_is_refused_with_its_own_sentence_and_changes_nothing(world, monkeypatch, settings):
    settings.PASSWORD_RESET_LINK_MINUTES = 30
    uidb64, token = parts(reset_link_for_member(gm=world.gm.user, membership=world.ann))
    monkeypatch.setattr(reset_link_tokens, "_now", lambda: datetime.now() + timedelta(minutes=31))
    with pytest.raises(ResetLinkRefused, match="expired"):
        reset_password_set(uidb64=uidb64, token=token, new_password=NEW_PASSWORD)
    world.ann.user.refresh_from_db()
    assert world.ann.user.check_password(PASSWORD)


def test_a_link_still_works_just_before_it_expires(world, monkeypatch):
    uidb64, token = parts(reset_link_for_member(gm=world.gm.user, membership=world.ann))
    monkeypatch.setattr(reset_link_tokens, "_now", lambda: datetime.now() + timedelta(minutes=29))
    assert reset_link_user(uidb64=uidb64, token=token) == world.ann.user


@pytest.mark.parametrize(
    "forge",
    [
        lambda uid, token, world: (uid, token[:-1] + ("a" if token[-1] != "a" else "b")),  # one character changed
        lambda uid, token, world: (urlsafe_base64_encode(force_bytes(world.ben.user.pk)), token),  # Ben's id
        lambda uid, token, world: (uid, "nonsense"),
        lambda uid, token, world: (uid, "zzzzzzzzzzzzzzzzzzzz-abc"),  # a timestamp past base 36's 13 digits
        lambda uid, token, world: ("not-base64!", token),
        lambda uid, token, world: (urlsafe_base64_encode(b"99999999999999999999999"), token),  # past any id
        lambda uid, token, world: (urlsafe_base64_encode(b"\xff\xfe"), token),  # not text
        lambda uid, token, world: (uid, default_token_generator.make_token(world.ann.user)),  # an e-mailed token
    ],
    ids=["changed", "other user", "nonsense", "huge stamp", "bad uid", "huge uid", "binary uid", "email token"],
)
def test_a_forged_link_is_refused_and_changes_nothing(world, forge):
    uidb64, token = forge(*parts(reset_link_for_member(gm=world.gm.user, membership=world.ann)), world)
    with pytest.raises(ResetLinkRefused, match="not a link Muster made"):
        reset_password_set(uidb64=uidb64, token=token, new_password=NEW_PASSWORD)
    for membership in (world.ann, world.ben):
        membership.user.refresh_from_db()
        assert membership.user.check_password(PASSWORD)


def test_a_link_dies_when_the_password_changes_another_way(world):
    uidb64, token = parts(reset_link_for_member(gm=world.gm.user, membership=world.ann))
    world.ann.user.set_password(NEW_PASSWORD)
    world.ann.user.save()
    with pytest.raises(ResetLinkRefused):
        reset_link_user(uidb64=uidb64, token=token)


def test_a_password_the_validators_refuse_leaves_the_link_usable(world):
    uidb64, token = parts(reset_link_for_member(gm=world.gm.user, membership=world.ann))
    with pytest.raises(PeopleError, match="too short") as refused:
        reset_password_set(uidb64=uidb64, token=token, new_password="abc")
    assert not isinstance(refused.value, ResetLinkRefused)
    assert reset_link_user(uidb64=uidb64, token=token) == world.ann.user


def test_a_switched_off_account_has_no_link(world):
    world.ann.user.is_active = False
    world.ann.user.save()
    with pytest.raises(PeopleError, match="switched off"):
        reset_link_for_member(gm=world.gm.user, membership=world.ann)


def test_a_gm_cannot_make_one_for_a_member_of_another_campaign(world):
    stranger = MembershipFactory(campaign=CampaignFactory(), user__username="stranger")
    with pytest.raises(PeopleError, match="Only the campaign's GM"):
        reset_link_for_member(gm=world.gm.user, membership=stranger)
    assert not Activity.objects.filter(kind=Activity.Kind.RESET_LINK).exists()


def test_a_gm_cannot_make_one_for_a_staff_member(world):
    staff_member = MembershipFactory(campaign=world.campaign, user=world.staff)
    with pytest.raises(PeopleError, match="staff member"):
        reset_link_for_member(gm=world.gm.user, membership=staff_member)


def test_a_gm_cannot_make_one_for_the_gm_of_a_campaign_they_do_not_run(world):
    MembershipFactory(campaign=CampaignFactory(), user=world.ann.user, role=Membership.Role.GM)
    with pytest.raises(PeopleError, match="also plays in a campaign you do not run"):
        reset_link_for_member(gm=world.gm.user, membership=world.ann)


def test_a_gm_cannot_make_one_for_a_player_of_a_campaign_they_do_not_run(world):
    """Issue 34: the GM of A invites a player of B; a link would hand the GM that player's hand in B."""
    MembershipFactory(campaign=CampaignFactory(), user=world.ann.user, role=Membership.Role.PLAYER)
    with pytest.raises(PeopleError, match="only staff .* can change their password"):
        reset_link_for_member(gm=world.gm.user, membership=world.ann)
    assert not Activity.objects.filter(kind=Activity.Kind.RESET_LINK).exists()
    assert reset_link_by_staff(staff=world.staff, username="ann").username == "ann"  # staff still can


def test_a_gm_makes_one_for_a_player_of_two_campaigns_both_of_which_they_run(world):
    second = CampaignFactory()
    MembershipFactory(campaign=second, user=world.gm.user, role=Membership.Role.GM)
    MembershipFactory(campaign=second, user=world.ann.user, role=Membership.Role.PLAYER)
    assert reset_link_for_member(gm=world.gm.user, membership=world.ann).username == "ann"


def test_a_campaign_the_gm_only_plays_in_does_not_count_as_theirs(world):
    second = CampaignFactory()
    MembershipFactory(campaign=second, user=world.gm.user, role=Membership.Role.PLAYER)
    MembershipFactory(campaign=second, user=world.ann.user, role=Membership.Role.PLAYER)
    with pytest.raises(PeopleError, match="also plays in a campaign you do not run"):
        reset_link_for_member(gm=world.gm.user, membership=world.ann)


def test_a_gm_makes_none_for_a_fellow_gm_of_their_own_campaign(world):
    # GMs are peers: neither takes the other's account over; staff make the link, or the GM changes it themself
    fellow = MembershipFactory(campaign=world.campaign, role=Membership.Role.GM, user__username="fellow")
    with pytest.raises(PeopleError, match="is a GM too: only staff"):
        reset_link_for_member(gm=world.gm.user, membership=fellow)
    assert not Activity.objects.filter(kind=Activity.Kind.RESET_LINK).exists()
    assert reset_link_by_staff(staff=world.staff, username="fellow").username == "fellow"


def test_a_gm_makes_none_for_themselves(world):
    with pytest.raises(PeopleError, match="That is you"):
        reset_link_for_member(gm=world.gm.user, membership=world.gm)


def test_a_player_cannot_make_one(world):
    with pytest.raises(PeopleError, match="Only the campaign's GM"):
        reset_link_for_member(gm=world.ann.user, membership=world.ben)
    assert not Activity.objects.filter(kind=Activity.Kind.RESET_LINK).exists()


def test_staff_make_one_for_anyone(world):
    assert reset_link_by_staff(staff=world.staff, username=" outsider ").username == "outsider"
    assert reset_link_by_staff(staff=world.staff, username="gm").username == "gm"


@pytest.mark.parametrize(
    "who, username, sentence",
    [
        ("player", "ben", "Only staff"),
        ("staff", "nobody-by-that-name", "No account has that user name"),
        ("staff", "", "No account has that user name"),
        ("staff", "staff", "That is you"),
        ("plain staff", "root", "only a superuser"),
    ],
)
def test_staff_links_are_refused_with_a_sentence(world, who, username, sentence):
    UserFactory(username="root", is_staff=True, is_superuser=True)
    maker = {
        "player": world.ann.user,
        "staff": world.staff,
        "plain staff": UserFactory(username="helper", is_staff=True),
    }[who]
    with pytest.raises(PeopleError, match=sentence):
        reset_link_by_staff(staff=maker, username=username)

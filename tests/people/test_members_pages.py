"""The GM's members page and its forms (people/views/members.py): what it shows in a fixed number of
queries, each form as a tap sends it, stale and repeated posts, fuzzed posts, and two GMs at once."""

import re
from html import unescape

import pytest
from django.db import transaction
from django.urls import reverse

from armies.models import Commander
from campaign.activity import target_url
from campaign.models import Activity, Membership
from people.services.members import member_digest, runner_digest

from tests.armies.factories import CommanderFactory
from tests.concurrency import race
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, gridaris_table
from tests.forms import logged_in_client, once

pytestmark = pytest.mark.django_db

GM, PLAYER = Membership.Role.GM, Membership.Role.PLAYER


def members_url(world):
    return reverse("people:members", args=[world.campaign.slug])


def role_url(world, member):
    return reverse("people:member_role", args=[world.campaign.slug, member.pk])


def remove_url(world, member):
    return reverse("people:member_remove", args=[world.campaign.slug, member.pk])


def hand_url(world, commander):
    return reverse("people:commander_hand", args=[world.campaign.slug, commander.pk])


def form_fields(html: str, action: str) -> dict:
    """What a tap on the form posting to ``action`` sends: its hidden fields and its select's first option."""
    match = re.search(rf'<form[^>]*action="{re.escape(action)}"[^>]*>(.*?)</form>', html, re.DOTALL)
    assert match, f"no form posts to {action}"
    fields = {}
    for tag in re.findall(r"<input[^>]*>", match.group(1)):
        name, value = re.search(r'name="([^"]*)"', tag), re.search(r'value="([^"]*)"', tag)
        if name and name.group(1) != "csrfmiddlewaretoken":
            fields[name.group(1)] = unescape(value.group(1)) if value else ""
    select = re.search(r'<select name="([^"]+)"[^>]*>\s*<option value="([^"]*)"', match.group(1))
    if select:
        fields[select.group(1)] = select.group(2)
    return fields


@pytest.fixture
def gm_client(client, world):
    client.force_login(world.gm.user)
    return client


# --- the page --------------------------------------------------------------------------------------


def test_the_page_shows_every_member_with_role_name_commanders_and_joining(gm_client, world):
    CommanderFactory(membership=world.ann, name="Lady Vey")
    CommanderFactory(membership=world.gm, kind="npc", name="The Bandit King")
    gridaris_table(world.campaign, [world.ann, world.ben], title="Friday skirmish")
    response = gm_client.get(members_url(world))
    assert response.status_code == 200
    html = response.content.decode()
    for text in ("Ann the Bold", "Ben the Sly", "Lady Vey", "The Bandit King", "Game master", "joined",
                 "playing at Friday skirmish", "Make Ben the Sly a GM"):
        assert text in html
    assert "Make yourself a player" not in html  # the only GM
    assert f'action="{remove_url(world, world.gm)}"' not in html  # nobody removes themselves
    assert f'action="{remove_url(world, world.ann)}"' not in html  # Ann is at an open table
    assert f'action="{remove_url(world, world.ben)}"' not in html


def test_each_member_row_links_to_their_reset_link_page(gm_client, world):
    html = gm_client.get(members_url(world)).content.decode()
    assert reverse("people:member_reset", args=[world.campaign.slug, world.ann.pk]) in html


def test_a_member_who_plays_elsewhere_has_no_reset_button_but_the_reason(gm_client, world):
    """Issue 34: a player of a campaign this GM does not run gets no link from them."""
    MembershipFactory(campaign=CampaignFactory(), user=world.ann.user)
    response = gm_client.get(members_url(world))
    html = response.content.decode()
    assert response.status_code == 200
    assert reverse("people:member_reset", args=[world.campaign.slug, world.ann.pk]) not in html
    assert "Ann the Bold also plays in a campaign you do not run" in html
    assert reverse("people:member_reset", args=[world.campaign.slug, world.ben.pk]) in html


def test_the_gm_home_links_to_the_members_page(gm_client, world):
    html = gm_client.get(reverse("campaign:detail", args=[world.campaign.slug])).content.decode()
    assert members_url(world) in html


@pytest.mark.parametrize("extra", [0, 12])
def test_the_page_takes_a_fixed_number_of_queries_whatever_the_members(
    gm_client, world, extra, django_assert_max_num_queries
):
    for n in range(extra):
        member = MembershipFactory(campaign=world.campaign, character_name=f"Recruit {n}")
        MembershipFactory(campaign=CampaignFactory(), user=member.user)  # plays elsewhere: no reset button
        CommanderFactory(membership=member, name=f"Captain {n}")  # a PC: not offered GM, told why
        MembershipFactory(campaign=world.campaign, user=UserFactory(is_staff=True), character_name=f"Staff {n}")
        CommanderFactory(membership=world.gm, kind="npc", name=f"Bandit {n}")
    gridaris_table(world.campaign, [world.ann, world.ben])
    with django_assert_max_num_queries(8):  # session, user, membership; members, commanders, seats, battles,
        response = gm_client.get(members_url(world))  # members who play in campaigns this GM does not run
    assert response.status_code == 200
    assert ("also plays in a campaign you do not run" in response.content.decode()) == bool(extra)
    assert ("is a staff member: only staff" in response.content.decode()) == bool(extra)
    assert ("Recruit 0 runs Captain 0: player characters" in response.content.decode()) == bool(extra)
    assert f"Recruit {extra - 1}" in response.content.decode() if extra else "Ann the Bold" in response.content.decode()


# --- only what can work is offered (issue 35) --------------------------------------------------------


class Undone(Exception):
    """Raised inside a savepoint to take back a post the test made only to see it accepted."""


def offered(html: str, url_name: str, world) -> list[str]:
    """Every URL of ``url_name`` (per member) the page links or posts to, in page order."""
    pattern = re.escape(reverse(url_name, args=[world.campaign.slug, 999999])).replace("999999", r"\d+")
    return re.findall(pattern, html)


def test_a_player_who_runs_a_pc_is_not_offered_gm_and_is_told_why(gm_client, world):
    CommanderFactory(membership=world.ann, name="Lady Vey", kind=Commander.Kind.PC)
    response = gm_client.get(members_url(world))
    html = unescape(response.content.decode())
    assert response.status_code == 200
    assert f'action="{role_url(world, world.ann)}"' not in html
    assert ("Ann the Bold runs Lady Vey: player characters (a GM's commanders are NPCs). Hand it to another "
            "member first, then change the role.") in html
    assert f'action="{role_url(world, world.ben)}"' in html  # Ben runs nothing: he may become a GM


def test_a_gm_who_runs_npcs_is_not_offered_player_and_is_told_why(gm_client, world):
    second = MembershipFactory(campaign=world.campaign, role=GM, character_name="Cora")
    CommanderFactory(membership=second, name="The Bandit King", kind=Commander.Kind.NPC)
    html = unescape(gm_client.get(members_url(world)).content.decode())
    assert f'action="{role_url(world, second)}"' not in html
    assert "Cora runs The Bandit King: NPCs (a player runs PCs)." in html
    assert f'action="{role_url(world, world.gm)}"' in html  # two GMs now: this one may step down


def test_no_reset_link_on_ones_own_row_but_the_way_to_ones_account(gm_client, world):
    html = gm_client.get(members_url(world)).content.decode()
    own = re.search(rf'<section class="card member" id="member-{world.gm.pk}".*?</section>', html, re.DOTALL)[0]
    assert reverse("people:member_reset", args=[world.campaign.slug, world.gm.pk]) not in own
    assert f'href="{reverse("people:account")}"' in own and "Your account" in own


def test_no_reset_link_for_a_staff_member_but_the_reason(gm_client, world):
    staff = MembershipFactory(campaign=world.campaign, user=world.staff, character_name="Sam")
    html = gm_client.get(members_url(world)).content.decode()
    assert reverse("people:member_reset", args=[world.campaign.slug, staff.pk]) not in html
    assert "Sam is a staff member: only staff can make a reset link for them." in html


@pytest.fixture
def crowded(world):
    """A campaign where most actions are refused: a PC runner, a co-GM who GMs elsewhere and runs an NPC,
    a staff member, an account switched off, and one free player."""
    CommanderFactory(membership=world.ann, name="Lady Vey", kind=Commander.Kind.PC)
    cora = MembershipFactory(campaign=world.campaign, role=GM, character_name="Cora")
    MembershipFactory(campaign=CampaignFactory(), user=cora.user, role=GM)
    CommanderFactory(membership=cora, name="The Bandit King", kind=Commander.Kind.NPC)
    MembershipFactory(campaign=world.campaign, user=world.staff, character_name="Sam")
    MembershipFactory(campaign=world.campaign, user=UserFactory(is_active=False), character_name="Dormant")
    return world


def test_every_reset_link_offered_makes_a_link(gm_client, crowded):
    html = gm_client.get(members_url(crowded)).content.decode()
    links = offered(html, "people:member_reset", crowded)
    assert len(links) == 2  # Ann's and Ben's: not the GM's own, a co-GM's who GMs elsewhere, staff, switched off
    for url in links:
        response = gm_client.post(url, once())
        assert response.status_code == 200 and "link" in response.context


def test_every_role_change_offered_is_accepted(gm_client, crowded):
    html = gm_client.get(members_url(crowded)).content.decode()
    urls = offered(html, "people:member_role", crowded)
    assert len(urls) == 4  # the viewing GM (Cora stays GM), Ben, Sam and Dormant; Ann runs a PC, Cora an NPC
    for url in urls:
        data = form_fields(html, url)
        with pytest.raises(Undone), transaction.atomic():
            response = gm_client.post(url, data)
            assert response.status_code == 302, unescape(response.content.decode())
            raise Undone


# --- the forms as tapped ---------------------------------------------------------------------------


def test_making_a_player_a_gm_as_tapped(gm_client, world):
    html = gm_client.get(members_url(world)).content.decode()
    data = form_fields(html, role_url(world, world.ben))
    assert data["role"] == GM and data["based_on"] == member_digest(world.ben)
    response = gm_client.post(role_url(world, world.ben), data, follow=True)
    assert response.status_code == 200
    assert "Ben the Sly is now a GM." in response.content.decode()
    assert Membership.objects.get(pk=world.ben.pk).role == GM


def test_the_activity_log_links_a_members_line_to_the_members_page(gm_client, world):
    gm_client.post(role_url(world, world.ben), once(role=GM, based_on=member_digest(world.ben)))
    line = Activity.objects.get(kind=Activity.Kind.MEMBER_ROLE)
    assert target_url(line, world.campaign.slug) == members_url(world)
    html = gm_client.get(reverse("campaign:activity", args=[world.campaign.slug])).content.decode()
    assert "Made Ben the Sly a GM (was player)." in html


def test_a_double_tap_is_applied_once_and_an_old_page_is_refused_with_the_fresh_page(gm_client, world):
    html = gm_client.get(members_url(world)).content.decode()
    data = form_fields(html, role_url(world, world.ben))
    gm_client.post(role_url(world, world.ben), data)
    again = gm_client.post(role_url(world, world.ben), data, follow=True)
    assert "Already done: this form was sent before and is applied only once." in again.content.decode()
    assert Activity.objects.filter(kind=Activity.Kind.MEMBER_ROLE).count() == 1

    stale = gm_client.post(role_url(world, world.ben), {**data, "submission": once()["submission"]})
    assert stale.status_code == 409
    assert "Ben the Sly was changed meanwhile" in stale.content.decode()
    assert "Make Ben the Sly a player" in stale.content.decode()  # the fresh page


def test_the_last_gm_is_refused_with_a_sentence_in_the_page(gm_client, world):
    data = once(role=PLAYER, based_on=member_digest(world.gm))
    response = gm_client.post(role_url(world, world.gm), data)
    assert response.status_code == 400
    assert "a campaign always keeps at least one GM" in response.content.decode()


def test_removing_a_member_as_tapped_leaves_their_commander_with_the_gm(gm_client, world):
    vey = CommanderFactory(membership=world.ann, name="Lady Vey")
    html = gm_client.get(members_url(world)).content.decode()
    response = gm_client.post(remove_url(world, world.ann), form_fields(html, remove_url(world, world.ann)),
                              follow=True)
    assert response.status_code == 200
    said = "Ann the Bold was removed from the campaign. You now run Lady Vey as an NPC: hand it on below."
    assert said in response.content.decode()
    assert Commander.objects.get(pk=vey.pk).membership_id == world.gm.pk


def test_a_double_tap_on_remove_says_already_done_not_404(gm_client, world):
    html = gm_client.get(members_url(world)).content.decode()
    data = form_fields(html, remove_url(world, world.ben))
    gm_client.post(remove_url(world, world.ben), data)
    again = gm_client.post(remove_url(world, world.ben), data, follow=True)
    assert again.status_code == 200
    assert "Already done" in again.content.decode()


def test_a_member_at_an_open_table_is_refused_with_the_table_named(gm_client, world):
    gridaris_table(world.campaign, [world.ann, world.ben], title="Friday skirmish")
    response = gm_client.post(remove_url(world, world.ann), once(based_on=member_digest(world.ann)))
    assert response.status_code == 400
    assert "Ann the Bold holds a seat at Friday skirmish, still being played" in response.content.decode()


def test_handing_a_commander_on_as_tapped(gm_client, world):
    vey = CommanderFactory(membership=world.ann, name="Lady Vey")
    html = gm_client.get(members_url(world)).content.decode()
    data = {**form_fields(html, hand_url(world, vey)), "to": str(world.ben.pk)}
    assert data["based_on"] == runner_digest(vey)
    response = gm_client.post(hand_url(world, vey), data, follow=True)
    assert "Lady Vey is now run by Ben the Sly (a PC)." in response.content.decode()
    stale = gm_client.post(hand_url(world, vey), {**data, "to": str(world.gm.pk), "submission": once()["submission"]})
    assert stale.status_code == 409
    assert Commander.objects.get(pk=vey.pk).membership_id == world.ben.pk


def test_a_commander_of_another_campaign_is_404(gm_client, world):
    stranger = CommanderFactory(membership=MembershipFactory(campaign=CampaignFactory()))
    response = gm_client.post(hand_url(world, stranger), once(to=str(world.ben.pk), based_on="x"))
    assert response.status_code == 404


def test_a_gm_of_another_campaign_cannot_reach_these_pages(client, world):
    vey = CommanderFactory(membership=world.ann, name="Lady Vey")
    other = MembershipFactory(campaign=CampaignFactory(), role=GM)
    client.force_login(other.user)
    assert client.get(members_url(world)).status_code == 404
    for url in (role_url(world, world.ann), remove_url(world, world.ann), hand_url(world, vey)):
        assert client.post(url, once(role=GM, to=str(world.ben.pk), based_on="x")).status_code == 404
    assert Membership.objects.filter(pk=world.ann.pk, role=PLAYER).exists()


# --- fuzz: nothing a form can carry breaks the page --------------------------------------------------

FUZZ = {
    "empty": {},
    "huge": {"role": "g" * 100_000, "to": "9" * 5_000, "based_on": "b" * 100_000, "submission": "s" * 100_000},
    "nul": {"role": "gm\x00", "to": "1\x00", "based_on": "\x00", "submission": "\x00" * 20},
    "unicode": {"role": "ГМ 🎲", "to": "٣", "based_on": "ḃäśëd", "submission": "ťøķëñ" * 5},
    "wrong types": {"role": ["gm", "player"], "to": "-1", "based_on": "1.5e308", "submission": "{}"},
    "no token": {"role": "gm", "to": "1", "based_on": "abc"},
    "no pin": {"role": "gm", "to": "1"},
}


@pytest.mark.parametrize("case", list(FUZZ))
def test_fuzzed_posts_are_refused_with_a_sentence_never_a_500(gm_client, world, case):
    vey = CommanderFactory(membership=world.ann, name="Lady Vey")
    data = dict(FUZZ[case])
    if case in ("no token", "no pin"):
        data.setdefault("submission", None)
        data = {k: v for k, v in data.items() if v is not None}
    for url in (role_url(world, world.ben), remove_url(world, world.ben), hand_url(world, vey)):
        response = gm_client.post(url, data)
        assert 400 <= response.status_code < 500, (url, response.status_code)
        html = response.content.decode()
        assert re.search(r'role="alert"[^>]*>[A-Z][^<]{10,}[.:!]', html), (url, html[:2000])
    assert Membership.objects.get(pk=world.ben.pk).role == PLAYER
    assert Commander.objects.get(pk=vey.pk).membership_id == world.ann.pk


@pytest.mark.parametrize("member_id", ["0", "99999999999999999999"])
def test_an_id_that_is_no_member_or_commander_is_refused_or_404(gm_client, world, member_id):
    for url in (f"/c/{world.campaign.slug}/members/{member_id}/role/",
                f"/c/{world.campaign.slug}/members/{member_id}/remove/",
                f"/c/{world.campaign.slug}/members/commanders/{member_id}/hand/"):
        response = gm_client.post(url, once(role=GM, to=str(world.ben.pk), based_on="abc"))
        assert response.status_code in (400, 404), url


# --- two GMs at once ---------------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_gms_demoting_each_other_at_once_leave_one_gm(world):
    Membership.objects.filter(pk=world.ann.pk).update(role=GM)
    greta, ann = world.gm, Membership.objects.get(pk=world.ann.pk)
    clients = [logged_in_client(greta.user), logged_in_client(ann.user)]
    posts = [(clients[0], role_url(world, ann), ann), (clients[1], role_url(world, greta), greta)]
    responses = race([
        lambda c=c, url=url, m=m: c.post(url, once(role=PLAYER, based_on=member_digest(m)))
        for c, url, m in posts
    ])
    assert Membership.objects.filter(campaign=world.campaign, role=GM).count() == 1
    statuses = sorted(r.status_code for r in responses)
    assert statuses[0] == 302 and statuses[1] in (400, 403), statuses


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_gms_removing_each_other_at_once_leave_one_gm(world):
    Membership.objects.filter(pk=world.ann.pk).update(role=GM)
    greta, ann = world.gm, Membership.objects.get(pk=world.ann.pk)
    clients = [logged_in_client(greta.user), logged_in_client(ann.user)]
    posts = [(clients[0], remove_url(world, ann), ann), (clients[1], remove_url(world, greta), greta)]
    responses = race([
        lambda c=c, url=url, m=m: c.post(url, once(based_on=member_digest(m))) for c, url, m in posts
    ])
    assert Membership.objects.filter(campaign=world.campaign, role=GM).count() == 1
    assert sorted(r.status_code for r in responses)[0] == 302


def test_a_demoted_gm_is_sent_home(client, world):
    other = UserFactory(username="greta2")
    MembershipFactory(campaign=world.campaign, user=other, role=GM)
    client.force_login(world.gm.user)
    response = client.post(role_url(world, world.gm), once(role=PLAYER, based_on=member_digest(world.gm)))
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:detail", args=[world.campaign.slug])

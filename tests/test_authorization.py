"""Every URL × {anonymous, non-member, player, another player, GM, staff}.

"player" is the member who owns the thing the URL is about (Ann, seat 0);
"another player" is a member of the same campaign who does not (Ben).
Add every new page here. The websocket routes (the live push) have their own matrix of the
same roles in tests/test_live.py, which fails when a route is added without joining it.
"""

import io
import re

import pytest
from django.urls import reverse

from archive.export import campaign_export
from armies.models import DayEnd
from armies.services.battle_tables import battle_table_open
from campaign.models import Campaign, Membership
from people.services.invites import invite_create
from tabletop.services.projector import projector_issue

from tests.archive._helpers import rewrite, upload
from tests.armies.factories import ArmyUnitFactory, CommanderFactory, RecruitOfferFactory
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "outsider", "player", "other_player", "gm", "staff"]
LOGIN = "login"  # a redirect to the login page


def users(world):
    return {
        "anonymous": None,
        "outsider": world.outsider,
        "player": world.ann.user,
        "other_player": world.ben.user,
        "gm": world.gm.user,
        "staff": world.staff,
    }


def urls(world, table):
    slug, pk = world.campaign.slug, table.pk
    ann_token = table.seats.get(index=0).token
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", balance=50)
    unit = ArmyUnitFactory(commander=vey)
    offer = RecruitOfferFactory(campaign=world.campaign, price=5)
    quest = RecruitOfferFactory(campaign=world.campaign, price=0, quest="Slay the wyrm")
    king = CommanderFactory(membership=world.gm, kind="npc", name="The Bandit King")
    battle = battle_table_open(attacker=vey, defender=king, attacker_units=[unit],
                               defender_units=[ArmyUnitFactory(commander=king)], opened_by=world.gm.user)
    run = DayEnd.objects.create(campaign=world.campaign, day=1, status=DayEnd.Status.DONE)
    invite = invite_create(campaign=world.campaign, created_by=world.gm.user)
    projector = projector_issue(table_id=table.pk, replacing="", user=world.gm.user)
    army = [slug, vey.pk]
    # issue 34: a member who also plays in a campaign this GM does not run gets no reset link from this GM
    wanderer = MembershipFactory(campaign=world.campaign, user__username="wanderer")
    MembershipFactory(campaign=CampaignFactory(), user=wanderer.user)
    return {
        # name: (method, url, expected status per role in ROLES order)
        "campaign list": ("get", reverse("campaign:home"), [LOGIN, 200, 200, 200, 200, 200]),
        "campaign home": ("get", reverse("campaign:detail", args=[slug]), [LOGIN, 404, 200, 200, 200, 404]),
        "missing campaign": ("get", reverse("campaign:detail", args=["no-such"]), [LOGIN, 404, 404, 404, 404, 404]),
        "new table": ("get", reverse("tabletop:table_new", args=[slug, "gridaris"]), [LOGIN, 404, 403, 403, 200, 404]),
        "gm table": ("get", reverse("tabletop:gm_table", args=[slug, pk]), [LOGIN, 404, 403, 403, 200, 404]),
        "gm poll": ("get", reverse("tabletop:gm_poll", args=[slug, pk]), [LOGIN, 404, 403, 403, 200, 404]),
        "gm act": ("post", reverse("tabletop:gm_act", args=[slug, pk]), [LOGIN, 404, 403, 403, 400, 404]),
        "gm undo": ("post", reverse("tabletop:gm_undo", args=[slug, pk]), [LOGIN, 404, 403, 403, 400, 404]),
        "gm seat to computer": (
            "post", reverse("tabletop:gm_seat_bot", args=[slug, pk]), [LOGIN, 404, 403, 403, 400, 404]
        ),
        "gm log": ("get", reverse("tabletop:gm_log", args=[slug, pk]), [LOGIN, 404, 403, 403, 200, 404]),
        # issue 24: the pages to print (the GM of another campaign: tests/armies/test_print_pages.py and
        # tests/tabletop/views/test_print_seats.py)
        "seat sheet": ("get", reverse("tabletop:gm_seat_sheet", args=[slug, pk]), [LOGIN, 404, 403, 403, 200, 404]),
        "public table": ("get", reverse("tabletop:public_table", args=[slug, pk]), [LOGIN, 404, 200, 200, 200, 404]),
        "public poll": ("get", reverse("tabletop:public_poll", args=[slug, pk]), [LOGIN, 404, 200, 200, 200, 404]),
        "seat table": ("get", reverse("tabletop:seat_table", args=[ann_token]), [LOGIN, 403, 200, 403, 403, 403]),
        "seat poll": ("get", reverse("tabletop:seat_poll", args=[ann_token]), [403, 403, 200, 403, 403, 403]),
        "seat act": ("post", reverse("tabletop:seat_act", args=[ann_token]), [403, 403, 400, 403, 403, 403]),
        "seat log (in play)": ("get", reverse("tabletop:seat_log", args=[ann_token]), [403, 403, 403, 403, 403, 403]),
        "unknown seat": ("get", reverse("tabletop:seat_table", args=["not-a-token"]), [404] * 6),
        # issue 25: the projector link is the permission, no account needed; only the GM makes or revokes it
        # (an empty post: a new link, or nothing to revoke; ruling PJ1)
        "projector": ("get", reverse("tabletop:projector", args=[projector.token]), [200] * 6),
        "projector poll": ("get", reverse("tabletop:projector_poll", args=[projector.token]), [200] * 6),
        # issue 38: the seat pages' offline worker and its page hold nothing of anyone's: open to all
        "offline worker": ("get", reverse("tabletop:offline_worker"), [200] * 6),
        "offline page": ("get", reverse("tabletop:offline_page"), [200] * 6),
        "forged projector": ("get", reverse("tabletop:projector", args=["not-a-token"]), [404] * 6),
        "forged projector poll": ("get", reverse("tabletop:projector_poll", args=["not-a-token"]), [404] * 6),
        "make projector link": (
            "post", reverse("tabletop:projector_issue", args=[slug, pk]), [LOGIN, 404, 403, 403, 302, 404]
        ),
        "revoke projector link": (
            "post", reverse("tabletop:projector_revoke", args=[slug, pk]), [LOGIN, 404, 403, 403, 302, 404]
        ),
        "admin catalog": ("get", reverse("admin:tabletop_gridariscard_changelist"), [302, 302, 302, 302, 302, 200]),
        "password change": ("get", reverse("password_change"), [LOGIN, 200, 200, 200, 200, 200]),
        "health": ("get", reverse("health"), [200] * 6),
        "armies": ("get", reverse("armies:list", args=[slug]), [LOGIN, 404, 200, 200, 200, 404]),
        "commander": ("get", reverse("armies:commander", args=army), [LOGIN, 404, 200, 404, 200, 404]),
        "roster sheet": ("get", reverse("armies:roster_print", args=army), [LOGIN, 404, 200, 404, 200, 404]),
        "roster book": ("get", reverse("armies:roster_book_print", args=[slug]), [LOGIN, 404, 403, 403, 200, 404]),
        "new commander": ("get", reverse("armies:commander_new", args=[slug]), [LOGIN, 404, 403, 403, 200, 404]),
        "items": ("post", reverse("armies:items", args=army), [LOGIN, 404, 403, 403, 302, 404]),
        "recruit": ("post", reverse("armies:buy", args=[*army, offer.pk]), [LOGIN, 404, 302, 404, 302, 404]),
        "train": ("post", reverse("armies:train", args=[*army, unit.pk]), [LOGIN, 404, 302, 404, 302, 404]),
        "adjust": ("post", reverse("armies:adjust", args=army), [LOGIN, 404, 403, 403, 302, 404]),
        "grant": ("post", reverse("armies:grant", args=[*army, quest.pk]), [LOGIN, 404, 403, 403, 302, 404]),
        "post offer": ("post", reverse("armies:offer_new", args=[slug]), [LOGIN, 404, 403, 403, 302, 404]),
        "end day": ("post", reverse("armies:day_end", args=[slug]), [LOGIN, 404, 403, 403, 302, 404]),
        "day end progress": (
            "get",
            reverse("armies:day_end_progress", args=[slug, run.pk]),
            [LOGIN, 404, 403, 403, 200, 404],
        ),
        "new battle": ("get", reverse("armies:battle_new", args=[slug]), [LOGIN, 404, 403, 403, 200, 404]),
        "open battle": ("post", reverse("armies:battle_new", args=[slug]), [LOGIN, 404, 403, 403, 200, 404]),
        # Ann commands the attacker; Ben has no commander in it
        "battle result": (
            "get",
            reverse("armies:battle_result", args=[slug, battle.pk]),
            [LOGIN, 404, 200, 404, 200, 404],
        ),
        "missing battle": ("get", reverse("armies:battle_result", args=[slug, 999]), [LOGIN, 404, 404, 404, 404, 404]),
        # issue 13: the GM's pages to run the campaign and put mistakes right
        "activity log": ("get", reverse("campaign:activity", args=[slug]), [LOGIN, 404, 403, 403, 200, 404]),
        "settings": ("get", reverse("campaign:settings", args=[slug]), [LOGIN, 404, 403, 403, 200, 404]),
        "save settings": ("post", reverse("campaign:settings", args=[slug]), [LOGIN, 404, 403, 403, 200, 404]),
        "edit commander": ("get", reverse("armies:commander_edit", args=army), [LOGIN, 404, 403, 403, 200, 404]),
        "save commander": ("post", reverse("armies:commander_edit", args=army), [LOGIN, 404, 403, 403, 200, 404]),
        "retire": ("post", reverse("armies:commander_retire", args=army), [LOGIN, 404, 403, 403, 302, 404]),
        "return": ("post", reverse("armies:commander_return", args=army), [LOGIN, 404, 403, 403, 302, 404]),
        "remove unit": (
            "post",
            reverse("armies:unit_remove", args=[*army, unit.pk]),
            [LOGIN, 404, 403, 403, 302, 404],
        ),
        "correct training": (
            "post",
            reverse("armies:unit_training", args=[*army, unit.pk]),
            [LOGIN, 404, 403, 403, 302, 404],
        ),
        "offers": ("get", reverse("armies:offer_list", args=[slug]), [LOGIN, 404, 403, 403, 200, 404]),
        "edit offer": ("get", reverse("armies:offer_edit", args=[slug, offer.pk]), [LOGIN, 404, 403, 403, 200, 404]),
        "save offer": ("post", reverse("armies:offer_edit", args=[slug, offer.pk]), [LOGIN, 404, 403, 403, 200, 404]),
        "withdraw offer": (
            "post",
            reverse("armies:offer_withdraw", args=[slug, offer.pk]),
            [LOGIN, 404, 403, 403, 302, 404],
        ),
        "restore offer": (
            "post",
            reverse("armies:offer_restore", args=[slug, offer.pk]),
            [LOGIN, 404, 403, 403, 302, 404],
        ),
        "take back day end": (
            "get",
            reverse("armies:day_end_revert", args=[slug]) + "?day=1",
            [LOGIN, 404, 403, 403, 200, 404],
        ),
        "confirm take back": ("post", reverse("armies:day_end_revert", args=[slug]), [LOGIN, 404, 403, 403, 302, 404]),
        "treasury": ("get", reverse("armies:treasury", args=[slug]), [LOGIN, 404, 403, 403, 200, 404]),
        "ledger csv": ("get", reverse("armies:ledger_csv", args=[slug]), [LOGIN, 404, 403, 403, 200, 404]),
        "commander ledger csv": (
            "get",
            reverse("armies:commander_ledger_csv", args=army),
            [LOGIN, 404, 200, 404, 200, 404],
        ),
        "abandon table": ("get", reverse("tabletop:table_abandon", args=[slug, pk]), [LOGIN, 404, 403, 403, 200, 404]),
        # issue 16: the GM forks a table into a what-if (an empty post: no version, no token)
        "what-if log": ("get", reverse("tabletop:table_whatif", args=[slug, pk]), [LOGIN, 404, 403, 403, 200, 404]),
        "fork table": ("post", reverse("tabletop:table_fork", args=[slug, pk]), [LOGIN, 404, 403, 403, 400, 404]),
        "confirm abandon": (
            "post",
            reverse("tabletop:table_abandon", args=[slug, pk]),
            [LOGIN, 404, 403, 403, 200, 404],  # without its version pin: the confirm page again, a sentence
        ),
        "admin units": ("get", reverse("admin:armies_unitcard_changelist"), [302] * 5 + [200]),
        "admin ledger": ("get", reverse("admin:campaign_ledgerentry_changelist"), [302] * 5 + [200]),
        "admin import": ("get", reverse("admin:tabletop_gridariscard_import"), [302, 302, 302, 302, 302, 200]),
        "admin export": ("get", reverse("admin:tabletop_gridariscard_export", args=["csv"]), [302] * 5 + [200]),
        "admin tables": ("get", reverse("admin:tabletop_table_changelist"), [302, 302, 302, 302, 302, 200]),
        # issue 24: the campaign archive: its GM (and staff) download it; whoever may start campaigns uploads
        # one (an empty post: no file, no token: 400). The GM of another campaign: tests/archive/test_pages.py
        "archive": ("get", reverse("archive:page", args=[slug]), [LOGIN, 404, 403, 403, 200, 200]),
        "archive download": ("post", reverse("archive:download", args=[slug]), [LOGIN, 404, 403, 403, 200, 200]),
        "import campaign": ("get", reverse("archive:import"), [LOGIN, 200, 200, 200, 200, 200]),
        "upload archive": ("post", reverse("archive:import"), [LOGIN, 400, 400, 400, 400, 400]),
        # issue 23: the GM's members page and its forms (an empty post: no token, no pin: 400 with a sentence;
        # the GM of another campaign: tests/people/test_members_pages.py)
        "members": ("get", reverse("people:members", args=[slug]), [LOGIN, 404, 403, 403, 200, 404]),
        "member role": (
            "post", reverse("people:member_role", args=[slug, world.ben.pk]), [LOGIN, 404, 403, 403, 400, 404]
        ),
        "remove member": (
            "post", reverse("people:member_remove", args=[slug, world.ben.pk]), [LOGIN, 404, 403, 403, 400, 404]
        ),
        "hand commander": (
            "post", reverse("people:commander_hand", args=[slug, vey.pk]), [LOGIN, 404, 403, 403, 400, 404]
        ),
        # issue 23: one's own account (anyone logged in, for themselves) and the one-time reset links
        # (the GM for a member, staff for anyone; the GM of another campaign: tests/people/test_resets_pages.py)
        "your account": ("get", reverse("people:account"), [LOGIN, 200, 200, 200, 200, 200]),
        "save your name": ("post", reverse("people:account_name"), [LOGIN, 200, 200, 200, 200, 200]),
        "change your password": ("post", reverse("people:account_password"), [LOGIN, 200, 200, 200, 200, 200]),
        "member reset link": (
            "get", reverse("people:member_reset", args=[slug, world.ann.pk]), [LOGIN, 404, 403, 403, 200, 404]
        ),
        "make member reset link": (
            "post", reverse("people:member_reset", args=[slug, world.ann.pk]), [LOGIN, 404, 403, 403, 200, 404]
        ),
        "reset link, member who plays elsewhere": (
            "get", reverse("people:member_reset", args=[slug, wanderer.pk]), [LOGIN, 404, 403, 403, 200, 404]
        ),
        "make reset link, member who plays elsewhere": (
            "post", reverse("people:member_reset", args=[slug, wanderer.pk]), [LOGIN, 404, 403, 403, 400, 404]
        ),
        "staff reset link": ("get", reverse("people:staff_reset"), [LOGIN, 404, 404, 404, 404, 200]),
        "forged reset link": ("get", reverse("people:reset", args=["MQ", "forged-token"]), [400] * 6),
        # issue 23: invites (the GM of another campaign: tests/people/test_invites_authorization.py). An empty
        # post carries no token: the GM gets the form again (400) or a message (302). The join link opens for
        # anyone; a member is sent to the campaign; its posts come last, since they make the outsider a member.
        "invites": ("get", reverse("people:invites", args=[slug]), [LOGIN, 404, 403, 403, 200, 404]),
        "make invite": ("post", reverse("people:invites", args=[slug]), [LOGIN, 404, 403, 403, 400, 404]),
        "invite sheet": ("get", reverse("people:invite_sheet", args=[slug]), [LOGIN, 404, 403, 403, 200, 404]),
        "make sheet": ("post", reverse("people:invite_sheet", args=[slug]), [LOGIN, 404, 403, 403, 400, 404]),
        "revoke invite": (
            "post", reverse("people:invite_revoke", args=[slug, invite.pk]), [LOGIN, 404, 403, 403, 302, 404]
        ),
        "reissue invite": (
            "post", reverse("people:invite_reissue", args=[slug, invite.pk]), [LOGIN, 404, 403, 403, 302, 404]
        ),
        "open sign-up (invite only)": ("get", reverse("people:signup"), [404] * 6),
        "join page": ("get", reverse("people:join", args=[invite.token]), [200, 200, 302, 302, 302, 200]),
        "join sign-up (empty)": (
            "post", reverse("people:join_signup", args=[invite.token]), [200, 302, 302, 302, 302, 302]
        ),
        "join": ("post", reverse("people:join", args=[invite.token]), [LOGIN, 302, 302, 302, 302, 302]),
    }


@pytest.mark.parametrize("role", ROLES)
def test_every_url_answers_each_role_as_the_rules_say(client, world, table, role):
    user = users(world)[role]
    if user is not None:
        client.force_login(user)
    failures = []
    for name, (method, url, expected_by_role) in urls(world, table).items():
        expected = expected_by_role[ROLES.index(role)]
        response = getattr(client, method)(url)
        if expected == LOGIN:
            ok = response.status_code == 302 and reverse("login") in response["Location"]
        else:
            ok = response.status_code == expected
        if not ok:
            failures.append(f"{name}: expected {expected}, got {response.status_code}")
    assert failures == []


def test_a_404_for_a_stranger_looks_the_same_whether_the_campaign_exists_or_not(client, world, table):
    client.force_login(world.outsider)
    real = client.get(reverse("campaign:detail", args=[world.campaign.slug]))
    fake = client.get(reverse("campaign:detail", args=["no-such"]))
    assert real.status_code == fake.status_code == 404

    def without_csrf(response):
        html = re.sub(r'"X-CSRFToken": "[^"]+"', "", response.content.decode())
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)

    assert without_csrf(real) == without_csrf(fake)


# issue 34: an archive import makes nobody a member. Whoever may upload one (a stranger included), an archive
# naming staff and another campaign's player as members leaves every account's memberships as they were; the
# new campaign's members page then offers no reset link for them (they are not members).
@pytest.mark.parametrize("role", ["outsider", "player", "gm", "staff"])
def test_an_uploaded_archive_naming_other_accounts_makes_none_of_them_a_member(client, world, table, role):
    importer = users(world)[role]
    carol = MembershipFactory(campaign=CampaignFactory(slug="elsewhere"), user__username="carol").user
    everyone = [world.staff, carol, world.ann.user, world.ben.user, world.gm.user, world.outsider]
    before = set(Membership.objects.filter(user__in=everyone).values_list("user_id", "campaign_id", "role"))
    out = io.BytesIO()
    campaign_export(world.campaign, out)

    def naming(records):
        member = next(r for r in records if r["kind"] == "member")
        records[records.index(member):records.index(member)] = [
            {**member, "id": 990_000 + n, "username": name, "role": "gm"} for n, name in enumerate(["staff", "carol"])]
    client.force_login(importer)
    assert upload(client, rewrite(out.getvalue(), naming)).status_code < 500
    copy = Campaign.objects.exclude(pk__in=[world.campaign.pk, carol.memberships.get().campaign_id]).get()
    after = set(Membership.objects.filter(user__in=everyone).values_list("user_id", "campaign_id", "role"))
    assert after - before == {(importer.pk, copy.pk, "gm")}
    page = client.get(reverse("people:members", args=[copy.slug]))
    assert page.status_code == 200
    own = str(Membership.objects.get(campaign=copy).pk)
    assert set(re.findall(r"/members/(\d+)/reset/", page.content.decode())) <= {own}

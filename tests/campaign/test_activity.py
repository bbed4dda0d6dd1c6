"""The GM activity log: append-only, written in the change's transaction, and its GM page."""

import pytest
from django.contrib import admin
from django.db import connection, transaction
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armies.services.commander_edits import commander_edit
from campaign.activity import activity_for, activity_record, target_url
from campaign.models import Activity, Campaign, Membership

from tests.armies.factories import CommanderFactory
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db

Kind = Activity.Kind


def url(world, **query) -> str:
    base = reverse("campaign:activity", args=[world.campaign.slug])
    return base + ("?" + "&".join(f"{key}={value}" for key, value in query.items()) if query else "")


def line(world, *, actor="gm", kind=Kind.ADJUSTMENT, summary="Something", day=None, **target) -> Activity:
    user = {"gm": world.gm.user, None: None}.get(actor, actor)
    return activity_record(campaign=world.campaign, actor=user, kind=kind, summary=summary, day=day, **target)


# --- append-only ----------------------------------------------------------------------------------------


def test_lines_are_never_changed_or_deleted(world):
    entry = line(world, summary="Adjusted Vey by +5: found a purse")
    with pytest.raises(TypeError, match="append-only"):
        Activity.objects.filter(pk=entry.pk).update(summary="Nothing happened")
    with pytest.raises(TypeError, match="append-only"):
        Activity.objects.filter(pk=entry.pk).delete()
    entry.summary = "Nothing happened"
    with pytest.raises(TypeError, match="append-only"):
        entry.save()
    with pytest.raises(TypeError, match="append-only"):
        entry.delete()
    assert Activity.objects.get().summary == "Adjusted Vey by +5: found a purse"


def test_a_rolled_back_change_leaves_no_line(world):
    class Refused(Exception):
        pass

    with pytest.raises(Refused), transaction.atomic():
        Campaign.objects.filter(pk=world.campaign.pk).update(battle_cooldown_minutes=5)
        line(world, kind=Kind.SETTINGS)
        raise Refused
    assert not Activity.objects.exists()
    assert Campaign.objects.get(pk=world.campaign.pk).battle_cooldown_minutes == 60


def test_a_line_names_who_acted_and_defaults_to_the_current_day(world):
    Campaign.objects.filter(pk=world.campaign.pk).update(current_day=4)
    by_gm = line(world, target=world.campaign)
    by_clock = activity_record(campaign=world.campaign.pk, actor=None, kind=Kind.DAY_END, summary="Day 4 ended")
    assert (by_gm.actor_name, by_gm.day) == ("gm", 1)  # the instance it was given still says day 1
    assert (by_clock.actor_name, by_clock.actor, by_clock.day) == ("schedule", None, 4)
    assert (by_gm.target_type, by_gm.target_id) == ("campaign", world.campaign.pk)


def test_the_admin_shows_the_log_read_only(world, rf: RequestFactory):
    model_admin = admin.site._registry[Activity]
    request = rf.get("/")
    request.user = world.staff
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request, line(world))
    assert not model_admin.has_delete_permission(request, line(world))


# --- what a line links to -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target_type", "expected"),
    [
        ("commander", "/c/siege/armies/7/"),
        ("table", "/c/siege/tables/7/"),
        ("battle", "/c/siege/battles/7/"),
        ("recruitoffer", "/c/siege/armies/"),
        ("dayend", "/c/siege/armies/"),
        ("account", "/c/siege/armies/"),
        ("campaign", "/c/siege/settings/"),
        ("spaceship", ""),
        ("", ""),
    ],
)
def test_a_line_links_to_what_it_is_about_when_that_is_known(world, target_type, expected):
    entry = Activity(campaign=world.campaign, target_type=target_type, target_id=7)
    assert target_url(entry, "siege") == expected


def test_a_page_that_needs_an_id_gets_no_link_without_one(world):
    assert target_url(Activity(campaign=world.campaign, target_type="commander"), "siege") == ""


# --- the page -------------------------------------------------------------------------------------------


@pytest.fixture
def gm_client(client, world):
    client.force_login(world.gm.user)
    return client


def test_the_log_lists_newest_first_with_time_day_who_kind_summary_and_link(gm_client, world):
    line(world, kind=Kind.SETTINGS, summary="Battle cooldown 60 → 90 minutes", target=world.campaign)
    line(world, actor=None, kind=Kind.DAY_END, summary="Day 2 ended", target_type="dayend", target_id=3, day=2)

    html = gm_client.get(url(world)).content.decode()

    assert html.index("Day 2 ended") < html.index("Battle cooldown 60 → 90 minutes")
    assert "schedule" in html and "Day ended" in html and "Campaign settings changed" in html
    assert "day 2" in html and "day 1" in html
    assert f'href="{reverse("campaign:settings", args=["siege"])}">Battle cooldown' in html
    assert f'href="{reverse("armies:list", args=["siege"])}">Day 2 ended' in html
    assert "<time" in html


def test_each_line_is_an_anchor_the_history_links_can_jump_to(gm_client, world):
    entry = line(world, kind=Kind.UNIT_REMOVE, summary="Released Pikemen: their contract ended")
    html = gm_client.get(url(world)).content.decode()
    assert f'id="activity-{entry.pk}"' in html


def test_the_page_has_no_way_to_change_or_remove_a_line(gm_client, world):
    line(world)
    html = gm_client.get(url(world)).content.decode()
    assert 'method="post"' not in html.split('id="activity-log"')[1]
    assert gm_client.post(url(world)).status_code == 405


def test_filters_by_kind_who_and_day(gm_client, world):
    other_gm = MembershipFactory(campaign=world.campaign, role=Membership.Role.GM, user__username="zed")
    line(world, kind=Kind.ADJUSTMENT, summary="A: gm adjusted on day 1")
    line(world, actor=other_gm.user, kind=Kind.SETTINGS, summary="B: zed changed settings on day 1")
    line(world, actor=None, kind=Kind.DAY_END, summary="C: the schedule ended day 1")
    line(world, kind=Kind.ADJUSTMENT, summary="D: gm adjusted on day 2", day=2)

    def shown(**query) -> str:
        html = gm_client.get(url(world, **query)).content.decode()
        return "".join(letter for letter in "ABCD" if f"{letter}: " in html)

    assert shown() == "ABCD"
    assert shown(kind="adjustment") == "AD"
    assert shown(who=other_gm.user_id) == "B"
    assert shown(who=world.gm.user_id) == "AD"
    assert shown(who="schedule") == "C"
    assert shown(day=2) == "D"
    assert shown(kind="adjustment", day=1) == "A"
    assert shown(kind="override") == ""
    assert shown(kind="nonsense") == "ABCD"  # a bad filter is said and ignored
    assert shown(day="x") == "ABCD"


def test_the_filter_offers_the_campaigns_gms_and_the_schedule_only(gm_client, world):
    html = gm_client.get(url(world)).content.decode()
    select = html[html.index('name="who"'):html.index("</select>", html.index('name="who"'))]
    assert f'value="{world.gm.user_id}"' in select and 'value="schedule"' in select
    assert f'value="{world.ann.user_id}"' not in select


def test_a_bad_filter_is_said(gm_client, world):
    html = gm_client.get(url(world, kind="nonsense")).content.decode()
    assert "Select a valid choice" in html


def test_the_log_is_paged_fifty_lines_at_a_time_keeping_the_filters(gm_client, world):
    for number in range(1, 56):
        line(world, summary=f"Line {number:03d}.")
    line(world, kind=Kind.SETTINGS, summary="Settings line.")

    first = gm_client.get(url(world, kind="adjustment")).content.decode()
    assert first.count("Line 0") == 50 and "Line 055." in first and "Line 005." not in first
    assert "page 1 of 2" in first and "?kind=adjustment&amp;page=2" in first

    second = gm_client.get(url(world, kind="adjustment", page=2)).content.decode()
    assert second.count("Line 0") == 5 and "Line 001." in second and "Settings line." not in second
    assert "?kind=adjustment&amp;page=1" in second

    assert "Line 001." in gm_client.get(url(world, kind="adjustment", page=99)).content.decode()  # the last page


def test_htmx_gets_only_the_list(gm_client, world):
    line(world, summary="Only the list")
    html = gm_client.get(url(world), headers={"HX-Request": "true"}).content.decode()
    assert "Only the list" in html and 'id="activity-log"' in html
    assert "<html" not in html and 'name="kind"' not in html


def test_the_page_does_a_fixed_number_of_queries_whatever_the_lines(gm_client, world):
    counts = []
    for total in (3, 40):
        while Activity.objects.count() < total:
            line(world, summary="Adjusted", target_type="commander", target_id=Activity.objects.count() + 1)
        with CaptureQueriesContext(connection) as queries:
            response = gm_client.get(url(world))
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_another_campaigns_lines_are_not_shown(gm_client, world):
    elsewhere = CampaignFactory()
    activity_record(campaign=elsewhere, actor=None, kind=Kind.DAY_END, summary="Elsewhere ended")
    line(world, summary="Here")
    html = gm_client.get(url(world)).content.decode()
    assert "Here" in html and "Elsewhere" not in html
    assert list(activity_for(world.campaign).values_list("summary", flat=True)) == ["Here"]


def test_only_the_gm_reaches_the_log(client, world):
    line(world)

    def status(user):
        client.logout()
        if user is not None:
            client.force_login(user)
        return client.get(url(world)).status_code

    assert status(world.gm.user) == 200
    assert status(world.ann.user) == 403
    assert status(world.outsider) == 404
    assert status(world.staff) == 404
    assert status(None) == 302


# --- one full stop (issue 35) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("summary", "stored"),
    [
        ("Edited Lord Marr: name Lord Marr → Lord Marr Jr..", "Edited Lord Marr: name Lord Marr → Lord Marr Jr."),
        ("Set Spearmen to trained: Quest done!.", "Set Spearmen to trained: Quest done!"),
        ("Set Spearmen to trained: why?.", "Set Spearmen to trained: why?"),
        ("Set Spearmen to trained: we will see....", "Set Spearmen to trained: we will see..."),
        ("Set Spearmen to trained: we will see...", "Set Spearmen to trained: we will see..."),
        ("Opened battle #3, Vey against Marr.", "Opened battle #3, Vey against Marr."),
        ("Started the campaign", "Started the campaign"),
    ],
)
def test_a_summary_never_ends_in_a_doubled_full_stop(world, summary, stored):
    line = activity_record(campaign=world.campaign, actor=world.gm.user, kind=Activity.Kind.SETTINGS, summary=summary)
    assert Activity.objects.get(pk=line.pk).summary == stored


def test_a_name_ending_in_a_full_stop_ends_an_edit_line_once(world):
    marr = CommanderFactory(membership=world.ben, name="Lord Marr")
    commander_edit(commander=marr, gm=world.gm.user, name="Lord Marr Jr.")
    line = Activity.objects.filter(campaign=world.campaign).latest("pk")
    assert line.summary == "Edited Lord Marr: name Lord Marr → Lord Marr Jr."

"""Starting a campaign (issue 23): one service, a page behind the site's creators setting, day 1 and its GM."""

import datetime as dt
from unittest.mock import patch

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from campaign.models import Activity, Campaign, Day, Membership, Submission
from campaign.quotas import QuotaExceeded
from campaign.services import SettingsRefused, campaign_create
from campaign.submissions import AlreadyDone, new_token

from tests.concurrency import race
from tests.factories import UserFactory
from tests.forms import once, tokens_in

pytestmark = pytest.mark.django_db

NEW = reverse("campaign:new")


def filled(**changes) -> dict:
    """The new-campaign form as the page renders it (the defaults), with a name and ``changes`` typed in."""
    fields = {
        "name": "Winter War",
        "description": "",
        "desertion": "most_expensive",
        "time_zone": "UTC",
        "day_end_time": "",
        "battle_cooldown_minutes": "60",
    }
    fields.update(changes)
    return once(**{name: value for name, value in fields.items() if value is not None})


# --- the service ----------------------------------------------------------------------------------------


def test_the_creator_is_the_gm_of_a_campaign_on_day_one_with_the_default_settings_and_a_log_line():
    creator = UserFactory()

    campaign = campaign_create(creator=creator, name="  Winter War ", description="Snow.", time_zone="Europe/Berlin")

    fresh = Campaign.objects.get(pk=campaign.pk)
    assert (fresh.name, fresh.slug, fresh.description, fresh.time_zone) == (
        "Winter War",
        "winter-war",
        "Snow.",
        "Europe/Berlin",
    )
    assert (fresh.current_day, fresh.desertion, fresh.allow_credit, fresh.day_end_time) == (
        1,
        "most_expensive",
        False,
        None,
    )
    assert fresh.battle_cooldown_minutes == 60
    day = Day.objects.get(campaign=campaign)
    assert day.number == 1 and day.is_open
    membership = Membership.objects.get(campaign=campaign)
    assert (membership.user, membership.role) == (creator, Membership.Role.GM)
    line = Activity.objects.get(campaign=campaign)
    assert (line.kind, line.actor, line.day) == (Activity.Kind.CAMPAIGN_NEW, creator, 1)
    assert line.summary == "Started the campaign “Winter War” (time zone Europe/Berlin)"
    assert (line.target_type, line.target_id) == ("campaign", campaign.pk)


def test_the_settings_may_be_given_and_the_time_zone_defaults_to_the_sites(settings):
    settings.TIME_ZONE = "America/New_York"
    campaign = campaign_create(
        creator=UserFactory(),
        name="Siege",
        desertion="cheapest",
        allow_credit=True,
        day_end_time=dt.time(18, 30, 12),
        battle_cooldown_minutes=0,
    )
    fresh = Campaign.objects.get(pk=campaign.pk)
    assert fresh.time_zone == "America/New_York"
    assert (fresh.desertion, fresh.allow_credit, fresh.day_end_time, fresh.battle_cooldown_minutes) == (
        "cheapest",
        True,
        dt.time(18, 30),
        0,
    )


def test_a_clashing_slug_gets_the_next_free_number():
    creator = UserFactory()
    slugs = [campaign_create(creator=creator, name="Winter War").slug for _ in range(3)]
    assert slugs == ["winter-war", "winter-war-2", "winter-war-3"]
    Campaign.objects.filter(slug="winter-war-2").delete()
    assert campaign_create(creator=creator, name="Winter  war!").slug == "winter-war-2"
    # another campaign whose slug merely starts the same is no clash
    assert campaign_create(creator=creator, name="Winter").slug == "winter"


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Élan à Distelblüte", "elan-a-distelblute"),
        ("日本の戦い", "campaign"),
        ("!!!", "campaign"),
        ("x" * 120, "x" * 72),
    ],
)
def test_the_slug_is_plain_ascii_short_enough_for_a_number_and_never_empty(name, slug):
    creator = UserFactory()
    assert campaign_create(creator=creator, name=name).slug == slug
    again = campaign_create(creator=creator, name=name)
    assert again.slug == f"{slug}-2"
    assert reverse("campaign:detail", args=[again.slug])


@pytest.mark.parametrize(
    ("fields", "sentence"),
    [
        ({"time_zone": "Mars/Olympus_Mons"}, "time zone is an IANA name"),
        ({"time_zone": ""}, "time zone is an IANA name"),
        ({"time_zone": "../../etc/passwd"}, "time zone is an IANA name"),
        ({"time_zone": "Europe/Berlin\x00"}, "time zone is an IANA name"),
        ({"time_zone": "localtime"}, "time zone is an IANA name"),
        ({"time_zone": 3}, "time zone is an IANA name"),
        ({"name": " "}, "needs a name"),
        ({"name": "x" * 121}, "at most 120 characters"),
        ({"battle_cooldown_minutes": -1}, "battle cooldown must be between"),
        ({"desertion": "nobody"}, "desertion policy is one of"),
        ({"day_end_time": "18:00"}, "day-end time is a time of day"),
        ({"current_day": 5}, "no campaign setting called current_day"),
    ],
)
def test_bad_settings_are_refused_with_a_sentence_and_nothing_is_made(fields, sentence):
    with pytest.raises(SettingsRefused, match=sentence):
        campaign_create(creator=UserFactory(), **{"name": "Siege", "time_zone": "UTC", **fields})
    assert not Campaign.objects.exists() and not Activity.objects.exists()


def test_a_time_zone_typed_in_another_case_is_stored_as_its_iana_name():
    campaign = campaign_create(creator=UserFactory(), name="Siege", time_zone=" europe/berlin ")
    assert Campaign.objects.get(pk=campaign.pk).time_zone == "Europe/Berlin"


def test_with_staff_creators_only_staff_may_start_a_campaign(settings):
    settings.CAMPAIGN_CREATORS = "staff"
    with pytest.raises(PermissionDenied, match="only staff start campaigns"):
        campaign_create(creator=UserFactory(), name="Siege")
    assert not Campaign.objects.exists()
    staff = UserFactory(is_staff=True)
    assert Membership.objects.get(campaign=campaign_create(creator=staff, name="Siege")).user == staff


def test_the_operator_starts_a_campaign_for_a_gm_whatever_the_creators_setting(settings):
    settings.CAMPAIGN_CREATORS = "staff"
    gm = UserFactory()
    campaign = campaign_create(name="Demo", slug="distelblute", gm=gm)  # load_demo and the benchmarks
    assert campaign.slug == "distelblute"
    assert Membership.objects.get(campaign=campaign).user == gm


def test_a_token_starts_one_campaign():
    creator, token = UserFactory(), new_token()
    first = campaign_create(creator=creator, name="Siege", submission=token)
    with pytest.raises(AlreadyDone) as done:
        campaign_create(creator=creator, name="Siege", submission=token)
    assert done.value.result == first
    assert Campaign.objects.count() == 1 and Activity.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_same_form_sent_twice_at_once_starts_one_campaign():
    creator, token = UserFactory(), new_token()
    results = race([lambda: campaign_create(creator=creator, name="Siege", submission=token)] * 2)
    made = [result for result in results if isinstance(result, Campaign)]
    assert len(made) == 1 and isinstance(next(r for r in results if r not in made), AlreadyDone), results
    assert Campaign.objects.count() == 1 and Membership.objects.count() == 1 and Day.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_campaigns_of_the_same_name_started_at_once_get_two_slugs():
    creators = [UserFactory(), UserFactory()]
    results = race([lambda user=user: campaign_create(creator=user, name="Siege") for user in creators])
    assert all(isinstance(result, Campaign) for result in results), results
    assert sorted(Campaign.objects.values_list("slug", flat=True)) == ["siege", "siege-2"]


# --- the page -------------------------------------------------------------------------------------------


def test_the_home_page_offers_a_new_campaign_to_a_signed_in_user(client):
    client.force_login(UserFactory())
    html = client.get(reverse("campaign:home")).content.decode()
    assert NEW in html and "New campaign" in html
    assert "Ask your GM to add you, or start one of your own" in html


def test_the_form_shows_every_setting_at_its_default_and_a_list_of_time_zones(client, settings):
    settings.TIME_ZONE = "Europe/Berlin"
    client.force_login(UserFactory())
    response = client.get(NEW)
    html = response.content.decode()
    assert response.status_code == 200
    assert len(tokens_in(html)) == 1
    for field in ("name", "description", "desertion", "allow_credit", "time_zone", "day_end_time"):
        assert f'name="{field}"' in html
    assert 'name="battle_cooldown_minutes"' in html and 'value="60"' in html
    assert 'name="time_zone" value="Europe/Berlin"' in html and 'list="time-zones"' in html
    assert '<datalist id="time-zones">' in html and '<option value="America/New_York">' in html


def test_the_form_starts_the_campaign_and_opens_its_gm_home(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(
        NEW,
        filled(name="Winter War", time_zone="Europe/Berlin", day_end_time="20:00", allow_credit="on"),
        follow=True,
    )
    campaign = Campaign.objects.get()
    assert response.redirect_chain[-1][0] == reverse("campaign:detail", args=[campaign.slug])
    html = response.content.decode()
    assert "Winter War is started" in html and "First steps" in html
    assert (campaign.time_zone, campaign.day_end_time, campaign.allow_credit) == (
        "Europe/Berlin",
        dt.time(20),
        True,
    )
    assert Membership.objects.get(campaign=campaign).user == user


def test_a_double_submit_starts_one_campaign(client):
    client.force_login(UserFactory())
    data = filled(name="Winter War")
    first = client.post(NEW, data)
    second = client.post(NEW, data, follow=True)
    campaign = Campaign.objects.get()
    assert first.status_code == 302
    assert second.redirect_chain[-1][0] == reverse("campaign:detail", args=[campaign.slug])
    assert "Already done: Winter War was started by this form before." in second.content.decode()
    assert Activity.objects.count() == 1 and Submission.objects.count() == 1


def test_a_post_without_its_token_is_refused_with_a_sentence(client):
    client.force_login(UserFactory())
    data = filled()
    data.pop("submission")
    response = client.post(NEW, data)
    assert response.status_code == 200 and "one-time token" in response.content.decode()
    assert not Campaign.objects.exists()


@pytest.mark.parametrize(
    ("changes", "sentence"),
    [
        ({"name": ""}, "This field is required"),
        ({"name": "x" * 100_000}, "at most 120 characters"),
        ({"name": "Siege\x00"}, "Null characters are not allowed"),
        ({"description": "x" * 2_001}, "at most 2000 characters"),
        ({"time_zone": "Mars/Olympus_Mons"}, "This site does not know that time zone"),
        ({"time_zone": ""}, "This field is required"),
        ({"time_zone": "Europe/" + "x" * 5_000}, "at most 64 characters"),
        ({"time_zone": "Europe/Berlin\x00"}, "Null characters are not allowed"),
        ({"day_end_time": "25:61"}, "Enter a time of day such as 18:00"),
        ({"day_end_time": "\x00"}, "Enter a time of day such as 18:00"),
        ({"battle_cooldown_minutes": "9" * 400}, "less than or equal to"),
        ({"battle_cooldown_minutes": "sixty"}, "Enter a whole number"),
        ({"battle_cooldown_minutes": "-1"}, "greater than or equal to 0"),
        ({"desertion": ["cheapest", "nobody"]}, "Select a valid choice"),
        ({"desertion": "\U0001f480"}, "Select a valid choice"),
    ],
)
def test_bad_input_shows_the_form_again_with_a_sentence_and_starts_nothing(client, changes, sentence):
    client.force_login(UserFactory())
    response = client.post(NEW, filled(**changes))
    assert response.status_code == 200
    assert sentence in response.content.decode()
    assert not Campaign.objects.exists()


@pytest.mark.parametrize(
    "name",
    ["Die Belagerung von Distelblüte", "日本の戦い", "\U0001f480 Skull Keep", "<script>alert(1)</script>", "'; DROP"],
)
def test_any_printable_name_starts_a_campaign_and_reads_back_as_typed(client, name):
    client.force_login(UserFactory())
    response = client.post(NEW, filled(name=name), follow=True)
    assert response.status_code == 200
    campaign = Campaign.objects.get()
    assert campaign.name == name
    assert "<script>alert(1)</script>" not in response.content.decode()


def test_a_body_that_is_no_form_is_answered_with_the_form_not_a_500(client):
    client.force_login(UserFactory())
    response = client.post(NEW, data=b"\x00\xff" * 1000, content_type="application/octet-stream")
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    response = client.post(NEW, data='{"name": "Siege"}', content_type="application/json")
    assert response.status_code == 200
    assert not Campaign.objects.exists()


def test_other_methods_are_not_allowed(client):
    client.force_login(UserFactory())
    assert client.put(NEW).status_code == 405 and client.delete(NEW).status_code == 405


# --- who may -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_anonymous_visitor_is_sent_to_log_in(client, method):
    response = getattr(client, method)(NEW, filled())
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not Campaign.objects.exists()


@pytest.mark.parametrize("method", ["get", "post"])
def test_with_staff_creators_a_user_is_refused_with_a_sentence_and_sees_no_button(client, settings, method):
    settings.CAMPAIGN_CREATORS = "staff"
    client.force_login(UserFactory())
    response = getattr(client, method)(NEW, filled())
    assert response.status_code == 403
    assert "only staff start campaigns" in response.content.decode()
    assert not Campaign.objects.exists()
    home = client.get(reverse("campaign:home")).content.decode()
    assert NEW not in home and "New campaign" not in home
    assert "Ask your GM to add you." in home


def test_with_staff_creators_staff_start_campaigns(client, settings):
    settings.CAMPAIGN_CREATORS = "staff"
    client.force_login(UserFactory(is_staff=True))
    assert NEW in client.get(reverse("campaign:home")).content.decode()
    assert client.post(NEW, filled()).status_code == 302
    assert Campaign.objects.count() == 1


def test_the_page_is_private_and_not_stored(client):
    client.force_login(UserFactory())
    response = client.get(NEW)
    assert response.status_code == 200
    assert {"private", "no-store"} <= {part.strip() for part in response["Cache-Control"].split(",")}


# --- the quota (issue 34: one account started 20 campaigns in 0.8 s) -----------------------------------


def test_the_campaign_past_the_hourly_quota_is_refused_with_when_to_try_again(client, settings):
    settings.CAMPAIGNS_PER_HOUR, settings.CAMPAIGNS_PER_DAY = 3, 10
    starter, other = UserFactory(), UserFactory()
    client.force_login(starter)
    for n in range(3):
        assert client.post(NEW, filled(name=f"War {n}")).status_code == 302
    refused = client.post(NEW, filled(name="War 3"))
    page = refused.content.decode()
    assert refused.status_code == 429
    assert "at most 3 new campaigns an hour" in page and "try again in 60 minutes" in page
    assert Campaign.objects.filter(memberships__user=starter).count() == 3
    client.force_login(other)  # another account is not affected
    assert client.post(NEW, filled(name="Other War")).status_code == 302


def test_the_daily_quota_counts_the_last_day_and_says_when_the_oldest_leaves_it(settings):
    creator = UserFactory()
    started = timezone.now()
    for hours in [23, 22, 3, 2]:  # the log is append-only: the clock is moved instead
        with patch("django.utils.timezone.now", return_value=started - dt.timedelta(hours=hours)):
            campaign_create(creator=creator, name=f"Old war {hours}")
    settings.CAMPAIGNS_PER_HOUR, settings.CAMPAIGNS_PER_DAY = 2, 4
    with pytest.raises(QuotaExceeded, match="at most 4 new campaigns a day; try again in 60 minutes"):
        campaign_create(creator=creator, name="One too many")


def test_staff_and_the_operator_have_no_campaign_quota(settings):
    settings.CAMPAIGNS_PER_HOUR = 1
    staff = UserFactory(is_staff=True)
    player = UserFactory()
    for n in range(3):
        campaign_create(creator=staff, name=f"Staff war {n}")
        campaign_create(gm=player, name=f"Demo war {n}")
    with pytest.raises(QuotaExceeded):
        campaign_create(creator=player, name="Mine")

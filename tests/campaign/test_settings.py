"""Campaign settings: the GM changes them on a page (no admin), through one service, with a log line."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from campaign.bounds import MAX_COOLDOWN_MINUTES
from campaign.models import Activity, Campaign
from campaign.services import SettingsRefused, campaign_settings_update
from campaign.submissions import AlreadyDone, new_token

from tests.forms import once, tokens_in

pytestmark = pytest.mark.django_db


def url(world) -> str:
    return reverse("campaign:settings", args=[world.campaign.slug])


def posted(campaign, **changes) -> dict:
    """The settings form as the page renders it for ``campaign``, with ``changes`` typed in."""
    fields = {
        "name": campaign.name,
        "description": campaign.description,
        "desertion": campaign.desertion,
        "time_zone": campaign.time_zone,
        "day_end_time": campaign.day_end_time.strftime("%H:%M") if campaign.day_end_time else "",
        "battle_cooldown_minutes": str(campaign.battle_cooldown_minutes),
    }
    if campaign.allow_credit:
        fields["allow_credit"] = "on"
    fields.update(changes)
    return once(**{name: value for name, value in fields.items() if value is not None})


# --- the service ----------------------------------------------------------------------------------------


def test_changes_are_saved_and_logged_once_in_words_with_before_and_after(world):
    campaign = world.campaign
    assert (campaign.desertion, campaign.battle_cooldown_minutes) == ("most_expensive", 60)

    line = campaign_settings_update(
        campaign=campaign, gm=world.gm.user, desertion="cheapest", battle_cooldown_minutes=90, allow_credit=False
    )

    fresh = Campaign.objects.get(pk=campaign.pk)
    assert (fresh.desertion, fresh.battle_cooldown_minutes, fresh.allow_credit) == ("cheapest", 90, False)
    assert Activity.objects.get() == line
    assert line.kind == Activity.Kind.SETTINGS and line.actor == world.gm.user
    assert line.summary == "Desertion policy: most expensive → cheapest; battle cooldown 60 → 90 minutes"
    assert line.details.pop("said")  # its words (issue 41); the rest as before
    assert line.details == {
        "before": {"desertion": "most_expensive", "battle_cooldown_minutes": 60},
        "after": {"desertion": "cheapest", "battle_cooldown_minutes": 90},
    }
    assert (line.target_type, line.target_id) == ("campaign", campaign.pk)


def test_every_setting_reads_in_words(world):
    old_name = world.campaign.name
    line = campaign_settings_update(
        campaign=world.campaign,
        gm=world.gm.user,
        name="Winter Siege",
        description="Snow.",
        allow_credit=True,
        day_end_time=dt.time(18, 30),
    )
    assert line.summary == (
        f"Name: “{old_name}” → “Winter Siege”; description rewritten; allow credit: no → yes; "
        "day-end time: none → 18:30 UTC"
    )
    assert line.details["after"]["day_end_time"] == "18:30:00"
    fresh = Campaign.objects.get(pk=world.campaign.pk)
    assert (fresh.name, fresh.description, fresh.allow_credit, fresh.day_end_time) == (
        "Winter Siege",
        "Snow.",
        True,
        dt.time(18, 30),
    )


def test_only_the_changed_fields_are_saved(world):
    other = Campaign.objects.get(pk=world.campaign.pk)
    other.description = "Written meanwhile by someone else"
    other.save(update_fields=["description"])  # the GM's page still shows the old description

    campaign_settings_update(campaign=world.campaign, gm=world.gm.user, battle_cooldown_minutes=5)

    fresh = Campaign.objects.get(pk=world.campaign.pk)
    assert fresh.battle_cooldown_minutes == 5 and fresh.description == "Written meanwhile by someone else"


def test_nothing_changed_writes_nothing(world):
    campaign = world.campaign
    result = campaign_settings_update(
        campaign=campaign,
        gm=world.gm.user,
        name=campaign.name,
        desertion=campaign.desertion,
        battle_cooldown_minutes=campaign.battle_cooldown_minutes,
        day_end_time=None,
    )
    assert result is None
    assert not Activity.objects.exists()


@pytest.mark.parametrize(
    ("fields", "sentence"),
    [
        ({"battle_cooldown_minutes": -1}, "battle cooldown must be between 0 and"),
        ({"battle_cooldown_minutes": MAX_COOLDOWN_MINUTES + 1}, "battle cooldown must be between 0 and"),
        ({"battle_cooldown_minutes": "90"}, "must be a whole number"),
        ({"desertion": "nobody"}, "desertion policy is one of"),
        ({"day_end_time": "25:00"}, "day-end time is a time of day"),
        ({"name": "  "}, "needs a name"),
        ({"name": "x" * 121}, "at most 120 characters"),
        ({"allow_credit": "yes"}, "yes or no"),
        ({"time_zone": "Mars/Olympus_Mons"}, "time zone is an IANA name"),
        ({"time_zone": None}, "time zone is an IANA name"),
        ({"current_day": 9}, "no campaign setting called current_day"),
    ],
)
def test_bad_settings_are_refused_with_a_sentence_and_nothing_is_saved(world, fields, sentence):
    with pytest.raises(SettingsRefused, match=sentence):
        campaign_settings_update(campaign=world.campaign, gm=world.gm.user, **{"desertion": "cheapest", **fields})
    fresh = Campaign.objects.get(pk=world.campaign.pk)
    assert fresh.desertion == "most_expensive" and fresh.battle_cooldown_minutes == 60
    assert not Activity.objects.exists()


def test_the_bounds_themselves_are_accepted(world):
    for minutes in (0, MAX_COOLDOWN_MINUTES):
        campaign_settings_update(campaign=world.campaign, gm=world.gm.user, battle_cooldown_minutes=minutes)
        assert Campaign.objects.get(pk=world.campaign.pk).battle_cooldown_minutes == minutes


def test_only_a_gm_of_the_campaign_may_change_it(world):
    with pytest.raises(PermissionDenied):
        campaign_settings_update(campaign=world.campaign, gm=world.ann.user, battle_cooldown_minutes=5)
    assert Campaign.objects.get(pk=world.campaign.pk).battle_cooldown_minutes == 60
    assert not Activity.objects.exists()


def test_a_token_is_applied_once(world):
    token = new_token()
    first = campaign_settings_update(
        campaign=world.campaign, gm=world.gm.user, battle_cooldown_minutes=90, submission=token
    )
    with pytest.raises(AlreadyDone) as done:
        campaign_settings_update(
            campaign=world.campaign, gm=world.gm.user, battle_cooldown_minutes=120, submission=token
        )
    assert done.value.result == first
    assert Campaign.objects.get(pk=world.campaign.pk).battle_cooldown_minutes == 90
    assert Activity.objects.count() == 1


def test_the_time_zone_is_a_setting_and_the_day_end_time_reads_in_its_zone(world):
    line = campaign_settings_update(
        campaign=world.campaign, gm=world.gm.user, time_zone="europe/berlin", day_end_time=dt.time(20)
    )
    assert line.summary == "Time zone: UTC → Europe/Berlin; day-end time: none → 20:00 Europe/Berlin"
    assert line.details["after"] == {"time_zone": "Europe/Berlin", "day_end_time": "20:00:00"}
    line = campaign_settings_update(campaign=world.campaign, gm=world.gm.user, time_zone="Asia/Tokyo")
    assert line.summary == "Time zone: Europe/Berlin → Asia/Tokyo"
    assert Campaign.objects.get(pk=world.campaign.pk).time_zone == "Asia/Tokyo"


# --- the page -------------------------------------------------------------------------------------------


def test_the_gm_sees_the_settings_with_utc_said_and_the_rulebook_hour(client, world):
    client.force_login(world.gm.user)
    response = client.get(url(world))
    html = response.content.decode()
    assert response.status_code == 200
    assert len(tokens_in(html)) == 1
    assert "UTC" in html and "1 hour" in html
    assert 'name="battle_cooldown_minutes"' in html and 'value="60"' in html
    assert 'name="desertion"' in html and 'name="allow_credit"' in html and 'name="day_end_time"' in html


def test_the_gm_saves_the_settings_and_is_told_what_changed(client, world):
    client.force_login(world.gm.user)
    response = client.post(
        url(world), posted(world.campaign, desertion="all_used", battle_cooldown_minutes="0", day_end_time="18:00"),
        follow=True,
    )
    html = response.content.decode()
    assert "Settings saved." in html and "battle cooldown 60 → 0 minutes" in html
    fresh = Campaign.objects.get(pk=world.campaign.pk)
    assert (fresh.desertion, fresh.battle_cooldown_minutes, fresh.day_end_time) == ("all_used", 0, dt.time(18))
    assert Activity.objects.get().actor == world.gm.user


def test_the_page_shows_the_campaigns_zone_and_its_clock_and_changes_the_zone(client, world, monkeypatch):
    Campaign.objects.filter(pk=world.campaign.pk).update(time_zone="Europe/Berlin", day_end_time=dt.time(20))
    world.campaign.refresh_from_db()
    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2030, 7, 1, 10, 5, tzinfo=dt.UTC))
    client.force_login(world.gm.user)
    html = client.get(url(world)).content.decode()
    assert "Times are in the campaign's time zone, Europe/Berlin, where it is now 12:05 (1 Jul)" in html
    assert 'name="time_zone" value="Europe/Berlin"' in html and 'name="day_end_time" value="20:00"' in html
    assert '<datalist id="time-zones">' in html

    html = client.post(url(world), posted(world.campaign, time_zone="America/New_York"), follow=True).content.decode()
    assert "Time zone: Europe/Berlin → America/New_York" in html
    assert "America/New_York, where it is now 06:05" in html
    fresh = Campaign.objects.get(pk=world.campaign.pk)
    assert (fresh.time_zone, fresh.day_end_time) == ("America/New_York", dt.time(20))


def test_sending_the_form_unchanged_says_nothing_to_change(client, world):
    client.force_login(world.gm.user)
    html = client.post(url(world), posted(world.campaign), follow=True).content.decode()
    assert "Nothing to change" in html
    assert not Activity.objects.exists()


def test_clearing_the_day_end_time_and_credit_are_changes(client, world):
    Campaign.objects.filter(pk=world.campaign.pk).update(day_end_time=dt.time(6), allow_credit=True)
    world.campaign.refresh_from_db()
    data = posted(world.campaign, day_end_time="")
    data.pop("allow_credit")  # an unticked box is not posted
    client.force_login(world.gm.user)
    client.post(url(world), data)
    fresh = Campaign.objects.get(pk=world.campaign.pk)
    assert fresh.day_end_time is None and fresh.allow_credit is False
    assert "day-end time: 06:00 UTC → none" in Activity.objects.get().summary


@pytest.mark.parametrize(
    ("changes", "sentence"),
    [
        ({"battle_cooldown_minutes": str(MAX_COOLDOWN_MINUTES + 1)}, "less than or equal to"),
        ({"battle_cooldown_minutes": "-5"}, "greater than or equal to 0"),
        ({"day_end_time": "25:61"}, "Enter a time of day such as 18:00"),
        ({"time_zone": "Mars/Olympus_Mons"}, "This site does not know that time zone"),
        ({"time_zone": "Europe/Berlin\x00"}, "Null characters are not allowed"),
        ({"desertion": "nobody"}, "Select a valid choice"),
        ({"name": ""}, "This field is required"),
    ],
)
def test_bad_input_shows_the_form_again_with_a_sentence_and_saves_nothing(client, world, changes, sentence):
    client.force_login(world.gm.user)
    response = client.post(url(world), posted(world.campaign, **changes))
    assert response.status_code == 200
    assert sentence in response.content.decode()
    fresh = Campaign.objects.get(pk=world.campaign.pk)
    assert fresh.battle_cooldown_minutes == 60 and fresh.day_end_time is None and fresh.name == world.campaign.name
    assert fresh.time_zone == "UTC"
    assert not Activity.objects.exists()


def test_a_repeated_post_is_applied_once(client, world):
    client.force_login(world.gm.user)
    data = posted(world.campaign, battle_cooldown_minutes="90")
    client.post(url(world), data)
    data["battle_cooldown_minutes"] = "120"
    html = client.post(url(world), data, follow=True).content.decode()
    assert "Already done" in html
    assert Campaign.objects.get(pk=world.campaign.pk).battle_cooldown_minutes == 90
    assert Activity.objects.count() == 1


def test_a_post_without_its_token_is_refused(client, world):
    client.force_login(world.gm.user)
    data = posted(world.campaign, battle_cooldown_minutes="90")
    data.pop("submission")
    html = client.post(url(world), data).content.decode()
    assert "one-time token" in html
    assert Campaign.objects.get(pk=world.campaign.pk).battle_cooldown_minutes == 60


@pytest.mark.parametrize("method", ["get", "post"])
def test_only_the_gm_reaches_the_settings(client, world, method):
    def status(user):
        client.logout()
        if user is not None:
            client.force_login(user)
        return getattr(client, method)(url(world), posted(world.campaign, battle_cooldown_minutes="5")).status_code

    assert status(world.ann.user) == 403
    assert status(world.outsider) == 404
    assert status(world.staff) == 404
    assert status(None) == 302  # to the login page
    assert Campaign.objects.get(pk=world.campaign.pk).battle_cooldown_minutes == 60


def test_the_gm_home_links_to_settings_and_the_activity_log(client, world):
    client.force_login(world.gm.user)
    html = client.get(reverse("campaign:detail", args=[world.campaign.slug])).content.decode()
    assert url(world) in html and reverse("campaign:activity", args=[world.campaign.slug]) in html
    client.force_login(world.ann.user)
    html = client.get(reverse("campaign:detail", args=[world.campaign.slug])).content.decode()
    assert url(world) not in html

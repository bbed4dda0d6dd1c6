"""The activity log's lines in the reader's language (issue 41): a line kept as words (``Line``) is said in
the page's language, its English kept as the summary; a line kept before, or words that cannot be said, read
as the English; the clock is "schedule" in the reader's language."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_noop

from campaign.activity import Line, activity_record, actor_said, line_said
from campaign.models import Activity

from tests.catalogs import write_catalog

pytestmark = pytest.mark.django_db
OPENED = gettext_noop("Opened %(title)s: %(seats)s.")
AND = gettext_noop("%(first)s and %(rest)s")


@pytest.fixture
def french(locale_dir):
    write_catalog(locale_dir, "fr", {OPENED: "Ouvert %(title)s : %(seats)s.", AND: "%(first)s et %(rest)s",
                                     "schedule": "horloge"})
    return locale_dir


def test_a_line_kept_as_words_is_said_in_the_pages_language(client, world, french):
    line = Line(OPENED, title="Siege", seats=Line(AND, first="Ann", rest="Ben"))
    entry = activity_record(campaign=world.campaign, actor=world.gm.user, kind=Activity.Kind.TABLE_NEW, summary=line)
    assert entry.summary == "Opened Siege: Ann and Ben."
    assert entry.details["said"]["values"]["seats"] == {"text": AND, "values": {"first": "Ann", "rest": "Ben"}}
    client.force_login(world.gm.user)
    french_page = client.get(reverse("campaign:activity", args=[world.campaign.slug]), HTTP_ACCEPT_LANGUAGE="fr")
    english_page = client.get(reverse("campaign:activity", args=[world.campaign.slug]), HTTP_ACCEPT_LANGUAGE="en")
    assert (french_page.status_code, english_page.status_code) == (200, 200)
    assert "Ouvert Siege : Ann et Ben." in french_page.content.decode()
    assert "Opened Siege: Ann and Ben." in english_page.content.decode()


@pytest.mark.parametrize(
    "said",
    [
        None,
        {"text": OPENED, "values": {"title": "Siege"}},  # a value lost
        {"text": 3},
        "words",
        {"text": "%(x)d", "values": {"x": "a"}},  # a value of the wrong kind (an archive's)
    ],
)
def test_a_line_without_words_or_with_words_that_cannot_be_said_is_its_english(world, said):
    details = {} if said is None else {"said": said}
    entry = Activity.objects.create(campaign=world.campaign, actor_name="gm", day=1, kind="settings",
                                    summary="Changed the settings.", details=details)
    assert line_said(entry) == "Changed the settings."


def test_the_clock_is_named_in_the_readers_language(world, french, settings):
    entry = activity_record(campaign=world.campaign, actor=None, kind=Activity.Kind.DAY_END, summary="Day 1 ended.")
    with translation.override("fr"):
        assert actor_said(entry) == "horloge"
    assert actor_said(entry) == "schedule"

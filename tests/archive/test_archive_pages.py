"""The archive's pages: the GM's download (streamed, noted in the log) and the upload (refusals shown,
nothing written)."""

from __future__ import annotations

import gzip
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from archive import views
from archive.compare import archives_differences
from archive.format import read_archive
from campaign.models import Activity, Campaign, Membership
from campaign.submissions import new_token

from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def test_the_gm_downloads_the_archive_and_the_log_says_so(client, full_campaign, exported):
    world = full_campaign
    client.force_login(world.gm.user)
    page = client.get(reverse("archive:page", args=["siege"]))
    assert page.status_code == 200 and "every hidden card of every table" in page.content.decode()
    response = client.post(reverse("archive:download", args=["siege"]))
    assert response.status_code == 200 and response.streaming
    assert response["Content-Type"] == "application/gzip" and "attachment" in response["Content-Disposition"]
    assert "no-store" in response["Cache-Control"]
    data = b"".join(response.streaming_content)
    reader = read_archive(io.BytesIO(data))
    assert reader.header["campaign"] == "siege" and len(list(reader)) > 10
    line = Activity.objects.get(kind=Activity.Kind.ARCHIVE_EXPORT)
    assert line.actor == world.gm.user and line.campaign == world.campaign
    # the streamed file holds what the command writes (the download's own line included: it is written first)
    assert archives_differences(io.BytesIO(data), io.BytesIO(exported(world.campaign))) == []


def test_the_gm_of_another_campaign_gets_404(client, world):
    other = MembershipFactory(campaign=CampaignFactory(slug="elsewhere"), role=Membership.Role.GM)
    client.force_login(other.user)
    assert client.get(reverse("archive:page", args=["siege"])).status_code == 404
    assert client.post(reverse("archive:download", args=["siege"])).status_code == 404
    assert client.get(reverse("archive:page", args=["elsewhere"])).status_code == 200


def upload(client, data: bytes, token: str | None = None):
    return client.post(reverse("archive:import"), {
        "archive": SimpleUploadedFile("siege.muster.jsonl.gz", data, content_type="application/gzip"),
        "submission": token or new_token(),
    })


def test_an_upload_makes_a_new_campaign_once(client, full_campaign, exported):
    world = full_campaign
    data = exported(world.campaign)
    client.force_login(world.gm.user)
    token = new_token()
    response = upload(client, data, token)
    assert response.status_code == 302 and response["Location"] == reverse("campaign:detail", args=["siege-2"])
    again = upload(client, data, token)  # the same form sent twice
    assert again.status_code == 302 and Campaign.objects.count() == 2


def test_a_refused_upload_shows_its_sentence_and_writes_nothing(client, full_campaign, exported):
    world = full_campaign
    data = exported(world.campaign)
    client.force_login(world.ann.user)
    before = Campaign.objects.count(), Activity.objects.count()
    truncated = upload(client, gzip.compress(gzip.decompress(data)[:-50]))
    assert truncated.status_code == 400
    assert "The file ends before its last line: it is truncated. Nothing was imported." in truncated.content.decode()
    assert (Campaign.objects.count(), Activity.objects.count()) == before


def test_a_too_big_upload_is_refused_before_it_is_read(client, world, monkeypatch):
    monkeypatch.setattr(views, "MAX_UPLOAD_BYTES", 10)
    client.force_login(world.gm.user)
    response = upload(client, b"x" * (100 * 1024))
    assert response.status_code == 413 and "Nothing was imported" in response.content.decode()


def test_only_those_who_may_start_campaigns_upload(client, world, settings):
    settings.CAMPAIGN_CREATORS = "staff"
    client.force_login(world.gm.user)
    assert client.get(reverse("archive:import")).status_code == 403
    client.force_login(world.staff)
    assert client.get(reverse("archive:import")).status_code == 200

"""The archive's pages: the GM's download (streamed, noted in the log) and the upload, which becomes a job
whose page shows its progress and then its result (refusals shown, nothing written)."""

from __future__ import annotations

import gzip
import io

import pytest
from celery import current_app
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from archive import jobs, views
from archive.compare import archives_differences
from archive.format import read_archive
from archive.jobs import IMPORT_CAMPAIGN
from archive.models import ImportJob
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


def upload_and_run(client, capture, data: bytes, token: str | None = None):
    """The upload, with its job's task run as Celery runs it without Redis (eagerly, once the job commits)."""
    with capture(execute=True):
        return upload(client, data, token)


def test_an_upload_becomes_a_job_whose_page_shows_the_new_campaign_once(
        client, full_campaign, exported, django_capture_on_commit_callbacks):
    world = full_campaign
    data = exported(world.campaign)
    client.force_login(world.gm.user)
    token = new_token()
    response = upload_and_run(client, django_capture_on_commit_callbacks, data, token)
    job = ImportJob.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("archive:job", args=[job.pk])
    page = client.get(response["Location"])
    copy = Campaign.objects.get(slug="siege-2")
    assert page.status_code == 200
    text = page.content.decode()
    assert reverse("campaign:detail", args=["siege-2"]) in text and "is imported: you are its GM." in text
    assert "hx-trigger" not in text  # an ended job stops polling
    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE and job.campaign == copy and bytes(job.data) == b""
    assert len(job.claims) == 2 and "2 members have invites to claim their place" in text  # Ann and Ben
    again = upload_and_run(client, django_capture_on_commit_callbacks, data, token)  # the same form sent twice
    assert again.status_code == 302 and again["Location"] == reverse("archive:job", args=[job.pk])
    assert Campaign.objects.count() == 2 and ImportJob.objects.count() == 1


def test_a_refused_upload_shows_its_sentence_on_its_page_and_writes_nothing(
        client, full_campaign, exported, django_capture_on_commit_callbacks):
    world = full_campaign
    data = exported(world.campaign)
    client.force_login(world.ann.user)
    before = Campaign.objects.count(), Activity.objects.count()
    truncated = upload_and_run(client, django_capture_on_commit_callbacks, gzip.compress(gzip.decompress(data)[:-50]))
    assert truncated.status_code == 302
    page = client.get(truncated["Location"])
    assert page.status_code == 200
    assert "The file ends before its last line: it is truncated. Nothing was imported." in page.content.decode()
    assert (Campaign.objects.count(), Activity.objects.count()) == before
    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.REFUSED and bytes(job.data) == b"" and job.finished_at is not None


def test_a_running_job_polls_and_only_its_importer_and_staff_see_it(client, full_campaign, exported):
    world = full_campaign
    client.force_login(world.gm.user)
    response = upload(client, exported(world.campaign))  # its task not run: the job waits
    url = response["Location"]
    page = client.get(url)
    assert page.status_code == 200 and 'hx-trigger="every 1s"' in page.content.decode()
    region = client.get(url, headers={"HX-Request": "true"})
    assert region.status_code == 200 and region.content.decode().lstrip().startswith('<div id="import-job"')
    assert "Waiting to start" in region.content.decode()
    client.force_login(world.ann.user)
    assert client.get(url).status_code == 404
    assert client.get(reverse("archive:job", args=[999_999])).status_code == 404
    client.force_login(world.staff)
    assert client.get(url).status_code == 200


def test_one_import_at_a_time_per_account_and_imports_count_against_the_quota_of_new_campaigns(
        client, full_campaign, exported, settings, django_capture_on_commit_callbacks):
    world = full_campaign
    data = exported(world.campaign)
    client.force_login(world.gm.user)
    waiting = upload(client, data)  # its task not run: the job is still queued
    assert waiting.status_code == 302
    second = upload(client, data)
    assert second.status_code == 429 and "An import of yours is still running" in second.content.decode()
    assert ImportJob.objects.count() == 1
    client.force_login(world.ann.user)  # somebody else's import is not held up
    settings.CAMPAIGNS_PER_HOUR = 1
    assert upload_and_run(client, django_capture_on_commit_callbacks, data).status_code == 302
    assert Campaign.objects.filter(memberships__user=world.ann.user, memberships__role="gm").count() == 1
    over = upload(client, data)  # Ann's one campaign of the hour was that import
    assert over.status_code == 429 and "at most 1 new campaign an hour" in over.content.decode()
    assert ImportJob.objects.count() == 2


def test_the_task_is_sent_by_name_and_runs_the_job_once(full_campaign, exported, imported):
    world = full_campaign
    job = ImportJob.objects.create(importer=world.gm.user, data=exported(world.campaign), file_name="siege.gz")
    task = current_app.tasks[IMPORT_CAMPAIGN]
    assert task.delay(job.pk).get() == ImportJob.Status.DONE
    assert task.delay(job.pk).get() == ImportJob.Status.DONE  # delivered twice: the second finds it done
    assert Campaign.objects.filter(slug__startswith="siege").count() == 2


def test_the_job_shows_each_phase_as_it_goes(full_campaign, exported, monkeypatch):
    world = full_campaign
    seen = []
    real = jobs._Watch.__call__

    def watch(self, phase, done, total):
        real(self, phase, done, total)
        seen.append(ImportJob.objects.values_list("status", "total").get(pk=self.job_id))

    monkeypatch.setattr(jobs._Watch, "__call__", watch)
    job = ImportJob.objects.create(importer=world.gm.user, data=exported(world.campaign))
    assert jobs.import_job_run(job.pk) == ImportJob.Status.DONE
    statuses = [status for status, _ in seen]
    assert statuses[0] == "checking" and "replaying" in statuses and statuses[-1] == "writing"
    records = archive_lines_count(exported(world.campaign))
    assert seen[-1] == ("writing", records)


def archive_lines_count(data: bytes) -> int:
    return len(gzip.decompress(data).splitlines()) - 2  # the header and the trailer are not records


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

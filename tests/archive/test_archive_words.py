"""An archive's refusal is kept as words, not as a sentence (issue 41): the upload's job runs in a worker that
knows no reader, so it keeps the English message and its values, and the job's page says them in the
language of whoever reads it. A stand-in catalog (every message in brackets) shows which words were looked up."""

from __future__ import annotations

import gzip

import pytest
from django.urls import reverse

from archive import format as archive_format
from archive import records
from archive.format import TRUNCATED, ArchiveRefused
from archive.jobs import NOTHING_IMPORTED, import_job_run
from archive.models import ImportJob

pytestmark = pytest.mark.django_db


def looked_up(message: str) -> str:
    return f"[{message}]"


def test_a_refusal_carries_its_message_and_values_and_says_them_in_a_language_it_is_given():
    refusal = ArchiveRefused("Line %(line)d nests too deep.", line=7)
    assert refusal.sentence == "Line 7 nests too deep."  # the English one: the logs, the job's record
    assert str(refusal) == "Line 7 nests too deep."
    assert refusal.words() == ["Line %(line)d nests too deep.", {"line": 7}]
    assert refusal.say(looked_up) == "[Line 7 nests too deep.]"  # the message looked up, then filled
    # a value that is a list holds words of its own (a unit card's differing fields), said the same way
    card = ArchiveRefused(
        "Card %(code)s differs (%(fields)s).",
        code="'P1'",
        fields=[["%(field)s %(value)s here", {"field": "price", "value": 3}], ["role", {}]],
    )
    assert str(card) == "Card 'P1' differs (price 3 here, role)."
    assert card.say(looked_up) == "[Card 'P1' differs ([price 3 here], [role]).]"


def test_what_a_refusal_calls_a_record_is_said_in_the_readers_language_too():
    with pytest.raises(ArchiveRefused) as refused:
        records.str_of({"kind": "commander"}, "name", what=records.named("seat %(id)s", id=7))
    assert str(refused.value) == "The archive's seat 7 has no valid 'name'."
    assert refused.value.say(looked_up) == "[The archive's [seat 7] has no valid 'name'.]"


def test_the_jobs_page_says_its_refusal_in_the_readers_language(client, full_campaign, exported, monkeypatch):
    world = full_campaign
    data = gzip.compress(gzip.decompress(exported(world.campaign))[:-50])  # truncated
    job = ImportJob.objects.create(importer=world.gm.user, data=data, size=len(data), file_name="siege.gz")
    assert import_job_run(job.pk) == ImportJob.Status.REFUSED
    job.refresh_from_db()
    assert job.refusal == f"{TRUNCATED} {NOTHING_IMPORTED}"  # English, as the record
    assert job.refusal_words == [[TRUNCATED, {}], [NOTHING_IMPORTED, {}]]  # plain data, no sentence of a language
    monkeypatch.setattr(archive_format, "gettext", looked_up)
    client.force_login(world.gm.user)
    page = client.get(reverse("archive:job", args=[job.pk])).content.decode()
    assert f"[{TRUNCATED}] [{NOTHING_IMPORTED}]" in page

"""The import's write pass (archive/importer.py, issue 34): short transactions into a campaign nobody sees
until one last transaction shows it; a failure, or an import whose process died, leaves no row behind."""

from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import sys
from dataclasses import replace
from datetime import time, timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import DatabaseError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from archive import sections
from archive.backup import backup_manifest, backup_run
from archive.discard import INTERRUPTED, import_sweep, owned_models
from archive.format import ArchiveRefused
from archive.jobs import import_job_run
from archive.models import ImportJob
from armies.schedule import due_day_ends
from campaign.models import Activity, Campaign

ROOT = Path(__file__).resolve().parents[2]
EXTRA = 2_500  # activity records added to the archive: the write pass commits a few batches of them


def with_lines(archives, data: bytes, count: int = EXTRA) -> bytes:
    def more(records):
        last = max(i for i, record in enumerate(records) if record["kind"] == "activity")
        records[last + 1:last + 1] = [{**records[last], "id": 10**6 + n, "summary": f"Line {n}"}
                                      for n in range(count)]
    return archives.rewrite(data, more)


def hook(monkeypatch, kind: str, at: int, then) -> None:
    """``then(ctx)`` runs when the ``kind`` loader reaches its ``at``-th record (before loading it)."""
    section, seen = sections.section_for(kind), [0]

    def load(record, ctx):
        seen[0] += 1
        if seen[0] == at:
            then(ctx)
        section.load(record, ctx)

    monkeypatch.setitem(sections._registry, kind, replace(section, load=load))


def hidden() -> Campaign | None:
    return Campaign._base_manager.filter(importing_at__isnull=False).first()


# ------------------------------------------------------------------------------------------ another GM's write


def test_another_gms_write_goes_through_while_an_import_writes(tmp_path):
    """On a SQLite file with a one-second busy timeout, a GM adjustment in another campaign, made from
    another thread while the import is in its write pass, commits before the import ends (it waited at most
    a batch). When the pass was one transaction, it answered "database is locked"."""
    out = subprocess.run([sys.executable, "-m", "tests.archive._lock_probe", str(tmp_path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    outcome = json.loads(out.stdout.strip().splitlines()[-1])
    assert outcome == {"other_write": "done", "import_under_way": True, "imported": "siege-2"}


# ------------------------------------------------------------------------------------------ unseen until whole


def test_a_campaign_being_written_is_seen_by_nobody(full_campaign, exported, imported, archives, monkeypatch,
                                                    client, tmp_path):
    world = full_campaign
    Campaign.objects.filter(pk=world.campaign.pk).update(day_end_time=time(0, 0))
    world.campaign.refresh_from_db()
    data = with_lines(archives, exported(world.campaign))
    client.force_login(world.gm.user)
    staff = Client()
    staff.force_login(world.staff)
    seen = {}

    def look(ctx):
        campaign = hidden()
        assert campaign is not None and campaign.pk == ctx.campaign.pk and campaign.day_end_time == time(0, 0)
        home = client.get(reverse("campaign:home"))
        seen["home"] = (home.status_code, campaign.slug in home.content.decode(), world.campaign.slug
                        in home.content.decode())
        seen["page"] = client.get(reverse("campaign:detail", args=[campaign.slug])).status_code
        seen["archive"] = client.get(reverse("archive:page", args=[campaign.slug])).status_code
        seen["staff archive"] = staff.get(reverse("archive:page", args=[campaign.slug])).status_code
        due = {c.pk for c in due_day_ends(now=timezone.now() + timedelta(days=3))}
        seen["due"] = (campaign.pk in due, world.campaign.pk in due)
        database = tmp_path / "live.sqlite3"
        sqlite3.connect(database).close()
        manifest = backup_manifest(backup_run(tmp_path / "backups", keep=1, database=database))
        seen["backup"] = sorted(entry["slug"] for entry in manifest["campaigns"])

    hook(monkeypatch, "activity", 2_000, look)
    copy = imported(data, world.gm.user)
    assert seen == {"home": (200, False, True), "page": 404, "archive": 404, "staff archive": 404, "due": (False, True),
                    "backup": [world.campaign.slug]}
    assert copy.importing_at is None and not Campaign._base_manager.filter(importing_at__isnull=False).exists()
    assert client.get(reverse("campaign:detail", args=[copy.slug])).status_code == 200  # shown once whole
    assert copy.slug in client.get(reverse("campaign:home")).content.decode()


def test_the_claims_the_gm_and_the_line_of_the_import_come_with_the_reveal(full_campaign, exported, imported,
                                                                           archives, monkeypatch):
    world = full_campaign
    data = with_lines(archives, exported(world.campaign))
    seen = {}

    def look(ctx):
        seen["lines"] = list(Activity.objects.filter(campaign=ctx.campaign, kind=Activity.Kind.CAMPAIGN_NEW,
                                                     summary__startswith="Imported").values_list("pk", flat=True))
        seen["claims"] = list(ctx.claims)

    hook(monkeypatch, "ledger_entry", 1, look)  # the last kind: every other record is in
    copy = imported(data, world.gm.user)
    assert seen == {"lines": [], "claims": []}
    assert Activity.objects.filter(campaign=copy, summary__startswith="Imported").count() == 1
    assert sorted(copy.import_claims) == ["ann", "ben"]


# ------------------------------------------------------------------------------------------ a failure mid-way


@pytest.mark.django_db(transaction=True)
def test_a_failure_in_the_write_pass_leaves_no_row_and_the_job_says_so(full_campaign, exported, archives,
                                                                       monkeypatch):
    """The database refuses something after thousands of rows were committed: every one is removed again
    (every model's rows counted), and the job ends saying nothing was imported."""
    world = full_campaign
    data = with_lines(archives, exported(world.campaign))
    before = archives.rows()
    committed = {}

    def fail(ctx):
        committed["activity"] = Activity.objects.filter(campaign=ctx.campaign).count()
        raise DatabaseError("CHECK constraint failed: ledger_amount_bounded")

    hook(monkeypatch, "ledger_entry", 1, fail)
    job = ImportJob.objects.create(importer=world.gm.user, data=data, size=len(data), file_name="siege.gz")
    assert import_job_run(job.pk) == ImportJob.Status.REFUSED
    assert committed["activity"] > EXTRA  # written and committed, batch by batch, before the failure
    job.refresh_from_db()
    assert job.refusal.endswith("Nothing was imported.") and job.campaign is None
    assert archives.rows() == before  # every model of campaign, tabletop, armies, people and auth
    assert not Campaign._base_manager.filter(importing_at__isnull=False).exists()


def test_a_refusal_only_the_write_pass_sees_removes_what_it_wrote(full_campaign, exported, imported, archives):
    """A record no earlier pass reads closely (a seat pointing at a table the archive lacks) is refused by its
    loader, after the rows before it were written: they go again."""
    world = full_campaign
    data = exported(world.campaign)

    def dangling(records):
        next(record for record in records if record["kind"] == "seat")["table_id"] = 999_999

    before = archives.rows()
    with pytest.raises(ArchiveRefused, match="refers to table 999999"):
        imported(archives.rewrite(data, dangling), world.gm.user)
    assert archives.rows() == before


# ------------------------------------------------------------------------------------------ an interrupted import


def interrupted(world, data, imported, monkeypatch):
    """An import whose process died in its write pass: no clean-up ran (``_discard`` a no-op)."""
    monkeypatch.setattr("archive.importer._discard", lambda campaign_id, cards_added: None)

    def die(ctx):
        raise KeyboardInterrupt  # the process stopped: SIGINT, the nearest a test comes to a kill -9

    with monkeypatch.context() as patch:
        hook(patch, "ledger_entry", 1, die)
        with pytest.raises(KeyboardInterrupt):
            imported(data, world.gm.user)
    left = hidden()
    assert left is not None and Activity.objects.filter(campaign=left).exists()
    return left


def test_an_interrupted_import_is_swept_once_quiet_long_enough(full_campaign, exported, imported, archives,
                                                               monkeypatch):
    world = full_campaign
    data = with_lines(archives, exported(world.campaign))
    before = archives.rows()
    left = interrupted(world, data, imported, monkeypatch)
    job = ImportJob.objects.create(importer=world.gm.user, status=ImportJob.Status.WRITING,
                                   heartbeat_at=timezone.now())
    assert import_sweep() == {"campaigns": 0, "jobs": 0}  # still moving, as far as anyone can tell: left alone
    assert Campaign._base_manager.filter(pk=left.pk).exists()
    assert import_sweep(now=timezone.now() + timedelta(minutes=11)) == {"campaigns": 1, "jobs": 1}
    job.refresh_from_db()
    assert (job.status, job.refusal) == (ImportJob.Status.FAILED, INTERRUPTED)
    assert archives.rows() == before


def test_the_next_import_and_the_command_sweep_what_an_interrupted_one_left(full_campaign, exported, imported,
                                                                            archives, monkeypatch):
    world = full_campaign
    data = with_lines(archives, exported(world.campaign))
    left = interrupted(world, data, imported, monkeypatch)
    Campaign._base_manager.filter(pk=left.pk).update(importing_at=timezone.now() - timedelta(hours=1))
    copy = imported(data, world.gm.user)
    assert not Campaign._base_manager.filter(pk=left.pk).exists() and copy.importing_at is None

    left = interrupted(world, data, imported, monkeypatch)
    Campaign._base_manager.filter(pk=left.pk).update(importing_at=timezone.now() - timedelta(hours=1))
    out = io.StringIO()
    call_command("campaign_import_sweep", stdout=out)
    assert out.getvalue().startswith("1 unfinished imports removed")
    assert not Campaign._base_manager.filter(pk=left.pk).exists()


def test_a_campaign_anyone_sees_is_never_swept(full_campaign):
    world = full_campaign
    Campaign.objects.filter(pk=world.campaign.pk).update(created_at=timezone.now() - timedelta(days=9))
    assert import_sweep(now=timezone.now() + timedelta(days=9)) == {"campaigns": 0, "jobs": 0}
    assert Campaign.objects.filter(pk=world.campaign.pk).exists()


@pytest.mark.django_db
def test_every_model_that_belongs_to_a_campaign_is_discarded_in_an_order_the_database_accepts():
    order = [model for model, _ in owned_models()]
    assert order[-1] is Campaign
    for position, (model, lookup) in enumerate(owned_models()):
        for field in model._meta.concrete_fields:  # nothing still to delete points at a model already deleted
            if field.is_relation and field.related_model in order and field.related_model is not model:
                assert order.index(field.related_model) > position, (model, field.name)
        if model is not Campaign:
            model._base_manager.filter(**{lookup: 1}).exists()  # the lookup reaches a campaign


# ------------------------------------------------------------------------------------------ the balances, earlier


def test_a_balance_that_differs_is_refused_before_anything_is_written(full_campaign, exported, imported, archives,
                                                                      monkeypatch):
    world = full_campaign

    def richer(records):
        next(record for record in records if record["kind"] == "account" and record["balance"])["balance"] += 1

    data = archives.rewrite(exported(world.campaign), richer)
    for section in sections.sections():
        def never(record, ctx, kind=section.kind):
            raise AssertionError(f"the {kind} loader ran for an archive refused before writing")
        monkeypatch.setitem(sections._registry, section.kind, replace(section, load=never))
    before = archives.rows()
    with pytest.raises(ArchiveRefused, match="from its ledger entries, but the archive says"):
        imported(data, world.gm.user)
    assert archives.rows() == before

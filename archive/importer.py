"""Reading an archive into a new campaign: two passes that write nothing, then one short transaction.

``campaign_import(fileobj, importer=user)`` reads the file three times (issue 34: an 80 KB upload once
took a gigabyte and a 0.6 MB one held SQLite's write lock for 21 s):

1. **checking** (archive/format.py ``check_archive``): the header, every limit (the line's bytes and
   JSON values, the file's unpacked bytes and records) and the trailer's count and digest, over the raw
   lines; no record is parsed, so a changed, cut or padded file is refused before anything is built;
2. **replaying** (archive/proof.py ``prove_archive``): every record parsed, their order checked, every
   table's log replayed through its engine to its digests; still no database;
3. **writing**: one transaction hands each record to its section's ``load`` through one
   ``ImportContext``, taking each table's replayed state instead of replaying it, then runs the sections'
   checks (every account's balance the archive's). Only this pass holds the write lock.

The new campaign gets a free slug (as ``campaign_create`` does), the importer is its GM, and the other
members get claim invites (their user names: the returned campaign's ``import_claims``). A refusal of any
kind raises ``ArchiveRefused`` with its sentence, after the transaction (if any) rolled back.
``progress(phase, done, total)`` hears how far it got (the upload page's job, archive/jobs.py).
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Callable
from typing import IO

from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction

from campaign.activity import activity_record
from campaign.models import Activity, Campaign, Membership
from campaign.permissions import require_campaign_creator

# the slug rule of campaign_create, so an imported campaign's slug is made free the same way
from campaign.services import _free_slug, _slug_base

from .context import ImportContext
from .format import DEFAULT_LIMITS, ArchiveReader, ArchiveRefused, Limits, check_archive, read_archive
from .proof import KindOrder, ProvenStates, prove_archive
from .sections import kind_named, kinds, section_for

log = logging.getLogger(__name__)

CHECKING, REPLAYING, WRITING = "checking", "replaying", "writing"
Progress = Callable[[str, int, "int | None"], None]


def _quiet(phase: str, done: int, total: int | None) -> None:
    """No one is watching (the command line, the backups' restore)."""


def campaign_import(fileobj: IO[bytes], *, importer, limits: Limits = DEFAULT_LIMITS,
                    by_operator: bool = False, progress: Progress = _quiet,
                    on_written: Callable[[Campaign], None] | None = None) -> Campaign:
    """A new campaign from the archive in ``fileobj`` (binary; read three times, so a stream that cannot
    seek is first copied to a temporary file). ``importer`` becomes its GM; unless ``by_operator`` (the
    command line), they must be allowed to start campaigns here. The upload page runs it in a job
    (archive/jobs.py), which applies the form's one-time token; ``on_written(campaign)`` runs inside the
    import's transaction, so what it writes (the job's end) commits with the campaign or not at all."""
    if not by_operator:
        require_campaign_creator(importer)
    with _seekable(fileobj) as source:
        progress(CHECKING, 0, None)
        checked = check_archive(_rewound(source), limits, progress=lambda done: progress(CHECKING, done, None))
        total = checked.trailer["records"]
        progress(REPLAYING, 0, total)
        proven = prove_archive(read_archive(_rewound(source), limits, kinds=kinds()),
                               progress=lambda done: progress(REPLAYING, done, total))
        progress(WRITING, 0, total)
        try:
            with transaction.atomic():
                campaign = _import(read_archive(_rewound(source), limits, kinds=kinds()), importer, proven,
                                   by_operator)
                if on_written is not None:
                    on_written(campaign)
                return campaign
        except ArchiveRefused:
            raise
        except (DatabaseError, ValidationError) as error:
            # a value past a database constraint that no reader caught first: still a refusal, never a 500
            log.warning("archive import refused by the database: %s", error)
            raise ArchiveRefused(
                "The archive holds a value this database refuses, so nothing was imported: it was changed after "
                "export."
            ) from error


class _seekable:
    """``fileobj`` itself when it can seek (a file, an upload), else a temporary copy of it."""

    def __init__(self, fileobj: IO[bytes]):
        self.fileobj, self.copy = fileobj, None

    def __enter__(self) -> IO[bytes]:
        if _can_seek(self.fileobj):
            return self.fileobj
        self.copy = tempfile.TemporaryFile()
        shutil.copyfileobj(self.fileobj, self.copy, 1024 * 1024)
        return self.copy

    def __exit__(self, *exc) -> None:
        if self.copy is not None:
            self.copy.close()


def _can_seek(fileobj: IO[bytes]) -> bool:
    try:
        return bool(fileobj.seekable())
    except (AttributeError, ValueError):
        return False


def _rewound(fileobj: IO[bytes]) -> IO[bytes]:
    fileobj.seek(0)
    return fileobj


def _import(reader: ArchiveReader, importer, proven: ProvenStates, by_operator: bool) -> Campaign:
    header = reader.header
    slug_base = _slug_base(str(header.get("campaign") or "campaign"))
    name = str(header.get("name") or header["campaign"])[:120] or "Imported campaign"
    campaign = Campaign.objects.create(name=name, slug=_free_slug(slug_base))
    ctx = ImportContext(campaign=campaign, importer=importer, header=header, kind_named=kind_named,
                        by_operator=by_operator, proven_states=proven)
    ctx.importer_membership = Membership.objects.create(user=importer, campaign=campaign, role=Membership.Role.GM)
    order = KindOrder()
    for record in reader:
        kind = record["kind"]
        previous = order.current
        if order.see(kind):
            ctx.flush()
            if previous is not None:
                ctx.done.add(previous)
        section_for(kind).load(record, ctx)
    order.finish()
    ctx.flush()
    ctx.done.add(order.current)
    ctx.make_claims()
    ctx.run_checks()
    campaign.refresh_from_db()
    activity_record(
        campaign=campaign,
        actor=importer,
        kind=Activity.Kind.CAMPAIGN_NEW,
        summary=f"Imported the campaign “{campaign.name}” from an archive of “{header['campaign'][:80]}” "
        f"exported {header['exported_at'][:19]}",
        target=campaign,
        details={"archive_import": {"campaign": header["campaign"][:80], "exported_at": header["exported_at"][:40],
                                    "records": reader.trailer["records"] if reader.trailer else None,
                                    "claims": [claim.username for claim in ctx.claims]}},
    )
    campaign.import_claims = [claim.username for claim in ctx.claims]  # who has an invite to claim their place
    return campaign

"""Reading an archive into a new campaign: two passes that write nothing, then short transactions.

``campaign_import(fileobj, importer=user)`` reads the file three times (issue 34: an 80 KB upload once
took a gigabyte and a 0.6 MB one held SQLite's write lock for 21 s, so another GM's write failed):

1. **checking** (archive/format.py ``check_archive``): the header, every limit (the line's bytes and
   JSON values, the file's unpacked bytes and records) and the trailer's count and digest, over the raw
   lines; no record is parsed, so a changed, cut or padded file is refused before anything is built;
2. **replaying** (archive/proof.py ``prove_archive``): every record parsed, their order checked, every
   table's log replayed through its engine to its digests, every account's ledger summed to its stated
   balance; still no database;
3. **writing**: a hidden campaign (``Campaign.importing_at`` set: no member's page, home page, day-end
   schedule or backup finds it; the admin marks it) with the importer's GM membership, in one short
   transaction; then each record through its section's ``load`` (one ``ImportContext``, taking each
   table's replayed state instead of replaying it). The loaders run outside any transaction; each batch
   insert (about a thousand rows) commits on its own, so SQLite's write lock is held a fraction of a
   second at a time and other writers get their turn between batches (``_group``). Every thousand
   records ``importing_at`` moves (the import is alive) and ``progress`` hears how far it got. Then the
   sections' checks (the balances once more, the open battles' tables renumbered).
4. **the reveal**, one short transaction: the claim invites, the activity line "Imported the campaign…",
   ``importing_at`` emptied, and ``on_written(campaign)`` (the upload's job marked done), all or nothing.

Any failure after the hidden campaign exists (a refusal only a loader sees, a value the database refuses,
a crash) removes what was written, in short transactions too (archive/discard.py ``campaign_discard``),
before the refusal goes up; an import whose process died leaves its campaign hidden, and the sweep
(``import_sweep``: the next import, every backup, ``manage.py campaign_import_sweep``) removes it once it
has been quiet for ``IMPORT_STALE``. The importer's membership is made with the hidden campaign, not at the
reveal, because a commander's runner (``Commander.membership``) must exist when the commander is written:
it is hidden with its campaign (every lookup of a member's campaign passes over one being imported).

The new campaign gets a free slug (as ``campaign_create`` does), the importer is its GM, and the other
members get claim invites (their user names: the returned campaign's ``import_claims``). A refusal of any
kind raises ``ArchiveRefused`` with its sentence, after what was written is removed. ``progress(phase,
done, total)`` hears how far it got (the upload page's job, archive/jobs.py).
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Callable
from contextlib import nullcontext
from itertools import islice
from typing import IO

from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from armies.models import UnitCard
from campaign.activity import Line, activity_record
from campaign.models import Activity, Campaign, Membership
from campaign.permissions import require_campaign_creator

# the slug rule of campaign_create, so an imported campaign's slug is made free the same way
from campaign.services import _free_slug, _slug_base
from tabletop.models import CatalogEntry

from .context import ImportContext
from .discard import campaign_discard, import_sweep
from .format import DEFAULT_LIMITS, ArchiveReader, ArchiveRefused, Limits, check_archive, read_archive
from .proof import KindOrder, ProvenStates, prove_archive
from .sections import kind_named, kinds, section_for

log = logging.getLogger(__name__)

CHECKING, REPLAYING, WRITING = "checking", "replaying", "writing"
Progress = Callable[[str, int, "int | None"], None]
# Records between two heartbeats of the write pass (``importing_at``, the progress): about one batch insert,
# which is the longest the write lock is held at a time (ImportContext.flush, about a thousand rows).
RECORDS_PER_TRANSACTION = 1000


def _quiet(phase: str, done: int, total: int | None) -> None:
    """No one is watching (the command line, the backups' restore)."""


def campaign_import(fileobj: IO[bytes], *, importer, limits: Limits = DEFAULT_LIMITS,
                    by_operator: bool = False, progress: Progress = _quiet,
                    on_written: Callable[[Campaign], None] | None = None) -> Campaign:
    """A new campaign from the archive in ``fileobj`` (binary; read three times, so a stream that cannot
    seek is first copied to a temporary file). ``importer`` becomes its GM; unless ``by_operator`` (the
    command line), they must be allowed to start campaigns here. The upload page runs it in a job
    (archive/jobs.py), which applies the form's one-time token; ``on_written(campaign)`` runs inside the
    transaction that reveals the campaign, so what it writes (the job's end) commits with the reveal or not
    at all."""
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
        import_sweep()  # what an interrupted import left (make run has no beat: the next import tidies up)
        reader = read_archive(_rewound(source), limits, kinds=kinds())
        campaign, membership = _begin(reader.header, importer)
        cards_added: list[int] = []
        try:
            return _write(reader, campaign, membership, proven, by_operator, cards_added,
                          lambda done: progress(WRITING, done, total), on_written)
        except BaseException as error:
            _discard(campaign.pk, cards_added)
            if isinstance(error, (DatabaseError, ValidationError)):
                # a value past a database constraint that no reader caught first: a refusal, never a 500
                log.warning("archive import refused by the database: %s", error)
                raise ArchiveRefused(  # no digest said it was changed: the value is named, the file not blamed
                    gettext_noop("The archive holds a value this database refuses (a number or a text past what it "
                                 "keeps).")
                ) from error
            raise


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


def _begin(header: dict, importer) -> tuple[Campaign, Membership]:
    """The hidden campaign the write pass fills (``importing_at`` set: no page, schedule or backup finds it),
    with the importer's GM membership (a commander's runner must exist when it is written: the membership is
    hidden with its campaign), in one short transaction."""
    slug_base = _slug_base(str(header.get("campaign") or "campaign"))
    name = str(header.get("name") or header["campaign"])[:120] or "Imported campaign"
    with transaction.atomic():
        campaign = Campaign.objects.create(name=name, slug=_free_slug(slug_base), importing_at=timezone.now())
        membership = Membership.objects.create(user=importer, campaign=campaign, role=Membership.Role.GM)
    return campaign, membership


def _write(reader: ArchiveReader, campaign: Campaign, membership: Membership, proven: ProvenStates,
           by_operator: bool, cards_added: list[int], progress: Callable[[int], None],
           on_written: Callable[[Campaign], None] | None) -> Campaign:
    """The third pass: every record through its section's ``load`` (each batch insert its own transaction,
    ``_group``), ``importing_at`` moved every ``RECORDS_PER_TRANSACTION`` records (the import is alive);
    then the sections' checks; then the reveal, one transaction with ``on_written``."""
    header, importer = reader.header, membership.user
    ctx = ImportContext(campaign=campaign, importer=importer, header=header, kind_named=kind_named,
                        by_operator=by_operator, proven_states=proven)
    ctx.importer_membership = membership
    ctx.cards_added = cards_added  # the caller's list: what to take out of the catalog if this fails
    order, records, done = KindOrder(), iter(reader), 0
    while True:
        with _group():
            count = 0
            for record in islice(records, RECORDS_PER_TRANSACTION):
                count += 1
                kind = record["kind"]
                previous = order.current
                if order.see(kind):
                    ctx.flush()
                    if previous is not None:
                        ctx.done.add(previous)
                section_for(kind).load(record, ctx)
            ctx.flush()
            Campaign._base_manager.filter(pk=campaign.pk).update(importing_at=timezone.now())
        done += count
        progress(done)
        if count < RECORDS_PER_TRANSACTION:
            break
    order.finish()
    ctx.done.add(order.current)
    ctx.run_checks()  # reads, and the few rows only the whole archive settles (its own short writes)
    with transaction.atomic():
        ctx.make_claims()
        campaign.refresh_from_db()
        activity_record(
            campaign=campaign,
            actor=importer,
            kind=Activity.Kind.CAMPAIGN_NEW,
            summary=Line(gettext_noop("Imported the campaign “%(name)s” from an archive of “%(archived)s” exported "
                                      "%(exported)s"),
                         name=campaign.name, archived=header["campaign"][:80], exported=header["exported_at"][:19]),
            target=campaign,
            details={"archive_import": {"campaign": header["campaign"][:80], "exported_at": header["exported_at"][:40],
                                        "records": reader.trailer["records"] if reader.trailer else None,
                                        "claims": [claim.username for claim in ctx.claims]}},
        )
        # the reveal: only if it is still this import's (a sweep that took it for dead removed it)
        if not Campaign._base_manager.filter(pk=campaign.pk, importing_at__isnull=False).update(importing_at=None):
            raise ArchiveRefused(
                gettext_noop("The import took so long that it was taken for an interrupted one and removed.")
            )
        campaign.importing_at = None
        campaign.import_claims = [claim.username for claim in ctx.claims]  # who has an invite to claim their place
        if on_written is not None:
            on_written(campaign)
    return campaign


def _group():
    """What holds a group of records' writes. Nothing, as the upload's job and the command line import: each
    batch insert (``ImportContext.flush``: ``bulk_create``, about a thousand rows) is a transaction of its own,
    and so is each of the few single updates a loader makes, so the write lock is held only while rows go in
    and is free while the next records are read and built. A waiting writer's busy handler finds it free
    (SQLite's waiters poll: a lock held without a pause, as one transaction per group held it, was taken back
    by the import before they looked). Inside a caller's own transaction (a test, bench/archive.py's "as
    before") a savepoint, so a failing group leaves that transaction usable for the clean-up."""
    return transaction.atomic() if transaction.get_connection().in_atomic_block else nullcontext()


def _discard(campaign_id: int, cards_added: list[int]) -> None:
    """Remove what the write pass wrote, the unit cards a staff import added included (inactive, offered to
    nobody); if that fails too, the sweep removes the campaign later (archive/discard.py)."""
    try:
        campaign_discard(campaign_id)
        UnitCard.objects.filter(pk__in=cards_added, source=CatalogEntry.Source.IMPORTED, active=False).delete()
    except Exception:
        log.exception("could not remove the unfinished import of campaign %s; the next sweep will", campaign_id)

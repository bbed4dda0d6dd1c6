"""Reading an archive into a new campaign, in one transaction: any refusal writes nothing.

``campaign_import(fileobj, importer=user)`` streams the archive (archive/format.py checks its limits,
its header and at the end its digest), hands each record to its section's ``load`` through one
``ImportContext``, then runs the sections' checks (every table replayed to its digest, every account's
balance the archive's). The new campaign gets a free slug (as ``campaign_create`` does), the importer
is its GM, and members with no account here get claim invites (their user names: the returned
campaign's ``import_claims``). A refusal of any kind raises
``ArchiveRefused`` with its sentence, after the transaction rolled back.
"""

from __future__ import annotations

import logging
from typing import IO

from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction

from campaign.activity import activity_record
from campaign.models import Activity, Campaign, Membership
from campaign.permissions import require_campaign_creator

# the slug rule of campaign_create, so an imported campaign's slug is made free the same way
from campaign.services import _free_slug, _slug_base
from campaign.submissions import applied_once

from .context import ImportContext
from .format import DEFAULT_LIMITS, ArchiveRefused, Limits, read_archive
from .sections import kind_named, kinds, section_for

log = logging.getLogger(__name__)


@applied_once("campaign_import")
def campaign_import(fileobj: IO[bytes], *, importer, limits: Limits = DEFAULT_LIMITS,
                    by_operator: bool = False) -> Campaign:
    """A new campaign from the archive in ``fileobj`` (binary). ``importer`` becomes its GM; unless
    ``by_operator`` (the command line), they must be allowed to start campaigns here. The upload page
    passes its form's one-time token as ``submission=``: a repeated post imports once."""
    if not by_operator:
        require_campaign_creator(importer)
    try:
        with transaction.atomic():
            return _import(fileobj, importer, limits, by_operator=by_operator)
    except ArchiveRefused:
        raise
    except (DatabaseError, ValidationError) as error:
        # a value past a database constraint that no reader caught first: still a refusal, never a 500
        log.warning("archive import refused by the database: %s", error)
        raise ArchiveRefused(
            "The archive holds a value this database refuses, so nothing was imported: it was changed after export."
        ) from error


def _import(fileobj: IO[bytes], importer, limits: Limits, *, by_operator: bool = False) -> Campaign:
    reader = read_archive(fileobj, limits, kinds=kinds())
    header = reader.header
    slug_base = _slug_base(str(header.get("campaign") or "campaign"))
    name = str(header.get("name") or header["campaign"])[:120] or "Imported campaign"
    campaign = Campaign.objects.create(name=name, slug=_free_slug(slug_base))
    ctx = ImportContext(campaign=campaign, importer=importer, header=header, kind_named=kind_named,
                        by_operator=by_operator)  # the operator may add unit cards (sections_armies.py)
    ctx.importer_membership = Membership.objects.create(user=importer, campaign=campaign, role=Membership.Role.GM)
    current_kind = None
    current_order = None
    for record in reader:
        kind = record["kind"]
        section = section_for(kind)
        if kind != current_kind:
            if section.order < (current_order or 0) or kind in ctx.done:
                raise ArchiveRefused(f"The archive's {kind} records are out of order: it was changed after export.")
            if current_kind is None and kind != "campaign":
                raise ArchiveRefused("The archive does not start with its campaign.")
            ctx.flush()
            if current_kind is not None:
                ctx.done.add(current_kind)
            current_kind, current_order = kind, section.order
        section.load(record, ctx)
    if current_kind is None:
        raise ArchiveRefused("The archive holds no campaign.")
    ctx.flush()
    ctx.done.add(current_kind)
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

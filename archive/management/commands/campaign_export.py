"""Write a campaign's archive: ``manage.py campaign_export SLUG [-o FILE]`` (docs/archive-format.md)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from archive.export import campaign_export
from archive.names import archive_file_name
from campaign.models import Campaign
from muster.terminal import server_language


class Command(BaseCommand):
    help = ("Write the campaign SLUG to a gzip-compressed archive (every row of the campaign, every hidden card "
            "of every table; no passwords). Read it back with campaign_import.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="the file to write ('-': standard output); "
                            "default <slug>-<date>.muster.jsonl.gz here")

    @server_language
    def handle(self, *args, slug: str, output: str | None, **options) -> None:
        campaign = Campaign.objects.filter(slug=slug).first()
        if campaign is None:
            raise CommandError(_("There is no campaign %(slug)s.") % {"slug": repr(slug)})
        if campaign.importing_at is not None:
            raise CommandError(
                _("The campaign %(slug)s is still being imported: export it once the import ends.")
                % {"slug": repr(slug)}
            )
        if output == "-":
            summary = campaign_export(campaign, sys.stdout.buffer)
            sys.stdout.buffer.flush()
            said = _("%(records)s records, %(digest)s") % {"records": summary.records, "digest": summary.digest}
            self.stderr.write(said)
            return
        path = Path(output or archive_file_name(campaign))
        # written beside it and renamed when whole: a failed export leaves no file that looks like an archive
        handle, partial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent or ".")
        try:
            with os.fdopen(handle, "wb") as out:
                summary = campaign_export(campaign, out)
                out.flush()
                os.fsync(out.fileno())
            os.replace(partial, path)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise
        kinds = ", ".join(f"{count} {kind}" for kind, count in summary.kinds.items())
        self.stdout.write(
            _("Wrote %(path)s (%(bytes)s bytes): %(records)s records (%(kinds)s).")
            % {"path": path, "bytes": summary.compressed_bytes, "records": summary.records, "kinds": kinds}
        )
        self.stdout.write(_("Digest %(digest)s") % {"digest": summary.digest})

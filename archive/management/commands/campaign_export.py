"""Write a campaign's archive: ``manage.py campaign_export SLUG [-o FILE]`` (docs/archive-format.md)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from archive.export import campaign_export
from archive.names import archive_file_name
from campaign.models import Campaign


class Command(BaseCommand):
    help = ("Write the campaign SLUG to a gzip-compressed archive (every row of the campaign, every hidden card "
            "of every table; no passwords). Read it back with campaign_import.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="the file to write ('-': standard output); "
                            "default <slug>-<date>.muster.jsonl.gz here")

    def handle(self, *args, slug: str, output: str | None, **options) -> None:
        campaign = Campaign.objects.filter(slug=slug).first()
        if campaign is None:
            raise CommandError(f"There is no campaign {slug!r}.")
        if campaign.importing_at is not None:
            raise CommandError(f"The campaign {slug!r} is still being imported: export it once the import ends.")
        if output == "-":
            summary = campaign_export(campaign, sys.stdout.buffer)
            sys.stdout.buffer.flush()
            self.stderr.write(f"{summary.records} records, {summary.digest}")
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
        self.stdout.write(f"Wrote {path} ({summary.compressed_bytes} bytes): {summary.records} records ({kinds}).")
        self.stdout.write(f"Digest {summary.digest}")

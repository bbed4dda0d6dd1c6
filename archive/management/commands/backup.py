"""``manage.py backup [--dir D] [--keep N]``: a backup of this instance while it serves (archive/backup.py).

Writes a dated folder into ``--dir`` (default ``BACKUP_DIR``): a consistent copy of the SQLite
database, one archive per campaign and a manifest; then keeps the newest ``--keep`` (default
``BACKUP_KEEP``). ``make backup`` runs it. On PostgreSQL the database is not copied (use pg_dump).
Exits with an error when no backup could be made, or when one was written with a warning (a campaign
that could not be archived), so a cron job or a GM notices. ``-v 0`` prints nothing but those errors
(cron mails whatever a job prints: on PostgreSQL the note that no database was copied, every night).
"""

from __future__ import annotations

import logging
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from archive.backup import BackupError, backup_manifest, backup_run
from muster.terminal import server_language


class Command(BaseCommand):
    help = "Write a dated backup (the SQLite database and one archive per campaign) and prune old ones."

    def add_arguments(self, parser):
        parser.add_argument("--dir", type=Path, default=None, help="Where the dated folders go (default: BACKUP_DIR).")
        parser.add_argument("--keep", type=int, default=None, help="How many backups to keep (default: BACKUP_KEEP).")

    @server_language
    def handle(self, *args, **options):
        root = options["dir"] or Path(settings.BACKUP_DIR)
        keep = options["keep"] if options["keep"] is not None else settings.BACKUP_KEEP
        quiet = options["verbosity"] == 0
        archive_log = logging.getLogger("archive")
        level = archive_log.level
        if quiet:  # its INFO lines (an old backup removed) too: only warnings and errors
            archive_log.setLevel(logging.WARNING)
        try:
            folder = backup_run(root, keep)
        except BackupError as refusal:
            raise CommandError(refusal.said()) from refusal
        finally:
            archive_log.setLevel(level)
        manifest = backup_manifest(folder)
        if not quiet:
            if not manifest["database"].get("copied"):
                # the manifest keeps the reason in English; it is one of archive.backup's marked sentences
                self.stderr.write(self.style.WARNING(_(manifest["database"]["reason"])))
            for entry in manifest["files"]:
                self.stdout.write(f"  {entry['name']}  " + _("%(bytes)s bytes") % {"bytes": f"{entry['bytes']:,}"})
            self.stdout.write(
                self.style.SUCCESS(
                    _("Backup written to %(folder)s (the newest %(keep)s kept).") % {"folder": folder, "keep": keep}
                )
            )
        if manifest["warnings"]:
            warnings = "\n".join(f"- {w}" for w in manifest["warnings"])  # the manifest's, in English
            raise CommandError(_("The backup is incomplete:") + "\n" + warnings)

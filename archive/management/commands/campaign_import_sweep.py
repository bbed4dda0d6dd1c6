"""``manage.py campaign_import_sweep``: remove what interrupted imports left (archive/discard.py).

Every import and every backup sweeps already; this is for an operator who wants it done now (say, after a
worker was killed in the middle of a big import, rather than waiting for the next upload or backup).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from archive.discard import IMPORT_STALE, import_sweep
from muster.terminal import server_language


class Command(BaseCommand):
    help = (f"Remove every campaign whose import stopped (quiet for {IMPORT_STALE}) and end its upload job "
            "with a sentence.")

    @server_language
    def handle(self, *args, **options) -> None:
        swept = import_sweep()
        self.stdout.write(
            _("%(campaigns)s unfinished imports removed, %(jobs)s upload jobs ended.")
            % {"campaigns": swept["campaigns"], "jobs": swept["jobs"]}
        )

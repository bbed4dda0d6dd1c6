"""Load (or refresh) the Gridaris starter cards and scenarios: ``manage.py load_starter_catalogs``."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from muster.terminal import server_language
from tabletop.catalog import CatalogImportError
from tabletop.catalog.starter import catalog_load_starter


class Command(BaseCommand):
    help = "Create or refresh the Gridaris starter catalog (designed by Muster, not official). Safe to re-run."

    @server_language
    def handle(self, *args, **options) -> None:
        try:
            report = catalog_load_starter()
        except CatalogImportError as error:
            problems = "\n".join(error.errors)
            raise CommandError(_("The starter data is invalid; nothing was loaded:") + f"\n{problems}") from error
        for line in report.lines():
            self.stdout.write(line)
        self.stdout.write(self.style.SUCCESS(_("Starter catalogs loaded (labelled as starter data, not official).")))

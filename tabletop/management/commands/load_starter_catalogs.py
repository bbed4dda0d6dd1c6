"""Load (or refresh) the Gridaris starter cards and scenarios: ``manage.py load_starter_catalogs``."""

from django.core.management.base import BaseCommand, CommandError

from tabletop.catalog import CatalogImportError
from tabletop.catalog.starter import catalog_load_starter


class Command(BaseCommand):
    help = "Create or refresh the Gridaris starter catalog (designed by Muster, not official). Safe to re-run."

    def handle(self, *args, **options) -> None:
        try:
            report = catalog_load_starter()
        except CatalogImportError as error:
            problems = "\n".join(error.errors)
            raise CommandError(f"The starter data is invalid; nothing was loaded:\n{problems}") from error
        for line in report.lines():
            self.stdout.write(line)
        self.stdout.write(self.style.SUCCESS("Starter catalogs loaded (labelled as starter data, not official)."))

"""Load or refresh the Army starter unit cards (designed by Muster, not official); safe to repeat."""

from django.core.management import BaseCommand, CommandError

from armies.catalog import unit_catalog_load_starter
from tabletop.catalog import CatalogImportError


class Command(BaseCommand):
    help = "Create or refresh the Army starter unit cards (labelled 'starter'); cards with other codes are untouched."

    def handle(self, *args, **options):
        try:
            report = unit_catalog_load_starter()
        except CatalogImportError as error:
            raise CommandError("The starter units are invalid: " + "; ".join(error.errors)) from error
        except LookupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            f"Unit cards: {report.created} created, {report.updated} updated, {report.unchanged} unchanged."
        )

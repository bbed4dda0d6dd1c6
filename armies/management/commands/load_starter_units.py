"""Load or refresh the Army starter unit cards (designed by Muster, not official); safe to repeat."""

from django.core.management import BaseCommand, CommandError
from django.utils.translation import gettext as _

from armies.catalog import unit_catalog_load_starter
from muster.terminal import server_language
from tabletop.catalog import CatalogImportError


class Command(BaseCommand):
    help = "Create or refresh the Army starter unit cards (labelled 'starter'); cards with other codes are untouched."

    @server_language
    def handle(self, *args, **options):
        try:
            report = unit_catalog_load_starter()
        except CatalogImportError as error:
            raise CommandError(
                _("The starter units are invalid: %(problems)s") % {"problems": "; ".join(error.errors)}
            ) from error
        except LookupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            _("Unit cards: %(created)s created, %(updated)s updated, %(unchanged)s unchanged.")
            % {"created": report.created, "updated": report.updated, "unchanged": report.unchanged}
        )

"""Load (or refresh) the dungeon game's starter cards: ``manage.py load_starter_dungeon``."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from muster.terminal import server_language
from tabletop.catalog import DUNGEON_CARDS, CatalogImportError
from tabletop.catalog.starter_dungeon import dungeon_catalog_load_starter


class Command(BaseCommand):
    help = "Create or refresh the dungeon starter catalog (designed by Muster, not official). Safe to re-run."

    @server_language
    def handle(self, *args, **options) -> None:
        try:
            report = dungeon_catalog_load_starter()
        except CatalogImportError as error:
            problems = "\n".join(error.errors)
            raise CommandError(_("The starter data is invalid; nothing was loaded:") + f"\n{problems}") from error
        self.stdout.write(report.summary(DUNGEON_CARDS.noun))
        done = _("Dungeon starter catalog loaded (labelled as starter data, not official).")
        self.stdout.write(self.style.SUCCESS(done))

"""Load (or refresh) the dungeon game's starter cards: ``manage.py load_starter_dungeon``."""

from django.core.management.base import BaseCommand, CommandError

from tabletop.catalog import DUNGEON_CARDS, CatalogImportError
from tabletop.catalog.starter_dungeon import dungeon_catalog_load_starter


class Command(BaseCommand):
    help = "Create or refresh the dungeon starter catalog (designed by Muster, not official). Safe to re-run."

    def handle(self, *args, **options) -> None:
        try:
            report = dungeon_catalog_load_starter()
        except CatalogImportError as error:
            problems = "\n".join(error.errors)
            raise CommandError(f"The starter data is invalid; nothing was loaded:\n{problems}") from error
        self.stdout.write(report.summary(DUNGEON_CARDS.noun))
        done = "Dungeon starter catalog loaded (labelled as starter data, not official)."
        self.stdout.write(self.style.SUCCESS(done))

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArchiveConfig(AppConfig):
    name = "archive"
    verbose_name = _("Campaign archives")

    def ready(self) -> None:
        # Each module registers its sections when imported (archive/sections/__init__.py); the tasks module
        # registers the import's task, which the upload page sends by its name (archive/jobs.py).
        from . import tasks  # noqa: F401
        from .sections import armies, campaign, people, tabletop  # noqa: F401

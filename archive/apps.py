from django.apps import AppConfig


class ArchiveConfig(AppConfig):
    name = "archive"
    verbose_name = "Campaign archives"

    def ready(self) -> None:
        # Each module registers its sections when imported (archive/sections/__init__.py); the tasks module
        # registers the import's task, which the upload page sends by its name (archive/jobs.py).
        from . import tasks  # noqa: F401
        from .sections import armies, campaign, people, tabletop  # noqa: F401

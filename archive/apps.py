from django.apps import AppConfig


class ArchiveConfig(AppConfig):
    name = "archive"
    verbose_name = "Campaign archives"

    def ready(self) -> None:
        # Each module registers its sections when imported (archive/sections.py).
        from . import sections_armies, sections_core  # noqa: F401

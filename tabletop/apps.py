from django.apps import AppConfig


class TabletopConfig(AppConfig):
    name = "tabletop"
    verbose_name = "Tables and card catalogs"

    def ready(self) -> None:
        from campaign import panels

        from . import tasks  # noqa: F401  (registers the Celery tasks the computer sends by name)
        from .forms import TABLE_FORMS
        from .panels import tables_panel
        from .services.stakes import register_hooks

        panels.register(tables_panel)
        register_hooks(TABLE_FORMS)  # every side-event table may be played for stakes

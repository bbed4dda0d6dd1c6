from django.apps import AppConfig


class TabletopConfig(AppConfig):
    name = "tabletop"
    verbose_name = "Tables and card catalogs"

    def ready(self) -> None:
        from campaign import panels

        from .panels import tables_panel

        panels.register(tables_panel)

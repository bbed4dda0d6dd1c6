from django.apps import AppConfig


class ArmiesConfig(AppConfig):
    name = "armies"
    verbose_name = "Armies"

    def ready(self) -> None:
        from campaign import panels

        from .panels import armies_panel

        panels.register(armies_panel)

from django.apps import AppConfig


class ArmiesConfig(AppConfig):
    name = "armies"
    verbose_name = "Armies"

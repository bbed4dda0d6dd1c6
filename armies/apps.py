from django.apps import AppConfig


class ArmiesConfig(AppConfig):
    name = "armies"
    verbose_name = "Armies"

    def ready(self) -> None:
        from campaign import panels
        from tabletop import hooks

        from . import tasks  # noqa: F401  (registers the Celery tasks the services send by name)
        from .panels import armies_panel
        from .services.battle_tables import battle_table_abandoned, battle_table_finished, battle_undo_refusal

        panels.register(armies_panel)
        hooks.on_finish("army")(battle_table_finished)
        hooks.undo_blocked("army")(battle_undo_refusal)
        hooks.on_abandon("army", can_keep_result=True)(battle_table_abandoned)

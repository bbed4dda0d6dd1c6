from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop


class ArmiesConfig(AppConfig):
    name = "armies"
    verbose_name = _("Armies")

    def ready(self) -> None:
        from django.urls import reverse

        from campaign import first_steps, panels
        from tabletop import hooks

        from . import tasks  # noqa: F401  (registers the Celery tasks the services send by name)
        from .models import Commander, RecruitOffer
        from .panels import armies_panel
        from .services.battle_tables import battle_table_abandoned, battle_table_finished, battle_undo_refusal
        from .table_links import battle_links

        panels.register(armies_panel)
        hooks.on_finish("army")(battle_table_finished)
        hooks.undo_blocked("army")(battle_undo_refusal)
        hooks.on_abandon("army", can_keep_result=True)(battle_table_abandoned)
        hooks.table_links("army")(battle_links)
        first_steps.register(
            order=20,
            label=gettext_noop("Create commanders"),
            url_for=lambda campaign: reverse("armies:commander_new", args=[campaign.slug]),
            done=lambda campaign: Commander.objects.filter(campaign=campaign).exists(),
        )
        first_steps.register(  # an offer posted once counts, even if withdrawn since
            order=30,
            label=gettext_noop("Publish offers"),
            url_for=lambda campaign: reverse("armies:offer_list", args=[campaign.slug]),
            done=lambda campaign: RecruitOffer.objects.filter(campaign=campaign).exists(),
        )

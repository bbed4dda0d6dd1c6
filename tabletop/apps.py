from django.apps import AppConfig
from django.utils.translation import gettext_noop


class TabletopConfig(AppConfig):
    name = "tabletop"
    verbose_name = "Tables and card catalogs"

    def ready(self) -> None:
        from django.urls import reverse

        from campaign import first_steps, live, panels

        from . import (
            push,
            tasks,  # noqa: F401  (registers the Celery tasks the computer sends by name)
            viewers,
        )
        from .forms import TABLE_FORMS
        from .models import Table
        from .panels import tables_key, tables_panel
        from .services.stakes import register_hooks

        panels.register(tables_panel)
        viewers.render_with(push.push_soon)  # a change renders each watched viewer once (issues 26, 40)
        live.key_part(tables_key)  # a player's campaign page hears of a table opened or finished (issue 25)
        register_hooks(TABLE_FORMS)  # every side-event table may be played for stakes
        first_game = next(iter(TABLE_FORMS))
        first_steps.register(  # a battle is a table too (game "army"); a what-if is not a first table
            order=40,
            label=gettext_noop("Open a first table or battle"),  # said where the first steps are shown
            url_for=lambda campaign: reverse("tabletop:table_new", args=[campaign.slug, first_game]),
            done=lambda campaign: Table.objects.counted().filter(campaign=campaign).exists(),
        )

"""The tables' admin: for inspection only (games change only through the table services), the action log
read-only as an audit trail, a seat without its secret link.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from ..models import Seat, Table, TableAction


def pretty_json(value: Any) -> str:
    return format_html("<pre style='white-space: pre-wrap; margin: 0'>{}</pre>", json.dumps(value, indent=2))


# --- tables ------------------------------------------------------------------------------------


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("index", "membership", "guest_name")  # not the token: it is a guest's secret link
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    """For inspection: games change only through the table services, so only the title is editable."""

    list_display = ("title", "game", "campaign", "status", "version", "created_at", "finished_at")
    list_filter = ("game", "status", "campaign")
    search_fields = ("title", "campaign__name")
    list_select_related = ("campaign",)
    date_hierarchy = "created_at"
    readonly_fields = (
        "campaign",
        "game",
        "status",
        "version",
        "seed",
        "created_by",
        "created_at",
        "updated_at",
        "finished_at",
        "config_json",
        "setup_draws_json",
        "state_json",
        "outcome_json",
    )
    fields = ("title", *readonly_fields)
    inlines = [SeatInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("config"))
    def config_json(self, table: Table) -> str:
        return pretty_json(table.config)

    @admin.display(description=_("setup draws"))
    def setup_draws_json(self, table: Table) -> str:
        return pretty_json(table.setup_draws)

    @admin.display(description=_("state"))
    def state_json(self, table: Table) -> str:
        return pretty_json(table.state)

    @admin.display(description=_("outcome"))
    def outcome_json(self, table: Table) -> str:
        return pretty_json(table.outcome)


@admin.register(TableAction)
class TableActionAdmin(admin.ModelAdmin):
    """The action log is an audit trail: read-only."""

    list_display = ("table", "seq", "kind", "seat", "user", "created_at")
    list_filter = ("kind",)
    search_fields = ("table__title", "client_action_id")
    list_select_related = ("table", "user")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: TableAction | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: TableAction | None = None) -> bool:
        return False

"""Invites in the admin, read-mostly: the GM's page makes and revokes them (with their activity
lines); staff can look and find who joined by which."""

from django.contrib import admin

from .models import Invite, InviteUse


class InviteUseInline(admin.TabularInline):
    model = InviteUse
    extra = 0
    can_delete = False
    readonly_fields = ("user", "membership", "name", "created_at")

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = ("campaign", "role", "commander", "max_uses", "expires_at", "revoked_at", "created_at")
    list_filter = ("role", "campaign")
    list_select_related = ("campaign", "commander")
    readonly_fields = ("campaign", "token", "role", "commander", "max_uses", "reissued_from", "created_by",
                       "created_at")
    fields = (*readonly_fields[:5], "expires_at", "revoked_at", *readonly_fields[5:])
    inlines = [InviteUseInline]

    def has_add_permission(self, request) -> bool:
        return False

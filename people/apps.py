from django.apps import AppConfig
from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _
from rosetta.signals import entry_changed


class PeopleConfig(AppConfig):
    """People without the admin (issue 23): sign-up, one's own account, password resets made by the
    GM, invites to a campaign, and the GM's members page. It sits above ``armies`` (an invite may name
    the commander the newcomer will run; removing a member hands their commanders to the GM)."""

    name = "people"
    verbose_name = _("People and invites")

    def ready(self) -> None:
        from .receivers import language_at_login, name_key_keep, translation_checked  # models are ready only now

        post_save.connect(name_key_keep, sender=settings.AUTH_USER_MODEL, dispatch_uid="people.name_key_keep")
        user_logged_in.connect(language_at_login, dispatch_uid="people.language_at_login")
        entry_changed.connect(translation_checked, dispatch_uid="people.translation_checked")

"""Read a campaign archive into a new campaign: ``manage.py campaign_import FILE [--as USERNAME]``."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from archive.format import ArchiveRefused
from archive.importer import campaign_import
from archive.jobs import NOTHING_IMPORTED
from archive.names import archive_gm_names
from muster.terminal import server_language


class Command(BaseCommand):
    help = ("Import a campaign archive as a new campaign (written hidden in short transactions, shown when whole: "
            "a refused archive leaves nothing). "
            "USERNAME (an account here) becomes its GM; by default the archive's first GM who has an account here.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")
        parser.add_argument("--as", dest="username", help="the account here that becomes the new campaign's GM")

    @server_language
    def handle(self, *args, file: str, username: str | None, **options) -> None:
        users = get_user_model().objects
        try:
            if username is None:
                with open(file, "rb") as source:
                    names = archive_gm_names(source)
                user = users.filter(username__in=names).order_by("pk").first() if names else None
                if user is None:
                    raise CommandError(
                        _("No GM of the archived campaign has an account here: name one with --as USERNAME."))
            else:
                user = users.filter(username=username).first()
                if user is None:
                    raise CommandError(_("There is no account %(name)s here.") % {"name": repr(username)})
            with open(file, "rb") as source:
                campaign = campaign_import(source, importer=user, by_operator=True)
        except ArchiveRefused as refusal:
            raise CommandError(f"{refusal.say(_)} {_(NOTHING_IMPORTED)}") from refusal
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror or error}") from error
        self.stdout.write(
            _("Imported %(name)s as the campaign %(slug)s, with %(gm)s as its GM.")
            % {"name": repr(campaign.name), "slug": repr(campaign.slug), "gm": user.username})
        if campaign.import_claims:
            count = len(campaign.import_claims)
            self.stdout.write(
                ngettext(
                    "%(count)d member has an invite to claim their place (an import makes nobody a member): "
                    "%(names)s. Hand each their link from the campaign's invites page.",
                    "%(count)d members have an invite to claim their place (an import makes nobody a member): "
                    "%(names)s. Hand each their link from the campaign's invites page.",
                    count,
                )
                % {"count": count, "names": ", ".join(campaign.import_claims)}
            )

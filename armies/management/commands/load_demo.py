"""Load the demo campaign: idempotent, so ``make run`` can call it every time.

The demo accounts get generated passwords, one each, kept in ``--logins-file`` (default
``.demo_logins``, 0600) and printed here on every run; an account still on the password the README
once printed gets a new one (armies/demo_logins.py says why and how). ``admin`` stays a staff
account, with a generated password like the others: a GM who runs the demo expects the card
catalogs at /admin/ without a further step, and a password seen only on the serving machine's
terminal is as private as one typed into ``createsuperuser``.
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import BaseCommand, call_command
from django.db import transaction
from django.utils.translation import gettext as _

from armies.demo import demo_armies
from armies.demo_logins import DemoLogin, demo_logins_secure, logins_path
from campaign.models import Campaign, Membership
from campaign.services import campaign_create, membership_add
from muster.terminal import server_language
from tabletop.catalog.snapshot import gridaris_config_cards
from tabletop.models import Table
from tabletop.services.tables import SeatSpec, table_create

SLUG = "distelblute"
CAMPAIGN_NAME = "The Siege of Distelblute"
PLAYERS = [
    ("ann", "Ann", "Captain Annika Vey"),
    ("ben", "Ben", "Lord Benedikt Marr"),
    ("cara", "Cara", "Cara of the Reeds"),
]

GM, ADMIN = "gm", "admin"
USERNAMES = [GM, *(name for name, _, _ in PLAYERS), ADMIN]


class Command(BaseCommand):
    help = "Create the demo campaign, its users and a Gridaris table (safe to run again)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--logins-file",
            help="where the demo accounts' generated passwords are kept "
            "(default: MUSTER_DEMO_LOGINS_FILE, else .demo_logins in the project)",
        )
        parser.add_argument(
            "--passwords-only",
            action="store_true",
            help="load nothing: only give demo accounts still on the published password new ones "
            "(make run DEMO=0 on a database that once held the demo)",
        )

    @server_language  # the terminal has no request: what it prints is in the server's language
    def handle(self, *args, **options):
        self.created: set[str] = set()
        path = logins_path(options["logins_file"])
        if options["passwords_only"]:
            rotated = [login for login in demo_logins_secure(usernames=USERNAMES, path=path) if login.rotated]
            if rotated:
                self.stdout.write(login_lines(rotated, path))
            return
        call_command("load_starter_catalogs")
        call_command("load_starter_units")
        call_command("load_starter_dungeon")
        with transaction.atomic():
            users = {name: self._user(name, first) for name, first, _ in PLAYERS}
            gm = self._user(GM, "Greta", staff=False)
            self._user(ADMIN, "Ada", staff=True)
            campaign = Campaign.objects.filter(slug=SLUG).first() or campaign_create(
                name=CAMPAIGN_NAME,
                slug=SLUG,
                gm=gm,
                description="Three captains, one mansion, not enough gold. (Demo campaign.)",
            )
            members = {
                name: membership_add(
                    campaign=campaign, user=users[name], role=Membership.Role.PLAYER, character_name=character
                )
                for name, _, character in PLAYERS
            }
            demo_armies(campaign, members)
            if not Table.objects.filter(campaign=campaign).exists():
                table_create(
                    campaign=campaign,
                    game="gridaris",
                    title="Gridaris at the Inn",
                    seats=[SeatSpec(membership=members["ann"]), SeatSpec(membership=members["ben"])],
                    config={"mode": "standard", "cards": gridaris_config_cards()},
                    created_by=gm,
                )
            logins = demo_logins_secure(usernames=USERNAMES, created=frozenset(self.created), path=path)
        address = settings.PUBLIC_BASE_URL or "http://127.0.0.1:8000"
        self.stdout.write(self.style.SUCCESS(_("Demo campaign ready: %(address)s/") % {"address": address}))
        self.stdout.write(login_lines(logins, path))

    def _user(self, username: str, first_name: str, staff: bool = False):
        user, created = get_user_model().objects.get_or_create(
            username=username,
            defaults={"first_name": first_name, "is_staff": staff, "is_superuser": staff, "password": "!"},
        )  # "!": no password at all until demo_logins_secure gives it its own
        if created:
            self.created.add(username)
        return user


def roles() -> dict[str, str]:
    """Who each demo account is, in the active language (the names are the demo's data)."""
    return {
        GM: _("the GM of %(campaign)s") % {"campaign": repr(CAMPAIGN_NAME)},
        **{name: _("player (%(character)s)") % {"character": character} for name, _first, character in PLAYERS},
        ADMIN: _("staff: card catalogs at /admin/"),
    }


def login_lines(logins: list[DemoLogin], path) -> str:
    """The logins as the terminal shows them: each account, its own password, who it is."""
    lines = ["  " + _("Logins (each its own password; kept in %(path)s, readable by you only):") % {"path": path}]
    who = roles()
    for login in logins:
        password = login.password or _("(changed on the site since: not shown)")
        lines.append(f"    {login.username:<7} {password:<16} {who[login.username]}")
    rotated = [login.username for login in logins if login.rotated]
    if rotated:
        names = ", ".join(rotated)
        lines.append(
            "  "
            + _("New passwords for %(names)s: they still had the demo password the README once printed.")
            % {"names": names}
        )
    return "\n".join(lines)

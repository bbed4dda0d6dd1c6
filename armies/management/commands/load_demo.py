"""Load the demo campaign: idempotent, so ``make run`` can call it every time."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import BaseCommand, call_command
from django.db import transaction

from armies.demo import demo_armies
from campaign.models import Campaign, Membership
from campaign.services import campaign_create, membership_add
from tabletop.catalog.snapshot import gridaris_config_cards
from tabletop.models import Table
from tabletop.services.tables import SeatSpec, table_create

PASSWORD = "muster-demo"
SLUG = "distelblute"
PLAYERS = [
    ("ann", "Ann", "Captain Annika Vey"),
    ("ben", "Ben", "Lord Benedikt Marr"),
    ("cara", "Cara", "Cara of the Reeds"),
]


class Command(BaseCommand):
    help = "Create the demo campaign, its users and a Gridaris table (safe to run again)."

    def handle(self, *args, **options):
        call_command("load_starter_catalogs")
        call_command("load_starter_units")
        call_command("load_starter_dungeon")
        with transaction.atomic():
            users = {name: self._user(name, first) for name, first, _ in PLAYERS}
            gm = self._user("gm", "Greta", staff=False)
            self._user("admin", "Ada", staff=True)
            campaign = Campaign.objects.filter(slug=SLUG).first() or campaign_create(
                name="The Siege of Distelblute",
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
        address = settings.PUBLIC_BASE_URL or "http://127.0.0.1:8000"
        self.stdout.write(self.style.SUCCESS(f"Demo campaign ready: {address}/"))
        self.stdout.write(f"  Logins (password for all: {PASSWORD})")
        self.stdout.write("    gm      the GM of 'The Siege of Distelblute'")
        for name, _, character in PLAYERS:
            self.stdout.write(f"    {name:<7} player ({character})")
        self.stdout.write("    admin   staff: card catalogs at /admin/")

    def _user(self, username: str, first_name: str, staff: bool = False):
        user, created = get_user_model().objects.get_or_create(
            username=username, defaults={"first_name": first_name, "is_staff": staff, "is_superuser": staff}
        )
        if created:
            user.set_password(PASSWORD)
            user.save(update_fields=["password"])
        return user

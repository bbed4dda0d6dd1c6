"""Seed data into the database of a server started by tests/venue_server.py (run as a script).

    python tests/venue_seed.py tables COUNT     guest Gridaris tables in the demo campaign
    python tests/venue_seed.py offer QUANTITY   a recruit offer of QUANTITY units at 1 coin
    python tests/venue_seed.py computer SEED    a Gridaris table of a guest and a quick computer, the guest
                                                to act first (so the server's own pool takes the next turn)
    python tests/venue_seed.py game GAME        a guest table of GAME (gotm with sorted piles, mercenarium), seed 5,
                                                and the seat to act first
    python tests/venue_seed.py words -          the texts people typed and the catalogs hold (tests/german.py
                                                typed_data), which a German page may show in English

Reads the same environment as the server (DATABASE_URL). Prints one line of JSON.
"""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")

DEMO_SLUG = "distelblute"


def tables(count: int) -> dict:
    from campaign.models import Campaign
    from tabletop.catalog.snapshot import gridaris_config_cards
    from tabletop.services.tables import SeatSpec, table_create

    campaign = Campaign.objects.get(slug=DEMO_SLUG)
    opened = []
    for number in range(count):
        table = table_create(
            campaign=campaign,
            game="gridaris",
            title=f"Venue table {number + 1}",
            seats=[SeatSpec(guest_name=f"Guest {number + 1}{letter}") for letter in "ab"],
            config={"mode": "standard", "cards": gridaris_config_cards()},
            seed=number + 1,
        )
        opened.append({"id": table.pk, "tokens": [seat.token for seat in table.seats.order_by("index")]})
    return {"slug": DEMO_SLUG, "tables": opened}


def offer(quantity: int) -> dict:
    from armies.models import Commander, UnitCard
    from armies.services.recruiting import offer_post
    from campaign.models import Campaign

    campaign = Campaign.objects.get(slug=DEMO_SLUG)
    card = UnitCard.objects.filter(active=True).order_by("code").first()
    posted = offer_post(campaign=campaign, card=card, price=1, quantity=quantity)
    commanders = list(Commander.objects.filter(campaign=campaign).order_by("pk").values_list("pk", flat=True))
    return {"slug": DEMO_SLUG, "offer": posted.pk, "commanders": commanders}


def computer(seed: int) -> dict:
    """Both seats open as guests, then the one not acting first becomes the computer's: the table's
    first computer turn comes after a guest's tap, in the server (created here, it would go to this
    script's own pool)."""
    from campaign.models import Campaign
    from tabletop.catalog.snapshot import gridaris_config_cards
    from tabletop.engines import get_engine
    from tabletop.services.tables import SeatSpec, table_create

    table = table_create(
        campaign=Campaign.objects.get(slug=DEMO_SLUG),
        game="gridaris",
        title="Venue table against the computer",
        seats=[SeatSpec(guest_name="Guest"), SeatSpec(guest_name="Computer")],
        config={"mode": "standard", "cards": gridaris_config_cards()},
        seed=seed,
    )
    human = get_engine("gridaris").to_act(table.state)[0]
    table.seats.exclude(index=human).update(bot="quick")
    return {"id": table.pk, "tokens": [seat.token for seat in table.seats.order_by("index")], "human": human}


def game(name: str) -> dict:
    """Two guests at a table of GOT'M (the piles sorted, as tests/tabletop/browser/test_browser_gotm.py has them:
    the shopper's hearts are 3 5 7 9, the shop shows the Ogre Warrior J♥) or Mercenarium, seed 5."""
    from campaign.models import Campaign
    from tabletop.engines import get_engine
    from tabletop.engines.gotm import cards
    from tabletop.services.tables import SeatSpec, table_create

    configs = {
        "gotm": {
            "series_game": 0,
            "decks": {
                "mercenaries": list(cards.MERCENARIES),
                "resources": list(cards.RESOURCES),
                "artifacts": list(cards.ARTIFACTS),
            },
        },
        "mercenarium": {},
    }
    table = table_create(
        campaign=Campaign.objects.get(slug=DEMO_SLUG),
        game=name,
        title=f"Venue table of {name}",
        seats=[SeatSpec(guest_name=f"Guest {letter}") for letter in "ab"],
        config=configs[name],
        seed=5,
    )
    first = get_engine(name).to_act(table.state)[0]
    return {"id": table.pk, "tokens": [seat.token for seat in table.seats.order_by("index")], "first": first}


def main() -> None:
    import django

    django.setup()
    command, argument = sys.argv[1], sys.argv[2]
    if command == "game":
        answer = game(argument)
    elif command == "words":
        from tests.german import typed_data

        answer = sorted(typed_data())
    else:
        answer = {"tables": tables, "offer": offer, "computer": computer}[command](int(argument))
    print(json.dumps(answer))


if __name__ == "__main__":
    main()

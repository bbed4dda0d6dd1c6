"""Every page family in German (issue 41): a GM, a player, staff and a guest at a seat each follow every link
of the site from their first page, with the browser asking for German, and no page answers in English: each
says ``Content-Language: de`` and holds no English word outside data (card names and texts, what people
named, the games' titles: tests/german.py)."""

from __future__ import annotations

import json
import os
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.urls import reverse

from armies.catalog import unit_catalog_load_starter
from armies.models import UnitCard
from people.services.invites import invite_create
from tabletop.engines import get_engine
from tabletop.engines.kernel import SeededRng
from tabletop.services.projector import projector_issue
from tabletop.services.tables import SeatSpec, table_create

from tests.armies.factories import ArmyUnitFactory, CommanderFactory
from tests.browser_pages import GAMES, mid_game, tables
from tests.german import english_left, typed_data

pytestmark = pytest.mark.django_db
GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}
MOST_PAGES = 160  # a bound on each walk; the site has far fewer page families
HREF = "href"
# Links a walk does not follow: leaving, files, the admin and its translations (Django's own), and a seat's
# log, which ends the game for good (ruling P7).
NOT_FOLLOWED = ("/accounts/logout", "/admin/", "/jsi18n/", "/static/", "/ws/", ".csv", "/log/", "/download",
                "/export", "/sw.js", "/healthz")


class _Links(HTMLParser):
    def __init__(self, html: str):
        super().__init__()
        self.hrefs: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.hrefs.extend(value for name, value in attrs if name == HREF and value)


def same_site_links(page_url: str, html: str) -> list[str]:
    links = []
    for href in _Links(html).hrefs:
        url = urljoin(page_url, href)
        parts = urlsplit(url)
        if parts.netloc not in ("", "testserver") or not parts.path.startswith("/"):
            continue
        if any(marker in parts.path for marker in NOT_FOLLOWED):
            continue
        links.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return links


def walk(client, start: list[str]) -> dict[str, list[str]]:
    """{page: its English} of every page reached from ``start`` by links, each asked in German."""
    data, seen, queue, found = typed_data(), set(), list(start), {}
    while queue and len(seen) < MOST_PAGES:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url, **GERMAN)
        if response.status_code in (301, 302):
            queue.append(response["Location"])
            continue
        # a link may lead to a refusal (the GM's list names the members' seats): that page is German too
        assert response.status_code in (200, 403, 404), (url, response.status_code)
        if "text/html" not in response.get("Content-Type", ""):
            continue
        assert response["Content-Language"] == "de", url
        html = response.content.decode()
        english = english_left(html, data)
        if english:
            found[url] = english
        if response.status_code == 200:
            queue.extend(link for link in same_site_links(url, html) if link not in seen)
    assert len(seen) > 3, seen
    print(f"{len(seen)} pages walked")  # noqa: T201 (how far the walk went, shown with -s)
    if os.environ.get("GERMAN_DUMP"):
        with open(os.environ["GERMAN_DUMP"], "a") as dump:
            dump.write(json.dumps(found) + "\n")
    return found


@pytest.fixture
def site(world):
    unit_catalog_load_starter()
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", balance=30)
    for card in UnitCard.objects.all()[:3]:
        ArmyUnitFactory(commander=vey, card=card)
    played = tables(world)
    projector = projector_issue(table_id=played["army"].pk, replacing="")
    invite_create(campaign=world.campaign, created_by=world.gm.user, max_uses=3)
    guests = {}
    for number, game in enumerate(GAMES):
        config = get_engine(game).random_config(SeededRng(number))
        seats = [SeatSpec(guest_name=f"Gast {n + 1}") for n in range(len(config["players"]))]
        table = table_create(campaign=world.campaign, game=game, title=f"Gäste {number}", config=config,
                             seats=seats, seed=number)
        guests[game] = mid_game(table)
    return {"tables": played, "guests": guests, "projector": projector.token}


@pytest.mark.parametrize("who", ["gm", "ann", "staff"])
def test_every_page_a_member_or_staff_reaches_is_german(client, world, site, who):
    user = world.staff if who == "staff" else getattr(world, who).user
    client.force_login(user)
    start = [reverse("campaign:home"), reverse("people:account")]
    if who != "staff":
        start.append(reverse("campaign:detail", args=[world.campaign.slug]))
    assert walk(client, start) == {}


def test_every_page_a_guest_reaches_from_a_seat_or_the_projector_is_german(client, world, site):
    start = [reverse("tabletop:seat_table", args=[table.seats.get(index=0).token]) for table in site["guests"].values()]
    start += [reverse("tabletop:projector", args=[site["projector"]]), reverse("login"), reverse("people:signup")]
    assert walk(client, start) == {}

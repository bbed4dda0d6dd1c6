"""The Content-Security-Policy holds on the main pages: nothing is refused in a real browser.

Every page is opened in Chromium with a listener for ``securitypolicyviolation`` events and
the console's "Refused to ..." messages; the pages are the ones with the riskiest markup:
the GM's Army table with the odds bars, a Gridaris board (its column count), a seat's
phone, the campaign page, a battle's set-up page and the Django admin's change list.
"""

import pytest
from django.urls import reverse

from armies.services.commanders import commander_create
from tabletop.engines import army
from tabletop.services.tables import table_play

from tests.browser import PHONE, TABLET, chromium, log_in
from tests.factories import army_table, gridaris_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LISTEN = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  e => window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + (e.sample || '')));
"""


def to_revealed_skirmish(table):
    """Play until the GM sees the odds of a revealed skirmish (the bars)."""
    for _ in range(200):
        if "odds" in army.view(table.state, "gm") and army.view(table.state, "gm")["odds"]:
            return table
        seat = army.to_act(table.state)[0]
        actions = army.legal_actions(table.state)
        action = next((a for a in actions if a["type"] == "play"), actions[0])
        table = table_play(table_id=table.pk, seat=seat, action=action, version=table.version).table
    raise AssertionError("no revealed skirmish")


def watched(page):
    refused = []
    page.on("console", lambda message: refused.append(message.text) if "Refused to" in message.text else None)
    page.add_init_script(LISTEN)
    return refused


def violations(page, url: str, refused: list, ready: str) -> list[str]:
    page.goto(url)
    page.wait_for_selector(ready)
    page.wait_for_timeout(1500)  # a poll or two, and htmx's own start-up
    return refused + page.evaluate("window.__csp")


def test_the_main_pages_break_no_rule_of_the_content_security_policy(live_server, world):
    battle = to_revealed_skirmish(army_table(world.campaign, [world.ann, world.ben]))
    board = gridaris_table(world.campaign, [world.ann, "Gus"])
    slug = world.campaign.slug
    commander = commander_create(campaign=world.campaign, membership=world.ann, name="Lady Vey", kind="pc",
                                 progression=4, role="guardian", path="steel", created_by=world.gm.user)
    with chromium() as browser:
        gm = log_in(browser, live_server, "gm", TABLET)
        refused = watched(gm)
        for url, ready in (
            (reverse("tabletop:gm_table", args=[slug, battle.pk]), ".army-bars"),
            (reverse("tabletop:gm_table", args=[slug, board.pk]), ".board"),
            (reverse("campaign:detail", args=[slug]), "main"),
            (reverse("armies:battle_new", args=[slug]), "main"),
            (reverse("armies:commander", args=[slug, commander.pk]), "#roster"),
        ):
            assert violations(gm, live_server.url + url, refused, ready) == [], url
        gm.select_option("select[data-submit-on-change]", index=1)  # the roster's day: script, not inline
        gm.wait_for_url("**/armies/*/?day=1")

        phone = log_in(browser, live_server, "ann", PHONE)
        refused = watched(phone)
        seat = reverse("tabletop:seat_table", args=[battle.seats.get(index=0).token])
        assert violations(phone, live_server.url + seat, refused, "#live") == []

        admin = log_in(browser, live_server, "staff", TABLET)
        refused = watched(admin)
        change = reverse("admin:campaign_campaign_change", args=[world.campaign.pk])
        for url in (reverse("admin:armies_unitcard_changelist"), reverse("admin:campaign_campaign_changelist"), change):
            assert violations(admin, live_server.url + url, refused, "#content") == [], url


def test_every_response_carries_the_policy(client, world):
    policy = client.get(reverse("login"))["Content-Security-Policy"]
    for directive in ("default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
                      "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'"):
        assert directive in policy
    assert "unsafe-inline" not in policy

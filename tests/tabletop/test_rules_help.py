"""Rules help on tap (issue 15): every power, benefit, Role and Path the Army engine knows has a help text,
and each game's page shows the help for the terms it uses, as popovers that need no script."""

import re

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe

from armies.services.commanders import commander_create
from tabletop.engines import army, get_engine
from tabletop.engines.army.common import PATHS, POWER_TABLE, ROLES
from tabletop.engines.army.powers import POWERS
from tabletop.rules_help import GAME_TERMS, HELP, help_key
from tabletop.services.tables import SeatSpec, table_create
from tabletop.templatetags import rules_help as tags

from tests.factories import army_table, gridaris_table

CONFIGS = {"gotm": {"series_game": 0}, "mercenarium": {}, "dungeon": {"mode": "competitive", "variant": "pairs"}}


def test_every_power_benefit_role_and_path_the_engine_knows_has_help():
    missing = [key for key in (*POWERS, *POWER_TABLE.values(), *ROLES, *PATHS) if key not in HELP]
    assert missing == []
    for key, power in POWERS.items():  # the page shows a power by its title: the title finds the same text
        assert help_key(power.title) == key, power.title
        assert HELP[key].source == "Army Rules, Commander Powers"
    assert all(entry.text and entry.source for entry in HELP.values())


def test_every_term_a_page_offers_has_help_and_quotes_its_rulebook():
    assert all(key in HELP for terms in GAME_TERMS.values() for key in terms)
    assert '"Only two cards with the Ritual role may be played by a commander each Battle one per Phase.' in \
        HELP["ritual"].text
    assert "If a commander could play a card on Defense but does not" in HELP["unopposed"].text


def helps(html: str) -> dict[str, str]:
    """Each help on the page: its key -> its popover's id; every button opens a popover that is on the page."""
    found = {}
    for key, target in re.findall(r'<span class="rules-help" data-help="([^"]+)"><button type="button" '
                                  r'class="help-term" popovertarget="([^"]+)"', html):
        assert f'<span id="{target}" class="help-pop" popover ' in html
        found[key] = target
    ids = re.findall(r'<span id="(rh-[^"]+)"', html)
    assert len(ids) == len(set(ids)), "two helps share an id"
    return found


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["gridaris", "gotm", "mercenarium", "dungeon"])
def test_each_card_game_page_offers_the_help_of_its_terms(client, world, game):
    if game == "gridaris":
        table = gridaris_table(world.campaign, [world.ann, world.ben])
    else:
        table = table_create(campaign=world.campaign, game=game, title=f"A {game} table",
                             seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
                             config=CONFIGS[game], seed=5)
    client.force_login(world.ann.user)
    html = client.get(reverse("tabletop:seat_table", args=[table.seats.get(index=0).token])).content.decode()
    shown = helps(html)
    assert set(GAME_TERMS[game]) <= set(shown), set(GAME_TERMS[game]) - set(shown)
    assert get_engine(game).TITLE
    assert "<script>" not in html  # popovers open without any script (CSP)


@pytest.mark.django_db
def test_the_battle_page_explains_each_commanders_power_and_benefit_and_the_roles(client, world):
    config = army.starter_config(players=["Ann", "Ben"], units=(("soldier",), ("treant",)), dice="app")
    table = army_table(world.campaign, [world.ann, world.ben], config=config)
    powers = {commander["power"] for commander in table.state["commanders"]}
    client.force_login(world.gm.user)
    html = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])).content.decode()
    shown = helps(html)
    assert powers <= set(shown), powers
    assert {"aggressor", "guardian", "healer", "savant", "equipment", "ritual", "unopposed", "exhausted"} <= set(shown)
    for power in powers:
        assert escape(HELP[power].text) in html


@pytest.mark.django_db
def test_the_commander_page_explains_the_commanders_power(client, world):
    commander = commander_create(campaign=world.campaign, membership=world.ann, name="Lady Vey", kind="pc",
                                 progression=4, role="guardian", path="faith", created_by=world.gm.user)
    client.force_login(world.ann.user)
    html = client.get(reverse("armies:commander", args=[world.campaign.slug, commander.pk])).content.decode()
    shown = helps(html)
    assert "oathbound" in shown and {"aggressor", "guardian", "healer", "savant"} <= set(shown)
    assert "If that unit is Killed, it is only Disabled." in html


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_tap_on_a_term_opens_its_help_on_a_phone_and_close_hides_it(live_server, world):
    from tests.browser import PHONE, chromium, log_in

    table = table_create(campaign=world.campaign, game="dungeon", title="The Mansion",
                         seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
                         config=CONFIGS["dungeon"], seed=5)
    with chromium() as browser:
        page = log_in(browser, live_server, "ann", {**PHONE, "viewport": {"width": 360, "height": 780}})
        page.goto(live_server.url + reverse("tabletop:seat_table", args=[table.seats.get(index=0).token]))
        term = page.locator('[data-help="dungeon.ambush"] .help-term')
        help_text = page.locator('[data-help="dungeon.ambush"] .help-pop')
        assert help_text.is_hidden()
        box = term.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44
        term.tap()
        assert help_text.is_visible() and "Reserve Monster Deck" in help_text.inner_text()
        page.screenshot(path="/tmp/e/help-open.png")
        help_text.locator(".help-close").tap()
        assert help_text.is_hidden()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_cached_button_escapes_a_label_as_its_first_render_did_not(settings):
    """Buttons render once per process (issue 26): a plain label that reads like HTML is escaped even when
    a safe label with the same characters rendered first, and ids still count up within each render."""
    settings.DEBUG = False
    safe = Template('{% load rules_help %}{% rules_help "unopposed" label %}').render(
        Context({"label": mark_safe("<b>Unopposed</b>")}))
    plain = Template('{% load rules_help %}{% rules_help "unopposed" label %}{% rules_help "unopposed" %}').render(
        Context({"label": "<b>Unopposed</b>"}))
    assert "<b>Unopposed</b>" in safe and "<b>" not in plain and "&lt;b&gt;Unopposed&lt;/b&gt;" in plain
    assert 'id="rh-unopposed-1"' in plain and 'id="rh-unopposed-2"' in plain


def test_a_games_row_renders_once_per_first_id_and_as_it_does_uncached(settings, monkeypatch):
    """The row of a game's terms is cached whole by its terms and first id (issue 40): the same HTML as
    rendered afresh (DEBUG), ids counting on from the terms before it, and no button looked up again."""
    page = Template('{% load rules_help %}{% rules_help "unopposed" %}{% rules_help_terms "army" %}'
                    '{% rules_help_terms "gridaris" %}')
    settings.DEBUG = True
    fresh = page.render(Context())
    settings.DEBUG = False
    assert page.render(Context()) == fresh
    looked_up, button = [], tags._button_once
    monkeypatch.setattr(tags, "_button_once", lambda *args: looked_up.append(args) or button(*args))
    assert page.render(Context()) == fresh and len(looked_up) == 1  # only the lone term's button
    ids = re.findall(r'id="(rh-[a-z-]+-\d+)"', fresh)
    assert len(ids) == len(set(ids)) and ids[0] == "rh-unopposed-1" and ids[1].endswith("-2")


def test_a_cached_button_and_row_are_kept_per_language(settings, monkeypatch):
    """The help is shown in the reader's language (issue 41): a button or a row cached for one language is
    never served to a reader of another, whichever was rendered first."""
    settings.DEBUG = False
    monkeypatch.setattr(tags, "gettext", lambda text: text.upper() if translation.get_language() == "de" else text)
    # a label given as the page shows it stays the same in both languages: only the help's text tells them apart
    page = Template('{% load rules_help %}{% rules_help "unopposed" "Unopposed" %}{% rules_help_terms "gridaris" %}')
    try:
        english = page.render(Context())
        with translation.override("de"):
            german = page.render(Context())
        again = page.render(Context())
    finally:
        for cached in (tags._button_once, tags._row_once, tags._row_at_once):
            cached.cache_clear()
    assert "IF A COMMANDER COULD PLAY" in german and "BATTLEFIELD" in german and "GLOSSARY OF TERMS" in german
    assert english == again and "If a commander could play" in english and "Battlefield" in english
    assert "IF A COMMANDER" not in english and "BATTLEFIELD" not in english

"""The luck report on the pages (armies/selectors/luck.py, armies/luck_words.py): the battle result, the
commander page over the campaign, the GM's armies page; who sees what; what-ifs never count; fixed queries."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armies.models import Battle
from armies.selectors import luck
from tabletop.models import Table, TableAction

from tests.armies._battles import drive, open_battle
from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory

pytestmark = pytest.mark.django_db


def plain_play(legal):
    """Play a unit with its printed Role (the Master of Arms could make it an Aggressor)."""
    return next((a for a in legal if a["type"] == "play" and "role" not in a), None)


def fight(world, attacker, defender, dice, **kwargs):
    """A finished battle at a physical-dice table: the GM enters ``dice(label)`` for every die."""
    battle = open_battle(world, attacker, defender, dice="physical", **kwargs)
    drive(Table.objects.get(pk=battle.table_id), dice=dice, prefer=plain_play)
    return Battle.objects.get(pk=battle.pk)


def strong_offense(label):
    return 6 if "(Offense)" in label else 1


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def armies(world):
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", role="aggressor", path="steel")
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", role="aggressor", path="steel")
    ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Spearmen", strength=3, role="savant"))
    ArmyUnitFactory(commander=marr, card=UnitCardFactory(name="Shieldwall", strength=3, role="savant"))
    return vey, marr


@pytest.fixture
def battle(world, armies):
    # One skirmish: Spearmen 3 + 6 = 9 against Shieldwall 3 + 1 = 4 (Killed); then neither side
    # has a skirmish to fight (Marr has no unit left: Lady Vey's attack is not Unopposed, AR3).
    return fight(world, *armies, strong_offense)


def page(client, user, name, *args):
    client.force_login(user)
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


def test_the_result_page_shows_every_roll_and_each_commanders_luck(client, world, battle):
    html = page(client, world.gm.user, "armies:battle_result", world.campaign.slug, battle.pk)
    section = html[html.index('id="luck"'):]
    rows = section[section.index('id="luck-rolls"'):]
    # The Spearmen's 6 (3 + 6 = 9): at least as well is a 6, 1/6 = 17 %. Before the dice, 3 against 3
    # with equal bases: 1/2 (ties re-roll). After the 6 the Shieldwall needs a 6 to tie: 5/6 + 1/6 * 1/2
    # = 11/12 = 92 %: a swing of 5/12 = +42 %.
    # On the luck scale (higher is luckier, ruling LK2): a 6 is better than 5 rolls in 6, the 83rd percentile.
    spear = rows[rows.index("Spearmen (Offense)"):]
    spear = spear[:spear.index("</tr>")]
    assert "die 6 + Strength 3 = 9" in spear and "+42 %" in spear and "50 % → 92 %" in spear
    assert "luck: 83rd percentile: better than 83 of 100 rolls" in spear
    # The Shieldwall's 1: no roll does worse, the 0th percentile; its chance went from 1/12 (8 %) to 0.
    shield = rows[rows.index("Shieldwall (Defense)"):]
    shield = shield[:shield.index("</tr>")]
    assert "die 1 + Strength 3 = 4" in shield and "−8 %" in shield and "8 % → 0 %" in shield
    assert "luck: 0th percentile: better than 0 of 100 rolls" in shield
    assert "lower is luckier" not in section
    # Lady Vey won a skirmish she had 1/2 of winning: +0.50 (her die +5/12, Marr's die +1/12).
    assert "<strong>Lady Vey</strong>: +0.50 skirmishes above the odds" in section
    assert "their own dice +0.42" in section
    assert "their rolls on average better than 83 of 100" in section
    assert "<strong>Lord Marr</strong>: −0.50 skirmishes below the odds" in section
    assert rows.count("<tr>") == 3  # the head and the two dice


def test_each_roll_shows_its_die_strength_and_every_named_modifier_adding_up_to_its_total(client, world):
    # The example: a roll of 2 with Strength 5 and Master of Arms showed only "total 8".
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", role="aggressor", path="steel")
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", role="aggressor", path="steel")
    ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Berserkers", strength=5, role="aggressor"))
    ArmyUnitFactory(commander=marr, card=UnitCardFactory(name="Shieldwall", strength=3, role="savant"))
    battle = fight(world, vey, marr, lambda label: 2 if "(Offense)" in label else 1)
    html = page(client, world.gm.user, "armies:battle_result", world.campaign.slug, battle.pk)
    section = html[html.index('id="luck-rolls"'):]
    row = section[section.index("Berserkers (Offense)"):]
    row = row[:row.index("</tr>")]
    # An Aggressor rolls 2d6 and keeps the best.
    assert "best of 2 and 2: 2 + Strength 5 + Master of Arms: Aggressor 1 = 8" in row
    shield = section[section.index("Shieldwall (Defense)"):]
    assert "die 1 + Strength 3 = 4" in shield[:shield.index("</tr>")]


def test_the_tie_rule_is_stated_with_its_ruling(client, world, battle):
    html = page(client, world.gm.user, "armies:battle_result", world.campaign.slug, battle.pk)
    section = html[html.index('id="luck"'):]
    assert "Ties go in favor of the unit with the highest base Strength" in section
    assert "a tied pair moves nobody's chance: ±0 %" in section and "ruling LK3" in section


def test_the_battle_result_draws_the_win_chance_over_the_battle_with_a_text_alternative(client, world, battle):
    html = page(client, world.gm.user, "armies:battle_result", world.campaign.slug, battle.pk)
    section = html[html.index('id="luck"'):]
    chart = section[section.index("<svg"):section.index("</svg>")]
    assert 'role="img"' in chart and 'aria-labelledby="luck-chart-title luck-chart-desc"' in chart
    assert '<title id="luck-chart-title">Lady Vey&#x27;s chance to win each skirmish, roll by roll</title>' in chart
    desc = chart[chart.index('<desc id="luck-chart-desc">'):chart.index("</desc>")]
    # The Spearmen's 6 took Lady Vey from 50 % to 92 %; the Shieldwall's 1 from 92 % to 100 %.
    assert "Skirmish 1: 50 % before the dice" in desc
    assert "Spearmen (Offense), Lady Vey: 92 % (+42 %)" in desc
    assert "Shieldwall (Defense), Lord Marr: 100 % (+8 %)" in desc
    assert chart.count('class="luck-swing luck-') == 2  # one bar per roll's swing
    assert "style=" not in section  # the page's CSP allows no style attribute: classes and SVG attributes only


def test_a_player_of_the_battle_sees_it_and_a_battle_in_progress_has_no_luck_yet(client, world, armies, battle):
    html = page(client, world.ann.user, "armies:battle_result", world.campaign.slug, battle.pk)
    assert "+0.50 skirmishes above the odds" in html
    vey, marr = armies
    ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Archers", strength=2, role="savant"))
    ArmyUnitFactory(commander=marr, card=UnitCardFactory(name="Pikes", strength=2, role="savant"))
    ongoing = open_battle(world, vey, marr, dice="physical", override_reason="A rematch")
    html = page(client, world.gm.user, "armies:battle_result", world.campaign.slug, ongoing.pk)
    assert 'id="luck"' not in html
    # Nothing of a battle still being fought (face-down cards, dice to come) reaches the luck pages.
    assert [line.battle_id for line in luck.commander_report(vey).lines] == [battle.pk]
    assert [t.battles for t in luck.campaign_report(world.campaign.pk)] == [1, 1]


def test_the_commander_page_sums_the_campaign_and_links_each_battle(client, world, armies, battle):
    vey, marr = armies
    # A second battle, the dice the other way round: the Spearmen roll 1, the Shieldwall 6.
    ArmyUnitFactory(commander=marr, card=UnitCardFactory(name="Shieldwall II", strength=3, role="savant"))
    again = fight(world, vey, marr, lambda label: 1 if "(Offense)" in label else 6, override_reason="A rematch")
    report = luck.commander_report(vey)
    assert [line.battle_id for line in report.lines] == [battle.pk, again.pk]
    assert report.lines[0].words == "+0.50 skirmishes above the odds"
    html = page(client, world.ann.user, "armies:commander", world.campaign.slug, vey.pk)
    section = html[html.index('id="luck"'):]
    assert reverse("armies:battle_result", args=[world.campaign.slug, battle.pk]) in section
    assert reverse("armies:battle_result", args=[world.campaign.slug, again.pk]) in section
    assert f"over {report.tally.battles} battles" in section and report.tally.words in section


def test_a_player_cannot_see_another_commanders_luck(client, world, armies, battle):
    _, marr = armies
    client.force_login(world.ann.user)
    assert client.get(reverse("armies:commander", args=[world.campaign.slug, marr.pk])).status_code in (403, 404)
    html = page(client, world.ann.user, "armies:list", world.campaign.slug)
    assert "Luck at the dice" not in html and "skirmishes below the odds" not in html


def test_the_gm_armies_page_ranks_every_commander_luckiest_first(client, world, battle):
    html = page(client, world.gm.user, "armies:list", world.campaign.slug)
    section = html[html.index("Luck at the dice"):]
    assert section.index("Lady Vey") < section.index("Lord Marr")
    assert "+0.50 skirmishes above the odds" in section and "−0.50 skirmishes below the odds" in section


def test_the_gms_campaign_view_leads_to_the_luck_table_and_a_players_does_not(client, world, battle):
    luck_link = reverse("armies:list", args=[world.campaign.slug]) + "#luck"
    assert luck_link in page(client, world.gm.user, "campaign:detail", world.campaign.slug)
    assert luck_link not in page(client, world.ann.user, "campaign:detail", world.campaign.slug)


def test_a_what_if_table_never_counts(world, armies, battle):
    vey, _ = armies
    assert luck.commander_report(vey).tally.battles == 1
    Table.objects.filter(pk=battle.table_id).update(what_if=True)
    assert luck.commander_report(vey).lines == []
    assert luck.campaign_report(world.campaign.pk) == []
    assert luck.battle_report(Battle.objects.get(pk=battle.pk)) is None


def test_a_log_that_does_not_replay_says_so_instead_of_inventing(client, world, battle):
    entry = TableAction.objects.filter(table_id=battle.table_id, action__type="roll").order_by("seq").first()
    entry.action = {**entry.action, "values": [2, 2]}
    entry.save(update_fields=["action"])
    html = page(client, world.gm.user, "armies:battle_result", world.campaign.slug, battle.pk)
    assert "No luck report" in html and "skirmishes above the odds" not in html


def count(client, url):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_pages_do_a_fixed_number_of_queries(client, world, armies, battle):
    vey, marr = armies
    client.force_login(world.gm.user)
    urls = [reverse("armies:battle_result", args=[world.campaign.slug, battle.pk]),
            reverse("armies:commander", args=[world.campaign.slug, vey.pk]),
            reverse("armies:list", args=[world.campaign.slug])]
    cold = [count(client, url) for url in urls[1:]]
    warm = [count(client, url) for url in urls[1:]]
    assert [c - w for c, w in zip(cold, warm, strict=True)] == [2, 0]  # the GM page reuses the report cached
    for name in ("Shieldwall II", "Shieldwall III"):
        ArmyUnitFactory(commander=marr, card=UnitCardFactory(name=name, strength=3, role="savant"))
        fight(world, vey, marr, strong_offense, override_reason="A rematch")
    cache.clear()
    assert [count(client, url) for url in urls[1:]] == cold
    assert [count(client, url) for url in urls[1:]] == warm
    cache.clear()
    result_cold = count(client, urls[0])
    assert count(client, urls[0]) == result_cold - 2


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_luck_sections_fit_a_360_px_phone(live_server, world, armies, battle):
    from tests.a11y import phone_check
    from tests.browser import chromium, log_in

    vey, _ = armies
    slug = world.campaign.slug
    pages = [reverse("armies:battle_result", args=[slug, battle.pk]), reverse("armies:commander", args=[slug, vey.pk]),
             reverse("armies:list", args=[slug])]
    findings: list[str] = []
    with chromium() as browser:
        page = log_in(browser, live_server, "gm", {"viewport": {"width": 360, "height": 740}, "is_mobile": True,
                                                  "has_touch": True})
        for path in pages:
            assert page.goto(live_server.url + path).status == 200
            page.wait_for_selector("#luck")
            findings += phone_check(page, path)
        page.context.close()
    assert not findings, "\n".join(findings)

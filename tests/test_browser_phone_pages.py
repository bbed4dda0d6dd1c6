"""Every page a user reaches fits a 360 px phone: no sideways scroll, 44 px taps, no serious axe finding.

One Chromium, one context per role (the GM, two players, a guest at the login page), every page
visited in sequence at 360x740: the GM's campaign, army, treasury, offer, battle, day-end and
table pages (each game's table page, mid-game, and its new-table form), a player's home,
commander and seat pages for each game, and the other player's seat pages (so both the deciding
and the waiting phone of every game are seen). Each page is checked by ``tests.a11y.phone_check``:
``document.documentElement.scrollWidth <= innerWidth``, every visible tap target at least
44x44 px (inline links in running text exempt: ruling PF1) and axe-core with no serious or
critical violation. All findings are gathered, so one run lists every page's problems.
The pages of accounts, members, invites, the archive and the printed sheets get one axe pass each, at 360 px with
every folded part open (issue 38).
``PHONE_SHOTS=/some/dir`` keeps a full-page screenshot of every page visited, to look at.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from archive.models import ImportJob
from armies.models import Battle, DayEnd
from armies.services.battles import battle_finish
from armies.services.commanders import commander_create
from armies.services.recruiting import recruit_buy
from people.services.invites import invite_create, invites_for_sheet
from people.services.owner import owner_link_issue
from people.services.resets import reset_link_for_member

from tests.a11y import assert_accessible, axe_findings, phone_check, sideways, small_tap_targets, split_words
from tests.armies.factories import RecruitOfferFactory, UnitCardFactory
from tests.browser import PHONE_360, chromium, log_in
from tests.browser_pages import GAMES, axe_pass, tables

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



def campaign_with_armies(world):
    """Ann's commander with units and a finished battle against Ben's, and an offer on the market."""
    campaign = world.campaign
    make = dict(campaign=campaign, kind="pc", progression=4, role="guardian", path="steel",
                opening_balance=40, created_by=world.gm.user)
    vey = commander_create(membership=world.ann, name="Lady Vey", **make)
    marr = commander_create(membership=world.ben, name="Lord Marr", **make)
    offer = RecruitOfferFactory(campaign=campaign, card=UnitCardFactory(name="Halberdiers", upkeep=1), price=2)
    units = [recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.ann.user) for _ in range(2)]
    battle = Battle.objects.create(campaign=campaign, attacker=vey, defender=marr, day=1)
    battle_finish(battle=battle, ended_at=timezone.now(), winner=vey, routed=marr, used_units=units, killed_units=[])
    return vey, offer, battle


def visit(page, url: str, findings: list) -> None:
    response = page.goto(url)
    if response is None or response.status != 200:
        findings.append(f"{url}: answered {response and response.status}, not 200")
        return
    page.wait_for_selector("main")
    findings += phone_check(page, urlsplit(url).path)
    if "/tables/" in url or "/play/" in url:  # a game's page: no word broken across lines (issue 25)
        findings += [f"{urlsplit(url).path}: a word broken across lines: {word}" for word in split_words(page)]
    shots = os.environ.get("PHONE_SHOTS")  # a directory: keep a full-page picture of each page, to look at
    if shots:
        name = urlsplit(url).path.strip("/").replace("/", "_")[:60] or "home"
        page.screenshot(path=f"{shots}/{len(os.listdir(shots)):02d}-{name}.png", full_page=True)


def test_every_page_fits_a_360_px_phone_with_44_px_taps_and_no_serious_axe_finding(live_server, world):
    call_command("load_starter_dungeon", verbosity=0)
    vey, offer, battle = campaign_with_armies(world)
    by_game = tables(world)
    slug = world.campaign.slug
    base = live_server.url

    def url(name, *args):
        return base + reverse(name, args=args)

    gm_pages = [
        url("campaign:home"), url("campaign:detail", slug), url("campaign:activity", slug),
        url("campaign:settings", slug), url("armies:list", slug), url("armies:commander", slug, vey.pk),
        url("armies:commander_new", slug), url("armies:commander_edit", slug, vey.pk),
        url("armies:treasury", slug), url("armies:offer_list", slug),
        url("armies:offer_edit", slug, offer.pk), url("armies:battle_new", slug),
        url("armies:battle_result", slug, battle.pk), url("armies:day_end", slug), url("password_change"),
        *(url("tabletop:table_new", slug, game) for game in GAMES if game != "army"),  # a battle opens from armies
        *(url("tabletop:gm_table", slug, table.pk) for table in by_game.values()),
        url("tabletop:public_table", slug, by_game["gridaris"].pk),
        url("tabletop:table_abandon", slug, by_game["gotm"].pk),
    ]
    player_pages = [
        url("campaign:home"), url("campaign:detail", slug), url("armies:list", slug),
        url("armies:commander", slug, vey.pk), url("armies:battle_result", slug, battle.pk),
        *(url("tabletop:seat_table", table.seats.get(index=0).token) for table in by_game.values()),
    ]
    # the other seat's phone: between the two, one is deciding and one waiting at every table
    other_player_pages = [url("tabletop:seat_table", table.seats.get(index=1).token) for table in by_game.values()]
    findings: list[str] = []
    with chromium() as browser:
        guest = browser.new_context(**PHONE_360).new_page()
        visit(guest, f"{base}/accounts/login/", findings)
        guest.context.close()
        for username, pages in (("gm", gm_pages), ("ann", player_pages), ("ben", other_player_pages)):
            page = log_in(browser, live_server, username, PHONE_360)
            for address in pages:
                visit(page, address, findings)
            page.context.close()
    assert not findings, f"{len(findings)} finding(s) at 360 px:\n" + "\n".join(findings)


def test_the_people_archive_and_print_pages_have_no_serious_axe_finding(live_server, world, settings):
    """The pages of accounts, members, invites, the archive and the printed sheets, each in one axe pass at 360 px
    with its folded parts open (issue 38): a guest's sign-up, invite, owner's link and password reset pages (the
    mailed request, its mail's link and the GM's link), an outsider's invite to accept, the GM's members, invites,
    reset link, new campaign, import and import job, archive, roster book and sheet, the day end under way (the
    armies page and the day-end question) and a commander's page (its items form), staff's reset page."""
    settings.SIGNUP = "open"  # the open sign-up form, not its refusal
    settings.EMAIL_CONFIGURED = True  # the mailed reset's form, not its "sends no mail"
    vey, _offer, _battle = campaign_with_armies(world)
    campaign, gm = world.campaign, world.gm.user
    slug = campaign.slug
    base = live_server.url
    invite = invite_create(campaign=campaign, created_by=gm)
    invites_for_sheet(campaign=campaign, gm=gm, seats=2)
    owner_token = owner_link_issue()
    reset_path = reset_link_for_member(gm=gm, membership=world.ann).path
    ann_uid = urlsafe_base64_encode(force_bytes(world.ann.user.pk))
    mailed = reverse("password_reset_confirm", args=[ann_uid, default_token_generator.make_token(world.ann.user)])
    job = ImportJob.objects.create(importer=gm, file_name="siege.muster.jsonl.gz", status=ImportJob.Status.REPLAYING,
                                   total=120, done=45)
    DayEnd.objects.create(campaign=campaign, day=campaign.current_day, status=DayEnd.Status.RUNNING, total=2, done=1,
                          started_by=gm)

    def url(name, *args):
        return base + reverse(name, args=args)

    guest_pages = [
        url("people:signup"), url("people:join", invite.token), url("people:owner", owner_token), base + reset_path,
        url("password_reset"), url("password_reset_done"), base + mailed, url("password_reset_complete"),
    ]
    outsider_pages = [url("people:join", invite.token), url("people:account")]
    gm_pages = [
        url("people:members", slug), url("people:invites", slug), url("people:invite_sheet", slug),
        url("campaign:new"), url("archive:import"), url("archive:job", job.pk), url("archive:page", slug),
        url("armies:roster_book_print", slug), url("armies:roster_print", slug, vey.pk),
        url("armies:list", slug), f"{url('armies:day_end', slug)}?day={campaign.current_day}",
        url("armies:commander", slug, vey.pk), url("people:account"),
    ]
    findings: list[str] = []
    with chromium() as browser:
        guest = browser.new_context(**PHONE_360).new_page()
        for address in guest_pages:
            findings += axe_pass(guest, address, urlsplit(address).path, unfold=True)
        guest.context.close()
        for username, pages in (("outsider", outsider_pages), ("gm", gm_pages), ("staff", [url("people:staff_reset")])):
            page = log_in(browser, live_server, username, PHONE_360)
            for address in pages:
                findings += axe_pass(page, address, f"{username} {urlsplit(address).path}", unfold=True)
            page.context.close()
        # the GM's reset link for a member: the page asking, then the link made and its QR code
        page = log_in(browser, live_server, "gm", PHONE_360)
        findings += axe_pass(page, url("people:member_reset", slug, world.ben.pk), "the GM's reset page for Ben")
        page.click("button:has-text('Make the link')")
        page.wait_for_selector("img.qr")
        findings += axe_findings(page, "the reset link made for Ben")
        page.context.close()
    assert not findings, f"{len(findings)} finding(s):\n" + "\n".join(findings)


def test_the_checks_fail_on_a_nameless_button_a_small_target_and_a_wide_box(live_server, transactional_db):
    """The helpers can fail: axe names rule, impact and element; a small control or a lone small link is a
    finding, a link inside a sentence is not (ruling PF1); a box wider than the phone scrolls sideways."""
    with chromium() as browser:
        page = browser.new_context(**PHONE_360).new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.wait_for_selector("main")
        assert_accessible(page)
        assert phone_check(page) == []
        page.evaluate("""document.querySelector('main').insertAdjacentHTML('beforeend',
          '<button id=nameless></button><img id=bare src=/static/img/muster.svg>'
          + '<p>Read <a id=inline href=/>the rules</a> first.</p><p><a id=lone href=/>Back</a></p>'
          + '<button id=tiny>x</button>');
          Object.assign(document.getElementById('tiny').style, {minHeight: '0', minWidth: '0', padding: '0'})""")
        with pytest.raises(AssertionError) as failure:
            assert_accessible(page)
        message = str(failure.value)
        assert "button-name (critical)" in message and "#nameless" in message
        assert "image-alt (critical)" in message and "#bare" in message
        small = " | ".join(small_tap_targets(page))
        assert "a#lone" in small and "button#tiny" in small and "a#inline" not in small
        assert sideways(page) == (360, 360)
        page.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend', '<div id=wide>wide</div>');"
                      "document.getElementById('wide').style.width = '600px'")
        assert max(sideways(page)) > 360 and "scrolls sideways" in " ".join(phone_check(page))

"""Playwright drives the system Chromium; no browser is ever downloaded.

Usage, in a test marked ``@pytest.mark.browser`` that takes ``live_server`` and
``transactional_db``: create the data first, then ``with chromium() as browser:``,
``page = browser.new_page()``, ``page.goto(live_server.url + "/...")``.

While the block runs, Playwright keeps an asyncio loop running in this thread, and
Django then gives the ORM a separate connection (one per running loop, autocommitting,
outside the test's transaction).  That is why browser tests use ``transactional_db``
(the live server needs committed data anyway); ``chromium()`` closes that extra
connection on the way out.
"""

import contextlib
import os

CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-dev-shm-usage",  # containers often have a tiny /dev/shm
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _close_loop_connections() -> None:
    from django.conf import settings

    if settings.configured:
        from django.db import connections

        connections.close_all()


def chromium_executable() -> str:
    return os.environ.get("PLAYWRIGHT_CHROMIUM") or "/usr/bin/chromium"


def chromium_launch_kwargs(**overrides) -> dict:
    """Keyword arguments for ``playwright.chromium.launch(...)``."""
    return {"executable_path": chromium_executable(), "headless": True, "args": list(CHROMIUM_ARGS), **overrides}


@contextlib.contextmanager
def chromium(**overrides):
    """A launched headless Chromium, closed (with Playwright) on exit.

    Playwright's sync API keeps an asyncio loop in this thread, which makes Django's ORM
    refuse to run ("SynchronousOnlyOperation"); the guard is lifted only meanwhile.
    """
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(**chromium_launch_kwargs(**overrides))
            try:
                yield browser
            finally:
                _close_loop_connections()
                browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


LOG_IN = "form[action='/accounts/login/'] button.primary"  # the login form's button, in any language
GERMAN = {"locale": "de-DE"}  # a context's locale: its Accept-Language and navigator.language (issue 41)

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PHONE_360 = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}  # the smallest we fit
TABLET = {"viewport": {"width": 1180, "height": 820}}


def log_in(browser, live_server, username: str, device: dict):
    """A new context (its own session, as on its own device), logged in as ``username``."""
    from tests.factories import PASSWORD

    page = browser.new_context(**device).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click(LOG_IN)
    page.wait_for_url(f"{live_server.url}/")
    return page


def wait_for_version(page, version: int) -> None:
    """Wait until the page shows the table at ``version`` (the live block carries it)."""
    page.wait_for_selector(f'#live[data-version="{version}"]', timeout=20_000)


def open_two_seat_table(browser, live_server, world, link_text: str, title: str, ready: str = "#live"):
    """The GM opens a table for Ann and Ben from the campaign page; both open it on their phones.

    Returns the GM's tablet page, the ``Table`` and ``{seat: phone page}``.
    """
    from tabletop.models import Table

    gm = log_in(browser, live_server, "gm", TABLET)
    gm.click(f"a[href='/c/{world.campaign.slug}/']")
    gm.click(f"text={link_text}")
    gm.fill("input[name=title]", title)
    gm.check(f"input[name=members][value='{world.ann.pk}']")
    gm.check(f"input[name=members][value='{world.ben.pk}']")
    gm.click("button:has-text('Open the table')")
    gm.wait_for_selector(ready)
    phones = {}
    for seat, member in ((0, world.ann), (1, world.ben)):
        page = log_in(browser, live_server, member.user.username, PHONE)
        page.click(f"a[href='/c/{world.campaign.slug}/']")
        page.click(f"text={title}")
        page.wait_for_selector(ready)
        phones[seat] = page
    return gm, Table.objects.get(title=title), phones


def gridaris_move(page) -> None:
    """On the phone of the Gridaris seat to act: the first choice's button when the game asks one, else the
    first card of the hand onto the first square it may go to."""
    choice = page.locator("form.choice button")
    if choice.count():
        choice.first.click()
    else:
        page.locator(".hand-card input[type=radio]").first.check()
        page.locator("button.cell.playable").first.click()


def starter_units_and_an_offer(gm, card: str = "Wolf Pack", price: int = 10, quantity: int = 2) -> None:
    """On the GM's armies page of a fresh instance: the starter units into the empty catalog (ruling AC2), then
    an offer of ``quantity`` × ``card``."""
    gm.click("button:has-text('Load the starter units')")
    gm.wait_for_selector("text=starter units are in the catalog")
    gm.click("summary:has-text('Post an offer')")
    gm.select_option("select[name=card]", label=card)
    gm.fill("#offers input[name=price]", str(price))
    gm.fill("#offers input[name=quantity]", str(quantity))
    gm.click("button:has-text('Post the offer')")
    gm.wait_for_selector(f"text=Offer posted: {quantity} × {card}")


def choose_battle_sides(gm, attacker: str, defender: str, defender_name: str) -> None:
    """On the new battle page: the attacker's and the defender's commanders by their labels, each select
    chosen once the form the one before swapped in (htmx) has settled, until the defender's units show."""
    gm.wait_for_load_state("load")
    gm.evaluate("() => { window.settled = 0;"
                " document.body.addEventListener('htmx:afterSettle', () => { window.settled += 1; }); }")
    for settled, (side, label) in enumerate((("attacker", attacker), ("defender", defender)), start=1):
        gm.select_option(f"select[name={side}]", label=label)
        gm.wait_for_function("n => window.settled >= n", arg=settled)
    gm.wait_for_selector(f"legend:has-text('{defender_name} defends with')")


def fill_account(page, username: str, display_name: str, password: str, button: str) -> None:
    """Fill an account form (sign-up, an invite's, the owner's link) and press ``button``."""
    page.fill("input[name=username]", username)
    page.fill("input[name=display_name]", display_name)
    page.fill("input[name=password1]", password)
    page.fill("input[name=password2]", password)
    page.click(f"button:has-text('{button}')")

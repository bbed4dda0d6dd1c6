"""A table at 200 % zoom on a 360 px phone, and the projector in the axe pass (issue 38).

At 200 % a 360 px phone lays a page out 180 CSS px wide: the browser test opens each game's table a few moves in
(tests/test_browser_phone_pages.py makes them) at 180x370, device scale 2, as both seats and as the GM, every page
once, and finds on each:

* sideways scrolling (the document wider than the viewport); a board may scroll inside its own box, the page not.
  Each finding names the widest elements that stick out, so a failure says where to look;
* the top bar overlapping the page's name (its h1) while the page is at its top, the brand overlapping the
  top bar's links, or the logo clipped (drawn smaller than its 24 px, or outside the bar);
* on the battle's pages, two stat boxes of a commander (morale, base, in hand) whose drawn boxes intersect;
* on the dungeon's pages, a square of the board whose words are cut off at its edge (the board may scroll).

The projector link's page of each game, at a venue screen's 1920x1080, is checked by axe-core (tests/a11y.py,
every default rule): nothing serious or critical. Findings are gathered, so one run lists every page's problems.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tabletop.services.projector import projector_issue

from tests.a11y import axe_violations, describe, sideways
from tests.browser import chromium, log_in
from tests.browser_pages import game_tables, gm_url, open_page, seat_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# 200 % zoom of a 360x740 phone: the layout viewport is half as wide and high, drawn at twice the pixels
ZOOMED = {"viewport": {"width": 180, "height": 370}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
VENUE_SCREEN = {"viewport": {"width": 1920, "height": 1080}}

# The elements that end right of the viewport, their box or their own words (a long word spills out of a box),
# deepest first (an element is left out when a child of it sticks out as far): what makes the page wider.
STICKING_OUT_JS = """
(width) => {
  const out = [], range = document.createRange();
  const scrolls = (el) => ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(el).overflowX);
  for (const el of document.querySelectorAll('body *')) {
    if (!el.checkVisibility({checkOpacity: false, checkVisibilityCSS: true})) continue;
    if (el.closest('.visually-hidden')) continue;
    // inside a box that scrolls or clips sideways, an element is that box's business, not the page's
    let up = el.parentElement, inside = false;
    while (up && up !== document.body) { if (scrolls(up)) { inside = true; break; } up = up.parentElement; }
    if (inside) continue;
    const r = el.getBoundingClientRect();
    let right = r.width > 0 ? r.right : 0;
    for (const node of el.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim()) continue;
      range.selectNodeContents(node);
      right = Math.max(right, range.getBoundingClientRect().right);
    }
    if (right > width + 0.5) out.push({el, right});
  }
  const deeper = (el, right) => out.some((o) => o.el !== el && el.contains(o.el) && o.right >= right - 0.5);
  const deepest = out.filter(({el, right}) => !deeper(el, right));
  return deepest.sort((a, b) => b.right - a.right).slice(0, 6).map(({el, right}) => {
    let s = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '');
    if (typeof el.className === 'string' && el.className.trim()) s += '.' + el.className.trim().split(/\\s+/).join('.');
    const text = (el.innerText || '').trim().replace(/\\s+/g, ' ').slice(0, 30);
    return `${s}${text ? ' "' + text + '"' : ''} ends at ${Math.round(right)} px`;
  });
}
"""

# The boxes of the top bar, the logo and the page's name at the page's top; of the brand and each link, what
# they draw (their contents, which may spill out of a box squeezed narrower than its words).
TOPBAR_JS = """
() => {
  const box = (r) => ({left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height});
  const drawn = (el) => { const range = document.createRange(); range.selectNodeContents(el);
    return box(range.getBoundingClientRect()); };
  const el = (selector) => document.querySelector(selector);
  return {bar: box(el('.topbar').getBoundingClientRect()), brand: drawn(el('.topbar .brand')),
          logo: box(el('.topbar .brand img').getBoundingClientRect()),
          links: [...document.querySelectorAll('.topbar nav a, .topbar nav button')].map(drawn),
          name: el('main h1') && box(el('main h1').getBoundingClientRect())};
}
"""

# Each commander's stat boxes on a battle's page, as far as they draw (a word wider than its box spills out).
STATS_JS = """
() => [...document.querySelectorAll('.army-stats')].map((stats) => [...stats.children].map((el) => {
  const r = el.getBoundingClientRect(), range = document.createRange();
  range.selectNodeContents(el);
  const c = range.getBoundingClientRect();
  return {what: el.innerText.trim().replace(/\\s+/g, ' '), left: Math.min(r.left, c.left), top: Math.min(r.top, c.top),
          right: Math.max(r.right, c.right), bottom: Math.max(r.bottom, c.bottom)};
}))
"""


# The dungeon's squares whose words do not fit them (a monster's name and wounds cut off at the square's edge).
CUT_SQUARES_JS = """
() => [...document.querySelectorAll('.dungeon-square')].filter((sq) => {
  const box = sq.getBoundingClientRect(), range = document.createRange();
  return [...sq.querySelectorAll('strong, small')].some((el) => {
    if (!el.checkVisibility()) return false;
    range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    return r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5);
  });
}).map((sq) => sq.innerText.trim().replace(/\\s+/g, ' ').slice(0, 40))
"""


def intersect(a: dict, b: dict) -> bool:
    """Two boxes overlap by more than rounding (half a pixel) in both directions."""
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5 and \
        min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5


def zoom_findings(page, where: str) -> list[str]:
    """Sideways scroll, the top bar over the page's name or the logo clipped, stat boxes on each other."""
    found = []
    width = page.viewport_size["width"]
    scroll_width, inner_width = sideways(page)
    if max(scroll_width, inner_width) > width:
        culprits = page.evaluate(STICKING_OUT_JS, width)
        found.append(f"{where}: scrolls sideways ({scroll_width} px in {width} px): " + "; ".join(culprits))
    page.evaluate("window.scrollTo(0, 0)")
    top = page.evaluate(TOPBAR_JS)
    bar, logo = top["bar"], top["logo"]
    if top["name"] and intersect(bar, top["name"]):
        found.append(f"{where}: the top bar (bottom {bar['bottom']:.0f} px) covers the page's name "
                     f"(top {top['name']['top']:.0f} px)")
    if logo["width"] < 23.5 or logo["height"] < 23.5 or logo["left"] < bar["left"] - 0.5 \
            or logo["right"] > min(bar["right"], width) + 0.5 or logo["top"] < bar["top"] - 0.5 \
            or logo["bottom"] > bar["bottom"] + 0.5:
        found.append(f"{where}: the logo is clipped: {logo} in the bar {bar}")
    for link in top["links"]:
        if intersect(top["brand"], link) or link["right"] > width + 0.5:
            found.append(f"{where}: a link of the top bar overlaps the brand or leaves the screen: {link}")
    found += [f"{where}: a square of the dungeon's board cuts its words off: {cut!r}"
              for cut in page.evaluate(CUT_SQUARES_JS)]
    for stats in page.evaluate(STATS_JS):
        for i, a in enumerate(stats):
            for b in stats[i + 1:]:
                if intersect(a, b):
                    found.append(f"{where}: the stat boxes {a['what']!r} and {b['what']!r} overlap")
    return found


def test_every_table_page_at_200_percent_zoom_on_a_360_px_phone(live_server, world):
    by_game = game_tables(world)
    found: list[str] = []
    with chromium() as browser:
        for username, index in (("ann", 0), ("ben", 1)):
            page = log_in(browser, live_server, username, ZOOMED)
            for game, table in by_game.items():
                open_page(page, seat_url(live_server, table, index))
                found += zoom_findings(page, f"{game}, {username}'s seat")
            page.context.close()
        gm = log_in(browser, live_server, "gm", ZOOMED)
        for game, table in by_game.items():
            open_page(gm, gm_url(live_server, world, table))
            found += zoom_findings(gm, f"{game}, GM")
        gm.context.close()
    assert not found, f"{len(found)} finding(s) at 180 px:\n" + "\n".join(found)


def test_the_projector_page_of_every_game_has_no_serious_axe_finding(live_server, world):
    by_game = game_tables(world)
    found: list[str] = []
    with chromium() as browser:
        page = browser.new_context(**VENUE_SCREEN).new_page()
        for game, table in by_game.items():
            link = projector_issue(table_id=table.pk, replacing="", user=world.gm.user)
            open_page(page, live_server.url + reverse("tabletop:projector", args=[link.token]))
            violations = axe_violations(page)
            if violations:
                found.append(f"{game}, projector:\n{describe(violations)}")
        page.context.close()
    assert not found, f"{len(found)} projector page(s) with serious findings:\n" + "\n".join(found)


def test_the_zoom_checks_fail_on_a_wide_box_a_covered_name_and_overlapping_stats(live_server, world):
    """The checks can fail: a box wider than the screen is named, a top bar grown over the h1 and a logo squeezed
    are found, and two stat boxes pulled onto each other are."""
    table = game_tables(world)["army"]
    with chromium() as browser:
        page = log_in(browser, live_server, "gm", {**ZOOMED, "viewport": {"width": 360, "height": 740}})
        open_page(page, gm_url(live_server, world, table))
        assert zoom_findings(page, "GM") == []
        page.evaluate("""() => {
          document.querySelector('main').insertAdjacentHTML('beforeend', '<div id=wide>wide</div>');
          document.getElementById('wide').style.width = '600px';
          const bar = document.querySelector('.topbar'); bar.style.position = 'fixed'; bar.style.height = '200px';
          document.querySelector('.topbar .brand img').style.width = '10px';
          const stats = document.querySelector('.army-stats > div + div'); stats.style.marginLeft = '-3rem';
        }""")
        found = " | ".join(zoom_findings(page, "GM"))
        assert "scrolls sideways" in found and "div#wide" in found
        assert "covers the page's name" in found and "the logo is clipped" in found and "overlap" in found
        page.context.close()

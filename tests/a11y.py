"""Accessibility and phone-fit checks for browser tests: axe-core, sideways scrolling, tap targets.

axe-core comes from the repository itself, never from a network at test time: the single file
``tests/vendor/axe.min.js`` (axe-core 4.14.1, MPL-2.0, its licence header and version in its first
lines; where it came from and its checksum are in ``tests/vendor/README.md``).  No Python package
for Python 3.11 ships an axe-core of 4.14 or later, and 4.14 is the first to run
``label-content-name-mismatch`` (a visible label that is not in the accessible name) by default:
``AXE_MINIMUM`` is checked (tests/test_a11y_vendor.py), so a file swapped for an older one fails.
It is evaluated through the DevTools protocol (``page.evaluate``), which the page's
Content-Security-Policy does not govern, so the pages under test keep their real policy.

``assert_accessible(page)`` fails on any violation of impact "serious" or "critical" and names
the rule, the impact and the selectors of the offending elements; ``axe_findings(page, where)`` gives
the same as a finding to gather.  ``small_tap_targets(page)``
lists the visible controls smaller than 44x44 CSS px, except the inline links inside running
text (ruling PF1 in docs/rulings.md).
"""

from __future__ import annotations

import functools
from pathlib import Path

BLOCKING_IMPACTS = ("serious", "critical")
TAP = 44  # CSS px, WCAG 2.5.5 (AAA) and the platform guidelines' minimum
# A sub-pixel below 44 comes from rounding (a 2.75rem box at some zoom levels), not from a small control.
TAP_TOLERANCE = 0.5
AXE_FILE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
AXE_MINIMUM = (4, 14)


@functools.cache
def axe_source() -> str:
    """The text of tests/vendor/axe.min.js (read once per test run)."""
    return AXE_FILE.read_text(encoding="utf-8")


def axe_version() -> str:
    first = axe_source()[:60]
    return first.split("axe v", 1)[1].split()[0] if "axe v" in first else "?"


def axe_violations(page, impacts=BLOCKING_IMPACTS) -> list[dict]:
    """axe-core's violations on the page as it is now, of the given impacts."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    results = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " targets: v.nodes.map(n => n.target.join(' ')), html: v.nodes.map(n => n.html.slice(0, 160))}))"
    )
    return [v for v in results if v["impact"] in impacts]


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        for target, html in list(zip(v["targets"], v["html"], strict=True))[:6]:
            lines.append(f"    {target}  {html}")
        if len(v["targets"]) > 6:
            lines.append(f"    ... and {len(v['targets']) - 6} more")
    return "\n".join(lines)


def axe_findings(page, where: str) -> list[str]:
    """The page's serious and critical axe-core violations as one finding naming ``where`` (or none)."""
    violations = axe_violations(page)
    return [f"{where}: axe-core {axe_version()}:\n{describe(violations)}"] if violations else []


def assert_accessible(page, where: str = "") -> None:
    """Fail on any serious or critical axe-core violation, with rule id, impact and targets."""
    violations = axe_violations(page)
    assert not violations, f"axe-core {axe_version()} on {where or page.url}:\n{describe(violations)}"


# Visible controls and their boxes; an <a> whose parent has text of its own beside the link
# (a link inside a sentence or a paragraph) is inline running text and exempt (ruling PF1).
TAP_TARGETS_JS = """
(tap) => {
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]';
  const small = [];
  const inRunningText = (el) => {
    if (el.tagName !== 'A') return false;
    const style = getComputedStyle(el);
    if (style.display !== 'inline') return false;
    const parent = el.parentElement;
    if (!parent) return false;
    let own = '';
    for (const node of parent.childNodes) {
      if (node !== el && node.nodeType === Node.TEXT_NODE) own += node.textContent;
      else if (node !== el && node.nodeType === Node.ELEMENT_NODE && getComputedStyle(node).display === 'inline'
               && !node.matches(selector)) own += node.textContent;
    }
    return own.replace(/[\\s\\u00a0·,.:;()|–—-]/g, '').length > 0;
  };
  const describe = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    if (el.name) s += '[name=' + el.name + ']';
    if (el.className && typeof el.className === 'string') s += '.' + el.className.trim().split(/\\s+/).join('.');
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().replace(/\\s+/g, ' ');
    return s + (text ? ' "' + text.slice(0, 40) + '"' : '');
  };
  for (const el of document.querySelectorAll(selector)) {
    // a checkbox or radio inside its label is tapped through the label: measure the label
    let box = el;
    if (el.type === 'checkbox' || el.type === 'radio') {
      box = el.closest('label') || (el.id && document.querySelector('label[for="' + CSS.escape(el.id) + '"]')) || el;
    }
    // a control that is hidden (its own style, a closed <details>, or display:none above) is not a target
    if (!el.checkVisibility({checkOpacity: false, checkVisibilityCSS: true})) continue;
    if (inRunningText(el)) continue;
    const r = box.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.width + TOL < tap || r.height + TOL < tap) {
      small.push(describe(el) + ' ' + Math.round(r.width * 10) / 10 + 'x' + Math.round(r.height * 10) / 10);
    }
  }
  return small;
}
""".replace("TOL", str(TAP_TOLERANCE))


def small_tap_targets(page) -> list[str]:
    """The visible tap targets smaller than 44x44 px (inline links in running text exempt)."""
    return page.evaluate(TAP_TARGETS_JS, TAP)


def sideways(page) -> tuple[int, int]:
    """``(document scroll width, window inner width)``: on a phone both must stay within the viewport's width."""
    return tuple(page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]"))


def phone_check(page, where: str = "") -> list[str]:
    """Every finding on the page as it is now, as sentences: sideways scroll, small targets, axe."""
    where = where or page.url
    problems = []
    scroll_width, inner_width = sideways(page)
    # a mobile browser zooms out to show an overflowing page, which widens innerWidth too: compare with the viewport
    width = page.viewport_size["width"]
    if max(scroll_width, inner_width) > width:
        problems.append(f"{where}: scrolls sideways ({scroll_width} px, inner width {inner_width}, in {width} px)")
    problems += [f"{where}: tap target under {TAP} px: {target}" for target in small_tap_targets(page)]
    return problems + axe_findings(page, where)


# Every word of the visible text, measured: a word whose glyphs sit on more than one line was broken in the
# middle ("Stre ngth", "Sum mon"; issue 25). A word that is wider than its box but on one line is not a break.
SPLIT_WORDS_JS = """
(root) => {
  const found = [];
  const scope = document.querySelector(root) || document.body;
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !el.checkVisibility({checkOpacity: false, checkVisibilityCSS: true})) continue;
    if (el.closest('script, style, noscript, [aria-hidden=true], .visually-hidden, .sr-only')) continue;
    const text = node.textContent;
    for (const match of text.matchAll(/[^\\s\\u00ad\\u200b·/–—-]+/g)) {
      if (match[0].length < 2) continue;
      // A word after a soft hyphen that broke the line: its range also holds the hyphen shown at the end
      // of the line before, which is not the word's own line.
      let hyphenTop = null;
      if (match.index > 0 && text[match.index - 1] === '\u00ad') {
        range.setStart(node, match.index - 1);
        range.setEnd(node, match.index);
        const shown = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
        if (shown.length) hyphenTop = Math.round(shown[shown.length - 1].top);
      }
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
      const tops = new Set(rects.map((r) => Math.round(r.top)));
      if (hyphenTop !== null && tops.size > 1) tops.delete(hyphenTop);
      if (tops.size > 1) {
        let where = el.tagName.toLowerCase();
        const classes = typeof el.className === 'string' ? el.className.trim().split(/\\s+/) : [];
        if (classes[0]) where += '.' + classes.join('.');
        found.push(`"${match[0]}" in ${where}`);
      }
    }
  }
  return found;
}
"""


def split_words(page, root: str = "main") -> list[str]:
    """The visible words under ``root`` that are broken across two lines, each with the element holding it."""
    return page.evaluate(SPLIT_WORDS_JS, root)

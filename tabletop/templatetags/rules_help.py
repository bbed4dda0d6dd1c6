"""Rules help on tap: ``{% rules_help "unopposed" %}`` turns a term into a button that opens its help.

The help is an HTML popover (``popovertarget``): it opens and closes without JavaScript, closes on a tap
outside or Escape, and survives nothing it need not (the live region re-renders it). Texts come from
``tabletop.rules_help``; a term it does not know is shown as plain text.

* ``{% rules_help term [label] %}``: one term, given as a key or as shown ("Master of Arms").
* ``{% rules_help_power role path %}``: the power of a commander's class (Role x Path).
* ``{% rules_help_terms game %}``: the row of a game's terms (``rules_help.GAME_TERMS``).

A button's HTML depends only on its term, label, id and language, and a row's on its buttons and language:
both are rendered once per process (``lru_cache``) and then reused by every render of every page (issue 26: the
row was an eighth of a fetch's CPU). With DEBUG on they render each time, so an edited template shows at once.
The help's words are kept in English (``tabletop.rules_help``) and shown in the request's language (issue 41).
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.conf import settings
from django.template.loader import get_template
from django.utils.html import conditional_escape
from django.utils.translation import get_language, gettext

from tabletop.engines.army.common import POWER_TABLE
from tabletop.rules_help import GAME_TERMS, HELP, help_key

register = template.Library()
COUNTER = "_rules_help_count"


def _next_id(context, key: str) -> str:
    """An id unique within one rendering (the context's first dict lives as long as the render)."""
    root = context.dicts[0]
    root[COUNTER] = root.get(COUNTER, 0) + 1
    return _id(key, root[COUNTER])


def _id(key: str, number: int) -> str:
    return f"rh-{key.replace('.', '-').replace('_', '-')}-{number}"


def _render(context, key: str, label: str | None) -> str:
    html = _button if settings.DEBUG else _button_once
    # escaped here, so the cache's key is the HTML shown: a plain label never meets a safe one's render
    return html(key, conditional_escape(label or gettext(HELP[key].term)), _next_id(context, key), get_language())


def _button(key: str, label: str, id: str, language: str | None) -> str:
    """A term's button and popover, in ``language`` (the active one: a part of the cache's key)."""
    entry = HELP[key]
    shown = {"term": gettext(entry.term), "text": gettext(entry.text), "source": gettext(entry.source)}
    return get_template("tabletop/_rules_help.html").render({"help": shown, "label": label, "id": id, "key": key})


def _row(game: str, buttons: tuple[str, ...], language: str | None) -> str:
    return get_template("tabletop/_rules_help_terms.html").render({"buttons": buttons, "game": game})


# A term's button at each id it takes on a page, and each game's row: a few hundred strings in all.
_button_once = lru_cache(maxsize=4096)(_button)
_row_once = lru_cache(maxsize=256)(_row)


@register.simple_tag(takes_context=True)
def rules_help(context, term, label=None) -> str:
    key = help_key(term)
    if key is None:
        return conditional_escape(label or term)
    return _render(context, key, label)


@register.simple_tag(takes_context=True)
def rules_help_power(context, role, path, label=None) -> str:
    key = POWER_TABLE.get((str(role), str(path)))
    if key is None or key not in HELP:
        return conditional_escape(label or "")
    return _render(context, key, label)


@register.simple_tag(takes_context=True)
def rules_help_terms(context, game, *extra) -> str:
    """The "Rules help" row of a game's page: its terms (and any ``extra`` ones, e.g. the commanders' powers)."""
    keys = []
    for term in (*extra, *GAME_TERMS.get(game, ())):
        key = help_key(term)
        if key and key not in keys:
            keys.append(key)
    root = context.dicts[0]
    after = root.get(COUNTER, 0)  # the row's buttons take the next ids of this render
    root[COUNTER] = after + len(keys)
    return (_row_at if settings.DEBUG else _row_at_once)(str(game), tuple(keys), after, get_language())


def _row_at(game: str, keys: tuple[str, ...], after: int, language: str | None) -> str:
    """A game's row whose buttons take ids ``after`` + 1, + 2, ...: the same whole row for the same terms
    and first id, so rendered once per process (issue 40: the row's 21 buttons, looked up one by one,
    were a fortieth of an action's CPU)."""
    button = _button if settings.DEBUG else _button_once
    buttons = tuple(
        button(key, conditional_escape(gettext(HELP[key].term)), _id(key, after + n), language)
        for n, key in enumerate(keys, 1)
    )
    return (_row if settings.DEBUG else _row_once)(game, buttons, language)


_row_at_once = lru_cache(maxsize=1024)(_row_at)

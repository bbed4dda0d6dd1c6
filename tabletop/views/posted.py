"""What an action form posts, read into the engine's action dict (or refused with a sentence)."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

from ..engines.kernel import IllegalAction
from ..engines.shapes import MalformedJson, load_json

NON_ACTION_FIELDS = {"csrfmiddlewaretoken", "version", "client_action_id", "as_seat", "action"}
# Far above any legal action's JSON or field count: the engines' declared shapes do the fine checks.
MAX_ACTION_CHARS, MAX_ACTION_DEPTH, MAX_ACTION_FIELDS, MAX_NUMBER_CHARS = 8000, 4, 40, 12
MISSING_VERSION = gettext_noop("This form is missing the table version; reload the page.")


def posted_version(post) -> int:
    """The table version the form was made against."""
    try:
        return int(post.get("version", ""))
    except ValueError:
        raise IllegalAction(gettext(MISSING_VERSION)) from None


def posted_action(post) -> dict:
    """The action a form posts: a JSON ``action`` (a legal action as the engine listed it, types intact),
    completed by any plain fields (what a person typed, e.g. dice values); or plain fields alone.

    A field named ``name:int`` arrives as the whole number typed into it, ``name:ints`` as the list of
    whole numbers typed into one or several inputs of that name ("3 5", "3,5", or one die per input),
    ``name:list`` as the list of the values of the inputs of that name (the cards ticked).
    """
    action = {}
    if post.get("action"):
        if len(post["action"]) > MAX_ACTION_CHARS:
            raise IllegalAction(
                gettext("This button's action is too long to be one of the game's choices; reload the page.")
            )
        try:
            action = load_json(post["action"], max_depth=MAX_ACTION_DEPTH)
        except MalformedJson:
            action = None
        if not isinstance(action, dict):
            raise IllegalAction(gettext("This button's action is damaged; reload the page."))
    if len(post) > MAX_ACTION_FIELDS:
        raise IllegalAction(gettext("This form sends more fields than any action of the game has; reload the page."))
    for key in post:
        if key in NON_ACTION_FIELDS:
            continue
        field, _, kind = key.partition(":")
        if kind == "int":
            action[field] = _whole_number(post[key], field)
        elif kind == "ints":
            typed = " ".join(post.getlist(key)).replace(",", " ").split()
            action[field] = [_whole_number(text, field) for text in typed]
        elif kind == "list":  # the boxes ticked (cards tapped): templates/tabletop/games/_cardpick.html
            action[field] = post.getlist(key)
        else:
            action[key] = post[key]
    return action


def _whole_number(text: str, field: str) -> int:
    text = text.strip()
    if not text:
        raise IllegalAction(gettext("Enter a whole number for %(field)s.") % {"field": field})
    if len(text) > MAX_NUMBER_CHARS:
        sentence = gettext("Enter a whole number for %(field)s; %(length)s characters are far too many.")
        raise IllegalAction(sentence % {"field": field, "length": len(text)})
    try:
        return int(text)
    except ValueError:
        sentence = gettext("Enter a whole number for %(field)s; %(text)r is not one.")
        raise IllegalAction(sentence % {"field": field, "text": text}) from None


def int_or_none(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None

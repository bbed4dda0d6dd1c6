"""The Jinja2 environment of the site's hot fragments (issue 40): the table pages' live region
(tabletop/live.jinja, which the push renders), the Army Rules game fragment and the games' shared "what
happened" log are Jinja2 templates (templates/jinja2/, the ``jinja2`` backend in settings.TEMPLATES;
docs/architecture.md says why), included from the Django templates by ``{% jinja "name.jinja" %}``
(tabletop/templatetags/jinja.py); the region renders the other games' Django fragments (``django_fragment``).

They read like the Django templates they replaced and render the same HTML, so this environment:

* looks a dotted name up in a dict by key first, as Django does (``cmd.hand``, ``o.items``), and only
  then as an attribute: a key named like a dict method (``items``, ``values``, ...) is the key's value;
* escapes ``{{ }}`` output as Django's ``conditional_escape`` does (``'`` as ``&#x27;``, ``"`` as
  ``&quot;``, as every other page: ``DjangoQuotesTemplate`` below), and a Django safe string (the rules help's buttons)
  is left alone;
* renders a missing name as nothing (``Undefined``, with DEBUG on as off, as Django renders "");
* registers the project's own template filters and tags (tabletop_tags, army_tags, rules_help) and the
  Django filters the templates use, as the very same functions, under the names the Django templates
  give them: ``{{ cmd.kind|upper }}`` is Django's ``upper``, not Jinja2's.
"""

from __future__ import annotations

from django.template import Context, defaultfilters
from django.template.defaulttags import CsrfTokenNode
from django.template.loader import get_template
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext, npgettext, pgettext
from jinja2 import Environment, Template, Undefined, pass_context

from tabletop.computer.watchdog import hand_back_after
from tabletop.templatetags import army_tags, rules_help, stakes_tags, tabletop_tags, words_tags
from tabletop.templatetags.whatif_tags import whatif_origin

# The games' fragments written in Jinja2, by the Django name a table's context gives (``game_template``):
# the live region (tabletop/live.jinja) includes these, and renders every other game's Django fragment.
JINJA_GAMES = {"tabletop/games/army.html": "tabletop/games/army.jinja"}

# Where the {% jinja %} tag puts the Django context's first dict, whose counter numbers the rules help's ids
# within one render (rules_help._next_id): the Jinja2 fragment's buttons go on counting from the page's.
DJANGO_ROOT = "_django_root"

FILTERS = {
    # tabletop_tags and army_tags, as registered for the Django templates
    **{
        name: getattr(tabletop_tags, name)
        for name in ("action_json", "action_key", "of_type", "not_of_type", "for_card", "percent", "signed", "bars")
    },
    **{name: getattr(army_tags, name) for name in ("role_title", "dice_text", "halves")},
    "said": words_tags.said,  # an engine's English line in the reader's language (issue 41)
    # Django's own filters under their Django names (Jinja2's built-ins of the same names differ)
    **{
        name: getattr(defaultfilters, name)
        for name in ("add", "default_if_none", "join", "length", "pluralize", "title", "upper")
    },
}


class DjangoLookupEnvironment(Environment):
    """``a.b`` on a dict is ``a["b"]`` first, as in Django's templates (Jinja2 tries the attribute first,
    so ``a.items`` would be the dict's method)."""

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


class DjangoQuotesTemplate(Template):
    """A whole render with its quotes escaped as Django escapes them: markupsafe writes ``'`` and ``"`` as
    ``&#39;`` and ``&#34;``, Django as ``&#x27;`` and ``&quot;`` (the same characters). In one pass over the
    finished render: escaping each value as Django does, with Django's own function or a ``finalize``, was a
    third of this fragment's render; and not in the environment's ``concat``, which every macro call also
    runs (the same characters scanned once per macro they are nested in)."""

    def render(self, *args, **kwargs) -> str:
        return super().render(*args, **kwargs).replace("&#39;", "&#x27;").replace("&#34;", "&quot;")


DjangoLookupEnvironment.template_class = DjangoQuotesTemplate


class _DjangoRoot:
    """What rules_help's id counter reads of a Django context: ``dicts[0]``."""

    __slots__ = ("dicts",)

    def __init__(self, root: dict):
        self.dicts = [root]


def _root(context) -> _DjangoRoot:
    """The Django render's first dict when included by the {% jinja %} tag, else one of this render's own."""
    root = context.get(DJANGO_ROOT)
    if root is None:
        root = context.parent.setdefault(DJANGO_ROOT, {})
    return _DjangoRoot(root)


def csrf_field(token) -> str:
    """``{% csrf_token %}``'s hidden input for ``token`` (Django's own tag renders it). Not named ``csrf_input``:
    Django's Jinja2 backend puts a string of that name in the context of a render given a request."""
    return CsrfTokenNode().render({"csrf_token": token})


def url(name: str, *args) -> str:
    """``{% url name arg ... %}``."""
    return reverse(name, args=args)


def jinja_fragment(django_name: str) -> str | None:
    """The Jinja2 template written for the Django fragment ``django_name``, if one is (``JINJA_GAMES``)."""
    return JINJA_GAMES.get(django_name)


@pass_context
def django_fragment(context, name: str) -> str:
    """The Django template ``name`` rendered with this render's context, safe: the games' fragments still in
    Django. Its rules help's ids go on counting from this render's (rules_help._next_id)."""
    root = _root(context).dicts[0]
    django_context = Context(context.get_all())
    django_context.dicts[0][rules_help.COUNTER] = root.get(rules_help.COUNTER, 0)
    html = get_template(name).template.render(django_context)
    root[rules_help.COUNTER] = django_context.dicts[0][rules_help.COUNTER]
    return mark_safe(html)


@pass_context
def computer_lock(context, seat) -> str:
    return tabletop_tags.computer_lock(context, seat)


@pass_context
def rules_help_term(context, term, label=None) -> str:
    return rules_help.rules_help(_root(context), term, label)


@pass_context
def rules_help_terms(context, game, *extra) -> str:
    return rules_help.rules_help_terms(_root(context), game, *extra)


def environment(**options) -> Environment:
    """The backend's environment (settings.TEMPLATES ``environment``)."""
    options["undefined"] = Undefined  # not DEBUG's DebugUndefined, which would print "{{ name }}"
    options["extensions"] = [*options.get("extensions", ()), "jinja2.ext.i18n"]
    env = DjangoLookupEnvironment(**options)
    # Django's own catalogs, in the request's language (issue 41): {{ _("Rout") }}, {{ ngettext(...) }};
    # newstyle: placeholders are keyword arguments, escaped, as {% blocktranslate %} does.
    env.install_gettext_callables(gettext, ngettext, newstyle=True, pgettext=pgettext, npgettext=npgettext)
    env.filters.update(FILTERS)
    env.globals.update(
        csrf_field=csrf_field,
        url=url,
        whatif_origin=whatif_origin,
        computer_hand_back=hand_back_after,  # the bound the GM is told (ruling BOT33)
        seat_stake_warning=stakes_tags.seat_stake_warning,
        jinja_fragment=jinja_fragment,
        django_fragment=django_fragment,
        computer_lock=computer_lock,
        rules_help=rules_help_term,
        rules_help_terms=rules_help_terms,
    )
    return env

"""``{% jinja "tabletop/games/army.jinja" %}``: a Jinja2 template (templates/jinja2/, tabletop/jinja.py) rendered
in the middle of a Django template, with the Django context as it is there (flattened), returned safe.

The Army Rules fragment and the games' event log are Jinja2 for speed (issue 40; docs/architecture.md).
The Django context's first dict goes along, so the rules help's ids go on counting from the page's.
"""

from __future__ import annotations

from django import template
from django.template import engines
from django.utils.safestring import mark_safe

from tabletop.jinja import DJANGO_ROOT

register = template.Library()


@register.simple_tag(takes_context=True)
def jinja(context, name: str) -> str:
    found = engines["jinja2"].env.get_template(name)  # the environment caches it (and reloads with DEBUG)
    return mark_safe(found.render({**context.flatten(), DJANGO_ROOT: context.dicts[0]}))

"""``said``: an engine's English line (a log line, a move's label) in the reader's language (issue 41;
tabletop/engines/words.py reads it back into its template). Registered for the Jinja2 templates too."""

from django import template
from django.utils.translation import gettext

from tabletop.engines.words import say_text

register = template.Library()


@register.filter
def said(text):
    return say_text(text, gettext) if isinstance(text, str) else text

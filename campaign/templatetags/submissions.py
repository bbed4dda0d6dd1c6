"""``{% submission_field %}``: the hidden one-time token for a form that has no Django form class."""

from django import template
from django.utils.html import format_html

from campaign.submissions import FIELD, new_token

register = template.Library()


@register.simple_tag
def submission_field() -> str:
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_token())

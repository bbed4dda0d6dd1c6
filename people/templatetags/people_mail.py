"""``{% mail_configured as mail %}``: whether this Muster can send mail (settings.EMAIL_HOST), so the
login page offers "Forgot your password?" only where the e-mailed reset can work."""

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def mail_configured() -> bool:
    return bool(getattr(settings, "EMAIL_CONFIGURED", False))

"""``{% signup_offer as offer %}``: what the login page offers someone without an account: "first"
(an instance with no account at all: make its first one, ruling AC1), "open" (MUSTER_SIGNUP=open:
anyone may sign up) or "" (accounts come by invite). Asks the service's own predicate."""

from django import template

from ..services.signup import no_account_yet, open_signup_allowed

register = template.Library()


@register.simple_tag
def signup_offer() -> str:
    if not open_signup_allowed():
        return ""
    return "first" if no_account_yet() else "open"

"""People writes, one module per subject (each function one transaction; refusals raise
``PeopleError`` with a sentence a person understands)."""

from django.utils.translation import gettext_noop

from campaign.activity import Line
from muster.refusals import Refusal


class PeopleError(Refusal):
    """A refused people write (a used-up invite, the last GM, …): its message is shown as it is."""


ROLES_LOGGED = {"gm": gettext_noop("game master"), "player": gettext_noop("player")}


def role_logged(role: str) -> str | Line:
    """A member's role as the activity log's lines name it ("game master", "player"): words of its own, said
    in each reader's language (not the role's label, said in the request's)."""
    return Line(ROLES_LOGGED[role]) if role in ROLES_LOGGED else role

"""People writes, one module per subject (each function one transaction; refusals raise
``PeopleError`` with a sentence a person understands)."""

from muster.refusals import Refusal


class PeopleError(Refusal):
    """A refused people write (a used-up invite, the last GM, …): its message is shown as it is."""


def role_logged(role: str) -> str:
    """A member's role as the activity log's English lines name it ("game master", "player"): the log stores
    its text as written, so not the role's label, which is said in the request's language."""
    return {"gm": "game master", "player": "player"}.get(role, role)

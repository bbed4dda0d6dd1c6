"""People writes, one module per subject (each function one transaction; refusals raise
``PeopleError`` with a sentence a person understands)."""

from muster.refusals import Refusal


class PeopleError(Refusal):
    """A refused people write (a used-up invite, the last GM, …): its message is shown as it is."""

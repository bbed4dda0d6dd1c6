"""Proving the database itself refuses a row, with the forms and services bypassed."""

from django.db import DataError, IntegrityError, transaction


def refused_by_the_database(change) -> bool:
    """True if running ``change()`` (a write) is refused by the database, which then keeps nothing of it."""
    try:
        with transaction.atomic():
            change()
    except IntegrityError:  # a check constraint
        return True
    except DataError:  # PostgreSQL: the value does not even fit the column's type
        return True
    return False

"""What-if tables on their pages (services/forks.py): the original a what-if was forked from, a table's forks.

Each costs one light query, and only where it is used: the original only on a what-if's pages, the
forks only on the GM's full table page (never in the live region every push refetches).
"""

from django import template

from ..services import forks

register = template.Library()


@register.simple_tag
def whatif_origin(table):
    """The table ``table`` was forked from (id and title), or None."""
    return forks.fork_origin(table) if getattr(table, "what_if", False) else None


@register.simple_tag
def table_forks(table):
    """The what-ifs forked from ``table``, newest first."""
    return forks.forks_of(table)

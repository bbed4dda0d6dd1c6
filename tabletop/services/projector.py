"""The GM's projector link of a table (issue 25, ruling PJ1): made, replaced and revoked here.

A link is a secret token that shows the table's public view (``engine.view(state, PUBLIC)``) to whoever
opens it, without an account and read-only. Each form carries the token it was made from, so a form
posted twice changes the link once: issuing with a stale ``replacing`` answers with the link as it is,
revoking a token that is no longer the link changes nothing. A replaced or revoked link's open pages are
told at once (``viewers.projector_group``) and show the refusal at their next fetch.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from muster.live import announce_on_commit

from ..engines.kernel import IllegalAction
from ..models import ProjectorLink, Table, new_token
from ..viewers import PROJECTOR_REVOKED, projector_group

GM_ONLY = gettext_noop("A what-if only you play holds the real deal: it has no projector link (ruling WI10).")


@transaction.atomic
def projector_issue(*, table_id: int, replacing: str, user=None) -> ProjectorLink:
    """A new projector link for the table, replacing ``replacing`` ("" when the table had none). A form
    made before the link changed (``replacing`` is no longer the link) gets the link as it is now; a
    table without a link gets one."""
    table = Table.objects.select_for_update().only("pk", "gm_only").get(pk=table_id)
    if table.gm_only:
        raise IllegalAction(gettext(GM_ONLY))
    link = ProjectorLink.objects.filter(table=table).first()
    if link is None:
        return ProjectorLink.objects.create(table=table, created_by=user)
    if replacing != link.token:
        return link
    link.token, link.created_by = new_token(), user
    link.save(update_fields=["token", "created_by"])
    announce_on_commit(projector_group(table.pk), PROJECTOR_REVOKED)
    return link


@transaction.atomic
def projector_revoke(*, table_id: int, token: str) -> bool:
    """Revoke the table's projector link if ``token`` is still it; False when it was already revoked or
    replaced (a repeated post)."""
    deleted, _ = ProjectorLink.objects.filter(table_id=table_id, token=token).delete()
    if deleted:
        announce_on_commit(projector_group(table_id), PROJECTOR_REVOKED)
    return bool(deleted)

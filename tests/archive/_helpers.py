"""Helpers of the archive tests: the claim invites an import makes, used as the people named would use them."""

from __future__ import annotations

import gzip
import hashlib
import json

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import TestCase
from django.urls import reverse

from archive.format import encode_line
from armies.models import Commander
from campaign.models import Account, Membership
from campaign.submissions import new_token
from people.models import Invite
from people.services.invites import invite_accept
from tabletop.models import Seat

# What a used claim does not bring back (issue 34). A claim gives back the member's whole place (role, character
# name, join time, seats, accounts, commanders: people/services/claims.py), and no archive holds a password, an
# e-mail address, a session or a secret link. What stays is the log of acts: an import pins no act on an account
# here (a move, a ledger entry, an activity line keeps the name it showed, on nobody), and a claim leaves the log
# as it was. The claimant's own line saying they joined is dropped by ``without_joins``.
CLAIMED = frozenset({("activity", "actor"), ("table_action", "user"), ("ledger_entry", "created_by")})


def without_joins(records: list[dict]) -> None:
    """``archives.rewrite`` change: the lines saying a claimant joined (made after the import) left out."""
    records[:] = [r for r in records if not (r["kind"] == "activity" and r["activity_kind"] == "member_join")]


def claim_invites(copy) -> list[tuple[str, Invite]]:
    """(user name, claim invite) for each claim the import of ``copy`` made: they are its last invites, in the
    order of ``copy.import_claims``."""
    names = copy.import_claims
    made = list(Invite.objects.filter(campaign=copy).order_by("-pk")[: len(names)])[::-1] if names else []
    return list(zip(names, made, strict=True))


def use_claims(copy) -> None:
    """Every claim invite of the imported ``copy`` used by the account here of the name it was made for, as
    that person would (people/services/invites.py): how the GM gets the campaign back together."""
    for username, invite in claim_invites(copy):
        invite_accept(token=invite.token, user=get_user_model().objects.get(username=username))


def upload(client, data: bytes):
    """The archive posted on the upload page (/campaigns/import/) as its form sends it; the import's job
    (archive/jobs.py) runs as Celery runs it without Redis: eagerly, once the upload's transaction commits."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(reverse("archive:import"), {
            "archive": SimpleUploadedFile("siege.muster.jsonl.gz", data, content_type="application/gzip"),
            "submission": new_token(),
        })


def rewrite(data: bytes, change) -> bytes:
    """The archive with ``change(records)`` applied to its records (a list to edit in place), its trailer
    made anew: a file someone edited and signed again, so only the import's own checks can refuse it."""
    lines = archive_lines(data)
    header, records = lines[0], lines[1:-1]
    change(records)
    body = b"".join(encode_line(line) for line in [header, *records])
    trailer = {"kind": "end", "records": len(records), "digest": "sha256:" + hashlib.sha256(body).hexdigest()}
    return gzip.compress(body + encode_line(trailer))


def archive_lines(data: bytes) -> list[dict]:
    """Every line of an archive, header and trailer included, as JSON."""
    return [json.loads(line) for line in gzip.decompress(data).splitlines()]


def place_of(campaign) -> dict:
    """Every member's place in ``campaign`` by user name: role, character name, join time, commanders, accounts
    and seats (with the name each seat went by)."""
    members = Membership.objects.filter(campaign=campaign).select_related("user")
    return {
        "members": {m.user.username: (m.role, m.character_name, m.joined_at) for m in members},
        "commanders": set(Commander.objects.filter(campaign=campaign).values_list(
            "name", "kind", "retired_day", "membership__user__username")),
        "accounts": set(Account.objects.filter(campaign=campaign).values_list("name", "owner__user__username")),
        "seats": set(Seat.objects.filter(table__campaign=campaign).values_list(
            "table__title", "index", "membership__user__username", "guest_name")),
    }

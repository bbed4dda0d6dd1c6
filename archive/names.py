"""Small things the archive's pages and commands share: the file name, the GMs an archive names."""

from __future__ import annotations

from typing import IO

from django.utils import timezone

from campaign.models import Campaign, Membership

from .format import DEFAULT_LIMITS, Limits, read_archive

SUFFIX = ".muster.jsonl.gz"


def archive_file_name(campaign: Campaign) -> str:
    return f"{campaign.slug}-{timezone.now():%Y%m%d-%H%M%S}{SUFFIX}"


def archive_gm_names(fileobj: IO[bytes], limits: Limits = DEFAULT_LIMITS) -> list[str]:
    """The user names of the archive's GMs, read up to the end of its members (a guess for the command
    line; the import checks the whole file)."""
    names: list[str] = []
    seen_members = False
    for record in read_archive(fileobj, limits):
        if record["kind"] == "member":
            seen_members = True
            if record.get("role") == Membership.Role.GM and isinstance(record.get("username"), str):
                names.append(record["username"])
        elif seen_members:
            break
    return names

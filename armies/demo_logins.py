"""The demo accounts' passwords (issue 34): generated on the first ``make run``, never a known one.

``make run`` serves the venue's Wi-Fi, so a password printed in the README would open the demo's
GM account and its staff account (``admin``: every user in ``/admin/``) to every phone there. Each
demo account gets a password of its own instead, generated with ``secrets`` the first time, kept in
a git-ignored file readable by its owner only (``.demo_logins`` in the project, mode 0600, like
``.secret_key``) and printed on the terminal of the machine that serves, on every ``make run``.
Per account, not one for all: a player who reads their own login at the table learns nothing of
the GM's.

On every run, for each demo account that exists (``demo_logins_secure``):

* created this run, or still on the password the README once printed (``LEGACY_PASSWORD``, checked
  with ``check_password``): it gets the file's password (generated now when the file has none);
* on the file's password: nothing changes, the same login is printed again;
* on any other password (its owner changed it on the site, or the account is a real one that was
  never the demo's): it is left alone and printed as "not shown". A password somebody chose is never
  overwritten; ``manage.py changepassword NAME`` is the way to a new one.

So every password printed works, and rerunning prints the same ones. Setting a password also ends
the account's open sessions (Django's session hash), so a phone that logged in with the published
password is logged out. Tests and scripts that log in read the file the server wrote
(tests/venue_server.py), never a known password.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

LEGACY_PASSWORD = "muster-demo"  # what the README printed until issue 34: rotated wherever still set
FILE_NAME = ".demo_logins"
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: typed on a phone from a terminal
GROUPS, GROUP_LENGTH = 3, 4  # "k7qm-x2pd-h9tn": 12 of 31 characters, about 59 bits


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str | None  # None: its owner changed it, so it is not shown
    rotated: bool = False  # it had the published password until this run


def logins_path(given: str | Path | None = None) -> Path:
    """The file: ``given``, else ``MUSTER_DEMO_LOGINS_FILE``, else ``.demo_logins`` in the project."""
    return Path(given or os.environ.get("MUSTER_DEMO_LOGINS_FILE") or Path(settings.BASE_DIR) / FILE_NAME)


def new_password() -> str:
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(GROUP_LENGTH)) for _ in range(GROUPS))


def read_logins(path: Path) -> dict[str, str]:
    """``username password`` per line (``#`` starts a comment); empty when there is no file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    pairs = (line.split() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#"))
    return {pair[0]: pair[1] for pair in pairs if len(pair) == 2}


def write_logins(path: Path, logins: dict[str, str]) -> None:
    """Replace the file, readable and writable by its owner only from the moment it exists."""
    lines = ["# make run's demo logins (armies/demo_logins.py): username password. Keep it to yourself.\n"]
    lines += [f"{username} {password}\n" for username, password in logins.items()]
    partial = path.with_name(f"{path.name}.{secrets.token_hex(4)}.tmp")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.writelines(lines)
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def demo_logins_secure(*, usernames: list[str], created: frozenset[str] = frozenset(), path: Path) -> list[DemoLogin]:
    """Give each existing account of ``usernames`` its password from the file at ``path`` as the module
    docstring says (``created``: made this run, in the caller's transaction); returns what to print,
    in ``usernames``' order."""
    known = read_logins(path)
    kept = dict(known)
    logins = []
    with transaction.atomic():
        users = get_user_model().objects.select_for_update().in_bulk(usernames, field_name="username")
        for username in usernames:
            user = users.get(username)
            if user is None:
                continue
            password = known.get(username)
            if username not in created and password is not None and user.check_password(password):
                logins.append(DemoLogin(username, password))
            elif username in created or user.check_password(LEGACY_PASSWORD):
                kept[username] = password or new_password()
                user.set_password(kept[username])
                user.save(update_fields=["password"])
                logins.append(DemoLogin(username, kept[username], rotated=username not in created))
            else:
                logins.append(DemoLogin(username, None))
        if kept != known:
            write_logins(path, kept)
        elif known:
            path.chmod(0o600)  # a file copied in or edited by hand: its owner's only again
    return logins

"""Make an account from the command line: ``manage.py account_create USERNAME "DISPLAY NAME" [--staff]
[--password-from-env VARIABLE]`` (issue 35).

An empty instance has nobody for ``campaign_import --as USERNAME`` to name, and sign-up is a web page:
this makes the account where the operator already is. It goes through sign-up's own step
(people/services/signup.py ``account_create``: look-alike names refused, the password validators), so
the command line makes no account the site would refuse. A plain account unless ``--staff`` (staff and
superuser, as ``createsuperuser``).

The password is prompted twice (``getpass``, not echoed) or read from the environment variable that
``--password-from-env`` names, for scripts. Never from an argument: it would sit in the shell's history
and in ``ps`` for every user of the machine. Every refusal is a sentence and exit status 1.
"""

from __future__ import annotations

import getpass
import os

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from muster.terminal import server_language
from people.services import PeopleError
from people.services.signup import account_create


class Command(BaseCommand):
    help = ("Make an account (plain unless --staff) through sign-up's rules. The password is asked twice, "
            "or read from the environment variable --password-from-env names; never given as an argument.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("username", help="the user name to log in with")
        parser.add_argument("display_name", help="the name others see")
        parser.add_argument("--staff", action="store_true",
                            help="also staff (and superuser): the card catalogs and every account in /admin/")
        parser.add_argument("--password-from-env", metavar="VARIABLE",
                            help="read the password from this environment variable instead of asking for it")

    @server_language
    def handle(self, *args, username: str, display_name: str, staff: bool, password_from_env: str | None,
               **options) -> None:
        password = _from_environment(password_from_env) if password_from_env else _asked_twice()
        try:
            user = account_create(username=username, display_name=display_name, password=password, staff=staff)
        except PeopleError as refusal:
            raise CommandError(f"{refusal} {_('No account was made.')}") from None
        if user.is_staff:
            made = _("Made the staff account %(name)s (%(display_name)s).")
        else:
            made = _("Made the account %(name)s (%(display_name)s).")
        named = {"name": repr(user.get_username()), "display_name": user.first_name}
        self.stdout.write(self.style.SUCCESS(made % named))


def _from_environment(variable: str) -> str:
    password = os.environ.get(variable, "")
    if not password:
        raise CommandError(
            _("The environment variable %(variable)s is not set or empty: it holds the password.")
            % {"variable": variable}
        )
    return password


def _asked_twice() -> str:
    try:
        password = getpass.getpass(_("Password: "))
        again = getpass.getpass(_("The password again: "))
    except (EOFError, KeyboardInterrupt):
        raise CommandError(_("No password was given. No account was made.")) from None
    if password != again:
        raise CommandError(_("The two passwords differ. No account was made."))
    return password

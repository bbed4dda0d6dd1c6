"""Django's makemessages, finding the engines' ``phrase`` templates too (tabletop/engines/words.py, issue 41):
an engine's English line is marked by the function that registers its template."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=phrase"]

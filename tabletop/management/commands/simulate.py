"""Play random legal games to the end, checking the contract's invariants after every action."""

from django.core.management import BaseCommand, CommandError

from tabletop.engines import ENGINES
from tabletop.engines.simulate import simulate


class Command(BaseCommand):
    help = "Simulate random games of GAME and report invariant violations and speed."

    def add_arguments(self, parser):
        parser.add_argument("game", choices=sorted(ENGINES))
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--no-checks", action="store_true", help="Measure raw engine speed without checks.")

    def handle(self, *args, game, games, seed, no_checks, **options):
        report = simulate(game, games=games, seed=seed, check=not no_checks)
        for violation in report.violations[:20]:
            self.stderr.write(violation)
        self.stdout.write(report.summary())
        if report.violations:
            raise CommandError(f"{len(report.violations)} invariant violations.")

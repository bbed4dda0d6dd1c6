"""Replay a downloaded table log, verify every recorded digest, and print the outcome."""

import json

from django.core.management import BaseCommand, CommandError

from tabletop.engines import get_engine
from tabletop.engines.kernel import IllegalAction
from tabletop.engines.replay import ReplayError, replay_log


class Command(BaseCommand):
    help = "Replay a Muster table log (JSON), verifying each state digest."

    def add_arguments(self, parser):
        parser.add_argument("log", help="Path to the log file downloaded from a table page.")

    def handle(self, *args, log, **options):
        try:
            with open(log, encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError) as error:
            raise CommandError(f"Cannot read {log}: {error}") from error
        try:
            result = replay_log(data)
        except (ReplayError, IllegalAction, KeyError, ValueError) as error:
            raise CommandError(f"The log does not replay: {error}") from error
        engine = get_engine(result.game)
        self.stdout.write(
            f"{result.game}: {result.applied} actions, {result.undone} undone, "
            f"{result.checked_digests} digests checked, {len(result.mismatches)} mismatches"
        )
        for mismatch in result.mismatches:
            self.stderr.write(f"  {mismatch}")
        outcome = engine.outcome(result.state)
        if outcome is None:
            self.stdout.write("Outcome: still in progress.")
        else:
            self.stdout.write(f"Outcome: {outcome.get('reason', '')}")
            self.stdout.write(json.dumps(outcome, indent=1, sort_keys=True))
        if result.mismatches:
            raise CommandError("The replay does not match the recorded digests.")

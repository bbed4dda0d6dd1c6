"""CPU time of one render of a table's live region (issue 40), for an Army seat and for the GM.

    .venv/bin/python bench/live_region.py [--states 30] [--renders 300] [--fragment NAME ...]

Plays an Army Rules battle (bench/table_requests.py's set-up: the starter armies, app dice, a fixed
seed) through the services and keeps ``--states`` of its states; for each viewer (seat 0, the GM) it
renders the table pages' live region (``push.TABLE_REGION``) as the pusher does (``push.shared_render``)
``--renders`` times in all, cycling through those states, and prints the median and mean CPU time
(``time.process_time``) of one render. Each ``--fragment`` (a template name, e.g.
``tabletop/games/army.html``) is timed the same way on its own with the same contexts, so two engines'
versions of one fragment can be set side by side.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from table_requests import TableDriver, configure  # noqa: E402


def army_states(count: int) -> list:
    """``count`` tables, each a copy of one battle at a later state (a new battle when one ends)."""
    from tabletop.engines import get_engine
    from tabletop.models import Table
    from tabletop.services.tables import table_play

    driver = TableDriver("army")
    engine = get_engine("army")
    rng = random.Random(40)
    states = []
    while len(states) < count:
        table = Table.objects.select_related("campaign").get(pk=driver.table.pk)
        if engine.outcome(table.state) is not None:
            driver.new_table()
            continue
        states.append(table)
        action = dict(rng.choice(engine.legal_actions(table.state)))
        seat = action.pop("seat")
        driver.table = table_play(table_id=table.pk, seat=seat, action=action, version=table.version).table
    return states


def contexts(tables: list, viewer: str) -> list[dict]:
    from campaign.models import Membership
    from tabletop import presenters, push

    made = []
    for table in tables:
        if viewer == "gm":
            gm = Membership.objects.get(campaign=table.campaign, role=Membership.Role.GM)
            context = presenters.gm_view_context(table, gm.pk)
        else:
            seat = table.seats.select_related("table__campaign").get(index=0)
            context = presenters.seat_context(seat, table)
        made.append({**context, "csrf_token": push.CSRF_PLACEHOLDER, "client_action_id": push.ACTION_ID_PLACEHOLDER})
    return made


def per_render(template_name: str, made: list[dict], renders: int) -> list[float]:
    from django.template.loader import get_template

    template = get_template(template_name)
    for context in made:  # warm: parsing, the rules help's caches
        template.render(context)
    times = []
    for n in range(renders):
        context = made[n % len(made)]
        started = time.process_time()
        template.render(context)
        times.append(time.process_time() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=30)
    parser.add_argument("--renders", type=int, default=300)
    parser.add_argument("--fragment", action="append", default=[])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp_dir:
        configure(temp_dir)
        from tabletop import push

        tables = army_states(args.states)
        for viewer in ("seat", "gm"):
            made = contexts(tables, viewer)
            for name in (push.TABLE_REGION, *args.fragment):
                times = per_render(name, made, args.renders)
                print(
                    f"{viewer:<4} {name:<36} median {statistics.median(times) * 1000:6.3f} ms, "
                    f"mean {statistics.mean(times) * 1000:6.3f} ms ({args.renders} renders, {len(made)} states)"
                )


if __name__ == "__main__":
    main()

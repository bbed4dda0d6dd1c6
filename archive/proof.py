"""The import's second pass (issue 34): every record parsed, every table's log replayed and every account's
ledger summed to its stated balance, before anything is written and without touching the database.

Replaying the tables is the CPU-heavy part of an import (11 s of 40 for the big campaign of
bench/archive.py). Done inside the write transaction it held SQLite's write lock while the engines ran,
and every other writer of the site waited. So ``prove_archive`` reads the archive once more after its
digest was checked (archive/format.py ``check_archive``), checks the records' order, replays each
table's log through its engine with the loaders' own steps (archive/sections/tabletop.py ``_replay_step``
and ``_finish_table``, given a ``_Proof`` that holds only what they use), and returns each table's final
state, compressed, by its source id. The loaders of the write pass take those states
(``ImportContext.proven_states``) instead of replaying: the transaction only builds rows and inserts.

Memory stays what the loaders needed before: one table's states at a time, plus each finished table's
final state as compressed JSON (about a tenth of its size).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_noop

from campaign.bounds import MAX_LEDGER_AMOUNT
from tabletop.models import Table

from . import records as r
from .format import ArchiveRefused
from .sections import section_for
from .sections.campaign import balance_refusal
from .sections.tabletop import GAMES, MAX_TABLE_VERSION, Replaying, _finish_table, _replay_step, _start

PROGRESS_EVERY = 5000


class KindOrder:
    """The records' kinds arrive in their sections' order, each kind in one run, the campaign first."""

    def __init__(self):
        self.current: str | None = None
        self.order: int | None = None
        self.done: set[str] = set()

    def see(self, kind: str) -> bool:
        """Note ``kind``'s record; True when it starts a new run (the previous kind is all in)."""
        if kind == self.current:
            return False
        section = section_for(kind)
        if section.order < (self.order or 0) or kind in self.done:
            raise ArchiveRefused(gettext_noop("The archive's %(kind)s records are out of order: an export writes "
                                              "each kind in one run, in its section's order."), kind=kind)
        if self.current is None and kind != "campaign":
            raise ArchiveRefused(gettext_noop("The archive does not start with its campaign."))
        if self.current is not None:
            self.done.add(self.current)
        self.current, self.order = kind, section.order
        return True

    def finish(self) -> None:
        if self.current is None:
            raise ArchiveRefused(gettext_noop("The archive holds no campaign."))
        self.done.add(self.current)


class ProvenStates:
    """Each table's final state as ``prove_archive`` replayed it, by source id, held as compressed JSON;
    the write pass's ``load_table`` takes each once (``ImportContext.proven_states``)."""

    def __init__(self):
        self._packed: dict[Any, bytes] = {}

    def __len__(self) -> int:
        return len(self._packed)

    def put(self, table_old: Any, state: Any) -> None:
        self._packed[table_old] = zlib.compress(json.dumps(state, separators=(",", ":")).encode(), 1)

    def take(self, table_old: Any) -> Any:
        packed = self._packed.pop(table_old, None)
        if packed is None:  # the proof saw it once: a second record of the same id
            raise ArchiveRefused(r.HELD_TWICE, kind="table", id=repr(table_old))
        return json.loads(zlib.decompress(packed))


@dataclass
class _Proof:
    """What the loaders' replay steps use of an ``ImportContext``, and nothing that writes."""

    replaying: dict[Any, Replaying] = field(default_factory=dict)
    current_table: Any = None
    replayed_states: list[Table] = field(default_factory=list)
    proven: ProvenStates = field(default_factory=lambda: ProvenStates())

    def start(self, record: dict) -> None:
        old_id = r.ident(record)
        game = r.choice(record, "game", GAMES)
        title = r.text(record, "title", 120)
        table = Table(game=game, title=title, config=r.json_value(record, "config", types=(dict,)),
                      setup_draws=r.json_value(record, "setup_draws", types=(list,)),
                      start_state=r.json_value(record, "start_state", types=(dict, list), null=True))
        _start(game, table, title)  # refuses a set-up that does not replay; the state is made again when needed
        version = r.integer(record, "version", 0, MAX_TABLE_VERSION)
        self.replaying[old_id] = Replaying(table, title, r.text(record, "digest", 64, blank=False), version)

    def step(self, record: dict) -> None:
        table_old = r.ident(record, "table_id")
        if self.current_table not in (None, table_old):
            self.end(self.current_table)  # here, not inside _replay_step: the proof keeps the state
        _replay_step(record, self, table_old)

    def end(self, table_old: Any) -> None:
        _finish_table(self, table_old)  # checks the log's length and the final digest
        table = self.replayed_states.pop()  # never 200 of them: _finish_table would store them
        self.proven.put(table_old, table.state)


class _Balances:
    """Each account's balance as the archive states it, and the sum of its ledger entries: compared before
    the write pass, so an archive whose ledger was cut or changed is refused before anything is written."""

    def __init__(self):
        self.stated: dict[Any, tuple[str, int]] = {}
        self.summed: dict[Any, int] = {}

    def account(self, record: dict) -> None:
        self.stated[r.ident(record)] = (r.text(record, "name", 120), r.integer(record, "balance", -(2**62), 2**62))

    def entry(self, record: dict) -> None:
        account = r.ident(record, "account_id")
        if account not in self.stated:  # the accounts come first: the write pass's own sentence, earlier
            what = r.named(gettext_noop("ledger entry %(id)s"), id=repr(record.get("id")))
            raise ArchiveRefused(gettext_noop("The archive's %(what)s refers to %(kind)s %(id)s, which the archive "
                                              "does not hold."), what=what, kind="account", id=repr(account))
        amount = r.integer(record, "amount", -MAX_LEDGER_AMOUNT, MAX_LEDGER_AMOUNT)
        self.summed[account] = self.summed.get(account, 0) + amount

    def check(self) -> None:
        for account, (name, balance) in self.stated.items():
            if self.summed.get(account, 0) != balance:
                raise balance_refusal(name, self.summed.get(account, 0), balance)


def prove_archive(records: Iterable[dict], *, progress: Callable[[int], None] | None = None) -> ProvenStates:
    """Each table's final state by its source id, every log replayed to its digests, every account's
    ledger summed to its balance; raises ``ArchiveRefused`` at the first record out of order, table that
    does not replay or balance that differs. ``progress(records)`` is called every few thousand records."""
    order, proof, balances = KindOrder(), _Proof(), _Balances()
    for count, record in enumerate(records, start=1):
        kind = record["kind"]
        order.see(kind)
        if kind == "table":
            proof.start(record)
        elif kind == "table_action":
            proof.step(record)
        elif kind == "account":
            balances.account(record)
        elif kind == "ledger_entry":
            balances.entry(record)
        if progress is not None and count % PROGRESS_EVERY == 0:
            progress(count)
    order.finish()
    for table_old in list(proof.replaying):
        proof.end(table_old)
    balances.check()
    return proof.proven

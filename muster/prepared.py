"""Queries the ORM compiles once per process: the hot path's reads without the cost of building them.

Every phone's action and every fetch after a push reads the seat behind its token and the table as its
page renders it (issue 26). Building those querysets (select_related, six subqueries for the computer
seats, the newest undo) and compiling them to SQL cost more CPU than running them: the profile of a
fetch put a third of its time in the ORM's query building and compiling, not in the database.

``Prepared`` builds its queryset once per database alias, with a placeholder for each parameter, and
keeps the compiled SQL and how its columns become objects. Each call then runs that SQL with the real
values and builds the same instances the queryset would (``ModelIterable``'s steps: the model from its
columns, its ``select_related`` objects, its annotations), with the database's own converters, worked
out once per connection rather than at every run (issue 40). The
queryset stays the one description of the query: a change to it changes the prepared SQL.

Only a placeholder's value changes between calls: the builder's queryset must not depend on anything
else (no ``timezone.now()``, no settings read at call time).
"""

from __future__ import annotations

import copy
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

# Placeholder values by type: what no real parameter is. An int placeholder passes int(); a str one is
# kept as it is by every field that takes text.
_INT_BASE = -8_100_000_000_000_000_000


def _placeholder(kind: type, index: int):
    if kind is int:
        return _INT_BASE - index
    if kind is str:
        return f"\x00prepared-parameter-{index}\x00"
    raise TypeError(f"A prepared query takes int or str parameters, not {kind.__name__}.")


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple
    slots: tuple[tuple[int, str], ...]  # (index in params, the parameter's name)
    compiler: object
    model: type[Model]
    model_columns: tuple[int, int]
    init_list: tuple[str, ...]
    annotations: tuple[tuple[str, int], ...]
    locks: bool


class Prepared:
    """``Prepared(lambda token: Seat.objects.filter(token=token), token=str)``; ``.first(token=...)``."""

    def __init__(self, build: Callable[..., QuerySet], **parameters: type):
        self.build = build
        self.parameters = parameters
        self._compiled: dict[str, _Compiled] = {}
        self._readers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # by connection: see ``readers``
        self._lock = threading.Lock()

    def _compile(self, using: str) -> _Compiled:
        placeholders = {name: _placeholder(kind, i) for i, (name, kind) in enumerate(self.parameters.items())}
        queryset = self.build(**placeholders)
        if queryset._prefetch_related_lookups or queryset._known_related_objects:
            raise ValueError("A prepared query cannot prefetch: it would run other queries.")
        compiler = queryset.query.get_compiler(using=using)
        locks = bool(queryset.query.select_for_update)  # compiled in a transaction, as Django checks
        sql, params = compiler.as_sql()
        by_value = {value: name for name, value in placeholders.items()}
        slots = tuple((i, by_value[value]) for i, value in enumerate(params) if _hashable(value) and value in by_value)
        missing = set(self.parameters) - {name for _, name in slots}
        if missing:
            raise ValueError(f"The prepared query does not use {', '.join(sorted(missing))}.")
        klass_info, select = compiler.klass_info, compiler.select
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        return _Compiled(
            sql=sql,
            params=tuple(params),
            slots=slots,
            compiler=compiler,
            model=klass_info["model"],
            model_columns=(start, end),
            init_list=tuple(column[0].target.attname for column in select[start:end]),
            annotations=tuple(compiler.annotation_col_map.items()),
            locks=locks,
        )

    def compiled(self, using: str = DEFAULT_DB_ALIAS) -> _Compiled:
        compiled = self._compiled.get(using)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(using) or self._compile(using)
                self._compiled[using] = compiled
        return compiled

    def all(self, using: str = DEFAULT_DB_ALIAS, **values) -> list[Model]:
        compiled = self.compiled(using)
        connection = connections[using]
        if compiled.locks and connection.get_autocommit():  # as the compiler checks, at every call
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        params = list(compiled.params)
        for index, name in compiled.slots:
            params[index] = values[name]
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        if not rows:
            return []
        compiler, converters, populators = self.readers(compiled, connection, using)
        start, end = compiled.model_columns
        objects = []
        for row in compiler.apply_converters(rows, converters) if converters else rows:
            obj = compiled.model.from_db(using, compiled.init_list, row[start:end])
            for populator in populators:
                populator.populate(row, obj)
            for name, column in compiled.annotations:
                setattr(obj, name, row[column])
            objects.append(obj)
        return objects

    def readers(self, compiled: _Compiled, connection, using: str) -> tuple:
        """(the compiler as ``connection`` sees it, its columns' converters, the ``select_related``
        populators): what Django works out at every run of a query, once per connection here. Converters
        read the connection they were made for, so each connection (one a thread) has its own."""
        readers = self._readers.get(connection)
        if readers is None:
            compiler = copy.copy(compiled.compiler)
            compiler.connection, compiler.using = connection, using
            converters = compiler.get_converters([column[0] for column in compiler.select[: compiler.col_count]])
            readers = (compiler, converters, get_related_populators(compiler.klass_info, compiler.select, using))
            with self._lock:
                self._readers[connection] = readers
        return readers

    def first(self, using: str = DEFAULT_DB_ALIAS, **values) -> Model | None:
        objects = self.all(using, **values)
        return objects[0] if objects else None


def _hashable(value) -> bool:
    return isinstance(value, (int, str))

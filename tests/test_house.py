"""The house's rules counted from the code (issue 39): each test states one rule of docs/architecture.md
over the files themselves, so a change that breaks the rule fails here with the places that break it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tabletop.engines import ENGINES
from tabletop.engines.spec import HOOKS, Engine, EngineSpec

ROOT = Path(__file__).resolve().parent.parent


def _engine_like(node: ast.expr) -> bool:
    """An expression that names an engine: ``engine``, ``self.engine``, ``game``, a registered engine's module
    (``gotm``), ``ENGINES[...]`` or ``get_engine(...)``."""
    if isinstance(node, ast.Name):
        return "engine" in node.id.lower() or node.id in {"game", "rules", *ENGINES}
    if isinstance(node, ast.Attribute):
        return "engine" in node.attr.lower() or _engine_like(node.value) and node.attr in ENGINES
    if isinstance(node, ast.Subscript):
        return _engine_like(node.value)
    if isinstance(node, ast.Call):
        return _engine_like(node.func)
    return False


def test_no_module_outside_an_engine_probes_the_engine_for_a_hook():
    """No ``getattr``/``hasattr`` probe of an engine outside the engine's own package, in any app: callers read
    its spec, or import what the engine's package names (armies' unit catalog reads the Army engine's card check
    and starter units so). The contract's own check (tabletop/engines/spec.py ``contract_problems``, which the
    registry runs once at import) is the one place that looks an engine over."""
    own = {ROOT / "tabletop" / "engines" / name for name in ENGINES}
    probes = []
    for path in sorted(path for app in APPS for path in (ROOT / app).rglob("*.py")):
        if any(package in path.parents for package in own) or path == ROOT / "tabletop" / "engines" / "spec.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in {"getattr", "hasattr"} and node.args and _engine_like(node.args[0])):
                probes.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    assert probes == [], "read the engine's SPEC (tabletop/engines/spec.py), do not probe it:\n" + "\n".join(probes)


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_every_engine_has_the_contract_and_a_spec_with_every_hook(name):
    """Every registered engine satisfies the contract's protocols, and its spec has every optional hook."""
    engine = ENGINES[name]
    assert isinstance(engine, Engine), f"{name} lacks part of the contract (tabletop/engines/spec.py)"
    spec = engine.SPEC
    assert isinstance(spec, EngineSpec) and (spec.name, spec.title) == (engine.NAME, engine.TITLE)
    for hooks in HOOKS:
        assert isinstance(spec, hooks), f"{name}'s spec lacks part of {hooks.__name__}"
    assert all(callable(hook) for hook in (spec.settle, spec.shown_by, spec.heuristic, spec.playout,
                                           spec.override_menu, spec.gm_overrides))


APPS = ("campaign", "tabletop", "armies", "people", "archive", "muster")
LEDGER_WRITES = {"create", "bulk_create", "get_or_create", "update_or_create", "update", "bulk_update", "delete"}


def _app_modules():
    """Every module of the apps (their migrations aside): path relative to the repository, and its tree."""
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(), str(path))


def _rooted_at(node: ast.expr, model: str) -> bool:
    """``model.objects...`` (a chain of attributes and calls that starts at the model's name)."""
    while isinstance(node, ast.Attribute | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
    return isinstance(node, ast.Name) and node.id == model


def test_only_the_ledger_writes_ledger_entries():
    """No ``LedgerEntry`` row is made, changed or deleted outside campaign/ledger.py and the archive's restore."""
    writes = []
    for name, tree in _app_modules():
        if name == "campaign/ledger.py" or name.startswith("archive/"):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            made = isinstance(node.func, ast.Name) and node.func.id == "LedgerEntry"
            written = (isinstance(node.func, ast.Attribute) and node.func.attr in LEDGER_WRITES
                       and _rooted_at(node.func.value, "LedgerEntry"))
            if made or written:
                writes.append(f"{name}:{node.lineno} {ast.unparse(node.func)}")
    assert writes == [], "post through campaign.ledger (ledger_post, ledger_post_many):\n" + "\n".join(writes)


def test_only_the_ledger_locks_accounts():
    """An account's row is locked in one place, ``campaign.ledger.accounts_locked`` (by primary key, one query)."""
    locks = []
    for name, tree in _app_modules():
        if name == "campaign/ledger.py":
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "select_for_update" and _rooted_at(node.func.value, "Account")):
                locks.append(f"{name}:{node.lineno} {ast.unparse(node)}")
    assert locks == [], "lock accounts with campaign.ledger.accounts_locked:\n" + "\n".join(locks)


VIEW_APPS = ("campaign", "tabletop", "armies", "people", "archive", "muster")


def _view_modules(root: Path = ROOT):
    """Every view module of the apps: ``<app>/views.py`` and ``<app>/views/*.py``, with its tree."""
    for app in VIEW_APPS:
        paths = [root / app / "views.py", *sorted((root / app / "views").glob("*.py"))]
        for path in paths:
            if path.exists():
                yield path.relative_to(root).as_posix(), ast.parse(path.read_text(), str(path))


def _names(node: ast.expr | None) -> set[str]:
    """The class names an ``except`` clause catches: ``X``, ``module.X``, or a tuple of them."""
    if node is None:
        return {"BaseException"}  # a bare ``except:``
    if isinstance(node, ast.Tuple):
        return {name for element in node.elts for name in _names(element)}
    if isinstance(node, ast.Attribute):
        return {node.attr}
    return {node.id} if isinstance(node, ast.Name) else set()


def already_done_clauses(root: Path = ROOT) -> list[str]:
    return [
        f"{name}:{node.lineno}"
        for name, tree in _view_modules(root)
        for node in ast.walk(tree)
        if isinstance(node, ast.ExceptHandler) and "AlreadyDone" in _names(node.type)
    ]


def test_at_most_five_already_done_clauses_in_the_views():
    """A repeated form is answered by ``muster.answers.answer`` (its ``already``), not by an ``except
    AlreadyDone`` in each view: at most 5 such clauses are left in the view modules (there were 29)."""
    clauses = already_done_clauses()
    assert len(clauses) <= 5, "answer through muster.answers.answer:\n" + "\n".join(clauses)


PLAIN_ERRORS = {"BaseException", "Exception", "ValueError", "TypeError"}


def _says_or_raises(handler: ast.ExceptHandler) -> bool:
    """The clause raises again or logs the traceback (``logger.exception``): the error is not hidden."""
    for node in ast.walk(handler):
        if isinstance(node, ast.Raise):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "exception":
            return True
    return False


def plain_errors_made_sentences(root: Path = ROOT) -> list[str]:
    found = []
    for name, tree in _view_modules(root):
        for node in ast.walk(tree):
            caught = isinstance(node, ast.ExceptHandler) and _names(node.type) & PLAIN_ERRORS
            if caught and node.name and not _says_or_raises(node):  # the error itself is used: as a sentence
                found.append(f"{name}:{node.lineno} except {ast.unparse(node.type) if node.type else ''}")
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple) and _names(node.value) & PLAIN_ERRORS:
                for target in node.targets:
                    found.append(f"{name}:{node.lineno} {ast.unparse(target)} = {ast.unparse(node.value)}")
            if isinstance(node, ast.keyword) and node.arg == "refusing" and _names(node.value) & PLAIN_ERRORS:
                found.append(f"{name}:{node.value.lineno} refusing={ast.unparse(node.value)}")
    return found


def test_no_view_turns_a_plain_error_into_a_sentence():
    """Only a ``Refusal`` (muster/refusals.py) becomes a sentence on a page: no view catches a plain
    ``ValueError``, ``TypeError`` or ``Exception`` and shows it (a bug answers 500); a clause that raises it
    again or logs its traceback is not hiding it. No exception is left: a table's set-up refuses with
    ``SetupRefused`` (tabletop/services/tables.py), where the engine's setup is called."""
    found = plain_errors_made_sentences()
    assert found == [], "raise a Refusal in the service and answer through muster.answers.answer:\n" + "\n".join(found)


# The base classes of a refusal: every app's (muster/refusals.py) and the engines' own, which import no Django.
REFUSAL_ROOTS = {"Refusal", "IllegalAction"}
# The ``except`` clauses naming a refusal left in the views, by module, function and what they catch, each with
# why it is not ``muster.answers.answer``: that helper answers a write, and these read a secret link before any
# write, refusing with its own page and a failed login counted (people/throttle.py).
REFUSAL_CLAUSES = {
    "people/views/resets.py reset except ResetLinkRefused": "the reset link is read before its form is shown",
    "people/views/owner.py _form_page except OwnerLinkRefused": "the owner's link is read before its form is shown",
}


def refusal_classes(root: Path = ROOT) -> set[str]:
    """The names of every class of the apps that derives, at any depth, from a ``REFUSAL_ROOTS`` class."""
    bases: dict[str, set[str]] = {}
    for app in APPS:
        for path in (root / app).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.ClassDef):
                    bases.setdefault(node.name, set()).update(name for base in node.bases for name in _names(base))
    found = set(REFUSAL_ROOTS)
    while grown := {name for name, parents in bases.items() if parents & found} - found:
        found |= grown
    return found


def refusal_clauses(root: Path = ROOT) -> list[str]:
    """Each ``except`` clause of a view module that names a refusal: its module, function and what it catches."""
    refusals = refusal_classes(root)
    found = []
    for name, tree in _view_modules(root):
        inside = {}
        for function in ast.walk(tree):
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                inside.update({id(node): function.name for node in ast.walk(function)})  # the innermost wins
        for node in ast.walk(tree):
            if isinstance(node, ast.ExceptHandler) and _names(node.type) & refusals:
                found.append(f"{name} {inside.get(id(node), '')} except {ast.unparse(node.type)}")
    return sorted(found)


def test_a_refusal_is_answered_by_the_one_helper_not_caught_in_a_view():
    """A view hands its write to ``muster.answers.answer``, which turns a refusal into the page's answer; no view
    catches a refusal by hand (there were 13 such clauses) but the few named in ``REFUSAL_CLAUSES`` with why.
    A named one that is gone is taken off the list."""
    found = refusal_clauses()
    assert found == sorted(REFUSAL_CLAUSES), "answer through muster.answers.answer:\n" + "\n".join(found)


def test_the_refusal_clause_finder_follows_subclasses_and_names_the_function(tmp_path):
    (tmp_path / "muster").mkdir()
    (tmp_path / "muster" / "refusals.py").write_text("class Refusal(Exception): pass\n")
    (tmp_path / "people" / "views").mkdir(parents=True)
    (tmp_path / "people" / "errors.py").write_text("class PeopleError(Refusal): pass\nclass Gone(PeopleError): pass\n")
    (tmp_path / "people" / "views" / "pages.py").write_text(
        "def page():\n    try:\n        pass\n    except (Gone, KeyError):\n        pass\n"
        "    except ValueError:\n        pass\n"
    )
    assert {"Refusal", "PeopleError", "Gone"} <= refusal_classes(tmp_path)
    assert refusal_clauses(tmp_path) == ["people/views/pages.py page except (Gone, KeyError)"]


LONG_MODULE_LINES = 400
# The app modules (migrations aside) allowed past LONG_MODULE_LINES, at most two, each with why it stays
# whole; that reason is also written in the module's own docstring. Every other module is split by subject.
LONG_MODULES = {
    "archive/format.py": "The writer and the reader are kept in one module",
}


def long_modules(root: Path = ROOT) -> dict[str, int]:
    """Each app module (migrations aside) over ``LONG_MODULE_LINES`` lines, with its number of lines."""
    found = {}
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            lines = len(path.read_text().splitlines())
            if "migrations" not in path.parts and lines > LONG_MODULE_LINES:
                found[path.relative_to(root).as_posix()] = lines
    return found


def test_at_most_two_app_modules_are_long_and_each_says_why():
    """Big files are split by subject (issue 39): at most two app modules are over 400 lines, each named in
    ``LONG_MODULES`` with why it stays whole, and its docstring says so; a named one that is short again is
    taken off the list."""
    found = long_modules()
    assert len(LONG_MODULES) <= 2
    assert sorted(found) == sorted(LONG_MODULES), (
        f"over {LONG_MODULE_LINES} lines: {found}; split them by subject, or name at most two in LONG_MODULES"
    )
    for name, reason in LONG_MODULES.items():
        docstring = ast.get_docstring(ast.parse((ROOT / name).read_text())) or ""
        assert reason in " ".join(docstring.split()), f"{name}'s docstring does not say why it is long: {reason!r}"


def _imported_modules(tree: ast.Module) -> set[str]:
    """Every module an import in ``tree`` names, at any depth: ``import a.b``, ``from a.b import c`` (a.b, and
    a.b.c in case c is a module)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return found


def imports_of_test_modules(root: Path = ROOT) -> list[tuple[str, str]]:
    """(importing file, imported test module) for every import of a test module by a module under tests/."""
    test_modules = {p.relative_to(root).with_suffix("").as_posix().replace("/", ".")
                    for p in (root / "tests").rglob("test_*.py")}
    by_basename = {name.rsplit(".", 1)[-1] for name in test_modules}  # how pytest's rootdir import names them
    found = []
    for path in sorted((root / "tests").rglob("*.py")):
        for module in _imported_modules(ast.parse(path.read_text(), str(path))):
            if module in test_modules or module in by_basename:
                found.append((path.relative_to(root).as_posix(), module))
    return sorted(found)


def test_no_test_module_imports_another_test_module():
    """A helper two test modules share lives in a helper module or a fixture (CONVENTIONS 16b), never in a test
    module another imports: counted over the syntax tree of every module under tests/ (an import inside a
    function too)."""
    found = [f"{path} imports {module}" for path, module in imports_of_test_modules()]
    assert found == [], "move the shared helper to tests/<app>/_helpers.py or a fixture:\n" + "\n".join(found)


PLACES = ("forms", "selectors", "views", "services")


def prefix_named_modules(root: Path = ROOT) -> list[str]:
    """App modules named for a subject and a kind of place (``member_forms.py``, ``battle_selectors.py``)."""
    return [
        path.relative_to(root).as_posix()
        for app in APPS
        for path in sorted((root / app).rglob("*.py"))
        if "migrations" not in path.parts and any(path.stem.endswith(f"_{place}") for place in PLACES)
    ]


def test_one_subject_is_one_set_of_places():
    """A subject's forms, reads, pages and writes are ``forms/X``, ``selectors/X``, ``views/X`` and ``services/X``
    (or the app's one ``forms.py``...), never a module named for both (``people/member_forms.py`` was one)."""
    found = prefix_named_modules()
    assert found == [], "move each into its kind's package, a module per subject:\n" + "\n".join(found)


QUERY_COUNTERS = {"django_assert_num_queries", "django_assert_max_num_queries", "assertNumQueries",
                  "CaptureQueriesContext"}


def _called_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def uncounted_answers(root: Path = ROOT) -> list[str]:
    """Each request inside a query-count block whose answer is thrown away (``client.get(url)`` as a statement):
    a 404 or a redirect would pass the count."""
    found = []
    for path in sorted((root / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            counting = isinstance(node, ast.With | ast.AsyncWith) and any(
                isinstance(item.context_expr, ast.Call) and _called_name(item.context_expr.func) in QUERY_COUNTERS
                for item in node.items)
            for statement in node.body if counting else ():
                if (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
                        and _called_name(statement.value.func) in {"get", "post", "head"}):
                    found.append(f"{path.relative_to(root).as_posix()}:{statement.lineno} {ast.unparse(statement)}")
    return found


def test_a_query_count_also_checks_the_answer():
    """A query-count test also checks the answer it counts, its status and a piece of its content (CONVENTIONS
    16b, as Zulip's test_num_queries_for_realm_admin does): no request in a query-count block is thrown away."""
    found = uncounted_answers()
    assert found == [], "count the request with tests/counted.py's counted_get:\n" + "\n".join(found)

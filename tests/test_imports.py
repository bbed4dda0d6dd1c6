"""The project's own modules import each other at the top and in one direction: no circle.

Each module's imports are read from its source (``ast``), resolved to the project's modules (a
``from package import name`` names the submodule when there is one, else the package), and the
graph must have no cycle. An import inside a function is the usual way to hide one, so none is
allowed outside an ``AppConfig.ready`` and ``if TYPE_CHECKING:`` blocks (CONVENTIONS.md 14e).
"""

from __future__ import annotations

import ast
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("campaign", "armies", "tabletop", "people", "archive", "muster")


def _modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _base(name: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` reads from (a relative one resolved against ``name``)."""
    base = node.module or ""
    if node.level:
        package = _package_of(name, path)
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    return base


def _resolve(name: str, path: Path, node: ast.ImportFrom | ast.Import) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name.split(".")[0] in APPS]
    base = _base(name, path, node)
    if base.split(".")[0] not in APPS:
        return []
    targets = []
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        targets.append(sub if sub in MODULES else base)
    return targets


def _top_level_imports(tree: ast.Module):
    """Imports run when the module loads: at the top, or in a top-level ``try``/``if`` (not TYPE_CHECKING)."""
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        elif isinstance(node, (ast.If, ast.Try)):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    yield inner


@cache
def _graph() -> dict[str, set[str]]:
    graph = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        graph[name] = {
            target
            for node in _top_level_imports(tree)
            for target in _resolve(name, path, node)
            if target in MODULES and target != name
        }
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_project_has_no_import_circle():
    cycle = _cycle(_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_the_circle_finder_finds_a_circle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def _is_app_ready(node: ast.AST, parents: dict[ast.AST, ast.AST], path: Path) -> bool:
    """``ready`` as a method of a class in an app's ``apps.py``: where Django wants models imported late."""
    return (
        isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.name == "ready"
        and path.name == "apps.py"
        and isinstance(parents.get(node), ast.ClassDef)
    )


def _function_imports(tree: ast.Module, path: Path):
    """(function, import) for every import inside a function, but those of ``AppConfig.ready`` and of an
    ``if TYPE_CHECKING:`` block (read by type checkers, never run)."""
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        function, above = None, parents.get(node)
        while above is not None:
            if isinstance(above, ast.If) and "TYPE_CHECKING" in ast.unparse(above.test):
                break
            if isinstance(above, (ast.FunctionDef, ast.AsyncFunctionDef)) and function is None:
                function = above
            above = parents.get(above)
        else:
            if function is not None and not _is_app_ready(function, parents, path):
                yield function.name, node


def test_no_app_imports_inside_a_function():
    """An import inside a function hides a circle (CONVENTIONS 14e): none in any app or in ``muster``, but
    in ``AppConfig.ready`` (models are ready only then) and under ``if TYPE_CHECKING:``."""
    found = [
        f"{name}.{function}: {ast.unparse(node)}"
        for name, path in MODULES.items()
        for function, node in _function_imports(ast.parse(path.read_text()), path)
    ]
    assert found == []


def test_the_function_import_finder_spares_only_ready_and_type_checking():
    source = (
        "from typing import TYPE_CHECKING\n"
        "class Config:\n    def ready(self):\n        import a\n"
        "def later():\n    import b\n    if TYPE_CHECKING:\n        import c\n"
        "def ready():\n    import d\n"
    )
    found = sorted((f, ast.unparse(node)) for f, node in _function_imports(ast.parse(source), Path("x/apps.py")))
    assert found == [("later", "import b"), ("ready", "import d")]
    assert sorted(f for f, _ in _function_imports(ast.parse(source), Path("x/views.py"))) == ["later", "ready", "ready"]


# The floors, lowest first: a module imports only from its own floor or those below it.
FLOORS = ("campaign", "tabletop", "armies", "people", "archive")
# ``muster`` is the project package and sits on two floors. Its entry points are the roof: they wire
# every app together (the URLs, the websocket routes, the ASGI/WSGI apps and their lifespan, the
# settings, the Celery app) and no app imports them. Every other module of ``muster`` is the ground
# floor below ``campaign``: shared helpers (http, live, presence, prepared, request_log, origin, ...)
# that import no app.
MUSTER_ROOF = {"muster", "muster.asgi", "muster.celery", "muster.lifespan", "muster.routing", "muster.settings",
               "muster.urls", "muster.wsgi"}


def _floor(module: str) -> int:
    """The floor of ``module``: 0 the ground (``muster``'s helpers), 1.. the apps, the roof above them all."""
    app = module.split(".")[0]
    if app == "muster":
        return len(FLOORS) + 1 if module in MUSTER_ROOF else 0
    return FLOORS.index(app) + 1


def _upward(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{name} -> {target}"
        for name, targets in graph.items()
        for target in targets
        if _floor(target) > _floor(name)
    )


def test_every_import_points_down_the_floors():
    """campaign < tabletop < armies < people < archive, with ``muster``'s helpers below them all and its
    entry points above them all: a module never imports one of a higher floor (docs/architecture.md)."""
    assert _upward(_graph()) == []


def test_the_floor_check_finds_an_upward_import():
    graph = {"campaign.models": {"tabletop.models"}, "people.views": {"armies.models", "muster.http"},
             "muster.http": {"campaign.models"}, "tabletop.views": {"muster.urls"}, "muster.urls": {"archive.urls"}}
    assert _upward(graph) == ["campaign.models -> tabletop.models", "muster.http -> campaign.models",
                              "tabletop.views -> muster.urls"]


def _imported(name: str, path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The absolute names an import statement names (a relative one resolved against ``name``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = _base(name, path, node)
    return [f"{base}.{alias.name}" if base else alias.name for alias in node.names]


PURE = ("tabletop.engines", "tabletop.bots")


def _impure_imports(modules: dict[str, Path]) -> list[str]:
    found = []
    for name, path in modules.items():
        if not name.startswith(PURE):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found += [
                    f"{name}: {target}"
                    for target in _imported(name, path, node)
                    if target.split(".")[0] not in sys.stdlib_module_names
                    and not (target + ".").startswith(tuple(pure + "." for pure in PURE))
                ]
    return found


def test_engines_and_bots_import_only_the_standard_library_and_each_other():
    """The rules and the computer's search stay pure (CONVENTIONS 1): every import of ``tabletop/engines``
    and ``tabletop/bots``, wherever it stands, is of the standard library or of those two packages."""
    assert _impure_imports(MODULES) == []


def test_the_purity_check_finds_django_in_an_engine(tmp_path):
    engine = tmp_path / "game.py"
    engine.write_text("import random\nfrom django.db import models\nfrom ..kernel import GM\nfrom ... import hooks\n")
    assert _impure_imports({"tabletop.engines.dice.game": engine}) == [
        "tabletop.engines.dice.game: django.db.models", "tabletop.engines.dice.game: tabletop.hooks"
    ]


def _reads(name: str) -> bool:
    """A module of reads: an app's ``presenters`` or ``selectors`` (a module, a package or in one), and
    ``tabletop.taken_back`` (what an undo took back, named for the page)."""
    return name == "tabletop.taken_back" or any(
        part.endswith(("presenters", "selectors")) for part in name.split(".")[1:]
    )


def _is_service(name: str) -> bool:
    return "services" in name.split(".")[1:]


def test_presenters_and_selectors_import_no_service():
    """Reads apart from writes (CONVENTIONS 10): what a page shows is read by presenters and selectors,
    which never load a write module; the services may use the selectors, not the other way round."""
    graph = _graph()
    found = sorted(
        f"{name} -> {target}"
        for name, targets in graph.items()
        if _reads(name)
        for target in targets
        if _is_service(target)
    )
    assert found == []


def test_the_computer_never_imports_the_services():
    """One way between ``tabletop/computer`` and ``tabletop/services``: a change (a service) schedules the
    computer's turn after it commits (``computer/scheduling.py``), and the computer's decided move is
    played by a service (``services/computer_moves.py``, run by the tasks), so no module of the computer
    imports a service."""
    found = sorted(
        f"{name} -> {target}"
        for name, targets in _graph().items()
        if name.startswith("tabletop.computer")
        for target in targets
        if target.startswith("tabletop.services")
    )
    assert found == []

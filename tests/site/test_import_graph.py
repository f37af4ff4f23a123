"""The arrows between the project's packages go one way, and the modules form no cycle.

Every module of the shipped packages is parsed with `ast`: each `import` and `from ...
import` counts, at the top of a file or inside a function, and relative imports are
resolved against the module's package. An import of a package also counts as an import
of its `__init__` (importing `scoring.models` runs `scoring/__init__.py` first).

The floors, lowest first (FLOORS below): `kit/` and `engine/` import no app;
`tournaments/`, and beside it `accounts/` (an organiser's API tokens), neither importing
the other; `scoring/` above them; `ratings/` (players' ratings from the table results) and
beside it `seasons/` (a club's players ranked over several tournaments), neither importing
the other; `rounds/` (whose first round may be drawn by rating) and `archive/` above those;
`results/` (a tournament's results file, and its import into a season) above archive;
`relay/` (a venue's night pushed to the club's hosted site) above results;
`api/`, and beside it `push/` (« Ma soirée »'s notifications, told by rounds' clock);
`serving/` (gunicorn's configuration, venue mode, LAN discovery, backups); and `atout/`,
the roof (settings, URLs, the Celery app). The engine, besides, imports no web framework:
it runs anywhere plain Python runs.
"""

from __future__ import annotations

import ast
import itertools
import tomllib
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from tests.conftest import ROOT

WEB_FRAMEWORKS = {"django", "rest_framework", "celery"}
# Each package's floor: a module imports only from its own package and from lower floors
# (two packages on one floor import nothing of each other).
FLOORS = {
    "kit": 0,
    "engine": 0,
    "accounts": 1,
    "tournaments": 1,
    "scoring": 2,
    "ratings": 3,
    "seasons": 3,
    "rounds": 4,
    "archive": 4,
    "results": 5,
    "relay": 6,
    "api": 7,
    "push": 7,
    "serving": 8,
    "atout": 9,
}


def project_packages() -> list[str]:
    """The top-level packages the project ships (pyproject's `packages.find.include`)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["packages"]["find"]["include"]
    return sorted(pattern.rstrip("*") for pattern in patterns)


@cache
def project_modules() -> dict[str, Path]:
    """Every module of the shipped packages by dotted name (a package by its `__init__`)."""
    modules: dict[str, Path] = {}
    for package in project_packages():
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imported_names(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """Every dotted name module `name` imports, with its line (relative ones resolved)."""
    yield from names_in_source(name, path.read_text(encoding="utf-8"), is_package=path.name == "__init__.py")


def parse(source: str) -> ast.Module:
    """`ast.parse`, again if CPython 3.11's shared AST state was caught mid-use.

    In 3.11 the AST converter's recursion counter is shared by the interpreter's threads;
    a traceback formatted at the same moment in another thread (the live server, a task)
    also converts an AST and can trip it ("AST constructor recursion depth mismatch").
    The parse itself is sound: a second attempt succeeds.
    """
    for _attempt in range(4):
        try:
            return ast.parse(source)
        except SystemError as error:
            if "recursion depth mismatch" not in str(error):
                raise
    return ast.parse(source)


def names_in_source(name: str, source: str, *, is_package: bool) -> Iterator[tuple[str, int]]:
    # ast.walk visits every node: imports in functions, methods and `if` blocks count.
    for node in ast.walk(parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                # `from . import x` in a package's __init__ is relative to that package.
                anchor = name.split(".")
                drop = node.level - 1 if is_package else node.level
                anchor = anchor[: len(anchor) - drop] if drop else anchor
                base = ".".join([*anchor, node.module] if node.module else anchor)
            else:
                base = node.module or ""
            yield base, node.lineno
            # `from scoring import jobs` imports the module scoring.jobs.
            for alias in node.names:
                yield f"{base}.{alias.name}", node.lineno


def resolve(dotted: str) -> list[str]:
    """The project modules an import of `dotted` runs: the module and its packages."""
    modules = project_modules()
    parts = dotted.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1) if ".".join(parts[:i]) in modules]


@cache
def import_graph() -> dict[str, dict[str, int]]:
    """Module -> {project module it imports: line of the first such import}."""
    graph: dict[str, dict[str, int]] = {}
    for name, path in project_modules().items():
        edges: dict[str, int] = {}
        for dotted, line in imported_names(name, path):
            for target in resolve(dotted):
                # A package's modules import their own package: that is no arrow.
                if target != name and not name.startswith(target + "."):
                    edges.setdefault(target, line)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, dict[str, int]]) -> list[str] | None:
    """One cycle of the graph as its modules (first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, {})):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def describe(cycle: list[str]) -> str:
    graph = import_graph()
    steps = [
        f"{source} -> {target} ({project_modules()[source].relative_to(ROOT)}:{graph[source][target]})"
        for source, target in itertools.pairwise(cycle)
    ]
    return "import cycle:\n  " + "\n  ".join(steps)


def package_arrows() -> Iterator[tuple[str, str, str, int]]:
    """Each import of a module of another package: (from package, to package, file, line)."""
    for module, edges in import_graph().items():
        for target, line in edges.items():
            source, into = module.split(".")[0], target.split(".")[0]
            if source != into:
                yield source, into, str(project_modules()[module].relative_to(ROOT)), line


def imports_across(lower: set[str], upper: set[str]) -> list[str]:
    """Each import, as `file:line imports package`, from a module of `lower` into `upper`."""
    found = {(path, line, into) for source, into, path, line in package_arrows() if source in lower and into in upper}
    return [f"{path}:{line} imports {package}" for path, line, package in sorted(found)]


def test_the_reader_sees_imports_inside_functions_and_resolves_relative_ones() -> None:
    source = (
        "import kit.env\n"
        "def later():\n"
        "    from scoring import tasks\n"
        "class Config:\n"
        "    def ready(self):\n"
        "        from . import receivers\n"
        "        from ..models import Round\n"
    )
    names = [dotted for dotted, _line in names_in_source("scoring.views.apps", source, is_package=False)]
    assert names == [
        "kit.env",
        "scoring",
        "scoring.tasks",
        "scoring.views",
        "scoring.views.receivers",
        "scoring.models",
        "scoring.models.Round",
    ]
    package = [dotted for dotted, _line in names_in_source("scoring", "from . import jobs", is_package=True)]
    assert package == ["scoring", "scoring.jobs"]


def test_the_cycle_finder_reports_the_modules_of_a_cycle() -> None:
    graph = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 4}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b": 1}, "b": {}}) is None


def test_tournaments_imports_neither_scoring_nor_api_nor_the_archive() -> None:
    assert imports_across({"tournaments"}, {"scoring", "rounds", "archive", "api"}) == []


def test_every_arrow_between_packages_goes_down_a_floor() -> None:
    assert set(project_packages()) <= set(FLOORS), "give each package of pyproject.toml its floor"
    upward = {(path, line, into) for source, into, path, line in package_arrows() if FLOORS[source] <= FLOORS[into]}
    assert [f"{path}:{line} imports {into}" for path, line, into in sorted(upward)] == []


def test_no_engine_module_imports_django_drf_or_celery() -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {dotted}"
        for name, path in project_modules().items()
        if name.split(".")[0] == "engine"
        for dotted, line in imported_names(name, path)
        if dotted.split(".")[0] in WEB_FRAMEWORKS
    ]
    assert wrong == []


def test_the_project_modules_import_each_other_without_a_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, describe(cycle)

"""Signals and task names go only where an import could not: up the floors, to strangers.

The import graph (test_import_graph.py) cannot see a call made through a signal, a task
queued by its name or a registry. So a signal is allowed only where its sender must not
know who listens: every receiver lives on a floor above the sender's (the sender could not
import it). A signal sent and received within one floor's reach would be a hidden call
that a plain import says better; a signal whose answers the sender reads (`for _, answer
in x.send(...)`) is a call up the floors in disguise. A task queued by name belongs to the
package that queues it or to one on a lower floor: the name stands for an import the
queuing package could have written. And no package keeps a registry that another fills
(`kind_register(kind, function)` called from above, a decorator that files what it
decorates): the package below would call up the floors through what it was handed.

Names are followed across modules (`from scoring.enqueue import JOB_RUN`): tests/site/names.py.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from tests.site import names
from tests.site.test_import_graph import FLOORS, parse, project_modules

SEND_METHODS = {"send", "send_robust"}


@dataclass(frozen=True)
class Use:
    signal: str
    module: str
    line: int

    @property
    def package(self) -> str:
        return self.module.split(".")[0]

    def where(self) -> str:
        return f"{project_modules()[self.module].name} ({self.module}:{self.line})"


def declared_signals() -> set[str]:
    """The names bound to `Signal()` at the top of a project module."""
    names: set[str] = set()
    for path in project_modules().values():
        for node in parse(path.read_text(encoding="utf-8")).body:
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", getattr(node.value.func, "attr", "")) == "Signal"
            ):
                names.update(target.id for target in node.targets if isinstance(target, ast.Name))
    return names


def _signal_name(node: ast.expr) -> str:
    """`x` in `x.send(...)`, `module.x.send(...)` or `@receiver(x)`."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}


def signal_uses() -> Iterator[tuple[str, Use, bool]]:
    """Each send ("send", use, answer read) and each receiver ("receive", use, False)."""
    signals = declared_signals()
    for module, path in project_modules().items():
        tree = parse(path.read_text(encoding="utf-8"))
        parents = _parents(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "receiver" and node.args:
                    name = _signal_name(node.args[0])
                    if name in signals:
                        yield "receive", Use(name, module, node.lineno), False
                continue
            name = _signal_name(node.func.value)
            if name not in signals:
                continue
            if node.func.attr in SEND_METHODS:
                parent = parents.get(node)
                # A send as a statement, or as a lambda's body handed to on_commit, drops
                # its answers; anything else reads them.
                read = not isinstance(parent, ast.Expr | ast.Lambda)
                yield "send", Use(name, module, node.lineno), read
            elif node.func.attr == "connect":
                yield "receive", Use(name, module, node.lineno), False


def test_the_reader_finds_sends_receivers_and_answers_read() -> None:
    uses = list(signal_uses())
    assert any(kind == "send" for kind, _use, _read in uses)
    assert any(kind == "receive" for kind, _use, _read in uses)
    source = "for _r, answer in wanted.send(sender=None):\n    pass\nwanted.send(sender=None)\n"
    tree = parse(source)
    parents = _parents(tree)
    sends = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    assert [not isinstance(parents[call], ast.Expr | ast.Lambda) for call in sends] == [True, False]


def test_no_sender_reads_the_answers_of_a_signal() -> None:
    read = [f"{use.signal} answered at {use.where()}" for kind, use, answered in signal_uses() if answered]
    assert read == []


def test_every_signal_goes_up_to_a_floor_its_sender_cannot_import() -> None:
    uses = list(signal_uses())
    senders = [use for kind, use, _read in uses if kind == "send"]
    receivers = [use for kind, use, _read in uses if kind == "receive"]
    within_reach = [
        f"{sent.signal}: sent at {sent.where()}, received at {got.where()}"
        for sent in senders
        for got in receivers
        if got.signal == sent.signal and FLOORS[got.package] <= FLOORS[sent.package]
    ]
    assert within_reach == []


# -- tasks queued by name --------------------------------------------------------------

QUEUEING = {"enqueue", "enqueue_on_commit", "signature", "send_task"}
TASK_DECORATORS = {"shared_task", "task"}


@dataclass(frozen=True)
class Queued:
    module: str
    line: int
    name: str | None  # None: the reader cannot tell which task

    @property
    def package(self) -> str:
        return self.module.split(".")[0]

    def where(self) -> str:
        return f"{project_modules()[self.module].name} ({self.module}:{self.line})"


def _parameters(node: ast.AST) -> set[str]:
    """Every parameter name of the functions and lambdas in `node` (itself included)."""
    found: set[str] = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            arguments = inner.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
            found.update(argument.arg for argument in every if argument is not None)
    return found


def queued_names() -> Iterator[Queued]:
    """Each task a module queues by name (`enqueue`, `enqueue_on_commit`, `signature`,
    `send_task`): a literal, or a constant of this module or imported from another."""
    for module in project_modules():
        module_tree = names.tree(module)
        forwarded = _parameters(module_tree)
        for node in ast.walk(module_tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            if getattr(node.func, "id", getattr(node.func, "attr", "")) not in QUEUEING:
                continue
            first = node.args[0]
            name = names.string_value(module, first)
            if name is None and isinstance(first, ast.Name) and first.id in forwarded:
                continue  # a helper sending the name its caller gave: the caller is read instead
            yield Queued(module, node.lineno, name)


def registered_tasks() -> dict[str, str]:
    """Each task name the project's modules register -> the module of the task's function."""
    tasks: dict[str, str] = {}
    for module in project_modules():
        for node in ast.walk(names.tree(module)):
            if not isinstance(node, ast.FunctionDef):
                continue
            for decorator in node.decorator_list:
                call = decorator if isinstance(decorator, ast.Call) else None
                called = call.func if call is not None else decorator
                if getattr(called, "id", getattr(called, "attr", "")) not in TASK_DECORATORS:
                    continue
                given = [k.value for k in call.keywords if k.arg == "name"] if call is not None else []
                # Celery's own default: the function's module and name.
                name = names.string_value(module, given[0]) if given else f"{module}.{node.name}"
                assert name is not None, f"{module}: the name of task {node.name} is unreadable"
                tasks[name] = module
    return tasks


def queued_against_the_floors(queued: Iterable[Queued], tasks: dict[str, str]) -> list[str]:
    """What breaks the rule: a task queued by name belongs to the package that queues it or to
    one on a lower floor (which the queuing package could import); queueing up the floors,
    or beside them, is a call the import graph cannot see."""
    wrong: list[str] = []
    for use in queued:
        owner = tasks.get(use.name) if use.name is not None else None
        if use.name is None:
            wrong.append(f"{use.where()} queues a task whose name the reader cannot tell")
        elif owner is None:
            wrong.append(f"{use.where()} queues {use.name}, which no task of the project is registered as")
        elif (package := owner.split(".")[0]) != use.package and FLOORS[package] >= FLOORS[use.package]:
            wrong.append(f"{use.where()} queues {use.name}, a task of {owner}, not below {use.package}")
    return wrong


def test_the_reader_resolves_task_names_imported_from_another_module() -> None:
    queued = list(queued_names())
    # `from scoring.enqueue import JOB_RUN` then `enqueue_on_commit(JOB_RUN, ...)`.
    assert any(use.module == "seasons.ranking" and use.name == "scoring.job_run" for use in queued)
    assert any(use.module == "scoring.jobs" and use.name == "scoring.job_run" for use in queued)
    # `signature(RATINGS_REBUILD)` with the module's own constant.
    assert any(use.module == "ratings.enqueue" and use.name == "ratings.rebuild" for use in queued)
    tasks = registered_tasks()
    # `@shared_task(name=ranking.SEASON_AGGREGATE)`: a constant of a module imported whole.
    assert tasks["scoring.season_aggregate"] == "seasons.tasks"
    assert tasks["scoring.job_run"] == "scoring.tasks"


def test_the_rule_refuses_a_task_queued_up_or_beside_the_floors() -> None:
    tasks = {"scoring.job_run": "scoring.tasks", "seasons.job_run": "seasons.tasks", "ratings.rebuild": "ratings.tasks"}
    uses = [
        Queued("seasons.ranking", 1, "scoring.job_run"),  # down: fine
        Queued("seasons.ranking", 2, "seasons.job_run"),  # its own: fine
        Queued("scoring.jobs", 3, "seasons.job_run"),  # up
        Queued("seasons.ranking", 4, "ratings.rebuild"),  # beside
        Queued("scoring.jobs", 5, "scoring.nothing"),
        Queued("scoring.jobs", 6, None),
    ]
    assert [line.split(":")[1].split(")")[0] for line in queued_against_the_floors(uses, tasks)] == ["3", "4", "5", "6"]


def test_a_task_queued_by_name_belongs_to_the_queuing_package_or_a_lower_floor() -> None:
    queued = list(queued_names())
    assert queued, "the reader found no task queued by name"
    assert queued_against_the_floors(queued, registered_tasks()) == []


# -- registries ------------------------------------------------------------------------

# What stores into a container: `state.append(x)`, `state.setdefault(k, []).append(x)`...
STORING_METHODS = {"append", "add", "update", "setdefault", "insert", "extend", "__setitem__"}


def _carries(value: ast.expr | None, parameters: set[str]) -> bool:
    """Whether `value` is one of the parameters as given (alone or in a display), not something
    computed from them: a registry keeps what its caller handed it, a memo what it worked out."""
    if isinstance(value, ast.Name):
        return value.id in parameters
    if isinstance(value, ast.Tuple | ast.List | ast.Set):
        return any(_carries(element, parameters) for element in value.elts)
    if isinstance(value, ast.Dict):
        return any(_carries(element, parameters) for element in [*value.keys, *value.values])
    if isinstance(value, ast.Starred):
        return _carries(value.value, parameters)
    return False


def _root(node: ast.expr) -> str | None:
    """The name at the bottom of `a.b[c].d(...)`: `a`."""
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def module_state(module_tree: ast.Module) -> set[str]:
    """The names a module binds at its top by assignment: where a registry keeps its entries."""
    state: set[str] = set()
    for node in module_tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            state.update(target.id for target in targets if isinstance(target, ast.Name))
    return state


def keeps_its_arguments(function: ast.FunctionDef, state: set[str]) -> bool:
    """Whether `function` (or a function inside it: a decorator's wrapper) stores an argument
    it was given in its module's state: the door of a registry, whatever its name."""
    parameters = _parameters(function)
    declared = {name for node in ast.walk(function) if isinstance(node, ast.Global) for name in node.names}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                kept = target.id in declared if isinstance(target, ast.Name) else _root(target) in state
                if kept and _carries(node.value, parameters):
                    return True
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in STORING_METHODS
            and _root(node.func.value) in state | declared
        ):
            given = [*node.args, *(keyword.value for keyword in node.keywords)]
            if any(_carries(value, parameters) for value in given):
                return True
    return False


def registries_filled_from_another_package() -> Iterator[str]:
    """Each call (or bare decorator) in one package of a function of another that keeps its
    arguments: the package below would later call what the one above handed it, an arrow
    up the floors that no import shows."""
    for module in project_modules():
        package = module.split(".")[0]
        module_tree = names.tree(module)
        for node in ast.walk(module_tree):
            if isinstance(node, ast.Call):
                callees = [node.func]
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                callees = [decorator for decorator in node.decorator_list if not isinstance(decorator, ast.Call)]
            else:
                continue
            for callee in callees:
                dotted = names.refers_to(module, callee)
                function = names.function(dotted)
                if function is None or dotted is None or dotted.split(".")[0] == package:
                    continue
                home = dotted.rpartition(".")[0]
                if keeps_its_arguments(function, module_state(names.tree(home))):
                    yield f"{project_modules()[module].name} ({module}:{node.lineno}) fills {dotted}"


def test_the_reader_tells_a_registry_from_a_function_that_only_uses_its_arguments() -> None:
    source = (
        "_kinds = {}\n"
        "_hooks = []\n"
        "_memo = {}\n"
        "def kind_register(kind, run):\n"
        "    _kinds[kind] = run\n"
        "def on(kind):\n"
        "    def wrap(function):\n"
        "        _kinds.setdefault(kind, []).append(function)\n"
        "        return function\n"
        "    return wrap\n"
        "def hook(function):\n"
        "    global _hooks\n"
        "    _hooks = [*_hooks, function]\n"
        "def memo(key):\n"
        "    _memo[key] = len(key)\n"
        "def competitor_register(tournament, players):\n"
        "    rows = []\n"
        "    rows.append(players)\n"
        "    return rows\n"
    )
    module_tree = parse(source)
    state = module_state(module_tree)
    functions = [node for node in module_tree.body if isinstance(node, ast.FunctionDef)]
    assert [(f.name, keeps_its_arguments(f, state)) for f in functions] == [
        ("kind_register", True),
        ("on", True),
        ("hook", True),
        ("memo", False),
        ("competitor_register", False),
    ]


def test_no_package_fills_a_registry_that_another_package_holds() -> None:
    assert list(registries_filled_from_another_package()) == []

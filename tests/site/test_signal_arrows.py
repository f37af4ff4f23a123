"""Signals and task names go only where an import could not: up the floors, to strangers.

The import graph (test_import_graph.py) cannot see a call made through a signal or a task
queued by its name. So a signal is allowed only where its sender must not know who
listens: every receiver lives on a floor above the sender's (the sender could not import
it). A signal sent and received within one floor's reach would be a hidden call that a
plain import says better; a signal whose answers the sender reads (`for _, answer in
x.send(...)`) is a call up the floors in disguise. And a task queued by name belongs to
the package that queues it or to one below (never a call up the floors by name).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

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


def queued_names() -> Iterator[tuple[str, str, int]]:
    """Each task name a module queues by name: (module, name, line), from the constants
    handed to `enqueue`/`enqueue_on_commit`/`signature` and `send_task`."""
    for module, path in project_modules().items():
        tree = parse(path.read_text(encoding="utf-8"))
        constants = {
            target.id: node.value.value
            for node in tree.body
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
            for target in node.targets
            if isinstance(target, ast.Name) and isinstance(node.value.value, str)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            called = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if called not in {"enqueue", "enqueue_on_commit", "signature", "send_task"}:
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                yield module, first.value, node.lineno
            elif isinstance(first, ast.Name) and first.id in constants:
                yield module, constants[first.id], node.lineno
            elif isinstance(first, ast.Attribute) and first.attr in _all_constants():
                yield module, _all_constants()[first.attr], node.lineno


def _all_constants() -> dict[str, str]:
    """Module-level string constants that name a task ("app.task"), across the project."""
    found: dict[str, str] = {}
    for path in project_modules().values():
        for node in parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                value = node.value.value
                if isinstance(value, str) and value.count(".") == 1 and value.split(".")[0] in FLOORS:
                    found.update({t.id: value for t in node.targets if isinstance(t, ast.Name)})
    return found


def test_a_task_queued_by_name_belongs_to_the_queuing_package_or_one_below() -> None:
    queued = list(queued_names())
    assert queued, "the reader found no task queued by name"
    upward = [
        f"{module}:{line} queues {name}"
        for module, name, line in queued
        if FLOORS[name.split(".")[0]] > FLOORS[module.split(".")[0]]
    ]
    assert upward == []

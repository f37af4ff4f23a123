"""What a name in a project module stands for, followed across modules (for the site tests).

The import graph (test_import_graph.py) knows which module imports which; the checks of
signals, task names and registries (test_signal_arrows.py) need more: that `JOB_RUN` in
`enqueue(JOB_RUN, ...)` is the constant `scoring.enqueue.JOB_RUN` whose value is
"scoring.job_run", or that `jobs.job_retry` is the function defined in `scoring/jobs.py`.
So each name is resolved to a dotted *project name* ("module.attribute"): through the
module's imports (at the top or inside functions, relative ones too), then through the
re-exports of the module it lands in, to the module that defines it.

The reading is static and deliberately plain: a name bound by an import anywhere in a
module is taken to mean the same thing everywhere in it (the project binds no name twice
to different things), and only string constants and functions at the top of a module
count as definitions.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache

from tests.site.test_import_graph import parse, project_modules


@cache
def tree(module: str) -> ast.Module:
    return parse(project_modules()[module].read_text(encoding="utf-8"))


def _import_base(module: str, node: ast.ImportFrom) -> str:
    """The module a `from ... import` reads from, relative ones resolved against `module`."""
    if not node.level:
        return node.module or ""
    anchor = module.split(".")
    is_package = project_modules()[module].name == "__init__.py"
    drop = node.level - 1 if is_package else node.level
    anchor = anchor[: len(anchor) - drop] if drop else anchor
    return ".".join([*anchor, node.module] if node.module else anchor)


@cache
def bindings(module: str) -> dict[str, str]:
    """Each name the module binds by an import -> the dotted name it stands for."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree(module)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                # `import a.b` binds `a`; `import a.b as x` binds `x` to `a.b`.
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    bound[top] = top
        elif isinstance(node, ast.ImportFrom):
            base = _import_base(module, node)
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{base}.{alias.name}"
    return bound


@dataclass(frozen=True)
class Definitions:
    constants: dict[str, str]
    functions: dict[str, ast.FunctionDef]


@cache
def definitions(module: str) -> Definitions:
    """The string constants and the functions defined at the top of the module."""
    constants: dict[str, str] = {}
    functions: dict[str, ast.FunctionDef] = {}
    for node in tree(module).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            constants.update({target.id: node.value.value for target in node.targets if isinstance(target, ast.Name)})
        elif isinstance(node, ast.FunctionDef):
            functions[node.name] = node
    return Definitions(constants, functions)


def follow(dotted: str) -> str:
    """The project name `dotted` ends at once re-exports are followed (`tournaments.services.x`
    -> `tournaments.services.registration.x`); a name outside the project is left as it is."""
    seen: set[str] = set()
    while dotted not in seen:
        seen.add(dotted)
        if dotted in project_modules():
            return dotted
        module, _dot, name = dotted.rpartition(".")
        if module not in project_modules():
            return dotted
        defined = definitions(module)
        if name in defined.constants or name in defined.functions or name not in bindings(module):
            return dotted
        dotted = bindings(module)[name]
    return dotted


def refers_to(module: str, node: ast.expr) -> str | None:
    """The dotted name an expression (`x`, `mod.x`, `pkg.mod.x`) in `module` stands for."""
    if isinstance(node, ast.Name):
        defined = definitions(module)
        if node.id in defined.constants or node.id in defined.functions:
            return f"{module}.{node.id}"
        if node.id in bindings(module):
            return follow(bindings(module)[node.id])
        return None
    if isinstance(node, ast.Attribute):
        base = refers_to(module, node.value)
        return follow(f"{base}.{node.attr}") if base is not None else None
    return None


def constant(dotted: str | None) -> str | None:
    """The value of the string constant named `dotted`, None when it names none."""
    if dotted is None:
        return None
    module, _dot, name = dotted.rpartition(".")
    return definitions(module).constants.get(name) if module in project_modules() else None


def function(dotted: str | None) -> ast.FunctionDef | None:
    """The function named `dotted` (defined at the top of a project module), or None."""
    if dotted is None:
        return None
    module, _dot, name = dotted.rpartition(".")
    return definitions(module).functions.get(name) if module in project_modules() else None


def string_value(module: str, node: ast.expr) -> str | None:
    """The string an expression of `module` is: a literal, or a constant named here or elsewhere."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    return constant(refers_to(module, node))

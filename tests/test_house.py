"""The house rules of the code itself: layers without a circle, functions a reader can hold,
errors in one home, the command line's words in the command line, and a library that never
prints. Each is read from the package's source, so a change that breaks one fails here."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ddz_rules"
#: The longest function a reader should have to hold, in lines.
LONGEST = 150
#: An option of the command line, as text: ``--out``.
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]+")
#: The front doors, which speak the command line's words, and the rules book's generator,
#: which documents the commands.
FRONT_DOORS = ("cli.py",)
DOCUMENTS_COMMANDS = ("docs/",)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def sources() -> dict[str, tuple[Path, ast.Module]]:
    return {module_name(p): (p, ast.parse(p.read_text(encoding="utf-8")))
            for p in sorted(PACKAGE.rglob("*.py"))}


def compiled() -> set[str]:
    """The compiled modules (``_moves``, ``_kernel``, ``_split``), by their C sources."""
    return {module_name(p.with_suffix(".py")) for p in PACKAGE.rglob("*.c")}


def runtime_imports(name: str, tree: ast.Module) -> set[str]:
    """The package's modules ``name`` imports when it runs, anywhere in it (a function's
    own import included; an import only for type checking left out)."""
    known = set(sources()) | compiled()
    package = name if sources()[name][0].name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                found.update(a.name for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")[:len(package.split(".")) - child.level + 1]
                    base = ".".join(up + ([base] if base else []))
                for alias in child.names:
                    full = f"{base}.{alias.name}"
                    found.add(full if full in known else base)
            visit(child)

    visit(tree)
    return {m for m in found if m in sources() and m != name}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return found


def test_the_package_imports_without_a_circle() -> None:
    graph = {name: runtime_imports(name, tree) for name, (_, tree) in sources().items()}
    assert cycles(graph) == []
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_bot_imports_the_fitting_of_the_outlooks_but_the_level_that_fits_with_its_play(
        ) -> None:
    importers = {name for name, (_, tree) in sources().items()
                 if "ddz_rules.bots.fitting" in runtime_imports(name, tree)}
    assert importers == {"ddz_rules.bots.medium"}


def functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def test_no_function_is_longer_than_a_reader_can_hold() -> None:
    long = [f"{path.name}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for path, tree in sources().values() for node in functions(tree)
            if node.end_lineno is not None and node.end_lineno - node.lineno + 1 > LONGEST]
    assert long == []


def test_every_error_class_lives_in_errors_py() -> None:
    elsewhere = []
    for name, (path, tree) in sources().items():
        if name == "ddz_rules.errors":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(
                    re.search(r"(Error|Exception|Fault|Failed)$", ast.unparse(base))
                    for base in node.bases):
                elsewhere.append(f"{path.name}: {node.name}")
    assert elsewhere == []


def option_lines(path: Path, tree: ast.Module) -> list[int]:
    """The lines of ``path`` whose string literals, docstrings aside, name an option."""
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                       ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return sorted({node.lineno for node in ast.walk(tree)
                   if isinstance(node, ast.Constant) and isinstance(node.value, str)
                   and id(node) not in docstrings and OPTION.search(node.value)})


def test_only_the_command_line_names_its_options() -> None:
    """The library names an argument as a call names it (:class:`ddz_rules.errors.Named`);
    the command line puts it in its own words (``--out``)."""
    found = []
    for path, tree in sources().values():
        relative = path.relative_to(PACKAGE).as_posix()
        if relative in FRONT_DOORS or relative.startswith(DOCUMENTS_COMMANDS):
            continue
        found += [f"{relative}:{line}" for line in option_lines(path, tree)]
    assert found == []


#: Where the library may print: a PettingZoo environment rendering in ``human`` mode, and
#: the picture-drawing tool run as ``python -m ddz_rules.play.app``.
MAY_PRINT = {("env/aec.py", "render"), ("play/app.py", "main")}


def test_nothing_in_the_library_prints() -> None:
    found = []
    for path, tree in sources().values():
        relative = path.relative_to(PACKAGE).as_posix()
        if relative in FRONT_DOORS:
            continue
        for function in functions(tree):
            for node in ast.walk(function):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id == "print"
                        and (relative, function.name) not in MAY_PRINT):
                    found.append(f"{relative}:{node.lineno} in {function.name}")
    assert found == []


@pytest.mark.parametrize("text", ["--out FILE", "pass --resume to", "(--records)"])
def test_an_option_in_a_message_is_found(text: str) -> None:
    tree = ast.parse(f"def f():\n    raise ValueError({text!r})\n")
    assert option_lines(Path("x.py"), tree) == [2]

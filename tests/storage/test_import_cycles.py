"""The storage packages import each other's modules in one direction only: a cycle (forget and
the repository importing each other, as when the parts were mixins) makes what a module sees
at import time depend on which one was imported first."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def imports(package: str) -> dict[str, set[str]]:
    """Each module of the package and the package's modules it imports anywhere in its text
    (TYPE_CHECKING blocks and functions too)."""
    folder = ROOT.joinpath(*package.split("."))
    modules = {
        package if path.stem == "__init__" else f"{package}.{path.stem}": path
        for path in folder.glob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
                found |= {f"{node.module}.{alias.name}" for alias in node.names}
        graph[name] = {module for module in found if module in modules and module != name}
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph, as the modules along it, or None."""
    done: set[str] = set()

    def walk(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        for imported in sorted(graph[module]):
            if (found := walk(imported, [*path, module])) is not None:
                return found
        done.add(module)
        return None

    for module in sorted(graph):
        if (found := walk(module, [])) is not None:
            return found
    return None


@pytest.mark.parametrize("package", ["adapters.sqlite", "adapters.postgres"])
def test_no_module_of_the_storage_imports_one_that_imports_it_back(package: str) -> None:
    graph = imports(package)
    assert len(graph) > 5  # the package's modules were found
    assert cycle(graph) is None


def test_a_cycle_is_found() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None

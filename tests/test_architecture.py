"""The layering the README promises, checked on the source: pure engines, SQL only in
storage/, no import cycle between modules, and a repository that stands alone."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "games", "storage")
_SQL = re.compile(r"\b(SELECT|INSERT INTO|DELETE FROM)\b|UPDATE [a-z_]+ SET")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _imports(path: Path) -> set[str]:
    """Modules ``path`` imports, at the top or inside functions (a deferred import is a cycle
    all the same), but not those only read by the type checker."""
    imported: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imported.add(node.module)
            imported.update(f"{node.module}.{alias.name}" for alias in node.names)
    return imported


def _runtime_nodes(tree: ast.AST):
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        yield node
        yield from _runtime_nodes(node)


def test_no_import_cycle() -> None:
    modules = _modules()
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        for target in _imports(path):
            if target in modules and target != name:
                graph.add_edge(name, target)
    assert list(nx.simple_cycles(graph)) == []


def test_engines_are_pure() -> None:
    for name, path in _modules().items():
        if name.startswith("games"):
            outside = {m for m in _imports(path)
                       if m.split(".")[0] in ("bot", "storage", "aiogram", "aiosqlite")}
            assert not outside, f"{name} imports {outside}"


def test_sql_only_in_storage() -> None:
    for name, path in _modules().items():
        if not name.startswith("storage"):
            assert not _SQL.search(path.read_text(encoding="utf-8")), name


def test_the_repository_stands_alone() -> None:
    for path in _modules().values():
        assert "../shared" not in path.read_text(encoding="utf-8"), path

"""The packages' modules import each other without a cycle, counting every import: at the top,
inside a function (a late import) and under ``TYPE_CHECKING``; a cycle hidden by either is still
one concept leaning on another that leans back. And ``web`` reaches the database only through the
hall's declared services, never by importing ``store``."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "src" / "dominohall"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The package's modules that ``path`` imports, wherever in the file the import stands."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}  # a module imported by name
    return {m for m in found if m in modules and m != name}


def graph() -> dict[str, set[str]]:
    paths = [p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts]
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports_of(p, modules) for p in paths}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (packages' ``__init__`` left
    out: a package that re-exports its modules is not a concept of its own)."""
    edges = {
        m: {t for t in ts if not _is_package(t)} for m, ts in edges.items() if not _is_package(m)
    }
    found, seen = [], set()
    for start in sorted(edges):
        if start in seen:
            continue
        path = _cycle_from(start, edges)
        if path:
            found.append(path)
            seen |= set(path)
    return found


def _is_package(name: str) -> bool:
    return (PACKAGE.parent / name.replace(".", "/") / "__init__.py").exists()


def _cycle_from(start: str, edges: dict[str, set[str]]) -> list[str] | None:
    stack, trail = [(start, iter(sorted(edges.get(start, ()))))], [start]
    visited = {start}
    while stack:
        node, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            trail.pop()
            continue
        if child == start:
            return [*trail, start]
        if child not in visited:
            visited.add(child)
            stack.append((child, iter(sorted(edges.get(child, ())))))
            trail.append(child)
    return None


# Left, and the only one: a hand makes its seats' views and a view makes a hand of a guessed deal
# for the bots (both compiled modules of the engine; undoing it means moving legal_moves_of and
# HandResult out of hand.py).
KNOWN = [["dominohall.rules.hand", "dominohall.rules.view", "dominohall.rules.hand"]]


def test_no_module_imports_one_that_imports_it_back():
    assert cycles(graph()) == KNOWN


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]


def imports_across(edges: dict[str, set[str]], outer: str, inner: str) -> dict[str, list[str]]:
    """The modules of package ``outer`` that import any module of package ``inner``, with them."""
    found = {m: sorted(t for t in ts if _within(t, inner)) for m, ts in edges.items()}
    return {m: ts for m, ts in sorted(found.items()) if ts and _within(m, outer)}


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_the_web_does_not_import_the_store():
    # The web asks the hall, and about people the accounts service (hall/accounts.py), which
    # re-exports the value types it answers with.
    assert imports_across(graph(), "dominohall.web", "dominohall.store") == {}


def test_imports_across_finds_an_outer_module_importing_an_inner_one():
    edges = {"a.x": {"b", "a.y"}, "a.y": {"c.b"}, "ab.z": {"b.w"}, "b.w": set()}
    assert imports_across(edges, "a", "b") == {"a.x": ["b"]}


# What a table is to the game tier, that the web never reads: the table's own modules, the names
# of its values, and the hall's tables in memory (``Hall.rooms``). The web is answered with what
# the hall makes of a table (``Hall.summary``, the lobby board's ``listed``, a socket's messages).
TABLE_MODULES = ("dominohall.hall.table", "dominohall.hall.rooms")
TABLE_NAMES = frozenset({"TableState", "Room", "Phase"})


def table_reads(source: str, imported: set[str]) -> list[str]:
    """What a module reads of a table: the table's modules among those it imports
    (``imported``), the names of the table's values it imports or reaches for by attribute,
    and ``rooms`` read off a hall (``hall.rooms``, ``request.app.state.hall.rooms``)."""
    found = {m for m in imported if any(_within(m, t) for t in TABLE_MODULES)}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            found |= {alias.name for alias in node.names if alias.name in TABLE_NAMES}
        elif isinstance(node, ast.Attribute):
            if node.attr in TABLE_NAMES:
                found.add(node.attr)
            elif node.attr == "rooms" and ast.unparse(node.value).split(".")[-1] == "hall":
                found.add("hall.rooms")
    return sorted(found)


def test_the_web_reads_nothing_of_a_table():
    edges = graph()
    found = {}
    for path in sorted((PACKAGE / "web").rglob("*.py")):
        reads = table_reads(path.read_text(), edges[module_name(path)])
        if reads:
            found[module_name(path)] = reads
    assert found == {}


def test_table_reads_finds_the_tables_modules_names_and_rooms():
    source = """
from ..hall import Hall, HallError, Phase
from ..hall.table_feed import TableChange
import dominohall.hall as hall_package

def count(hall: Hall) -> int:
    return len(list(hall.rooms)) + len(hall_package.TableState.__name__)

def rooms_of(chat) -> object:
    return chat.rooms  # not a hall's
"""
    imported = {"dominohall.hall", "dominohall.hall.table_feed", "dominohall.hall.table.state"}
    assert table_reads(source, imported) == [
        "Phase",
        "TableState",
        "dominohall.hall.table.state",
        "hall.rooms",
    ]

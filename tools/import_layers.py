#!/usr/bin/env python3
"""Print agentunit's import layers, drawn from the code, and fail on an import circle or a long file.

Every ``import agentunit…`` in a file counts (at the top or inside a function: both tie the files
together), except inside ``if TYPE_CHECKING:``. A file's layer is 0 when it imports no other file
of the package, else one more than the highest layer it imports; files in a circle have no layer and
are listed as circles instead. ``python tools/import_layers.py`` prints the layers (each a line of
``package{module, …}`` groups) and exits 1 when there is a circle between files or a source file
longer than ``MAX_LINES``; ``--check`` prints only the problems. ``tests/test_architecture.py`` runs it.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

MAX_LINES = 700
ROOT = Path(__file__).resolve().parent.parent / "src"


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the package: dotted name → file (a package is named by its ``__init__``)."""
    found = {}
    for path in sorted((root / "agentunit").rglob("*.py")):
        name = ".".join(path.relative_to(root).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` (at ``path``) imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and _type_checking(node.test)
               for n in ast.walk(node)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            names = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for imported in names:
            target = _owner(imported, known)
            if target is not None and target != name:
                found.add(target)
    return found


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _owner(imported: str, known: dict[str, Path]) -> str | None:
    """The module an imported name lives in (``a.b.c`` → ``a.b`` when ``c`` is a name in it)."""
    while imported and imported not in known:
        imported = imported.rpartition(".")[0]
    return imported or None


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def layers(graph: dict[str, set[str]], tangled: set[str]) -> dict[str, int]:
    """Each module's layer (see the module docstring); modules in or above a circle are left out."""
    level: dict[str, int] = {}

    def depth(node: str, seen: frozenset[str]) -> int | None:
        if node in level:
            return level[node]
        if node in tangled or node in seen:
            return None
        below = [depth(n, seen | {node}) for n in graph[node]]
        if any(b is None for b in below):
            return None
        level[node] = 1 + max(below, default=-1)
        return level[node]

    sys.setrecursionlimit(10_000)
    for node in graph:
        depth(node, frozenset())
    return level


def long_files(known: dict[str, Path]) -> list[tuple[Path, int]]:
    """Source files over MAX_LINES lines."""
    counted = ((path, path.read_text(encoding="utf-8").count("\n")) for path in known.values())
    return [(path, n) for path, n in counted if n > MAX_LINES]


def picture(level: dict[str, int]) -> list[str]:
    """One line per layer, modules grouped by their package: ``3: core{engine, runner} suite{model}``."""
    lines = []
    for number in sorted(set(level.values())):
        groups: dict[str, list[str]] = defaultdict(list)
        for name in sorted(n for n, lv in level.items() if lv == number):
            package, _, leaf = name.removeprefix("agentunit").lstrip(".").rpartition(".")
            groups[package or "agentunit"].append(leaf or "(package)")
        lines.append(f"{number:2}: " + "  ".join(f"{p}{{{', '.join(m)}}}" for p, m in sorted(groups.items())))
    return lines


def main(argv: list[str]) -> int:
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    found = circles(graph)
    long = long_files(known)
    if "--check" not in argv:
        print("\n".join(picture(layers(graph, {m for c in found for m in c}))))
    for component in found:
        print(f"circle of {len(component)}: {', '.join(component)}")
    for path, n in long:
        print(f"long file: {path.relative_to(ROOT.parent)} ({n} lines, limit {MAX_LINES})")
    print(f"{len(known)} modules, {len(found)} circles, {len(long)} files over {MAX_LINES} lines")
    return 1 if found or long else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The package's layout: data flows one way, so no two modules import each other, at import time
or at run time.

The graph is of every import between hogbench's own modules, those inside functions too (how
the CLI stays quick to start: such an import still ties the two modules together when it runs).
Imports under ``if TYPE_CHECKING:`` never run and are left out. ``from hogbench.exact import
turns`` is an edge to the module ``exact.turns``; a name that is not a module is an edge to the
module it comes from. The door for submitted code is ``loading`` -> (``verdicts`` | ``sandbox``)
-> ``tables``: the sandbox knows nothing of loading.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "hogbench"


def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name below hogbench (a package by its own)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _never_run(tree: ast.AST) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:`` (read by type checkers, never run)."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(inner) for statement in node.body for inner in ast.walk(statement)}
    return skipped


def imports(source: str, known: set[str]) -> set[str]:
    """The modules of KNOWN that SOURCE imports, anywhere it runs (``hogbench.x`` -> ``x``)."""
    tree = ast.parse(source)
    skipped = _never_run(tree)
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module != "hogbench" and not node.module.startswith("hogbench."):
                continue
            base = node.module.removeprefix("hogbench").removeprefix(".")
            for alias in node.names:
                name = f"{base}.{alias.name}" if base else alias.name
                found.add(name if name in known else base)
        elif isinstance(node, ast.Import):
            found |= {
                a.name.removeprefix("hogbench.") for a in node.names
                if a.name.startswith("hogbench.")
            }  # fmt: skip
    return found & known


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(path.read_text(), set(found)) for name, path in found.items()}


def test_imports_inside_functions_count():
    """The graph sees an import that runs only when a function is called, and not one that
    only a type checker reads."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from hogbench.cli import app\n"
        "def f():\n    from hogbench.exact import turns\n    from hogbench import stats\n"
        "    import hogbench.pairs\n    from hogbench.exact.core import Policy\n"
    )
    known = {"cli", "exact", "exact.turns", "exact.core", "stats", "pairs"}
    assert imports(source, known) == {"exact.turns", "stats", "pairs", "exact.core"}


def test_no_module_imports_one_that_imports_it_back():
    edges = graph()
    cycles = []

    def visit(name: str, trail: list[str]) -> None:
        for nxt in sorted(edges.get(name, ())):
            if nxt in trail:
                cycles.append(" -> ".join([*trail[trail.index(nxt) :], nxt]))
            elif len(trail) < 20:
                visit(nxt, [*trail, nxt])

    for start in edges:
        visit(start, [start])
    assert not cycles, sorted(set(cycles))[:5]


def test_the_sandbox_is_below_the_door():
    edges = graph()
    assert {"sandbox", "verdicts"} <= edges["loading"]
    above = {"loading", "verdicts", "check", "tournament", "cli"}
    inside = [name for name in edges if name == "sandbox" or name.startswith("sandbox.")]
    assert len(inside) > 5  # the package and its modules
    for name in inside:
        assert not above & edges[name], name


def test_compiled_code_leaves_module_names_alone():
    """jit registers its wrapper with numba's typing instead of rewriting module namespaces:
    after the engines have compiled a rule set, its module still names its own functions."""
    from hogbench import exact, jit
    from hogbench.loading import load_entrant
    from hogbench.rules import get_rules, pig

    rules = get_rules("pig", 20)
    a, b = (load_entrant(spec, rules).table.choices for spec in ("hold_at:10", "hold_at:15"))
    assert 0 < exact.evaluate(rules, a, b).first < 1
    assert isinstance(pig.roll_points, jit.Compiled)
    assert pig.roll_points(5, False) == pig.roll_points.func(5, False) == 5


def test_the_cli_parses_calls_and_renders_through_views():
    """cli.py builds no tables and no JSON documents of its own: results own their JSON
    (to_dict) and views.py draws them."""
    source = (Path(__file__).resolve().parent.parent / "hogbench" / "cli.py").read_text()
    assert "Table(" not in source
    assert "_print_json(\n            {" not in source and "_print_json([" not in source


def test_numba_loads_only_when_a_kernel_is_needed():
    """The modules a duel or a tournament starts with import no engine: numba's start-up
    costs most of a second, which a warm duel on cached rows never needs."""
    import subprocess
    import sys

    probe = (
        "import sys, hogbench.cli, hogbench.tournament, hogbench.duel, hogbench.pairs,"
        " hogbench.simulate, hogbench.exact.kept, hogbench.exact.plan, hogbench.rules.hog_su21;"
        " print(sorted(m for m in ('numba', 'hogbench.exact.core') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr

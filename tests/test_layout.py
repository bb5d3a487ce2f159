"""The package's layout: data flows one way, so no two modules import each other.

The graph is of module-level imports between hogbench's own modules (imports inside functions
are how the CLI stays quick to start, and are left out). The door for submitted code is
``loading`` -> (``verdicts`` | ``sandbox``) -> ``tables``: the sandbox knows nothing of loading.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "hogbench"


def imports(path: Path) -> set[str]:
    """The hogbench modules a file imports at module level (``hogbench.x`` -> ``x``)."""
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("hogbench"):
            if node.module == "hogbench":
                found |= {alias.name for alias in node.names}
            else:
                found.add(node.module.removeprefix("hogbench."))
        elif isinstance(node, ast.Import):
            found |= {a.name.removeprefix("hogbench.") for a in node.names if "hogbench." in a.name}
    return found


def graph() -> dict[str, set[str]]:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    return {name: imports(path) & set(modules) for name, path in modules.items()}


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
    assert not {"loading", "verdicts", "check", "tournament", "cli"} & edges["sandbox"]


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
        " hogbench.simulate, hogbench.exact_rows, hogbench.rules.hog_su21;"
        " print(sorted(m for m in ('numba', 'hogbench.exact') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr

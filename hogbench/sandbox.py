"""Placeholder: loads a strategy file in-process. Replaced by the sandboxed worker (issue D)."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import uuid
from typing import Any

from hogbench.errors import StrategyError
from hogbench.rules.base import RuleSet
from hogbench.tables import NotDeterministic, tabulate


def load_file_entrant(spec, rules: RuleSet, **options: Any):
    from hogbench.loading import Entrant, find_strategy

    path = spec.path.resolve()
    where = str(spec.path)
    source = path.read_bytes()
    source_hash = hashlib.sha256(source).hexdigest()[:16]
    name = f"hogbench_submission_{uuid.uuid4().hex}"
    sys.path.insert(0, str(path.parent))
    try:
        module_spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(module_spec)
        try:
            module_spec.loader.exec_module(module)
        except SyntaxError as exc:
            raise StrategyError(where, f"syntax error at line {exc.lineno}: {exc.msg}") from None
        except Exception as exc:
            raise StrategyError(where, f"import failed: {type(exc).__name__}: {exc}") from None
    finally:
        sys.path.remove(str(path.parent))
    function, strategy = find_strategy(vars(module), rules, spec.function, where, name)
    display = str(getattr(module, "TEAM_NAME", "") or spec.text)
    where = f"{where}:{function}"
    try:
        table = tabulate(strategy, rules, where)
    except NotDeterministic as exc:
        return Entrant(spec, display, None, source_hash, live_reason=str(exc), function=function)
    return Entrant(spec, display, table, source_hash, function=function)

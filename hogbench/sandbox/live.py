"""Live play: a strategy file that cannot be a table, asked one decision at a time, or the
decisions of many games at once (``ask`` / ``answers``, as the lockstep engine does)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from hogbench.entrants import Spec, parse_spec
from hogbench.errors import StrategyError, UsageError
from hogbench.rules.base import RuleSet
from hogbench.sandbox.request import Request
from hogbench.sandbox.session import Session, make_job, plain


class LiveStrategy:
    """A strategy file played live by a persistent sandboxed worker: ``live(*args) -> int``.

    For strategies that cannot be tables (random, or keeping history). Each decision is sent to
    the worker and its answer validated here with ``rules.choice``; a decision has
    ``decision_time_limit`` seconds. Use it as a context manager (or call ``close``), from the
    thread that opened it: the sandboxed worker dies with that thread. It pickles as its spec,
    rules and request: an unpickled copy (in a joblib worker) opens its own worker on first use.
    """

    def __init__(
        self,
        spec: Spec | str,
        rules: RuleSet,
        request: Request | None = None,
        seed: int = 0,
        meter: Any = None,
        **options: Any,
    ) -> None:
        self.spec = parse_spec(spec) if isinstance(spec, str) else spec
        if not self.spec.is_file:
            raise UsageError(f"{self.spec.text}: only strategy files are played by a worker")
        self.rules = rules
        self.request = Request.for_rules(rules, request, **options)
        # Seeds the worker's ``random`` before the import: each block and seat of a match
        # gives its own, so a random strategy draws afresh in every block and two copies of
        # one strategy do not draw the same numbers.
        self.seed = seed
        #: where its workers' own time answering is added up (``players.Meter``), if anywhere:
        #: a pair with a time budget charges each live player for its own time, and no other's
        self.meter = meter
        self._counted = 0.0  # of the open worker's answering time, what the meter has
        self.function: str | None = None
        self.team: str | None = None
        self._session: Session | None = None
        self._error: StrategyError | None = None
        self._open()

    def _open(self) -> None:
        job = make_job(self.spec, self.rules, "live", self.request)
        job["seed"] = self.seed
        # What the worker needs to call the strategy at an observation index (as a table job).
        job.update(shape=list(self.rules.obs_shape), states=None)
        if type(self.rules).observations is not RuleSet.observations:
            job["states"] = [plain(state) for state in self.rules.observations()]
        session = Session(self.spec, self.request, job, 0, self.rules)
        try:
            self.function, self.team = session.start()
        except BaseException:
            session.close()
            raise
        self._session = session
        self._counted = 0.0

    def __call__(self, *args: Any) -> int:
        if self._error is not None:
            raise self._error
        if self._session is None:
            self._open()
        try:
            return self._session.decide(plain(args), self.rules)
        except StrategyError as exc:
            self._error = exc  # it does not get to play on after failing
            self.close()
            raise
        finally:
            self._tally()

    def ask(self, observations: np.ndarray) -> None:
        """Ask for the decisions at many observations (flat decision-table indices) at once:
        the worker starts on them while the caller goes on; ``answers`` collects them."""
        self._batch(lambda session: session.send_batch(observations))

    def answers(self) -> np.ndarray:
        """The choices asked for by ``ask``, validated with ``rules.choice``, in order."""
        return self._batch(lambda session: session.receive_batch(self.rules))

    def _batch(self, step: Callable[[Session], Any]) -> Any:
        if self._error is not None:
            raise self._error
        if self._session is None:
            self._open()
        try:
            return step(self._session)
        except StrategyError as exc:
            self._error = exc  # it does not get to play on after failing
            self.close()
            raise
        finally:
            self._tally()

    def _tally(self) -> None:
        """Add to the meter the time its worker has spent answering since the last tally."""
        if self._session is not None and self.meter is not None:
            answering = self._session.worker.answering
            self.meter.seconds += answering - self._counted
            self._counted = answering

    def close(self) -> None:
        if self._session is not None:
            self._tally()
            self._session.close()
            self._session = None

    def __enter__(self) -> LiveStrategy:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # at interpreter exit, modules may be half gone
            pass

    def __getstate__(self) -> dict[str, Any]:
        rules = (self.rules.name, self.rules.goal, dict(self.rules.options))
        return {
            "spec": self.spec,
            "rules": rules,
            "request": self.request,
            "seed": self.seed,
            "meter": self.meter,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        from hogbench.rules import get_rules

        name, goal, rule_options = state["rules"]
        self.spec = state["spec"]
        self.seed = state["seed"]
        self.rules = get_rules(name, goal, **rule_options)
        self.request = state["request"]
        self.meter = state.get("meter")
        self._counted = 0.0
        self.function = self.team = None
        self._session = None
        self._error = None

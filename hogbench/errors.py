"""Errors a user sees as one clear line. Anything else is a bug and shows a traceback."""

from __future__ import annotations


class HogbenchError(Exception):
    """A failure to report to the user as one line; exit code 1 (a failed run)."""

    exit_code = 1


class UsageError(HogbenchError):
    """The command was asked for something that cannot be done; exit code 2."""

    exit_code = 2


class IllegalChoice(ValueError):
    """A strategy returned something that is not a legal move (raised by RuleSet.choice)."""


class StrategyError(HogbenchError):
    """A strategy failed: it did not load, raised, hung, or answered illegally.

    ``where`` names the file and strategy; ``state`` the arguments it was called with, if any.
    ``entrant`` is the identity (entrant key) of the player that failed, where the engines know
    it: a failure belongs to an entrant by identity, never by matching text such as ``where``.
    """

    def __init__(
        self,
        where: str,
        problem: str,
        state: tuple | None = None,
        detail: str = "",
        entrant: str | None = None,
        also: tuple[str, ...] = (),
    ):
        self.where = where
        self.problem = problem
        self.state = state
        self.detail = detail
        self.entrant = entrant
        self.also = also  # others charged with the same failure, each for its own part
        at = f" at {state}" if state is not None else ""
        super().__init__(f"{where}{at}: {problem}")

    def __reduce__(self):  # a failure in a pool's worker crosses back to the parent whole
        return (
            type(self),
            (self.where, self.problem, self.state, self.detail, self.entrant, self.also),
        )

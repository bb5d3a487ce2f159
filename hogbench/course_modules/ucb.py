"""hogbench's stand-in for the course's ucb module, for submissions that import it.

Skeletons do ``from ucb import main, trace, interact, log_current_line`` (older terms also
``log``) at module level and decorate a ``run`` function with ``@main``. Here every name is
harmless: ``main`` never runs what it decorates (the file is imported, not run as a script),
``trace`` returns the function unchanged, and nothing prints or waits for input.
"""


def main(fn):
    """Return FN unchanged: a submission is imported, never run as a program."""
    return fn


def trace(fn):
    """Return FN unchanged (the course's version prints each call)."""
    return fn


def log(message):
    """Do nothing (the course's version prints MESSAGE)."""


def log_current_line():
    """Do nothing (the course's version prints the current line)."""


def interact(msg=None):
    """Do nothing (the course's version opens an interactive console)."""

"""The console script ``hogbench`` and ``python -m hogbench``.

The command line takes a moment to import (Typer, Rich, the rule sets). Ctrl-C in that moment
ends the command as Ctrl-C does later: exit code 130 and no traceback.
"""

from __future__ import annotations

import sys


def main() -> None:
    """The console script's entry point: hogbench.cli's, imported here."""
    try:
        from hogbench.cli import main as run
    except KeyboardInterrupt:
        sys.exit(130)
    run()


if __name__ == "__main__":
    main()

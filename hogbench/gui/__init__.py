"""``hogbench gui``: play, watch and explore any rule set in the browser, on this machine.

The app (``app``) is Starlette with Jinja2 templates, served by uvicorn on 127.0.0.1 at a port
the system picks, behind a random access token. They are an extra
(``pip install 'hogbench[gui]'``); without them ``require`` says how to install them.
"""

from __future__ import annotations

import importlib.util
import secrets
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING

from hogbench.errors import UsageError

if TYPE_CHECKING:
    from hogbench.gui.figures import Library

GUI_EXTRA = "pip install 'hogbench[gui]'"
HOST = "127.0.0.1"


def require() -> None:
    """UsageError, saying what to install, when the web app's packages are missing."""
    missing = [m for m in ("starlette", "uvicorn", "jinja2") if importlib.util.find_spec(m) is None]
    if missing:
        raise UsageError(f"hogbench gui needs {', '.join(missing)}: install them with {GUI_EXTRA}")


def new_token() -> str:
    return secrets.token_urlsafe(24)


def serve(
    library: Library,
    token: str,
    on_ready: Callable[[str], None],
    port: int = 0,
) -> None:
    """Serve LIBRARY's app on 127.0.0.1 until interrupted; ON_READY gets the address with the
    token once the port is open. PORT 0: a free port the system picks."""
    require()
    import uvicorn

    from hogbench.gui.app import create_app

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        raise UsageError(f"cannot serve on {HOST}:{port}: {exc.strerror}") from None
    sock.listen(128)  # before the address is printed: a browser may connect at once
    bound = sock.getsockname()[1]
    app = create_app(library, token, bound)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    on_ready(f"http://{HOST}:{bound}/?token={token}")
    server.run(sockets=[sock])

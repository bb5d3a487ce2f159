"""Names from outside (file names, folder names, TEAM_NAMEs) made safe for each output.

A submissions folder can hold a name of any bytes: not UTF-8 (``caf\\xe9.py``), with control
characters (an escape sequence, a carriage return, a newline), or text a spreadsheet runs as a
formula. Each output gets the name in a form it cannot misread:

* ``shown``: a path or name as text: bytes that are not UTF-8 and control characters written as
  ``\\xNN`` escapes, so the text encodes everywhere and rewrites no terminal, and two different
  names stay two different texts;
* ``csv_cell``: a CSV cell no spreadsheet runs (OWASP's advice on CSV injection), with line
  breaks and escapes removed;
* ``unparsed``: a figure whose texts matplotlib draws as they are, never as math (``$...$``).

JSON keeps the full name (``json`` escapes what it must); HTML goes through ``html.escape``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

#: A CSV cell starting with one of these is read by spreadsheets as a formula (OWASP, "CSV
#: Injection"): such a cell gets a leading single quote, unless it is a plain number. The
#: fullwidth forms count too: some spreadsheets read ＝ as =.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n", "＝", "＋", "－", "＠")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
#: Characters no output should carry as they are: C0 and C1 controls and DEL.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _escape_char(c: str) -> str:
    code = ord(c)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (os's surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"  # a lone surrogate from elsewhere


def shown(text: Any) -> str:
    """TEXT with every byte that was not UTF-8 and every control character written as an
    escape (``caf\\xe9.py``, ``a\\x1b[31m.py``): printable, encodable, and one text per name."""
    return re.sub(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]", lambda m: _escape_char(m[0]), str(text))


def name_problem(name: str) -> str | None:
    """Why a folder entry's NAME cannot name an entrant, or None: a name that is not UTF-8
    text, or holds control characters, cannot be shown as it is anywhere."""
    if any(0xD800 <= ord(c) <= 0xDFFF for c in name):
        return "has a name that is not UTF-8 text; rename it"
    if _CONTROL.search(name):
        return "has a name with control characters; rename it"
    return None


def csv_cell(value: Any) -> Any:
    """VALUE as a CSV cell that no spreadsheet runs: OWASP's advice for CSV injection.

    "Prepend each cell field with a single quote" when it begins with "=", "+", "-", "@", tab or
    carriage return, or their fullwidth forms (a team name such as ``=HYPERLINK(...)`` would
    otherwise be a live formula). Control characters (ESC, CR, LF ...) are written as escapes,
    so a cell is one line and rewrites no terminal that shows the file. Numbers, and text that
    is only a number such as "-0.5", stay numbers.
    """
    if not isinstance(value, str):
        return value
    if _NUMBER.fullmatch(value):
        return value
    start = unicodedata.normalize("NFKC", value[:1]) if value else ""
    text = shown(value)
    if value.startswith(FORMULA_START) or start.startswith(FORMULA_START):
        return "'" + text
    return text


def unparsed(figure: Any) -> Any:
    """FIGURE (matplotlib) with every text drawn as it is: never parsed as math (a TEAM_NAME
    ``$\\pwned{x}$`` made the PNG writer raise) nor handed to TeX. Call it before saving."""
    for text in figure.findobj(lambda artist: hasattr(artist, "set_parse_math")):
        text.set_parse_math(False)
        text.set_usetex(False)
    return figure


def without_host_paths(text: str, private: tuple[str, ...] = ()) -> str:
    """TEXT with the host's own paths replaced by short names: a message about a submission
    (an ImportError quoting ``/root/.pyenv/.../json/__init__.py``, a traceback) tells nobody
    where this machine keeps Python, hogbench or its temporary folders, or whose home it is.

    PRIVATE are folders the message may name that mean nothing to the reader (a submission's
    private copy): their paths are shown relative to them."""
    for folder in sorted(private, key=len, reverse=True):
        if folder:
            text = text.replace(folder.rstrip("/") + "/", "").replace(folder, ".")
    pattern = _host_pattern()
    if pattern is not None:
        labels = _host_labels()
        text = pattern.sub(lambda m: labels.get(m[1], m[1]), text)
    # The folder of links to the modules a worker may import stands for where they are.
    return re.sub(r"<tmp>/hogbench-imports-\d+-\w+", "<site-packages>", text)


def _host_labels() -> dict[str, str]:
    import os
    import sys
    import sysconfig
    import tempfile
    from pathlib import Path

    found = _host_cache.get("labels")
    if found is not None:
        return found
    labels: dict[str, str] = {}

    def add(path: str | None, label: str) -> None:
        if path and len(path) > 1 and path not in labels:
            labels[os.path.normpath(path)] = label

    paths = sysconfig.get_paths()
    for key in ("purelib", "platlib"):
        add(paths.get(key), "<site-packages>")
    for key in ("stdlib", "platstdlib"):
        add(paths.get(key), "<python>")
    add(str(Path(__file__).resolve().parent), "<hogbench>")
    add(str(Path(__file__).parent), "<hogbench>")
    for prefix in (sys.prefix, sys.base_prefix, sys.exec_prefix):
        add(prefix, "<python>")
    add(os.path.dirname(sys.executable), "<python>")
    add(tempfile.gettempdir(), "<tmp>")
    add(os.path.expanduser("~"), "~")
    _host_cache["labels"] = labels  # kept only once whole
    return labels


_host_cache: dict[str, Any] = {}


def _host_pattern() -> re.Pattern[str] | None:
    """The host's paths as one pattern; None where none is known (an empty pattern would match
    everywhere)."""
    if "pattern" not in _host_cache:
        prefixes = sorted(filter(None, _host_labels()), key=len, reverse=True)
        if not prefixes:
            _host_cache["pattern"] = None
            return None
        # A prefix counts only as a whole path part: /usr/lib must not eat /usr/library.
        pattern = re.compile("(" + "|".join(map(re.escape, prefixes)) + r")(?=/|\b|$)")
        _host_cache["pattern"] = pattern
    return _host_cache["pattern"]


def login_anchor(login: str) -> str:
    """The link target of a student's login on the leaderboard page: ``e-`` and the login as
    it is (logins are letters, digits, dots, dashes and underscores), so ``#e-LOGIN`` finds
    their row."""
    return "e-" + re.sub(r"[^\w.-]+", "-", login.lower())

"""Submitted strategy files run only here: in a sandboxed worker process that sends back data.

The parent never imports a submission. ``worker.py`` runs in its own interpreter (standard
library only), imports the file with the file's folder importable, calls the strategy at every
state twice (the second pass in reverse order) and sends back only data: the raw answers,
encoded so that ints, bools, floats, strings and None stay distinct, or what went wrong. This
process validates all of it and the caller builds the table with ``tables.table_from_answers``,
so illegal values and non-determinism are judged by trusted code.

One job per module:

* ``request``: the one frozen ``Request`` (time and memory limits, imports, sandbox or not),
  built once by the caller and passed down;
* ``bwrap``: namespaces and mounts (bubblewrap), and when to run without it;
* ``seccomp``: the system-call filter the worker installs on itself (standard library only);
* ``limits``: clocks and budgets, read from the kernel;
* ``protocol``: bounded reading and decoding of the worker's replies;
* ``imports``: what a submission may import;
* ``process``: one worker process, its pipes and its output;
* ``session``: one job in one worker, and how to explain its failures;
* ``collect`` (a file's answers at every state), ``live`` (decisions one at a time, or a
  round of many games' at once) and
  ``probe`` (a file's course functions called on given arguments);
* ``worker``: the script that runs in the sandbox.

Always, before it imports anything submitted, the worker limits its address space, CPU time,
file size (0: no file can grow), processes and open files, and on Linux installs a seccomp
filter that refuses new processes and sockets (root ignores the process limit). Here, a wall
clock kills the worker's whole process group when time runs out, and threads drain its stdout
and stderr, keeping the first and last few KB.
"""

from hogbench.sandbox.bwrap import (
    INSIDE,
    SANDBOX_ENV,
    UNSANDBOXED,
    WORKER,
    bwrap_path,
    refuse_without_sandbox,
    turned_off,
)
from hogbench.sandbox.collect import ACROSS_IMPORTS, Answers, collect_answers
from hogbench.sandbox.imports import COURSE_MODULES, IMPORT_POLICY, course_names, importable
from hogbench.sandbox.live import LiveStrategy
from hogbench.sandbox.probe import PROBE_CALLS, Grid, Raised, probe_functions
from hogbench.sandbox.process import Stopped, stop_all
from hogbench.sandbox.protocol import Foreign, decode_answer, decode_pass, format_size
from hogbench.sandbox.request import Request, SandboxOptions, default_time_limit
from hogbench.sandbox.session import wall_cap

__all__ = [
    "ACROSS_IMPORTS",
    "COURSE_MODULES",
    "IMPORT_POLICY",
    "INSIDE",
    "SANDBOX_ENV",
    "UNSANDBOXED",
    "WORKER",
    "Answers",
    "PROBE_CALLS",
    "Foreign",
    "Grid",
    "LiveStrategy",
    "Raised",
    "Request",
    "SandboxOptions",
    "Stopped",
    "bwrap_path",
    "collect_answers",
    "course_names",
    "decode_answer",
    "decode_pass",
    "default_time_limit",
    "format_size",
    "importable",
    "probe_functions",
    "refuse_without_sandbox",
    "stop_all",
    "turned_off",
    "wall_cap",
]

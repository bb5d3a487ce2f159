"""The worker that imports one submitted strategy file and answers for it, as data.

``hogbench.sandbox`` runs this file (``python -S -B worker.py CMD RES POS MEM CPU ISOLATED``),
inside the sandbox when there is one; on Linux as code the parent compiled, with its siblings,
into a sealed memory file (``bwrap.worker_command``): the bootstrap there leaves ``_COMPILED``,
the siblings' code, in this module's globals. It uses the standard library only, and few of its
modules (``import json`` alone, with the regular expressions it compiles, was a third of a
worker's start): nothing of hogbench is importable next to the submission.

The submission runs in this process and may tamper with anything here, so the parent treats
every message as untrusted data and validates it.

Protocol, one JSON object per line. The parent writes the job on file descriptor CMD; the
worker answers on RES:

* ``{"started": true}``: limits are set and the job is read;
* ``{"loaded": {"function": name, "team": TEAM_NAME (or PLAYER_NAME) or null}}``;
* table job (the states are listed, or are every index of ``shape`` in numpy's ndindex order;
  ``passes`` names the passes to make, both by default, and ``seed`` seeds ``random`` before the
  import): for each pass, ``{"first": {"values": [distinct encoded answers]}}`` (then
  ``"second"``, the reversed pass), followed at once by its codes as raw bytes, one per state
  naming its value (two, little-endian, when there are more than 256 values);
* live job: for each request line (a JSON list of arguments), ``{"answer": ...}``; or, for a
  line ``{"batch": count}`` followed at once by COUNT observation indices as raw little-endian
  int32, the strategy's answers at each as a pass (see the table job) named ``"answers"``,
  with the index in the batch of the call under way kept in POS;
* probe job (``probes``: function name -> grids ``{"axes": [[values of each argument]],
  "stride": k}``, each standing for every k-th argument list of the axes' product, where
  ``{"dice": [outcomes]}`` is the course's test dice cycling through them), answered right after
  the import, before any strategy is chosen: ``{"probed": {name: [encoded result, or
  {"raised": type}]}}`` for each named module-level function the file has;
* on failure: ``{"error": {"stage": ..., "type": ..., "message": ..., ...}}``.

In a table job the worker keeps the index of the call under way in the 8-byte file POS (index
``pass * n + i``, -1 while importing), so the parent can name the state of a hang or crash.
"""

import sys

if __name__ == "__main__" and "_COMPILED" not in globals():
    # This script's folder leaves the path before anything else is imported: nothing beside it
    # (nor in the submission's folder, added later) may stand in for a standard module. (The
    # bootstrap that runs the compiled worker has taken its own first entry off already.)
    del sys.path[0]

# _signal, not signal, and importlib, not importlib.util: their public faces import enum,
# functools and contextlib, which nothing here needs.
import _signal  # noqa: E402
import builtins  # noqa: E402
import ctypes  # noqa: E402
import faulthandler  # noqa: E402
import gc  # noqa: E402
import importlib  # noqa: E402
import itertools  # noqa: E402
import mmap  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import reprlib  # noqa: E402
import struct  # noqa: E402
import types  # noqa: E402

try:  # POSIX only: elsewhere no resource limits are set (and there is no sandbox either)
    import resource  # noqa: E402
except ImportError:  # Windows
    resource = None  # type: ignore[assignment]

_BUILTINS = dict(vars(builtins))


def _json_codec():
    """(dumps, loads) for the protocol's JSON, taken now: a submission may patch modules.

    They are the json module's own C encoder and scanner, made as ``json.dumps`` and
    ``json.loads`` make them with their defaults (but for the check for circular references:
    what is sent here is a tree), without ``import json``, which imports re, enum and
    collections and compiles its regular expressions (4 ms of every worker's start). The json
    module stands in where the C accelerator is missing or differs. ``loads`` reads only what
    the parent sent, before or outside the submission's code: a value, then a newline.
    """
    try:
        import _json

        class Context:  # what json.JSONDecoder gives its scanner
            strict = True
            object_hook = object_pairs_hook = None
            parse_float, parse_int = float, int
            parse_constant = {"-Infinity": -1e999, "Infinity": 1e999, "NaN": 1e999 - 1e999}.get

        def unencodable(value):
            raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")

        encoder = _json.make_encoder(
            None, unencodable, _json.encode_basestring_ascii, None, ": ", ", ", False, False, True
        )
        scanner = _json.make_scanner(Context())
        if "".join(encoder({"a": [1, 0.5, None, True, "\u00e9"]}, 0)) != (
            '{"a": [1, 0.5, null, true, "\\u00e9"]}'
        ) or scanner('{"a": [1, -2.5e3, false]}', 0) != ({"a": [1, -2500.0, False]}, 25):
            raise TypeError("not the encoder and scanner this was written for")
    except (ImportError, AttributeError, TypeError, ValueError, StopIteration):
        import json

        return json.dumps, json.loads

    join = "".join

    def dumps(value):
        return join(encoder(value, 0))

    def loads(line):
        text = line.decode() if type(line) is bytes else line
        value, end = scanner(text, 0)
        if text[end:].strip():
            raise ValueError(f"extra data after the JSON value at {end}")
        return value

    return dumps, loads


_dumps, _loads = _json_codec()
_reserve = b""  # memory given back before reporting a failure, so a MemoryError can be reported


def main(argv: list[str]) -> None:
    global _reserve
    cmd_fd, res_fd, pos_fd, memory, cpu, isolated = (int(a) for a in argv[1:7])
    _die_with_parent()
    _set_limits(memory, cpu)
    _sibling("seccomp").install()
    # Without bwrap, the file system is the user's own: Landlock refuses every change to it.
    _sibling("landlock").restrict(files=not isolated)
    _drop_capabilities()
    _signal.signal(_signal.SIGXFSZ, _signal.SIG_IGN)  # a refused write raises instead of killing
    faulthandler.enable()  # a crash prints the Python stack to stderr, which the parent keeps
    commands = os.fdopen(cmd_fd, "rb")
    results = os.fdopen(res_fd, "wb")
    position = memoryview(mmap.mmap(pos_fd, 8)).cast("q")
    job = _loads(commands.readline())

    def send(build, *args) -> None:
        """Build a message and send it, both with the builtins as they were at start."""

        def work():
            results.write(_dumps(build(*args)).encode() + b"\n")
            results.flush()

        _pristine(work)

    def send_pass(key, answers) -> None:
        """A pass: a line naming its distinct values, then its codes as raw bytes."""

        def work():
            values, codes = coded(answers)
            results.write(_dumps({key: {"values": values}}).encode() + b"\n")
            results.write(codes)
            results.flush()

        _pristine(work)

    send(_message, "started", True)
    _reserve = bytes(1 << 20)
    # Some files draw random numbers as they are imported (the course's experiments, run to
    # pick a strategy's constants). Seeded, a run is repeatable; the parent gives two imports
    # different seeds where the rules demand a table that does not depend on them.
    fresh = (set(sys.modules), list(sys.path))  # what a second import starts from
    random.seed(job.get("seed", 0))
    try:
        module = _import(job["path"], job["paths"])
    except BaseException as exc:  # the submission's failure is data, not our crash
        send(_failure, "import", exc)
        return
    if job["mode"] == "probe":
        send(_probed, probe(vars(module), job["probes"]))
        return
    strategy = _pick(module, job, send)
    if strategy is None:
        return
    if job["mode"] == "live":
        arguments = _arguments(job.get("shape"), job.get("states"))
        for line in commands:
            args = _loads(line)
            if type(args) is dict:  # a batch: its observation indices follow as raw int32
                count = args["batch"]
                indices = _int32s(commands.read(4 * count))
                answers = []
                add = answers.append
                for position[0], index in enumerate(indices):
                    state = arguments(index)
                    try:
                        add(strategy(*state))
                    except BaseException as exc:
                        send(_failure, "call", exc, list(state))
                        return
                send_pass("answers", answers)
                continue
            try:
                answer = strategy(*args)
            except BaseException as exc:
                send(_failure, "call", exc, args)
            else:
                send(_encoded, "answer", answer)
        return
    if job["states"] is None:  # the rule set's observations are numpy's ndindex over the shape
        gc.disable()  # no collection need scan our millions of tuples as they are made
        states = list(itertools.product(*map(range, job["shape"])))
        gc.enable()
    else:
        states = [tuple(state) for state in job["states"]]
    passes = job.get("passes", ["first", "second"])
    # Where the rules demand a table that does not depend on random draws, the second pass
    # may come from a second import in this same worker, seeded anew (one cold start, not two)
    reimport = job.get("reimport")
    keep = ("names", "arity", "function", "where", "not_strategies", "forget")
    job_path, paths, chosen = job["path"], job["paths"], {key: job.get(key) for key in keep}
    del job
    gc.freeze()  # nor again and again while the strategy runs
    n = len(states)
    for pass_index, order in enumerate((states, reversed(states))):
        if ("first", "second")[pass_index] not in passes:
            continue
        if pass_index and reimport is not None:  # the file imported afresh, another seed
            position[0] = -1  # importing: at no state
            strategy = _import_again(job_path, paths, fresh, reimport, chosen, send)
            if strategy is None:
                return
        # The position, pass * n + i for the state of index i, is stored by the loop itself: the
        # loop that indexed the states and computed it took a fifth longer per call.
        places = range(n) if pass_index == 0 else range(2 * n - 1, n - 1, -1)
        answers = []
        add = answers.append
        for position[0], state in zip(places, order, strict=True):
            try:
                add(strategy(*state))
            except BaseException as exc:
                send(_failure, "call", exc, list(state))
                return
        if pass_index:
            answers.reverse()  # into observation order
        send_pass(("first", "second")[pass_index], answers)


def _pick(module, job, send):
    """The strategy function of the imported MODULE, having said which (and the team name) to
    the parent; None when there is none to pick (the parent was told why)."""
    try:
        name, strategy = pick_strategy(
            vars(module), job["names"], job["arity"], job["function"], module.__name__,
            job["where"], job["not_strategies"],
        )  # fmt: skip
    except Refused as exc:
        send(_message, "error", {"stage": "find", "message": str(exc)})
        return None
    # vars: a module __getattr__ is not called. Some terms' contest files (Spring 2019's among
    # them) name the entry PLAYER_NAME instead of TEAM_NAME.
    names = vars(module)
    team = names.get("TEAM_NAME") or names.get("PLAYER_NAME", names.get("TEAM_NAME"))
    send(_loaded, name, team)
    return strategy


def _import_again(path, paths, fresh, seed, job, send):
    """The strategy of the file imported once more, as if in a new worker: the modules the
    first import brought in from the file's folder and the course's (the file itself, its
    siblings, dice and ucb) forgotten, the path and the builtins as they were at start, random
    seeded with SEED. Its choice of function and team name go to the parent, which compares
    them with the first import's.

    The standard library and installed packages (numpy) it imported stay: an extension module
    cannot be imported twice in one process, and their state is the same as a new worker's
    but for random draws, which a second draw tells apart all the same."""
    namespace = vars(builtins)  # first: what follows calls them
    namespace.clear()
    namespace.update(_BUILTINS)
    try:
        modules, path_before = fresh
        # String methods only: the first import may have replaced functions of the standard
        # library's modules (os.path's too), which stay imported.
        roots = tuple(root.rstrip("/") + "/" for root in (path.rpartition("/")[0], *job["forget"]))
        for name in set(sys.modules) - modules:
            module = sys.modules[name]
            file = getattr(module, "__file__", None)
            where = [file if type(file) is str else "", *(getattr(module, "__path__", None) or [])]
            if any(type(place) is str and place.startswith(roots) for place in where):
                del sys.modules[name]
        sys.path[:] = path_before
        gc.unfreeze()
        random.seed(seed)
        module = _import(path, paths)
    except BaseException as exc:  # its failure, or what its first import broke: data
        send(_failure, "import", exc)
        return None
    strategy = _pick(module, job, send)
    gc.freeze()
    return strategy


def _arguments(shape, states):
    """observation index -> the strategy's arguments: STATES[index] where they are listed, else
    the index's place in numpy's ndindex order over SHAPE (as in a table job), each made once."""
    known = {}

    def arguments(index):
        state = known.get(index)
        if state is None:
            if states is not None:
                state = tuple(states[index])
            else:
                place, rest = [], index
                for size in reversed(shape):
                    rest, at = divmod(rest, size)
                    place.append(at)
                state = tuple(reversed(place))
            known[index] = state
        return state

    return arguments


def probe(namespace, probes):
    """Call each function of NAMESPACE named in PROBES on the argument lists of its grids: name
    -> [("value", encoded result) or ("raised", exception type's name)], for the names that are
    plain functions. Each result is encoded (made short) as it comes: a function that returns a
    list of a million numbers must not hold a hundred of them at once."""
    found = {}
    for name, grids in probes.items():
        func = namespace.get(name)
        if not isinstance(func, types.FunctionType):
            continue
        results = found[name] = []
        calls = itertools.chain.from_iterable(
            itertools.islice(itertools.product(*grid["axes"]), 0, None, grid["stride"])
            for grid in grids
        )
        for args in calls:
            try:
                results.append(("value", encode(func(*map(_probe_argument, args)))))
            except Exception as exc:  # a wrong answer among others, not the end of the probe
                results.append(("raised", _text(type(exc).__name__, 60)))
    return found


def _probe_argument(value):
    """An argument as sent: ``{"dice": [outcomes]}`` is the course's test dice (its
    ``make_test_dice``: a die that cycles through the outcomes), anything else itself."""
    if type(value) is not dict:
        return value
    outcomes = tuple(value["dice"])
    index = len(outcomes) - 1

    def dice():
        nonlocal index
        index = (index + 1) % len(outcomes)
        return outcomes[index]

    return dice


def _probed(found):
    return {
        "probed": {
            name: [result if how == "value" else {"raised": result} for how, result in results]
            for name, results in found.items()
        }
    }


def _message(key, value):
    return {key: value}


def _loaded(function, team):
    return {"loaded": {"function": function, "team": None if team is None else _text(team, 100)}}


def _encoded(key, answer):
    """One answer encoded under KEY (live play)."""
    return {key: encode(answer)}


#: Distinct answers a pass names; past them, every new one is sent as OTHER. No rule set has
#: this many legal moves, so only answers that are illegal anyway are lumped together.
MAX_VALUES = 1024
OTHER = {"type": "answer", "repr": f"<one of more than {MAX_VALUES} distinct answers>"}


def coded(answers):
    """A pass as (its distinct encoded VALUES, CODES: the index of each state's value, one byte
    each, or two little-endian bytes each when there are more than 256 values)."""
    kinds = set(map(type, answers))
    if kinds == {bool} or (kinds == {int} and 0 <= min(answers) and max(answers) < 256):
        # Their own codes (a bool is 0 or 1), made in one step.
        values = [False, True] if kinds == {bool} else list(range(max(answers) + 1))
        return values, bytes(answers)
    if len(kinds) == 1 and kinds <= {int, str}:  # e.g. Big Pig's 'roll'/'hold': by value
        values = list(set(answers))
        if len(values) <= 256 and all(encode(v) == v for v in values):
            place = {value: i for i, value in enumerate(values)}
            return values, bytes(map(place.__getitem__, answers))
    values, place, codes = [], {}, []
    for answer in answers:
        value = encode(answer)
        key = (type(answer), value) if type(value) is not dict else _dumps(value)
        index = place.get(key)
        if index is None:
            if len(values) >= MAX_VALUES:
                key, value = _dumps(OTHER), OTHER
                index = place.get(key)
            if index is None:
                index = place[key] = len(values)
                values.append(value)
        codes.append(index)
    if len(values) <= 256:
        return values, bytes(codes)
    # In blocks: struct's arguments are a tuple, and a pass may have millions of states.
    blocks = (codes[i : i + 65536] for i in range(0, len(codes), 65536))
    return values, b"".join(struct.pack(f"<{len(block)}H", *block) for block in blocks)


def _int32s(data):
    """DATA, little-endian int32s, as a sequence of ints (read in place where that is this
    machine's order)."""
    if sys.byteorder == "little":
        return memoryview(data).cast("i")
    return struct.unpack(f"<{len(data) // 4}i", data)


def _pristine(work):
    """Run WORK (our own encoding and sending) with the builtins as they were at start.

    A submission may replace ``type``, ``isinstance`` ... for everyone in this process; the
    parent judges the answers anyway, but this keeps the report about them true.
    """
    namespace = vars(builtins)
    theirs = dict(namespace)
    namespace.clear()
    namespace.update(_BUILTINS)
    try:
        return work()
    finally:
        namespace.clear()
        namespace.update(theirs)


def _sibling(name):
    """The stdlib-only module NAME beside this file: its code as the parent compiled it, or
    else its source, read by path (this folder is not on the path, so that nothing here can
    stand in for a module the submission imports)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")
    code = globals().get("_COMPILED", {}).get(name)
    if code is None:
        with open(path, "rb") as source:
            code = compile(source.read(), path, "exec", dont_inherit=True)
    module = types.ModuleType(f"_hogbench_{name}")
    module.__file__ = path
    exec(code, vars(module))
    return module


def _drop_capabilities() -> None:
    """Give up every capability (root without bwrap would otherwise keep them all: enough to
    read any process's memory or remount a folder writable). bwrap has dropped them already."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        header = struct.pack("Ii", 0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
        libc.capset(header, bytes(24))  # effective, permitted, inheritable: none, twice 32 bits
        libc.prctl(47, 4, 0, 0, 0)  # PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL
    except (OSError, AttributeError):
        pass


def _die_with_parent() -> None:
    """Ask the kernel to kill this worker when its parent dies (under bwrap, bwrap dies with
    hogbench; without bwrap nothing else would end a worker whose hogbench was killed)."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, _signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def _set_limits(memory: int, cpu: int) -> None:
    if resource is None:
        return
    limits = [
        (resource.RLIMIT_AS, memory),
        (resource.RLIMIT_FSIZE, 0),  # no file can grow: writes fail even where the sandbox is thin
        (resource.RLIMIT_NOFILE, 64),
        (resource.RLIMIT_NPROC, 0),  # binds ordinary users only; the seccomp filter binds root too
        (resource.RLIMIT_CORE, 0),
    ]
    for which, value in limits:
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):  # not supported on this system (e.g. RLIMIT_AS on macOS)
            pass
    if cpu:  # a backstop to the parent's wall clock: SIGXCPU at the soft limit, then SIGKILL
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))


def _import(path: str, extra: list):
    # The submission's folder goes first on the path (`from hog import *` finds its sibling
    # hog.py, and a student's own dice.py wins), then the course's stand-in modules and the
    # allowed packages; hogbench itself is not importable.
    sys.path[:0] = [os.path.dirname(path), *extra]
    sys.argv = [path]
    stem = os.path.splitext(os.path.basename(path))[0]
    # Its own name when free, so a sibling importing it gets this module, not a second copy.
    name = stem if stem.isidentifier() and stem not in sys.modules else "__submission__"
    # What importlib.util's functions of these names are (importing it costs 2 ms a worker).
    spec = importlib._bootstrap_external.spec_from_file_location(name, path)
    module = importlib._bootstrap.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class Refused(Exception):
    """No strategy function could be chosen."""


def pick_strategy(namespace, names, arity, name, module, where, not_strategies=()):
    """Choose the strategy function in a loaded file's NAMESPACE (the only place it is chosen).

    NAME if given; else the first of NAMES (the rule set's ``strategy_names``) present; else the
    one public function defined in MODULE (not imported into it) taking ARITY arguments, other
    than the course's functions that are no strategy (NOT_STRATEGIES: ``is_swap``, ``more_boar``
    take two scores too). Refused names the candidates otherwise.
    """
    if name is not None:
        func = namespace.get(name)
        if not callable(func):
            raise Refused(f"no function named {name!r}")
        return name, func
    for preferred in names:
        if callable(namespace.get(preferred)):
            return preferred, namespace[preferred]
    fitting = [
        key
        for key, value in namespace.items()
        if not key.startswith("_")
        and isinstance(value, types.FunctionType)
        and (not module or value.__module__ == module)
        and _arity(value) == arity
    ]
    candidates = [key for key in fitting if key not in not_strategies]
    wanted = " or ".join(names)
    if len(candidates) == 1:
        return candidates[0], namespace[candidates[0]]
    if not candidates:
        skipped = f" ({', '.join(fitting)}: the course's, not strategies)" if fitting else ""
        raise Refused(
            f"no strategy function: define {wanted}, or one function of {arity} arguments" + skipped
        )
    raise Refused(
        f"ambiguous strategy: no {wanted}, and {len(candidates)} candidates"
        f" ({', '.join(candidates)}); name one as {where}:NAME"
    )


def _arity(func):
    """How many positional arguments FUNC needs."""
    if not {"__wrapped__", "__signature__"} & set(vars(func)):  # a plain function: its code
        return func.__code__.co_argcount - len(func.__defaults__ or ())
    import inspect  # a decorated one: what it stands for (inspect's import takes 19 ms)

    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return None
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return len([p for p in params if p.default is p.empty and p.kind in positional])


def encode(value):
    """An answer as JSON: None, bools, ints, floats and strings as themselves (JSON keeps them
    apart), anything else as its type's name and a short repr."""
    kind = type(value)
    if value is None or kind is bool or kind is float:
        return value
    if kind is int and -(2**63) <= value < 2**63:
        return value
    if kind is str:
        return value[:100]
    if kind is int:
        return {"type": "int", "repr": f"<an int of {value.bit_length()} bits>"}
    return {"type": _text(kind.__name__, 60), "repr": _text(value, 100, reprlib.repr)}


def _text(value, limit, show=str):
    try:
        return show(value)[:limit]
    except BaseException:  # a hostile __str__ or __repr__
        return "<unprintable>"


def _failure(stage, exc, state=None):
    global _reserve
    _reserve = b""
    info = {
        "stage": stage,
        "state": state,
        "type": _text(type(exc).__name__, 60),
        "message": _text(exc, 300),
    }
    if isinstance(exc, SyntaxError):
        info.update(message=_text(exc.msg, 300), file=_text(exc.filename, 300), line=exc.lineno)
    try:
        import traceback  # here, not at start, where it took every worker 3 ms

        frames = [
            frame
            for frame in traceback.extract_tb(exc.__traceback__)
            if frame.filename != __file__ and not frame.filename.startswith("<frozen")
        ]
        traceback.clear_frames(exc.__traceback__)  # frees what a memory bomb holds in locals
        lines = traceback.format_list(frames[-6:]) + traceback.format_exception_only(type(exc), exc)
        info["traceback"] = "".join(lines)[-2000:]
    except BaseException:
        pass
    return {"error": info}


if __name__ == "__main__":
    main(sys.argv)
    try:
        sys.stdout.flush()
    except BaseException:
        pass
    os._exit(0)  # no atexit handlers or lingering threads of the submission

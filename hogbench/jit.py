"""Compiled functions that cost nothing until a command needs them.

numba takes about 0.4 s to import and 0.3 s more to set up its compiler the first time it
compiles or loads anything. A warm Monte Carlo duel needs neither (it plays on cached rows with
numpy), so no module that a duel imports may import numba. Functions are therefore decorated
with ``jit`` or ``kernel`` from here, which record them and compile nothing.

The first time a compiled function is asked for (a kernel is called, or a model hands its rule
functions to an engine), numba is imported and every recorded function becomes a numba
dispatcher. The wrapper is registered with numba's typing, so compiled code that names a
recorded function calls its dispatcher; no module's names are rewritten. Called from Python, a
``jit`` function stays the plain Python function it was written as: same arithmetic on the same
small integers, so the course functions answer the same either way.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

# Rule sets hand their compiled functions to the engines as first-class function values, which
# numba still labels experimental; it is what keeps the engines generic and cached.
warnings.filterwarnings("ignore", message=".*[Ff]irst-class function type")

#: Every decorated function, in definition order; given dispatchers on first need.
_recorded: list[Compiled] = []
_made = 0  # how many of _recorded have their dispatcher


class Compiled:
    """A function numba will compile. SIGNATURE is None, a numba signature, or a function of
    ``numba.types`` giving one (so that a module need not import numba to declare it).

    An explicit signature is what lets numba's disk cache serve functions that take compiled
    functions as arguments, and what gives a rule function the fixed type the engines take.
    """

    def __init__(
        self, func: Callable, signature: Any, options: dict, kernel: bool, arrays: bool = False
    ) -> None:
        self.func, self.signature, self.options, self.kernel = func, signature, options, kernel
        #: Called from Python, the function also answers for a numpy array of states at once
        #: (see ``jit``).
        self.arrays = arrays
        self._dispatcher: Any = None
        self._ready = False
        functools.update_wrapper(self, func)
        _recorded.append(self)

    @property
    def dispatcher(self) -> Any:
        """The numba dispatcher, compiled (or loaded from the disk cache) for the signature."""
        if not self._ready:
            _make_dispatchers()
            if self.signature is not None:
                import inspect

                import numba

                signature = self.signature
                if inspect.isfunction(signature):
                    signature = signature(numba.types)
                self._dispatcher.compile(signature)
                self._dispatcher.disable_compile()
            self._ready = True
        return self._dispatcher

    def __call__(self, *args: Any) -> Any:
        if self.kernel:
            return self.dispatcher(*args)
        return self.func(*args)


def _make_dispatchers() -> None:
    """Make a dispatcher of every recorded function (the first time: teach numba the wrapper)."""
    global _made
    if _made == len(_recorded):
        return
    import numba

    if _made == 0:
        _register_with_numba()
    for c in _recorded[_made:]:
        c._dispatcher = numba.njit(cache=True, **c.options)(c.func)
    _made = len(_recorded)


def _register_with_numba() -> None:
    """Compiled code that names a recorded function types it as that function's dispatcher
    (compiled for its declared signature), so compiled code calls compiled code. Kernels
    called from Python go through the wrapper too: a dispatcher called straight from Python
    compiles itself for the types of the arguments, not for the declared signature, and a
    rule function passed as an argument then types as that very dispatcher, which numba's disk
    cache can neither load nor save."""
    from numba.extending import typeof_impl

    @typeof_impl.register(Compiled)
    def _typeof_compiled(value: Compiled, context: Any) -> Any:
        return typeof_impl(value.dispatcher, context)


def jit(
    signature: Callable | None = None, *, arrays: bool = False, **options: Any
) -> Callable[[Callable], Compiled]:
    """A function for compiled code; called from Python it runs as plain Python.

    ARRAYS: a rule function (roll_kind or resolve) written without branches on the state (with
    ``rules.base.where``), so that called from Python with a numpy array of states, one choice
    and one value, it returns every state's answer (or one answer for all). The Monte Carlo
    engine then builds a table's rows with numpy, and a duel compiles nothing."""
    return lambda func: Compiled(func, signature, options, kernel=False, arrays=arrays)


def kernel(signature: Callable, **options: Any) -> Callable[[Callable], Compiled]:
    """An engine's entry point: called from Python, it runs compiled."""
    return lambda func: Compiled(func, signature, options, kernel=True)


def compiled(func: Any) -> Any:
    """The dispatcher of FUNC if it is a recorded function, else FUNC itself."""
    return func.dispatcher if isinstance(func, Compiled) else func

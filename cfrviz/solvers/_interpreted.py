"""The compiled kernels' own Python source, run by the interpreter while numba compiles them.

A fresh process with an empty numba cache needs many seconds to compile the kernels. While the
app's warm-up compiles them in the background (`cfrviz.app.warmup.warm_up`), a small solve need
not wait: every numba dispatcher keeps the function it was made from as `py_func`, and running
that function on the same arrays performs the same IEEE-754 operations in the same order, so it
gives the same numbers, bit for bit (numba compiles without fast-math, so nothing is reordered or
fused). `interpreted(kernel)` is that function with every kernel it calls rebound to its own
interpreted version, so no call inside it reaches the compiler.

`pick(kernel, node_visits)` is what the callers use: the compiled kernel, except while the
warm-up is compiling in the background and the kernel is not ready yet, when a call of at most
`INTERPRETED_NODE_VISITS` node visits runs interpreted instead. The warm-up's own thread always
gets the compiled kernel (it is the one compiling it). Outside the warm-up (the CLI, scripts,
tests) nothing changes: every call is compiled, as before.
"""
from __future__ import annotations

import contextlib
import threading
import types
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

__all__ = ["INTERPRETED_NODE_VISITS", "background_compile", "compiling_in_background", "expect_background_compile",
           "interpreted", "is_compiled", "pick"]

#: Largest call (node visits: histories walked times passes) served by the interpreter while its
#: kernel compiles. The default Kuhn solve (1,000 iterations over 55 histories, 55,000 visits, and
#: its 1,000 snapshots judged in NumPy) took 0.15 s of CPU this way on a 2-core machine (the
#: compiled kernel takes about 10 ms, after seconds of compiling); this bound keeps a call near 1 s.
INTERPRETED_NODE_VISITS = 300_000

_INTERPRETED: dict[Callable[..., Any], Callable[..., Any]] = {}
_INTERPRETED_LOCK = threading.Lock()

_background = threading.Event()          # set while the warm-up compiles in the background
_compiler_thread: int | None = None      # the warm-up's thread: it always calls the compiled kernels


def _is_dispatcher(value: object) -> bool:
    from numba.core.dispatcher import Dispatcher

    return isinstance(value, Dispatcher)


def interpreted(kernel: Any) -> Callable[..., Any]:
    """The Python function behind the numba dispatcher `kernel`, run by the interpreter.

    Every dispatcher the function names as a global (the kernels it calls) is replaced by that
    kernel's interpreted version, recursively, in a copy of its module's globals: the module and
    the compiled kernel are untouched, and both versions can run at once in different threads.
    Array arguments are passed as memoryviews of the same memory: an element then reads as a
    Python float or int, about twice as fast as a NumPy scalar and the same IEEE-754 double, and
    writes land in the caller's arrays. So the kernel must index elements (`a[i, j]`), not slice
    (the CFR family's kernels do; arrays a kernel makes itself stay NumPy arrays).
    """
    function = kernel.py_func
    with _INTERPRETED_LOCK:
        found = _INTERPRETED.get(function)
    if found is not None:
        return found
    namespace = dict(function.__globals__)
    for name in function.__code__.co_names:
        value = namespace.get(name)
        if value is not kernel and _is_dispatcher(value):
            namespace[name] = interpreted(value)
    source = types.FunctionType(function.__code__, namespace, function.__name__, function.__defaults__,
                                function.__closure__)

    def run(*args: Any) -> Any:
        return source(*[a.data if isinstance(a, np.ndarray) else a for a in args])

    run.__doc__ = function.__doc__
    run.__name__ = function.__name__
    if _is_dispatcher(namespace.get(function.__name__)):       # a kernel that calls itself
        namespace[function.__name__] = run
    with _INTERPRETED_LOCK:
        return _INTERPRETED.setdefault(function, run)


def is_compiled(kernel: Any) -> bool:
    """Whether `kernel` has machine code in this process (compiled, or loaded from numba's cache)."""
    return bool(kernel.signatures)


def pick(kernel: Any, node_visits: float, instead: Callable[..., Any] | None = None) -> Callable[..., Any]:
    """`kernel`, or while the warm-up compiles it and the call is small, `instead` (by default its
    interpreted version): the same numbers without waiting for the compiler.

    node_visits: the call's work, histories walked summed over its passes.
    """
    if (not _background.is_set() or threading.get_ident() == _compiler_thread
            or node_visits > INTERPRETED_NODE_VISITS or is_compiled(kernel)):
        return kernel       # type: ignore[no-any-return]  # a numba dispatcher is called like its function
    return interpreted(kernel) if instead is None else instead


def compiling_in_background() -> bool:
    """Whether the warm-up is compiling now (small calls meanwhile run interpreted)."""
    return _background.is_set()


def expect_background_compile() -> None:
    """Say, before starting the warm-up's thread, that it will compile: from now on small calls run
    interpreted, so a solve that starts before the thread does (a busy machine) need not compile."""
    _background.set()


@contextlib.contextmanager
def background_compile() -> Iterator[None]:
    """While inside, the calling thread is the warm-up compiling the kernels: other threads' small
    calls to kernels not compiled yet run interpreted (`pick`); this thread gets the compiled ones."""
    global _compiler_thread
    _compiler_thread = threading.get_ident()
    _background.set()
    try:
        yield
    finally:
        _background.clear()
        _compiler_thread = None

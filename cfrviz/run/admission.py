"""Admission for the server's heavy page builds: at most `slots` at once, the others in one line.

A page build that holds the interpreter lock for seconds (a payload's JSON, best-response frames,
Compare's lines) slows every other session's script while it runs, and each keeps its memory
until it ends. So builds take a turn: `slots` run at once, the rest wait first come first served
and can be told how many wait ahead of them. A waiter that leaves (its page went away) gives up
its place, and one that finished gives its turn to the first in line at once.

Turns are per thread and reentrant: a thread that holds one and asks again holds it still (a build
inside a build never waits for itself). Inside `scope()` the first turn taken lasts until the
scope ends, so a page whose build has several heavy parts waits in line once, not once per part.
Pure Python: the app holds one per process (`cfrviz.app.admission`).

>>> line = Admission(slots=1)
>>> first, second = line.join(), line.join()
>>> line.ahead(first), line.ahead(second)       # None: admitted; 0: first in line
(None, 0)
>>> line.leave(first)
>>> line.ahead(second)
"""
from __future__ import annotations

import contextlib
import threading
from collections import deque
from collections.abc import Callable, Iterator

__all__ = ["Admission", "Ticket"]


class Ticket:
    """One build's place: in line, then admitted, then gone (`Admission.leave`)."""

    __slots__ = ("admitted", "gone")

    def __init__(self) -> None:
        self.admitted = False
        self.gone = False


class Admission:
    """`slots` turns at once; the others wait in a first-come-first-served line. Thread-safe."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError("An admission line needs at least one slot.")
        self.slots = int(slots)
        self._changed = threading.Condition()
        self._line: deque[Ticket] = deque()
        self._admitted = 0
        self._local = threading.local()      # per thread: the ticket held, and open scopes

    def join(self) -> Ticket:
        """A new ticket: admitted at once when a slot is free (nobody can be waiting then), else last in line."""
        ticket = Ticket()
        with self._changed:
            if self._admitted < self.slots and not self._line:
                ticket.admitted = True
                self._admitted += 1
            else:
                self._line.append(ticket)
        return ticket

    def ahead(self, ticket: Ticket) -> int | None:
        """How many wait ahead of `ticket` in line; None once it is admitted (or gone)."""
        with self._changed:
            return self._ahead(ticket)

    def _ahead(self, ticket: Ticket) -> int | None:
        if ticket.admitted or ticket.gone:
            return None
        return self._line.index(ticket)

    def wait(self, ticket: Ticket, timeout: float | None = None) -> int | None:
        """Block until `ticket` is admitted, its place changes or `timeout` seconds pass; its place then."""
        with self._changed:
            before = self._ahead(ticket)
            if before is not None:
                self._changed.wait_for(lambda: self._ahead(ticket) != before, timeout)
            return self._ahead(ticket)

    def leave(self, ticket: Ticket) -> None:
        """`ticket` gives up its place or its turn; the first in line gets a freed turn. Idempotent."""
        with self._changed:
            if ticket.gone:
                return
            ticket.gone = True
            if ticket.admitted:
                self._admitted -= 1
            else:
                self._line.remove(ticket)
            while self._line and self._admitted < self.slots:
                self._line.popleft().admitted = True
                self._admitted += 1
            self._changed.notify_all()      # admitted, or a place moved up

    def counts(self) -> tuple[int, int]:
        """(builds admitted now, builds waiting in line)."""
        with self._changed:
            return self._admitted, len(self._line)

    def holds_turn(self) -> bool:
        """Whether the calling thread holds a turn now."""
        return getattr(self._local, "ticket", None) is not None

    @contextlib.contextmanager
    def turn(self, on_wait: Callable[[int], object] | None = None, check: Callable[[], object] | None = None,
             poll: float | None = None) -> Iterator[None]:
        """Hold a turn for the block, waiting in line for it first (not when this thread holds one).

        While waiting, `on_wait(ahead)` runs each time the number waiting ahead changes (first with
        the place joined at), and `check()` at least every `poll` seconds: an exception from either
        leaves the line (a page that went away). Inside `scope()` the turn outlives the block."""
        local = self._local
        if getattr(local, "ticket", None) is not None:
            yield           # reentrant: this thread's build is already admitted
            return
        ticket = self.join()
        admitted = False
        try:
            shown: int | None = None
            ahead = self.ahead(ticket)
            while ahead is not None:
                if ahead != shown and on_wait is not None:
                    on_wait(ahead)
                shown = ahead
                if check is not None:
                    check()
                ahead = self.wait(ticket, poll)
            admitted = True
            local.ticket = ticket
            yield
        finally:
            if not admitted or not getattr(local, "scopes", 0):
                local.ticket = None
                self.leave(ticket)

    @contextlib.contextmanager
    def scope(self) -> Iterator[None]:
        """A page's build: a turn taken inside (by `turn`) is kept until the outermost scope ends.
        Entering takes no turn, so a page whose parts are all cached never waits."""
        local = self._local
        local.scopes = getattr(local, "scopes", 0) + 1
        try:
            yield
        finally:
            local.scopes -= 1
            ticket: Ticket | None = getattr(local, "ticket", None)
            if local.scopes == 0 and ticket is not None:
                local.ticket = None
                self.leave(ticket)

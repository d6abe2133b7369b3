"""The command line: `python -m cfrviz solve GAME --algorithm A --iterations N ...`.

It prints what the classic tutorial code prints (Neller and Lanctot, "An Introduction to
Counterfactual Regret Minimization"): each player's expected value, meaning the running mean of
the iteration values, at full precision, then the average strategy of every information set of
player 1 and then player 2, sorted by key as the tutorial's code sorts them. Finally it prints the
exact value and exploitability of that average strategy. Every bad argument ends the program with one sentence on stderr and exit status 2.
"""
from __future__ import annotations

import argparse
import errno
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, NoReturn, TextIO

import numpy as np

from cfrviz import catalog, cli_compare
from cfrviz.figures.drawn import is_drawn_whole
from cfrviz.figures.html_page import HTML_VIEWS, NODE_VIEWS
from cfrviz.solvers import ALGORITHMS, DEFAULT_UPDATES, UPDATE_SCHEMES
from cfrviz.solvers.matrix import matrix_payoffs
from cfrviz.util.vocabulary import DECISION_PLAYERS, player_number
from cfrviz.run import RunSettings, export_strategy, save_run
from cfrviz.site import command as site_command
from cfrviz.tree.locks import Locks, restrict
from cfrviz.util.whole_numbers import MAX_DIGITS, MAX_SEED, parse_whole_number
from cfrviz.util.text import clamped_exploitability, quoted
from cfrviz.util.files import write_failure

if TYPE_CHECKING:
    from cfrviz.run import Run

USAGE_ERROR = 2

ALGORITHM_NAMES = tuple(ALGORITHMS)


def iteration_caps() -> dict[str, int]:
    """Most iterations one CLI solve may ask for, per game of the app's menu (`GameSpec.cli_iteration_cap`),
    so a typo cannot tie up a machine for hours."""
    return {str(game.link): game.cli_iteration_cap for game in catalog.menu()}


class UsageError(ValueError):
    """A bad command line, explained in one sentence."""


class _Parser(argparse.ArgumentParser):
    """argparse, but its own complaints become one sentence and exit status 2, without the usage block."""

    def error(self, message: str) -> NoReturn:
        # Our own type checks already speak in sentences; strip argparse's "argument --x: " prefix.
        head, sep, tail = message.partition(": ")
        if sep and head.startswith("argument ") and tail.endswith("."):
            raise UsageError(tail)
        if head == "argument COMMAND":
            name = tail.split("'")[1] if tail.count("'") >= 2 else tail
            raise UsageError(f"Unknown command {name!r}; the commands are `python -m cfrviz solve` and `compare`.")
        raise UsageError(f"{message[:1].upper()}{message[1:]}; see `{self.prog} --help`.")


def _read_number(flag: str, text: str, what: str = "a whole number") -> int:
    """`text` read as links read numbers (the digits 0 to 9 only; `int` would take "٣" and "1_000")."""
    try:
        return parse_whole_number(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{flag} takes {what}, written with the digits 0 to 9 (at most "
                                         f"{MAX_DIGITS}), not {quoted(text)}.") from None


def _whole_number(flag: str, minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        number = _read_number(flag, text)
        if number < minimum:
            raise argparse.ArgumentTypeError(f"{flag} must be at least {minimum}; {number} was given.")
        return number

    parse.__name__ = flag
    return parse


def _snapshots(text: str) -> int | str:
    """--snapshots: "all" or a stride K of at least 1 (a snapshot every K iterations)."""
    word = text.strip().lower()
    if word == "all":
        return "all"
    stride = _read_number("--snapshots", word, "a whole number K (a snapshot every K iterations) or 'all'")
    if stride < 1:
        raise argparse.ArgumentTypeError(f"--snapshots must be at least 1 (a snapshot every K iterations) or "
                                         f"'all'; {stride} was given.")
    return stride


def _game(text: str) -> catalog.GameSpec:
    try:
        return catalog.resolve(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _choice(flag: str, options: Sequence[str]) -> Callable[[str], str]:
    """A parser for one of `options` (vocabulary members, or their strings): the member is returned."""
    def parse(text: str) -> str:
        key = text.strip().lower()
        for option in options:
            if option == key:
                return option
        raise argparse.ArgumentTypeError(f"Unknown {flag} {text!r}; choose one of: {', '.join(options)}.")

    parse.__name__ = flag
    return parse


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `python -m cfrviz` (subcommands `solve` and `compare`, the latter in `cli_compare`)."""
    parser = _Parser(prog="python -m cfrviz",
                     description="Solve a small game with the CFR family and print the average strategy.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    solve = commands.add_parser(
        "solve", help="solve a game and print strategies, value and exploitability",
        description="Solve a game with one algorithm and print each player's average strategy, the exact "
                    "value of that strategy for player 1 and its exploitability (chips per hand).",
        epilog="Iteration caps: " + ", ".join(f"{g} {c:,}" for g, c in iteration_caps().items())
               + " (other games: by tree size). Example: python -m cfrviz solve kuhn --algorithm cfr "
                 "--iterations 10000")
    bundled = "".join(f", efg:{name}" for name in catalog.bundled_games())
    solve.add_argument("game", type=_game, metavar="GAME",
                       help=f"kuhn, kuhn4 … kuhn13, leduc, rps{bundled}, a path to a Gambit .efg file, "
                            "or openspiel:<game string> when OpenSpiel is installed")
    solve.add_argument("--algorithm", "-a", required=True, type=_choice("algorithm", ALGORITHM_NAMES),
                       metavar="A", help=", ".join(ALGORITHM_NAMES) + " (rm: matrix games only)")
    solve.add_argument("--iterations", "-n", required=True, type=_whole_number("--iterations", 1),
                       metavar="N", help="iterations to run (capped per game, see below)")
    solve.add_argument("--updates", default=DEFAULT_UPDATES, type=_choice("update scheme", UPDATE_SCHEMES),
                       help="simultaneous (both players each iteration, as the classic tutorial code) or alternating (default)")
    solve.add_argument("--seed", default=0, type=_whole_number("--seed", 0),
                       help="seed of the random generator for the sampling algorithms (default 0)")
    cards = catalog.entry("kuhn").parameter("cards")
    solve.add_argument("--cards", type=_whole_number("--cards", 0), metavar="N",
                       help=f"Kuhn poker's deck size, {cards.low} to {cards.high} (default {cards.default})")
    solve.add_argument("--snapshots", type=_snapshots, metavar="K",
                       help="keep a snapshot every K iterations, or 'all' (saved with --out); default: every "
                            "iteration up to 1,000, then log-spaced, at most 2,000 and as many as fit the memory "
                            "budget (CFRVIZ_MEMORY_MB, 200 MB by default)")
    solve.add_argument("--lock", action="append", default=[], metavar="KEY=p1,p2,...",
                       help="fix an information set's strategy (probabilities in its action order, such as "
                            "--lock 'J=0,1'); repeat for several sets. The restricted game is solved")
    solve.add_argument("--json", type=Path, metavar="FILE", help="write the average strategy as JSON")
    solve.add_argument("--out", type=Path, metavar="RUN.npz", help="save every snapshot as an .npz file")
    solve.add_argument("--html", type=Path, metavar="FILE",
                       help="write the run's timeline as one self-contained HTML file (opens from disk)")
    solve.add_argument("--html-view", type=_choice("--html-view", tuple(HTML_VIEWS)), metavar="VIEW",
                       help=f"what the --html file shows: {', '.join(HTML_VIEWS)} (default tree; regret_matching: "
                            "matrix games only; play: games drawn whole, such as kuhn)")
    solve.add_argument("--html-t", type=_whole_number("--html-t", 1), metavar="T",
                       help="the iteration the --html file opens at, a recorded one (default the last; walkthrough: "
                            "the iteration walked through, default 1)")
    solve.add_argument("--html-node", type=_whole_number("--html-node", 0), metavar="NODE",
                       help=f"the tree node the --html file opens with selected ({', '.join(NODE_VIEWS)})")
    cli_compare.add_parser(commands, _game, _whole_number)
    site_command.add_parser(commands)
    return parser


def _writable(path: Path, flag: str) -> None:
    """Fail before solving, not after, when an output file cannot be written.

    Opening is the only honest test (permission bits say nothing to root or about /proc); a
    file created by the probe is removed again.
    """
    if path.is_dir():
        raise UsageError(f"{flag} {path} is a folder; give a file name.")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"Cannot write {flag} {path}: the folder {folder} does not exist.")
    existed = path.exists()
    try:
        # Without blocking: opening a FIFO to write waits for a reader, which would hang the CLI here.
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC, 0o666))
    except OSError as error:
        if error.errno == errno.ENXIO and stat.S_ISFIFO(os.stat(path).st_mode):
            raise UsageError(f"Cannot write {flag} {path}: it is a pipe (FIFO) that no program is reading.") from None
        raise UsageError(f"Cannot write {flag} {path}: {(error.strerror or 'not writable').lower()}.") from None
    if not existed:
        path.unlink(missing_ok=True)


def check_arguments(args: argparse.Namespace) -> RunSettings:
    """The one `RunSettings` parsed arguments name (the snapshots stay `args.snapshots`: how a run is
    recorded, not what is solved); UsageError explains the first bad one."""
    game: catalog.GameSpec = args.game
    if args.cards is not None:
        names = {p.name: p for p in game.entry.parameters}
        if "cards" not in names:
            raise UsageError(f"--cards sets Kuhn poker's deck size; {game.title} has no such setting.")
        low, high = names["cards"].low, names["cards"].high
        if not low <= args.cards <= high:
            raise UsageError(f"--cards must be between {low} and {high}; {args.cards} was given.")
        game = catalog.get(game.name, **{**dict(game.params), "cards": args.cards})
    if not game.offers(args.algorithm):
        raise UsageError(f"Regret matching ({args.algorithm}) solves matrix games such as rps, not {game.title}; "
                         "use cfr or another CFR algorithm.")
    cap = game.cli_iteration_cap
    if args.iterations > cap:
        raise UsageError(f"--iterations is capped at {cap:,} for {game.title} so one command cannot tie up "
                         f"the machine; {args.iterations:,} was asked for.")
    if args.seed > MAX_SEED:
        raise UsageError(f"--seed must be at most {MAX_SEED}; {args.seed} was given.")
    if args.out is not None:
        if args.out.suffix != ".npz":
            raise UsageError(f"--out must name an .npz file, such as run.npz; {args.out} was given.")
        _writable(args.out, "--out")
    if args.json is not None:
        _writable(args.json, "--json")
        if args.out is not None and args.json.resolve() == args.out.resolve():
            raise UsageError("--json and --out must name different files.")
    if args.html is not None:
        if args.html.suffix.lower() not in (".html", ".htm"):
            raise UsageError(f"--html must name an .html file, such as kuhn.html; {args.html} was given.")
        _writable(args.html, "--html")
        if any(other is not None and args.html.resolve() == other.resolve() for other in (args.json, args.out)):
            raise UsageError("--html must name a file of its own, not the one --json or --out writes.")
    _check_html_view(args, game)
    locks = Locks.parse(args.lock).check(game.tree())
    # The game goes on as its GameSpec: the runner uses it as it is, without asking the catalog again.
    return RunSettings(game, args.algorithm, args.iterations, args.updates, args.seed, locks)


def _check_html_view(args: argparse.Namespace, game: catalog.GameSpec) -> None:
    """--html-view, --html-t and --html-node against the game and the solve asked for, before solving."""
    for flag, value in (("--html-view", args.html_view), ("--html-t", args.html_t), ("--html-node", args.html_node)):
        if value is not None and args.html is None:
            raise UsageError(f"{flag} sets what the --html file shows; give --html FILE too.")
    view = args.html_view or "tree"
    tree = game.tree()
    if view == "regret_matching":
        try:
            matrix_payoffs(tree)
        except ValueError:
            raise UsageError(f"--html-view regret_matching replays regret matching on a matrix game such as rps; "
                             f"{game.title} is not one.") from None
    if view == "play" and not is_drawn_whole(tree):
        raise UsageError(f"--html-view play deals from the whole tree, and {game.title} is too big to draw whole; "
                         "play it in the app.")
    if args.html_node is not None:
        if view not in NODE_VIEWS:
            raise UsageError(f"--html-node selects a node of the tree, which the {view} view does not; "
                             f"use it with --html-view {', '.join(NODE_VIEWS[:-1])} or {NODE_VIEWS[-1]}.")
        if args.html_node >= tree.num_nodes:
            raise UsageError(f"--html-node must be a node of {game.title}, 0 to {tree.num_nodes - 1}; "
                             f"{args.html_node} was given.")
    if args.html_t is not None:
        if args.html_t > args.iterations:
            raise UsageError(f"--html-t must be at most --iterations ({args.iterations:,}); {args.html_t:,} was given.")
        if not args.lock:   # a locked solve keeps its own snapshots: checked on the run (`_html_page`)
            from cfrviz.solving import planned_schedule
            _check_recorded(view, args.html_t, planned_schedule(tree, args.iterations, args.snapshots))


def _check_recorded(view: str, t: int, recorded: Sequence[int] | np.ndarray) -> None:
    """A view of the snapshots opens at a recorded iteration: UsageError naming the nearest ones otherwise
    (the walkthrough and regret matching replay any iteration)."""
    if view in ("walkthrough", "regret_matching") or t in {int(i) for i in recorded}:
        return
    at = int(np.searchsorted(recorded, t))
    near = " and ".join(f"{int(recorded[k]):,}" for k in (at - 1, at) if 0 <= k < len(recorded))
    raise UsageError(f"--html-t {t:,} is not a recorded iteration of this run; the nearest recorded are {near} "
                     "(--snapshots chooses which are kept).")


def _html_page(args: argparse.Namespace, run: Run) -> bytes:
    """The --html file of `run` in the view --html-view, --html-t and --html-node ask for."""
    from cfrviz.figures.html_page import html_text

    view = args.html_view or "tree"
    if args.html_t is not None:
        _check_recorded(view, args.html_t, run.iterations)
    return html_text(run, view, t=args.html_t, node=args.html_node).encode("utf-8")


def format_report(run: Run, stream: TextIO) -> None:
    """Print a solved run as the classic tutorial code does, then the exact value and exploitability.

    Expected values are the running mean of iteration values, printed as Python's repr of the
    float (every digit), so a run can be checked against the tutorial's published output.
    """
    from cfrviz.analysis import expected_value

    tree = run.tree
    average = np.asarray(run.average_strategy[-1])
    running_mean = float(run.expected_value[-1])
    settings = run.settings
    title = getattr(tree.game, "title", settings.spec.name)
    print(f"{title}: {settings.algorithm}, {int(run.iterations[-1]):,} iterations, "
          f"{settings.updates} updates, seed {settings.seed}", file=stream)
    print(file=stream)
    print(f"player 1 expected value: {running_mean!r}", file=stream)
    print(f"player 2 expected value: {-running_mean!r}", file=stream)
    width = max(len(r.key) for r in tree.infosets)
    for player in DECISION_PLAYERS:
        print(file=stream)
        print(f"player {player_number(player)} strategies:", file=stream)
        for i, record in sorted(enumerate(tree.infosets), key=lambda pair: pair[1].key):
            if record.player != player:
                continue
            moves = "  ".join(f"{name} {average[i, a]:.3f}" for a, name in enumerate(record.actions))
            print(f"  {record.key:<{width}}  {moves}", file=stream)
    print(file=stream)
    value = expected_value(tree, average)
    from cfrviz.analysis.reference import game_value, value_source

    game = settings.spec
    if settings.locks:
        _locked_report(run, value, stream)
        return
    source, exact = value_source(game), game_value(tree, game)
    note = "" if exact is None else (f" ({game.title}'s value is {exact:.7g}"
                                     + (", from the sequence-form linear program)" if source == "linear program"
                                        else ")"))
    print(f"value of the average strategy for player 1: {value:.6f}{note}", file=stream)
    exploitability = clamped_exploitability(run.exploitability[-1])   # rounding noise below zero is 0
    print(f"exploitability of the average strategy: {exploitability:.6g} chips per hand", file=stream)
    if game.alpha_family:
        from cfrviz.analysis import closest_alpha, distance_to_equilibrium

        alpha = closest_alpha(average, tree)
        print(f"nearest Kuhn equilibrium: alpha = {alpha:.4f}, largest probability gap "
              f"{distance_to_equilibrium(average, tree):.4f}", file=stream)


def _locked_report(run: Run, value: float, stream: TextIO) -> None:
    """The value and exploitability lines of a locked run: the restricted game's exact value (its
    sequence-form linear program) as the target, and the exploitability in both games."""
    from cfrviz.analysis.locks import full_exploitability, restricted_equilibrium

    restricted = restrict(run.tree, run.settings.locks)
    try:
        target = f" (the locked game's value is {restricted_equilibrium(restricted)[0]:.7g}, from the sequence-form " \
                 "linear program)"
    except ValueError:      # a program too big for its time limit: the run still reports its own numbers
        target = ""
    average = np.asarray(run.average_strategy[-1])
    print(f"locks: {run.settings.locks.text()}", file=stream)
    print(f"value of the average strategy for player 1: {value:.6f}{target}", file=stream)
    locked = clamped_exploitability(run.exploitability[-1])   # rounding noise below zero is 0
    print(f"exploitability in the locked game (locked sets stay fixed): {locked:.6g} "
          "chips per hand", file=stream)
    print(f"exploitability in the full game (a best response may change locked sets too): "
          f"{clamped_exploitability(float(full_exploitability(restricted, average))):.6g} chips per hand", file=stream)


def write_all_or_none(outputs: Sequence[tuple[Path, Callable[[IO[bytes]], object]]]) -> None:
    """Write each (file, writer) pair, or leave no file behind: every writer fills a temporary file
    beside its target, and the temporaries are renamed into place only when all are complete.

    An OSError names the target file, not the temporary one (a full disk says which output failed).
    """
    mask = os.umask(0)
    os.umask(mask)
    written: list[tuple[Path, Path]] = []
    try:
        for named, write in outputs:
            try:
                if named.exists() and not named.is_file():
                    # A device or pipe (/dev/stdout, /dev/null): written in place, never replaced.
                    with open(named, "wb") as handle:
                        write(handle)
                    continue
                # A link to a file: the file it points at is replaced, the link stays.
                target = named.resolve() if named.is_symlink() else named
                descriptor, temporary_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part",
                                                              dir=target.parent if str(target.parent) else ".")
                written.append((Path(temporary_name), target))
                with os.fdopen(descriptor, "wb") as handle:
                    write(handle)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.chmod(temporary_name, 0o666 & ~mask)   # as an ordinary new file would be
            except OSError as error:
                raise OSError(error.errno, error.strerror or str(error), str(named)) from None
        for temporary, final in written:
            os.replace(temporary, final)
    finally:
        for temporary, _ in written:
            temporary.unlink(missing_ok=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0, or 2 after printing one sentence to stderr)."""
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            raise UsageError("Give a command: `python -m cfrviz solve GAME --algorithm A --iterations N`.")
        if args.command == "compare":
            cli_compare.run(args, _writable, write_all_or_none)
            return 0
        if args.command == "site":
            return site_command.run(args)
        settings = check_arguments(args)
        from cfrviz import solving
        run = solving.solve_settings(settings, args.snapshots)
        # The file is made before the report is printed: a refusal prints its sentence alone.
        page = None if args.html is None else _html_page(args, run)
        format_report(run, sys.stdout)
        outputs: list[tuple[Path, Callable[[IO[bytes]], object]]] = []
        if args.json is not None:
            def write_strategy(handle: IO[bytes]) -> None:
                handle.write(export_strategy(run).encode("utf-8"))

            outputs.append((args.json, write_strategy))
        if args.out is not None:
            outputs.append((args.out, lambda handle: save_run(run, handle)))
        if args.html is not None and page is not None:
            outputs.append((args.html, lambda handle: handle.write(page)))
        write_all_or_none(outputs)
    except ValueError as error:   # UsageError, and bad settings caught by the library itself
        print(f"cfrviz: {error}", file=sys.stderr)
        return USAGE_ERROR
    except OSError as error:
        print(f"cfrviz: {write_failure(error)}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        print("cfrviz: interrupted.", file=sys.stderr)
        return 130
    return 0

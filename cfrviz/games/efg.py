"""A strict reader for Gambit's extensive-form `.efg` files (two players, perfect recall).

The format is Gambit's "The extensive game (.efg) file format": a prologue
`EFG 2 R "title" { "Player 1" "Player 2" } "comment"`, then the nodes in prefix order:

    c "name" event "event name" { "a" 1/2 "b" 1/2 } outcome "outcome name" { payoffs }
    p "name" player infoset "infoset name" { "act" "act" } outcome ...
    t "name" outcome "outcome name" { payoffs }

A repeated information set, event or outcome may omit its description, or repeat it
exactly. Outcome 0 is none. Outcomes at inner nodes add to the payoffs below them.

Everything is read exactly (chance probabilities and payoffs as fractions), checked, and
turned into an `ExplicitGame`. Names (title, players, nodes, sets, actions, outcomes) are kept
as plain one-line text: characters that mean something to Markdown, HTML or LaTeX
(`` ` * [ ] < > $ ~ \\ { } ``) and control characters are dropped, and long names cut
(the file's own text stays in `EfgGame.text`). What CFR here cannot solve is refused with one sentence
naming the line: more or fewer than two players, payoffs that are not constant-sum,
chance probabilities that do not sum to 1, an information set whose actions differ
between its nodes, a player who forgets (no perfect recall: CFR's guarantees need it),
syntax errors, and files or trees over the size caps. Nothing in a file is executed.

A constant-sum game (u1 + u2 = c at every end) is solved as the zero-sum game with
player 1's payoff u1 - c/2 = (u1 - u2) / 2: the same best responses and equilibria,
values shifted by c/2. The game's `description` says so.
"""
from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from cfrviz.util import memory
from cfrviz.util.files import read_ordinary_file
from cfrviz.games.base import InformationSet
from cfrviz.util.vocabulary import Player
from cfrviz.games.explicit import ExplicitGame, unique_labels, walk_tree
from cfrviz.games.efg_tokens import EfgError, fraction_text, plain_comment, plain_label, sentence_text, tokenize

if TYPE_CHECKING:
    from cfrviz.games.efg_tokens import Token

__all__ = ["MAX_EFG_ACTIONS", "MAX_EFG_BYTES", "MAX_EFG_DEPTH", "MAX_EFG_NODES", "EfgGame", "bundled_games",
           "load_efg", "read_bundled", "read_efg"]


#: Largest .efg file read, in bytes (Kuhn poker is about 2 kB, Leduc poker would be about 0.6 MB).
MAX_EFG_BYTES = 1_000_000
#: Most nodes in a tree read from a file.
MAX_EFG_NODES = 100_000
#: Most actions or chance outcomes at one node (13-card Kuhn poker deals 156 ways; one wide node would
#: otherwise widen every [information sets x actions] array).
MAX_EFG_ACTIONS = 500
#: Deepest node (moves from the root) in a tree read from a file; every walk of a tree is iterative,
#: and solves, layouts and tree parts of a chain this deep take seconds, not minutes.
MAX_EFG_DEPTH = 2_000
#: Largest payoff magnitude after summing outcomes along a path.
MAX_PAYOFF = Fraction(10) ** 15
#: Largest common denominator of one node's chance probabilities, and of all payoffs: exact sums stay
#: cheap (a file of fractions with ever new denominators would otherwise make them slow).
MAX_COMMON_DENOMINATOR = 10**40


@dataclass(frozen=True, eq=False)
class EfgGame(ExplicitGame):
    """A game read from a `.efg` file. `text` is the file as read, so a saved run can rebuild it.

    `payoff_shift` is c/2 for a constant-sum file (subtracted from player 1's payoffs);
    `bundled` is the bundled game's name when the game ships with cfrviz.
    """

    text: str = ""
    sha256: str = ""
    comment: str = ""
    payoff_shift: Fraction = Fraction(0)
    bundled: str | None = None


_NATURAL = re.compile(r"\d+")


# --- parsing ------------------------------------------------------------------------------

@dataclass
class _Node:
    kind: str                       # "c", "p" or "t"
    name: str
    line: int
    player: int                     # 0 or 1 at "p" nodes, else -1
    infoset: int                    # per-player set id at "p", event id at "c", else -1
    outcome: tuple[Fraction, Fraction] | None
    children: list[int]


@dataclass(frozen=True)
class _InfosetDeclaration:
    name: str
    actions: tuple[str, ...]
    probabilities: tuple[Fraction, ...]     # chance events only
    line: int
    number: int


class _Parser:
    def __init__(self, tokens: list[Token], source: str, last_line: int) -> None:
        self.tokens = tokens
        self.source = source
        self.last_line = last_line
        self.at = 0
        self.players: tuple[str, ...] = ()
        self.player_sets: dict[tuple[int, int], _InfosetDeclaration] = {}
        self.set_order: list[tuple[int, int]] = []
        self.events: dict[int, _InfosetDeclaration] = {}
        self.outcomes: dict[int, tuple[str, tuple[Fraction, ...], int]] = {}
        self.payoff_denominator = 1

    # small helpers -------------------------------------------------------------------------
    def fail(self, line: int, problem: str) -> EfgError:
        return EfgError(f"Line {line} of {self.source}: {problem}")

    def peek(self) -> Token | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, kind: str, what: str) -> Token:
        token = self.peek()
        if token is None:
            raise self.fail(self.last_line, f"the file ends where {what} was expected.")
        if token.kind != kind:
            raise self.fail(token.line, f"expected {what}, found {self.show(token)}.")
        self.at += 1
        return token

    @staticmethod
    def show(token: Token) -> str:
        if token.kind == "string":
            return f'the text "{sentence_text(token.text, 30)}"'
        return f"'{sentence_text(token.text, 30)}'"

    def natural(self, what: str) -> tuple[int, int]:
        token = self.take("number", what)
        if not _NATURAL.fullmatch(token.text) or len(token.text) > 9:
            raise self.fail(token.line, f"expected {what}, found '{token.text}'.")
        return int(token.text), token.line

    def number(self, what: str) -> Fraction:
        token = self.take("number", what)
        try:
            value = Fraction(token.text)
        except (ValueError, ZeroDivisionError):
            raise self.fail(token.line, f"'{token.text}' is not a number cfrviz can read.") from None
        return value

    def open_list(self) -> int:
        return self.take("{", "'{'").line

    def close_or_none(self) -> bool:
        token = self.peek()
        if token is not None and token.kind == "}":
            self.at += 1
            return True
        return False

    def list_item(self, kind: str, what: str, opened: int) -> None:
        token = self.peek()
        if token is None:
            raise self.fail(self.last_line, f"the list opened on line {opened} is never closed with '}}'.")
        if token.kind != kind:
            raise self.fail(token.line, f"expected {what} or '}}' to close the list opened on line {opened}, "
                                        f"found {self.show(token)}.")

    # prologue ------------------------------------------------------------------------------
    def prologue(self) -> tuple[str, str]:
        first = self.peek()
        if first is None:
            raise self.fail(1, "the file is empty; a Gambit game file starts with 'EFG 2 R'.")
        if first.kind != "word" or first.text != "EFG":
            raise self.fail(first.line, "a Gambit extensive-form file starts with 'EFG 2 R', "
                                        f"found {self.show(first)}.")
        self.at += 1
        version, line = self.natural("the version number 2")
        if version != 2:
            raise self.fail(line, f"only version 2 of the .efg format is read, not {version}.")
        letter = self.take("word", "the letter R")
        if letter.text not in ("R", "D"):
            raise self.fail(letter.line, f"expected the letter R after 'EFG 2', found '{sentence_text(letter.text, 20)}'.")
        title = plain_label(self.take("string", "the game's title in quotes").text, 100)
        opened = self.open_list()
        names: list[str] = []
        while not self.close_or_none():
            self.list_item("string", "a player's name in quotes", opened)
            names.append(plain_label(self.take("string", "a player's name").text, 40))
        if len(names) != 2:
            raise self.fail(opened, f"the game lists {len(names)} player{'s' if len(names) != 1 else ''}; "
                                    "cfrviz solves two-player games only.")
        self.players = tuple(names)
        comment = ""
        token = self.peek()
        if token is not None and token.kind == "string":
            comment = plain_comment(self.take("string", "the comment").text)
        return title, comment

    # nodes ---------------------------------------------------------------------------------
    def actions_of_player_set(self, player: int, number: int, line: int) -> _InfosetDeclaration:
        token = self.peek()
        known = self.player_sets.get((player, number))
        if token is None or token.kind != "string":
            if known is None:
                raise self.fail(line, f"information set {number} of player {player + 1} is used before its "
                                      "actions are listed.")
            return known
        name = plain_label(self.take("string", "the information set's name").text, 300)
        opened = self.open_list()
        actions: list[str] = []
        while not self.close_or_none():
            self.list_item("string", "an action name in quotes", opened)
            self.at_most(len(actions), line, "actions")
            actions.append(plain_label(self.take("string", "an action name").text, 60))
        declared = _InfosetDeclaration(name, self.named(actions, line, "an action"), (), line, number)
        if known is None:
            if not actions:
                raise self.fail(line, f"information set {number} of player {player + 1} has no actions.")
            self.player_sets[(player, number)] = declared
            self.set_order.append((player, number))
            return declared
        if known.actions != declared.actions:
            raise self.fail(line, f"information set {number} of player {player + 1} has the actions "
                                  f"{sentence_text(', '.join(declared.actions), 60)} here but "
                                  f"{sentence_text(', '.join(known.actions), 60)} on line {known.line}; "
                                  "the actions of one information set must be the same.")
        if known.name != declared.name:
            raise self.fail(line, f"information set {number} of player {player + 1} is named "
                                  f"\"{sentence_text(declared.name)}\" here but \"{sentence_text(known.name)}\" on line {known.line}.")
        return known

    def at_most(self, listed: int, line: int, what: str) -> None:
        if listed >= MAX_EFG_ACTIONS:
            raise self.fail(line, f"this node has more than {MAX_EFG_ACTIONS} {what}; cfrviz reads at most "
                                  f"{MAX_EFG_ACTIONS} at one node.")

    def named(self, names: list[str], line: int, what: str) -> tuple[str, ...]:
        # Gambit allows empty labels; arrays and the screen need names, so number them.
        filled = tuple(name if name else str(k + 1) for k, name in enumerate(names))
        if len(set(filled)) != len(filled):
            seen: set[str] = set()
            for twice in filled:
                if twice in seen:
                    break
                seen.add(twice)
            raise self.fail(line, f"{what} is named \"{sentence_text(twice)}\" twice at this node.")
        return filled

    def chance_event(self, number: int, line: int) -> _InfosetDeclaration:
        token = self.peek()
        known = self.events.get(number)
        if token is None or token.kind != "string":
            if known is None:
                raise self.fail(line, f"chance event {number} is used before its outcomes are listed.")
            return known
        name = plain_label(self.take("string", "the chance event's name").text, 60)
        opened = self.open_list()
        labels: list[str] = []
        probabilities: list[Fraction] = []
        while not self.close_or_none():
            self.list_item("string", "a chance outcome's name in quotes", opened)
            self.at_most(len(labels), line, "chance outcomes")
            labels.append(plain_label(self.take("string", "a chance outcome's name").text, 60))
            p = self.number("the chance outcome's probability")
            if p < 0:
                raise self.fail(line, f"the chance probability {fraction_text(p)} is negative.")
            probabilities.append(p)
        if not labels:
            raise self.fail(line, f"chance event {number} has no outcomes.")
        common = 1
        for p in probabilities:
            common = math.lcm(common, p.denominator)
            if common > MAX_COMMON_DENOMINATOR:
                raise self.fail(line, "the chance probabilities here have denominators too varied to add up "
                                      "exactly (their common denominator passes 10^40).")
        total = Fraction(sum(p.numerator * (common // p.denominator) for p in probabilities), common)
        if total != 1:
            raise self.fail(line, f"the chance probabilities here sum to {fraction_text(total)}, not exactly 1 "
                                  "(write thirds as 1/3, not 0.333).")
        declared = _InfosetDeclaration(name, self.named(labels, line, "a chance outcome"), tuple(probabilities),
                                       line, number)
        if known is None:
            self.events[number] = declared
            return declared
        if (known.actions, known.probabilities, known.name) != (declared.actions, declared.probabilities,
                                                                declared.name):
            raise self.fail(line, f"chance event {number} is described differently here and on line {known.line}.")
        return known

    def outcome(self) -> tuple[Fraction, Fraction] | None:
        number, line = self.natural("an outcome number (0 for none)")
        token = self.peek()
        described = token is not None and token.kind == "string"
        if number == 0:
            if described:
                raise self.fail(line, "outcome 0 means no outcome and must not have a name or payoffs.")
            return None
        known = self.outcomes.get(number)
        if not described:
            if known is None:
                raise self.fail(line, f"outcome {number} is used before its payoffs are given.")
            return (known[1][0], known[1][1])
        name = plain_label(self.take("string", "the outcome's name").text, 60)
        opened = self.open_list()
        payoffs: list[Fraction] = []
        while not self.close_or_none():
            token = self.peek()
            if token is not None and token.kind == "," and payoffs:
                self.at += 1
                continue
            self.list_item("number", "a payoff", opened)
            payoffs.append(self.number("a payoff"))
        if len(payoffs) != len(self.players):
            raise self.fail(line, f"outcome {number} gives {len(payoffs)} payoffs for {len(self.players)} players.")
        if known is not None and (known[0], known[1]) != (name, tuple(payoffs)):
            raise self.fail(line, f"outcome {number} is described differently here and on line {known[2]}.")
        if known is None:
            for payoff in payoffs:
                self.payoff_denominator = math.lcm(self.payoff_denominator, payoff.denominator)
            if self.payoff_denominator > MAX_COMMON_DENOMINATOR:
                raise self.fail(line, "the payoffs so far have denominators too varied to add up exactly "
                                      "(their common denominator passes 10^40).")
            self.outcomes[number] = (name, tuple(payoffs), line)
        return (payoffs[0], payoffs[1])

    def body(self) -> list[_Node]:
        nodes: list[_Node] = []
        open_children: list[tuple[int, int]] = []   # (node, children still to read)
        while True:
            token = self.peek()
            if token is None:
                if not nodes:
                    raise self.fail(self.last_line, "the file has no nodes after its prologue.")
                missing = sum(left for _, left in open_children)
                raise self.fail(self.last_line, f"the file ends before the tree is complete ({missing} more "
                                                f"node{'s' if missing != 1 else ''} expected).")
            if token.kind != "word" or token.text not in ("c", "p", "t"):
                raise self.fail(token.line, f"expected a node ('c', 'p' or 't'), found {self.show(token)}.")
            if len(nodes) >= MAX_EFG_NODES:
                raise self.fail(token.line, f"the tree has more than {MAX_EFG_NODES:,} nodes, more than cfrviz "
                                            "draws or solves interactively.")
            self.at += 1
            name = plain_label(self.take("string", "the node's name in quotes (\"\" for none)").text, 60)
            kind, line = token.text, token.line
            width = 0
            if kind == "c":
                number, _ = self.natural("the chance event's number")
                event = self.chance_event(number, line)
                node = _Node(kind, name, line, -1, number, None, [])
                width = len(event.actions)
            elif kind == "p":
                player, player_line = self.natural("the player's number")
                if not 1 <= player <= len(self.players):
                    raise self.fail(player_line, f"player {player} is not one of the game's "
                                                 f"{len(self.players)} players.")
                number, _ = self.natural("the information set's number")
                declared = self.actions_of_player_set(player - 1, number, line)
                node = _Node(kind, name, line, player - 1, number, None, [])
                width = len(declared.actions)
            else:
                node = _Node(kind, name, line, -1, -1, None, [])
            node.outcome = self.outcome()
            index = len(nodes)
            nodes.append(node)
            if open_children:
                parent, left = open_children[-1]
                nodes[parent].children.append(index)
                if left == 1:
                    open_children.pop()
                else:
                    open_children[-1] = (parent, left - 1)
            if width:
                if len(open_children) >= MAX_EFG_DEPTH:
                    raise self.fail(line, f"the tree goes more than {MAX_EFG_DEPTH:,} moves deep here; cfrviz "
                                          f"reads trees up to {MAX_EFG_DEPTH:,} moves deep.")
                open_children.append((index, width))
            if not open_children:
                break
        token = self.peek()
        if token is not None:
            raise self.fail(token.line, f"text follows the last node of the tree ({self.show(token)}).")
        return nodes


# --- checks and the game ------------------------------------------------------------------

def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:40].strip("-") or "game"


def _build(text: str, source: str, name: str | None, bundled: str | None) -> EfgGame:
    tokens = tokenize(text, source)
    parser = _Parser(tokens, source, text.count("\n") + 1)
    title, comment = parser.prologue()
    nodes = parser.body()
    fail = parser.fail
    if not parser.player_sets:
        raise fail(nodes[0].line, "the game has no decisions for either player, so there is nothing to solve.")

    widest = max(len(parser.player_sets[key].actions) for key in parser.set_order)
    try:
        memory.check_tree_size(f"The game in {source}", len(nodes), len(parser.set_order), widest)
    except ValueError as error:
        raise EfgError(str(error)) from None
    set_index = {key: i for i, key in enumerate(parser.set_order)}
    actor = tuple(Player.CHANCE if node.kind == "c" else Player.TERMINAL if node.kind == "t"
                  else (Player.FIRST if node.player == 0 else Player.SECOND) for node in nodes)
    edge_labels = tuple(parser.events[node.infoset].actions if node.kind == "c"
                        else parser.player_sets[(node.player, node.infoset)].actions if node.kind == "p"
                        else () for node in nodes)
    infoset = tuple(set_index[(node.player, node.infoset)] if node.kind == "p" else -1 for node in nodes)
    children = tuple(tuple(node.children) for node in nodes)
    walk = walk_tree(actor, children, edge_labels, infoset, len(set_index))
    if walk.forgetful is not None:
        node, earlier = (nodes[k] for k in walk.forgetful)
        raise fail(node.line, f"player {node.player + 1} would forget at information set {node.infoset} what they "
                              f"did or saw before (this node and line {earlier.line} follow different own moves); "
                              "CFR needs perfect recall.")

    # Outcomes add up along each path; nodes are in prefix order, so a parent precedes its children.
    zero = (Fraction(0), Fraction(0))
    so_far = [zero] * len(nodes)
    totals: dict[int, tuple[Fraction, Fraction]] = {}
    for n, node in enumerate(nodes):
        if node.outcome is not None:
            so_far[n] = (so_far[n][0] + node.outcome[0], so_far[n][1] + node.outcome[1])
        for child in node.children:
            so_far[child] = so_far[n]
        if node.kind == "t":
            totals[n] = so_far[n]

    # Constant-sum check, exactly, in file order.
    ends = sorted(totals)
    constant = sum(totals[ends[0]], Fraction(0))
    for n in ends:
        total = sum(totals[n], Fraction(0))
        if total != constant:
            raise fail(nodes[n].line, f"the payoffs here sum to {fraction_text(total)} but to {fraction_text(constant)} on line "
                                      f"{nodes[ends[0]].line}; CFR here needs a constant-sum game "
                                      "(what one player wins, the other loses).")
        if abs(totals[n][0]) > MAX_PAYOFF or abs(totals[n][1]) > MAX_PAYOFF:
            raise fail(nodes[n].line, "a payoff here is larger than 10^15 in size.")
    shift = constant / 2

    # Keys: the file's information-set names when every set has a distinct one, else "P1:3".
    declared = [parser.player_sets[key] for key in parser.set_order]
    names = [d.name for d in declared]
    if all(names) and len(set(names)) == len(names):
        keys = names
    else:
        keys = [f"P{p + 1}:{number}" for p, number in parser.set_order]
    infosets = tuple(InformationSet(keys[i], Player(parser.set_order[i][0]), None, None, walk.histories[i],
                                    declared[i].actions) for i in range(len(declared)))
    probabilities = tuple(tuple(float(p) for p in parser.events[node.infoset].probabilities) if node.kind == "c"
                          else () for node in nodes)
    # Node names from the file where they are given and distinct, else the path of moves.
    given = [node.name for node in nodes]
    counts: dict[str, int] = {}
    for label in given:
        counts[label] = counts.get(label, 0) + 1
    labels = unique_labels([given[n] if given[n] and counts[given[n]] == 1 else walk.path_labels[n]
                            for n in range(len(nodes))])
    payoff = tuple(float(totals[n][0] - shift) if n in totals else 0.0 for n in range(len(nodes)))

    description = comment.strip()
    if shift != 0:
        note = (f"The payoffs sum to {fraction_text(constant)} at every end of the game; player 1's payoffs are counted "
                f"less {fraction_text(shift)} (and player 2's likewise), which keeps every equilibrium and makes the "
                "game zero-sum.")
        description = f"{description}\n\n{note}" if description else note
    return EfgGame(
        name=name or _slug(title), title=title.strip() or "Untitled game", actor=actor,
        children=children, edge_labels=edge_labels, chance_probabilities=probabilities, infoset=infoset,
        infosets=infosets, payoff=payoff, labels=labels, description=description,
        players=(parser.players[0], parser.players[1]), text=text,
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(), comment=comment, payoff_shift=shift,
        bundled=bundled)


def _decode(data: str | bytes, source: str) -> str:
    size = len(data.encode("utf-8")) if isinstance(data, str) else len(data)
    if size > MAX_EFG_BYTES:
        raise EfgError(f"{source[:1].upper()}{source[1:]} is {size:,} bytes; cfrviz reads .efg files up to "
                       f"{MAX_EFG_BYTES:,} bytes.")
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise EfgError(f"Line {line} of {source}: the file is not UTF-8 text.") from None


def read_efg(text: str | bytes, *, source: str = "the file", name: str | None = None) -> EfgGame:
    """The game in a Gambit `.efg` text; EfgError (a ValueError) says in one sentence what is wrong and where.

    `source` names the text in messages; `name` overrides the game's short name (by default
    a slug of its title).

    >>> game = read_efg('EFG 2 R "Matching pennies" { "A" "B" } '
    ...                 'p "" 1 1 "" { "H" "T" } 0 '
    ...                 'p "" 2 1 "" { "h" "t" } 0 t "" 1 "win" { 1 -1 } t "" 2 "lose" { -1 1 } '
    ...                 'p "" 2 1 "" { "h" "t" } 0 t "" 2 t "" 1')
    >>> game.name, len(game.infosets), game.payoff[2]
    ('matching-pennies', 2, 1.0)
    """
    source = sentence_text(source, 80)
    return _build(_decode(text, source), source, name, None)


def load_efg(path: str | Path) -> EfgGame:
    """The game in the `.efg` file at `path`, an ordinary file of at most `MAX_EFG_BYTES` bytes."""
    path = Path(path)
    shown = sentence_text(path.name, 80)
    try:
        # Ordinary files only, read to the limit: a device, a FIFO or a /proc file has no honest size.
        data = read_ordinary_file(path, MAX_EFG_BYTES, shown=shown, what=".efg")
    except ValueError as refusal:
        raise EfgError(str(refusal)) from None
    except OSError as error:
        raise EfgError(f"Cannot read {shown}: {sentence_text(str(error.strerror or error), 80)}.") from None
    return _build(_decode(data, shown), shown, None, None)


# --- games that ship with cfrviz ------------------------------------------------------------

@lru_cache(maxsize=1)
def _bundled_files() -> dict[str, str]:
    folder = resources.files("cfrviz.games.data").joinpath("games")
    return {Path(entry.name).stem: entry.read_text(encoding="utf-8")
            for entry in sorted(folder.iterdir(), key=lambda e: e.name) if entry.name.endswith(".efg")}


def bundled_games() -> dict[str, str]:
    """Name -> title of the `.efg` games that ship with cfrviz, in name order."""
    return {name: read_bundled(name).title for name in _bundled_files()}


@lru_cache(maxsize=32)
def read_bundled(name: str) -> EfgGame:
    """The bundled game `name` (a key of `bundled_games()`), read once per process; ValueError lists the names."""
    files = _bundled_files()
    if name not in files:
        raise EfgError(f"No bundled game {name!r}; choose one of: {', '.join(files)}.")
    return _build(files[name], f"{name}.efg", name, name)

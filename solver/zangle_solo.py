"""Zangle solo deal solver: is a fully known solo deal winnable, one winning line, line counts.

A solo deal (``SoloDeal``) is the whole card order: the three face-up middle cards, the draw
pile (next card first) and the tableau piles (bottom to top). ``solve_deal`` runs a numba
depth-first search with a memo of finished states (keyed without pile order), ordering Zangles
that clear the most tableau cards first. It honours every solo rule option of ``ZangleOptions``
(``fill_empty_pile``, ``voluntary_discard``, ``z_cards``; the pile count is the deal's). Limits
(states, seconds) give ``solvable=None``: never a guessed answer. ``reference_solve`` is the plain
exhaustive search over the ``SoloGame`` engine that the tests compare against.

Moves are counted as *distinct choices*: Zangles that use the same cards are one move (they
leave the same position) and a fill into one of several empty piles is one move (the empty
piles are interchangeable).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from ..errors import FormatError, RuleError, SolverError
from ..jsonio import read_json_file

SOLO_FORMAT = "tanglekit-zangle-solo/1"
ID_PREFIX = "zangle:solo"
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


# --------------------------------------------------------------------------------------------
# Solo deals and their file format
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SoloDeal:
    """A solo deal with every card known. ``draw[0]`` is the next card drawn; piles bottom..top."""

    middle: tuple[str, ...]
    draw: tuple[str, ...]
    piles: tuple[tuple[str, ...], ...]
    options: object = None  # ZangleOptions (None = defaults with piles = len(piles))
    deck: object = None  # Deck (None = default deck)
    extra: dict = field(default_factory=dict, compare=False)

    def __post_init__(self):
        from ..games.zangle.cards import default_deck
        from ..games.zangle.rules import ZangleOptions

        if self.deck is None:
            object.__setattr__(self, "deck", default_deck())
        opts = self.options or ZangleOptions()
        if opts.piles != len(self.piles):
            opts = opts.with_(piles=len(self.piles))
        object.__setattr__(self, "options", opts)
        ids = list(self.middle) + list(self.draw) + [c for p in self.piles for c in p]
        bad = [c for c in ids if c not in self.deck.by_id]
        if bad:
            raise FormatError(f"solo deal: unknown card {bad[0]!r} in deck {self.deck.name!r}")
        if len(set(ids)) != len(ids):
            raise FormatError("solo deal: a card is used twice")
        if not 1 <= len(self.piles) <= 8:
            raise FormatError(f"solo deal: 1 to 8 piles, got {len(self.piles)}")
        if len(self.middle) > 3:
            raise FormatError(f"solo deal: at most 3 middle cards, got {len(self.middle)}")
        if len(self.middle) + len(self.draw) > 20:
            raise FormatError("solo deal: at most 20 middle and draw cards")

    @property
    def sequence(self) -> tuple[str, ...]:
        """The draw sequence: middle cards, then the draw pile."""
        return tuple(self.middle) + tuple(self.draw)

    def game(self):
        """A ``SoloGame`` at the start of this deal."""
        from ..games.zangle.solo import SoloGame, solo_layout

        return SoloGame(layout=solo_layout(self.middle, self.draw, self.piles), options=self.options,
                        deck=self.deck)

    @classmethod
    def from_game(cls, state) -> "SoloDeal":
        """The deal of a ``SoloGame`` position (its current cards, as a new start)."""
        if state.phase != "play":
            raise RuleError("a solo deal starts in the play phase (finish the fills first)")
        return cls(tuple(c.id for c in state.middle), tuple(c.id for c in state.draw),
                   tuple(tuple(c.id for c in p) for p in state.piles), state.options, state.deck)

    @classmethod
    def from_seed(cls, seed: int, options=None, deck=None) -> "SoloDeal":
        """The deal that ``SoloGame(seed=...)`` shuffles."""
        from ..games.zangle.solo import SoloGame

        return cls.from_game(SoloGame(seed=seed, options=options, deck=deck))

    def to_json(self) -> dict:
        from ..games.zangle.cards import default_deck

        opts = self.options.to_json()
        opts.pop("max_turns", None)
        data = {"format": SOLO_FORMAT, "deck": self.deck.name, "options": opts,
                "middle": list(self.middle), "draw": list(self.draw), "piles": [list(p) for p in self.piles]}
        if self.deck is not default_deck():
            data["deck_data"] = self.deck.to_json()
        return data

    # -- shareable ids ---------------------------------------------------------------------
    def params(self, grade: str | None = None) -> str:
        o = self.options
        parts = ["solo", f"piles={len(self.piles)}"]
        if o.fill_empty_pile != "must":
            parts.append(f"fill={o.fill_empty_pile}")
        if o.voluntary_discard:
            parts.append("discard=voluntary")
        if o.z_cards != "all":
            parts.append(f"z={o.z_cards}")
        if grade:
            parts.append(grade)
        return "zangle:" + ",".join(parts)

    def describe(self) -> str:
        """The description part of the descriptive ID: deck positions, base 36, 2 digits each;
        groups middle, draw, then each pile bottom..top, separated by '.'."""
        pos = {c.id: i for i, c in enumerate(self.deck.cards)}

        def enc(ids):
            return "".join(_B36[pos[c] // 36] + _B36[pos[c] % 36] for c in ids)

        return ".".join([enc(self.middle), enc(self.draw)] + [enc(p) for p in self.piles])

    def share_id(self, grade: str | None = None) -> str:
        return f"{self.params(grade)}:{self.describe()}"


def _parse_params(text: str):
    """``zangle:solo,piles=5,hard`` -> (options dict, grade or None)."""
    parts = text.split(",")
    if not parts or parts[0] != "zangle:solo":
        raise FormatError(f"not a Zangle solo ID: {text!r} (expected 'zangle:solo,...')")
    opts: dict = {}
    grade = None
    for p in parts[1:]:
        k, sep, v = p.partition("=")
        if not sep:
            from ..generators.zangle import DIFFICULTIES

            if k not in DIFFICULTIES:
                raise FormatError(f"Zangle solo ID: unknown word {k!r}")
            grade = k
        elif k == "piles":
            try:
                opts["piles"] = int(v)
            except ValueError:
                raise FormatError(f"Zangle solo ID: piles={v!r} is not a number") from None
        elif k == "fill":
            opts["fill_empty_pile"] = v
        elif k == "discard":
            opts["voluntary_discard"] = v == "voluntary"
        elif k == "z":
            opts["z_cards"] = v
        else:
            raise FormatError(f"Zangle solo ID: unknown parameter {k!r}")
    return opts, grade


def is_solo_id(text: str) -> bool:
    return isinstance(text, str) and text.startswith(ID_PREFIX)


def deal_from_id(text: str, deck=None) -> SoloDeal:
    """A solo deal from either ID form: ``zangle:solo,...:<description>`` or ``zangle:solo,...#<seed>``.

    The seed form runs the challenge generator with that seed (same params, same deal).
    """
    from ..games.zangle.cards import default_deck
    from ..games.zangle.rules import ZangleOptions

    deck = deck or default_deck()
    text = text.strip()
    if "#" in text:
        head, _, seed = text.partition("#")
        opts, grade = _parse_params(head)
        try:
            s = int(seed)
        except ValueError:
            raise FormatError(f"Zangle solo ID: seed {seed!r} is not a number") from None
        from ..generators.zangle import generate_challenge

        ch = generate_challenge(seed=s, difficulty=grade or "any", options=ZangleOptions(**opts), deck=deck)
        return ch.deal
    body = text[len(ID_PREFIX):]
    head, sep, desc = text.rpartition(":")
    if not sep or head in ("", "zangle") or not body:
        raise FormatError(f"not a Zangle solo ID: {text!r}")
    opts, _ = _parse_params(head)
    groups = desc.split(".")
    if len(groups) < 3:
        raise FormatError("Zangle solo ID: the description needs middle, draw and piles")
    cards = deck.cards

    def dec(g: str) -> tuple[str, ...]:
        if len(g) % 2:
            raise FormatError(f"Zangle solo ID: bad card group {g!r}")
        out = []
        for i in range(0, len(g), 2):
            try:
                k = _B36.index(g[i]) * 36 + _B36.index(g[i + 1])
                out.append(cards[k].id)
            except (ValueError, IndexError):
                raise FormatError(f"Zangle solo ID: bad card code {g[i:i + 2]!r}") from None
        return tuple(out)

    piles = tuple(dec(g) for g in groups[2:])
    opts["piles"] = len(piles)
    return SoloDeal(dec(groups[0]), dec(groups[1]), piles, ZangleOptions(**opts), deck)


def parse_solo_deal(data: dict, deck=None, source: str = "solo deal") -> SoloDeal:
    """A ``SoloDeal`` from its JSON form (a solo deal, or a challenge holding one under ``deal``)."""
    from ..games.zangle.cards import deck_from_json, default_deck
    from ..games.zangle.rules import ZangleOptions

    if isinstance(data, dict) and "deal" in data and isinstance(data["deal"], dict):
        data = data["deal"]
    if not isinstance(data, dict):
        raise FormatError(f"{source}: a solo deal is an object with 'middle', 'draw' and 'piles'")
    fmt = data.get("format", SOLO_FORMAT)
    if fmt != SOLO_FORMAT:
        raise FormatError(f"{source}: unknown format {fmt!r} (expected {SOLO_FORMAT!r})")
    for k in ("middle", "draw", "piles"):
        if not isinstance(data.get(k), list):
            raise FormatError(f"{source}: missing {k!r} list")
    if not all(isinstance(p, list) for p in data["piles"]):
        raise FormatError(f"{source}: 'piles' must be a list of lists (bottom card first)")
    if deck is None and "deck_data" in data:
        deck = deck_from_json(data["deck_data"], f"{source} deck")
    deck = deck or default_deck()
    opts = dict(data.get("options") or {})
    opts["piles"] = len(data["piles"])
    return SoloDeal(tuple(data["middle"]), tuple(data["draw"]), tuple(tuple(p) for p in data["piles"]),
                    ZangleOptions.from_json(opts), deck)


def load_solo_deal(source: str | Path, deck=None) -> SoloDeal:
    """A solo deal from a JSON file or from a shareable ID (either form)."""
    if is_solo_id(str(source)) and not Path(str(source)).exists():
        return deal_from_id(str(source), deck)
    return parse_solo_deal(read_json_file(source, "solo deal"), deck, str(source))


# --------------------------------------------------------------------------------------------
# The solver
# --------------------------------------------------------------------------------------------
@dataclass
class SoloResult:
    """What a search found. ``solvable`` is None when a limit stopped it (``reason`` says which)."""

    solvable: bool | None
    line: list = field(default_factory=list)  # engine Actions
    states: int = 0
    seconds: float = 0.0
    reason: str = "done"
    lines: int | None = None  # with count=True: distinct winning lines (capped at line_cap)
    lines_capped: bool = False
    playouts: int = 0
    playout_wins: int = 0

    @property
    def playout_rate(self) -> float | None:
        return self.playout_wins / self.playouts if self.playouts else None

    def to_json(self, full: bool = False) -> dict:
        d = {"solvable": self.solvable, "line": [a.to_json() for a in self.line], "states": self.states}
        if full:
            d.update(seconds=round(self.seconds, 6), reason=self.reason)
            if self.lines is not None or self.playouts:
                d.update(lines=self.lines, lines_capped=self.lines_capped, playouts=self.playouts,
                         playout_wins=self.playout_wins)
        return d


class _Packed:
    """A deal as kernel arrays: card numbers (draw sequence first), shape ids, piles."""

    def __init__(self, deal: SoloDeal):
        from .zangle_finder import deck_table

        self.deal = deal
        deck = deal.deck
        self.table = deck_table(deck)
        seq = list(deal.sequence)
        self.ids = seq + [c for p in deal.piles for c in p]
        self.nd = len(seq)
        self.m0 = len(deal.middle)
        self.sid = np.array([self.table.sid(deck.by_id[c].shape) for c in self.ids], dtype=np.int64)
        hmax = max([1] + [len(p) for p in deal.piles])
        self.piles = np.full((len(deal.piles), hmax), -1, dtype=np.int64)
        self.hts = np.array([len(p) for p in deal.piles], dtype=np.int64)
        k = self.nd
        for i, p in enumerate(deal.piles):
            for j in range(len(p)):
                self.piles[i, j] = k
                k += 1
        o = deal.options
        self.flags = (o.fill_empty_pile == "may", bool(o.voluntary_discard), o.z_cards == "minimal")
        if len(self.ids) > 62:
            raise SolverError("a solo deal has at most 62 cards")

    def kernel_args(self):
        t = self.table
        return (self.piles, self.hts, self.nd, self.m0, self.sid, t.area, t.h, t.g, t.keys, t.ent_t, t.ent_p,
                *self.flags)


_REASONS = {0: "done", 1: "node limit", 2: "time limit", 3: "move buffer overflow"}


def solve_deal(deal: SoloDeal, *, max_states: int = 2_000_000, time_limit: float | None = None,
               count: bool = False, line_cap: int = 100_000, playouts: int = 0, seed: int = 0) -> SoloResult:
    """Decide a solo deal: ``SoloResult`` with solvable True/False/None, one winning line (engine
    actions, checked by replaying them), states searched. ``count=True`` also counts distinct
    winning lines up to ``line_cap`` and runs ``playouts`` random playouts (default 1000)."""
    from . import _zangle_solo_kernel as K

    t0 = time.perf_counter()
    pk = _Packed(deal)
    max_memo = 1 << max(12, min(22, int(max_states * 2).bit_length()))  # <= 4M entries, 128 MB
    depth = pk.nd * (len(deal.piles) + 3) + 8
    line_k = np.zeros(depth + 1, dtype=np.int64)
    line_v = np.zeros(depth + 1, dtype=np.int64)
    stats = np.zeros(3, dtype=np.int64)
    deadline = (time.perf_counter() + time_limit) if time_limit else 0.0
    v = K.solve_kernel(*pk.kernel_args(), 1 if count else 0, max(1, line_cap) if count else 1,
                       max_states, deadline, max_memo, line_k, line_v, stats)
    res = SoloResult(None, [], int(stats[0]), 0.0, _REASONS[int(stats[2])])
    found = int(stats[1]) > 0
    if v >= 0:
        res.solvable = v > 0
    elif found:
        res.solvable = True  # a winning line was found before the limit
    if found:
        res.line = _to_actions(pk, line_k[: stats[1]], line_v[: stats[1]])
    if count:
        if v >= 0:
            res.lines = int(v)
            res.lines_capped = v >= line_cap
        n = playouts or 1000
        res.playouts = n
        res.playout_wins = int(K.playout_kernel(*pk.kernel_args(), n, seed))
    res.seconds = time.perf_counter() - t0
    return res


def playout_wins(deal: SoloDeal, n: int = 1000, seed: int = 0) -> int:
    """Wins out of ``n`` random playouts (uniform among the distinct moves of each position)."""
    from . import _zangle_solo_kernel as K

    return int(K.playout_kernel(*_Packed(deal).kernel_args(), n, seed))


def _to_actions(pk: _Packed, kinds, vals) -> list:
    """Kernel moves -> engine Actions, replayed on a SoloGame (a mismatch is a solver bug)."""
    from ..games.zangle.engine import Action

    g = pk.deal.game()
    out = []
    for k, v in zip(kinds.tolist(), vals.tolist()):
        if k == 0:
            used = {pk.ids[i] for i in range(len(pk.ids)) if (v >> i) & 1}
            a = next((a for a in g.legal_actions() if a.kind == "zangle" and {a.target, *a.pieces, *a.z} == used),
                     None)
        elif k == 1:
            a = Action("fill", src=v // 64, dst=v % 64)
        elif k == 2:
            a = Action("skip")
        else:
            a = Action("discard")
        if a is None or a not in g.legal_actions():
            raise SolverError(f"solo solver produced an illegal move {a} (kind {k})")
        g.apply(a)
        out.append(a)
    if g.outcome != "win":
        raise SolverError("solo solver's line does not win")
    return out


def check_line(deal: SoloDeal, line: Sequence) -> bool:
    """Whether playing ``line`` (Actions or their JSON) from the deal's start wins."""
    g = deal.game()
    try:
        for a in line:
            g.apply(a)
    except RuleError:
        return False
    return g.outcome == "win"


# --------------------------------------------------------------------------------------------
# Brute-force reference (plain exhaustive search over the engine; small deals only)
# --------------------------------------------------------------------------------------------
def distinct_actions(state) -> list:
    """The engine's legal actions with duplicates merged: Zangles by the cards they use, fills
    by source pile (into the first empty pile)."""
    seen = set()
    out = []
    first_empty = next((i for i, p in enumerate(state.piles) if not p), -1)
    for a in state.legal_actions():
        if a.kind == "zangle":
            k = ("z", frozenset((a.target, *a.pieces, *a.z)))
        elif a.kind == "fill":
            if a.dst != first_empty:
                continue
            k = ("f", a.src)
        else:
            k = (a.kind,)
        if k not in seen:
            seen.add(k)
            out.append(a)
    return out


def reference_solve(deal_or_state, max_nodes: int = 200_000, count: bool = False) -> tuple:
    """Exhaustive search without memo over ``SoloGame``: (solvable, winning lines, nodes).

    ``solvable`` is None if ``max_nodes`` ran out. Without ``count`` it stops at the first win
    (lines is then 0 or 1).
    """
    state = deal_or_state.game() if isinstance(deal_or_state, SoloDeal) else deal_or_state.fork()
    nodes = 0

    class Out(Exception):
        pass

    def rec(s) -> int:
        nonlocal nodes
        if s.outcome == "win":
            return 1
        if s.is_terminal():
            return 0
        nodes += 1
        if nodes > max_nodes:
            raise Out
        total = 0
        for a in distinct_actions(s):
            t = s.fork()
            t.apply(a)
            total += rec(t)
            if total and not count:
                return total
        return total

    try:
        n = rec(state)
    except Out:
        return None, 0, nodes
    return n > 0, n, nodes


__all__ = [
    "SOLO_FORMAT",
    "SoloDeal",
    "SoloResult",
    "check_line",
    "deal_from_id",
    "distinct_actions",
    "is_solo_id",
    "load_solo_deal",
    "parse_solo_deal",
    "playout_wins",
    "reference_solve",
    "solve_deal",
]


# --------------------------------------------------------------------------------------------
# Turn game: can one player go out?
# --------------------------------------------------------------------------------------------
def turn_go_out(state, player: int | None = None, max_states: int = 200_000, memo: bool = True) -> tuple:
    """Can ``player`` (default: the one to move) use all their cards in a turn-game round, with the
    middle draw order known and the other players never taking or drawing a card?

    Only that player's turns are played: build one Zangle (any of them), or when there is none
    draw one middle-pile card and build one if possible, else pass. Returns (True, line, states)
    with the player's actions, (False, [], states), or (None, [], states) at the state limit.
    ``memo=False`` is the plain exhaustive reference.
    """
    from ..games.zangle.engine import Action, zangle_actions
    from ..games.zangle.turn import FACE_UP, MIDDLE

    p = state.current if player is None else int(player)
    deck, opts = state.deck, state.options
    start = (tuple(state.own[p]), tuple(state.own_pile[p]), tuple(state.middle), tuple(state.middle_pile))
    seen: set = set()
    nodes = 0
    line: list = []

    class Out(Exception):
        pass

    def build(own, pile, mid, mpile, a):
        used = {a.target, *a.pieces, *a.z}
        own = [c for c in own if c.id not in used]
        mid = [c for c in mid if c.id not in used]
        mpile, pile = list(mpile), list(pile)
        while len(mid) < MIDDLE and mpile:
            mid.append(mpile.pop(0))
        while len(own) < FACE_UP and pile:
            own.append(pile.pop(0))
        return tuple(own), tuple(pile), tuple(mid), tuple(mpile)

    def try_distinct(zs, own, pile, mid, mpile) -> bool:
        """Try each Zangle once per set of cards used (Z-card choices aside); True on a win."""
        done = set()
        for a in zs:
            k = frozenset((a.target, *a.pieces, *a.z))
            if k in done:
                continue
            done.add(k)
            line.append(a)
            if rec(*build(own, pile, mid, mpile, a)):
                return True
            line.pop()
        return False

    def rec(own, pile, mid, mpile) -> bool:
        nonlocal nodes
        if not own and not pile:
            return True
        key = (frozenset(c.id for c in own), len(pile), frozenset(c.id for c in mid), len(mpile))
        if memo and key in seen:
            return False
        nodes += 1
        if nodes > max_states:
            raise Out
        zs = zangle_actions(list(mid), list(own), deck, opts)
        if zs:
            if try_distinct(zs, own, pile, mid, mpile):
                return True
        elif mpile:
            own2 = own + (mpile[0],)
            zs = zangle_actions(list(mid), list(own2), deck, opts)
            line.append(Action("draw"))
            if zs:
                if try_distinct(zs, own2, pile, mid, mpile[1:]):
                    return True
            else:
                line.append(Action("pass"))
                if rec(own2, pile, mid, mpile[1:]):
                    return True
                line.pop()
            line.pop()
        if memo:
            seen.add(key)
        return False

    try:
        ok = rec(*start)
    except Out:
        return None, [], nodes
    if ok:
        g = go_out_position(state, p)
        for a in line:
            g.apply(a)
        if g.cards_left(0) != 0:
            raise SolverError("go-out line does not empty the player's cards")
    return ok, (list(line) if ok else []), nodes


def go_out_position(state, player: int):
    """A one-player, one-round ``TurnGame`` holding ``player``'s cards and the middle of ``state``
    (the go-out question as a game: nobody else takes a card)."""
    from ..games.zangle.turn import TurnGame

    pos = {"middle": [c.id for c in state.middle], "own": [c.id for c in state.own[player]],
           "own_pile": [c.id for c in state.own_pile[player]],
           "middle_pile": [c.id for c in state.middle_pile]}
    opts = state.options.with_(stalemate_end=False)
    return TurnGame(deck=state.deck, options=opts, rounds=1, position=pos)


__all__ += ["turn_go_out", "go_out_position"]

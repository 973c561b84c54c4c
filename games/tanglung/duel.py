"""Tanglung two-player game: one match as a state machine, and the first-to-2-matches game.

Actions are tuples: ``("place", cell)`` (setup on a Rooster, or re-entry after a bump on an
unoccupied lit card that is not under the Fan), ``("rooster", dst, fan)`` (1 orthogonal step,
light ``dst``, the player's first Rooster action removes the Rooster card left, then the Fan
moves to ``fan``: another unoccupied card) and ``("lantern", dst)`` (only from a lit lantern:
move by its kind, light ``dst``, remove the card left, bump an opponent found on ``dst``).
A match is won by lighting the last dark card, by bumping the opponent a second time, or when
the opponent has no legal action on their turn (a bumped player with nowhere to re-enter).
Under the ``repetition`` rule option (default 3) a match whose position (everything but the
turn count) occurs for the third time ends drawn (``reason`` ``"repetition"``, no winner): only a
Rooster action onto a lit card after a player's first can repeat a position, so the count
restarts after any other action.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ...errors import FormatError, InvalidMoveError, RuleError
from ...jsonio import text_int
from .cards import EMPTY, KINDS, ROOSTER, CardSet, default_card_set
from .layout import N_CELLS, Layout, idx, random_layout, rc
from .moves import ORTHO, destinations
from .rules import TanglungOptions

CENTRE = (5, 6, 9, 10)
SETUP, REENTER, PLAY = "setup", "reenter", "play"
HIDDEN = "?"


def _cell_json(i: int | None):
    return None if i is None else list(rc(i))


def _cell_from(v) -> int | None:
    if v is None:
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, (list, tuple)) and len(v) == 2:
        return idx(int(v[0]), int(v[1]))
    raise FormatError(f"bad cell {v!r}: expected [row, col]")


class Match:
    """One two-player match (perfect information: ``cells`` holds every card, face up or down)."""

    __slots__ = ("cells", "lit", "boxes", "bumps", "used", "fan", "to_move", "phase", "winner",
                 "reason", "turns", "removed", "options", "history")

    def __init__(self, layout: Layout, options: TanglungOptions | None = None, starter: int = 0,
                 card_set: CardSet | None = None, validate: bool = True) -> None:
        self.options = options or TanglungOptions()
        if validate:
            layout.validate(card_set or default_card_set(), self.options)
        self.cells = list(layout.cells)
        lit = sum(1 << i for i in CENTRE if self.cells[i] != EMPTY)
        if self.options.roosters_start_lit:
            lit |= sum(1 << i for i, ch in enumerate(self.cells) if ch == ROOSTER)
        self.lit = lit
        self.boxes: list[int | None] = [None, None]
        self.bumps = [0, 0]
        self.used = [False, False]
        self.fan: int | None = None
        self.to_move = starter
        self.phase = [SETUP, SETUP]
        self.winner: int | None = None
        self.reason: str | None = None
        self.turns = 0
        self.removed: list[str] = []
        self.history: dict[int, int] = {}  # positions since the last irreversible action (repetition)

    # -- copying and keys --------------------------------------------------------------------
    def clone(self) -> "Match":
        m = Match.__new__(Match)
        m.cells = list(self.cells)
        m.lit = self.lit
        m.boxes = list(self.boxes)
        m.bumps = list(self.bumps)
        m.used = list(self.used)
        m.fan = self.fan
        m.to_move = self.to_move
        m.phase = list(self.phase)
        m.winner = self.winner
        m.reason = self.reason
        m.turns = self.turns
        m.removed = list(self.removed)
        m.options = self.options
        m.history = dict(self.history) if self.history else {}
        return m

    def key(self) -> int:
        """Compact integer encoding of everything that matters for play (not the turn count)."""
        k = 0
        for ch in self.cells:
            k = k * 8 + KIND_CODE[ch]
        k = (k << 16) | self.lit
        for b in self.boxes:
            k = k * 17 + (16 if b is None else b)
        k = k * 17 + (16 if self.fan is None else self.fan)
        k = k * 9 + self.bumps[0] * 3 + self.bumps[1]
        k = k * 4 + self.used[0] * 2 + self.used[1]
        k = k * 9 + PHASE_CODE[self.phase[0]] * 3 + PHASE_CODE[self.phase[1]]
        return k * 2 + self.to_move

    @property
    def layout(self) -> Layout:
        return Layout(tuple(self.cells))

    def is_over(self) -> bool:
        return self.winner is not None or self.reason == "repetition" or self.turns >= self.options.max_turns

    def dark_cells(self) -> list[int]:
        return [i for i, ch in enumerate(self.cells) if ch != EMPTY and not self.lit >> i & 1]

    # -- legal actions -------------------------------------------------------------------------
    def legal_actions(self) -> list[tuple]:
        if self.is_over():
            return []
        me = self.to_move
        phase = self.phase[me]
        opp = self.boxes[1 - me]
        if phase == SETUP:
            return [("place", i) for i, ch in enumerate(self.cells) if ch == ROOSTER and i != opp]
        if phase == REENTER:
            return [("place", i) for i in range(N_CELLS)
                    if self.cells[i] != EMPTY and self.lit >> i & 1 and i != opp and i != self.fan]
        out: list[tuple] = []
        pos = self.boxes[me]
        assert pos is not None
        r0, c0 = divmod(pos, 4)
        leaves_empty = not self.used[me] and self.cells[pos] == ROOSTER
        for dr, dc in ORTHO:
            r, c = r0 + dr, c0 + dc
            if not (0 <= r < 4 and 0 <= c < 4):
                continue
            d = r * 4 + c
            if self.cells[d] == EMPTY or d == self.fan or d == opp:
                continue
            for f in range(N_CELLS):
                if f == self.fan or f == d or f == opp or self.cells[f] == EMPTY:
                    continue
                if f == pos and leaves_empty:
                    continue
                out.append(("rooster", d, f))
        ch = self.cells[pos]
        if ch != ROOSTER and ch != EMPTY and self.lit >> pos & 1:
            others = {opp} if opp is not None else set()
            for d in destinations(self.cells, pos, ch, self.options, self.fan, others):
                out.append(("lantern", d))
        return out

    def _has_action(self) -> bool:
        """Whether the player to move has any legal action (cheaper than listing them)."""
        me = self.to_move
        phase = self.phase[me]
        opp = self.boxes[1 - me]
        if phase != PLAY:
            return bool(self.legal_actions())
        pos = self.boxes[me]
        ch = self.cells[pos]
        if ch != ROOSTER and ch != EMPTY and self.lit >> pos & 1:
            others = {opp} if opp is not None else set()
            if destinations(self.cells, pos, ch, self.options, self.fan, others):
                return True
        r0, c0 = divmod(pos, 4)
        free = sum(1 for i, x in enumerate(self.cells) if x != EMPTY and i != self.fan and i != opp)
        for dr, dc in ORTHO:
            r, c = r0 + dr, c0 + dc
            if 0 <= r < 4 and 0 <= c < 4:
                d = r * 4 + c
                if self.cells[d] != EMPTY and d != self.fan and d != opp:
                    # Fan spots: cards other than Fan, d, opp (and pos if it is removed)
                    spots = free - 1 - (1 if not self.used[me] and ch == ROOSTER else 0)
                    if spots > 0:
                        return True
        return False

    # -- applying ----------------------------------------------------------------------------
    def apply(self, action: tuple, check: bool = True) -> None:
        """Play ``action`` for the player to move (raises RuleError if illegal)."""
        if check and tuple(action) not in self.legal_actions():
            raise RuleError(f"illegal action {describe_action(action)} for player {self.to_move}")
        me = self.to_move
        kind = action[0]
        won = False
        # a Rooster action onto a lit card after the first is the only reversible action
        limit = self.options.repetition
        reversible = bool(limit) and kind == "rooster" and self.used[me] and bool(self.lit >> action[1] & 1)
        before = self.key() if reversible and not self.history else None
        if kind == "place":
            self.boxes[me] = action[1]
            self.phase[me] = PLAY
        elif kind == "rooster":
            _, d, f = action
            pos = self.boxes[me]
            if not self.used[me]:
                self.used[me] = True
                if self.cells[pos] == ROOSTER:
                    self._remove(pos)
            self.boxes[me] = d
            self.lit |= 1 << d
            self.fan = f
            won = self._all_lit()
            if won:
                self.reason = "lit-last"
        elif kind == "lantern":
            d = action[1]
            pos = self.boxes[me]
            self._remove(pos)
            self.boxes[me] = d
            self.lit |= 1 << d
            if self.boxes[1 - me] == d:
                self.boxes[1 - me] = None
                self.bumps[1 - me] += 1
                self.phase[1 - me] = REENTER
                if self.bumps[1 - me] >= 2:
                    won = True
                    self.reason = "bumped-twice"
            if not won and self._all_lit():
                won = True
                self.reason = "lit-last"
        else:
            raise RuleError(f"unknown action {action!r}")
        self.turns += 1
        if won:
            self.winner = me
            return
        self.to_move = 1 - me
        if not self.is_over() and not self._has_action():
            self.winner = me
            self.reason = "no-reentry" if self.phase[1 - me] == REENTER else "no-legal-action"
        if limit and self.winner is None:
            if not reversible:
                self.history = {}
            else:
                if before is not None:
                    self.history[before] = 1
                k = self.key()
                seen = self.history.get(k, 0) + 1
                self.history[k] = seen
                if seen >= max(limit, 2):
                    self.reason = "repetition"

    def _remove(self, i: int) -> None:
        self.removed.append(self.cells[i])
        self.cells[i] = EMPTY
        self.lit &= ~(1 << i)

    def _all_lit(self) -> bool:
        return all(ch == EMPTY or self.lit >> i & 1 for i, ch in enumerate(self.cells))

    # -- views and text ------------------------------------------------------------------------
    def observation(self, player: int | None = None) -> list[str]:
        """Cells as a player sees them: dark cards are ``?`` (None: everything revealed)."""
        if player is None:
            return list(self.cells)
        return [ch if ch == EMPTY or self.lit >> i & 1 else HIDDEN for i, ch in enumerate(self.cells)]

    def render_text(self, reveal: bool = False) -> str:
        """The grid: lit cards upper case, dark lower case (or ``?`` hidden), the matchboxes of
        players 0 and 1 as 0 / 1, Fan *."""
        view = self.cells if reveal else self.observation(self.to_move)
        lines = []
        for r in range(4):
            row = []
            for c in range(4):
                i = r * 4 + c
                ch = view[i]
                if ch not in (EMPTY, HIDDEN) and not self.lit >> i & 1:
                    ch = ch.lower()
                mark = "0" if self.boxes[0] == i else "1" if self.boxes[1] == i else "*" if self.fan == i else " "
                row.append(f"{ch}{mark}")
            lines.append(" ".join(row))
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {
            "layout": str(Layout(tuple(self.cells))),
            "lit": "/".join("".join("1" if self.lit >> (r * 4 + c) & 1 else "0" for c in range(4)) for r in range(4)),
            "boxes": [_cell_json(b) for b in self.boxes],
            "bumps": list(self.bumps),
            "rooster_used": list(self.used),
            "fan": _cell_json(self.fan),
            "to_move": self.to_move,
            "phase": list(self.phase),
            "winner": self.winner,
            "reason": self.reason,
            "turns": self.turns,
            "removed": "".join(self.removed),
            "options": self.options.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict, options: TanglungOptions | None = None) -> "Match":
        """Inverse of :meth:`to_json` (a position to analyse; counts may be partial)."""
        try:
            layout = Layout.parse(data["layout"])
            opts = options or TanglungOptions.from_dict(data.get("options"))
            m = cls(layout, opts, validate=False)
            if "lit" in data:
                bits = str(data["lit"]).replace("/", "")
                if len(bits) != 16 or set(bits) - {"0", "1"}:
                    raise FormatError("lit must be 16 0/1 digits (rows split by /)")
                m.lit = sum(1 << i for i, b in enumerate(bits) if b == "1")
            m.lit &= sum(1 << i for i, ch in enumerate(m.cells) if ch != EMPTY)
            m.boxes = [_cell_from(b) for b in data.get("boxes", [None, None])]
            m.bumps = [int(b) for b in data.get("bumps", [0, 0])]
            m.used = [bool(u) for u in data.get("rooster_used", [False, False])]
            m.fan = _cell_from(data.get("fan"))
            m.to_move = int(data.get("to_move", 0))
            m.phase = list(data.get("phase", [PLAY if b is not None else SETUP for b in m.boxes]))
            m.winner = data.get("winner")
            m.reason = data.get("reason")
            m.turns = int(data.get("turns", 0))
            m.removed = list(data.get("removed", ""))
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, FormatError):
                raise
            raise FormatError(f"bad Tanglung match state: {e}") from None
        for j in (0, 1):
            b = m.boxes[j]
            if m.phase[j] not in (SETUP, REENTER, PLAY):
                raise FormatError(f"bad phase {m.phase[j]!r}")
            if m.phase[j] == PLAY and (b is None or m.cells[b] == EMPTY):
                raise FormatError(f"player {j} is in play but not on a card")
        if m.to_move not in (0, 1):
            raise FormatError("to_move must be 0 or 1")
        if m.fan is not None and m.cells[m.fan] == EMPTY:
            raise FormatError("the Fan must be on a card, not on an empty space")
        if m.boxes[0] is not None and m.boxes[0] == m.boxes[1]:
            raise FormatError("the two matchboxes cannot share a card")
        return m


KIND_CODE = {ch: i for i, ch in enumerate(list(KINDS) + [EMPTY])}
PHASE_CODE = {SETUP: 0, REENTER: 1, PLAY: 2}


def describe_action(action) -> str:
    """Human text for an action, cells as row,col."""
    kind = action[0]
    if kind == "place":
        return f"place {rc(action[1])[0]},{rc(action[1])[1]}"
    if kind == "rooster":
        d, f = rc(action[1]), rc(action[2])
        return f"rooster {d[0]},{d[1]} fan {f[0]},{f[1]}"
    if kind == "lantern":
        d = rc(action[1])
        return f"lantern {d[0]},{d[1]}"
    return repr(action)


def parse_action(text: str) -> tuple:
    """Inverse of :func:`describe_action` (``place r,c`` / ``rooster r,c fan r,c`` / ``lantern r,c``);
    ``InvalidMoveError`` (a ``FormatError``) for text that is not such an action."""
    text = str(text)
    shown = text if len(text) <= 60 else text[:57] + "..."
    bad = f"bad action {shown!r}: e.g. 'lantern 1,2' or 'rooster 1,1 fan 2,3'"
    parts = text.replace("fan", " ").split()
    try:
        kind = parts[0].lower()
        rcs = [tuple(map(text_int, p.split(","))) for p in parts[1:]]
        if any(len(x) != 2 for x in rcs):
            raise ValueError
    except (IndexError, ValueError):
        raise InvalidMoveError(bad) from None
    for r, c in rcs:
        if not (0 <= r < 4 and 0 <= c < 4):
            raise InvalidMoveError(f"cell {r},{c} in {shown!r} is off the 4x4 grid (rows and columns 0..3)")
    cells = [idx(r, c) for r, c in rcs]
    if kind in ("place", "lantern") and len(cells) == 1:
        return (kind, cells[0])
    if kind == "rooster" and len(cells) == 2:
        return (kind, cells[0], cells[1])
    raise InvalidMoveError(bad)


def hidden_pool(match: Match, card_set: CardSet | None = None) -> list[str]:
    """Letters of the face-down cards as a player can infer them (set minus seen cards)."""
    card_set = card_set or default_card_set()
    pool = dict(card_set.as_dict())
    seen = [ch for i, ch in enumerate(match.cells) if ch != EMPTY and match.lit >> i & 1] + match.removed
    for ch in seen:
        pool[ch] = pool.get(ch, 0) - 1
    return [k for k, n in pool.items() for _ in range(max(n, 0))]


def determinize(match: Match, rng: random.Random, card_set: CardSet | None = None) -> Match:
    """A copy whose face-down cards are a random arrangement consistent with what is visible."""
    m = match.clone()
    dark = m.dark_cells()
    pool = hidden_pool(match, card_set)
    rng.shuffle(pool)
    if len(pool) != len(dark):  # custom positions: fall back to the true cards
        return m
    for i, ch in zip(dark, pool):
        m.cells[i] = ch
    return m


@dataclass
class DuelGame:
    """First to 2 matches; each match gets a fresh standard layout from ``seed``. ``log`` holds
    every action of every match, so a game replays, undoes and continues from any position."""

    options: TanglungOptions = field(default_factory=TanglungOptions)
    seed: int = 0
    first_starter: int = 0
    card_set: CardSet | None = None
    layouts: list[str] = field(default_factory=list)
    log: list[tuple] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = random.Random(f"tanglung-duel:{self.seed}")
        moves, self.log = list(self.log), []
        self.score = [0, 0]
        self.results: list[tuple[int | None, str | None]] = []
        self.match = self._new_match(self.first_starter)
        for a in moves:
            self.play(tuple(a))

    def _layout(self, k: int) -> Layout:
        while len(self.layouts) <= k:
            self.layouts.append(str(random_layout(self._rng, self.card_set, self.options.not_so_zen)))
        return Layout.parse(self.layouts[k])

    def _new_match(self, starter: int) -> Match:
        self.starter = starter
        return Match(self._layout(len(self.results)), self.options, starter, self.card_set)

    @property
    def winner(self) -> int | None:
        for p in (0, 1):
            if self.score[p] >= 2:
                return p
        return None

    def is_over(self) -> bool:
        return self.winner is not None or len(self.results) >= self.options.max_matches

    def legal_actions(self) -> list[tuple]:
        return [] if self.is_over() else self.match.legal_actions()

    def play(self, action: tuple) -> None:
        if self.is_over():
            raise RuleError("the game is over")
        self.match.apply(tuple(action))
        self.log.append(tuple(action))
        if self.match.is_over():
            w = self.match.winner
            self.results.append((w, self.match.reason or "turn-limit"))
            if w is not None:
                self.score[w] += 1
            if not self.is_over():
                mode = self.options.match_starter
                if mode == "alternate" or w is None:
                    nxt = 1 - self.starter
                elif mode == "loser":
                    nxt = 1 - w
                else:
                    nxt = w
                self.match = self._new_match(nxt)

    def undo(self) -> tuple:
        """Take back the last action (replays the log)."""
        if not self.log:
            raise RuleError("nothing to undo")
        last = self.log[-1]
        g = DuelGame(self.options, self.seed, self.first_starter, self.card_set, list(self.layouts), self.log[:-1])
        self.__dict__.update(g.__dict__)
        return last

    def to_json(self) -> dict:
        return {
            "seed": self.seed,
            "first_starter": self.first_starter,
            "layouts": list(self.layouts),
            "log": [list(a) for a in self.log],
            "score": list(self.score),
            "results": [list(r) for r in self.results],
            "options": self.options.to_json(),
        }

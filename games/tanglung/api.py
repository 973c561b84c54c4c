"""Tanglung in the common game API: ``tanglung-solo``, ``tanglung-coop`` and ``tanglung-duel``.

Solo / co-op: an action is the destination cell 0..15 (row-major; text ``r,c``); player 0 (and
1 in co-op) moves the matchbox whose turn it is. The game ends when all cards are lit (returns
1.0 each), when the matchbox to move has no move, or after ``max_turns`` moves (0.0 each).
Duel: ``place r,c`` = cell, ``lantern r,c`` = 16 + cell, ``rooster r,c fan r,c`` =
32 + 16 * cell + fan cell; first to 2 matches (returns +1 / -1; a drawn game 0 / 0). Each
match's layout comes from the seed; dark cards are hidden from both players
(``observation_string``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from ...errors import FormatError, InvalidMoveError, RuleError
from ...jsonio import short, text_int
from ..api import (
    TERMINAL,
    ChanceMode,
    EngineState,
    Game,
    GameMeta,
    Information,
    Utility,
    replay_from_json,
    split_params,
)
from .cards import EMPTY, KINDS, ROOSTER, CardSet, load_card_set
from .duel import REENTER, SETUP, DuelGame, describe_action, parse_action
from .grid import N_CELLS, rc
from .layout import Layout, idx, random_layout
from .moves import KNIGHT, SLIDES, STEPS
from .render import svg_grid
from .rules import TanglungOptions
from .solo import SoloGame


def _cell_text(i: int) -> str:
    r, c = rc(i)
    return f"{r},{c}"


def _parse_cell(text: str) -> int:
    t = str(text).replace(" ", "")
    try:
        if len(t) > 40:
            raise ValueError
        r, c = (text_int(x) for x in t.split(","))
    except ValueError:
        raise InvalidMoveError(f"bad cell {short(text)}: expected row,col like 1,2") from None
    if not (0 <= r < 4 and 0 <= c < 4):
        raise InvalidMoveError(f"cell {short(text)} is off the 4x4 grid (rows and columns 0..3)")
    return idx(r, c)


_HOW = {
    "R": "slides along its row or column over cards",
    "B": "slides diagonally over cards",
    "D": "slides in any of the 8 directions, over cards and empty spaces",
    "F": "steps to a neighbouring card in any of the 8 directions",
    "C": "steps to the card above, below, left or right",
    "H": "jumps like a chess knight",
}


def _kind_name(letter: str) -> str:
    return KINDS.get(letter, "?").capitalize()


def why_unreachable(cells: Sequence[str], pos: int, dst: int, options: Any, fan: int | None = None,
                    others: Collection[int | None] = frozenset(), what: str = "the matchbox") -> str:
    """Why the card at ``pos`` (its kind's move) does not take ``what`` to ``dst``, in words:
    "the matchbox on 0,3 (Rabbit) cannot move to 2,3: the empty space at 1,3 blocks the way"."""
    kind = cells[pos]
    here, there = _cell_text(pos), _cell_text(dst)
    head = f"{what} on {here} ({_kind_name(kind)}) cannot move to {there}: "
    if dst == pos:
        return f"{what} is already on {there}"
    if cells[dst] == EMPTY:
        return head + f"{there} is an empty space (nothing lands there)"
    if dst == fan:
        return head + f"the Fan is on {there} (nothing lands on the Fan)"
    (r0, c0), (r1, c1) = rc(pos), rc(dst)
    dr, dc = r1 - r0, c1 - c0
    if kind in STEPS:
        return head + f"a {_kind_name(kind)} {_HOW[kind]}, and {there} is not such a neighbour"
    if kind == "H":
        if (dr, dc) not in KNIGHT:
            return head + f"a Horse {_HOW['H']}, and {there} is not a knight's jump away"
        return head + "the Fan blocks the Horse's route (horse_fan_route rule)"
    if kind in SLIDES:
        step = (dr and dr // abs(dr), dc and dc // abs(dc))
        in_line = (dr == 0 or dc == 0 or abs(dr) == abs(dc)) and step in SLIDES[kind]
        if not in_line:
            return head + f"a {_kind_name(kind)} {_HOW[kind]}, and {there} is not on such a line"
        r, c = r0 + step[0], c0 + step[1]
        while (r, c) != (r1, c1):
            i = idx(r, c)
            if i == fan:
                return head + f"the Fan on {_cell_text(i)} blocks the way"
            if kind != "D":
                if cells[i] == EMPTY:
                    return head + f"the empty space at {_cell_text(i)} blocks the way"
                if i in others:
                    return head + f"the other matchbox on {_cell_text(i)} blocks the way"
                if getattr(options, "literal_blocking", False):
                    return head + f"the card on {_cell_text(i)} blocks the way (literal_blocking rule)"
            r, c = r + step[0], c + step[1]
    return head + "its card's move does not lead there"


class _TanglungGame(Game):
    setup_params = {"cards": None}

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        setup, opts = split_params(params, self.setup_params)
        self.options = TanglungOptions.from_dict(opts)
        cards = setup["cards"]
        if isinstance(cards, dict):
            cards = CardSet.from_json(cards)
        elif cards is not None and not isinstance(cards, (CardSet, str)):
            raise FormatError("cards: expected a card set (inline counts like C2R3B3F3H3D2, a file or its JSON)")
        self.card_set: CardSet | None = cards if isinstance(cards, CardSet) or cards is None else load_card_set(cards)


# -- solo and co-op ------------------------------------------------------------------------------


class TanglungSoloState(EngineState):
    """A solo or co-op game (the engine is a ``SoloGame``; undo by its own move stack)."""

    engine: SoloGame

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.engine.to_move

    def is_terminal(self) -> bool:
        e = self.engine
        return e.is_won() or len(e.log) >= e.options.max_turns or not e.legal_moves()

    def returns(self) -> list[float]:
        v = 1.0 if self.engine.is_won() else 0.0
        return [v] * self.num_players()

    def _legal(self) -> list[int]:
        return self.engine.legal_moves()

    def _apply(self, action: int) -> None:
        self.engine.play(action)

    def _save(self) -> None:
        return None

    def _restore(self, saved: Any) -> None:
        self.engine.undo()

    def action_to_string(self, action: int) -> str:
        if not 0 <= action < N_CELLS:
            raise RuleError(f"no such Tanglung move: {action}")
        return _cell_text(action)

    def _parse_action(self, text: str) -> int:
        return _parse_cell(text)

    def _why_illegal(self, action: int) -> str | None:
        if action >= N_CELLS:
            return f"no such action: {action} (cells 0..{N_CELLS - 1})"
        e = self.engine
        me = e.to_move
        others = {p for j, p in enumerate(e.positions) if j != me}
        what = f"matchbox {me}" if len(e.positions) > 1 else "the matchbox"
        if action in others:
            why = f"the other matchbox is on {_cell_text(action)}"
        else:
            why = why_unreachable(e.layout.cells, e.positions[me], action, e.options, None, others, what)
        can = " or ".join(_cell_text(a) for a in self.legal_actions())
        return why + (f"; it can move to {can}" if can else "")

    def _snapshot(self) -> Any:
        return self.engine.to_json()

    def _termination(self) -> str:
        e = self.engine
        if e.is_won():
            return "all lit"
        return "stuck" if not e.legal_moves() else "move limit"

    def __str__(self) -> str:
        e = self.engine
        box = "* a matchbox" if len(e.positions) > 1 else "* the matchbox"
        return e.render_text() + f"\n{e.dark_count()} dark, {len(e.log)} moves" + (
            ", won" if e.is_won() else ", over" if self.is_terminal() else "") + "\n" + legend(box)

    def to_svg(self) -> str:
        e = self.engine
        title = f"{e.dark_count()} dark after {len(e.log)} moves" + (" (won)" if e.is_won() else "")
        path = [e.starts[0]] + [m for i, m in enumerate(e.log) if i % len(e.starts) == 0]
        return svg_grid(e.layout, lit=e.lit, path=path, title=title, boxes=e.positions)


def legend(marks: str) -> str:
    """The terminal board's key: the card letters, the case, and the marks beside the letters."""
    kinds = ", ".join(f"{k} {v}" for k, v in KINDS.items())
    return f"key: {kinds}; upper case lit, lower case dark; {marks}"


class TanglungSolo(_TanglungGame):
    """One matchbox lights all 16 cards (a layout from the seed, or a given one)."""

    name = "tanglung-solo"
    boxes = 1
    terminations = ("all lit", "stuck", "move limit")

    def num_players(self) -> int:
        return self.boxes

    def _meta(self) -> GameMeta:
        # a matchbox may walk back and forth for ever (a move onto a lit card flips one dark):
        # the engine ends the game after max_turns moves
        return GameMeta(
            name=self.name, num_players=self.boxes, num_distinct_actions=N_CELLS,
            max_game_length=self.options.max_turns,
            length_bound=f"engine cap: max_turns={self.options.max_turns} moves",
            utility=Utility.IDENTICAL if self.boxes > 1 else Utility.GENERAL_SUM, min_utility=0.0,
            max_utility=1.0, chance_mode=ChanceMode.SAMPLED, information=Information.PERFECT,
            terminations=self.terminations)

    def _layout_from_seed(self, seed: int) -> Layout:
        return random_layout(seed, self.card_set, self.options.not_so_zen)

    def _start(self, seed: int, start: Any) -> TanglungSoloState:
        starts: tuple[int, ...]
        if start is None:
            layout, starts = self._layout_from_seed(seed), ()
        else:
            if not isinstance(start, dict) or not isinstance(start.get("layout"), str):
                raise FormatError(f"{self.name} start must be {{'layout': ..., 'starts': [[r, c], ...]}}")
            layout = Layout.parse(start["layout"])
            raw = start.get("starts") or ()
            if not isinstance(raw, (list, tuple)) or len(raw) > 2 or not all(
                    isinstance(s, (list, tuple)) and len(s) == 2 and all(type(v) is int and 0 <= v < 4 for v in s)
                    for s in raw):
                raise FormatError(f"{self.name} start: 'starts' must be up to 2 cells [row, col] in 0..3")
            starts = tuple(idx(*s) for s in raw)
        if not starts:
            starts = tuple(layout.roosters()[: self.boxes])
        if len(starts) != self.boxes:
            raise RuleError(f"{self.name} needs {self.boxes} Rooster(s) to start from")
        engine = SoloGame(layout, self.options, starts, self.card_set)
        st = TanglungSoloState(self, engine, seed, start)
        return st

    def new_initial_state(self, seed: int | None = None) -> TanglungSoloState:
        return self._start(int(seed or 0), None)

    def new_initial_state_from(self, instance: Any) -> TanglungSoloState:
        """From a ``Layout``, its text (``CRBF/HDFR/BHFB/RHDC`` or a tanglung ID), a dict
        ``{"layout": text, "starts": [[r, c], ...]}`` or an object with ``layout`` and ``start``
        (a generated challenge, a solver solution); without a start the matchbox (co-op: the
        two) start on the Roosters in reading order."""
        if isinstance(instance, (Layout, str)):
            instance = {"layout": str(Layout.parse(str(instance)))}
        elif isinstance(instance, SoloGame):
            instance = {"layout": str(instance.layout), "starts": [list(rc(s)) for s in instance.starts]}
        elif not isinstance(instance, dict) and hasattr(instance, "layout"):
            start = getattr(instance, "start", None)
            starts = [list(rc(start))] if isinstance(start, int) and self.boxes == 1 else []
            instance = {"layout": str(instance.layout), "starts": starts}
        return self._start(0, instance)

    def state_from_json(self, data: dict[str, Any]) -> TanglungSoloState:
        return replay_from_json(self, data, self._start)


class TanglungCoop(TanglungSolo):
    """Two matchboxes (players 0 and 1, alternating) light all cards together."""

    name = "tanglung-coop"
    boxes = 2


# -- duel -----------------------------------------------------------------------------------------

_LANTERN = 16
_ROOSTER = 32


def encode_duel(action: tuple[Any, ...]) -> int:
    kind = action[0]
    cell: int = action[1]
    if kind == "place":
        return cell
    if kind == "lantern":
        return _LANTERN + cell
    fan: int = action[2]
    return _ROOSTER + 16 * cell + fan


def decode_duel(a: int) -> tuple[Any, ...]:
    if 0 <= a < _LANTERN:
        return ("place", a)
    if a < _ROOSTER:
        return ("lantern", a - _LANTERN)
    if a < _ROOSTER + 256:
        return ("rooster", (a - _ROOSTER) // 16, (a - _ROOSTER) % 16)
    raise RuleError(f"no such Tanglung duel action: {a}")


class TanglungDuelState(EngineState):
    """A first-to-2-matches duel (the engine is a ``DuelGame``)."""

    engine: DuelGame

    def current_player(self) -> int:
        return TERMINAL if self.engine.is_over() else self.engine.match.to_move

    def is_terminal(self) -> bool:
        return self.engine.is_over()

    def returns(self) -> list[float]:
        w = self.engine.winner
        if not self.engine.is_over() or w is None:
            return [0.0, 0.0]
        return [1.0 if p == w else -1.0 for p in (0, 1)]

    def _legal(self) -> list[int]:
        return [encode_duel(a) for a in self.engine.legal_actions()]

    def _apply(self, action: int) -> None:
        self.engine.play(decode_duel(action))

    def action_to_string(self, action: int) -> str:
        return describe_action(decode_duel(action))

    def _parse_action(self, text: str) -> int:
        return encode_duel(parse_action(text))

    def _why_illegal(self, action: int) -> str | None:
        if action >= _ROOSTER + 256:
            return f"no such action: {action}"
        act = decode_duel(action)
        m = self.engine.match
        me = m.to_move
        phase, opp, pos = m.phase[me], m.boxes[1 - me], m.boxes[me]
        kind, d = act[0], act[1]
        there = _cell_text(d)
        seen = m.observation(me)
        if phase in (SETUP, REENTER):
            if kind != "place":
                return (f"player {me} has no matchbox on the grid yet: "
                        + ("place it on a Rooster first" if phase == SETUP else "place it again first (re-entry)"))
            if d == opp:
                return f"the other matchbox is on {there}"
            if m.cells[d] == EMPTY:
                return f"{there} is an empty space"
            if phase == SETUP:
                return f"at the set-up a matchbox goes on a Rooster; {there} is not one"
            if d == m.fan:
                return f"the Fan is on {there}: re-entry goes on a lit card without the Fan"
            return f"{there} is dark: re-entry goes on a lit card"
        assert pos is not None  # past the set-up and re-entry the matchbox is on the grid (as in the engine)
        if kind == "place":
            return f"player {me}'s matchbox is on {_cell_text(pos)}: 'place' is only for the set-up and re-entry"
        if kind == "rooster":
            f = act[2]
            if m.cells[d] == EMPTY or d == m.fan or d == opp or abs(rc(d)[0] - rc(pos)[0]) + abs(rc(d)[1] - rc(pos)[1]) != 1:
                why = ("it is an empty space" if m.cells[d] == EMPTY else "the Fan is on it" if d == m.fan
                       else "the other matchbox is on it" if d == opp else "it is not next to it (up, down, left or right)")
                return f"the Rooster action steps from {_cell_text(pos)} to {there}, but {why}"
            fan = _cell_text(f)
            if f == d:
                return f"the Fan cannot go on {fan}, where the matchbox lands"
            if f == m.fan:
                return f"the Fan is already on {fan}: it must move to another card"
            if f == opp:
                return f"the Fan cannot go on {fan}: the other matchbox is there"
            if m.cells[f] == EMPTY:
                return f"the Fan cannot go on {fan}: it is an empty space"
            if f == pos:
                return f"the Fan cannot go on {fan}: the first Rooster action removes that Rooster card"
            return None
        if m.cells[pos] == ROOSTER:
            return f"the matchbox on {_cell_text(pos)} stands on a Rooster: only the Rooster action moves it"
        if not m.lit >> pos & 1:
            return f"the card under the matchbox on {_cell_text(pos)} is dark: only a lit lantern moves"
        return why_unreachable(seen, pos, d, m.options, m.fan, {opp} if opp is not None else set(),
                               f"player {me}'s matchbox")

    def _snapshot(self) -> Any:
        d = self.engine.to_json()
        d["match"] = self.engine.match.to_json()
        return d

    def _termination(self) -> str:
        return "two matches won" if self.engine.winner is not None else "match limit"

    def observation_string(self, player: int) -> str:
        m = self.engine.match
        view = m.observation(player)
        return self._grid(view) + "\n" + self._status()

    def _grid(self, view: Sequence[str]) -> str:
        m = self.engine.match
        lines = []
        for r in range(4):
            row = []
            for c in range(4):
                i = r * 4 + c
                ch = view[i]
                if ch not in (".", "?") and not m.lit >> i & 1:
                    ch = ch.lower()
                mark = "0" if m.boxes[0] == i else "1" if m.boxes[1] == i else "*" if m.fan == i else " "
                row.append(f"{ch}{mark}")
            lines.append(" ".join(row))
        return "\n".join(lines)

    def _status(self) -> str:
        e = self.engine
        s = f"match {len(e.results) + 1}, score {e.score[0]}-{e.score[1]}"
        if e.is_over():
            return s + (f", player {e.winner} wins" if e.winner is not None else ", drawn")
        return s + f", player {e.match.to_move} to move"

    def __str__(self) -> str:
        return self._grid(self.engine.match.cells) + "\n" + self._status() + "\n" + legend(
            "0 and 1 the players' matchboxes, * the fan, a question mark a dark card not yet seen")

    def to_svg(self) -> str:
        m = self.engine.match
        return svg_grid(m.layout, lit=m.lit, title=self._status(), boxes=m.boxes, fan=m.fan)


class TanglungDuel(_TanglungGame):
    """Two players, first to win 2 matches; every match's layout comes from the seed."""

    name = "tanglung-duel"
    setup_params = {"cards": None, "first_starter": 0}
    terminations = ("two matches won", "match limit")

    def num_players(self) -> int:
        return 2

    def _meta(self) -> GameMeta:
        # a match can last for ever (matchboxes walking lit cards) and drawn matches do not
        # count: the engine draws a match after max_turns turns and ends the game after
        # max_matches matches
        o = self.options
        return GameMeta(
            name=self.name, num_players=2, num_distinct_actions=_ROOSTER + 16 * N_CELLS,
            max_game_length=o.max_matches * o.max_turns,
            length_bound=f"engine caps: max_matches={o.max_matches} matches of max_turns={o.max_turns} turns",
            utility=Utility.ZERO_SUM, min_utility=-1.0, max_utility=1.0, chance_mode=ChanceMode.SAMPLED,
            information=Information.IMPERFECT, terminations=self.terminations)

    def has_hidden_information(self) -> bool:
        return True

    def _start(self, seed: int, start: Any) -> TanglungDuelState:
        layouts = []
        if start is not None:
            if not isinstance(start, dict) or not isinstance(start.get("layouts"), list):
                raise FormatError("tanglung-duel start must be {'layouts': [layout, ...]}")
            layouts = [str(Layout.parse(x)) for x in start["layouts"]]
        first = self.params.get("first_starter", 0)
        if str(first) not in ("0", "1"):
            raise RuleError("first_starter must be 0 or 1 (the player who starts the first match)")
        first = int(first)
        engine = DuelGame(self.options, seed, first, self.card_set, list(layouts))
        return TanglungDuelState(self, engine, seed, start)

    def new_initial_state(self, seed: int | None = None) -> TanglungDuelState:
        return self._start(int(seed or 0), None)

    def new_initial_state_from(self, instance: Any) -> TanglungDuelState:
        """From a layout (or a list of layouts) for the first match(es); later ones from seed 0."""
        if isinstance(instance, (Layout, str)):
            instance = [instance]
        if isinstance(instance, (list, tuple)):
            instance = {"layouts": [str(Layout.parse(str(x))) for x in instance]}
        return self._start(0, instance)

    def state_from_json(self, data: dict[str, Any]) -> TanglungDuelState:
        return replay_from_json(self, data, self._start)

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

from ...errors import FormatError, RuleError
from ...jsonio import short
from ..api import TERMINAL, ChanceMode, EngineState, Game, GameMeta, Information, Utility, replay_from_json, split_params
from .cards import CardSet, load_card_set
from .duel import DuelGame, describe_action, parse_action
from .layout import N_CELLS, Layout, idx, random_layout, rc
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
        r, c = (int(x) for x in t.split(","))
    except ValueError:
        raise FormatError(f"bad cell {short(text)}: expected row,col like 1,2") from None
    if not (0 <= r < 4 and 0 <= c < 4):
        raise FormatError(f"cell {short(text)} is off the 4x4 grid")
    return idx(r, c)


class _TanglungGame(Game):
    setup_params = {"cards": None}

    def __init__(self, **params):
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

    def _save(self):
        return None

    def _restore(self, saved) -> None:
        self.engine.undo()

    def action_to_string(self, action: int) -> str:
        if not 0 <= action < N_CELLS:
            raise RuleError(f"no such Tanglung move: {action}")
        return _cell_text(action)

    def string_to_action(self, text: str) -> int:
        a = _parse_cell(text)
        if a not in self.legal_actions():
            raise RuleError(f"no legal move to {text!r} now")
        return a

    def _snapshot(self):
        return self.engine.to_json()

    def _termination(self) -> str:
        e = self.engine
        if e.is_won():
            return "all lit"
        return "stuck" if not e.legal_moves() else "move limit"

    def __str__(self) -> str:
        e = self.engine
        return e.render_text() + f"\n{e.dark_count()} dark, {len(e.log)} moves" + (
            ", won" if e.is_won() else ", over" if self.is_terminal() else "")

    def to_svg(self) -> str:
        e = self.engine
        title = f"{e.dark_count()} dark after {len(e.log)} moves" + (" (won)" if e.is_won() else "")
        path = [e.starts[0]] + [m for i, m in enumerate(e.log) if i % len(e.starts) == 0]
        return svg_grid(e.layout, lit=e.lit, path=path, title=title, boxes=e.positions)


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

    def _start(self, seed: int, start) -> TanglungSoloState:
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

    def new_initial_state_from(self, instance) -> TanglungSoloState:
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

    def state_from_json(self, data: dict) -> TanglungSoloState:
        return replay_from_json(self, data, self._start)


class TanglungCoop(TanglungSolo):
    """Two matchboxes (players 0 and 1, alternating) light all cards together."""

    name = "tanglung-coop"
    boxes = 2


# -- duel -----------------------------------------------------------------------------------------

_LANTERN = 16
_ROOSTER = 32


def encode_duel(action: tuple) -> int:
    kind = action[0]
    if kind == "place":
        return action[1]
    if kind == "lantern":
        return _LANTERN + action[1]
    return _ROOSTER + 16 * action[1] + action[2]


def decode_duel(a: int) -> tuple:
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

    def string_to_action(self, text: str) -> int:
        a = encode_duel(parse_action(text))
        if a not in self.legal_actions():
            raise RuleError(f"illegal action now: {text!r}")
        return a

    def _snapshot(self):
        d = self.engine.to_json()
        d["match"] = self.engine.match.to_json()
        return d

    def _termination(self) -> str:
        return "two matches won" if self.engine.winner is not None else "match limit"

    def observation_string(self, player: int) -> str:
        m = self.engine.match
        view = m.observation(player)
        return self._grid(view) + "\n" + self._status()

    def _grid(self, view) -> str:
        m = self.engine.match
        lines = []
        for r in range(4):
            row = []
            for c in range(4):
                i = r * 4 + c
                ch = view[i]
                if ch not in (".", "?") and not m.lit >> i & 1:
                    ch = ch.lower()
                mark = "1" if m.boxes[0] == i else "2" if m.boxes[1] == i else "*" if m.fan == i else " "
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
        return self._grid(self.engine.match.cells) + "\n" + self._status()

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

    def _start(self, seed: int, start) -> TanglungDuelState:
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

    def new_initial_state_from(self, instance) -> TanglungDuelState:
        """From a layout (or a list of layouts) for the first match(es); later ones from seed 0."""
        if isinstance(instance, (Layout, str)):
            instance = [instance]
        if isinstance(instance, (list, tuple)):
            instance = {"layouts": [str(Layout.parse(str(x))) for x in instance]}
        return self._start(0, instance)

    def state_from_json(self, data: dict) -> TanglungDuelState:
        return replay_from_json(self, data, self._start)

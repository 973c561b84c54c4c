"""QANGO in the common game API: ``qango`` (players 0 = X, who moves first, and 1 = O).

An action is a cell index ``row * width + col`` of the board; text ``r,c`` (``r c`` is read
too). Returns +1 / -1 for a win, 0 / 0 for a draw. No chance, no hidden information; the seed is
unused. Parameters are the rule options ``board``, ``opening`` and ``max_counters``.
"""

from __future__ import annotations

import copy
from typing import Any

from ...errors import FormatError, InvalidMoveError, RuleError
from ...jsonio import identify, text_int, validate
from ..api import TERMINAL, ChanceMode, EngineState, Game, GameMeta, Information, Utility, replay_from_json
from .position import Game as QangoEngine
from .position import Position, QangoOptions, parse_position, position_from_json
from .puzzle import PUZZLE_FORMAT
from .svg import board_svg


class QangoState(EngineState):
    """A QANGO game (the engine is a ``qango.Game``: a start position and the cells played)."""

    engine: QangoEngine

    @property
    def position(self) -> Position:
        return self.engine.position

    def current_player(self) -> int:
        p = self.engine.position
        if p.is_over():
            return TERMINAL
        return 0 if p.to_move == "X" else 1

    def is_terminal(self) -> bool:
        return self.engine.position.is_over()

    def returns(self) -> list[float]:
        out = self.engine.position.outcome()
        if out == "X":
            return [1.0, -1.0]
        if out == "O":
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def _legal(self) -> list[int]:
        return self.engine.position.legal_moves()

    def _apply(self, action: int) -> None:
        self.engine.play(action)

    def _copy_engine(self, engine: QangoEngine) -> QangoEngine:
        new = copy.copy(engine)  # positions are immutable: only the move list is copied
        new.moves = list(engine.moves)
        return new

    def action_to_string(self, action: int) -> str:
        b = self.engine.position.board
        if not 0 <= action < b.n_cells or action in b.off_board:
            raise RuleError(f"no cell {action} on {b.title}")
        r, c = b.rc(action)
        return f"{r},{c}"

    def _parse_action(self, text: str) -> int:
        b = self.engine.position.board
        try:
            r, c = (text_int(x) for x in str(text).replace(",", " ").split())
        except ValueError:
            raise InvalidMoveError(f"bad QANGO move {str(text)[:60]!r}: expected row,col like 2,3") from None
        if not (0 <= r < b.height and 0 <= c < b.width):
            raise InvalidMoveError(f"cell {str(text)[:60]!r} is off the {b.title} board "
                                   f"(rows 0..{b.height - 1}, columns 0..{b.width - 1})")
        if r * b.width + c not in b.cells:
            raise InvalidMoveError(f"cell {r},{c} is not on the {b.title} board")
        return r * b.width + c

    def _why_illegal(self, action: int) -> str | None:
        p = self.engine.position
        b = p.board
        if action >= b.n_cells:
            return f"no such action: {action} (cells 0..{b.n_cells - 1})"
        r, c = b.rc(action)
        if action not in b.cells:
            return f"cell {r},{c} is not on the {b.title} board"
        if p.x >> action & 1 or p.o >> action & 1:
            return f"cell {r},{c} is taken (by {'X' if p.x >> action & 1 else 'O'})"
        if p.n_counters == 0 and p.allowed_first is not None and action not in p.allowed_first:
            allowed = ", ".join("{},{}".format(*b.rc(a)) for a in sorted(p.allowed_first))
            return f"cell {r},{c} is free, but the opening rule allows the first counter only on {allowed}"
        return None

    def _termination(self) -> str:
        p = self.engine.position
        if p.winner() is not None:
            return "pattern"
        return "board full" if not p.empty_mask() else "counter limit"

    def _snapshot(self) -> dict[str, Any]:
        # the form states were saved with before position files had a tag: saved states keep replaying
        p = self.engine.position
        return {"board": p.board.name, "position": p.to_text(), "to_move": p.to_move}

    def __str__(self) -> str:
        p = self.engine.position
        out = p.outcome()
        tail = f"{p.to_move} to move" if out is None else ("draw" if out == "draw" else f"{out} wins")
        return p.to_text("\n") + f"\n{tail}"

    def to_svg(self) -> str:
        p = self.engine.position
        out = p.outcome()
        title = f"{p.to_move} to move" if out is None else ("draw" if out == "draw" else f"{out} wins")
        return board_svg(p.board, p.x, p.o, title=title)


class Qango(Game):
    """QANGO for two players on a built-in or file board."""

    name = "qango"
    terminations = ("pattern", "board full", "counter limit")

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.options = QangoOptions.from_dict({k: (str(v) if k == "board" and isinstance(v, int) else v)
                                               for k, v in params.items()})
        self.board, self.allowed_first = self.options.resolve()

    def num_players(self) -> int:
        return 2

    def _meta(self) -> GameMeta:
        b = self.board
        return GameMeta(
            name=self.name, num_players=2, num_distinct_actions=b.n_cells, max_game_length=b.limit,
            length_bound="rules: one counter per move, a draw at the counter limit or a full board",
            utility=Utility.ZERO_SUM, min_utility=-1.0, max_utility=1.0, chance_mode=ChanceMode.DETERMINISTIC,
            information=Information.PERFECT, terminations=self.terminations)

    def _start(self, seed: int, start: Any) -> QangoState:
        pos = None
        if start is not None:
            pos = parse_position(str(start), self.board, self.allowed_first)
        engine = QangoEngine(self.options, pos)
        return QangoState(self, engine, seed, start)

    def new_initial_state(self, seed: int | None = None) -> QangoState:
        return self._start(int(seed or 0), None)

    def new_initial_state_from(self, instance: Any) -> QangoState:
        """From a position: a ``Position``, its text (``XO..../...``, rows by ``/``) or JSON, or
        an object holding one as ``position`` (a generated puzzle)."""
        if not isinstance(instance, (Position, dict, str)) and isinstance(getattr(instance, "position", None), Position):
            instance = instance.position
        if isinstance(instance, Position):
            pos = instance
        elif isinstance(instance, dict):
            if identify(instance) is PUZZLE_FORMAT:  # a puzzle file: its position (the ID is the generator's)
                m = validate(instance, PUZZLE_FORMAT.schema(), "puzzle", "QANGO puzzle")
                if m.position is None:
                    raise FormatError("puzzle: has no 'position'")
                pos = parse_position(m.position, self.board, self.allowed_first)
            else:
                pos = position_from_json(instance, self.board, self.allowed_first)
        else:
            pos = parse_position(str(instance), self.board, self.allowed_first)
        if pos.board.name != self.board.name:
            raise RuleError(f"this position is on board {pos.board.name}, the game on {self.board.name}")
        return self._start(0, pos.to_text())

    def state_from_json(self, data: dict[str, Any]) -> QangoState:
        return replay_from_json(self, data, self._start)

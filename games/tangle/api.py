"""Tangle in the common game API: ``tangle`` (2-4 players; ``partners`` plays 0+2 against 1+3).

An action is a placement index of the game's precomputed placement list (every placement of
every piece kind on the board), and ``pass`` (legal only when no placement is) is the number of
placements. Text: the engine's notation, ``V2 4,5:0 4,5:1`` (piece, then each side as
``col,row:side``) or ``pass``. No chance and no hidden information; the seed is unused.
Returns: +1 for the players of the single highest-scoring team, 0 for a team tied for the
lead, -1 for the others.
"""

from __future__ import annotations

from typing import Any

from ...errors import RuleError
from ...shapes.hexgrid import axial_to_offset, offset_to_axial
from ..api import TERMINAL, ChanceMode, EngineState, Game, GameMeta, Information, Utility, replay_from_json, split_params
from .board import Board, PieceSet
from .engine import PASS, TangleState, cached_game, load_state
from .svg import svg_position


class TangleApiState(EngineState):
    """A Tangle game (the engine is a ``TangleState``; undo by its own push/pop stack)."""

    engine: TangleState

    @property
    def _pass(self) -> int:
        return self.engine.game.n_placements

    def action_of(self, native: int) -> int:
        """The int of a placement (or the pass, -1) chosen on the engine."""
        return self._pass if native == PASS else native

    def current_player(self) -> int:
        return TERMINAL if self.engine.over else self.engine.to_move

    def is_terminal(self) -> bool:
        return self.engine.over

    def returns(self) -> list[float]:
        e, g = self.engine, self.engine.game
        if not e.over:
            return [0.0] * g.n_players
        win = e.winners()
        return [(1.0 if len(win) == 1 else 0.0) if g.team_of[p] in win else -1.0 for p in range(g.n_players)]

    def _legal(self) -> list[int]:
        return [self._pass if p == PASS else p for p in self.engine.legal_moves()]

    def _apply(self, action: int) -> None:
        self.engine.push(PASS if action == self._pass else action)

    def _save(self) -> None:
        return None

    def _restore(self, saved: Any) -> None:
        self.engine.pop()

    def _copy_engine(self, engine: TangleState) -> TangleState:
        return engine.clone()  # replays the log, so the copy can be undone too

    def action_to_string(self, action: int) -> str:
        g = self.engine.game
        if action == self._pass:
            return "pass"
        if not 0 <= action < g.n_placements:
            raise RuleError(f"no such Tangle placement: {action}")
        return g.move_text(action)

    def _parse_action(self, text: str) -> int:
        p = self.engine.game.parse_move(str(text))  # InvalidMoveError when it names no placement
        return self._pass if p == PASS else p

    def _why_illegal(self, action: int) -> str | None:
        e, g = self.engine, self.engine.game
        me = e.to_move
        if action == self._pass:
            n = len(self.legal_actions())
            return f"player {me} may pass only when no placement is legal ({n} placement{'s are' if n != 1 else ' is'})"
        if action > self._pass:
            return f"no such action: {action} (placements 0..{g.n_placements - 1}, pass {self._pass})"
        kind = g.pieces.kinds[g.pl_kind[action]]
        if e.remaining[me][g.pl_kind[action]] <= 0:
            return f"player {me} has no {kind.name} left (all {kind.count} placed)"
        taken = [i for i in range(g.n_sides) if (g.pl_mask[action] & e.occ) >> i & 1]
        if taken:
            home = self.engine.game.move_text(action).split()[1].split(":")[0]
            cr = tuple(int(v) for v in home.split(","))
            tile = offset_to_axial(cr[0], cr[1], g.board.offset)
            names = [g.side_text(g.sides[i], tile) for i in taken]
            owner = e.owner[taken[0]]
            who = f" (by player {owner})" if owner >= 0 else ""
            return (f"side {names[0]} is taken{who}" if len(names) == 1
                    else f"sides {', '.join(names)} are taken{who if len(set(e.owner[i] for i in taken)) == 1 else ''}")
        if e.needs_star() and not g.pl_star[action]:
            c, r = axial_to_offset(g.board.tiles[g.board.star], g.board.offset)
            first = "the game's first piece" if g.options.first_piece == "game" else f"player {me}'s first piece"
            return f"{first} must cover a side of the Center Star tile {c},{r}; that tile does not touch it"
        if e.occ and not g.pl_nbr[action] & e.occ:
            how = "share a vertex" if g.options.connection == "vertex" else "lie on sides of a common tile"
            return f"that {kind.name} does not touch any piece on the board (pieces connect when they {how})"
        return None

    def _termination(self) -> str:
        e, g = self.engine, self.engine.game
        if e.passes >= g.n_players:
            return "stuck"
        return "target score" if max(e.scores) >= g.options.target_score else "out of pieces"

    def _snapshot(self) -> dict[str, Any]:
        e = self.engine
        return {"scores": list(e.scores), "to_move": e.to_move, "turns_left": e.turns_left, "over": e.over,
                "captured": sorted(e.captured.items()), "remaining": [list(r) for r in e.remaining]}

    def __str__(self) -> str:
        e = self.engine
        last = e.game.move_text(e.moves[-1]) if e.moves else "-"
        return f"{e.summary()}\nmoves {len(e.moves)}, last {last}; pieces left {[e.pieces_left(p) for p in range(e.game.n_players)]}"

    def to_svg(self) -> str:
        return svg_position(self.engine.game, self.engine, title=self.engine.summary())


class Tangle(Game):
    """Tangle on a board and piece set (defaults: the shipped assumed data) for ``players``."""

    name = "tangle"
    setup_params = {"players": 2, "board": "tangle-default", "pieces": "tangle-default"}
    terminations = ("target score", "out of pieces", "stuck")

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        setup, opts = split_params(params, self.setup_params)
        spec = {
            "board": setup["board"].to_json() if isinstance(setup["board"], Board) else setup["board"],
            "pieces": setup["pieces"].to_json() if isinstance(setup["pieces"], PieceSet) else setup["pieces"],
            "players": int(setup["players"]),
            "options": opts,
        }
        self.engine_game = cached_game(spec)
        self.spec = self.engine_game.spec()

    def num_players(self) -> int:
        return self.engine_game.n_players

    def _meta(self) -> GameMeta:
        # L <= P placements (P: every player's pieces); a pass is legal only without a placement
        # and n passes in a row end the game, so each of the L + 1 runs of passes between
        # placements is < n long but the last: n * (P + 1) actions at most
        g = self.engine_game
        n = g.n_players
        pieces = n * sum(k.count for k in g.pieces.kinds)
        teams = len(set(g.team_of))
        return GameMeta(
            name=self.name, num_players=n, num_distinct_actions=g.n_placements + 1,
            max_game_length=n * (pieces + 1),
            length_bound="rules: every piece placed once, fewer than n passes in a row between placements",
            utility=Utility.ZERO_SUM if teams == 2 else Utility.GENERAL_SUM, min_utility=-1.0, max_utility=1.0,
            chance_mode=ChanceMode.DETERMINISTIC, information=Information.PERFECT,
            terminations=self.terminations)

    def _start(self, seed: int, start: Any) -> TangleApiState:
        engine = self.engine_game.new_state()
        if start is not None:
            for m in start:
                p = self.engine_game.parse_move(m)
                if not engine.is_legal(p):
                    raise RuleError(f"start move {m!r} is illegal there")
                engine.push(p)  # the wrapper's history starts after these: no undo past them
        return TangleApiState(self, engine, seed, start)

    def new_initial_state(self, seed: int | None = None) -> TangleApiState:
        return self._start(int(seed or 0), None)

    def new_initial_state_from(self, instance: Any) -> TangleApiState:
        """From a state or puzzle (a ``TangleState``, its JSON dict or a file path) whose board,
        pieces, players and options are this game's; its moves become the start position."""
        state = instance if isinstance(instance, TangleState) else load_state(instance)
        if state.game.spec() != self.spec:
            raise RuleError("this position is for other game parameters (board, pieces, players or options)")
        moves = [self.engine_game.move_json(p) for p in state.moves]
        return self._start(0, moves)

    def state_from_json(self, data: dict[str, Any]) -> TangleApiState:
        return replay_from_json(self, data, self._start)

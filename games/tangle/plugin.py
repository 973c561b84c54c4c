"""Tangle's plugin: the game, bots, best-turn puzzle IDs, the play page's sides and CLI."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..plugin import GamePlugin, Picture

if TYPE_CHECKING:
    from ...generators.ids import Instance
    from ...play.start import Start
    from ..api import Game, State
    from .api import Tangle, TangleApiState

KIND = "tangle-puzzle"


class TanglePlugin(GamePlugin):
    family = "tangle"
    title = "Tangle"
    order = 50
    rules_doc = "rules.md"
    games = {"tangle": ".tangle.api:Tangle"}
    cli = "tanglekit.games.tangle.cli:app"
    has_ids = True
    kinds = {KIND: "Tangle puzzle"}
    one_kind = KIND
    playable_kinds = (KIND,)
    web_generators = (
        {"generator": "tangle-puzzle", "title": "Tangle best-turn puzzle",
         "ids": {"normal": "tangle:min_points=10,min_chain=2#{seed}",
                 "hard": "tangle:min_points=10,min_chain=2,hard=1#{seed}"}},
    )

    hooks = {
        "bots": ".api_bots:bots",
        "hint": ".api_bots:hint",
        "resolve_id": ".generate:resolve_id",
    }

    def rule_options(self, game: Game) -> Any:
        """The options of the game's engine (the API game holds no copy of its own)."""
        return cast("Tangle", game).engine_game.options

    def start(self, inst: Instance, spec: str, params: dict[str, Any]) -> Start:
        """A best-turn puzzle: one turn of the side to move against the strong bot."""
        from ...play.start import Start  # start-up: the plugin module stays cheap to import
        from .engine import state_from_json  # loads pydantic (only when this runs)

        out = inst.value
        native = out if not isinstance(out, dict) else state_from_json(out)
        state = api_state(native, params)
        if isinstance(out, dict):
            points, question = out["points"], out.get("question", "")
        else:  # the descriptive form holds the position only: the solver gives the best turn
            from .search import best_turn  # loads pydantic (only when this runs)

            points = best_turn(native, "points").points
            question = f"Player {native.to_move} to move: score {points} points this turn."
        return Start("tangle", state, spec, (state.current_player(),), "strong", points,
                     "best chain", question, "points", one_turn=True)

    def turn_points(self, initial: State, state: State, player: int) -> int:
        e0, e = cast("TangleApiState", initial).engine, cast("TangleApiState", state).engine
        team = e.game.team_of[player]
        return e.scores[team] - e0.scores[team]

    def picture(self, state: State, legal: list[int], humans: list[int]) -> Picture:
        """The board with every side a wide clickable area; each placement's button names the sides
        it covers; per side, one placement covering it (``side_probe``: a move the page may send
        to learn why no placement there is legal)."""
        from .web import sides  # start-up: the plugin module stays cheap to import

        svg, segs, names = sides(state.to_svg(), state)
        g = cast("TangleApiState", state).engine.game
        probe = [-1] * len(segs)
        for a in range(g.n_placements):
            m = g.pl_mask[a]
            while m:
                low = m & -m
                i = low.bit_length() - 1
                if 0 <= i < len(probe) and probe[i] < 0:
                    probe[i] = a
                m ^= low

        def covers(a: int) -> dict[str, Any]:
            m = g.pl_mask[a] if a < g.n_placements else 0
            return {"sides": [i for i in range(m.bit_length()) if m >> i & 1]}

        return Picture(svg, set(), {"sides": segs, "side_names": names, "side_probe": probe}, covers)

    def demo(self, out: str, seed: int) -> list[list[str]]:
        return [["tangle", "puzzle", "generate", "--seed", str(seed), "--svg", f"{out}/tangle-puzzle.svg",
                 "--solution-svg", f"{out}/tangle-solution.svg"]]


def api_state(native: Any, params: dict[str, Any] | None = None) -> State:
    """A Tangle engine state as a game-API state of the same board, pieces, players and options."""
    from ..plugin import load_game  # start-up: the plugin module stays cheap to import

    sp = native.game.spec()
    opts = {**sp.get("options", {}), **(params or {})}
    game = load_game("tangle", board=sp["board"], pieces=sp["pieces"], players=sp["players"], **opts)
    return game.new_initial_state_from(native)


PLUGIN = TanglePlugin()

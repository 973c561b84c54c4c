"""QANGO's plugin: the game, bots, puzzle and position IDs, pages and CLI."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..plugin import GamePlugin, Picture

if TYPE_CHECKING:
    from ...generators.ids import Instance
    from ...play.start import Start
    from ..api import State
    from .api import QangoState


class QangoPlugin(GamePlugin):
    family = "qango"
    title = "QANGO"
    order = 30
    rules_doc = "rules.md"
    games = {"qango": ".qango.api:Qango"}
    cli = "tanglekit.games.qango.cli:app"
    has_ids = True
    kinds = {"qango-puzzle": "QANGO puzzle", "qango-position": "QANGO position", "qango-board": "QANGO board"}
    playable_kinds = ("qango-puzzle", "qango-position")
    check_page = "QANGO: who wins this position?"
    web_generators = (
        {"generator": "qango-puzzle", "title": "QANGO win-in-k puzzle (6x6 board)", "choices": ("k2", "k3", "k4"),
         "id": "qango:6:{choice}#{seed}"},
    )

    hooks = {
        "bots": ".api_bots:bots",
        "hint": ".api_bots:hint",
        "resolve_id": ".sources:resolve_id",
        "check": ".web:check",
        "draw": ".web:draw",
        "check_data": ".web:check_data",
    }

    def start(self, inst: Instance, spec: str, params: dict[str, Any]) -> Start:
        """A puzzle: the person on the side to move against the perfect bot; a position: a game,
        the person on the side to move (against the strong bot unless told otherwise)."""
        from ...play.start import Start  # start-up: the plugin module stays cheap to import
        from ..plugin import load_game  # start-up: the plugin module stays cheap to import
        from .board import BUILTIN_BOARDS  # start-up: the plugin module stays cheap to import

        if inst.kind == "qango-position":
            pos = inst.value
            board: Any = getattr(pos, "board", None)
            extra = {"board": board.name} if getattr(board, "name", None) else {}
            if inst.extra.get("opening"):  # the ID's opening rule holds for the counters still to come
                extra["opening"] = inst.extra["opening"]
            state = load_game("qango", **{**extra, **params}).new_initial_state_from(pos)
            mover = state.current_player()
            return Start("qango", state, spec, (mover,) if mover >= 0 else None)
        puz = inst.value
        board = puz.board.name if puz.board.name in BUILTIN_BOARDS else puz.board  # generated/custom: the board itself
        opening = puz.opening if puz.opening in puz.board.opening_names() else "standard"  # puzzles have counters down
        state = load_game("qango", **{"board": board, "opening": opening, **params}).new_initial_state_from(puz.position)
        return Start("qango", state, spec, (state.current_player(),), "perfect", puz.k, "fewest counters",
                     f"{puz.position.to_move} to move wins in {puz.win_text()}", "counters")

    def picture(self, state: State, legal: list[int], humans: list[int]) -> Picture:
        from .web import hotspots  # start-up: the plugin module stays cheap to import

        p = cast("QangoState", state).engine.position
        svg, hot = hotspots(state.to_svg(), p.board, legal, p.x, p.o, str(state).splitlines()[-1])
        return Picture(svg, hot)

    def demo(self, out: str, seed: int) -> list[list[str]]:
        return [
            ["qango", "solve", "empty", "--board", "6", "--proof", f"{out}/qango6-proof.json"],
            ["qango", "verify-proof", f"{out}/qango6-proof.json"],
            ["qango", "puzzle", "generate", "--k", "3", "--seed", str(seed), "--svg", f"{out}/qango-puzzle.svg"],
        ]


PLUGIN = QangoPlugin()

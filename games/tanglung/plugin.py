"""Tanglung's plugin: the solo, co-op and duel games, bots, challenge IDs, pages and CLI."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..plugin import GamePlugin, Picture

if TYPE_CHECKING:
    from ...generators.ids import Instance
    from ...play.start import Start
    from ..api import State
    from .api import TanglungSolo, TanglungSoloState

KIND = "tanglung-challenge"


class TanglungPlugin(GamePlugin):
    family = "tanglung"
    title = "Tanglung"
    order = 20
    rules_doc = "rules.md"
    games = {
        "tanglung-solo": ".tanglung.api:TanglungSolo",
        "tanglung-coop": ".tanglung.api:TanglungCoop",
        "tanglung-duel": ".tanglung.api:TanglungDuel",
    }
    cli = "tanglekit.games.tanglung.cli:app"
    has_ids = True
    kinds = {KIND: "Tanglung solo challenge"}
    one_kind = KIND
    playable_kinds = (KIND,)
    file_formats = ("tanglekit/tanglung-challenge",)
    check_page = "Tanglung: is this layout solvable?"
    web_generators = (
        {"generator": "tanglung-solo", "title": "Tanglung solo challenge",
         "choices": ("easy", "medium", "hard", "expert"), "id": "tanglung:solo,{choice}#{seed}"},
    )

    hooks = {
        "bots": ".api_bots:bots",
        "hint": ".api_bots:hint",
        "resolve_id": ".generate:resolve_id",
        "check": ".web:check",
        "draw": ".web:draw",
        "check_data": ".web:check_data",
    }

    def start(self, inst: Instance, spec: str, params: dict[str, Any]) -> Start:
        """A solo game from the challenge's better Rooster (as the generator), its optimum known."""
        from ...play.start import Start  # start-up: the plugin module stays cheap to import
        from ..plugin import load_game  # start-up: the plugin module stays cheap to import
        from .cards import default_card_set  # start-up: the plugin module stays cheap to import
        from .solo_search import solve_solo  # start-up: the plugin module stays cheap to import

        ch = inst.value
        opts = {**ch.options.to_json(), **params}
        if not ch.card_set.same_cards(default_card_set()):
            opts["cards"] = ch.card_set.inline()
        game = cast("TanglungSolo", load_game("tanglung-solo", **opts))
        sol = solve_solo(ch.layout, None, game.options, ch.card_set)
        state = game.new_initial_state_from({"layout": str(ch.layout), "starts": [list(divmod(sol.start, 4))]})
        return Start("tanglung-solo", state, spec, (0,), None, sol.moves, "fewest moves",
                     "light all 16 cards", "moves")

    def load_formats(self) -> None:
        from . import formats  # noqa: F401  (registers its formats)

    def start_from_file(self, data: Any, where: str, spec: str) -> Start:
        from ...generators.ids import Instance  # start-up: the plugin module stays cheap to import
        from .formats import challenge_from_document  # start-up: the plugin module stays cheap to import

        ch = challenge_from_document(data, where)
        return self.start(Instance(KIND, ch, spec), spec, {})

    def picture(self, state: State, legal: list[int], humans: list[int]) -> Picture:
        from .web import hotspots  # start-up: the plugin module stays cheap to import

        if state.get_game().name == "tanglung-duel":
            return _duel_picture(state, legal)
        e = cast("TanglungSoloState", state).engine
        svg, hot = hotspots(state.to_svg(), legal, e.layout, e.lit, e.positions,
                            f"Tanglung grid, {e.dark_count()} dark after {len(e.log)} moves")
        return Picture(svg, hot)

    def demo(self, out: str, seed: int) -> list[list[str]]:
        return [
            ["tanglung", "solo", "solve", "CRBF/HDFR/BHFB/RHDC", "--svg", f"{out}/tanglung-tour.svg"],
            ["tanglung", "solo", "generate", "--difficulty", "hard", "--seed", str(seed), "--svg", out],
        ]


PLUGIN = TanglungPlugin()


def _duel_picture(state: State, legal: list[int]) -> Picture:
    """The duel's cards as spots chosen one after the other: each move's button carries its cells
    (``spots``: the card placed on or moved to, then the fan's card); ``spot_probe`` per cell is a
    move of the present kind starting there, which the page sends to learn why none is legal."""
    from .api import _LANTERN, _ROOSTER, decode_duel  # start-up: the plugin module stays cheap to import
    from ..picture import named  # start-up: as above
    from .web import duel_spots  # start-up: as above

    def spots(a: int) -> dict[str, Any]:
        d = decode_duel(a)
        return {"spots": [d[1]] if d[0] in ("place", "lantern") else [d[1], d[2]]}

    kinds = {decode_duel(a)[0] for a in legal}
    probe = [(_ROOSTER + 16 * i + (i + 1) % 16 if "rooster" in kinds else _LANTERN + i if "lantern" in kinds else i)
             for i in range(16)]
    names = [f"{i // 4},{i % 4}" for i in range(16)]
    return Picture(named(duel_spots(state.to_svg()), "Tanglung duel grid", "group"), set(), {"spot_names": names, "spot_probe": probe}, spots)

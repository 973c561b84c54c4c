"""Zangle's plugin: the solo, turn and speed games, bots, deal IDs, pages and CLI."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..plugin import GamePlugin, Picture

if TYPE_CHECKING:
    from ...generators.ids import Instance
    from ...play.start import Start
    from ..api import State
    from .api import ZangleState
    from .cards import Deck
    from .engine import Action

SOLO_KIND = "zangle-solo-deal"
#: how the play page composes a Zangle from clicked cards: base + target + mask_stride * mask
COMPOSE = {"base": 1024, "target_stride": 1, "mask_stride": 128}


class ZanglePlugin(GamePlugin):
    family = "zangle"
    title = "Zangle"
    order = 10
    rules_doc = "rules.md"
    games = {
        "zangle-solo": ".zangle.api:ZangleSolo",
        "zangle-turn": ".zangle.api:ZangleTurn",
        "zangle-speed": ".zangle.api:ZangleSpeed",
    }
    cli = "tanglekit.games.zangle.cli:app"
    has_ids = True
    kinds = {SOLO_KIND: "Zangle solo deal", "zangle-turn-deal": "Zangle turn-game deal"}
    playable_kinds = (SOLO_KIND,)
    file_formats = ("tanglekit/zangle-solo",)
    check_page = "Zangle: is this solo deal solvable?"
    web_generators = (
        {"generator": "zangle-solo", "title": "Zangle solo challenge (5 piles)",
         "choices": ("easy", "medium", "hard", "expert"), "id": "zangle:solo,piles=5,{choice}#{seed}"},
    )

    hooks = {
        "bots": ".api_bots:bots",
        "hint": ".api_bots:hint",
        "resolve_id": ".generate:resolve_id",
        "check": ".web:check_zangle",
        "check_data": ".web:zangle_deck",
    }

    def start(self, inst: Instance, spec: str, params: dict[str, Any]) -> Start:
        """A solo game from the deal, the solver's winning line as its optimum."""
        from ...play.start import Start  # start-up: the plugin module stays cheap to import
        from ..plugin import load_game  # start-up: the plugin module stays cheap to import
        from .solo_search import solve_deal  # start-up: the plugin module stays cheap to import

        deal = inst.value
        opts = {**deal.options.to_json(), **params}
        opts.pop("max_turns", None)
        state = load_game("zangle-solo", **opts).new_initial_state_from(deal)
        res = solve_deal(deal, max_states=2_000_000, time_limit=60.0)
        n = len(res.line) if res.solvable else None
        return Start("zangle-solo", state, spec, (0,), None, n, "the solver's winning line",
                     "clear every tableau pile", "actions")

    def load_formats(self) -> None:
        from . import solo_deal  # noqa: F401  (registers its formats)

    def start_from_file(self, data: Any, where: str, spec: str) -> Start:
        from ...generators.ids import Instance  # start-up: the plugin module stays cheap to import
        from .solo_deal import parse_solo_deal  # start-up: the plugin module stays cheap to import

        deal = parse_solo_deal(data, None, where)  # a Zangle solo deal or generated challenge file
        return self.start(Instance(SOLO_KIND, deal, spec), spec, {})

    def picture(self, state: State, legal: list[int], humans: list[int]) -> Picture:
        """The table as HTML cards (a Zangle is chosen by clicking cards, not by a button)."""
        from .web import (  # start-up: the plugin module stays cheap to import
            zangle_places,
            zangle_table_html,
            zangle_tiling,
        )

        places = zangle_places(state)
        playing = bool(legal) and getattr(cast("ZangleState", state).engine, "phase", "play") == "play"
        return Picture(zangle_table_html(state, places), {a for a in legal if a >= COMPOSE["base"]},
                       {"places": places, "can_zangle": playing, "compose": COMPOSE,
                        "last_zangle": zangle_tiling(*_last_zangle(state))})

    def demo(self, out: str, seed: int) -> list[list[str]]:
        return [
            ["zangle", "find", _demo_deal(out, seed), "--svg", f"{out}/zangle-best.svg"],
            ["zangle", "solo", "generate", "--difficulty", "medium", "--seed", str(seed), "--svg", out],
        ]


def _last_zangle(state: State) -> tuple[Deck | None, Action | None]:
    """(deck, engine action) of the last Zangle played in ``state``'s history, or (None, None)."""
    hist = state.history()
    k = max((i for i, a in enumerate(hist) if a >= COMPOSE["base"]), default=None)
    if k is None:
        return None, None
    rep = cast("ZangleState", state).clone()
    for _ in range(len(hist) - k):
        rep.undo()
    return rep.engine.deck, rep.action_table().get(hist[k])


def _demo_deal(out: str, seed: int) -> str:
    """A seeded 4 + 4 table from the default deck, written as a deal file."""
    import json
    import random
    from pathlib import Path

    from ...outputs import write_text  # start-up: the plugin module stays cheap to import
    from .cards import default_deck  # start-up: the plugin module stays cheap to import

    ids = [c.id for c in default_deck().cards]
    cards = random.Random(seed).sample(ids, 8)
    path = Path(out) / "zangle-deal.json"
    write_text(path, json.dumps({"middle": cards[:4], "own": cards[4:]}), "deal")
    return str(path)


PLUGIN = ZanglePlugin()

"""Zinga's plugin: the game, bots, sheet-set IDs, the play page's sheet and CLI."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..plugin import BotSpec, GamePlugin, Picture

if TYPE_CHECKING:
    from ...generators.ids import Instance, ParsedId
    from ..api import State

KIND = "zinga-sheets"


class ZingaPlugin(GamePlugin):
    family = "zinga"
    title = "Zinga"
    order = 40
    games = {"zinga": ".zinga.api:Zinga"}
    cli = "tanglekit.games.zinga.cli:app"
    has_ids = True
    kinds = {KIND: "Zinga sheet set"}
    one_kind = KIND

    def bots(self, game_name: str) -> dict[str, BotSpec]:
        from .api_bots import bots  # start-up: the plugin module stays cheap to import

        return bots(game_name)

    def resolve_id(self, parsed: ParsedId) -> Instance:
        from .generate import resolve_id  # start-up: the plugin module stays cheap to import

        return resolve_id(parsed)

    def picture(self, state: State, legal: list[int], humans: list[int]) -> Picture:
        from .web import hotspots  # start-up: the plugin module stays cheap to import

        svg, hot = hotspots(state.to_svg(), state, humans, legal)
        return Picture(svg, hot)

    def demo(self, out: str, seed: int) -> list[list[str]]:
        return [["zinga", "odds"], ["zinga", "sheets", "show", "--svg", out]]


PLUGIN = ZingaPlugin()

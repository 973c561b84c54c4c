"""Zinga's plugin: the game, bots, sheet-set IDs, the play page's sheet and CLI."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..plugin import GamePlugin, Picture

if TYPE_CHECKING:
    from ..api import State

KIND = "zinga-sheets"


class ZingaPlugin(GamePlugin):
    family = "zinga"
    title = "Zinga"
    order = 40
    rules_doc = "rules.md"
    games = {"zinga": ".zinga.api:Zinga"}
    cli = "tanglekit.games.zinga.cli:app"
    has_ids = True
    kinds = {KIND: "Zinga sheet set"}
    one_kind = KIND

    hooks = {
        "bots": ".api_bots:bots",
        "resolve_id": ".generate:resolve_id",
    }

    def picture(self, state: State, legal: list[int], humans: list[int]) -> Picture:
        from .web import hotspots  # start-up: the plugin module stays cheap to import

        svg, hot = hotspots(state.to_svg(), state, humans, legal)
        return Picture(svg, hot)

    def demo(self, out: str, seed: int) -> list[list[str]]:
        return [["zinga", "odds"], ["zinga", "sheets", "show", "--svg", out]]


PLUGIN = ZingaPlugin()

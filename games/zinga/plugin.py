"""Zinga's plugin: the game, bots, sheet-set IDs, the play page's sheet and CLI."""

from __future__ import annotations

from ..plugin import GamePlugin, Picture

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

    def bots(self, game_name):
        from .api_bots import bots

        return bots(game_name)

    def resolve_id(self, parsed):
        from .generate import resolve_id

        return resolve_id(parsed)

    def picture(self, state, legal, humans):
        from .web import hotspots

        svg, hot = hotspots(state.to_svg(), state, humans, legal)
        return Picture(svg, hot)

    def demo(self, out, seed):
        return [["zinga", "odds"], ["zinga", "sheets", "show", "--svg", out]]


PLUGIN = ZingaPlugin()

"""Zinga's bots on the common game API: the reaction profiles of ``bots.py`` at the turn-based table."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable, cast

from ...play.bots import Bot, RandomBot, with_strong
from ..plugin import BotSpec
from . import api as Z
from .bots import BOTS, _lowest, get_bot, greedy_pick, wrong_code
from .rules import MAX_PLUS, N_CELLS

if TYPE_CHECKING:
    from ..api import State
    from .api import ZingaState


class ZingaBot(Bot):
    """A Zinga player of one reaction profile (``games/zinga/bots.py``) at the turn-based table:
    in the race it rings when it notices a claimable cell (each with probability ``vision``) and
    calls the greedy favourite, or, with ``use_plus``, a ticked one towards the bonus; with
    probability ``mistake`` it blunders (a wrong call 60 %, a silent ring 20 %, a corrected call
    20 %) as in the simulation; it announces four-in-a-line unless it forgets (``forget``), takes
    the pawn, says STOP only to a call that would win, spends the bonus greedily and always
    cancels its own third blunder. (The speed of a profile has no part here: the API asks
    players in the rules' tie order.)"""

    def __init__(self, profile: str, seed: int = 0) -> None:
        self.name = profile
        self.profile = get_bot(profile)
        self.rng = random.Random(seed)

    def choose(self, state: State) -> int:
        g = cast("ZingaState", state).engine.game
        p = state.current_player()
        legal = state.legal_actions()
        prof, rng = self.profile, self.rng
        sheet, ps = g.sheets[p], g.players[p]
        if g.phase == "roll":
            ann = [a for a in legal if Z.ANNOUNCE <= a < Z.ANNOUNCE + 100]
            if ann and rng.random() >= prof.forget:
                return ann[0]
            return Z.TAKE if Z.TAKE in legal else Z.PASS
        if g.phase == "race":
            avail = g.available(p)
            new, old = avail & ~ps.ticked, avail & ps.ticked
            seen_new = sum(1 << i for i in range(N_CELLS) if new >> i & 1 and rng.random() < prof.vision)
            seen_old = sum(1 << i for i in range(N_CELLS) if old >> i & 1 and rng.random() < prof.vision)
            if rng.random() < prof.mistake:
                wc = wrong_code(sheet, ps.ticked, ps.plus, avail)
                u = rng.random()
                if u < 0.6:
                    return Z.CLAIM + wc if Z.CLAIM + wc in legal else Z.SILENT
                if u < 0.8:
                    return Z.SILENT
                first = sheet.codes[greedy_pick(ps.ticked, new)] if new else wc
                a = Z.CORRECT + 60 * first + wc
                return a if a in legal else Z.SILENT
            if seen_new:
                return Z.CLAIM + sheet.codes[greedy_pick(ps.ticked, seen_new)]
            if seen_old and prof.use_plus and ps.plus < MAX_PLUS:
                return Z.CLAIM + sheet.codes[_lowest(seen_old)]
            return Z.PASS
        if g.phase == "stop":
            call = g.pending
            assert call is not None  # the call awaiting STOP
            wins = call.kind == "claim" and g.classify(call.player, call.code)[0] == "win"
            return Z.STOP if wins and Z.STOP in legal else Z.GO
        if g.phase == "bonus":
            cells = g.bonus_cells(p)
            if cells:
                a = Z.BONUS + sheet.codes[greedy_pick(ps.ticked, cells)]
                if a in legal:
                    return a
            return Z.BONUS_SKIP if Z.BONUS_SKIP in legal else legal[0]
        if g.phase == "blunder":
            return Z.CANCEL if Z.CANCEL in legal else legal[0]
        return legal[0]


def bots(game_name: str) -> dict[str, BotSpec]:
    def z(profile: str) -> Callable[[int], Bot]:
        return lambda seed: ZingaBot(profile, seed)

    table = {"random": BotSpec("any legal action (random calls are mostly blunders)", RandomBot)}
    for k, prof in BOTS.items():
        table[k] = BotSpec(f"reaction profile {k}: vision {prof.vision}, mistakes {prof.mistake}, "
                           f"forgets {prof.forget}", z(k))
    return with_strong(table, "perfect")

"""One bot protocol for every game of the common API: ``make_bot(game, strength, seed).choose(state)``.

A bot sees a ``games.api.State`` and returns one of its ``legal_actions()``. Each game has named
strengths (``bot_names(game)``); the per-game engines' own bots and solvers do the thinking and
are only wrapped here. Common names: ``random`` everywhere, ``strong`` for the best bot that
always answers quickly, ``perfect`` where a solver plays exactly (solo games, QANGO). An unknown
game or strength raises :class:`BotError` listing the valid names.

``hint(state)`` asks the strongest helper of a game for the next move of a winning line, and
says so when there is none from here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from ..errors import BotError, SolverError

__all__ = ["Bot", "BotError", "Hint", "RandomBot", "bot_names", "hint", "make_bot", "strengths"]


class Bot:
    """``choose(state) -> action`` on a common-API state; never changes the state."""

    name = "bot"

    def choose(self, state) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{self.name} bot>"


class RandomBot(Bot):
    """A uniformly random legal action (seeded)."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state) -> int:
        return self.rng.choice(state.legal_actions())


class EngineBot(Bot):
    """Wraps a per-game engine bot: ``pick(engine) -> native action``, mapped back to an int by
    ``to_action(state, native)``. The engine bots leave the engine as they found it."""

    def __init__(self, name: str, pick: Callable, to_action: Callable):
        self.name = name
        self._pick = pick
        self._to_action = to_action

    def choose(self, state) -> int:
        native = self._pick(state.engine)
        return self._to_action(state, native)


@dataclass
class Hint:
    """The suggested action (None when there is none) and a sentence saying why."""

    action: int | None
    text: str


# --- registry -----------------------------------------------------------------------------------
# game name -> {strength: (description, factory(seed) -> Bot)}; filled by the per-game sections
_FAMILIES: dict[str, Callable[[str], dict]] = {}


def _family(name: str) -> Callable[[str], dict]:
    for prefix, fn in _FAMILIES.items():
        if name == prefix or name.startswith(prefix + "-"):
            return fn
    raise BotError(f"no bots for game {name!r}")


def strengths(game_name: str) -> dict[str, str]:
    """The bot strengths of a game with a one-line description each (order: weakest first)."""
    _check_game(game_name)
    return {k: v[0] for k, v in _family(game_name)(game_name).items()}


def bot_names(game_name: str) -> list[str]:
    return list(strengths(game_name))


def make_bot(game_name: str, strength: str, seed: int = 0) -> Bot:
    """A bot of ``strength`` for ``game_name`` (deterministic for a seed); BotError if unknown."""
    _check_game(game_name)
    table = _family(game_name)(game_name)
    if strength not in table:
        raise BotError(f"unknown bot {strength!r} for {game_name}: expected one of {', '.join(table)}")
    return table[strength][1](seed)


def _check_game(game_name: str) -> None:
    from ..games import game_names

    names = game_names()
    if game_name not in names:
        raise BotError(f"unknown game {game_name!r}: expected one of {', '.join(names)}")


# per-family hint functions: state -> Hint
_HINTS: dict[str, Callable] = {}


def hint(state) -> Hint:
    """The next move of a winning line from ``state`` (solver where one exists, else the strong
    bot), or an action of None with the reason."""
    if state.is_terminal():
        return Hint(None, "the game is over")
    if state.is_chance_node():
        return Hint(None, "chance moves next")
    name = state.get_game().name
    for prefix, fn in _HINTS.items():
        if name == prefix or name.startswith(prefix + "-"):
            h = fn(state)
            if h is not None:
                return h
    table = _family(name)(name)
    strongest = "perfect" if "perfect" in table else "strong"
    a = table[strongest][1](0).choose(state)
    return Hint(a, f"the {strongest} bot's move")


def _strong_alias(table: dict, strong: str) -> dict:
    """``table`` with a ``strong`` entry pointing at its ``strong`` bot (kept in order)."""
    if "strong" not in table:
        desc, fac = table[strong]
        table["strong"] = (f"= {strong}", fac)
    return table


# --- Tanglung -------------------------------------------------------------------------------------
class TanglungWalkerBot(Bot):
    """Solo / co-op: a dark card if one can be reached, else any card (the generator's walker)."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state) -> int:
        e = state.engine
        acts = state.legal_actions()
        dark = [a for a in acts if not e.lit >> a & 1]
        return self.rng.choice(dark or acts)


def tanglung_solo_best(state) -> tuple[int | None, int | None]:
    """(next move of a shortest winning line, its moves left) from a solo / co-op state;
    (None, None) when no line wins."""
    e = state.engine
    if len(e.starts) == 1:
        from .tanglung_solo import move_graph, noflip_mask, search_graph

        adj, adjn = move_graph(e.layout, e.options)
        moves, _, path, _ = search_graph(adj, adjn, noflip_mask(e.layout), 16, e.positions[0], e.lit)
        if moves < 0:
            return None, None
        return (path[1] if moves > 0 else None), moves
    from .tanglung_coop import _search

    me = e.to_move
    moves, _, seq, _ = _search(e.layout, e.options, (e.positions[me], e.positions[1 - me]), 1_000_000, e.lit)
    if moves < 0:
        return None, None
    return (seq[0] if seq else None), moves


class TanglungPerfectBot(Bot):
    """Solo / co-op: the first move of a shortest winning line (exact search); a walker move
    when no line wins."""

    name = "perfect"

    def __init__(self, seed: int = 0):
        self.fallback = TanglungWalkerBot(seed)

    def choose(self, state) -> int:
        a, _ = tanglung_solo_best(state)
        if a is None or a not in state.legal_actions():
            return self.fallback.choose(state)
        return a


def _tanglung(name: str) -> dict:
    if name in ("tanglung-solo", "tanglung-coop"):
        return _strong_alias({
            "random": ("any legal move", RandomBot),
            "greedy": ("a dark card when one is reachable (the generator's walker)", TanglungWalkerBot),
            "perfect": ("the first move of a shortest winning line (exact search)", TanglungPerfectBot),
        }, "perfect")

    def duel(strength):
        def make(seed):
            from ..games.tanglung.api import encode_duel
            from .tanglung_duel import make_bot as duel_bot

            b = duel_bot(strength, seed)
            return EngineBot(strength, lambda eng: b.choose(eng.match), lambda st, a: encode_duel(a))
        return make

    return _strong_alias({
        "random": ("any legal action", duel("random")),
        "greedy": ("one-ply tactics, looks at the opponent's immediate wins", duel("greedy")),
        "pimc": ("determinised alpha-beta (4 samples, depth 2)", duel("pimc")),
        "pimc-strong": ("determinised alpha-beta (6 samples, depth 3)", duel("pimc-strong")),
    }, "pimc")


def _tanglung_hint(state) -> Hint | None:
    if state.get_game().name not in ("tanglung-solo", "tanglung-coop"):
        return None
    a, left = tanglung_solo_best(state)
    if left is None:
        return Hint(None, "no winning line from here (exact search)")
    return Hint(a, f"a shortest winning line needs {left} more move{'s' if left != 1 else ''}")


_FAMILIES["tanglung"] = _tanglung
_HINTS["tanglung"] = _tanglung_hint


def by_string(state, native) -> int:
    """The legal action of ``state`` whose text is ``str(native)`` (engines with the same notation)."""
    want = str(native)
    for a in state.legal_actions():
        if state.action_to_string(a) == want:
            return a
    raise SolverError(f"the bot's move {want!r} is not a legal action here")


# --- Zangle ---------------------------------------------------------------------------------------
def _zangle_key(a) -> tuple:
    return (a.kind, a.target, frozenset(a.pieces), frozenset(a.z), a.src, a.dst)


def zangle_action(state, native) -> int:
    """The int of engine action ``native`` (a Zangle matched by its cards, in any order)."""
    want = _zangle_key(native)
    for k, a in state._table().items():
        if _zangle_key(a) == want:
            return k
    raise SolverError(f"the bot's move {native} is not a legal action here")


def zangle_solo_best(state, max_states: int = 2_000_000, time_limit: float | None = 20.0):
    """(first action of a winning line, its length) for a solo state, (None, None) if no line
    wins, (None, -1) if the search stopped at its limit. The solver knows the face-down cards."""
    from .zangle_solo import SoloDeal, solve_deal

    e = state.engine
    if state.is_terminal():
        return None, None
    if e.phase != "play":  # a fill choice: try each, the solver takes over in the play phase
        undecided = False
        for a in state.legal_actions():
            c = state.clone()
            c.apply_action(a)
            if c.is_terminal():
                if c.returns()[0] > 0:
                    return a, 1
                continue
            _, n = zangle_solo_best(c, max_states, time_limit)
            if n is not None and n >= 0:
                return a, n + 1
            undecided |= n == -1
        return None, (-1 if undecided else None)
    res = solve_deal(SoloDeal.from_game(e), max_states=max_states, time_limit=time_limit)
    if res.solvable is None:
        return None, -1
    if not res.solvable:
        return None, None
    return zangle_action(state, res.line[0]), len(res.line)


class ZanglePerfectBot(Bot):
    """Solo: the first action of the solver's winning line (it knows the face-down cards);
    the look-ahead bot when no line wins."""

    name = "perfect"

    def __init__(self, seed: int = 0):
        from ..games.zangle.bots import make_bot as zbot

        self.fallback = zbot("lookahead", seed)

    def choose(self, state) -> int:
        a, _ = zangle_solo_best(state)
        if a is None:
            return zangle_action(state, self.fallback.choose(state.engine))
        return a


def _zangle(name: str) -> dict:
    def z(strength):
        def make(seed):
            from ..games.zangle.bots import make_bot as zbot

            b = zbot(strength, seed)
            return EngineBot(strength, b.choose, zangle_action)
        return make

    table = {
        "random": ("any legal action", z("random")),
        "greedy": ("the best Zangle now, else the most useful other action", z("greedy")),
    }
    if name == "zangle-solo":
        table["lookahead"] = ("greedy play-outs over reshuffled hidden cards (never peeks)", z("lookahead"))
        table["perfect"] = ("the solver's winning line (it knows the face-down cards)", ZanglePerfectBot)
        return _strong_alias(table, "lookahead")
    return _strong_alias(table, "greedy")


def _zangle_hint(state) -> Hint | None:
    if state.get_game().name != "zangle-solo":
        return None
    a, n = zangle_solo_best(state)
    if a is None:
        return Hint(None, "the solver stopped at its limit" if n == -1 else "no winning line from here (exact search)")
    return Hint(a, f"the solver's winning line has {n} action{'s' if n != 1 else ''} from here")


_FAMILIES["zangle"] = _zangle
_HINTS["zangle"] = _zangle_hint


def native_action(state, native) -> int:
    """``native`` itself when it is a legal int action of ``state`` (engines whose moves are the
    API's ints), else the legal action with the same text."""
    if isinstance(native, int) and native in state.legal_actions():
        return native
    return by_string(state, native)


# --- QANGO ----------------------------------------------------------------------------------------
#: seconds a QANGO bot or hint may think per move
QANGO_THINK = 2.0


def qango_position(state):
    e = state.engine
    return getattr(e, "position", e)


def _qango(name: str) -> dict:
    def q(strength):
        def make(seed):
            from .qango_bots import make_bot as qbot

            f = qbot(strength, seed, QANGO_THINK)
            return EngineBot(strength, lambda eng: f(getattr(eng, "position", eng)), native_action)
        return make

    return _strong_alias({
        "random": ("any free cell", q("random")),
        "search": ("short exact search, then threats and a pattern heuristic", q("search")),
        "perfect": ("the exact solver's best move (search when it runs out of time)", q("perfect")),
    }, "search")


def _qango_hint(state) -> Hint | None:
    from .qango_solve import QangoSolver

    pos = qango_position(state)
    res = QangoSolver(pos.board, pos.allowed_first, tt_bits=20).solve(pos, time_limit=QANGO_THINK * 2)
    if res.value == "unknown" or res.best_move is None:
        return None  # undecided in time: the strong bot's move
    a = native_action(state, res.best_move)
    if res.value == "win":
        from ..games.qango.position import plies_text

        return Hint(a, f"wins in {plies_text(res.plies)} with best play")
    if res.value == "draw":
        return Hint(a, "no winning line from here; this move holds the draw")
    from ..games.qango.position import plies_text

    return Hint(None, f"no winning line from here: the opponent wins in {plies_text(res.plies)} with best play"
                      f" ({state.action_to_string(a)} holds out longest)")


_FAMILIES["qango"] = _qango
_HINTS["qango"] = _qango_hint


# --- Tangle ---------------------------------------------------------------------------------------
def _tangle(name: str) -> dict:
    def t(strength):
        def make(seed):
            from .tangle_bots import make_bot as tbot

            b = tbot(strength, seed)
            return EngineBot(strength, b.choose, tangle_action)
        return make

    return _strong_alias({
        "random": ("any legal placement", t("random")),
        "greedy": ("the capture worth most now, else random", t("greedy")),
        "builder": ("greedy, grows own tiles, never hands over a capture it can avoid", t("builder")),
        "lookahead": ("exact best turn against the best reply, then forks", t("lookahead")),
    }, "lookahead")


def tangle_action(state, native) -> int:
    """The int of a Tangle placement (or the pass, -1 on the engine) chosen on the engine."""
    if native == -1:
        return state._pass
    if isinstance(native, int) and native in state.legal_actions():
        return native
    return by_string(state, state.engine.game.move_text(native))


def _tangle_hint(state) -> Hint | None:
    from .tangle_search import best_turn

    try:
        r = best_turn(state.engine, "safe", node_limit=200_000)
    except SolverError:
        return None  # too open to search exactly: the strong bot's move
    if r.points <= 0 or not r.placements:
        return None
    a = tangle_action(state, r.placements[0])
    return Hint(a, f"the best turn scores {r.points} point{'s' if r.points != 1 else ''} in "
                   f"{len(r.placements)} placement{'s' if len(r.placements) != 1 else ''}"
                   + ("" if r.safe else " (no safe turn exists)"))


_FAMILIES["tangle"] = _tangle
_HINTS["tangle"] = _tangle_hint


# --- Zinga ----------------------------------------------------------------------------------------
class ZingaBot(Bot):
    """A Zinga player of one reaction profile (``games/zinga/bots.py``) at the turn-based table:
    in the race it rings when it notices a claimable cell (each with probability ``vision``) and
    calls the greedy favourite, or, with ``use_plus``, a ticked one towards the bonus; with
    probability ``mistake`` it blunders (a wrong call 60 %, a silent ring 20 %, a corrected call
    20 %) as in the simulation; it announces four-in-a-line unless it forgets (``forget``), takes
    the pawn, says STOP only to a call that would win, spends the bonus greedily and always
    cancels its own third blunder. (The speed of a profile has no part here: the API asks
    players in the rules' tie order.)"""

    def __init__(self, profile: str, seed: int = 0):
        from ..games.zinga.bots import get_bot

        self.name = profile
        self.profile = get_bot(profile)
        self.rng = random.Random(seed)

    def choose(self, state) -> int:
        from ..games.zinga import api as Z
        from ..games.zinga.bots import _lowest, greedy_pick, wrong_code
        from ..games.zinga.rules import MAX_PLUS, N_CELLS

        g = state.engine.game
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


def _zinga(name: str) -> dict:
    from ..games.zinga.bots import BOTS

    def z(profile):
        return lambda seed: ZingaBot(profile, seed)

    table = {"random": ("any legal action (random calls are mostly blunders)", RandomBot)}
    for k, prof in BOTS.items():
        table[k] = (f"reaction profile {k}: vision {prof.vision}, mistakes {prof.mistake}, forgets {prof.forget}", z(k))
    return _strong_alias(table, "perfect")


_FAMILIES["zinga"] = _zinga

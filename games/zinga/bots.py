"""Zinga bots: a documented bell-race (reaction-time) model, named strengths, and bot games on the engine.

Reaction model, per bot and roll (all draws come from a SplitMix64 stream shared bit for bit with
the numba kernel in ``games/zinga/sim.py``, so both play the very same games):
- each claimable new cell is noticed independently with probability ``vision``;
- with k noticed options the bell is rung after ``base + E / (k * speed)`` seconds, E ~ Exp(1)
  (the first of k independent exponential searches); the greedy favourite is called;
- with nothing new but a ticked combination on the table and fewer than 3 PLUS boxes, the bot
  (``use_plus``) calls a ticked one on purpose to work towards the bonus (same timing rule);
- with probability ``mistake`` the bot also has a false alarm at ``base + E' / speed``; if it
  comes first the bot blunders: a wrong call (60%: a ticked combination once the PLUS boxes are
  full, else a cell not on the table), a silent ring (20%), or a corrected call (20%);
- after each turn a bot with an unannounced four-in-a-line announces it unless it forgets
  (probability ``forget``); a forgotten series makes its fifth call a blunder;
- the earliest bell wins (ties: the active player, then clockwise);
- the pawn holder says STOP only to a call that would win; a bot always spends the pawn to
  cancel its own third blunder; the bonus ticks the greedy favourite that does not end a line.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from ...errors import BotError, RuleError
from .engine import Move, ZingaGame
from .rules import LINE_MASKS, MAX_PLUS, N_CELLS, ZingaOptions
from .sheet import Sheet

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


def mix64(z: int) -> int:
    """The SplitMix64 output function (a bijective 64-bit scrambler)."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def game_state(seed: int, game: int) -> int:
    """Initial SplitMix64 state of game number ``game`` of a seeded run.

    Scrambled, so that the streams of games g and g + 1 are not the same stream shifted by one
    draw (SplitMix64 states that differ by a multiple of its increment overlap).
    """
    return mix64(((seed & MASK64) * 1_000_003 + (game + 1) * GOLDEN) & MASK64)


class SplitMix64:
    """SplitMix64 (Steele et al.), in plain Python; ``uniform()`` is in (0, 1) with 53 bits."""

    def __init__(self, state: int):
        self.state = state & MASK64

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * MIX1) & MASK64
        z = ((z ^ (z >> 27)) * MIX2) & MASK64
        return z ^ (z >> 31)

    def uniform(self) -> float:
        return ((self.next() >> 11) + 0.5) * (1.0 / 9007199254740992.0)

    def die(self) -> int:
        return 1 + int(self.uniform() * 6.0)


# Indices of BotProfile.row(), the profile row the simulation kernel reads
PROF_SPEED, PROF_BASE, PROF_VISION, PROF_MISTAKE, PROF_FORGET, PROF_USE_PLUS = 0, 1, 2, 3, 4, 5
N_PROF = 6


@dataclass(frozen=True)
class BotProfile:
    """A bot's reaction-time model (see the module docstring); times in seconds."""

    name: str = "casual"
    speed: float = 1.0
    base: float = 0.4
    vision: float = 0.8
    mistake: float = 0.02
    forget: float = 0.1
    use_plus: bool = True

    def __post_init__(self) -> None:
        if self.speed <= 0:
            raise RuleError(f"bot speed must be positive, not {self.speed}")
        for k in ("vision", "mistake", "forget"):
            v = getattr(self, k)
            if not 0.0 <= v <= 1.0:
                raise RuleError(f"bot {k} must be a probability in [0, 1], not {v}")

    def to_json(self) -> dict:
        return asdict(self)

    def row(self) -> list[float]:
        """The profile as the simulation kernel reads it, at the PROF_* indices."""
        out = [0.0] * N_PROF
        out[PROF_SPEED] = self.speed
        out[PROF_BASE] = self.base
        out[PROF_VISION] = self.vision
        out[PROF_MISTAKE] = self.mistake
        out[PROF_FORGET] = self.forget
        out[PROF_USE_PLUS] = float(self.use_plus)
        return out


BOTS = {
    "novice": BotProfile("novice", speed=0.6, base=0.6, vision=0.6, mistake=0.06, forget=0.3),
    "casual": BotProfile("casual"),
    "expert": BotProfile("expert", speed=1.6, base=0.3, vision=0.95, mistake=0.01, forget=0.02),
    "perfect": BotProfile("perfect", speed=3.0, base=0.2, vision=1.0, mistake=0.0, forget=0.0),
}


def get_bot(name: str | BotProfile) -> BotProfile:
    if isinstance(name, BotProfile):
        return name
    if name not in BOTS:
        raise BotError(f"unknown bot strength {str(name)[:40]!r}: choose {', '.join(BOTS)}")
    return BOTS[name]


LINE_WEIGHTS = (1, 3, 9, 27, 1000)
CELL_LINES = tuple(tuple(k for k in range(len(LINE_MASKS)) if LINE_MASKS[k] >> i & 1) for i in range(N_CELLS))


def greedy_pick(ticked: int, options: int) -> int:
    """Greedy favourite among ``options``: most weight of lines near completion, then lowest index."""
    best, best_s = -1, -1
    for i in range(N_CELLS):
        if options >> i & 1:
            s = 0
            for k in CELL_LINES[i]:
                s += LINE_WEIGHTS[bin(ticked & LINE_MASKS[k]).count("1")]
            if s > best_s:
                best, best_s = i, s
    return best


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def wrong_code(sheet: Sheet, ticked: int, plus: int, avail: int) -> int:
    """The combination a bot calls by mistake (deterministic, see the module docstring)."""
    old = avail & ticked
    if plus >= MAX_PLUS and old:
        return sheet.codes[_lowest(old)]
    bad = ((1 << N_CELLS) - 1) & ~ticked & ~avail
    if bad:
        return sheet.codes[_lowest(bad)]
    on = set(sheet.codes)
    return next(c for c in range(60) if c not in on)


def bot_turn_call(game: ZingaGame, profiles, rng: SplitMix64) -> Move:
    """Draw the bell race of the current roll and return the winning call (or 'none')."""
    n = game.n
    best_t, best = math.inf, Move("none")
    for k in range(n):
        p = (game.active + k) % n
        ps = game.players[p]
        if not ps.alive:
            continue
        prof = profiles[p]
        u_m, u_mt, u_kind, u_t = rng.uniform(), rng.uniform(), rng.uniform(), rng.uniform()
        avail = game.available(p)
        new, old = avail & ~ps.ticked, avail & ps.ticked
        seen_new = seen_old = 0
        for i in range(N_CELLS):
            if new >> i & 1 and rng.uniform() < prof.vision:
                seen_new |= 1 << i
        for i in range(N_CELLS):
            if old >> i & 1 and rng.uniform() < prof.vision:
                seen_old |= 1 << i
        t, call = math.inf, None
        sheet = game.sheets[p]
        if seen_new:
            t = prof.base + (-math.log(u_t)) / (bin(seen_new).count("1") * prof.speed)
            call = Move("claim", p, sheet.codes[greedy_pick(ps.ticked, seen_new)])
        elif seen_old and prof.use_plus and ps.plus < MAX_PLUS:
            t = prof.base + (-math.log(u_t)) / (bin(seen_old).count("1") * prof.speed)
            call = Move("claim", p, sheet.codes[_lowest(seen_old)])
        if u_m < prof.mistake:
            tm = prof.base + (-math.log(u_mt)) / prof.speed
            if tm < t:
                t = tm
                wc = wrong_code(sheet, ps.ticked, ps.plus, avail)
                if u_kind < 0.6:
                    call = Move("claim", p, wc)
                elif u_kind < 0.8:
                    call = Move("silent", p)
                else:
                    first = sheet.codes[greedy_pick(ps.ticked, new)] if new else wc
                    call = Move("correct", p, first, wc)
        if call is not None and t < best_t:
            best_t, best = t, call
    return best


def bot_followups(game: ZingaGame, profiles, rng: SplitMix64) -> None:
    """Play STOP/go, bonus and blunder decisions, then the end-of-turn announcements."""
    while game.phase in ("stop", "bonus", "blunder"):
        if game.phase == "stop":
            call = game.pending
            would_win = call.kind == "claim" and game.classify(call.player, call.code)[0] == "win"
            game.play(Move("stop", game.pawn) if would_win else Move("go"))
        elif game.phase == "bonus":
            p = game.pending.player
            cells = game.bonus_cells(p)
            game.play(Move("bonus", p, game.sheets[p].codes[greedy_pick(game.players[p].ticked, cells)]))
        else:
            game.play(Move("cancel", game.pending.player))
    if game.phase != "roll":
        return
    for p in range(game.n):
        ps = game.players[p]
        if not ps.alive:
            continue
        u_a = rng.uniform()
        missing = game.four_lines_unannounced(p)
        if missing and u_a >= profiles[p].forget:
            for cell in missing:
                game.play(Move("announce", p, game.sheets[p].codes[cell]))
    for p in sorted(game.pawn_window):
        game.play(Move("take", p))


def play_bot_game(sheets: list[Sheet], profiles, options: ZingaOptions | None = None,
                  seed: int = 0, game_index: int = 0, first: int = 0) -> ZingaGame:
    """One full game of bots on the plain engine; the returned game holds the whole move log."""
    profiles = [get_bot(p) for p in profiles]
    if len(profiles) != len(sheets):
        raise RuleError(f"{len(sheets)} sheets but {len(profiles)} bot profiles")
    game = ZingaGame(sheets, options, first)
    rng = SplitMix64(game_state(seed, game_index))
    while not game.is_over():
        dice = tuple(rng.die() for _ in range(6))
        game.play(Move("roll", dice=dice))
        game.play(bot_turn_call(game, profiles, rng))
        bot_followups(game, profiles, rng)
    return game


def game_stats(game: ZingaGame) -> list[list[int]]:
    """Per player: ticks, PLUS boxes, blunders, eliminated, bonus used (compared with the kernel)."""
    return [[bin(ps.ticked).count("1"), ps.plus, ps.blunders, int(not ps.alive), int(ps.bonus_used)]
            for ps in game.players]

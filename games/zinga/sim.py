"""Zinga game simulation: a numba kernel playing the bot model of games/zinga/bots.py bit for bit.

The kernel and the plain engine (``play_bot_game``) draw from the same SplitMix64 stream in the
same order, so game g of a seeded run has the same winner, length and per-player statistics in
both; tests compare them. Game g starts with player g % n active.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import permutations
from typing import NamedTuple

import numpy as np
from numba import njit

from ... import numba_cache  # noqa: F401  (its cache locator, before the kernels below are defined)
from ...errors import RuleError, SolverError
from ...kernelargs import kernel_bundle
from .bots import (
    GOLDEN,
    LINE_WEIGHTS,
    MIX1,
    MIX2,
    PROF_BASE,
    PROF_FORGET,
    PROF_MISTAKE,
    PROF_SPEED,
    PROF_USE_PLUS,
    PROF_VISION,
    game_stats,
    get_bot,
    play_bot_game,
)
from .rules import (
    FLAG_ANNOUNCE_ANY_LINE,
    FLAG_LAST_STANDING_WINS,
    FLAG_MAX_TURNS,
    FLAG_PLUS_NEEDS_TABLE,
    FLAG_STOP_ANY_CALL,
    FLAG_TABLE_BY_ROLE,
    LINE_MASKS,
    ZingaOptions,
)

_GOLDEN = np.uint64(GOLDEN)
_MIX1 = np.uint64(MIX1)
_MIX2 = np.uint64(MIX2)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0
# SimOut.stats[game, seat, STAT_*] and SimOut.events[game, EVENT_*]
STAT_TICKS, STAT_PLUS, STAT_BLUNDERS, STAT_ELIMINATED, STAT_BONUS_USED = 0, 1, 2, 3, 4
N_STATS = 5
EVENT_STOPS, EVENT_CANCELS = 0, 1
N_EVENTS = 2


class SimSeats(NamedTuple):
    """Per seat: its sheet's codes (cell -> code), the cell of each code (-1 absent) and its bot
    profile row (games.zinga.bots PROF_*)."""

    DTYPES = {"prof": np.float64}
    codes: np.ndarray
    cell_of_code: np.ndarray
    prof: np.ndarray


class SimRules(NamedTuple):
    """The rule options (games.zinga.rules FLAG_*) and the sheet geometry: the lines through
    each cell (-1 padded), each line's cell mask, the greedy bot's weight per ticked count."""

    flags: np.ndarray
    cell_lines: np.ndarray
    line_masks: np.ndarray
    weights: np.ndarray


class SimRun(NamedTuple):
    """Which games: the run's seed, the first game's index and how many."""

    DTYPES = {"seed": np.uint64}
    seed: int
    g0: int
    n_games: int


class SimOut(NamedTuple):
    """Per game: the winner (-1 draw), rolls, stats (seat, STAT_*) and events (EVENT_*)."""

    winners: np.ndarray
    turns: np.ndarray
    stats: np.ndarray
    events: np.ndarray


@njit(cache=True)
def _uniform(state):
    s = state[0] + _GOLDEN
    state[0] = s
    z = s
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    z = z ^ (z >> _S31)
    return (float(z >> _S11) + 0.5) * _INV53


@njit(cache=True)
def _mix64(z):
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True)
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def _lowest(x):
    i = 0
    while not (x >> i) & 1:
        i += 1
    return i


@njit(cache=True)
def _greedy(ticked, options, cell_lines, line_masks, weights):
    best = -1
    best_s = -1
    for i in range(25):
        if (options >> i) & 1:
            s = 0
            for j in range(4):
                k = cell_lines[i, j]
                if k >= 0:
                    s += weights[_popcount(ticked & line_masks[k])]
            if s > best_s:
                best = i
                best_s = s
    return best


@njit(cache=True)
def _completes(ticked, i, cell_lines, line_masks):
    """Bit mask of lines that ticking cell i completes."""
    t = ticked | (1 << i)
    out = 0
    for j in range(4):
        k = cell_lines[i, j]
        if k >= 0 and (t & line_masks[k]) == line_masks[k]:
            out |= 1 << k
    return out


@njit(cache=True)
def simulate_kernel(seats, rules, run, out):
    """Play games g0 .. g0+n_games-1 of ``run`` (SimRun) with ``seats`` (SimSeats) under
    ``rules`` (SimRules); fill ``out`` (SimOut)."""
    codes = seats.codes
    cell_of_code = seats.cell_of_code
    prof = seats.prof
    flags = rules.flags
    cell_lines = rules.cell_lines
    line_masks = rules.line_masks
    weights = rules.weights
    seed = run.seed
    g0 = run.g0
    n_games = run.n_games
    winners = out.winners
    turns = out.turns
    stats = out.stats
    events = out.events
    n = codes.shape[0]
    table_by_role = flags[FLAG_TABLE_BY_ROLE]
    plus_needs_table = flags[FLAG_PLUS_NEEDS_TABLE]
    stop_any_call = flags[FLAG_STOP_ANY_CALL]
    announce_any = flags[FLAG_ANNOUNCE_ANY_LINE]
    last_standing = flags[FLAG_LAST_STANDING_WINS]
    max_turns = flags[FLAG_MAX_TURNS]
    state = np.zeros(1, dtype=np.uint64)
    avA = np.zeros(60, dtype=np.bool_)
    avP = np.zeros(60, dtype=np.bool_)
    dice = np.zeros(6, dtype=np.int64)
    ticked = np.zeros(n, dtype=np.int64)
    plus = np.zeros(n, dtype=np.int64)
    blunders = np.zeros(n, dtype=np.int64)
    alive = np.zeros(n, dtype=np.bool_)
    bonus_used = np.zeros(n, dtype=np.bool_)
    announced = np.zeros(n, dtype=np.int64)
    avail = np.zeros(n, dtype=np.int64)
    full = (1 << 25) - 1
    for gi in range(n_games):
        g = g0 + gi
        state[0] = _mix64(np.uint64(seed) * np.uint64(1000003) + np.uint64(g + 1) * _GOLDEN)
        for p in range(n):
            ticked[p] = 0
            plus[p] = 0
            blunders[p] = 0
            alive[p] = True
            bonus_used[p] = False
            announced[p] = 0
        pawn = -1
        stops = 0
        cancels = 0
        active = g % n
        turn = 0
        winner = -1
        over = False
        while not over:
            # roll
            for d in range(6):
                dice[d] = 1 + int(_uniform(state) * 6.0)
            turn += 1
            avA[:] = False
            avP[:] = False
            w = dice[5]
            for c in range(5):
                avA[c * 12 + dice[c] - 1] = True
                avA[c * 12 + dice[c] + w - 1] = True
                avP[c * 12 + dice[c] + w - 1] = True
            # bell race
            best_t = math.inf
            best_p = -1
            best_kind = 0  # 0 none, 1 claim, 2 silent, 3 correct
            best_code = -1
            for k in range(n):
                p = (active + k) % n
                if not alive[p]:
                    continue
                speed = prof[p, PROF_SPEED]
                base = prof[p, PROF_BASE]
                vision = prof[p, PROF_VISION]
                u_m = _uniform(state)
                u_mt = _uniform(state)
                u_kind = _uniform(state)
                u_t = _uniform(state)
                av = 0
                for i in range(25):
                    c = codes[p, i]
                    if (avA[c] if p == active else avP[c]):
                        av |= 1 << i
                avail[p] = av
                new = av & ~ticked[p]
                old = av & ticked[p]
                seen_new = 0
                seen_old = 0
                for i in range(25):
                    if (new >> i) & 1:
                        if _uniform(state) < vision:
                            seen_new |= 1 << i
                for i in range(25):
                    if (old >> i) & 1:
                        if _uniform(state) < vision:
                            seen_old |= 1 << i
                t = math.inf
                kind = 0
                code = -1
                if seen_new:
                    t = base + (-math.log(u_t)) / (_popcount(seen_new) * speed)
                    kind = 1
                    code = codes[p, _greedy(ticked[p], seen_new, cell_lines, line_masks, weights)]
                elif seen_old and prof[p, PROF_USE_PLUS] > 0.5 and plus[p] < 3:
                    t = base + (-math.log(u_t)) / (_popcount(seen_old) * speed)
                    kind = 1
                    code = codes[p, _lowest(seen_old)]
                if u_m < prof[p, PROF_MISTAKE]:
                    tm = base + (-math.log(u_mt)) / speed
                    if tm < t:
                        t = tm
                        # the wrong combination (see bots.wrong_code)
                        if plus[p] >= 3 and old:
                            wc = codes[p, _lowest(old)]
                        else:
                            bad = full & ~ticked[p] & ~av
                            if bad:
                                wc = codes[p, _lowest(bad)]
                            else:
                                wc = 0
                                while cell_of_code[p, wc] >= 0:
                                    wc += 1
                        if u_kind < 0.6:
                            kind = 1
                            code = wc
                        elif u_kind < 0.8:
                            kind = 2
                        else:
                            kind = 3
                            code = wc
                if kind != 0 and t < best_t:
                    best_t = t
                    best_p = p
                    best_kind = kind
                    best_code = code
            # resolve the first bell
            end_turn = True
            blunder_case = 0
            p = best_p
            if best_kind == 2:
                blunder_case = 2
            elif best_kind == 1 or best_kind == 3:
                # classify the call (engine.classify)
                what = 0  # 0 tick, 1 win, 2 plus, 3 blunder
                case = 0
                cell = -1
                if best_kind == 1:
                    cell = cell_of_code[p, best_code]
                    if cell < 0:
                        what = 3
                        case = 1
                    else:
                        if p == active or not table_by_role:
                            on_table = avA[best_code]
                        else:
                            on_table = avP[best_code]
                        if (ticked[p] >> cell) & 1:
                            if (not on_table) and plus_needs_table:
                                what = 3
                                case = 1
                            elif plus[p] < 3:
                                what = 2
                            else:
                                what = 3
                                case = 4
                        elif not on_table:
                            what = 3
                            case = 1
                        else:
                            done = _completes(ticked[p], cell, cell_lines, line_masks)
                            if done:
                                hit = done & announced[p]
                                ok = hit != 0 if announce_any else hit == done
                                if ok:
                                    what = 1
                                else:
                                    what = 3
                                    case = 5
                h = pawn
                stopped = False
                if h >= 0 and h != p and alive[h]:
                    stoppable = stop_any_call or (best_kind == 1 and what <= 1)
                    if stoppable and best_kind == 1 and what == 1:
                        pawn = p
                        stopped = True
                        stops += 1
                if not stopped:
                    if best_kind == 3:
                        blunder_case = 3
                    elif what == 3:
                        blunder_case = case
                    elif what == 2:
                        plus[p] += 1
                        if plus[p] == 3 and not bonus_used[p]:
                            cells = 0
                            for i in range(25):
                                if not (ticked[p] >> i) & 1 and _completes(ticked[p], i, cell_lines, line_masks) == 0:
                                    cells |= 1 << i
                            if cells:
                                i = _greedy(ticked[p], cells, cell_lines, line_masks, weights)
                                ticked[p] |= 1 << i
                                if codes[p, i] == 56:
                                    pawn = p
                            bonus_used[p] = True
                    else:
                        ticked[p] |= 1 << cell
                        if best_code == 56:
                            pawn = p
                        if what == 1:
                            winner = p
                            over = True
                            end_turn = False
            if blunder_case:
                if blunders[p] == 2 and pawn == p:
                    pawn = -1
                    cancels += 1
                else:
                    blunders[p] += 1
                    if blunders[p] >= 3:
                        alive[p] = False
                        if pawn == p:
                            pawn = -1
                        n_alive = 0
                        last = -1
                        for q in range(n):
                            if alive[q]:
                                n_alive += 1
                                last = q
                        if n_alive == 1 and last_standing:
                            winner = last
                            over = True
                            end_turn = False
                        elif n_alive == 0:
                            over = True
                            end_turn = False
            if end_turn:
                if turn >= max_turns:
                    over = True
                else:
                    for k in range(1, n + 1):
                        q = (active + k) % n
                        if alive[q]:
                            active = q
                            break
            if over:
                break
            # announcements of four in a line
            for q in range(n):
                if not alive[q]:
                    continue
                u_a = _uniform(state)
                fours = 0
                for k in range(12):
                    rest = line_masks[k] & ~ticked[q]
                    if rest != 0 and (rest & (rest - 1)) == 0:
                        fours |= 1 << k
                if (fours & ~announced[q]) != 0 and u_a >= prof[q, PROF_FORGET]:
                    announced[q] |= fours
        winners[gi] = winner
        turns[gi] = turn
        events[gi, EVENT_STOPS] = stops
        events[gi, EVENT_CANCELS] = cancels
        for q in range(n):
            stats[gi, q, STAT_TICKS] = _popcount(ticked[q])
            stats[gi, q, STAT_PLUS] = plus[q]
            stats[gi, q, STAT_BLUNDERS] = blunders[q]
            stats[gi, q, STAT_ELIMINATED] = 0 if alive[q] else 1
            stats[gi, q, STAT_BONUS_USED] = 1 if bonus_used[q] else 0


def _tables(sheets):
    n = len(sheets)
    codes = np.array([s.codes for s in sheets], dtype=np.int64)
    cell_of_code = -np.ones((n, 60), dtype=np.int64)
    for p, s in enumerate(sheets):
        for i, c in enumerate(s.codes):
            cell_of_code[p, c] = i
    line_masks = np.array(LINE_MASKS, dtype=np.int64)
    cell_lines = -np.ones((25, 4), dtype=np.int64)
    for i in range(25):
        ks = [k for k in range(12) if LINE_MASKS[k] >> i & 1]
        cell_lines[i, :len(ks)] = ks
    return codes, cell_of_code, line_masks, cell_lines


@dataclass
class SimResult:
    winners: np.ndarray  # (G,) seat of the winner, -1 for a draw
    turns: np.ndarray  # (G,) rolls
    stats: np.ndarray  # (G, n, 5): ticks, plus, blunders, eliminated, bonus used
    events: np.ndarray  # (G, 2): STOPs said, third blunders cancelled with the pawn


def simulate_games(sheets, profiles, n_games: int, seed: int = 0, options: ZingaOptions | None = None,
                   g0: int = 0) -> SimResult:
    """Play ``n_games`` bot games with the numba kernel (one sheet and one bot per seat)."""
    options = options or ZingaOptions()
    profs = np.array([get_bot(p).row() for p in profiles], dtype=np.float64)
    if len(profs) != len(sheets):
        raise RuleError(f"{len(sheets)} sheets but {len(profs)} bot profiles")
    codes, coc, lm, cl = _tables(sheets)
    seats = kernel_bundle(SimSeats, codes=codes, cell_of_code=coc, prof=profs)
    rules = kernel_bundle(SimRules, flags=options.flags(), cell_lines=cl, line_masks=lm, weights=LINE_WEIGHTS)
    run = kernel_bundle(SimRun, seed=seed & (2**64 - 1), g0=g0, n_games=n_games)
    out = kernel_bundle(SimOut, shapes={"winners": n_games, "turns": n_games,
                                        "stats": (n_games, len(sheets), N_STATS), "events": (n_games, N_EVENTS)})
    simulate_kernel(seats, rules, run, out)
    return SimResult(out.winners, out.turns, out.stats, out.events)


def simulate_games_plain(sheets, profiles, n_games: int, seed: int = 0, options: ZingaOptions | None = None,
                         g0: int = 0) -> SimResult:
    """The same games on the plain engine (reference for the kernel; slow)."""
    w, t, st, ev = [], [], [], []
    for g in range(g0, g0 + n_games):
        game = play_bot_game(sheets, profiles, options, seed, g, first=g % len(sheets))
        w.append(-1 if game.winner is None else game.winner)
        t.append(game.turn)
        st.append(game_stats(game))
        ev.append([game.stops, game.cancels])
    return SimResult(*(np.array(x, dtype=np.int64) for x in (w, t, st, ev)))


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def sheet_win_rates(sheets, players: int, n_games: int, seed: int = 0, bot="casual",
                    options: ZingaOptions | None = None, progress=None, chunk: int = 2000,
                    engine: str = "numba") -> dict:
    """Win rate of each sheet with equal bots, games spread evenly over the seatings.

    The seatings are all ordered choices of ``players`` sheets (at most 48 of them; otherwise the
    m cyclic rotations (r + k) % m), so every sheet meets every other in every seat order; the
    first active player rotates with the game number too. Draws count as no win.
    """
    if engine not in ("numba", "plain"):
        raise SolverError(f"engine must be 'numba' or 'plain', not {engine!r}")
    if players < 2:
        raise RuleError("Zinga needs at least 2 players")
    run = simulate_games if engine == "numba" else simulate_games_plain
    m = len(sheets)
    wins = np.zeros(m, dtype=np.int64)
    blunders = 0
    stops = 0
    cancels = 0
    eliminated = 0
    played = np.zeros(m, dtype=np.int64)
    draws = 0
    turns_sum = 0
    done = 0
    if players <= m and math.perm(m, players) <= 48:
        seatings = list(permutations(range(m), players))
    else:
        seatings = [tuple((r + k) % m for k in range(players)) for r in range(m)]
    n_seat = len(seatings)
    while done < n_games:
        cnt = min(chunk, n_games - done)
        for r, idx in enumerate(seatings):
            seat_sheets = [sheets[i] for i in idx]
            per = cnt // n_seat + (1 if r < cnt % n_seat else 0)
            if per == 0:
                continue
            res = run(seat_sheets, [bot] * players, per, seed=seed * 7919 + r, options=options, g0=done)
            blunders += int(res.stats[:, :, STAT_BLUNDERS].sum())
            eliminated += int(res.stats[:, :, STAT_ELIMINATED].sum())
            stops += int(res.events[:, EVENT_STOPS].sum())
            cancels += int(res.events[:, EVENT_CANCELS].sum())
            for k in range(players):
                played[idx[k]] += per
                wins[idx[k]] += int(np.count_nonzero(res.winners == k))
            draws += int(np.count_nonzero(res.winners < 0))
            turns_sum += int(res.turns.sum())
        done += cnt
        if progress:
            progress(cnt)
    rows = []
    for s in range(m):
        lo, hi = wilson(int(wins[s]), int(played[s]))
        rows.append({"sheet": sheets[s].name or str(s + 1), "games": int(played[s]), "wins": int(wins[s]),
                     "win_rate": float(wins[s] / played[s]) if played[s] else 0.0, "ci95": [lo, hi],
                     "fair_share": 1.0 / players})
    return {"players": players, "games": n_games, "bot": getattr(bot, "name", str(bot)), "seed": seed,
            "engine": engine, "draws": draws, "mean_turns": turns_sum / max(1, n_games),
            "blunders_per_game": blunders / max(1, n_games), "eliminations_per_game": eliminated / max(1, n_games),
            "stops_per_game": stops / max(1, n_games), "pawn_cancels_per_game": cancels / max(1, n_games),
            "sheets": rows}

"""Zinga sheet-set generator: CP-SAT balanced sets of score sheets, verified by simulation; SVG score pads.

Model (per set of ``n_sheets`` sheets):
- colours: each sheet's colour layout is a diagonal Latin square (every colour once in each row,
  column and both diagonals), drawn from the seed among all 960 such squares, relabelled so the
  centre is blue; different sheets get different squares;
- numbers (one CP-SAT model per candidate set): 5 distinct numbers per colour (25 distinct
  cells), blue 9 in the centre, every number 1..12 exactly twice among the 24 other cells, and
  (``same_codes``, default) the same 25 cells on every sheet, in different places;
- difficulty: a cell costs round(-1000 ln p), p = its chance per roll in a 4-player game (active
  1 roll in 4, passive otherwise); a line costs the sum of its cells (a sum of log-probabilities).
  The objective puts all 12 lines of all sheets in the narrowest cost band (balance within and
  across sheets); small seeded weights break ties so that seeds give different sets;
- measured strength: candidate sets are simulated (equal bots) and the one whose sheets' win
  rates have the smallest spread is kept, then tuned by number swaps that keep every constraint
  and (nearly) the line-cost band while they shrink the spread (generate and test, then local
  search). The seed ID ``zinga:sheets4,attempts=2,tune=40,effort=3#SEED`` carries every setting
  that changes the sheets (``zinga:sheets4#SEED``, printed before, means the defaults).
The set is returned with a report: each sheet's exact best line-focus expectation and, unless
``verify_games`` is 0, its win rate with a 95% Wilson interval in simulated games of equal bots.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from functools import lru_cache

from ...errors import FormatError, SolverError
from ...generators.ids import Instance, ParsedId, format_params, looks_like_id, make_seed, split_id
from ...jsonio import is_ascii_digits, short
from ...solver import cpsat
from .rules import BLUE, CENTRE, COLOURS, LINES, N_NUMBERS
from .sheet import Sheet, load_sheets, sheet_set_id, sheets_from_description, sheets_to_json

#: Generator settings that change the sheets, with their defaults (all of them go into a seed ID).
SETTINGS = {"attempts": 2, "tune": 40, "effort": 3.0}
MAX_EFFORT = 600.0
# the other generator settings, fixed for seed IDs: players, bot, same_codes, screen_games,
# tune_games, band_slack, tune_players (table sizes kept, as generate_sheet_set filters them)
_FIXED = (4, "casual", True, 8000, 8000, 600, (2, 3, 4))


@lru_cache(maxsize=1)
def diagonal_latin_squares() -> tuple[tuple[int, ...], ...]:
    """All 5x5 diagonal Latin squares over 0..4 (rows, columns and both diagonals all distinct)."""
    out = []
    grid = [-1] * 25

    def ok(i, v):
        r, c = divmod(i, 5)
        for j in range(i):
            if grid[j] == v:
                rj, cj = divmod(j, 5)
                if rj == r or cj == c or (rj == cj and r == c) or (rj + cj == 4 and r + c == 4):
                    return False
        return True

    def rec(i):
        if i == 25:
            out.append(tuple(grid))
            return
        for v in range(5):
            if ok(i, v):
                grid[i] = v
                rec(i + 1)
                grid[i] = -1

    rec(0)
    return tuple(out)


def cell_costs(players: int = 4) -> list[int]:
    """Cost of a cell by number 1..12: round(-1000 ln p) with p its chance per roll (mixed roles)."""
    share = 1.0 / players
    costs = []
    for n in range(1, 13):
        act = (1 / 6 if n <= 6 else 0) + (max(0, min(n - 1, 13 - n)) / 36 if n >= 2 else 0)
        pas = max(0, min(n - 1, 13 - n)) / 36 if n >= 2 else 0.0
        p = share * act + (1 - share) * pas
        costs.append(round(-1000 * math.log(p)))
    return costs


@dataclass
class SheetSet:
    sheets: list[Sheet]
    seed: int
    report: dict = field(default_factory=dict)
    settings: dict = field(default_factory=lambda: dict(SETTINGS))

    @property
    def id(self) -> str:
        return sheet_set_id(self.sheets)

    @property
    def seed_id(self) -> str | None:
        """None when the set was made with library settings a seed ID does not carry."""
        if set(self.settings) != set(SETTINGS):
            return None
        return sheets_seed_id(len(self.sheets), self.seed, **self.settings)

    def to_json(self) -> dict:
        return sheets_to_json(self.sheets, {"seed": self.seed, "id": self.id, "seed_id": self.seed_id,
                                            "settings": dict(self.settings), "report": self.report,
                                            "assumed": True})


def sheets_seed_id(count: int, seed: int, attempts: int = 2, tune: int = 40, effort: float = 3.0) -> str:
    """``zinga:sheetsK,attempts=A,tune=T,effort=E#SEED``: every setting that changes the sheets."""
    return make_seed("zinga", format_params(f"sheets{count}", attempts=attempts, tune=tune,
                                            effort=format(float(effort), "g")), seed)


def check_settings(count: int, attempts: int, tune: int, effort: float, where: str = "sheet generator") -> None:
    """Ranges of the generator settings (also those read from a seed ID)."""
    import math

    if not 1 <= count <= 12:
        raise FormatError(f"{where}: a set has 1 to 12 sheets, not {count}")
    if not 1 <= attempts <= 50:
        raise FormatError(f"{where}: attempts must be 1..50, not {attempts}")
    if not 0 <= tune <= 2000:
        raise FormatError(f"{where}: tune must be 0..2000, not {tune}")
    if not (math.isfinite(effort) and 0 < effort <= MAX_EFFORT):
        raise FormatError(f"{where}: effort must be in (0, {MAX_EFFORT:g}], not {effort:g}")


def _seed_settings(parsed: ParsedId) -> tuple[int, dict]:
    """(count, settings) of a seed ID; settings not given take the defaults (older IDs had none)."""
    import math
    import re

    flags, values = parsed.flags(), parsed.values()
    if len(flags) != 1 or not re.fullmatch(r"sheets[0-9]{0,2}", flags[0]):
        raise parsed.error("expected zinga:sheetsK[,attempts=A,tune=T,effort=E]#SEED")
    count = int(flags[0][6:] or 4)
    settings = dict(SETTINGS)
    for key, text in values.items():
        if key not in SETTINGS:
            raise parsed.error(f"unknown setting {short(key)} (known: {', '.join(SETTINGS)})")
        # ASCII digits only (effort as format(x, "g") writes it): no '_', sign or other digits
        if key == "effort":
            v = float(text) if re.fullmatch(r"[0-9]{1,6}(?:\.[0-9]{1,9})?(?:e[-+][0-9]{1,3})?", text) else None
        else:
            v = int(text) if is_ascii_digits(text) and len(text) <= 6 else None
        if v is None or (key == "effort" and not math.isfinite(v)):
            raise parsed.error(f"{key}={short(text)} is not a number")
        settings[key] = v
    check_settings(count, settings["attempts"], settings["tune"], settings["effort"], f"ID {short(parsed.text)}")
    return count, settings


def resolve_id(parsed: ParsedId, progress=None) -> Instance:
    """The sheet set a ``zinga:`` ID stands for (a seed ID runs the generator, without verification games)."""
    if parsed.is_seed:
        count, st = _seed_settings(parsed)
        ss = generate_sheet_set(count, parsed.seed, 0, attempts=st["attempts"], effort=st["effort"],
                                tune_rounds=st["tune"], progress=progress)
        return Instance("zinga-sheets", ss.sheets, ss.id, ss.seed_id)
    sheets = sheets_from_description(parsed.params, parsed.description, f"ID {short(parsed.text)}")
    return Instance("zinga-sheets", sheets, sheet_set_id(sheets))


def load_sheet_source(source=None, progress_factory=None) -> list[Sheet]:
    """Sheets from a set file, ``default`` or any Zinga ID (a seed ID regenerates the set;
    ``progress_factory(total, label)`` gives a progress context for it)."""
    if source is not None and looks_like_id(str(source)):
        parsed = split_id(str(source))
        if parsed.game != "zinga":  # refused by its prefix, before another game's generator runs
            raise FormatError(f"this is a {parsed.game.capitalize() if parsed.game != 'qango' else 'QANGO'} ID, "
                              "expected a Zinga sheet set")
        if parsed.is_seed and progress_factory is not None:
            _, st = _seed_settings(parsed)
            with progress_factory(st["attempts"] + st["tune"], "regenerating the sheet set") as advance:
                return resolve_id(parsed, advance).value
        return resolve_id(parsed).value
    return load_sheets(source)



def solve_set_numbers(layouts: list[list[int]], cost: list[int], seed: int, effort: float = 3.0,
                      same_codes: bool = True):
    """CP-SAT: numbers for the colour layouts, every line of every sheet in the narrowest cost band.

    Per sheet: 5 distinct numbers per colour, blue 9 in the centre, each number 1..12 exactly
    twice among the 24 other cells. With ``same_codes`` every sheet holds the same 25
    (colour, number) pairs (in different places), so that no sheet meets more rivals for its
    cells than another in the bell race. Returns (sheets, [(lo, hi) per sheet]).
    """
    from ortools.sat.python import cp_model

    rnd = random.Random(seed)
    k = len(layouts)
    m = cp_model.CpModel()
    y = {(s, i, n): m.NewBoolVar(f"y{s}_{i}_{n}") for s in range(k) for i in range(25) for n in range(N_NUMBERS)}
    z = {(c, n): m.NewBoolVar(f"z{c}_{n}") for c in range(5) for n in range(N_NUMBERS)}
    lo_all, hi_all = 5 * min(cost), 5 * max(cost)
    lo = m.NewIntVar(lo_all, hi_all, "lo")
    hi = m.NewIntVar(lo_all, hi_all, "hi")
    for s, layout in enumerate(layouts):
        for i in range(25):
            m.AddExactlyOne(y[s, i, n] for n in range(N_NUMBERS))
        m.Add(y[s, CENTRE, 8] == 1)
        for c in range(5):
            cells = [i for i in range(25) if layout[i] == c]
            for n in range(N_NUMBERS):
                used = sum(y[s, i, n] for i in cells)
                m.Add(used <= 1)
                if same_codes:
                    m.Add(used == z[c, n])
        for n in range(N_NUMBERS):
            m.Add(sum(y[s, i, n] for i in range(25) if i != CENTRE) == 2)
        for line in LINES:
            L = sum(cost[n] * y[s, i, n] for i in line for n in range(N_NUMBERS))
            m.Add(L >= lo)
            m.Add(L <= hi)
    noise = sum(rnd.randrange(3) * v for v in y.values())
    m.Minimize(1000 * (hi - lo) + noise)
    # a feasible start: a random valid code set, numbers of each colour placed in random order
    sets = [_random_code_set(rnd)] * k if same_codes else [_random_code_set(rnd) for _ in range(k)]
    for s, layout in enumerate(layouts):
        for c in range(5):
            nums = [n for n in sets[s][c] if not (c == BLUE and n == 8)]
            rnd.shuffle(nums)
            cells = [i for i in range(25) if layout[i] == c and i != CENTRE]
            for i, n0 in zip(cells, nums):
                for n in range(N_NUMBERS):
                    m.AddHint(y[s, i, n], n == n0)
        for n in range(N_NUMBERS):
            m.AddHint(y[s, CENTRE, n], n == 8)
    if same_codes:
        for c in range(5):
            for n in range(N_NUMBERS):
                m.AddHint(z[c, n], n in sets[0][c])
    for attempt in range(5):  # no solution yet within the effort: double it (still deterministic)
        solver = cp_model.CpSolver()
        # several search strategies (incl. LNS) interleaved in one thread: deterministic for a seed
        solver.parameters.num_workers = 8
        solver.parameters.interleave_search = True
        solver.parameters.random_seed = seed % (2**31)
        solver.parameters.max_deterministic_time = effort * 2 ** attempt
        status = cpsat.solve(solver, m)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE):
            break
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SolverError(f"no sheet set found (CP-SAT status {solver.StatusName(status)})")
    sheets, bands = [], []
    for s, layout in enumerate(layouts):
        codes = [layout[i] * N_NUMBERS + next(n for n in range(N_NUMBERS) if solver.Value(y[s, i, n]))
                 for i in range(25)]
        sheets.append(Sheet(tuple(codes), str(s + 1)))
        costs = [sum(cost[codes[i] % N_NUMBERS] for i in line) for line in LINES]
        bands.append((min(costs), max(costs)))
    return sheets, bands, solver.StatusName(status)


def _candidate_set(n_sheets, rnd, cost, effort, same_codes):
    """Distinct colour layouts (diagonal Latin squares, centre blue) and their CP-SAT numbers."""
    squares = diagonal_latin_squares()
    perm = [c for c in range(5) if c != BLUE]
    rnd.shuffle(perm)
    layouts: list[list[int]] = []
    while len(layouts) < n_sheets:  # relabel symbols as colours, the centre symbol becoming blue
        sq = squares[rnd.randrange(len(squares))]
        others = [v for v in range(5) if v != sq[CENTRE]]
        relabel = {sq[CENTRE]: BLUE, **{v: perm[j] for j, v in enumerate(others)}}
        layout = [relabel[v] for v in sq]
        if layout not in layouts:
            layouts.append(layout)
    return solve_set_numbers(layouts, cost, rnd.randrange(2**31), effort, same_codes)


def _random_code_set(rnd: random.Random) -> list[list[int]]:
    """Per colour 5 distinct numbers (0-based), blue holding 9, each number twice plus the extra 9."""
    while True:
        pool = [n for n in range(N_NUMBERS) for _ in range(2)]
        rnd.shuffle(pool)
        sets = [[] for _ in range(5)]
        sets[BLUE].append(8)
        ok = True
        for n in pool:
            free = [c for c in range(5) if len(sets[c]) < 5 and n not in sets[c]]
            if not free:
                ok = False
                break
            sets[rnd.choice(free)].append(n)
        if ok:
            return sets


def generate_sheet_set(n_sheets: int = 4, seed: int = 0, verify_games: int = 20000, players: int = 4,
                       bot: str = "casual", effort: float = 3.0, same_codes: bool = True, attempts: int = 2,
                       screen_games: int = 8000, tune_rounds: int = 40, tune_games: int = 8000,
                       band_slack: int = 600, tune_players=(2, 3, 4), progress=None) -> SheetSet:
    """Build a balanced set of ``n_sheets`` sheets; the same seed gives the same set.

    1. ``attempts`` candidate sets come from the CP-SAT model; each is measured by
       ``screen_games`` simulated games of equal bots, and the one whose sheets' win rates have
       the smallest spread is kept.
    2. Tuning (``tune_rounds``): swap the numbers of two same-colour cells on the strongest or
       weakest sheet (this keeps every CP-SAT constraint); keep the swap when every line stays
       inside the CP-SAT cost band widened by ``band_slack`` and the spread of win rates shrinks
       (largest over the table sizes ``tune_players``, relative to the fair share; both sets
       play the same ``tune_games`` fresh games each round).
    3. ``verify_games`` > 0 re-measures the result with fresh games (95% Wilson intervals).
    Every figure goes into ``report``.
    """
    check_settings(n_sheets, attempts, tune_rounds, effort)
    library = (players, bot, same_codes, screen_games, tune_games, band_slack, tuple(tune_players)) != _FIXED
    from .sim import sheet_win_rates  # loads numba (only when this runs)

    def rates(sheets, games, s):
        return [r["win_rate"] for r in sheet_win_rates(sheets, players, games, s, bot)["sheets"]]

    tune_players = tuple(p for p in tune_players if 2 <= p <= n_sheets) or (players,)

    def rel_spread(sheets, games, s):
        """Largest relative spread (max - min win rate, times the player count) over the table sizes."""
        worst, at_main = 0.0, None
        for p in tune_players:
            r = [x["win_rate"] for x in sheet_win_rates(sheets, p, games, s, bot)["sheets"]]
            worst = max(worst, (max(r) - min(r)) * p)
            if p == max(tune_players):
                at_main = r
        return worst, at_main

    rnd = random.Random(seed)
    cost = cell_costs(players)
    simulate = n_sheets >= players
    best = None
    tried = []
    for a in range(attempts):
        sheets, bands, status = _candidate_set(n_sheets, rnd, cost, effort, same_codes)
        spread = 0.0
        if attempts > 1 and screen_games and simulate:
            r = rates(sheets, screen_games, seed * 1009 + a)
            spread = max(r) - min(r)
        tried.append(spread)
        if best is None or spread < best[0]:
            best = (spread, sheets, bands, status)
        if progress:
            progress(1)
    _, sheets, bands, status = best
    lo = min(b[0] for b in bands)
    hi = max(b[1] for b in bands)
    report = {"status": status, "line_cost_band": [lo, hi], "same_codes": same_codes,
              "attempts": attempts, "screen_spreads": tried}
    if tune_rounds and simulate:
        tune_seed = seed * 1009 + 999
        lo_t, hi_t = lo - band_slack, hi + band_slack
        cur_s, cur = rel_spread(sheets, tune_games, tune_seed)
        report["tune_players"] = list(tune_players)
        report["tune_start_spread"] = cur_s
        accepted = 0
        for it in range(tune_rounds):
            k = max(range(n_sheets), key=cur.__getitem__) if it % 2 == 0 else min(range(n_sheets), key=cur.__getitem__)
            codes = list(sheets[k].codes)
            colour = rnd.randrange(5)
            cells = [i for i in range(25) if codes[i] // N_NUMBERS == colour and i != CENTRE]
            i, j = rnd.sample(cells, 2)
            codes[i], codes[j] = codes[j], codes[i]
            line_costs = [sum(cost[codes[c] % N_NUMBERS] for c in line) for line in LINES]
            if progress:
                progress(1)
            if min(line_costs) < lo_t or max(line_costs) > hi_t:
                continue
            cand = list(sheets)
            cand[k] = Sheet(tuple(codes), sheets[k].name)
            # fresh games each round, the same for both sets (common random numbers): no drift
            # towards sets that merely suit one seed
            round_seed = tune_seed + 1 + it
            now_s, now = rel_spread(sheets, tune_games, round_seed)
            cand_s, r = rel_spread(cand, tune_games, round_seed)
            if cand_s < now_s:
                sheets, cur, cur_s = cand, r, cand_s
                accepted += 1
            else:
                cur, cur_s = now, now_s
        report["tune_rounds"] = tune_rounds
        report["tune_accepted"] = accepted
        report["tune_end_spread"] = cur_s
        report["band_slack"] = band_slack
    elif progress:
        progress(tune_rounds)
    settings = {"attempts": attempts, "tune": tune_rounds, "effort": effort}
    if library:
        settings["library"] = True  # settings outside the seed ID: no seed ID
    out = SheetSet(sheets, seed, report, settings)
    if verify_games:
        verify_sheet_set(out, verify_games, players, bot, seed + 7777)
    return out


def verify_sheet_set(ss: SheetSet, games: int, players: int = 4, bot: str = "casual", seed: int = 0,
                     progress=None) -> dict:
    """Exact line-focus figures and simulated win rates (numba kernel) added to the set's report."""
    from .odds import line_focus_expectation  # loads numpy (only when this runs)
    from .sim import sheet_win_rates  # loads numba (only when this runs)

    share = 1.0 / players
    ss.report["best_line_focus_rolls"] = [
        min(line_focus_expectation(s, k, share) for k in range(len(LINES))) for s in ss.sheets]
    if len(ss.sheets) >= players:
        ss.report["simulation"] = sheet_win_rates(ss.sheets, players, games, seed, bot, progress=progress)
    return ss.report


# --- SVG score pads --------------------------------------------------------------------------------

SVG_COLOURS = {"red": "#d62728", "orange": "#ff7f0e", "yellow": "#e6c300", "green": "#2ca02c", "blue": "#1f77b4"}


def sheet_svg(sheet: Sheet, title: str = "") -> str:
    """A printable score pad: the 5x5 grid, the sheet number, 3 PLUS boxes and 3 BLUNDER boxes."""
    cell, pad = 60, 20
    w = pad * 2 + cell * 5 + 110
    h = pad * 2 + cell * 5 + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
           f'font-family="Helvetica, Arial, sans-serif">',
           f'<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>',
           f'<text x="{pad}" y="{pad + 14}" font-size="18" font-weight="bold">ZINGA</text>',
           f'<text x="{w - pad}" y="{pad + 14}" font-size="18" text-anchor="end">{_esc(title or sheet.name)}</text>']
    top = pad + 30
    for i, code in enumerate(sheet.codes):
        r, c = divmod(i, 5)
        x, y0 = pad + c * cell, top + r * cell
        colour = COLOURS[code // 12]
        out.append(f'<rect x="{x}" y="{y0}" width="{cell}" height="{cell}" fill="{SVG_COLOURS[colour]}" '
                   f'stroke="black" stroke-width="2"/>')
        out.append(f'<circle cx="{x + cell / 2}" cy="{y0 + cell / 2}" r="{cell * 0.33}" fill="white"/>')
        out.append(f'<text x="{x + cell / 2}" y="{y0 + cell / 2 + 8}" font-size="22" text-anchor="middle" '
                   f'font-weight="bold">{code % 12 + 1}</text>')
    bx = pad + cell * 5 + 25
    out.append(f'<text x="{bx}" y="{top + 14}" font-size="14" fill="#2ca02c" font-weight="bold">PLUS +</text>')
    for k in range(3):
        out.append(f'<rect x="{bx}" y="{top + 24 + k * 34}" width="28" height="28" fill="white" stroke="#2ca02c" stroke-width="2"/>')
    by = top + cell * 5 - 3 * 34 - 24
    out.append(f'<text x="{bx}" y="{by + 14}" font-size="14" fill="#d62728" font-weight="bold">BLUNDER ×</text>')
    for k in range(3):
        out.append(f'<rect x="{bx}" y="{by + 24 + k * 34}" width="28" height="28" fill="white" stroke="#d62728" stroke-width="2"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

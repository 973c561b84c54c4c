"""Zangle solo challenge generator (verified, graded) and its printable SVG sheet.

Generate and test: candidate deals are shuffled from a seeded stream, solved exactly, graded by
measurement and returned only if winnable and of the asked grade. Grading uses ``PLAYOUTS``
random playouts (uniform among the distinct moves of each position) and the greedy bot:

- ``expert``: playout win rate < 0.5 % and the greedy bot loses;
- ``hard``: playout win rate < 2 % (and not expert);
- ``easy``: the greedy bot wins and the playout win rate is >= 5 %;
- ``medium``: everything else.

The number of distinct winning lines (capped at ``LINE_CAP``) is measured and reported too.
Before a challenge is returned its solution is replayed on the engine and must win.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ...errors import FormatError, RuleError, SolverError
from ...generators.ids import Instance, looks_like_id, make_seed, split_id
from ...jsonio import tagged
from ...limits import check_count
from .bots import greedy_action
from .cards import default_deck
from .deal import (
    DEAL_FORMAT,
    load_deal,
    parse_deal,
    parse_turn_id_params,
    turn_deal_description,
    turn_deal_from_description,
    turn_id_params,
)
from .engine import zangle_actions
from .moves import batch_zangles, deck_sids
from .rules import ZangleOptions
from .solo_deal import (
    DIFFICULTIES,
    SOLO_FORMAT,
    check_id_deck,
    deal_from_description,
    describe_line,
    id_params,
    load_solo_deal_file,
    parse_id_params,
)
from .solo_search import SoloDeal, check_line, playout_wins, solve_deal
from .svg import solo_sheet_svg, text_page_svg
from .table import deck_table
from .turn import TurnGame
from .turn_search import turn_go_out

PLAYOUTS = 1000
LINE_CAP = 10_000
EXPERT_RATE, HARD_RATE, EASY_RATE = 0.005, 0.02, 0.05
MAX_TRIES = 3000
MAX_COUNT = 1000  # challenges in one call (each takes up to a few seconds)
SOLVE_STATES = 200_000


def grade_of(rate: float, greedy_wins: bool) -> str:
    """The grade for a measured playout win rate and greedy-bot result (thresholds above)."""
    if rate < EXPERT_RATE and not greedy_wins:
        return "expert"
    if rate < HARD_RATE:
        return "hard"
    if greedy_wins and rate >= EASY_RATE:
        return "easy"
    return "medium"


def greedy_wins(deal) -> bool:
    """Whether the greedy bot (games.zangle.bots) wins the deal."""
    g = deal.game()
    while not g.is_terminal():
        g.apply(greedy_action(g))
    return g.outcome == "win"


@dataclass
class Challenge:
    """A verified solo challenge: the deal, its grade and measurements, one winning line."""

    deal: object  # SoloDeal
    grade: str
    seed: int
    solution: list
    measures: dict = field(default_factory=dict)
    asked: str | None = None  # the difficulty asked of the generator ("any" or a grade)

    @property
    def seed_id(self) -> str:
        """``zangle:solo,piles=N,...,GRADE#SEED``: the generator's parameters and seed (the
        difficulty asked, so ``any`` stays ``any``)."""
        return make_seed("zangle", id_params(self.deal.options, self.asked or self.grade, self.deal.deck), self.seed)

    @property
    def id(self) -> str:
        return self.deal.share_id(self.grade)

    def to_json(self) -> dict:
        """A challenge file (format ``tanglekit/zangle-solo``): read back as its deal by every
        command that takes a solo deal. ``line`` is the solution in the game's notation."""
        return tagged(SOLO_FORMAT, {
            "game": "zangle-solo", "id": self.id, "seed_id": self.seed_id, "grade": self.grade,
            "difficulty": self.grade, "measures": self.measures, "deal": self.deal.to_json(),
            "solution": [a.to_json() for a in self.solution], "line": [str(a) for a in self.solution],
            "moves": len(self.solution)})


def measure(deal, seed: int = 0, playouts: int = PLAYOUTS, want: str | None = None) -> dict | None:
    """Grade a deal by measurement, then prove it winnable; None if it is not proven winnable
    (or, with ``want``, if its grade differs: cheap playouts decide that before any search)."""
    wins = playout_wins(deal, playouts, seed)
    gw = greedy_wins(deal)
    rate = wins / playouts
    grade = grade_of(rate, gw)
    if want not in (None, "any") and grade != want:
        return None
    res = solve_deal(deal, max_states=SOLVE_STATES)
    if res.solvable is not True:
        return None
    cnt = solve_deal(deal, max_states=SOLVE_STATES, count=True, line_cap=LINE_CAP, playouts=1)
    return {"solution": res.line, "states": res.states, "playout_rate": rate, "playouts": playouts,
            "lines": cnt.lines, "lines_capped": cnt.lines is None or cnt.lines_capped, "greedy_wins": gw,
            "grade": grade}


def generate_challenge(seed: int = 0, difficulty: str = "any", options=None, deck=None,
                       max_tries: int = MAX_TRIES) -> Challenge:
    """The challenge of ``seed``: the first candidate of the seeded stream that is winnable and of
    ``difficulty`` ("any" takes the first winnable one). Same seed and params, same challenge."""
    if difficulty not in DIFFICULTIES + ("any",):
        raise RuleError(f"difficulty must be one of {', '.join(DIFFICULTIES)} or any, not {str(difficulty)[:40]!r}")
    if not 0 <= int(seed) < 2**63:
        raise RuleError("seed must be a whole number in [0, 2**63)")
    options = options or ZangleOptions()
    rng = random.Random(f"zangle-solo:{seed}")
    for _ in range(max_tries):
        cand = rng.getrandbits(48)
        deal = SoloDeal.from_seed(cand, options, deck)
        m = measure(deal, seed=cand & 0xFFFF, want=difficulty)
        if m is None:
            continue
        line = m.pop("solution")
        if not check_line(deal, line):  # re-verified on the engine
            raise SolverError("generated challenge failed its verification replay")
        m["rate_percent"] = round(100 * m["playout_rate"], 2)
        return Challenge(deal, m["grade"], seed, line, m, difficulty)
    raise SolverError(f"no {difficulty} challenge found in {max_tries} deals (seed {seed})")


def generate_challenges(count: int = 1, difficulty: str = "medium", seed: int = 0, options=None, deck=None,
                        progress=None) -> list[Challenge]:
    """``count`` challenges with seeds ``seed``, ``seed + 1``, ..."""
    check_count(count, "--count", maximum=MAX_COUNT)
    out = []
    for i in range(count):
        out.append(generate_challenge(seed + i, difficulty, options, deck))
        if progress:
            progress(1)
    return out


# --------------------------------------------------------------------------------------------
# Printable sheet
# --------------------------------------------------------------------------------------------
def challenge_svg(ch: Challenge, unit: float = 30.0) -> str:
    """A printable sheet of the challenge (games/zangle/svg.py draws it)."""
    title = f"Zangle solo challenge - {ch.grade} - {len(ch.deal.piles)} piles"
    return solo_sheet_svg(ch.deal, title, ch.seed_id, unit)


def solution_steps(ch: Challenge) -> list[str]:
    """The winning line in words, with card ids and piles numbered from 0 as on the sheet."""
    return describe_line(ch.deal, ch.solution)


def challenge_answer_svg(ch: Challenge, unit: float = 30.0) -> str:
    """The answer page: the winning line step by step."""
    steps = solution_steps(ch)
    return text_page_svg([f"Answer: {len(steps)} steps", ch.seed_id, ""] + steps, unit)


# --------------------------------------------------------------------------------------------
# IDs: zangle:solo,PARAMS:<description> (the deal) and zangle:solo,PARAMS#SEED (the generator)
# --------------------------------------------------------------------------------------------
def resolve_solo(text_or_parsed, deck=None) -> Instance:
    """The solo deal an ID stands for: the descriptive form decoded by the games layer, the seed
    form regenerated (same parameters, same seed, same deal). ``deck`` for custom-deck IDs."""
    parsed = split_id(text_or_parsed) if isinstance(text_or_parsed, str) else text_or_parsed
    options, grade, deck_name = parse_id_params(parsed)
    deck = check_id_deck(parsed, deck_name, deck)
    if not parsed.is_seed:
        deal = deal_from_description(parsed, deck)
        return Instance("zangle-solo-deal", deal, deal.share_id(grade), None, {"grade": grade})
    ch = generate_challenge(seed=parsed.seed, difficulty=grade or "any", options=options, deck=deck)
    return Instance("zangle-solo-deal", ch.deal, ch.id,
                    make_seed("zangle", id_params(ch.deal.options, grade, deck), parsed.seed),
                    {"grade": ch.grade, "challenge": ch})


def resolve_turn(text_or_parsed, deck=None) -> Instance:
    """The turn-game deal a ``zangle:turn,...`` ID stands for (the deal file as a dict)."""
    parsed = split_id(text_or_parsed) if isinstance(text_or_parsed, str) else text_or_parsed
    players, props, options, deck_name = parse_turn_id_params(parsed)
    deck = check_id_deck(parsed, deck_name, deck)
    if not parsed.is_seed:
        deal = turn_deal_from_description(parsed, deck)
        return Instance("zangle-turn-deal", deal, parsed.text, None)
    bad = [p for p in props if p not in DEAL_PROPERTIES]
    if bad:
        raise parsed.error(f"unknown deal property {bad[0][:40]!r}; known: {', '.join(DEAL_PROPERTIES)}")
    res = generate_turn_deal(players, parsed.seed, props, options, deck)
    deal = res["deal"]
    return Instance("zangle-turn-deal", deal, deal["id"], deal["seed_id"], {"generated": res})


def resolve_id(parsed) -> Instance:
    """The registry's entry point (generators.ids.resolve) for ``zangle:`` IDs: solo deals
    (``zangle:solo,...``) and turn-game deals (``zangle:turn,...``)."""
    if parsed.flags()[:1] == ["turn"]:
        return resolve_turn(parsed)
    return resolve_solo(parsed)


def load_turn_deal(source, deck=None):
    """A turn-game ``Deal`` from a file, inline JSON or a ``zangle:turn`` ID (either form)."""
    text = str(source)
    if looks_like_id(text) and not _exists(text):
        parsed = split_id(text)
        if parsed.game != "zangle" or parsed.flags()[:1] != ["turn"]:
            what = f"a {parsed.game} ID" if parsed.game != "zangle" else "a Zangle solo deal ID"
            raise FormatError(f"this is {what}, expected a Zangle turn-game deal (file or zangle:turn ID)")
        return parse_deal(resolve_turn(parsed, deck).value, deck, f"ID {text[:60]}")
    return load_deal(source, deck)


def _exists(t: str) -> bool:
    from pathlib import Path

    try:
        return Path(t).exists()
    except (OSError, ValueError):
        return False


def deal_from_id(text: str, deck=None):
    """The ``SoloDeal`` of either ID form."""
    return resolve_solo(text, deck).value


def load_solo_deal(source, deck=None):
    """A solo deal from a file, inline JSON, or an ID of either form."""
    from pathlib import Path

    text = str(source)

    def exists(t: str) -> bool:
        try:
            return Path(t).exists()
        except (OSError, ValueError):
            return False

    if isinstance(source, str) and looks_like_id(text) and not exists(text):
        parsed = split_id(text)
        if parsed.game != "zangle" or parsed.flags()[:1] == ["turn"]:
            what = f"a {parsed.game} ID" if parsed.game != "zangle" else "a Zangle turn-game deal ID"
            raise FormatError(f"this is {what}, expected a Zangle solo deal (file or zangle:solo ID)")
        return resolve_solo(parsed, deck).value
    return load_solo_deal_file(source, deck)


__all__ = ["DIFFICULTIES", "Challenge", "deal_from_id", "load_solo_deal", "load_turn_deal", "resolve_id",
           "resolve_solo", "resolve_turn", "challenge_answer_svg", "challenge_svg", "solution_steps", "deal_stats", "format_stats", "generate_challenge", "generate_challenges", "generate_turn_deal", "turn_deal_properties", "wilson",
           "grade_of", "greedy_wins", "measure"]


# --------------------------------------------------------------------------------------------
# Deal statistics (Monte Carlo)
# --------------------------------------------------------------------------------------------
def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a share k / n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    r = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return (max(0.0, c - r), min(1.0, c + r))


def deal_stats(deck=None, deals: int = 100_000, seed: int = 0, solo_deals: int = 100, games: int = 10,
               max_states: int = 2_000_000, progress=None, options=None) -> dict:
    """Monte Carlo statistics of random deals.

    - ``tables``: ``deals`` random 4 middle + 4 own tables (numba batch kernel): share with a
      Zangle (95 % CI) and the distribution of the best Zangle's card count (0 = none);
    - ``solo``: ``solo_deals`` random solo deals with 5 and with 6 piles, solved exactly
      (``max_states`` each; undecided ones are reported, not counted): solvable share and CI;
    - ``turn_games``: ``games`` two-player turn games between greedy bots: mean turns per round.
    ``progress(n)`` is called as work gets done (total = deals // 10000 + 2 * solo_deals + games).
    """
    import numpy as np

    deck = deck or default_deck()
    options = options or ZangleOptions()
    step = progress or (lambda n=1: None)
    out: dict = {"deck": deck.name, "seed": seed}
    table = deck_table(deck)
    sids = deck_sids(deck, table)
    rng = np.random.default_rng(seed)
    places = np.array([0] * 4 + [1] * 4, dtype=np.int64)
    with_z = 0
    hist: dict[int, int] = {}
    done = 0
    if deals and len(deck) < len(places):
        raise RuleError(f"a 4+4 table needs {len(places)} cards, deck {deck.name[:40]!r} has {len(deck)}")
    chunk = min(10_000, max(1, 10_000_000 // len(deck)))  # at most 10 million random numbers at once
    while done < deals:
        b = min(chunk, deals - done)
        idx = np.argsort(rng.random((b, len(deck))), axis=1)[:, :8]
        counts, best, _, _, _ = batch_zangles(sids[idx], places, table)
        with_z += int((counts > 0).sum())
        for v, c in zip(*np.unique(best, return_counts=True)):
            hist[int(v)] = hist.get(int(v), 0) + int(c)
        done += b
        step(b / 10_000)
    lo, hi = wilson(with_z, deals)
    out["tables"] = {"deals": deals, "layout": "4+4", "with_zangle": with_z,
                     "share": with_z / deals if deals else None, "ci95": [lo, hi],
                     "best_cards": {str(k): hist[k] for k in sorted(hist)}}
    out["solo"] = {}
    srng = np.random.default_rng(seed + 1)
    for piles in (5, 6):
        opts = options.with_(piles=piles)
        yes = no = unknown = 0
        states = 0
        for _ in range(solo_deals):
            r = solve_deal(SoloDeal.from_seed(int(srng.integers(2**62)), opts, deck), max_states=max_states)
            states += r.states
            if r.solvable is None:
                unknown += 1
            elif r.solvable:
                yes += 1
            else:
                no += 1
            step(1)
        n = yes + no
        lo, hi = wilson(yes, n)
        out["solo"][str(piles)] = {"deals": solo_deals, "solvable": yes, "unsolvable": no, "unknown": unknown,
                                   "share": yes / n if n else None, "ci95": [lo, hi],
                                   "mean_states": states / solo_deals if solo_deals else None}
    turns = []
    for i in range(games):
        g = TurnGame(seed=seed * 1000 + i, deck=deck, players=2, options=options)

        while not g.is_terminal():
            g.apply(greedy_action(g))
        turns.append(len(g.history) / max(1, len(g.round_points)))
        step(1)
    out["turn_games"] = {"games": games, "players": 2, "bots": "greedy",
                         "mean_actions_per_round": sum(turns) / len(turns) if turns else None}
    return out


def format_stats(s: dict) -> str:
    """Plain-text report of ``deal_stats``."""
    t = s["tables"]
    lines = [f"deck {s['deck']}, seed {s['seed']}"]
    if t["deals"]:
        lines.append(f"4+4 tables with a Zangle: {100 * t['share']:.2f} % "
                     f"(95 % CI {100 * t['ci95'][0]:.2f}-{100 * t['ci95'][1]:.2f}) of {t['deals']}")
        lines.append("best Zangle size (cards: share): " + ", ".join(
            f"{k}: {100 * v / t['deals']:.1f} %" for k, v in t["best_cards"].items()))
    for p, r in s["solo"].items():
        if not r["deals"]:
            continue
        share = "n/a" if r["share"] is None else f"{100 * r['share']:.1f} %"
        lines.append(f"solo {p} piles solvable: {share} (95 % CI {100 * r['ci95'][0]:.1f}-{100 * r['ci95'][1]:.1f}; "
                     f"{r['solvable']} yes, {r['unsolvable']} no, {r['unknown']} unknown of {r['deals']})")
    g = s["turn_games"]
    if g["games"]:
        lines.append(f"turn game, 2 greedy bots: {g['mean_actions_per_round']:.1f} actions per round "
                     f"(mean of {g['games']} games)")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Multiplayer (turn game) deals with properties
# --------------------------------------------------------------------------------------------
DEAL_PROPERTIES = ("all_can_go_out", "middle_no_zangle", "first_no_zangle", "all_start_zangle")


def middle_zangle(middle, deck) -> bool:
    """Whether the middle cards alone hold a Zangle (rules 1-2; rule 3 ignored)."""
    from itertools import combinations

    table = deck_table(deck)
    sids = [table.sid(c.shape) for c in middle]
    nz = sum(1 for c in middle if c.is_z)
    for t, c in enumerate(middle):
        if c.is_z:
            continue
        rest = [i for i in range(len(middle)) if i != t and not middle[i].is_z]
        for k in range(1, len(rest) + 1):
            for sub in combinations(rest, k):
                if (k >= 2 or nz) and sum(middle[i].size for i in sub) == c.size and \
                        table.tiles(sids[t], [sids[i] for i in sub]):
                    return True
    return False


def turn_deal_properties(state, max_states: int = 20_000) -> dict:
    """Measured properties of a turn-game position: who has a Zangle now, who can go out
    (``turn_go_out``: True, False or None = undecided within ``max_states``)."""
    start = [bool(zangle_actions(state.middle, state.own[p], state.deck, state.options))
             for p in range(state.players)]
    go = [turn_go_out(state, p, max_states=max_states)[0] for p in range(state.players)]
    return {"start_zangle": start, "can_go_out": go, "middle_zangle": middle_zangle(state.middle, state.deck)}


def generate_turn_deal(players: int = 2, seed: int = 0, properties: tuple[str, ...] = (), options=None,
                       deck=None, max_tries: int = 500, max_states: int = 20_000) -> dict:
    """A turn-game deal file (``middle``, ``own``, ``own_pile``, ``middle_pile``, ``others``) whose
    measured properties include every one asked for (see ``DEAL_PROPERTIES``)."""
    import random as _random

    bad = [p for p in properties if p not in DEAL_PROPERTIES]
    if bad:
        raise RuleError(f"unknown deal property {bad[0]!r}; known: {', '.join(DEAL_PROPERTIES)}")
    rng = _random.Random(f"zangle-turn:{seed}")
    for _ in range(max_tries):
        g = TurnGame(seed=rng.getrandbits(48), players=players, options=options, deck=deck, rounds=1)
        props = turn_deal_properties(g, max_states) if properties else {}
        ok = True
        if "all_can_go_out" in properties:
            ok &= all(v is True for v in props["can_go_out"])
        if "middle_no_zangle" in properties:
            ok &= not props["middle_zangle"]
        if "first_no_zangle" in properties:
            ok &= not props["start_zangle"][g.current]
        if "all_start_zangle" in properties:
            ok &= all(props["start_zangle"])
        if not ok:
            continue

        body = {"middle": [c.id for c in g.middle], "own": [c.id for c in g.own[0]],
                "own_pile": [c.id for c in g.own_pile[0]], "middle_pile": [c.id for c in g.middle_pile],
                "others": [{"own": [c.id for c in g.own[p]], "own_pile": [c.id for c in g.own_pile[p]]}
                           for p in range(1, players)]}
        params = turn_id_params(players, [p for p in DEAL_PROPERTIES if p in properties], g.options, g.deck)
        ids = {"id": f"zangle:{params}:{turn_deal_description(body, g.deck)}",
               "seed_id": make_seed("zangle", params, seed)}
        deal = {"format": DEAL_FORMAT.tag, "version": DEAL_FORMAT.version, **ids, **body}
        return {"deal": deal, "seed": seed, "players": players, "first_player": g.current,
                "properties": props, **ids}
    raise SolverError(f"no deal with {', '.join(properties)} in {max_tries} tries (seed {seed})")

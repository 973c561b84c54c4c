"""Tanglung solo challenge generator (graded, verified) and the census of standard layouts.

Grading (documented thresholds): a challenge's difficulty is measured by the share of
``WALKERS`` random "dark-first" players (each move: a random destination among the dark cards
reachable, else any) that light every card within ``WALK_BUDGET`` × fewest moves, starting
from the solver's start. Grades by that share: easy >= 0.40, medium >= 0.20, hard >= 0.05,
expert < 0.05. The number of optimal tours and whether a no-revisit tour exists are measured
and reported with each challenge. Every challenge is re-verified before it is returned: the
optimal tour is replayed with the engine and must win in the claimed number of moves.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import SolverError
from ..games.tanglung.cards import CardSet, default_card_set
from ..games.tanglung.ids import ChallengeId
from ..games.tanglung.layout import (
    DIAGONAL_SYMMETRIES,
    Layout,
    count_standard_layouts,
    random_layout,
    rc,
    unrank_standard_layout,
)
from ..games.tanglung.moves import solo_move_table
from ..games.tanglung.rules import TanglungOptions
from ..games.tanglung.solo import initial_lit

GRADES = ("easy", "medium", "hard", "expert")
#: lower bound of the random-walker success share for each grade (checked in this order)
GRADE_THRESHOLDS = (("easy", 0.40), ("medium", 0.20), ("hard", 0.05), ("expert", 0.0))
WALKERS = 200
WALK_BUDGET = 4
MAX_TRIES = 5000


def walker_success(
    layout: Layout, start: int, options: TanglungOptions, fewest: int, seed: int = 0,
    walkers: int = WALKERS,
) -> float:
    """Share of dark-first random walkers that win within WALK_BUDGET × ``fewest`` moves."""
    table = solo_move_table(layout.cells, options)
    noflip = sum(1 << i for i, ch in enumerate(layout.cells) if ch == "C")
    lit0 = initial_lit(layout, options)
    full = 0xFFFF
    budget = WALK_BUDGET * max(fewest, 1)
    rng = random.Random(seed)
    wins = 0
    for _ in range(walkers):
        p, lit = start, lit0
        for _ in range(budget):
            dests = table[p]
            dark = [q for q in dests if not lit >> q & 1]
            q = rng.choice(dark) if dark else rng.choice(dests)
            if lit >> q & 1:
                if not noflip >> p & 1:
                    lit &= ~(1 << p)
            else:
                lit |= 1 << q
            p = q
            if lit == full:
                wins += 1
                break
    return wins / walkers


def grade_of(share: float) -> str:
    for name, low in GRADE_THRESHOLDS:
        if share >= low:
            return name
    return "expert"


@dataclass
class Challenge:
    """A verified solo challenge with its measured difficulty."""

    layout: Layout
    start: int
    difficulty: str
    moves: int
    optimal_tours: int
    no_revisit: bool
    walker_success: float
    path: list[int]
    options: TanglungOptions = field(default_factory=TanglungOptions)
    seed: int | None = None

    @property
    def id(self) -> str:
        return ChallengeId(self.difficulty, self.options, self.layout, self.seed).descriptive()

    @property
    def seed_id(self) -> str | None:
        if self.seed is None:
            return None
        return ChallengeId(self.difficulty, self.options, self.layout, self.seed).seeded()

    def svg(self) -> str:
        """The printable challenge: the grid with labels, the start marked, goal and target."""
        from ..games.tanglung.render import svg_grid

        r, c = rc(self.start)
        notes = [f"Goal: light all {bin(self.layout.present_mask()).count('1')} cards in {self.moves} moves "
                 f"(the fewest possible).",
                 f"Start: the matchbox on the rooster at row {r}, col {c} (marked START).",
                 "A move uses the action of the card you leave; the card you reach is lit;",
                 "reaching a lit card turns the card you left dark (a rooster stays lit).",
                 f"ID {self.seed_id or self.id}"]
        return svg_grid(self.layout, title=f"Tanglung solo challenge ({self.difficulty})", labels=True,
                        start=self.start, notes=notes)

    def answer_svg(self) -> str:
        """The answer page: one optimal tour drawn and written as row,col steps."""
        from ..games.tanglung.render import svg_grid

        steps = [f"{p // 4},{p % 4}" for p in self.path]
        lines = [f"Answer ({self.moves} moves, {self.optimal_tours} optimal tours in all):"]
        for k in range(0, len(steps), 8):
            lines.append(" ".join(f"{k + j}:{s}" for j, s in enumerate(steps[k:k + 8])))
        return svg_grid(self.layout, path=self.path, title=f"Answer: {self.moves} moves", labels=True,
                        start=self.start, notes=lines)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "seed_id": self.seed_id,
            "layout": str(self.layout),
            "start": list(rc(self.start)),
            "difficulty": self.difficulty,
            "moves": self.moves,
            "optimal_tours": self.optimal_tours,
            "no_revisit_tour": self.no_revisit,
            "walker_success": self.walker_success,
            "path": [list(rc(p)) for p in self.path],
            "options": self.options.to_json(),
        }


def measure_layout(
    layout: Layout, options: TanglungOptions | None = None, card_set: CardSet | None = None,
    seed: int = 0,
) -> Challenge | None:
    """Solve and grade one layout (None when it cannot be won)."""
    from ..solver.tanglung_solo import check_solo_tour, solve_solo

    options = options or TanglungOptions()
    sol = solve_solo(layout, options=options, card_set=card_set)
    if not sol.solvable:
        return None
    share = walker_success(layout, sol.start, options, sol.moves, seed=seed)
    if not check_solo_tour(layout, sol.path, options) or len(sol.path) != sol.moves + 1:
        raise SolverError(f"internal error: tour for {layout} failed verification")
    return Challenge(
        layout, sol.start, grade_of(share), sol.moves, sol.optimal_tours, sol.no_revisit, share,
        sol.path, options,
    )


def generate_challenge(
    difficulty: str = "medium",
    seed: int = 0,
    options: TanglungOptions | None = None,
    card_set: CardSet | None = None,
    max_tries: int = MAX_TRIES,
    stats: dict | None = None,
) -> Challenge:
    """One challenge of the requested grade, the same for the same (difficulty, seed, options)."""
    if difficulty not in GRADES:
        raise SolverError(f"difficulty must be one of {', '.join(GRADES)}, not {difficulty!r}")
    options = options or TanglungOptions()
    card_set = card_set or default_card_set()
    rng = random.Random(f"tanglung-solo:{difficulty}:{seed}")
    for tries in range(1, max_tries + 1):
        layout = random_layout(rng, card_set, not_so_zen=options.not_so_zen)
        ch = measure_layout(layout, options, card_set, seed=rng.randrange(1 << 30))
        if ch is not None and ch.difficulty == difficulty:
            ch.seed = seed
            if stats is not None:
                stats["tries"] = stats.get("tries", 0) + tries
            return ch
    raise SolverError(f"no {difficulty} challenge found in {max_tries} tries with these options")


def generate_challenges(
    count: int = 1, difficulty: str = "medium", seed: int = 0,
    options: TanglungOptions | None = None, card_set: CardSet | None = None,
    stats: dict | None = None,
) -> list[Challenge]:
    """``count`` challenges with seeds ``seed``, ``seed + 1``, ..."""
    return [generate_challenge(difficulty, seed + i, options, card_set, stats=stats) for i in range(count)]


# --- census ---------------------------------------------------------------------------------
#: ranks per chunk of the full census (about 1-2 s of work each on the batch path)
CHUNK = 20000
#: layouts per chunk of a sampled census (samples are small; keep them spread over workers)
SAMPLE_CHUNK = 500


def _tour_bin(t: int) -> int:
    """Power-of-two bin of an optimal-tour count: 0 for 0, k for 2^(k-1) <= t < 2^k."""
    return 0 if t <= 0 else int(t).bit_length()


def census_chunk(task: tuple) -> dict:
    """Solve the canonical layouts among ranks [a, b) (or the listed ranks) of one chunk.

    Runs the compiled batch path (solver.tanglung_census) when it supports the options and card
    set, else :func:`census_chunk_reference`; both give the same summary.
    """
    from ..solver.tanglung_census import batch_supported, census_summary

    key, ranks, opts_json, cards_json = task
    options = TanglungOptions.from_dict(opts_json)
    card_set = CardSet.from_json(cards_json)
    if not batch_supported(options, card_set):
        return census_chunk_reference(task)
    return census_summary(key, ranks, options, card_set)


def census_chunk_reference(task: tuple) -> dict:
    """census_chunk one layout at a time through Layout.canonical and solve_solo (the
    reference the batch path is tested against; also the fallback for unknown options)."""
    from ..solver.tanglung_solo import solve_solo

    key, ranks, opts_json, cards_json = task
    options = TanglungOptions.from_dict(opts_json)
    card_set = CardSet.from_json(cards_json)
    moves: Counter = Counter()
    tours: Counter = Counter()
    out = {"key": key, "layouts": 0, "no_revisit": 0, "unsolvable": 0, "tours_total": 0,
           "max_tours": [0, None], "min_tours": [None, None]}
    for rank in ranks:
        lay = unrank_standard_layout(rank, card_set)
        if lay.canonical(DIAGONAL_SYMMETRIES) != lay:
            continue
        sol = solve_solo(lay, options=options, card_set=card_set)
        out["layouts"] += 1
        if not sol.solvable:
            out["unsolvable"] += 1
            moves["unsolvable"] += 1
            continue
        moves[str(sol.moves)] += 1
        tours[str(_tour_bin(sol.optimal_tours))] += 1
        out["tours_total"] += sol.optimal_tours
        out["no_revisit"] += sol.no_revisit
        if sol.optimal_tours > out["max_tours"][0]:
            out["max_tours"] = [sol.optimal_tours, str(lay)]
        if out["min_tours"][0] is None or sol.optimal_tours < out["min_tours"][0]:
            out["min_tours"] = [sol.optimal_tours, str(lay)]
    out["moves"] = dict(moves)
    out["tour_bins"] = dict(tours)
    return out


def _merge(total: dict, part: dict) -> None:
    for k in ("layouts", "no_revisit", "unsolvable", "tours_total"):
        total[k] = total.get(k, 0) + part[k]
    for name in ("moves", "tour_bins"):
        c = Counter(total.get(name, {}))
        c.update(part[name])
        total[name] = dict(sorted(c.items(), key=lambda kv: (len(kv[0]), kv[0])))
    # ties go to the smaller example layout, so the summary does not depend on chunk order
    mt = total.get("max_tours", [0, None])
    pt = part["max_tours"]
    if pt[0] > mt[0] or (pt[0] == mt[0] and pt[1] is not None and (mt[1] is None or pt[1] < mt[1])):
        total["max_tours"] = pt
    else:
        total["max_tours"] = mt
    mn = total.get("min_tours", [None, None])
    pn = part["min_tours"]
    if pn[0] is not None and (mn[0] is None or pn[0] < mn[0] or (pn[0] == mn[0] and pn[1] < mn[1])):
        total["min_tours"] = pn
    else:
        total["min_tours"] = mn


def _map_tasks(fn, tasks, executor: str, workers: int):
    """Yield results of fn over tasks, in completion order, on the chosen executor (local
    processes, Ray or Dask: generators.executors.map_unordered)."""
    from .executors import map_unordered

    return map_unordered(fn, tasks, executor, workers)


def census(
    sample: int | None = None,
    workers: int = 1,
    checkpoint: Path | str | None = None,
    seed: int = 0,
    options: TanglungOptions | None = None,
    card_set: CardSet | None = None,
    executor: str = "local",
    chunk: int | None = None,
    on_progress=None,
) -> dict:
    """Census of standard layouts (Roosters on cells 0 and 15; one per class under the 4
    symmetries keeping that diagonal): distributions of fewest moves and of optimal-tour counts
    (power-of-two bins). ``sample``: only that many random ranks (seeded). Resumable: finished
    chunks are stored in ``checkpoint`` (JSON) and skipped on the next run with the same setup.
    ``on_progress(done_chunks, total_chunks)`` is called after each chunk. ``chunk``: ranks per
    chunk (default CHUNK, or SAMPLE_CHUNK layouts with ``sample``). ``executor``: ``local``
    (``workers`` processes), ``ray`` or ``dask`` (optional extras; see generators.executors).
    """
    options = options or TanglungOptions()
    card_set = card_set or default_card_set()
    if card_set.count("C") != 2:
        raise SolverError("the census covers standard layouts: the card set needs exactly 2 Roosters")
    total_ranks = count_standard_layouts(card_set)
    if chunk is None:
        chunk = SAMPLE_CHUNK if sample is not None else CHUNK
    if chunk < 1:
        raise SolverError("chunk must be at least 1")
    if sample is not None:
        rng = random.Random(seed)
        ranks = sorted({rng.randrange(total_ranks) for _ in range(sample)})
        # map each sampled rank to its canonical class representative
        from ..games.tanglung.layout import rank_standard_layout

        ranks = sorted({rank_standard_layout(unrank_standard_layout(r, card_set).canonical(), card_set)
                        for r in ranks})
        chunks = [(f"s{i}", ranks[i : i + chunk]) for i in range(0, len(ranks), chunk)]
    else:
        chunks = [(f"r{a}", range(a, min(a + chunk, total_ranks))) for a in range(0, total_ranks, chunk)]
    setup = {"sample": sample, "seed": seed if sample is not None else None, "chunk": chunk,
             "options": options.to_json(), "cards": card_set.to_json()}
    state = {"setup": setup, "done": [], "summary": {}}
    cp = Path(checkpoint) if checkpoint else None
    if cp is not None and cp.exists():
        try:
            old = json.loads(cp.read_text("utf-8"))
        except json.JSONDecodeError:
            raise SolverError(f"checkpoint {cp} is not valid JSON") from None
        if old.get("setup") != setup:
            raise SolverError(f"checkpoint {cp} was written for a different census setup")
        state = old
    done = set(state["done"])
    todo = [(k, list(r) if sample is not None else (r.start, r.stop)) for k, r in chunks if k not in done]
    tasks = [(k, r if sample is not None else range(*r), options.to_json(), card_set.to_json())
             for k, r in todo]
    n_done = len(done)
    if on_progress:
        on_progress(n_done, len(chunks))
    for part in _map_tasks(census_chunk, tasks, executor, workers):
        _merge(state["summary"], part)
        state["done"].append(part["key"])
        n_done += 1
        if cp is not None:
            tmp = cp.with_suffix(cp.suffix + ".tmp")
            tmp.write_text(json.dumps(state), encoding="utf-8")
            tmp.replace(cp)
        if on_progress:
            on_progress(n_done, len(chunks))
    summary = dict(state["summary"])
    summary.setdefault("layouts", 0)
    summary["chunks"] = len(chunks)
    summary["standard_arrangements"] = total_ranks
    summary["sample"] = sample
    return summary

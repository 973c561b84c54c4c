"""Tangle puzzles: "score N points this turn" from reachable positions, unique best chain, with IDs.

A puzzle position is reached by legal play from the empty board: both players build around
their own open tiles without capturing (a "building" line, seeded), then the puzzle asks the
player to move for the highest-scoring capture chain. The exact solver proves N; a puzzle is
kept only when every optimal chain uses the same set of placements (order aside) and the chain
is at least ``min_chain`` captures long. Shareable IDs:

- descriptive ``tangle:<params>:<moves>`` holds the whole position (moves are placement
  indices in base 36, ``.``-separated, ``-`` for a pass);
- seed form ``tangle:<params>#<seed>`` regenerates it.

``<params>`` is ``,``-separated ``key=value``: ``players``, ``board``/``pieces`` (built-in names,
or the data inline, see ``games/tangle/ids.py``),
``min_points``, ``min_chain``, ``hard=1`` when asked, and any non-default rule option.
"""

from __future__ import annotations

import random

from ...errors import FormatError, RuleError, SolverError
from ...generators.ids import Instance, ParsedId, looks_like_id, make_descriptive, make_seed, resolve, split_id
from ...jsonio import MAX_BYTES, check_text_arg, is_ascii_digits, load_json_source, looks_like_json
from .engine import PASS, TangleGame, TangleState
from .formats import PUZZLE
from .ids import encode_moves, game_from_params, position_from_moves, setup_params
from .search import best_turn
from .svg import COLOUR_NAMES, svg_position


def building_position(game: TangleGame, moves: int, rng: random.Random) -> TangleState:
    """A reachable position after ``moves`` non-capturing placements that grow own open tiles."""
    s = game.new_state()
    for _ in range(moves):
        if s.over:
            break
        legal = s.legal_placements()
        if not legal:
            s.push(PASS)
            continue
        caps = set(s.capturing_placements())
        plain = [p for p in legal if p not in caps] or legal
        me = s.to_move
        team = game.team_of[me]
        mine = s.tmask[team]
        good = []
        for p in plain:
            ok = True
            for t in game.pl_tiles[p]:
                if (game.tile_mask[t] & s.occ) & ~mine:
                    ok = False
                    break
            if ok:
                good.append(p)
        pool = good if good and rng.random() < 0.85 else plain
        s.push(rng.choice(pool))
    return s


def _chain_sets(state: TangleState, best: int, limit: int = 2) -> list[frozenset]:
    """Distinct placement sets (order aside) of the chains scoring ``best``; stops past ``limit``."""
    s = state.copy_position()
    me = s.to_move
    team = s.game.team_of[me]
    start = s.scores[team]
    found: set[frozenset] = set()
    value_cache: dict = {}

    def value() -> int:
        k = (s.occ, tuple(s.remaining[me]), s.turns_left, s.scores[team])
        v = value_cache.get(k)
        if v is None:
            v = value_cache[k] = best_turn(s, "points").points
        return v

    def rec(chain: list[int]) -> None:
        if len(found) > limit:
            return
        got = s.scores[team] - start
        if got == best:
            found.add(frozenset(chain))
            return
        moves = s.capturing_placements() if s.turns_left == 1 else s.legal_placements()
        for p in moves:
            s._apply(p)
            cont = not s.over and s.to_move == me
            total = s.scores[team] - start + (value() if cont else 0)
            if total == best:
                rec(chain + [p])
            s.pop()
            if len(found) > limit:
                return

    rec([])
    return list(found)


def greedy_points(state: TangleState) -> int:
    """Points of the chain that always takes the capture worth most right now."""
    s = state.copy_position()
    me = s.to_move
    team = s.game.team_of[me]
    start = s.scores[team]
    while not s.over and s.to_move == me:
        caps = s.capturing_placements()
        if not caps:
            break
        p = max(caps, key=lambda q: (s.capture_points(q)[1], -q))
        s._apply(p)
    return s.scores[team] - start


def _params_text(game: TangleGame, min_points: int, min_chain: int, hard: bool = False) -> str:
    """PARAMS of a puzzle ID: the set-up (players, board, pieces), the generator's thresholds,
    the non-default rule options, then ``hard=1`` when asked (the order IDs always had)."""
    setup = setup_params(game)
    parts = setup[:3] + [f"min_points={min_points}", f"min_chain={min_chain}"] + setup[3:]
    return ",".join(parts + (["hard=1"] if hard else []))


def _parse_params(parsed: ParsedId) -> tuple[TangleGame, int, int, bool]:
    """(game, min_points, min_chain, hard) from an ID's PARAMS; a bad value names the ID."""
    if parsed.flags():
        raise parsed.error(f"unknown parameter {parsed.flags()[0][:20]!r} (Tangle PARAMS are key=value)")
    kv = parsed.values()
    nums = {}
    for key, default, lo, hi in (("min_points", "10", 0, 10_000), ("min_chain", "2", 1, 100), ("hard", "0", 0, 1)):
        v = kv.pop(key, default)
        if not is_ascii_digits(v) or len(v) > 19 or not lo <= int(v) <= hi:
            raise parsed.error(f"{key} must be a whole number from {lo} to {hi}")
        nums[key] = int(v)
    try:
        game = game_from_params(kv)
    except (FormatError, RuleError) as e:
        raise parsed.error(str(e)) from None
    return game, nums["min_points"], nums["min_chain"], bool(nums["hard"])


def selfplay_positions(game: TangleGame, rng: random.Random, noise: float = 0.3, min_moves: int = 8):
    """Turn-start positions (after ``min_moves`` placements) of one seeded game between builder
    bots that open with a few random placements and later play a random legal move with
    probability ``noise`` (reachable, varied, mid-game positions)."""
    from .bots import make_bot  # loads pydantic (only when this runs)

    seed = rng.randrange(1 << 30)
    bots = [make_bot("builder", seed + i) for i in range(game.n_players)]
    opening = rng.randint(2, 6)
    s = game.new_state()
    while not s.over:
        if s.turns_left == 1 and len(s.moves) >= min_moves:
            yield s
        if len(s.moves) < opening:
            s.push(rng.choice(s.legal_moves()))
            continue
        p = bots[s.to_move].choose(s) if rng.random() >= noise else rng.choice(s.legal_moves())
        s.push(p)


def generate_puzzle(
    game: TangleGame | None = None,
    seed: int = 0,
    min_points: int = 10,
    min_chain: int = 2,
    max_games: int = 40,
    hard: bool = False,
) -> dict:
    """A verified puzzle (JSON-able dict) from ``seed``; SolverError if none within ``max_games``.

    Positions come from seeded self-play; the first turn-start position whose exact best chain
    scores at least ``min_points`` with at least ``min_chain`` placements, and whose optimal
    chains all use the same placements, is the puzzle. ``hard``: also require that always
    taking the biggest capture on offer (greedy) scores less than the best chain.
    """
    g = game if game is not None else TangleGame(players=2)
    rng = random.Random(seed)
    tried = 0
    for _ in range(max_games):
        for s in selfplay_positions(g, rng):
            tried += 1
            try:
                r = best_turn(s, "points", node_limit=20000)
            except SolverError:
                continue
            if r.points < min_points or len(r.placements) < min_chain:
                continue
            greedy = greedy_points(s)
            if hard and greedy >= r.points:
                continue
            if len(_chain_sets(s, r.points, limit=1)) != 1:
                continue
            params = _params_text(g, min_points, min_chain, hard)
            return {
                "format": PUZZLE.tag,
                "version": PUZZLE.version,
                "id": make_descriptive("tangle", params, encode_moves(s.moves)),
                "seed_id": make_seed("tangle", params, seed),
                **g.spec(),
                "moves": [g.move_json(p) for p in s.moves],
                "to_move": s.to_move,
                "scores": list(s.scores),
                "question": puzzle_question(s.to_move, r.points),
                "points": r.points,
                "solution": [g.move_json(p) for p in r.placements],
                "solution_text": [g.move_text(p) for p in r.placements],
                "chain_length": len(r.placements),
                "greedy_points": greedy,
                "positions_tried": tried,
            }
    raise SolverError(f"no puzzle with at least {min_points} points and a unique chain in {max_games} games")


def verify_puzzle(puzzle: dict, where: str = "<puzzle>", expect=None, node_limit: int = 2_000_000) -> bool:
    """Re-solve a puzzle: its claimed points are the best, reached by its solution, uniquely.
    A file that is not a puzzle (schema, illegal position) is a FormatError/RuleError; a
    puzzle whose claim or solution is wrong (or illegal) is simply not valid."""
    from .engine import state_from_json  # loads pydantic (only when this runs)

    s = state_from_json(puzzle, where, expect)
    if s.over:
        return False
    r = best_turn(s, "points", node_limit=node_limit)
    if r.points != puzzle.get("points"):
        return False
    c = s.copy_position()
    team = c.game.team_of[c.to_move]
    start = c.scores[team]
    try:
        for m in puzzle.get("solution", []):
            if c.over or c.to_move != s.to_move:
                return False
            c.push(c.game.parse_move(m))
    except (FormatError, RuleError):
        return False
    return c.scores[team] - start == r.points and len(_chain_sets(s, r.points, limit=1)) == 1


def puzzle_question(to_move: int, points: int) -> str:
    """The puzzle's question, players numbered from 0 as everywhere (docs/json.md, Conventions)."""
    return f"Player {to_move} ({COLOUR_NAMES[to_move % 4]}) to move: score {points} points this turn."


def puzzle_svg(game: TangleGame, puzzle: dict) -> str:
    """The printable puzzle: the position with tile coordinates, side key, legend and question."""
    from .engine import state_from_json  # loads pydantic (only when this runs)

    state = state_from_json(puzzle)
    # the question is written again from the position: files from before players were numbered
    # from 0 on sheets hold "Player 2 (blue)" for player 1
    question = puzzle_question(state.to_move, puzzle["points"]) if "points" in puzzle else puzzle["question"]
    notes = [f"Goal: {question} Captures give extra turns.", f"ID {puzzle.get('seed_id') or puzzle['id']}"]
    return svg_position(game, state, title=question, notes=notes)


def puzzle_answer_svg(game: TangleGame, puzzle: dict) -> str:
    """The answer page: the scoring placements drawn (numbered) and written in move notation."""
    from .engine import state_from_json  # loads pydantic (only when this runs)

    sol = [game.parse_move(m) for m in puzzle["solution"]]
    notes = [f"Answer: {puzzle['points']} points in {len(sol)} placements:"]
    notes += [f"{k}. {game.move_text(p)}" for k, p in enumerate(sol, 1)]
    return svg_position(game, state_from_json(puzzle), highlight=sol,
                        title=f"Answer: {puzzle['points']} points", notes=notes)


def resolve_id(parsed: ParsedId) -> Instance:
    """A Tangle puzzle ID: the seed form runs the generator again (the value is the puzzle
    dict), the descriptive form replays the position (the value is a TangleState)."""
    game, mp, mc, hard = _parse_params(parsed)
    if parsed.is_seed:
        puzzle = generate_puzzle(game, seed=parsed.seed, min_points=mp, min_chain=mc, hard=hard)
        return Instance("tangle-puzzle", puzzle, puzzle["id"], puzzle["seed_id"], {"puzzle": puzzle})
    try:
        state = position_from_moves(game, parsed.description)
    except FormatError as e:
        raise parsed.error(str(e)) from None
    return Instance("tangle-puzzle", state, parsed.text, None)


def puzzle_from_id(text: str) -> dict | TangleState:
    """Decode an ID: the descriptive form gives a state, the seed form regenerates the puzzle."""
    game = split_id(text).game
    if game != "tangle":  # refused before another game's generator runs
        raise FormatError(f"this is a {game} ID, expected a Tangle puzzle ID (tangle:PARAMS:MOVES or tangle:PARAMS#SEED)")
    return resolve(text, expect="tangle-puzzle").value


def load_state_or_id(spec: str, expect=None) -> TangleState:
    """A state from a JSON file (state or puzzle), inline JSON or a puzzle ID (either form)."""
    from .engine import state_from_json  # loads pydantic (only when this runs)

    check_text_arg(spec, "position", MAX_BYTES)
    if "\n" in spec or "\r" in spec:
        raise FormatError("position: a file name, ID or inline JSON has no line breaks")
    if looks_like_id(spec):
        out = puzzle_from_id(spec)
        return out if isinstance(out, TangleState) else state_from_json(out)
    data, where = load_json_source(spec.strip() if looks_like_json(spec) else spec, "Tangle position")
    return state_from_json(data, where, expect)

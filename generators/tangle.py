"""Tangle puzzles: "score N points this turn" from reachable positions, unique best chain, with IDs.

A puzzle position is reached by legal play from the empty board: both players build around
their own open tiles without capturing (a "building" line, seeded), then the puzzle asks the
player to move for the highest-scoring capture chain. The exact solver proves N; a puzzle is
kept only when every optimal chain uses the same set of placements (order aside) and the chain
is at least ``min_chain`` captures long. Shareable IDs:

- descriptive ``tangle:<params>:<moves>`` holds the whole position (moves are placement
  indices in base 36, ``.``-separated, ``-`` for a pass);
- seed form ``tangle:<params>#<seed>`` regenerates it.

``<params>`` is ``,``-separated ``key=value``: ``players``, ``board``/``pieces`` (built-in names),
``min_points``, ``min_chain``, ``hard=1`` when asked, and any non-default rule option.
"""

from __future__ import annotations

import random

from ..errors import FormatError, SolverError
from ..games.tangle.board import load_board, load_pieces
from ..games.tangle.engine import PASS, TangleGame, TangleState
from ..games.tangle.rules import TangleOptions
from ..games.tangle.svg import COLOUR_NAMES
from ..solver.tangle_search import best_turn

_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _b36(n: int) -> str:
    if n == PASS:
        return "-"
    s = ""
    while True:
        n, r = divmod(n, 36)
        s = _B36[r] + s
        if n == 0:
            return s


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


def _params_text(game: TangleGame, min_points: int, min_chain: int) -> str:
    parts = [f"players={game.n_players}", f"board={_builtin_name(game, 'board')}",
             f"pieces={_builtin_name(game, 'pieces')}", f"min_points={min_points}", f"min_chain={min_chain}"]
    default = TangleOptions().to_json()
    for k, v in game.options.to_json().items():
        if default[k] != v:
            parts.append(f"{k}={'on' if v is True else 'off' if v is False else v}")
    return ",".join(parts)


def _builtin_name(game: TangleGame, what: str) -> str:
    spec = game.spec()[what]
    if not isinstance(spec, str):
        raise SolverError(f"puzzle IDs need a built-in {what}; this game uses a custom one (save the JSON instead)")
    return spec


def _parse_params(text: str) -> tuple[TangleGame, int, int]:
    kv = {}
    for part in text.split(","):
        if not part:
            continue
        k, sep, v = part.partition("=")
        if not sep:
            raise FormatError(f"bad puzzle ID parameter {part!r}: expected key=value")
        kv[k] = v
    try:
        players = int(kv.pop("players", "2"))
        min_points = int(kv.pop("min_points", "10"))
        min_chain = int(kv.pop("min_chain", "2"))
        hard = bool(int(kv.pop("hard", "0")))
    except ValueError:
        raise FormatError("puzzle ID: players, min_points and min_chain must be integers") from None
    board = load_board(kv.pop("board", "tangle-default"))
    pieces = load_pieces(kv.pop("pieces", "tangle-default"))
    options = TangleOptions.from_dict(kv)
    return TangleGame(board, pieces, options, players), min_points, min_chain, hard


def selfplay_positions(game: TangleGame, rng: random.Random, noise: float = 0.3, min_moves: int = 8):
    """Turn-start positions (after ``min_moves`` placements) of one seeded game between builder
    bots that open with a few random placements and later play a random legal move with
    probability ``noise`` (reachable, varied, mid-game positions)."""
    from ..solver.tangle_bots import make_bot

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
            params = _params_text(g, min_points, min_chain) + (",hard=1" if hard else "")
            return {
                "format": "tangle-puzzle",
                "version": 1,
                "id": f"tangle:{params}:{'.'.join(_b36(p) for p in s.moves)}",
                "seed_id": f"tangle:{params}#{seed}",
                **g.spec(),
                "moves": [g.move_json(p) for p in s.moves],
                "to_move": s.to_move,
                "scores": list(s.scores),
                "question": f"Player {s.to_move + 1} ({COLOUR_NAMES[s.to_move % 4]}) to move: "
                            f"score {r.points} points this turn.",
                "points": r.points,
                "solution": [g.move_json(p) for p in r.placements],
                "solution_text": [g.move_text(p) for p in r.placements],
                "chain_length": len(r.placements),
                "greedy_points": greedy,
                "positions_tried": tried,
            }
    raise SolverError(f"no puzzle with at least {min_points} points and a unique chain in {max_games} games")


def verify_puzzle(puzzle: dict) -> bool:
    """Re-solve a puzzle: its claimed points are the best, reached by its solution, uniquely."""
    from ..games.tangle.engine import state_from_json

    s = state_from_json(puzzle)
    r = best_turn(s, "points")
    if r.points != puzzle.get("points"):
        return False
    c = s.copy_position()
    team = c.game.team_of[c.to_move]
    start = c.scores[team]
    for m in puzzle.get("solution", []):
        c.push(c.game.parse_move(m))
    return c.scores[team] - start == r.points and len(_chain_sets(s, r.points, limit=1)) == 1


def puzzle_svg(game: TangleGame, puzzle: dict) -> str:
    """The printable puzzle: the position with tile coordinates, side key, legend and question."""
    from ..games.tangle.engine import state_from_json
    from ..games.tangle.svg import svg_position

    notes = [f"Goal: {puzzle['question']} Captures give extra turns.", f"ID {puzzle.get('seed_id') or puzzle['id']}"]
    return svg_position(game, state_from_json(puzzle), title=puzzle["question"], notes=notes)


def puzzle_answer_svg(game: TangleGame, puzzle: dict) -> str:
    """The answer page: the scoring placements drawn (numbered) and written in move notation."""
    from ..games.tangle.engine import state_from_json
    from ..games.tangle.svg import svg_position

    sol = [game.parse_move(m) for m in puzzle["solution"]]
    notes = [f"Answer: {puzzle['points']} points in {len(sol)} placements:"]
    notes += [f"{k}. {game.move_text(p)}" for k, p in enumerate(sol, 1)]
    return svg_position(game, state_from_json(puzzle), highlight=sol,
                        title=f"Answer: {puzzle['points']} points", notes=notes)


def puzzle_from_id(text: str) -> dict | TangleState:
    """Decode an ID: the descriptive form gives a state, the seed form regenerates the puzzle."""
    if not text.startswith("tangle:"):
        raise FormatError(f"not a Tangle puzzle ID: {text!r} (expected tangle:PARAMS:MOVES or tangle:PARAMS#SEED)")
    body = text[len("tangle:"):]
    if "#" in body:
        params, _, seed = body.rpartition("#")
        g, mp, mc, hard = _parse_params(params)
        try:
            sd = int(seed)
        except ValueError:
            raise FormatError(f"bad seed {seed!r} in puzzle ID") from None
        return generate_puzzle(g, seed=sd, min_points=mp, min_chain=mc, hard=hard)
    params, sep, moves = body.partition(":")
    if not sep:
        raise FormatError("puzzle ID needs ':MOVES' or '#SEED' after the parameters")
    g, _, _, _ = _parse_params(params)
    s = g.new_state()
    for tok in [t for t in moves.split(".") if t]:
        try:
            p = PASS if tok == "-" else int(tok, 36)
        except ValueError:
            raise FormatError(f"bad move {tok!r} in puzzle ID") from None
        if not s.is_legal(p):
            raise FormatError(f"puzzle ID move {tok!r} is illegal in its position")
        s._apply(p)
    return s


def load_state_or_id(spec: str) -> TangleState:
    """A state from a JSON file (state or puzzle) or a puzzle ID (either form)."""
    from ..games.tangle.engine import load_state, state_from_json

    if spec.startswith("tangle:"):
        out = puzzle_from_id(spec)
        return out if isinstance(out, TangleState) else state_from_json(out)
    return load_state(spec)

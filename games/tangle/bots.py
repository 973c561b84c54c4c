"""Tangle bots in named strengths (random, greedy, builder, lookahead) and a seeded match runner.

- ``random``: any legal move.
- ``greedy``: the capture worth most points now, else a random placement.
- ``builder``: like greedy, but without a capture it grows its own open tiles and never
  hands the next player a capture when it can avoid it (one-ply heuristic).
- ``lookahead`` (strongest): plays the exact best turn (``points`` or ``safe`` chain, whichever
  nets more after the next player's exact best reply), then ends the turn with a safe
  placement chosen for the threats it leaves: a fork (captures the opponent cannot all stop
  with one piece) first, then the fewest stopping replies, then the builder heuristic.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ...errors import BotError, SolverError
from .engine import PASS, TangleGame, TangleState
from .search import _opponent_threats, best_turn

BOTS = ("random", "greedy", "builder", "lookahead")


class Bot:
    name = "bot"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, s: TangleState) -> int:
        raise NotImplementedError


class RandomBot(Bot):
    name = "random"

    def choose(self, s: TangleState) -> int:
        return self.rng.choice(s.legal_moves())


class GreedyBot(Bot):
    name = "greedy"

    def choose(self, s: TangleState) -> int:
        caps = s.capturing_placements()
        if caps:
            best = max(s.capture_points(p)[1] for p in caps)
            return self.rng.choice([p for p in caps if s.capture_points(p)[1] == best])
        return self.rng.choice(s.legal_moves())


def placement_score(s: TangleState, p: int, me: int) -> float:
    """Heuristic worth of a non-capturing placement: grows own open tiles, spoils rival ones."""
    g = s.game
    team = g.team_of[me]
    m = g.pl_mask[p]
    mine = s.tmask[team]
    score = 0.0
    for t in g.pl_tiles[p]:
        if t in s.captured:
            continue
        tmk = g.tile_mask[t]
        covered = tmk & s.occ
        foreign = covered & ~mine
        worth = g.cap_points[t][0]
        if not foreign:
            own_after = bin((mine | m) & tmk).count("1")
            score += worth * own_after * own_after / 6.0
        else:
            rival = bin(foreign).count("1")
            owners = {s.owner[i] for i in range(g.n_sides) if (foreign >> i) & 1} if rival >= 3 else set()
            if len({g.team_of[o] for o in owners}) == 1:
                score += 0.5 * worth * rival  # spoil a rival tile that is getting close
    return score + 0.01 * bin(m).count("1")


def _safe_plain_moves(s: TangleState, moves: list[int], me: int) -> list[int]:
    """The placements among ``moves`` after which the next player has no capture (fast test)."""
    g = s.game
    opp = (me + 1) % g.n_players
    threats = _opponent_threats(s, opp)
    out = []
    for q in moves:
        qm = g.pl_mask[q]
        if all((g.pl_mask[r] & qm) or all(g.tile_mask[t] & qm for t in tiles) for r, tiles in threats):
            out.append(q)
    return out


class BuilderBot(Bot):
    name = "builder"

    def choose(self, s: TangleState) -> int:
        caps = s.capturing_placements()
        if caps:
            best = max(s.capture_points(p)[1] for p in caps)
            return self.rng.choice([p for p in caps if s.capture_points(p)[1] == best])
        return self.finish(s)

    def finish(self, s: TangleState) -> int:
        """End the turn: best heuristic placement among the safe ones (all if none is safe)."""
        legal = s.legal_placements()
        if not legal:
            return PASS
        me = s.to_move
        pool = _safe_plain_moves(s, legal, me) if s.turns_left == 1 else legal
        pool = pool or legal
        scored = [(placement_score(s, q, me), q) for q in pool]
        top = max(v for v, _ in scored)
        return self.rng.choice([q for v, q in scored if v >= top - 1e-9])


class LookaheadBot(BuilderBot):
    name = "lookahead"
    #: search budget per best-turn call; a position too open for it is played like builder
    node_limit = 5000

    def choose(self, s: TangleState) -> int:
        try:
            return self._choose(s)
        except SolverError:
            return BuilderBot.choose(self, s)

    def _choose(self, s: TangleState) -> int:
        me = s.to_move
        team = s.game.team_of[me]
        options = []
        for mode in ("points", "safe"):
            try:
                r = best_turn(s, mode, node_limit=self.node_limit, partial=True)
            except SolverError:
                continue  # safe mode has no partial answer; the points chain still counts
            if r.points <= 0:
                continue
            c = s.copy_position()
            for p in r.placements:
                c._apply(p)
            if not c.over and c.to_move == me:
                c._apply(self.finish(c))
            reply = 0
            if not c.over and c.game.team_of[c.to_move] != team:
                reply = best_turn(c, "points", node_limit=self.node_limit, partial=True).points
            options.append((r.points - reply, r.placements[0]))
        if options:
            net, first = max(options)
            if net > 0 or not _safe_plain_moves(s, s.legal_placements(), me):
                return first
        return self.finish_with_threats(s)

    #: how many of builder's best safe placements get the (costlier) threat analysis
    candidates = 16

    def finish_with_threats(self, s: TangleState) -> int:
        """End the turn safely, preferring placements that leave us captures the opponent
        cannot all stop with one piece (a fork), then those few of their replies stop."""
        legal = s.legal_placements()
        if not legal:
            return PASS
        me = s.to_move
        if s.turns_left != 1:
            return self.finish(s)
        pool = _safe_plain_moves(s, legal, me)
        if not pool:
            return self.finish(s)
        g = s.game
        scored = sorted(((placement_score(s, q, me), q) for q in pool), reverse=True)[: self.candidates]
        best_key, best_q = None, scored[0][1]
        for h, q in scored:
            s._apply(q)
            try:
                if s.over:  # our last piece: only good if it leaves us ahead
                    key = (1 if s.winners() == [g.team_of[me]] else -1, 0.0, h)
                elif g.team_of[s.to_move] == g.team_of[me]:
                    key = (0, 0.0, h)
                else:
                    threats = _opponent_threats(s, me)
                    if not threats:
                        key = (0, 0.0, h)
                    else:
                        replies = s.legal_placements()
                        stoppers = 0
                        for r in replies:
                            rm = g.pl_mask[r]
                            if all((g.pl_mask[p] & rm) or all(g.tile_mask[t] & rm for t in tiles) for p, tiles in threats):
                                stoppers += 1
                        fork = 1 if stoppers == 0 and replies else 0
                        key = (fork, 1.0 - stoppers / max(1, len(replies)), h)
            finally:
                s.pop()
            if best_key is None or key > best_key:
                best_key, best_q = key, q
        return best_q


def make_bot(name: str, seed: int = 0) -> Bot:
    cls = {"random": RandomBot, "greedy": GreedyBot, "builder": BuilderBot, "lookahead": LookaheadBot}.get(name)
    if cls is None:
        raise BotError(f"unknown Tangle bot {name!r}: expected one of {', '.join(BOTS)}")
    return cls(seed)


def play_game(game: TangleGame, bots: list[Bot], max_moves: int = 2000, opening: list[int] | None = None) -> TangleState:
    """Play one game to the end with one bot per seat (after the ``opening`` moves, if given);
    returns the final state with its log."""
    if len(bots) != game.n_players:
        raise SolverError(f"need {game.n_players} bots, got {len(bots)}")
    s = game.new_state()
    for p in opening or []:
        s.push(p)
    for _ in range(max_moves):
        if s.over:
            break
        s.push(bots[s.to_move].choose(s))
    return s


def random_opening(game: TangleGame, n: int, seed: int) -> list[int]:
    """``n`` seeded random legal non-capturing placements from the empty board (match openings)."""
    rng = random.Random(seed)
    s = game.new_state()
    out: list[int] = []
    for _ in range(n):
        caps = set(s.capturing_placements())
        moves = [p for p in s.legal_moves() if p not in caps]
        if not moves or s.over:
            break
        p = rng.choice(moves)
        s.push(p)
        out.append(p)
    return out


@dataclass
class MatchResult:
    a: str
    b: str
    games: int
    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0
    points_a: int = 0
    points_b: int = 0
    distinct: int = 0

    def row(self) -> str:
        return (f"| {self.a} v {self.b} | {self.games} | {self.wins_a} | {self.wins_b} | {self.draws} | "
                f"{self.points_a / max(1, self.games):.1f} | {self.points_b / max(1, self.games):.1f} | {self.distinct} |")


def run_match(a: str, b: str, games: int = 200, seed: int = 0, game: TangleGame | None = None,
              progress=None, opening: int = 4) -> MatchResult:
    """Two-player match. Games come in pairs that share a seeded random opening of ``opening``
    placements and swap seats, so neither bot profits from the first move or a lucky start."""
    g = game if game is not None else TangleGame(players=2)
    res = MatchResult(a, b, games)
    logs = set()
    for i in range(games):
        first_a = i % 2 == 0
        names = [a, b] if first_a else [b, a]
        bots = [make_bot(n, seed * 100003 + i * 2 + j) for j, n in enumerate(names)]
        s = play_game(g, bots, opening=random_opening(g, opening, seed * 100003 + i // 2))
        logs.add(tuple(s.moves))
        sa, sb = (s.scores[0], s.scores[1]) if first_a else (s.scores[1], s.scores[0])
        res.points_a += sa
        res.points_b += sb
        if sa > sb:
            res.wins_a += 1
        elif sb > sa:
            res.wins_b += 1
        else:
            res.draws += 1
        if progress:
            progress()
    res.distinct = len(logs)
    return res

"""Tangle game engine: a precomputed board index (TangleGame) and a state machine (TangleState).

Positions are bitsets over the board's sides held in Python ints (side ``i`` is bit ``i``);
every legal placement of every piece kind is precomputed once with its side mask, its
connection neighbourhood and the tiles it borders. A move is a placement index, or ``PASS``
(only legal when no placement is). The state keeps a replayable move log with ``push``/``pop``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ...errors import FormatError, InvalidMoveError, RuleError
from ...jsonio import read_json_file, text_int
from ...shapes.hexgrid import axial_to_offset, offset_to_axial, side_neighbours, side_tiles, tile_side, tile_sides
from ...shapes.hexsides import side_placements
from .board import Board, PieceSet, load_board, load_pieces
from .formats import PUZZLE, STATE, check_format
from .rules import TangleOptions

PASS = -1


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class TangleGame:
    """Board + piece set + rule options + player count, with every placement precomputed."""

    def __init__(
        self,
        board: Board | None = None,
        pieces: PieceSet | None = None,
        options: TangleOptions | None = None,
        players: int = 2,
    ):
        self.board = board if board is not None else load_board()
        self.pieces = pieces if pieces is not None else load_pieces()
        self.options = options if options is not None else TangleOptions()
        if not 2 <= int(players) <= 4:
            raise RuleError(f"Tangle is for 2 to 4 players, not {players}")
        if self.options.partners and players != 4:
            raise RuleError("the partners variant needs exactly 4 players")
        self.n_players = int(players)
        self.team_of = [p % 2 for p in range(players)] if self.options.partners else list(range(players))
        self.n_teams = 2 if self.options.partners else players
        b = self.board
        self.tile_index = b.index()
        sides = sorted({s for t in b.tiles for s in tile_sides(t)}, key=lambda c: (c[1], c[0]))
        self.sides: list = sides
        self.side_id = {s: i for i, s in enumerate(sides)}
        self.n_sides = len(sides)
        self.tile_mask = [sum(1 << self.side_id[s] for s in tile_sides(t)) for t in b.tiles]
        self.side_tiles = [
            tuple(self.tile_index[t] for t in side_tiles(s) if t in self.tile_index) for s in sides
        ]
        self.star_mask = self.tile_mask[b.star]
        # placements, all kinds in one list
        self.pl_kind: list[int] = []
        self.pl_mask: list[int] = []
        self.pl_nbr: list[int] = []
        self.pl_tiles: list[tuple[int, ...]] = []
        self.kind_range: list[range] = []
        self.lookup: dict[tuple[int, int], int] = {}
        vertex_nbr = [sum(1 << self.side_id[n] for n in side_neighbours(s) if n in self.side_id) for s in sides]
        tile_nbr = [0] * self.n_sides
        for i in range(self.n_sides):
            for t in self.side_tiles[i]:
                tile_nbr[i] |= self.tile_mask[t]
        nbr_of = vertex_nbr if self.options.connection == "vertex" else tile_nbr
        for k, kind in enumerate(self.pieces.kinds):
            start = len(self.pl_mask)
            pls = side_placements(kind.shape, b.tiles, mirror=self.options.mirror)
            region = pls.region_cells
            seen = set()
            for row in pls.cells:
                idx = [self.side_id[region[j]] for j in row]
                mask = sum(1 << i for i in idx)
                if mask in seen:
                    continue
                seen.add(mask)
                nb = 0
                tiles: set[int] = set()
                for i in idx:
                    nb |= nbr_of[i]
                    tiles.update(self.side_tiles[i])
                self.lookup[(k, mask)] = len(self.pl_mask)
                self.pl_kind.append(k)
                self.pl_mask.append(mask)
                self.pl_nbr.append(nb & ~mask)
                self.pl_tiles.append(tuple(sorted(tiles)))
            self.kind_range.append(range(start, len(self.pl_mask)))
        self.n_placements = len(self.pl_mask)
        self.pl_star = [bool(m & self.star_mask) for m in self.pl_mask]
        self.tile_pl: list[list[int]] = [[] for _ in b.tiles]
        for p, ts in enumerate(self.pl_tiles):
            for t in ts:
                self.tile_pl[t].append(p)
        self.side_pl: list[list[int]] = [[] for _ in range(self.n_sides)]
        for p, m in enumerate(self.pl_mask):
            for i in _bits(m):
                self.side_pl[i].append(p)
        # the most sides of one tile a single placement covers: tiles with more free sides
        # cannot be captured in one placement
        self.max_cover = max(
            (max((self.pl_mask[p] & self.tile_mask[t]).bit_count() for t in self.pl_tiles[p])
             for p in range(len(self.pl_mask))),
            default=0,
        )
        self.values = [k.value for k in self.pieces.kinds]
        # points for capturing tile t with kind k
        self.cap_points = [[b.tile_value(t, v) for v in self.values] for t in range(len(b.tiles))]

    # --- construction helpers ---------------------------------------------------------------
    def new_state(self) -> "TangleState":
        return TangleState(self)

    def spec(self) -> dict:
        """JSON-able description of board, pieces, options and players (inline unless built in)."""
        from .board import default_board, default_pieces  # loads pydantic (only when this runs)

        board = "tangle-default" if self.board.to_json() == default_board().to_json() else self.board.to_json()
        pieces = "tangle-default" if self.pieces.to_json() == default_pieces().to_json() else self.pieces.to_json()
        return {"board": board, "pieces": pieces, "players": self.n_players, "options": self.options.to_json()}

    # --- moves as text / JSON ---------------------------------------------------------------
    def placement_sides(self, p: int) -> list:
        return [self.sides[i] for i in _bits(self.pl_mask[p])]

    def move_json(self, p: int):
        if p == PASS:
            return "pass"
        return {"piece": self.pieces.kinds[self.pl_kind[p]].name,
                "sides": [list(s) for s in self.placement_sides(p)]}

    def side_text(self, side, prefer=None) -> str:
        """A side as ``col,row:i`` on one of its board tiles (``prefer`` first; offset coordinates)."""
        tiles = side_tiles(side)
        if prefer in tiles:
            tiles = (prefer,) + tuple(t for t in tiles if t != prefer)
        for t in tiles:
            if t in self.tile_index:
                c, r = axial_to_offset(t, self.board.offset)
                return f"{c},{r}:{[tile_side(t, i) for i in range(6)].index(tuple(side))}"
        raise FormatError(f"side {side} is not on the board")

    def move_text(self, p: int) -> str:
        if p == PASS:
            return "pass"
        sides = self.placement_sides(p)
        count: dict = {}
        for sd in sides:
            for t in side_tiles(sd):
                if t in self.tile_index:
                    count[t] = count.get(t, 0) + 1
        home = max(count, key=lambda t: (count[t], -t[1], -t[0]))  # the tile most sides are on
        return self.pieces.kinds[self.pl_kind[p]].name + " " + " ".join(self.side_text(sd, home) for sd in sides)

    def parse_move(self, move) -> int:
        """A placement index from JSON (``{"piece", "sides"}``), text (``V2 4,5:0 4,5:1``)
        or ``pass``; ``InvalidMoveError`` (a FormatError) if it names no placement of that piece
        on this board."""
        if isinstance(move, int):
            if move == PASS or 0 <= move < self.n_placements:
                return move
            raise InvalidMoveError(f"placement index {move} out of range")
        if isinstance(move, str):
            text = move.strip()
            if text.lower() == "pass":
                return PASS
            parts = text.split()
            if len(parts) < 2:
                raise InvalidMoveError(f"bad move {move!r}: expected 'PIECE col,row:side ...' or 'pass'")
            try:
                kind = self.pieces.index(parts[0])
            except FormatError as e:
                raise InvalidMoveError(str(e)) from None
            sides = []
            for tok in parts[1:]:
                try:
                    cr, _, si = tok.partition(":")
                    c, r = (text_int(v) for v in cr.split(","))
                    sides.append(tile_side(offset_to_axial(c, r, self.board.offset), text_int(si)))
                except ValueError:
                    raise InvalidMoveError(f"bad side {tok!r} in move {move!r}: expected col,row:side (side 0-5)") from None
        elif isinstance(move, dict):
            if "piece" not in move or "sides" not in move:
                raise InvalidMoveError(f"bad move {move!r}: expected keys piece and sides")
            try:
                kind = self.pieces.index(move["piece"])
            except FormatError as e:
                raise InvalidMoveError(str(e)) from None
            try:
                sides = [(int(a), int(b)) for a, b in move["sides"]]
            except (TypeError, ValueError):
                raise InvalidMoveError(f"bad sides in move {move!r}: expected [[a, b], ...]") from None
        else:
            raise InvalidMoveError(f"bad move {move!r}")
        mask = 0
        for s in sides:
            if s not in self.side_id:
                raise InvalidMoveError(f"side {s} of move {move!r} is not on the board")
            mask |= 1 << self.side_id[s]
        p = self.lookup.get((kind, mask))
        if p is None:
            raise InvalidMoveError(f"move {move!r}: those sides are not a placement of {self.pieces.kinds[kind].name}")
        return p


@dataclass
class Capture:
    tile: int
    team: int
    points: int


class TangleState:
    """A position plus its move log. ``push``/``pop`` apply and undo; ``legal_moves`` lists moves."""

    def __init__(self, game: TangleGame):
        g = game
        self.game = g
        self.owner = [-1] * g.n_sides
        self.occ = 0
        self.pmask = [0] * g.n_players
        self.tmask = [0] * g.n_teams
        self.remaining = [[k.count for k in g.pieces.kinds] for _ in range(g.n_players)]
        self.scores = [0] * g.n_teams
        self.captured: dict[int, int] = {}
        self.to_move = 0
        self.turns_left = 1
        self.started = [False] * g.n_players
        self.passes = 0
        self.over = False
        self.triggered = False
        self.moves: list[int] = []
        self.last_captures: list[Capture] = []
        self._undo: list[tuple] = []

    # --- queries -------------------------------------------------------------------------
    def needs_star(self, player: int | None = None) -> bool:
        pl = self.to_move if player is None else player
        if self.game.options.first_piece == "each-player":
            return not self.started[pl]
        return self.occ == 0

    def is_legal(self, p: int) -> bool:
        if self.over:
            return False
        if p == PASS:
            return not self.legal_placements()
        g = self.game
        if not 0 <= p < g.n_placements or self.remaining[self.to_move][g.pl_kind[p]] <= 0:
            return False
        if g.pl_mask[p] & self.occ:
            return False
        if self.needs_star() and not g.pl_star[p]:
            return False
        return self.occ == 0 or bool(g.pl_nbr[p] & self.occ)

    def legal_placements(self, player: int | None = None) -> list[int]:
        """Placement indices the player (default: the one to move) may make now, ascending
        (the numba kernel of ``movegen.py``; ``legal_placements_slow`` is the Python loop)."""
        if self.over:
            return []
        from .movegen import legal_placements_fast  # loads numba (only when this runs)

        return legal_placements_fast(self, player).tolist()

    def legal_placements_slow(self, player: int | None = None) -> list[int]:
        """The same list as ``legal_placements``, by Python-int bitsets kind by kind."""
        g = self.game
        pl = self.to_move if player is None else player
        if self.over:
            return []
        occ = self.occ
        star = self.needs_star(pl)
        rem = self.remaining[pl]
        masks, nbrs, stars = g.pl_mask, g.pl_nbr, g.pl_star
        out = []
        for k, rng in enumerate(g.kind_range):
            if rem[k] <= 0:
                continue
            for p in rng:
                if masks[p] & occ:
                    continue
                if star and not stars[p]:
                    continue
                if occ and not (nbrs[p] & occ):
                    continue
                out.append(p)
        return out

    def legal_moves(self) -> list[int]:
        if self.over:
            return []
        pls = self.legal_placements()
        return pls if pls else [PASS]

    def captures_of(self, p: int, player: int | None = None) -> list[Capture]:
        """Tiles that placement ``p`` would capture for the player's team, with their points."""
        g = self.game
        pl = self.to_move if player is None else player
        team = g.team_of[pl]
        m = g.pl_mask[p]
        occ = self.occ | m
        tm = self.tmask[team] | m
        k = g.pl_kind[p]
        out = []
        for t in g.pl_tiles[p]:
            tmk = g.tile_mask[t]
            if (tmk & ~occ) == 0 and (tmk & ~tm) == 0:
                out.append(Capture(t, team, g.cap_points[t][k]))
        return out

    def capture_points(self, p: int, player: int | None = None) -> tuple[int, int]:
        """(number of tiles captured, points) for placement ``p`` (fast path, no objects)."""
        g = self.game
        pl = self.to_move if player is None else player
        m = g.pl_mask[p]
        occ = self.occ | m
        tm = self.tmask[g.team_of[pl]] | m
        n = pts = 0
        for t in g.pl_tiles[p]:
            tmk = g.tile_mask[t]
            if (tmk & ~occ) == 0 and (tmk & ~tm) == 0:
                n += 1
                pts += g.cap_points[t][g.pl_kind[p]]
        return n, pts

    def capturing_placements(self, player: int | None = None) -> list[int]:
        """Legal placements that capture at least one tile (searched from the open tiles)."""
        g = self.game
        pl = self.to_move if player is None else player
        if self.over:
            return []
        tm = self.tmask[g.team_of[pl]]
        occ = self.occ
        cand: set[int] = set()
        rem = self.remaining[pl]
        max_cover = g.max_cover
        masks, kinds = g.pl_mask, g.pl_kind
        for tmk in g.tile_mask:
            covered = tmk & occ
            if covered & ~tm or covered == tmk:
                continue  # a foreign side, or already closed
            free = tmk ^ covered
            if free.bit_count() > max_cover:
                continue
            for p in g.side_pl[(free & -free).bit_length() - 1]:
                if (masks[p] & free) == free and rem[kinds[p]] > 0:
                    cand.add(p)
        if not cand:
            return []
        star = self.needs_star(pl)
        out = []
        for p in sorted(cand):
            if g.pl_mask[p] & occ or (star and not g.pl_star[p]) or (occ and not (g.pl_nbr[p] & occ)):
                continue
            out.append(p)
        return out

    @property
    def current_team(self) -> int:
        return self.game.team_of[self.to_move]

    def winners(self) -> list[int]:
        """Teams (players unless partners) with the highest score."""
        best = max(self.scores)
        return [t for t, s in enumerate(self.scores) if s == best]

    def pieces_left(self, player: int) -> int:
        return sum(self.remaining[player])

    # --- state changes -------------------------------------------------------------------
    def push(self, p: int) -> list[Capture]:
        """Play move ``p`` (placement index or PASS); RuleError if illegal. Returns captures."""
        if self.over:
            raise RuleError("the game is over")
        if not self.is_legal(p):
            what = self.game.move_text(p) if -1 <= p < self.game.n_placements else f"#{p}"
            raise RuleError(f"illegal move {what}")
        return self._apply(p)

    def _apply(self, p: int) -> list[Capture]:
        g = self.game
        me = self.to_move
        team = g.team_of[me]
        self._undo.append(
            (self.occ, self.pmask[me], self.tmask[team], list(self.scores), me, self.turns_left,
             self.started[me], self.passes, self.over, self.triggered, self.last_captures)
        )
        self.moves.append(p)
        if p == PASS:
            self.passes += 1
            self.last_captures = []
            if self.passes >= g.n_players:
                self.over = True  # nobody can move: the game is stuck
            else:
                self._next_player()
            return []
        caps = self.captures_of(p)
        m = g.pl_mask[p]
        self.occ |= m
        self.pmask[me] |= m
        self.tmask[team] |= m
        for i in _bits(m):
            self.owner[i] = me
        self.remaining[me][g.pl_kind[p]] -= 1
        self.started[me] = True
        self.passes = 0
        for c in caps:
            self.captured[c.tile] = team
            self.scores[team] += c.points
        self.last_captures = caps
        if g.options.extra_turns == "per-capture":
            self.turns_left += len(caps) - 1
        else:
            self.turns_left += (1 if caps else 0) - 1
        if self.scores[team] >= g.options.target_score or not any(self.remaining[me]):
            if g.options.end_timing == "immediate":
                self.over = True
                return caps
            self.triggered = True
        if self.turns_left <= 0:
            self._next_player()
        return caps

    def _next_player(self) -> None:
        n = self.game.n_players
        self.to_move = (self.to_move + 1) % n
        self.turns_left = 1
        if self.triggered and self.to_move == 0:
            self.over = True
        # a player without pieces left can only pass: end when a round has no live player
        # (handled by PASS counting)

    def pop(self) -> int:
        """Undo the last move and return it."""
        if not self.moves:
            raise RuleError("no move to undo")
        p = self.moves.pop()
        (occ, pm, tm, scores, me, tl, started, passes, over, triggered, last) = self._undo.pop()
        g = self.game
        team = g.team_of[me]
        if p != PASS:
            for c in self.last_captures:
                del self.captured[c.tile]
            for i in _bits(g.pl_mask[p]):
                self.owner[i] = -1
            self.remaining[me][g.pl_kind[p]] += 1
        self.occ, self.pmask[me], self.tmask[team] = occ, pm, tm
        self.scores = scores
        self.to_move, self.turns_left = me, tl
        self.started[me] = started
        self.passes, self.over, self.triggered, self.last_captures = passes, over, triggered, last
        return p

    def clone(self) -> "TangleState":
        s = TangleState(self.game)
        for p in self.moves:
            s._apply(p)
        return s

    def copy_position(self) -> "TangleState":
        """A fast copy of the position and log (no undo history beyond it)."""
        s = TangleState.__new__(TangleState)
        s.game = self.game
        s.owner = list(self.owner)
        s.occ = self.occ
        s.pmask = list(self.pmask)
        s.tmask = list(self.tmask)
        s.remaining = [list(r) for r in self.remaining]
        s.scores = list(self.scores)
        s.captured = dict(self.captured)
        s.to_move, s.turns_left = self.to_move, self.turns_left
        s.started = list(self.started)
        s.passes, s.over, s.triggered = self.passes, self.over, self.triggered
        s.moves = list(self.moves)
        s.last_captures = list(self.last_captures)
        s._undo = []
        return s

    # --- serialisation -------------------------------------------------------------------
    def to_json(self) -> dict:
        g = self.game
        d = {"format": STATE.tag, "version": STATE.version}
        d.update(g.spec())
        d["moves"] = [g.move_json(p) for p in self.moves]
        d["scores"] = list(self.scores)
        d["to_move"] = self.to_move
        d["over"] = self.over
        return d

    def summary(self) -> str:
        g = self.game
        who = "team" if g.options.partners else "player"
        parts = [f"{who} {t}: {s}" for t, s in enumerate(self.scores)]
        status = "game over" if self.over else f"player {self.to_move} to move ({self.turns_left} placement(s))"
        return f"{', '.join(parts)}; {status}"


def game_from_spec(spec: dict) -> TangleGame:
    """A TangleGame from the ``board``/``pieces``/``players``/``options`` keys of a JSON object."""
    board = load_board(spec.get("board", "tangle-default"))
    pieces = load_pieces(spec.get("pieces", "tangle-default"))
    options = TangleOptions.from_dict(spec.get("options"))
    players = spec.get("players", 2)
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise FormatError("players must be a whole number from 2 to 4")
    return TangleGame(board, pieces, options, players)


_GAME_CACHE: dict[str, TangleGame] = {}


def cached_game(spec: dict) -> TangleGame:
    key = json.dumps({k: spec.get(k) for k in ("board", "pieces", "players", "options")}, sort_keys=True)
    g = _GAME_CACHE.get(key)
    if g is None:
        g = _GAME_CACHE[key] = game_from_spec(spec)
    return g


def state_from_json(data: dict, where: str = "<state>", expect=None) -> TangleState:
    """Replay a state (or puzzle) file's move log after checking its format and schema;
    FormatError/RuleError naming the bad move, or a stored score or turn the replay contradicts."""
    check_format(data, expect or (STATE, PUZZLE), where)
    try:
        g = cached_game(data)
    except (FormatError, RuleError) as e:
        msg = str(e)
        raise type(e)(msg if msg.startswith(where) else f"{where}: {msg}") from None
    s = g.new_state()
    for i, m in enumerate(data["moves"]):
        try:
            p = g.parse_move(m)
        except FormatError as e:
            raise FormatError(f"{where}: move {i + 1}: {e}") from None
        if not s.is_legal(p):
            what = "the game is over" if s.over else "illegal in that position"
            if p != PASS and not s.over and s.remaining[s.to_move][g.pl_kind[p]] <= 0:
                k = g.pieces.kinds[g.pl_kind[p]]
                what = f"one {k.name} too many: player {s.to_move} has used all {k.count} of the set"
            raise RuleError(f"{where}: move {i + 1} ({g.move_text(p)}) is {what}")
        s._apply(p)
    if data.get("scores") is not None and list(data["scores"]) != s.scores:
        raise FormatError(f"{where}: scores {data['scores']} do not match the move log (replayed: {s.scores})")
    if data.get("to_move") is not None and data["to_move"] != s.to_move:
        raise FormatError(f"{where}: to_move {data['to_move']} does not match the move log (replayed: {s.to_move})")
    if data.get("over") is not None and data["over"] != s.over:
        raise FormatError(f"{where}: over is {str(data['over']).lower()} but the move log says "
                          f"{str(s.over).lower()}")
    return s


def load_state(spec: str | Path | dict, expect=None) -> TangleState:
    """A state from a JSON file path or a parsed object (a puzzle file works too); ``expect``
    narrows the formats accepted (default: a Tangle position or puzzle)."""
    if isinstance(spec, dict):
        return state_from_json(spec, expect=expect)
    path = Path(spec)
    return state_from_json(read_json_file(path, "Tangle position"), str(path), expect)

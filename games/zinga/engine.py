"""Zinga rules engine: a state machine over a replayable move log (rolls, calls, STOP, bonus, pawn).

Phases: ``roll`` (between turns: announcements, taking the pawn, then the active player's roll),
``race`` (the first bell: a call, a silent ring, a corrected call, or nobody), ``stop`` (the pawn
holder may cancel the pending call), ``bonus`` (free tick after the third PLUS box), ``blunder``
(a third blunder by the pawn holder: cancel it with the pawn or accept it) and ``over``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ...errors import FormatError, RuleError
from ...jsonio import expect_format, register_format, short, tagged, text_int, validate
from .rules import (BLUE9, COLOURS, LINE_MASKS, MAX_BLUNDERS, MAX_PLUS, N_CELLS, N_NUMBERS, WHITE,
                    ZingaOptions, code_of, name_of)
from .sheet import Sheet, sheets_from_json, sheets_to_json

MAX_MOVES = 500_000  # a game file longer than this is refused (bot games end within a few thousand)


def _game_model():
    """The pydantic schema of a game file (shape and bounds; moves and sheets are read after)."""
    from typing import Annotated, Any, Optional, Union

    from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

    class GameModel(BaseModel):
        model_config = ConfigDict(extra="forbid")
        first: Annotated[StrictInt, Field(ge=0, le=59)] = 0
        options: Optional[dict[Annotated[StrictStr, Field(max_length=40)],
                               Union[StrictBool, Annotated[StrictInt, Field(ge=1, le=10**9)]]]] = None
        sheets: Annotated[list[Any], Field(min_length=2, max_length=60)]
        moves: Annotated[list[Annotated[StrictStr, Field(max_length=80)]], Field(max_length=MAX_MOVES)]

    return GameModel


GAME_FORMAT = register_format("tanglekit/zinga-game", 1, "Zinga game", _game_model,
                              lambda d: isinstance(d, dict) and {"sheets", "moves", "first"} <= set(d)
                              <= {"sheets", "moves", "first", "options"})

MOVE_KINDS = ("roll", "claim", "silent", "correct", "none", "stop", "go", "bonus", "cancel",
              "accept", "announce", "take")
BLUNDER_CASES = {
    1: "called a combination that is not on the sheet or not on the table",
    2: "rang without announcing",
    3: "announced and then corrected the call",
    4: "called a ticked combination with all PLUS boxes already blacked",
    5: "called the fifth cell of a line without announcing the four",
}


@dataclass(frozen=True)
class Move:
    """One log entry. ``player`` is a seat 0..n-1; codes are colour * 12 + number - 1."""

    kind: str
    player: int = -1
    code: int = -1
    code2: int = -1
    dice: tuple[int, ...] = ()

    def text(self) -> str:
        k = self.kind
        if k == "roll":
            return "roll " + " ".join(map(str, self.dice))
        if k in ("none", "go"):
            return k
        if k in ("claim", "announce") or (k == "bonus" and self.code >= 0):
            return f"{k} {self.player} {name_of(self.code)}"
        if k == "bonus":
            return f"bonus {self.player} skip"
        if k == "correct":
            return f"correct {self.player} {name_of(self.code)} {name_of(self.code2)}"
        return f"{k} {self.player}"

    __str__ = text

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Parse the text form (e.g. 'roll 3 4 1 6 2 5', 'claim 2 red 7', 'stop 1')."""
        if not isinstance(text, str) or len(text) > 200:
            raise FormatError(f"bad Zinga move {short(text)}: expected text like 'roll 1 2 3 4 5 6'")
        t = text.split()
        if not t or t[0] not in MOVE_KINDS:
            raise FormatError(f"bad Zinga move {short(text)}: expected one of {', '.join(MOVE_KINDS)}")
        k = t[0]
        try:
            if k == "roll":
                dice = tuple(text_int(x) for x in t[1:])
                if len(dice) != 6 or not all(1 <= d <= 6 for d in dice):
                    raise FormatError(f"bad roll {text!r}: six dice 1..6 (red orange yellow green blue white)")
                return cls("roll", dice=dice)
            if k in ("none", "go"):
                if len(t) != 1:
                    raise FormatError(f"bad move {text!r}: {k} takes no argument")
                return cls(k)
            player = text_int(t[1])
            if k in ("claim", "announce") or (k == "bonus" and t[2:] != ["skip"]):
                if len(t) != 4:
                    raise FormatError(f"bad move {text!r}: expected '{k} PLAYER COLOUR NUMBER'")
                return cls(k, player, code_of(t[2], text_int(t[3])))
            if k == "bonus":
                return cls(k, player, -1)
            if k == "correct":
                if len(t) != 6:
                    raise FormatError(f"bad move {text!r}: expected 'correct PLAYER COLOUR N COLOUR N'")
                return cls(k, player, code_of(t[2], text_int(t[3])), code_of(t[4], text_int(t[5])))
            if len(t) != 2:
                raise FormatError(f"bad move {text!r}: expected '{k} PLAYER'")
            return cls(k, player)
        except (IndexError, ValueError) as e:
            if isinstance(e, FormatError):
                raise
            raise FormatError(f"bad Zinga move {short(text)}: {str(e)[:100]}") from None


def available_codes(dice, active: bool) -> set[int]:
    """Codes claimable from a roll: die c alone (active only) or die c + white."""
    w = dice[WHITE]
    out = set()
    for c in range(len(COLOURS)):
        out.add(c * N_NUMBERS + dice[c] + w - 1)
        if active:
            out.add(c * N_NUMBERS + dice[c] - 1)
    return out


def available_cells(sheet: Sheet, dice, active: bool) -> int:
    """Cells of a sheet (25-bit mask) claimable from a roll for the given role."""
    codes = available_codes(dice, active)
    return sum(1 << i for i, c in enumerate(sheet.codes) if c in codes)


def completed_lines(ticked: int, cell: int) -> list[int]:
    """Lines that ticking ``cell`` would complete."""
    t = ticked | (1 << cell)
    return [k for k, m in enumerate(LINE_MASKS) if (m >> cell) & 1 and t & m == m]


def four_lines(ticked: int) -> list[tuple[int, int]]:
    """(line, missing cell) for every line with exactly four ticks."""
    out = []
    for k, m in enumerate(LINE_MASKS):
        rest = m & ~ticked
        if rest and rest & (rest - 1) == 0:
            out.append((k, rest.bit_length() - 1))
    return out


@dataclass
class PlayerState:
    ticked: int = 0
    plus: int = 0
    blunders: int = 0
    alive: bool = True
    bonus_used: bool = False
    announced: set[int] = field(default_factory=set)
    blunder_log: list[int] = field(default_factory=list)  # blunder cases, in order


class ZingaGame:
    """A Zinga game for 2+ players (one sheet each), driven by moves; ``moves`` is the full log."""

    def __init__(self, sheets: list[Sheet], options: ZingaOptions | None = None, first: int = 0):
        if len(sheets) < 2:
            raise RuleError("Zinga needs at least 2 players (one sheet each)")
        self.sheets = list(sheets)
        self.options = options or ZingaOptions()
        n = len(sheets)
        if not 0 <= first < n:
            raise RuleError(f"first player {first} out of range 0..{n - 1}")
        self.first = first
        self.players = [PlayerState() for _ in range(n)]
        self.active = first
        self.turn = 0  # rolls made
        self.dice: tuple[int, ...] | None = None
        self.phase = "roll"
        self.pawn: int | None = None
        self.pawn_window: set[int] = set()
        self.pending: Move | None = None  # call awaiting STOP, or blunder awaiting cancel
        self.winner: int | None = None
        self.draw = False
        self.moves: list[Move] = []
        self.events: list[str] = []
        self.stops = 0
        self.cancels = 0

    @property
    def n(self) -> int:
        return len(self.players)

    # --- queries -----------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.phase == "over"

    def available(self, player: int) -> int:
        """Cells the player may claim from the current dice (0 outside the race)."""
        if self.dice is None:
            return 0
        return available_cells(self.sheets[player], self.dice, player == self.active)

    def classify(self, player: int, code: int) -> tuple[str, int]:
        """What a call would do: ('tick'|'win'|'plus', 0) or ('blunder', case)."""
        ps, sheet = self.players[player], self.sheets[player]
        i = sheet.index_of(code)
        if i is None:
            return "blunder", 1
        on_table = code in available_codes(self.dice, player == self.active or not self.options.table_by_role)
        ticked = ps.ticked >> i & 1
        if ticked:
            if not on_table and self.options.plus_needs_table:
                return "blunder", 1
            return ("plus", 0) if ps.plus < MAX_PLUS else ("blunder", 4)
        if not on_table:
            return "blunder", 1
        done = completed_lines(ps.ticked, i)
        if done:
            ok = [k in ps.announced for k in done]
            if any(ok) if self.options.announce_any_line else all(ok):
                return "win", 0
            return "blunder", 5
        return "tick", 0

    def bonus_cells(self, player: int) -> int:
        """Cells the bonus may tick: unticked and not completing a line."""
        t = self.players[player].ticked
        return sum(1 << i for i in range(N_CELLS) if not t >> i & 1 and not completed_lines(t, i))

    def legal_moves(self) -> list[Move]:
        """Moves that keep to the rules in this phase.

        Any call may also be played (it is then judged, possibly as a blunder). In phase ``roll``
        a single example roll stands for all 46656 (play ``Move('roll', dice=...)`` with any dice).
        """
        ph = self.phase
        if ph == "over":
            return []
        if ph == "roll":
            out = [Move("roll", dice=d) for d in [(1,) * 6]]  # any dice; one example listed
            for p, ps in enumerate(self.players):
                if ps.alive:
                    for _, cell in four_lines(ps.ticked):
                        if any(k not in ps.announced for k, c in four_lines(ps.ticked) if c == cell):
                            out.append(Move("announce", p, self.sheets[p].codes[cell]))
            out += [Move("take", p) for p in sorted(self.pawn_window)]
            return out
        if ph == "race":
            out = [Move("none")]
            for p, ps in enumerate(self.players):
                if ps.alive:
                    av = self.available(p)
                    for i in range(N_CELLS):
                        if av >> i & 1 and self.classify(p, self.sheets[p].codes[i])[0] != "blunder":
                            out.append(Move("claim", p, self.sheets[p].codes[i]))
            return out
        if ph == "stop":
            return [Move("stop", self.pawn), Move("go")]
        if ph == "bonus":
            p = self.pending.player
            cells = self.bonus_cells(p)
            return [Move("bonus", p, self.sheets[p].codes[i]) for i in range(N_CELLS) if cells >> i & 1] + [Move("bonus", p, -1)]
        if ph == "blunder":
            p = self.pending.player
            return [Move("cancel", p), Move("accept", p)]
        return []

    def four_lines_unannounced(self, player: int) -> list[int]:
        """Missing cells of this player's four-in-a-line series not yet announced."""
        ps = self.players[player]
        return sorted({c for k, c in four_lines(ps.ticked) if k not in ps.announced})

    # --- moves -------------------------------------------------------------------------------
    def play(self, move: Move | str) -> "ZingaGame":
        """Apply one move (a Move or its text); RuleError if it is not allowed now."""
        if isinstance(move, str):
            move = Move.parse(move)
        getattr(self, "_do_" + move.kind)(move)
        self.moves.append(move)
        return self

    def _need(self, phase: str, move: Move) -> None:
        if self.phase != phase:
            raise RuleError(f"{move.text()!r} is not allowed in phase {self.phase!r}")

    def _seat(self, p: int, move: Move, alive: bool = True) -> PlayerState:
        if not 0 <= p < self.n:
            raise RuleError(f"{move.text()!r}: no player {p} (players 0..{self.n - 1})")
        ps = self.players[p]
        if alive and not ps.alive:
            raise RuleError(f"{move.text()!r}: player {p} is eliminated")
        return ps

    def _do_roll(self, m: Move) -> None:
        self._need("roll", m)
        if len(m.dice) != 6 or not all(1 <= d <= 6 for d in m.dice):
            raise RuleError("a roll is six dice with values 1..6")
        self.dice = tuple(m.dice)
        self.turn += 1
        self.pawn_window.clear()  # too late to take the pawn once the dice are rolled again
        self.phase = "race"

    def _do_none(self, m: Move) -> None:
        self._need("race", m)
        self._end_turn()

    def _do_silent(self, m: Move) -> None:
        self._need("race", m)
        self._seat(m.player, m)
        self._blunder(m.player, 2)

    def _do_claim(self, m: Move) -> None:
        self._need("race", m)
        self._seat(m.player, m)
        self._call(m)

    def _do_correct(self, m: Move) -> None:
        self._need("race", m)
        self._seat(m.player, m)
        self._call(m)

    def _call(self, m: Move) -> None:
        h = self.pawn
        if h is not None and h != m.player and self.players[h].alive:
            stoppable = self.options.stop_any_call or (
                m.kind == "claim" and self.classify(m.player, m.code)[0] in ("tick", "win"))
            if stoppable:
                self.pending = m
                self.phase = "stop"
                return
        self._resolve(m)

    def _do_stop(self, m: Move) -> None:
        self._need("stop", m)
        if m.player != self.pawn:
            raise RuleError(f"{m.text()!r}: only the pawn holder ({self.pawn}) can say STOP")
        target = self.pending.player
        self.events.append(f"player {m.player} says STOP to player {target}; the pawn changes hands")
        self.pawn = target
        self.stops += 1
        self.pending = None
        self._end_turn()

    def _do_go(self, m: Move) -> None:
        self._need("stop", m)
        call, self.pending = self.pending, None
        self._resolve(call)

    def _resolve(self, m: Move) -> None:
        p = m.player
        if m.kind == "correct":
            self._blunder(p, 3)
            return
        what, case = self.classify(p, m.code)
        ps = self.players[p]
        if what == "blunder":
            self._blunder(p, case)
            return
        if what == "plus":
            ps.plus += 1
            self.events.append(f"player {p} calls ticked {name_of(m.code)}: PLUS box {ps.plus}")
            if ps.plus == MAX_PLUS and not ps.bonus_used:
                if self.bonus_cells(p):
                    self.pending = Move("bonus", p)
                    self.phase = "bonus"
                    return
                ps.bonus_used = True
            self._end_turn()
            return
        i = self.sheets[p].index_of(m.code)
        self._tick(p, i)
        if what == "win":
            self.winner = p
            self.phase = "over"
            self.events.append(f"player {p} completes a line: ZINGA!")
            return
        self._end_turn()

    def _tick(self, p: int, i: int) -> None:
        self.players[p].ticked |= 1 << i
        code = self.sheets[p].codes[i]
        self.events.append(f"player {p} ticks {name_of(code)}")
        if code == BLUE9:
            if self.options.auto_take_pawn:
                self._give_pawn(p)
            else:
                self.pawn_window.add(p)

    def _give_pawn(self, p: int) -> None:
        if self.pawn != p:
            self.events.append(f"player {p} takes the pawn")
        self.pawn = p

    def _do_take(self, m: Move) -> None:
        self._need("roll", m)
        self._seat(m.player, m)
        if m.player not in self.pawn_window:
            raise RuleError(f"{m.text()!r}: player {m.player} did not tick blue 9 since the last roll")
        self.pawn_window.discard(m.player)
        self._give_pawn(m.player)

    def _do_bonus(self, m: Move) -> None:
        self._need("bonus", m)
        p = self.pending.player
        if m.player != p:
            raise RuleError(f"{m.text()!r}: the bonus belongs to player {p}")
        ps = self.players[p]
        if m.code >= 0:
            i = self.sheets[p].index_of(m.code)
            if i is None:
                raise RuleError(f"{m.text()!r}: {name_of(m.code)} is not on player {p}'s sheet")
            if ps.ticked >> i & 1:
                raise RuleError(f"{m.text()!r}: {name_of(m.code)} is already ticked")
            if completed_lines(ps.ticked, i):
                raise RuleError(f"{m.text()!r}: the bonus may not tick the fifth cell of a line")
            self._tick(p, i)
        ps.bonus_used = True
        self.pending = None
        self._end_turn()

    def _blunder(self, p: int, case: int) -> None:
        ps = self.players[p]
        self.events.append(f"player {p} blunders ({BLUNDER_CASES[case]})")
        ps.blunder_log.append(case)
        if ps.blunders == MAX_BLUNDERS - 1 and self.pawn == p:
            self.pending = Move("cancel", p)
            self.phase = "blunder"
            return
        self._black_blunder(p)

    def _black_blunder(self, p: int) -> None:
        ps = self.players[p]
        ps.blunders += 1
        if ps.blunders >= MAX_BLUNDERS:
            ps.alive = False
            self.events.append(f"player {p} is eliminated")
            if self.pawn == p:
                self.pawn = None
            self.pawn_window.discard(p)
            alive = [q for q in range(self.n) if self.players[q].alive]
            if len(alive) == 1 and self.options.last_standing_wins:
                self.winner = alive[0]
                self.phase = "over"
                return
            if not alive:
                self.draw = True
                self.phase = "over"
                return
        self._end_turn()

    def _do_cancel(self, m: Move) -> None:
        self._need("blunder", m)
        if m.player != self.pending.player:
            raise RuleError(f"{m.text()!r}: the pending blunder is player {self.pending.player}'s")
        self.events.append(f"player {m.player} returns the pawn to cancel the third blunder")
        self.pawn = None
        self.cancels += 1
        self.pending = None
        self._end_turn()

    def _do_accept(self, m: Move) -> None:
        self._need("blunder", m)
        if m.player != self.pending.player:
            raise RuleError(f"{m.text()!r}: the pending blunder is player {self.pending.player}'s")
        self.pending = None
        self._black_blunder(m.player)

    def _do_announce(self, m: Move) -> None:
        self._need("roll", m)
        ps = self._seat(m.player, m)
        i = self.sheets[m.player].index_of(m.code)
        lines = [k for k, c in four_lines(ps.ticked) if c == i] if i is not None else []
        if not lines:
            raise RuleError(f"{m.text()!r}: {name_of(m.code)} does not complete a line of four ticks")
        ps.announced.update(lines)
        self.events.append(f"player {m.player} announces four in a line, missing {name_of(m.code)}")

    def _end_turn(self) -> None:
        self.phase = "roll"
        self.dice = None
        if self.turn >= self.options.max_turns:
            self.draw = True
            self.phase = "over"
            return
        n = self.n
        for k in range(1, n + 1):
            q = (self.active + k) % n
            if self.players[q].alive:
                self.active = q
                return

    # --- log, undo, files --------------------------------------------------------------------
    @classmethod
    def replay(cls, sheets, moves, options: ZingaOptions | None = None, first: int = 0) -> "ZingaGame":
        g = cls(sheets, options, first)
        for k, m in enumerate(moves):
            try:
                g.play(m)
            except RuleError as e:
                raise RuleError(f"move {k + 1}: {e}") from None
        return g

    def undo(self, n: int = 1) -> "ZingaGame":
        """A new game equal to this one without its last ``n`` moves."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise RuleError(f"cannot undo {short(n)} moves: give a whole number >= 0")
        if n > len(self.moves):
            raise RuleError(f"cannot undo {n} moves: the log has {len(self.moves)}")
        return ZingaGame.replay(self.sheets, self.moves[:len(self.moves) - n], self.options, self.first)

    def to_json(self) -> dict:
        """The game file (``tanglekit/zinga-game``): sheets, options, first player and the move log."""
        return tagged(GAME_FORMAT, {"first": self.first, "options": self.options.to_json(),
                                    "sheets": sheets_to_json(self.sheets)["sheets"],
                                    "moves": [m.text() for m in self.moves]})

    @classmethod
    def from_json(cls, data: dict, where: str = "game") -> "ZingaGame":
        """A game file, replayed move by move (a bad move names its number)."""
        if isinstance(data, dict) and data.get("format") == "zinga-game":  # the tag before the prefix
            data = {k: v for k, v in data.items() if k != "format"}
        elif isinstance(data, dict) and data.get("format") in ("zinga-sheets", "zinga-sheet"):
            raise FormatError(f"{where}: this is a Zinga sheet set file, expected a Zinga game")
        elif not isinstance(data, dict) or "format" not in data:
            if not isinstance(data, dict) or not {"sheets", "moves"} <= set(data):
                expect_format(data, GAME_FORMAT, where)
                raise FormatError(f"{where}: not a Zinga game file (needs 'sheets' and 'moves')")
        expect_format(data, GAME_FORMAT, where)
        m = validate(data, GAME_FORMAT.schema(), where, "Zinga game")
        sheets = sheets_from_json({"sheets": m.sheets}, f"{where} sheets")
        if len(sheets) < 2:
            raise FormatError(f"{where}: a game needs at least 2 sheets, has {len(sheets)}")
        if m.first >= len(sheets):
            raise FormatError(f"{where}: first player {m.first} out of range 0..{len(sheets) - 1}")
        return cls.replay(sheets, m.moves, ZingaOptions.from_dict(m.options), m.first)

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    def outcome_text(self) -> str:
        """The end (or the state of play) in a sentence: who won and why, who is out and why."""
        rolls = f"{self.turn} roll{'s' if self.turn != 1 else ''}"
        out = []
        for p, ps in enumerate(self.players):
            if not ps.alive:
                last = BLUNDER_CASES.get(ps.blunder_log[-1], "a blunder") if ps.blunder_log else "a blunder"
                out.append(f"player {p} is out after {MAX_BLUNDERS} blunders (the last: {last})")
        outs = ("; " + "; ".join(out)) if out else ""
        if self.phase != "over":
            return f"in progress after {rolls} (phase {self.phase})" + outs
        if self.winner is not None:
            w = self.winner
            if any(e == f"player {w} completes a line: ZINGA!" for e in self.events[-4:]):
                why = "completed a line of five ticks (ZINGA!)"
            else:
                why = "are the last player left in the game"
            return f"player {w} wins after {rolls}: they {why}" + outs
        if all(not ps.alive for ps in self.players):
            return f"a draw after {rolls}: every player is out" + outs
        return f"a draw: the limit of {self.options.max_turns} rolls was reached" + outs

    def summary(self) -> dict:
        return {
            "winner": self.winner, "draw": self.draw, "turns": self.turn,
            "players": [{"ticks": bin(ps.ticked).count("1"), "plus": ps.plus, "blunders": ps.blunders,
                         "alive": ps.alive, "bonus_used": ps.bonus_used} for ps in self.players],
            "pawn": self.pawn,
        }

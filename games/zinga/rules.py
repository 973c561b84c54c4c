"""Zinga constants (colours, dice, lines of the 5x5 sheet) and the rule options of docs/rules.md."""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import RuleError
from ..options import RuleOptions, option

COLOURS = ("red", "orange", "yellow", "green", "blue")
"""The five sheet colours, in die order; the sixth die is white."""
DICE = COLOURS + ("white",)
WHITE = 5
N_NUMBERS = 12
N_CODES = len(COLOURS) * N_NUMBERS  # a (colour, number) pair as code = colour * 12 + number - 1
SIZE = 5
N_CELLS = SIZE * SIZE
CENTRE = 12
BLUE = COLOURS.index("blue")
BLUE9 = BLUE * N_NUMBERS + 9 - 1
MAX_PLUS = 3
MAX_BLUNDERS = 3
MAX_TURNS = 1_000_000  # the largest max_turns option (bot games end within a few hundred rolls)


def _lines() -> tuple[tuple[int, ...], ...]:
    rows = [tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE)]
    cols = [tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE)]
    diag = [tuple(i * SIZE + i for i in range(SIZE)), tuple(i * SIZE + SIZE - 1 - i for i in range(SIZE))]
    return tuple(rows + cols + diag)


LINES = _lines()
"""The 12 lines of five cells (5 rows, 5 columns, 2 diagonals) as cell indices row * 5 + col."""
LINE_MASKS = tuple(sum(1 << i for i in line) for line in LINES)


def code_of(colour: str | int, number: int) -> int:
    """(colour, number) -> code colour * 12 + number - 1, with a clear error on bad input."""
    if isinstance(colour, str):
        name = colour.strip().lower()
        if name not in COLOURS:
            raise RuleError(f"unknown colour {colour!r}: expected one of {', '.join(COLOURS)}")
        c = COLOURS.index(name)
    else:
        c = int(colour)
        if not 0 <= c < len(COLOURS):
            raise RuleError(f"colour index {colour!r} out of range 0..4")
    n = int(number)
    if not 1 <= n <= N_NUMBERS:
        raise RuleError(f"number {number!r} out of range 1..12")
    return c * N_NUMBERS + n - 1


def name_of(code: int) -> str:
    """Code -> 'red 7'."""
    return f"{COLOURS[code // N_NUMBERS]} {code % N_NUMBERS + 1}"


# Indices of ZingaOptions.flags(), the options array the simulation kernel reads
# (games/zinga/sim.py uses these very names)
FLAG_TABLE_BY_ROLE = 0
FLAG_PLUS_NEEDS_TABLE = 1
FLAG_STOP_ANY_CALL = 2
FLAG_ANNOUNCE_ANY_LINE = 3
FLAG_AUTO_TAKE_PAWN = 4
FLAG_LAST_STANDING_WINS = 5
FLAG_MAX_TURNS = 6
N_FLAGS = 7


@dataclass(frozen=True)
class ZingaOptions(RuleOptions):
    """Rule options: each genuine reading choice of docs/rules.md with its default there, declared with
    ``option()`` (validated by the shared base; the README table comes from here). With
    ``auto_take_pawn`` off the pawn needs an explicit ``take`` before the next roll."""

    GAME = "Zinga"

    table_by_role: bool = option(True, "whether a call is on the table depends on the caller's role (a passive "
                                 "lone-die call blunders)")
    plus_needs_table: bool = option(True, "re-calling a ticked combination blacks a PLUS box only if the dice show "
                                    "it (else blunder case 1)")
    stop_any_call: bool = option(True, "STOP may cancel any announced call; off: only calls that would tick")
    announce_any_line: bool = option(True, "a fifth cell completing several lines needs only one of them announced")
    auto_take_pawn: bool = option(True, "ticking blue 9 takes the pawn at once; off: an explicit `take` before the "
                                  "next roll")
    last_standing_wins: bool = option(True, "the last player not eliminated wins (the rulebook is silent)")
    max_turns: int = option(1000, "rolls before the game is a draw (safety cap)", minimum=1, maximum=MAX_TURNS,
                            rulebook=False)

    def flags(self):
        """The options as an int64 array for the numba kernel, at the FLAG_* indices."""
        import numpy as np

        out = np.zeros(N_FLAGS, dtype=np.int64)
        out[FLAG_TABLE_BY_ROLE] = self.table_by_role
        out[FLAG_PLUS_NEEDS_TABLE] = self.plus_needs_table
        out[FLAG_STOP_ANY_CALL] = self.stop_any_call
        out[FLAG_ANNOUNCE_ANY_LINE] = self.announce_any_line
        out[FLAG_AUTO_TAKE_PAWN] = self.auto_take_pawn
        out[FLAG_LAST_STANDING_WINS] = self.last_standing_wins
        out[FLAG_MAX_TURNS] = self.max_turns
        return out

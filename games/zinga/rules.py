"""Zinga constants (colours, dice, lines of the 5x5 sheet) and the rule options of RULES.md."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

from ...errors import RuleError
from ..options import options_from_dict

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


@dataclass(frozen=True)
class ZingaOptions:
    """Rule options: each genuine reading choice of RULES.md, with its default there.

    - ``table_by_role``: "not on the table" is judged by the caller's role (a passive player
      may only use die + white), so a passive call of a lone die is a blunder (on).
    - ``plus_needs_table``: calling an already ticked combination blacks a PLUS box only if the
      dice allow it; a ticked combination that is not on the table is a blunder (on).
    - ``stop_any_call``: the pawn's STOP may cancel any announced call, even a PLUS call or a
      wrong one (on); off: only a call that would tick a new cell.
    - ``announce_any_line``: a fifth cell that completes several lines needs only one of them
      announced (on); off: every line it completes must have been announced.
    - ``auto_take_pawn``: whoever legally ticks blue 9 takes the pawn at once (on); off: they
      must play an explicit ``take`` before the next roll, after which it is too late.
    - ``last_standing_wins``: when all other players are eliminated the last one wins (on;
      the rulebook is silent).
    - ``max_turns``: safety cap on rolls, after which the game is a draw (not a rulebook rule).
    """

    table_by_role: bool = True
    plus_needs_table: bool = True
    stop_any_call: bool = True
    announce_any_line: bool = True
    auto_take_pawn: bool = True
    last_standing_wins: bool = True
    max_turns: int = 1000

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if f.type in ("bool", bool) and not isinstance(v, bool):
                raise RuleError(f"Zinga option {f.name} must be true or false, not {v!r}")
        if isinstance(self.max_turns, bool) or not isinstance(self.max_turns, int) or not 1 <= self.max_turns <= MAX_TURNS:
            shown = repr(self.max_turns) if not isinstance(self.max_turns, int) or abs(self.max_turns) < 10**12 \
                else "a larger number"
            raise RuleError(f"Zinga option max_turns must be a whole number 1..{MAX_TURNS}, not {shown[:40]}")

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict | None) -> "ZingaOptions":
        """Options from a dict of values or of strings (CLI ``--option NAME=VALUE``)."""
        return options_from_dict(cls, data, "Zinga")

    from_json = from_dict

    def with_(self, **changes) -> "ZingaOptions":
        return replace(self, **changes)

    def flags(self):
        """The options as an int64 array for the numba kernel (order fixed here)."""
        import numpy as np

        return np.array(
            [int(self.table_by_role), int(self.plus_needs_table), int(self.stop_any_call),
             int(self.announce_any_line), int(self.auto_take_pawn), int(self.last_standing_wins),
             self.max_turns],
            dtype=np.int64,
        )

"""Zinga in the common game API: ``zinga`` (2+ players, one sheet each).

Zinga is played in real time; the API makes it turn-based without changing the rules engine:

- between rolls, each living player in turn from the active one who may announce a four-in-a-
  line or take the pawn decides (announce / take as often as allowed, then ``ready``);
- the roll is six chance nodes, one die each (red, orange, yellow, green, blue, white);
- the bell race asks the living players in turn, from the active player clockwise (the tie
  order of the rules), whether they ring: ``pass`` or a call (a claim of a combination on the
  caller's sheet, a silent ring or a corrected call; calls the rules punish are blunders, as on
  the table); the first to ring wins the race, and if all pass nobody rang;
- then the pawn holder's STOP / go, the bonus tick and the third-blunder decision.

Actions: ``pass``/``ready`` 0, ``go`` 1, ``stop`` 2, ``cancel`` 3, ``accept`` 4, ``take`` 5,
``silent`` 6, ``bonus skip`` 7, die value d at a chance node 10 + d, ``claim C`` 100 + C,
``announce C`` 200 + C, ``bonus C`` 300 + C, ``correct C1 C2`` 1000 + 60 * C1 + C2, with C the
code ``colour * 12 + number - 1``. Text: the engine's move text without the player
(``claim red 7``, ``correct red 7 blue 3``, ``die 4``). Returns: +1 for the winner, -1 for the
others, 0 each for a draw.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from ...errors import InvalidMoveError, RuleError
from ...jsonio import is_ascii_digits, text_int
from ..api import (
    CHANCE,
    TERMINAL,
    ChanceMode,
    EngineState,
    Game,
    GameMeta,
    Information,
    Utility,
    replay_from_json,
    split_params,
)
from .engine import Move, ZingaGame
from .rules import BLUE9, COLOURS, LINE_MASKS, N_CODES, ZingaOptions, code_of, name_of
from .sheet import Sheet, load_sheets, sheets_from_json, sheets_to_json

PASS, GO, STOP, CANCEL, ACCEPT, TAKE, SILENT, BONUS_SKIP = range(8)
DIE, CLAIM, ANNOUNCE, BONUS, CORRECT = 10, 100, 200, 300, 1000
SIMPLE_TEXT = {PASS: "pass", GO: "go", STOP: "stop", CANCEL: "cancel", ACCEPT: "accept", TAKE: "take",
               SILENT: "silent", BONUS_SKIP: "bonus skip"}
PAINT = {"red": "#d62728", "orange": "#ff7f0e", "yellow": "#e6c300", "green": "#2ca02c", "blue": "#1f77b4"}
#: the numbers' colour on each paint: the one with the higher contrast (at least 4.8:1 on every paint)
INK = {"red": "white", "orange": "black", "yellow": "black", "green": "black", "blue": "white"}


class ZingaTable:
    """The engine plus the turn-based bookkeeping: dice rolled so far, players asked so far."""

    def __init__(self, game: ZingaGame):
        self.game = game
        self.dice: list[int] = []  # dice of the roll being made
        self.asked = 0  # race: players who passed; between rolls: players who are ready
        self.rolling = False  # between rolls, everybody ready: the dice are being rolled

    def copy(self) -> "ZingaTable":
        g = copy.copy(self.game)
        g.players = [replace(ps, announced=set(ps.announced), blunder_log=list(ps.blunder_log))
                     for ps in self.game.players]
        g.pawn_window = set(self.game.pawn_window)
        g.moves = list(self.game.moves)
        g.events = list(self.game.events)
        new = copy.copy(self)
        new.game = g
        new.dice = list(self.dice)
        return new


def _code_text(text: list[str], where: str) -> int:
    where = str(where) if len(str(where)) <= 60 else str(where)[:57] + "..."
    if len(text) != 2:
        raise InvalidMoveError(f"bad Zinga move {where!r}: expected a colour and a number")
    try:
        return code_of(text[0], text_int(text[1]))
    except ValueError:
        raise InvalidMoveError(f"bad Zinga move {where!r}: a colour ({', '.join(COLOURS)}) and a number 1..12") from None


class ZingaState(EngineState):
    """A Zinga game (the engine is a ``ZingaTable`` around a ``ZingaGame``)."""

    engine: ZingaTable

    @property
    def game_engine(self) -> ZingaGame:
        return self.engine.game

    def _seats_from_active(self) -> list[int]:
        g = self.engine.game
        order = [(g.active + k) % g.n for k in range(g.n)]
        return [q for q in order if g.players[q].alive]

    def _optional(self, p: int) -> list[Move]:
        """Between rolls: the announce / take moves player ``p`` may make now."""
        return [m for m in self.engine.game.legal_moves() if m.kind in ("announce", "take") and m.player == p]

    def _deciding(self) -> int:
        """The player deciding now (or CHANCE / TERMINAL)."""
        t, g = self.engine, self.engine.game
        ph = g.phase
        if ph == "over":
            return TERMINAL
        if ph == "roll":
            if t.rolling:
                return CHANCE
            seats = self._seats_from_active()
            for p in seats[t.asked:]:
                if self._optional(p):
                    return p
            return CHANCE
        if ph == "race":
            return self._seats_from_active()[t.asked]
        if ph == "stop":
            assert g.pawn is not None  # a call to STOP or let go: the pawn is held
            return g.pawn
        assert g.pending is not None  # bonus, blunder: the engine holds the move awaiting a decision
        return g.pending.player  # bonus, blunder

    def current_player(self) -> int:
        return self._deciding()

    def is_terminal(self) -> bool:
        return self.engine.game.is_over()

    def returns(self) -> list[float]:
        g = self.engine.game
        if not g.is_over() or g.winner is None:
            return [0.0] * g.n
        return [1.0 if p == g.winner else -1.0 for p in range(g.n)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        return [(DIE + d, 1 / 6) for d in range(1, 7)]

    def _legal(self) -> list[int]:
        g = self.engine.game
        p = self._deciding()
        if p == CHANCE:
            return [DIE + d for d in range(1, 7)]
        ph = g.phase
        if ph == "roll":
            return [PASS] + [self._encode(m) for m in self._optional(p)]
        if ph == "race":
            codes = sorted(g.sheets[p].codes)
            return ([PASS, SILENT] + [CLAIM + c for c in codes]
                    + [CORRECT + 60 * a + b for a in codes for b in codes if a != b])
        return [self._encode(m) for m in g.legal_moves()]

    @staticmethod
    def _encode(m: Move) -> int:
        k = m.kind
        if k == "announce":
            return ANNOUNCE + m.code
        if k == "bonus":
            return BONUS + m.code if m.code >= 0 else BONUS_SKIP
        return {"go": GO, "stop": STOP, "cancel": CANCEL, "accept": ACCEPT, "take": TAKE}[k]

    def _move(self, a: int, p: int) -> Move | None:
        """The engine move of action ``a`` by player ``p`` (None for pass / ready)."""
        if a == PASS:
            return None
        if a == SILENT:
            return Move("silent", p)
        if a == GO:
            return Move("go")
        if a in (STOP, CANCEL, ACCEPT, TAKE):
            return Move({STOP: "stop", CANCEL: "cancel", ACCEPT: "accept", TAKE: "take"}[a], p)
        if a == BONUS_SKIP:
            return Move("bonus", p, -1)
        if CLAIM <= a < CLAIM + N_CODES:
            return Move("claim", p, a - CLAIM)
        if ANNOUNCE <= a < ANNOUNCE + N_CODES:
            return Move("announce", p, a - ANNOUNCE)
        if BONUS <= a < BONUS + N_CODES:
            return Move("bonus", p, a - BONUS)
        if CORRECT <= a < CORRECT + 60 * N_CODES:
            return Move("correct", p, (a - CORRECT) // 60, (a - CORRECT) % 60)
        raise RuleError(f"no such Zinga action: {a}")

    def _engine_move(self, a: int, p: int) -> Move:
        """``_move`` of an action that is not pass / ready (every caller has ruled those out)."""
        m = self._move(a, p)
        assert m is not None
        return m

    def _apply(self, a: int) -> None:
        t, g = self.engine, self.engine.game
        p = self._deciding()
        if p == CHANCE:
            t.rolling = True
            t.dice.append(a - DIE)
            if len(t.dice) == 6:
                g.play(Move("roll", dice=tuple(t.dice)))
                t.dice, t.asked, t.rolling = [], 0, False
            return
        if g.phase == "race":
            if a == PASS:
                t.asked += 1
                if t.asked == len(self._seats_from_active()):
                    g.play(Move("none"))
                    t.asked = 0
                return
            t.asked = 0
            g.play(self._engine_move(a, p))
            return
        if g.phase == "roll":
            if a == PASS:  # ready: the next player with something to announce decides
                t.asked = self._seats_from_active().index(p) + 1
                return
            g.play(self._engine_move(a, p))
            return
        g.play(self._engine_move(a, p))
        if g.phase == "roll":
            t.asked = 0

    def _copy_engine(self, engine: ZingaTable) -> ZingaTable:
        return engine.copy()

    def action_to_string(self, action: int) -> str:
        if DIE < action <= DIE + 6:
            return f"die {action - DIE}"
        if action in SIMPLE_TEXT:
            if action == PASS and self.engine.game.phase == "roll":
                return "ready"
            return SIMPLE_TEXT[action]
        m = self._engine_move(action, 0)
        if m.kind == "correct":
            return f"correct {name_of(m.code)} {name_of(m.code2)}"
        return f"{m.kind} {name_of(m.code)}"

    def _parse_action(self, text: str) -> int:
        words = str(text).lower().split()
        shown = str(text) if len(str(text)) <= 60 else str(text)[:57] + "..."
        if not words:
            raise InvalidMoveError("empty Zinga move")
        k, rest = words[0], words[1:]
        if k == "die" and len(rest) == 1 and is_ascii_digits(rest[0]) and len(rest[0]) < 3:
            if not 1 <= int(rest[0]) <= 6:
                raise InvalidMoveError(f"bad Zinga move {shown!r}: a die shows 1..6")
            return DIE + int(rest[0])
        if k == "ready" and not rest:
            return PASS
        if " ".join(words) in SIMPLE_TEXT.values():
            return {v: k2 for k2, v in SIMPLE_TEXT.items()}[" ".join(words)]
        if k in ("claim", "announce", "bonus"):
            return {"claim": CLAIM, "announce": ANNOUNCE, "bonus": BONUS}[k] + _code_text(rest, text)
        if k == "correct" and len(rest) == 4:
            return CORRECT + 60 * _code_text(rest[:2], text) + _code_text(rest[2:], text)
        raise InvalidMoveError(f"bad Zinga move {shown!r}: e.g. 'claim red 7', 'pass', 'die 4'")

    _PHASES = {"roll": "getting ready for the next roll (announce, take the pawn, then ready)",
               "race": "the bell race", "stop": "the pawn holder's STOP or go", "bonus": "the bonus tick",
               "blunder": "the third-blunder decision"}

    def _why_illegal(self, a: int) -> str | None:
        t, g = self.engine, self.engine.game
        if a in range(8, DIE + 1) or a in range(DIE + 7, CLAIM) or not (
                a < CLAIM + N_CODES or ANNOUNCE <= a < ANNOUNCE + N_CODES or BONUS <= a < BONUS + N_CODES
                or CORRECT <= a < CORRECT + 60 * N_CODES) or (a >= CORRECT and (a - CORRECT) % 60 >= N_CODES):
            return f"no such action: {a}"
        p = self._deciding()
        if p == CHANCE:
            return f"the dice are being rolled (die {len(t.dice) + 1} of 6): the next action is a die, 'die 1'..'die 6'"
        what = self.action_to_string(a)
        if DIE < a <= DIE + 6:  # a die
            return f"no dice are being rolled now: player {p} is deciding ({self._PHASES.get(g.phase, g.phase)})"
        ph = g.phase
        head = f"player {p} cannot {what} now: "
        if a == PASS:
            return head + f"'pass' and 'ready' are moves of the bell race and of {self._PHASES['roll']}, " \
                          f"and the game is at {self._PHASES.get(ph, ph)}"
        belongs = ("race" if a in (SILENT,) or CLAIM <= a < CLAIM + N_CODES or a >= CORRECT
                   else "roll" if a in (TAKE,) or ANNOUNCE <= a < ANNOUNCE + N_CODES
                   else "stop" if a in (GO, STOP) else "blunder" if a in (CANCEL, ACCEPT)
                   else "bonus" if a == BONUS_SKIP or BONUS <= a < BONUS + N_CODES else None)
        if belongs is not None and belongs != ph:
            if belongs == "race" and ph == "roll" and g.turn:
                why = "the race is over; the next chance to call comes after the next roll"
            else:
                why = f"'{what.split()[0]}' is a move of {self._PHASES[belongs]}"
            return head + f"{why}, and the game is at {self._PHASES.get(ph, ph)}"
        if ph == "race":
            sheet = g.sheets[p]
            codes = [a - CLAIM] if a < CORRECT else [(a - CORRECT) // 60, (a - CORRECT) % 60]
            off = [c for c in codes if sheet.index_of(c) is None]
            if off:
                return head + f"{name_of(off[0])} is not on their sheet"
            if len(codes) == 2 and codes[0] == codes[1]:
                return head + "a correction names two different combinations"
            return None
        try:  # the engine's own check of the move, on a copy
            m = self._engine_move(a, p)
            t.copy().game.play(m)
        except RuleError as e:
            msg = str(e)
            if msg.startswith("'") and "': " in msg:
                msg = msg.split("': ", 1)[1]
            elif " is not allowed in phase" in msg:
                msg = f"not allowed at {self._PHASES.get(ph, ph)}"
            return head + msg
        return None

    def outcome_text(self) -> str:
        """The end (or the state of play) in words: who won and why, who is out and why."""
        return self.engine.game.outcome_text()

    def _termination(self) -> str:
        g = self.engine.game
        if g.winner is not None:
            ticked = g.players[g.winner].ticked
            return "line" if any(m & ticked == m for m in LINE_MASKS) else "last player standing"
        return "all out" if not any(ps.alive for ps in g.players) else "roll limit"

    def _snapshot(self) -> dict[str, Any]:
        g = self.engine.game
        return {"phase": g.phase, "turn": g.turn, "active": g.active, "dice": list(g.dice or self.engine.dice),
                "pawn": g.pawn, "summary": g.summary(), "moves": len(g.moves), "asked": self.engine.asked}

    def _sheet_text(self, p: int) -> str:
        g = self.engine.game
        ps, sheet = g.players[p], g.sheets[p]
        rows = []
        for r in range(5):
            cells = []
            for c in range(5):
                i = r * 5 + c
                code = sheet.codes[i]
                mark = "*" if ps.ticked >> i & 1 else " "
                cells.append(f"{COLOURS[code // 12][0].upper()}{code % 12 + 1:<2}{mark}")
            rows.append(" ".join(cells))
        state = "out" if not ps.alive else f"plus {ps.plus}, blunders {ps.blunders}"
        return f"player {p} ({state})" + ("; pawn" if g.pawn == p else "") + "\n" + "\n".join(rows)

    def __str__(self) -> str:
        g = self.engine.game
        if g.is_over():
            head = g.outcome_text()
        else:
            dice = g.dice or tuple(self.engine.dice)
            head = f"roll {g.turn}, active player {g.active}, phase {g.phase}" + (
                f", dice {' '.join(map(str, dice))}" if dice else "")
        return "\n".join([head] + [self._sheet_text(p) for p in range(g.n)])

    def to_svg(self) -> str:
        g = self.engine.game
        cell, pad, gap = 36, 10, 24
        w = pad * 2 + g.n * 5 * cell + (g.n - 1) * gap
        h = pad * 2 + 5 * cell + 44
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
               'font-family="sans-serif">', f'<rect width="{w}" height="{h}" fill="white"/>']
        for p in range(g.n):
            x0 = pad + p * (5 * cell + gap)
            ps = g.players[p]
            label = f"player {p}" + (" (out)" if not ps.alive else f" +{ps.plus} x{ps.blunders}")
            out.append(f'<text x="{x0}" y="{pad + 14}" font-size="13">{label}</text>')
            for i, code in enumerate(g.sheets[p].codes):
                r, c = divmod(i, 5)
                x, y = x0 + c * cell, pad + 24 + r * cell
                out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" '
                           f'fill="{PAINT[COLOURS[code // 12]]}" stroke="black"/>')
                out.append(f'<text x="{x + cell / 2}" y="{y + cell / 2 + 5}" font-size="14" '
                           f'text-anchor="middle" fill="{INK[COLOURS[code // 12]]}">{code % 12 + 1}</text>')
                if ps.ticked >> i & 1:
                    out.append(f'<path d="M{x + 6},{y + 6} L{x + cell - 6},{y + cell - 6} M{x + cell - 6},{y + 6} '
                               f'L{x + 6},{y + cell - 6}" stroke="black" stroke-width="3"/>')
        dice = g.dice or tuple(self.engine.dice)
        out.append(f'<text x="{pad}" y="{h - 8}" font-size="13">roll {g.turn}, phase {g.phase}'
                   + (f", dice {' '.join(map(str, dice))}" if dice else "") + "</text>")
        out.append("</svg>")
        return "\n".join(out)


class Zinga(Game):
    """Zinga for ``players`` players on the first sheets of ``sheets`` (default: the shipped set)."""

    name = "zinga"
    setup_params = {"players": 2, "sheets": None, "first": 0}
    terminations = ("line", "last player standing", "all out", "roll limit")

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        setup, opts = split_params(params, self.setup_params)
        self.setup = setup
        self.options = ZingaOptions.from_dict(opts)
        src = setup["sheets"]
        all_sheets = list(src) if isinstance(src, (list, tuple)) else load_sheets(src)
        n = int(setup["players"])
        if not 2 <= n <= len(all_sheets):
            raise RuleError(f"Zinga for {n} players needs {n} sheets ({len(all_sheets)} given, at least 2 players)")
        self.sheets: list[Sheet] = all_sheets[:n]

    def num_players(self) -> int:
        return len(self.sheets)

    def has_chance(self) -> bool:
        return True

    def _meta(self) -> GameMeta:
        # Per roll (at most max_turns rolls, the engine's cap: then a draw): at most n "ready"s,
        # 6 dice, n race decisions (passes, or passes and one call), then at most 2 more (STOP /
        # go, then a bonus tick or the third-blunder decision). Over the whole game: announces
        # (each adds a line of the 12 to the player's announced ones, which never shrink) and
        # takes (one per ticked blue 9 cell).
        n = self.num_players()
        blue9 = sum(c == BLUE9 for s in self.sheets for c in s.codes)
        rolls = self.options.max_turns
        return GameMeta(
            name=self.name, num_players=n, num_distinct_actions=CORRECT + 60 * N_CODES,
            max_chance_outcomes=DIE + 7, max_game_length=rolls * (2 * n + 8) + len(LINE_MASKS) * n + blue9,
            length_bound=f"engine cap: max_turns={rolls} rolls of <= 2n + 8 actions, plus announces and takes",
            utility=Utility.ZERO_SUM if n == 2 else Utility.GENERAL_SUM, min_utility=-1.0, max_utility=1.0,
            chance_mode=ChanceMode.EXPLICIT, information=Information.PERFECT, terminations=self.terminations)

    def _start(self, seed: int, start: Any) -> ZingaState:
        sheets = self.sheets if start is None else sheets_from_json(start, "start")
        if len(sheets) != self.num_players():
            raise RuleError(f"{len(sheets)} sheets for a {self.num_players()}-player game")
        engine = ZingaTable(ZingaGame(sheets, self.options, int(self.setup["first"])))
        return ZingaState(self, engine, seed, start)

    def new_initial_state(self, seed: int | None = None) -> ZingaState:
        """The dice are chance nodes, so the seed is not used (kept in the JSON)."""
        return self._start(int(seed or 0), None)

    def new_initial_state_from(self, instance: Any) -> ZingaState:
        """From a sheet set: a list of ``Sheet``, a sheet-set JSON dict, a file or a zinga ID."""
        if isinstance(instance, dict):
            sheets = sheets_from_json(instance, "instance")
        elif isinstance(instance, (list, tuple)):
            sheets = list(instance)
        else:
            sheets = load_sheets(instance)
        return self._start(0, sheets_to_json(sheets))

    def state_from_json(self, data: dict[str, Any]) -> ZingaState:
        return replay_from_json(self, data, self._start)

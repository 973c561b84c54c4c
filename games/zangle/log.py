"""Zangle move logs: a game (solo, turn or speed) rebuilt from its log, every action checked."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ...errors import FormatError, RuleError
from ...jsonio import _name, expect_format, parse_json_text, read_text_file, validate
from .cards import Deck, deck_from_json
from .engine import _PARAM_KEYS, LOG_FORMAT, MAX_ROUNDS, Action, GameState, _log_models
from .rules import ZangleOptions
from .solo import SoloGame
from .speed import SpeedGame
from .turn import TurnGame


def replay_log(source: str | Path | Sequence[str], deck: Deck | None = None) -> GameState:
    """Rebuild a game from its move log (a path or the lines), checking every action."""
    text = read_text_file(source, LOG_FORMAT.title) if isinstance(source, (str, Path)) else "\n".join(source)
    where = _name(Path(source)) if isinstance(source, (str, Path)) else "move log"
    try:  # one JSON document (another kind of file, pretty-printed) is judged as a whole
        docs = [parse_json_text(text, where, LOG_FORMAT.title)] if text.strip() else []
    except FormatError:
        docs = [parse_json_text(ln, f"{where} line {n}", LOG_FORMAT.title)
                for n, ln in enumerate(text.splitlines(), 1) if ln.strip()]
    if not docs:
        raise FormatError(f"{where}: empty move log")
    head = docs[0]
    expect_format(head, LOG_FORMAT, f"{where} line 1")
    h = validate(head, _log_models()[0], f"{where} line 1", "move log header")
    games = {"solo": SoloGame, "turn": TurnGame, "speed": SpeedGame}
    cls = games[h.game]
    bad = sorted(set(h.params) - _PARAM_KEYS[h.game])
    if bad:
        raise FormatError(f"{where} line 1 at params: unknown parameter {bad[0][:40]!r} of the {h.game} game")
    for k in ("players", "rounds"):
        v = h.params.get(k)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= MAX_ROUNDS):
            raise FormatError(f"{where} line 1 at params.{k}: expected a whole number 1..{MAX_ROUNDS}")
    if deck is None and h.deck_data is not None:
        deck = deck_from_json(h.deck_data, f"{where} deck")
    try:
        state = cls(seed=h.seed, options=ZangleOptions.from_json(h.options), deck=deck, **h.params)
    except RuleError as e:
        raise FormatError(f"{where} line 1: {e}") from None
    except (TypeError, ValueError, KeyError, AttributeError, ArithmeticError) as e:
        raise FormatError(f"{where} line 1 at params: not a valid {h.game} game set-up ({type(e).__name__})") from None
    for i, m in enumerate(docs[1:], 2):
        mv = validate(m, _log_models()[1], f"{where} line {i}", "move")
        if mv.player is not None and mv.player != state.current_player():
            raise FormatError(f"{where} line {i}: player {mv.player} is not to move")
        try:
            state.apply(Action.from_json(m["action"]))
        except RuleError as e:
            raise FormatError(f"{where} line {i}: {e}") from None
    return state

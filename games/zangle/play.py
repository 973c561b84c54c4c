"""Whole Zangle games between bots: ``play_game`` and a text score table."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ...errors import RuleError
from .bots import make_bot
from .cards import Deck
from .engine import GameState
from .rules import ZangleOptions
from .solo import SoloGame
from .speed import SpeedGame
from .turn import TurnGame

MODES = ("turn", "speed", "solo")


def new_game(mode: str, players: int = 2, seed: int = 0, options: ZangleOptions | None = None,
             deck: Deck | None = None, **params) -> GameState:
    """A fresh game state of ``mode`` (turn, speed or solo)."""
    if mode == "solo":
        if players != 1:
            raise RuleError("the solo game has exactly one player")
        return SoloGame(seed=seed, options=options, deck=deck, **params)
    if mode == "turn":
        return TurnGame(seed=seed, options=options, deck=deck, players=players, **params)
    if mode == "speed":
        return SpeedGame(seed=seed, options=options, deck=deck, players=players, **params)
    raise RuleError(f"unknown game mode {mode!r}: expected one of {', '.join(MODES)}")


def play_game(mode: str, players: int | None = None, bots: Sequence[str] | None = None, seed: int = 0,
              log_path: str | Path | None = None, options: ZangleOptions | None = None,
              deck: Deck | None = None, **params) -> dict:
    """Play a whole game between bots; returns the score table (and writes the move log).

    ``bots`` names one bot per player (a single name is used for every player); default greedy.
    """
    state, res = play_state(mode, players, bots, seed, options, deck, **params)
    if log_path is not None:
        state.write_log(log_path)
    return res


def play_state(mode: str, players: int | None = None, bots: Sequence[str] | None = None, seed: int = 0,
               options: ZangleOptions | None = None, deck: Deck | None = None, **params) -> tuple:
    """``play_game`` without writing: (the finished state, the score table)."""
    if players is None:
        players = 1 if mode == "solo" else (len(bots) if bots and len(bots) > 1 else 2)
    names = list(bots or ["greedy"])
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise RuleError(f"{len(names)} bots given for {players} players")
    state = new_game(mode, players, seed, options, deck, **params)
    agents = [make_bot(n, seed * 1000 + i + 1) for i, n in enumerate(names)]
    while not state.is_terminal():
        p = state.current_player()
        state.apply(agents[p].choose(state))
    return state, {
        "mode": mode,
        "seed": seed,
        "players": players,
        "bots": names,
        "actions": len(state.history),
        "score": state.score(),
        "returns": state.returns(),
    }


def format_result(result: dict) -> str:
    """The score table as text: one row per player (solo: the outcome line)."""
    sc = result["score"]
    if result["mode"] == "solo":
        return (f"solo game, seed {result['seed']}, bot {result['bots'][0]}: {sc['outcome']}, "
                f"{sc['tableau_left']} tableau cards left, {sc['discards']} discards, "
                f"{result['actions']} actions")
    rounds = sc["rounds"]
    head = ["player", "bot"] + [f"r{i + 1}" for i in range(len(rounds))] + ["total"]
    rows = [head]
    for p in range(result["players"]):
        row = [str(p), result["bots"][p]] + [str(r[p]) for r in rounds] + [str(sc["totals"][p])]
        if p in sc["winners"]:
            row[-1] += " *"
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    extra = []
    if "levels" in sc:
        extra.append(f"equalizer levels at the end: {', '.join(map(str, sc['levels']))}")
    if sc.get("bonus_round"):
        extra.append(f"bonus round between players {sc['bonus_round']}")
    extra.append(f"winner(s): {', '.join(map(str, sc['winners']))} (fewest points)")
    return "\n".join(lines + extra)

"""Terminal play of every game through the common API: starts by game name, ID or file, a play
session (humans and bots per seat, numbered moves or move notation, undo, hint) and move logs.

``resolve_start(spec)`` is the one place that turns what a user typed (a game name, any
instance ID, a state or log file) into a starting state. IDs go through the one registry
(``generators.ids.resolve``); files through the input layer (``jsonio``), logs with their
declared format (``tanglekit/play-log``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import FormatError, RuleError, TanglekitError
from ..games import game_names, load_game
from ..games.plugin import plugin, plugins
from ..generators.ids import looks_like_id, resolve, split_id
from ..jsonio import (
    check_text_arg,
    expect_format,
    identify,
    load_json_source,
    looks_like_json,
    register_format,
    short,
    validate,
)

LOG_FORMAT = "tanglekit-play-log/1"  # the tag of logs written before the format registry (still read)
MAX_LOG_MOVES = 200_000


def _log_model():
    from typing import List, Optional, Union

    from pydantic import BaseModel, ConfigDict, Field, conint

    class LoggedMove(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        player: conint(ge=-4, le=63)
        action: conint(ge=0, le=2**40)
        move: Optional[str] = Field(default=None, max_length=500)

    class PlayLog(BaseModel):
        """A game's move log: the game, its parameters, the start state and the moves played."""

        model_config = ConfigDict(extra="forbid", strict=True)
        game: str = Field(max_length=40)
        params: dict = Field(default_factory=dict, max_length=64)
        source: Optional[str] = Field(default=None, max_length=10_000)
        seats: Optional[List[str]] = Field(default=None, max_length=64)
        seed: Optional[conint(ge=0, le=2**63 - 1)] = None
        start: dict
        moves: List[LoggedMove] = Field(max_length=MAX_LOG_MOVES)
        over: Optional[bool] = None
        returns: Optional[List[Union[float, int]]] = Field(default=None, max_length=64)
        result: Optional[str] = Field(default=None, max_length=1000)

    return PlayLog


PLAY_LOG = register_format(
    "tanglekit/play-log", 1, "play log", _log_model,
    sniff=lambda d: isinstance(d, dict) and {"game", "start", "moves"} <= set(d),
)


@dataclass
class Start:
    """A starting state and what is known about it: the ID it came from, the side(s) meant for a
    person (puzzles), and the goal (e.g. the fewest moves that solve a challenge)."""

    game: str
    state: object
    source: str | None = None
    human_seats: tuple[int, ...] | None = None
    opponent: str | None = None  # the bot strength a puzzle is played against
    optimum: int | None = None  # fewest moves (of the human side) that win, when known
    optimum_note: str = "fewest moves"
    goal: str = ""
    moves_counted: str = "moves"
    initial: object = None  # where the moves being played began (a log's start), default: state
    one_turn: bool = False  # a puzzle about one turn (Tangle): the session ends with that turn


def _looks_like_file(spec: str) -> bool:
    if spec.endswith((".json", ".jsonl")) or "/" in spec or "\\" in spec:
        return True
    try:
        return Path(spec).is_file()
    except (OSError, ValueError):  # a name too long for the system, a NUL byte
        return False


def resolve_start(spec: str, params: dict | None = None, seed: int = 0) -> Start:
    """A game name (a new game, deal from ``seed``), any instance ID (descriptive or seed form,
    resolved by the one ID registry), or a state / log file (or inline JSON)."""
    spec = check_text_arg(spec, "game, ID or file").strip(" \t\r\n")  # ASCII spaces: a U+3000 is no space here
    params = dict(params or {})
    if spec in game_names():
        return Start(spec, _guard(lambda: load_game(spec, **params), spec).new_initial_state(seed=seed))
    if looks_like_id(spec):
        return start_from_id(spec, params)
    if looks_like_json(spec):
        return _file_start(spec)
    if "\n" in spec or "\r" in spec:
        raise FormatError("a game name, ID or file name has no line breaks")
    if _looks_like_file(spec):
        return _file_start(spec)
    if not spec:
        raise FormatError(f"expected a game, an ID or a file; games: {', '.join(game_names())}")
    low = spec.lower()
    close = [n for n in game_names() if n.startswith(low.split(":")[0])]
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    raise FormatError(f"not a game, ID or file: {short(spec)}{hint}; games: {', '.join(game_names())}")


def _guard(make, where: str):
    """``make()``, with the engines' own complaints about a hostile document as one FormatError."""
    try:
        return make()
    except TanglekitError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError, RecursionError) as e:
        raise FormatError(f"{short(where)}: not a valid set-up ({type(e).__name__})") from None


def start_from_id(spec: str, params: dict | None = None) -> Start:
    """The starting state of any playable ID, through ``generators.ids.resolve`` and the plugin
    of the ID's game."""
    inst = resolve(spec, expect=_playable_kinds())
    return plugin(split_id(spec).game).start(inst, spec, dict(params or {}))


def _playable_kinds() -> tuple[str, ...]:
    return tuple(k for p in plugins() for k in p.playable_kinds)


def _is_log(data) -> bool:
    return isinstance(data, dict) and (data.get("format") in (LOG_FORMAT, PLAY_LOG.tag)
                                       or ("format" not in data and {"game", "start", "moves"} <= set(data)))


def read_log(source: str | Path) -> tuple[dict, str]:
    """A play log (file or inline JSON) checked against its declared format: (log, where)."""
    data, where = load_json_source(source if isinstance(source, str) else str(source), PLAY_LOG.title)
    expect_format(data, PLAY_LOG, where)
    validate(data, PLAY_LOG.schema(), where)
    return data, where


def _file_start(spec: str) -> Start:
    data, where = load_json_source(spec, "state or play log")
    if _is_log(data):
        data, where = read_log(spec)
        state, initial = replay_log(data, where, with_start=True)
        src = data.get("source")
        if isinstance(src, str) and looks_like_id(src):
            try:  # the goal and optimum of the challenge the log plays (the moves are checked above)
                s0 = start_from_id(src, data.get("params") or {})
            except TanglekitError:
                s0 = None  # a source that does not resolve only loses the goal line
            if s0 is not None and s0.game == data["game"]:
                s0.state, s0.initial = state, initial
                return s0
        return Start(data["game"], state, src or spec, initial=initial)
    reader = _instance_file_reader(data)
    if reader is not None:
        return reader(data, where, spec)
    if isinstance(data, dict) and isinstance(data.get("game"), str):
        name = data["game"]
        if name not in game_names():
            raise FormatError(f"{where}: unknown game {short(name)} (games: {', '.join(game_names())})")
        params = data.get("params") or {}
        if not isinstance(params, dict):
            raise FormatError(f"{where}: 'params' must be an object")
        game = _guard(lambda: load_game(name, **params), where)
        return Start(name, _guard(lambda: game.state_from_json(data), where), spec)
    raise FormatError(f"{where}: expected a game state (with 'game') or a play log ({PLAY_LOG.tag})")


def _instance_file_reader(data):
    """The plugin whose game starts a session from this instance file (a generated challenge...)."""
    doc = data[0] if isinstance(data, list) and len(data) == 1 else data
    for p in plugins():
        p.load_formats()  # registers the file formats the plugin's games read (sniffed when untagged)
    fmt = identify(doc)
    if fmt is None:
        return None
    return next((p.start_from_file for p in plugins() if fmt.tag in p.file_formats), None)


def replay_log(data: dict, where: str = "log", with_start: bool = False):
    """The state at the end of a play log, every move checked by the engine (and, with
    ``with_start``, the state the log starts from)."""
    if not isinstance(data, dict) or not {"game", "start", "moves"} <= set(data):
        raise FormatError(f"{where}: a play log needs 'game', 'start' and 'moves'")
    name = data["game"]
    if not isinstance(name, str) or name not in game_names():
        raise FormatError(f"{where}: unknown game {short(name)} (games: {', '.join(game_names())})")
    params = data.get("params") or {}
    moves = data["moves"]
    if not isinstance(params, dict) or not isinstance(moves, list):
        raise FormatError(f"{where}: 'params' must be an object and 'moves' a list")
    game = _guard(lambda: load_game(name, **params), where)
    state = _guard(lambda: game.state_from_json(data["start"]), where)
    initial = state.clone()
    for i, m in enumerate(moves, 1):
        a = m.get("action") if isinstance(m, dict) else None
        if isinstance(a, bool) or not isinstance(a, int):
            raise FormatError(f"{where}: move {i} needs an integer 'action'")
        if state.is_terminal():
            raise FormatError(f"{where}: move {i} comes after the end of the game")
        if isinstance(m.get("move"), str) and not state.is_chance_node():
            try:
                text = state.action_to_string(a)
            except TanglekitError:
                text = None
            if text is not None and text != m["move"]:
                raise FormatError(f"{where}: move {i} is {short(text)} here, the log says {short(m['move'])}")
        try:
            state.apply_action(a)
        except RuleError as e:
            text = str(m.get("move", a))[:40]
            raise FormatError(f"{where}: move {i} ({text if text.isprintable() else short(text)}) is illegal: {e}") from None
    return (state, initial) if with_start else state

"""Terminal play of every game through the common API: starts by game name, ID or file, a play
session (humans and bots per seat, numbered moves or move notation, undo, hint) and move logs.

``resolve_start(spec)`` is the one place that turns what a user typed (a game name, any
instance ID, a state or log file) into a starting state. IDs go through the one registry
(``generators.ids.resolve``); files through the input layer (``jsonio``), logs with their
declared format (``tanglekit/play-log``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import FormatError, RuleError, TanglekitError
from ..jsonio import (check_text_arg, expect_format, load_json_source, looks_like_json, register_format,
                      short, tagged, validate)
from .ids import looks_like_id, resolve, split_id

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
    from ..games import game_names, load_game

    spec = check_text_arg(spec, "game, ID or file").strip()
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
    from ..games.plugin import plugin

    inst = resolve(spec, expect=_playable_kinds())
    return plugin(split_id(spec).game).start(inst, spec, dict(params or {}))


def _playable_kinds() -> tuple[str, ...]:
    from ..games.plugin import plugins

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
    from ..games import game_names, load_game

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
    from ..games.plugin import plugins
    from ..jsonio import identify

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
    from ..games import game_names, load_game

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


# --- the session --------------------------------------------------------------------------------
HELP = ("enter a move number, or the move in the game's notation; "
        "'moves' lists them all, 'undo', 'hint', 'board', 'quit'")


@dataclass
class PlaySession:
    """A game in progress between people and bots; ``handle(text)`` takes one line of input."""

    start: Start
    seats: list[str]  # per seat: "human" or a bot strength
    seed: int = 0
    bots: list = field(default_factory=list)
    done: bool = False
    max_list: int = 30

    def __post_init__(self):
        from ..solver.bots import make_bot
        from ..solver.match import derive_seed

        st = self.start.state
        self.game_name = self.start.game
        self.rng = random.Random(derive_seed(self.seed, 7))
        self.initial = (self.start.initial or st).clone()
        self.base = len(self.initial.history())
        if not self.bots:  # given bots (a command's own settings) are kept
            self.bots = [None if s == "human" else make_bot(self.game_name, s, derive_seed(self.seed, i) % (1 << 31))
                         for i, s in enumerate(self.seats)]
        self.first_player = st.current_player()
        self.chance_drawn: dict[int, int] = {}

    @property
    def state(self):
        return self.start.state

    # -- seats ----------------------------------------------------------------------------
    def human_to_move(self) -> bool:
        st = self.state
        return not st.is_terminal() and st.current_player() >= 0 and self.bots[st.current_player()] is None

    def advance(self) -> list[str]:
        """Play chance and bot moves until a person is to move or the game is over."""
        from ..solver.match import sample_chance

        out = []
        st = self.state
        guard = 0
        while not st.is_terminal() and not self.human_to_move():
            guard += 1
            if guard > 20_000:
                raise RuleError("no person to move after 20000 actions")
            p = st.current_player()
            if st.is_chance_node():
                # chance already drawn at this point of the game is drawn the same after an undo
                n = len(st.history())
                a = self.chance_drawn.get(n)
                if a is None or a not in st.legal_actions():
                    a = sample_chance(st, self.rng)
                    self.chance_drawn[n] = a
                text = st.action_to_string(a)
                if out and out[-1].startswith("chance: "):  # one line per run of chance moves
                    out[-1] += f", {text}"
                else:
                    out.append(f"chance: {text}")
            else:
                a = self.bots[p].choose(st)
                out.append(f"player {p} ({self.seats[p]}): {st.action_to_string(a)}")
            st.apply_action(a)
        return out

    # -- text -------------------------------------------------------------------------------
    def board(self) -> str:
        """The position as a person at the table sees it: hidden cards stay hidden until the end."""
        st = self.state
        humans = [p for p, b in enumerate(self.bots) if b is None]
        if st.is_terminal() or not humans or not st.get_game().has_hidden_information():
            return str(st)
        p = st.current_player()
        return st.observation_string(p if p in humans else humans[0])

    def moves_text(self, limit: int | None = None) -> str:
        st = self.state
        acts = st.legal_actions()
        shown = acts if limit is None else acts[:limit]
        items = [f"{i}) {st.action_to_string(a)}" for i, a in enumerate(shown, 1)]
        if len(shown) < len(acts):
            items.append(f"... {len(acts) - len(shown)} more ('moves' lists all)")
        lines, cur = [], ""
        for it in items:  # wrapped at 100 columns, whole moves per line
            if cur and len(cur) + 2 + len(it) > 100:
                lines.append(cur)
                cur = it
            else:
                cur = f"{cur}  {it}" if cur else it
        return "\n".join(lines + [cur])

    def prompt(self) -> str:
        p = self.state.current_player()
        who = f"player {p}" if self.state.num_players() > 1 else "you"
        return f"{who} to move ({self.human_moves()} played so far)"

    def human_moves(self) -> int:
        """Actions played by people since the start (what 'solved in N moves' counts)."""
        st = self.state.clone()
        n = 0
        while len(st.history()) > self.base:
            st.undo()
            p = st.current_player()
            if p >= 0 and self.bots[p] is None:
                n += 1
        return n

    def result(self) -> str:
        """The end in words: 'solved in N moves (optimum M)' for a solo challenge or puzzle, else
        the winners, with the game's own sentence when it has one (Zinga: who won and why, who
        is out and why); never the raw returns vector (that is in the JSON log)."""
        st = self.state
        ret = st.returns()
        s = self.start
        humans = [p for p, b in enumerate(self.bots) if b is None]
        if s.one_turn:
            pts = self.turn_points()
            verdict = "solved" if pts >= (s.optimum or 0) else "not solved"
            return f"{verdict}: {pts} points this turn ({s.optimum_note}: {s.optimum} points)"
        if st.num_players() == 1 or (s.optimum is not None and len(humans) == 1):
            me = humans[0] if humans else 0
            n = self.human_moves() if humans else len(st.history()) - self.base
            won = ret[me] > 0 and (st.num_players() == 1 or ret[me] == max(ret) > min(ret))
            opt = f" ({s.optimum_note}: {s.optimum})" if s.optimum is not None else ""
            if won:
                return f"solved in {n} {s.moves_counted}{opt}"
            return f"not solved after {n} {s.moves_counted}{opt}"
        from ..solver.match import is_cooperative, winners_of

        w = winners_of(ret, is_cooperative(st.get_game()))
        verdict = "draw" if not w else "winner: " + ", ".join(f"player {p} ({self.seats[p]})" for p in w)
        why = st.outcome_text() if hasattr(st, "outcome_text") else ""
        return f"game over: {verdict}" + (f"; {why}" if why else "")

    def turn_points(self) -> int:
        """Points the puzzle's player scored since the start (one-turn puzzles)."""
        from ..games.plugin import plugin_of

        return plugin_of(self.game_name).turn_points(self.initial, self.state, self.first_player)

    def finished(self) -> bool:
        """Over, or (a one-turn puzzle) the puzzle's turn has ended or reached its points."""
        st = self.state
        if st.is_terminal():
            return True
        if not self.start.one_turn or len(st.history()) <= self.base:
            return False
        return st.current_player() != self.first_player or self.turn_points() >= (self.start.optimum or 0)

    # -- input ------------------------------------------------------------------------------
    def parse_move(self, text: str) -> int:
        """A move number (1..n of the listed legal moves) or the move in the game's notation."""
        st = self.state
        t = text.strip()
        acts = st.legal_actions()
        if t.isdigit():
            if not t.isascii() or len(t) > 9:
                raise RuleError(f"no move number {short(t)}: choose 1..{len(acts)}")
            k = int(t)
            if not 1 <= k <= len(acts):
                raise RuleError(f"no move number {k}: choose 1..{len(acts)}")
            return acts[k - 1]
        return st.string_to_action(t)

    def undo(self) -> str:
        """Take back moves to the person's previous turn (bot replies and chance included)."""
        st = self.state
        if len(st.history()) <= self.base:
            return "nothing to undo"
        undone = 0
        while len(st.history()) > self.base:
            st.undo()
            undone += 1
            if self.human_to_move():
                break
        if not self.human_to_move():  # only bot moves before the first person's turn: redo them
            self.advance()
            return "nothing to undo"
        return f"undone {undone} action{'s' if undone != 1 else ''}"

    def hint(self) -> str:
        from ..solver.bots import hint

        h = hint(self.state)
        if h.action is None:
            return f"no hint: {h.text}"
        acts = self.state.legal_actions()
        num = acts.index(h.action) + 1 if h.action in acts else "?"
        return f"hint: {num}) {self.state.action_to_string(h.action)} ({h.text})"

    def handle(self, text: str) -> list[str]:
        """One line typed by a person; returns what to print."""
        t = text.strip()
        low = t.lower()
        if low in ("quit", "q", "exit"):
            self.done = True
            return ["bye"]
        if low in ("help", "?"):
            return [HELP]
        if low in ("moves", "list", "m"):
            return [self.moves_text()]
        if low in ("board", "b"):
            return [self.board()]
        if low in ("undo", "u"):
            return [self.undo()]
        if low in ("hint", "h"):
            return [self.hint()]
        if not t:
            return []
        try:
            a = self.parse_move(t)
            p = self.state.current_player()
            name = self.state.action_to_string(a)
            self.state.apply_action(a)
        except TanglekitError as e:
            return [f"illegal: {e}"]
        out = [f"player {p}: {name}" if self.state.num_players() > 1 else f"played {name}"]
        if self.finished():
            return out
        return out + self.advance()

    # -- log --------------------------------------------------------------------------------
    def log(self) -> dict:
        st = self.state
        hist = st.history()[self.base:]
        replay = self.initial.clone()
        moves = []
        for a in hist:
            p = replay.current_player()
            moves.append({"player": p, "action": a, "move": replay.action_to_string(a)})
            replay.apply_action(a)
        return tagged(PLAY_LOG, {
            "game": self.game_name, "params": self.initial.to_json().get("params", {}),
            "source": self.start.source, "seats": self.seats, "seed": self.seed,
            "start": self.initial.to_json(), "moves": moves,
            "over": st.is_terminal(), "returns": st.returns() if st.is_terminal() else None})


def default_seats(start: Start, bots: list[str] | None) -> list[str]:
    """Seats from ``--bots`` (the last repeated to fill), else a person against the strong bot
    (a puzzle: the person on the side to move, its set opponent on the others)."""
    from ..solver.bots import bot_names

    n = start.state.num_players()
    if bots:
        names = [b.strip() for b in bots if b.strip()]
        if len(names) > n:
            raise RuleError(f"{len(names)} seats given for a {n}-player game")
        names += [names[-1]] * (n - len(names))
    elif start.human_seats is not None:
        opp = start.opponent or "strong"
        names = ["human" if p in start.human_seats else opp for p in range(n)]
    else:
        names = ["human"] + ["strong"] * (n - 1)
    valid = bot_names(start.game)
    for nm in names:
        if nm != "human" and nm not in valid:
            from ..solver.bots import BotError

            raise BotError(f"unknown seat {nm!r} for {start.game}: expected human or one of {', '.join(valid)}")
    return names

"""A game in progress between people and bots: ``PlaySession.handle(text)`` takes one line typed by
a person (a move number or notation, undo, hint...), bots and chance move in between, and the
session writes its move log (``play.start.replay_log`` reads it back)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..errors import RuleError, TanglekitError
from ..games.plugin import plugin_of
from ..jsonio import is_ascii_digits, short, tagged
from .bots import BotError, bot_names, hint, make_bot
from .match import derive_seed, is_cooperative, sample_chance, winners_of
from .start import PLAY_LOG, Start

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

        w = winners_of(ret, is_cooperative(st.get_game()))
        verdict = "draw" if not w else "winner: " + ", ".join(f"player {p} ({self.seats[p]})" for p in w)
        why = st.outcome_text() if hasattr(st, "outcome_text") else ""
        return f"game over: {verdict}" + (f"; {why}" if why else "")

    def turn_points(self) -> int:
        """Points the puzzle's player scored since the start (one-turn puzzles)."""
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
        if t.isdigit():  # only ASCII digits make a move number (not superscripts, Arabic-Indic...)
            if not is_ascii_digits(t) or len(t) > 9:
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
            raise BotError(f"unknown seat {nm!r} for {start.game}: expected human or one of {', '.join(valid)}")
    return names

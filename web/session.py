"""The play and check logic behind the web pages, free of HTTP: a position is an ID (or game name)
plus the actions played since its start, rebuilt and checked by the engine on every request.

Starts come from ``play.start.resolve_start`` (the same goals, optima and hints as
``tanglekit play``); the result dictionaries use the CLI's JSON keys.
"""

from __future__ import annotations

import random
import re
import threading
import time
from collections import OrderedDict
from dataclasses import replace

from ..errors import RuleError, TanglekitError
from ..games import game_names
from ..games.plugin import plugin_of, plugins
from ..jsonio import is_ascii_digits, short
from ..play.bots import hint as solver_hint
from ..play.session import PlaySession, default_seats
from ..play.start import resolve_start

MAX_MOVES = 5000  # longest move list a URL may carry
ANSWER_TIME = 20.0  # seconds one answer request may spend asking hints (the page asks again to go on)


class BadRequest(TanglekitError):
    """A request the pages should not make (a bad ID, an illegal move...): HTTP 400."""


# --- starts, cached by (ID, seed) -------------------------------------------------------------
_CACHE: "OrderedDict[tuple, object]" = OrderedDict()
_LOCK = threading.Lock()
_CACHE_SIZE = 64


def cached_start(spec: str, seed: int = 0):
    """A fresh copy of the start of ``spec`` (resolved once, then cloned)."""
    if not spec or len(spec) > 4000:
        raise BadRequest("no ID given" if not spec else "ID too long")

    playable = [p.family for p in plugins() if p.playable_kinds]
    if spec not in game_names() and spec.split(":")[0].lower() not in playable:
        raise BadRequest(f"not a game or ID: {spec!r} (files are not opened by the web app); "
                         f"games: {', '.join(game_names())}")
    key = (spec, seed)
    with _LOCK:
        start = _CACHE.get(key)
        if start is not None:
            _CACHE.move_to_end(key)
    if start is None:
        start = resolve_start(spec, None, seed)
        with _LOCK:
            _CACHE[key] = start
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
    initial = start.initial.clone() if start.initial is not None else None
    return replace(start, state=start.state.clone(), initial=initial)


def parse_moves(text: str | None) -> list[int]:
    """``"3.17.4"`` (dots or commas) -> [3, 17, 4]."""
    if not text:
        return []
    out = []
    for tok in re.split(r"[., \t\r\n]+", text.strip(" \t\r\n")):
        if not tok:
            continue
        if not is_ascii_digits(tok) or len(tok) > 12:  # int() would take '+1', '1_0', '١'
            raise BadRequest(f"moves: {short(tok)} is not an action number")
        out.append(int(tok))
    if len(out) > MAX_MOVES:
        raise BadRequest(f"moves: at most {MAX_MOVES} actions")
    return out


def open_session(spec: str, moves: list[int], seed: int = 0, bots: str | None = None):
    """The PlaySession of ``spec`` with ``moves`` (every action since the start: the person's,
    the bots' and chance) replayed and checked; bots then move until a person is to move."""
    start = cached_start(spec, seed)
    seats = default_seats(start, [b for b in (bots or "").split(",") if b.strip()] or None)
    s = PlaySession(start, seats, seed)
    st = s.state
    for i, a in enumerate(moves, 1):
        try:
            st.apply_action(a)
        except RuleError as e:
            raise BadRequest(f"move {i} of the URL ({a}) is illegal: {e}") from None
    # chance drawn from a stream that depends on the position, so a reload draws the same
    s.rng = random.Random(f"{seed}:{len(st.history())}")
    if not s.finished():
        s.advance()
    return s


def moves_of(s) -> list[int]:
    return list(s.state.history()[s.base:])


# --- what the page shows ----------------------------------------------------------------------
def view(s, spec: str, messages: list[str] | None = None) -> dict:
    """Everything the play page draws: the picture with clickable cells (from the game's plugin),
    the buttons for the other legal moves, the goal, whose turn, and the result when over."""
    st = s.state
    finished = s.finished()
    human = s.human_to_move() and not finished
    legal = st.legal_actions() if human else []
    humans = [p for p, b in enumerate(s.bots) if b is None]
    pic = plugin_of(s.game_name).picture(st, legal, humans)
    buttons = []
    for a in legal:
        if a not in pic.hot:
            b = {"action": a, "move": st.action_to_string(a)}
            if pic.button_extra is not None:
                b.update(pic.button_extra(a))
            buttons.append(b)
    out = {
        "id": spec,
        "game": s.game_name,
        "seats": s.seats,
        "moves": moves_of(s),
        "move_names": _move_names(s),
        "current_player": st.current_player(),
        "human_to_move": human,
        "over": st.is_terminal(),
        "finished": finished,
        "returns": st.returns() if st.is_terminal() else None,
        "goal": s.start.goal,
        "optimum": s.start.optimum,
        "optimum_note": s.start.optimum_note,
        "moves_counted": s.start.moves_counted,
        "played": s.human_moves(),
        "prompt": "" if finished else (s.prompt() if human else "the bots are to move"),
        "result": s.result() if finished else None,
        "solved": bool(finished and s.result().startswith("solved")),
        "svg": pic.svg,
        "text": s.board(),
        "buttons": buttons,
        "hot_names": _hot_names(st, pic.svg, legal),
        "answer_why": answer_unavailable(s),
        "messages": messages or [],
    }
    out.update(pic.extra)
    return out


def _hot_names(st, svg: str, legal: list[int]) -> dict[str, str]:
    """Each hot spot's move in words (its ``aria-label`` on the page), "not legal now" added
    where the move is not legal."""
    legal_set = set(legal)
    out = {}
    for a in sorted({int(x) for x in re.findall(r'data-action="(\d{1,9})"', svg)}):
        try:
            name = st.action_to_string(a)
        except Exception:  # noqa: BLE001 - a spot whose action has no name now
            name = f"action {a}"
        out[str(a)] = name if a in legal_set else f"{name} (not legal now)"
    return out


def _move_names(s) -> list[str]:
    """The names of the moves played since the session's start."""
    rep = s.initial.clone()
    out = []
    for a in moves_of(s):
        p = rep.current_player()
        name = rep.action_to_string(a)
        out.append(name if p < 0 or rep.num_players() == 1 else f"P{p}: {name}")
        rep.apply_action(a)
    return out


# --- moves, undo, hint ------------------------------------------------------------------------
def play_move(s, action: int | None = None, text: str | None = None) -> list[str]:
    """Apply the person's move (an action number or the move's text), checked by the engine, then
    the bots' replies; an illegal move is a BadRequest with the engine's reason."""
    st = s.state
    if s.finished():
        raise BadRequest("the game is over")
    if not s.human_to_move():
        raise BadRequest("it is not a person's turn")
    if action is None:
        if not text:
            raise BadRequest("give a move: action=N or move=TEXT")
        try:
            action = st.string_to_action(text)
        except TanglekitError as e:
            raise BadRequest(f"illegal: {e}") from None
    if action not in st.legal_actions():
        raise BadRequest(f"illegal: {explain_illegal(st, action)}")
    p = st.current_player()
    name = st.action_to_string(action)
    st.apply_action(action)
    out = [f"player {p}: {name}" if st.num_players() > 1 else f"played {name}"]
    if not s.finished():
        out += s.advance()
    return out


def explain_illegal(st, action: int) -> str:
    """Why ``action`` is not legal now, in the game's words (the game API's ``explain_illegal``)."""
    return st.explain_illegal(action) or "it is legal now"


def undo(s) -> list[str]:
    return [s.undo()]


def hint(s) -> dict:
    """The solver's next move of a winning line, or why there is none."""
    st = s.state
    if s.finished():
        return {"action": None, "move": None, "hint": "the game is over"}
    if not s.human_to_move():
        return {"action": None, "move": None, "hint": "not a person's turn"}
    h = solver_hint(st)
    if h.action is None:
        return {"action": None, "move": None, "hint": h.text}
    return {"action": h.action, "move": st.action_to_string(h.action), "hint": h.text}


# --- the answer: the solver's line from here ----------------------------------------------------
def answer_unavailable(s) -> str | None:
    """Why the page cannot show the solver's line from here (None: it can)."""
    if s.finished():
        return "the game is over"
    if not s.human_to_move():
        return "it is not a person's turn"
    game = s.state.get_game()
    alone = game.num_players() == 1 or bool(getattr(getattr(game, "meta", None), "cooperative", False))
    if not s.start.goal and not alone:  # a game against others: a "line" would be one side's guess
        return ("a free game has no goal, so there is no solver's line to show "
                "(a hint still suggests a move)")
    return None


def answer(s, time_limit: float = ANSWER_TIME) -> dict:
    """The solver's line from the session's position: the game's hint for each person's move, the
    session's bots (and chance) answering for their seats, until the game is finished, a hint
    gives no move (``reason`` says why) or ``time_limit`` seconds have passed (``done`` false:
    ask again from the last step to go on). Each step carries the whole move list after it."""
    why = answer_unavailable(s)
    if why is not None:
        return {"steps": [], "reason": why, "done": True, "solved": False}
    plugin = plugin_of(s.game_name)
    t0 = time.monotonic()
    steps: list[dict] = []
    done = True
    while True:
        st = s.state
        if s.finished():
            reason = s.result()
            break
        if not s.human_to_move():
            reason = "no person is to move"
            break
        if steps and time.monotonic() - t0 > time_limit:
            reason, done = f"{len(steps)} moves worked out in {time_limit:g} s; asking for the rest", False
            break
        h = plugin.hint(st)
        if h is None or h.action is None:
            reason = h.text if h is not None and h.text else "the solver has no line from here (this game gives no hint here)"
            break
        if h.action not in st.legal_actions():
            reason = f"the solver's move {h.action} is not legal here"
            break
        name = st.action_to_string(h.action)
        st.apply_action(h.action)
        replies = s.advance() if not s.finished() else []
        steps.append({"action": h.action, "move": name, "why": h.text, "moves": moves_of(s), "replies": replies})
    return {"steps": steps, "reason": reason, "done": done,
            "solved": bool(s.finished() and s.result().startswith("solved"))}


# --- the catalogue of games and generators ---------------------------------------------------
def catalog() -> dict:
    gens = [{**g, "choices": list(g.get("choices") or g["ids"])} for p in plugins() for g in p.web_generators]
    checks = [{"game": p.family, "title": p.check_page} for p in plugins() if p.check_page]
    return {"games": game_names(), "generators": gens, "check": [c["game"] for c in checks], "checks": checks}


def generator_id(generator: str, choice: str, seed: int) -> str:
    """The seed-form ID a generator link opens."""
    for g in catalog()["generators"]:
        if g["generator"] == generator:
            if choice not in g["choices"]:
                raise BadRequest(f"{generator}: choose one of {', '.join(g['choices'])}, not {choice!r}")
            template = g["ids"][choice] if "ids" in g else g["id"]
            return template.format(choice=choice, seed=seed)
    raise BadRequest(f"no generator {generator!r}")

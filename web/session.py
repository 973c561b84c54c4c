"""The play and check logic behind the web pages, free of HTTP: a position is an ID (or game name)
plus the actions played since its start, rebuilt and checked by the engine on every request.

Starts come from ``generators.play.resolve_start`` (the same goals, optima and hints as
``tanglekit play``); the result dictionaries use the CLI's JSON keys.
"""

from __future__ import annotations

import random
import re
import threading
from collections import OrderedDict
from dataclasses import replace

from ..errors import RuleError, TanglekitError

MAX_MOVES = 5000  # longest move list a URL may carry
ID_PREFIXES = ("tanglung", "zangle", "qango", "tangle")  # the IDs resolve_start reads


class BadRequest(TanglekitError):
    """A request the pages should not make (a bad ID, an illegal move...): HTTP 400."""


# --- starts, cached by (ID, seed) -------------------------------------------------------------
_CACHE: "OrderedDict[tuple, object]" = OrderedDict()
_LOCK = threading.Lock()
_CACHE_SIZE = 64


def cached_start(spec: str, seed: int = 0):
    """A fresh copy of the start of ``spec`` (resolved once, then cloned)."""
    from ..generators.play import resolve_start

    if not spec or len(spec) > 4000:
        raise BadRequest("no ID given" if not spec else "ID too long")
    from ..games import game_names

    if spec not in game_names() and spec.split(":")[0].lower() not in ID_PREFIXES:
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
    for tok in re.split(r"[.,\s]+", text.strip()):
        if not tok:
            continue
        try:
            out.append(int(tok))
        except ValueError:
            raise BadRequest(f"moves: {tok!r} is not an action number") from None
    if len(out) > MAX_MOVES:
        raise BadRequest(f"moves: at most {MAX_MOVES} actions")
    return out


def open_session(spec: str, moves: list[int], seed: int = 0, bots: str | None = None):
    """The PlaySession of ``spec`` with ``moves`` (every action since the start: the person's,
    the bots' and chance) replayed and checked; bots then move until a person is to move."""
    from ..generators.play import PlaySession, default_seats

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
    """Everything the play page draws: the picture with clickable cells, the buttons for the other
    legal moves, the goal, whose turn, and the result when the game is over."""
    st = s.state
    game = s.game_name
    finished = s.finished()
    human = s.human_to_move() and not finished
    legal = st.legal_actions() if human else []
    svg = st.to_svg()
    hot: set[int] = set()
    if game in ("tanglung-solo", "tanglung-coop"):
        svg, hot = _tanglung_hotspots(svg, legal)
    elif game == "qango":
        svg, hot = _qango_hotspots(svg, st.engine.position.board, legal)
    sides = None
    if game == "zinga":
        svg, hot = _zinga_hotspots(svg, st, s, legal)
    elif game == "tangle":
        svg, sides = _tangle_sides(svg, st)
    places = []
    if game.startswith("zangle"):
        places = zangle_places(st)
        svg = zangle_table_html(st, places)
        hot = {a for a in legal if a >= 1024}  # Zangles are chosen by clicking cards
    buttons = [{"action": a, "move": st.action_to_string(a)} for a in legal if a not in hot]
    names, last_zangle = _move_names(s)
    if sides is not None:  # Tangle: the sides each placement covers, for picking on the board
        g = st.engine.game
        for b in buttons:
            m = g.pl_mask[b["action"]] if b["action"] < g.n_placements else 0
            b["sides"] = [i for i in range(m.bit_length()) if m >> i & 1]
    out = {
        "id": spec,
        "game": game,
        "seats": s.seats,
        "moves": moves_of(s),
        "move_names": names,
        "last_zangle": zangle_tiling(*last_zangle) if last_zangle else None,
        "can_zangle": bool(game.startswith("zangle") and human and getattr(st.engine, "phase", "play") == "play"),
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
        "svg": svg,
        "text": s.board(),
        "buttons": buttons,
        "places": places,
        "sides": sides,
        "messages": messages or [],
    }
    return out


def _move_names(s) -> tuple[list[str], object]:
    """The names of the moves played, and (Zangle) the engine action of the last Zangle."""
    rep = s.initial.clone()
    out = []
    last_zangle = None
    for a in moves_of(s):
        p = rep.current_player()
        name = rep.action_to_string(a)
        out.append(name if p < 0 or rep.num_players() == 1 else f"P{p}: {name}")
        if a >= 1024 and s.game_name.startswith("zangle"):
            last_zangle = (rep.engine.deck, rep._table().get(a))
        rep.apply_action(a)
    return out, last_zangle


def zangle_tiling(deck, action) -> dict | None:
    """A picture of how a Zangle's pieces tile its target (the exact-cover tiler finds one)."""
    from ..games.zangle.cards import PAINT
    from ..shapes.render import svg_tiling
    from ..solver.tiling import solve_tiling

    if action is None:
        return None
    cards = deck.by_id
    target = cards[action.target]
    pieces = [cards[c] for c in action.pieces if cards[c].shape is not None]
    try:
        res = solve_tiling(target.shape, [c.shape for c in pieces], each="exactly", query="first", time_limit=5.0)
    except TanglekitError:
        return None
    if not res.solutions:
        return None
    letters = "ABCDEFGHIJ"
    svg = svg_tiling(target.shape, res.solutions[0].placed, colours=[PAINT.get(c.colour, "#999") for c in pieces],
                     labels=list(letters[: len(pieces)]), unit=26.0)
    key = ", ".join(f"{letters[i]} = {c.id}" for i, c in enumerate(pieces))
    z = f" with {', '.join(action.z)}" if action.z else ""
    return {"text": f"{action.target}: {key}{z}", "svg": svg}


_HOT = ('<rect class="hot{cls}" data-action="{a}" x="{x}" y="{y}" width="{w}" height="{h}" '
        'fill="#000" fill-opacity="0" style="cursor:pointer"/>')


def _inject(svg: str, rects: list[str]) -> str:
    i = svg.rfind("</svg>")
    return svg[:i] + "\n".join(rects) + "\n" + svg[i:]


def _tanglung_hotspots(svg: str, legal: list[int]) -> tuple[str, set[int]]:
    """Every card of the 4x4 grid clickable (the card rectangles are the 16 ``rx="8"`` rects, in
    cell order); legal destinations marked ``legal``."""
    rects = re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" rx="8"', svg)
    if len(rects) != 16:
        return svg, set()
    hot = [_HOT.format(cls=" legal" if i in legal else "", a=i, x=x, y=y, w=w, h=h)
           for i, (x, y, w, h) in enumerate(rects)]
    return _inject(svg, hot), set(range(16))


def _qango_hotspots(svg: str, board, legal: list[int]) -> tuple[str, set[int]]:
    """Every board cell clickable (the cell squares are drawn first, in the board's cell order)."""
    rects = re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="#[0-9a-f]{6}" '
                       r'stroke="#555" stroke-width="0.5"/>', svg)
    cells = list(board.cells)
    if len(rects) != len(cells):
        return svg, set()
    hot = [_HOT.format(cls=" legal" if c in legal else "", a=c, x=x, y=y, w=w, h=h)
           for c, (x, y, w, h) in zip(cells, rects)]
    return _inject(svg, hot), set(cells)


def _zinga_hotspots(svg: str, st, s, legal: list[int]) -> tuple[str, set[int]]:
    """The person's sheet clickable: a cell claims, announces or takes its bonus, whichever of those
    is legal now (claim when none is: the engine then says why not)."""
    g = st.engine.game
    rects = re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="#[0-9a-fA-F]{6}" '
                       r'stroke="black"/>', svg)
    if len(rects) != 25 * g.n:
        return svg, set()
    humans = [p for p, b in enumerate(s.bots) if b is None]
    if not humans:
        return svg, set()
    me = st.current_player() if st.current_player() in humans else humans[0]
    legal_set = set(legal)
    hot, covered = [], set()
    for i, code in enumerate(g.sheets[me].codes):
        options = [base + code for base in (100, 200, 300)]
        a = next((x for x in options if x in legal_set), options[0])
        if a in legal_set:
            covered.add(a)
        x, y, w, h = rects[25 * me + i]
        hot.append(_HOT.format(cls=" legal" if a in legal_set else "", a=a, x=x, y=y, w=w, h=h))
    return _inject(svg, hot), covered


def _tangle_sides(svg: str, st) -> tuple[str, list]:
    """Every side of the Tangle board as a clickable line (index ``data-side``), in the picture's
    coordinates (the board's origin and scale as ``games/tangle/svg.py`` draws them)."""
    from ..games.tangle.svg import SCALE
    from ..shapes.hexsides import side_xy, tile_polygon

    g = st.engine.game
    pts = [pt for t in g.board.tiles for pt in tile_polygon(t)]
    ox = min(x for x, _ in pts) - 0.6
    oy = min(y for _, y in pts) - 0.6 - 0.8  # the picture always has a title line
    lines, segs = [], []
    for si, sd in enumerate(g.sides):
        (x1, y1), (x2, y2) = side_xy(sd)
        seg = [round((x1 - ox) * SCALE, 1), round((y1 - oy) * SCALE, 1), round((x2 - ox) * SCALE, 1),
               round((y2 - oy) * SCALE, 1)]
        segs.append(seg)
        lines.append(f'<line class="side" data-side="{si}" x1="{seg[0]}" y1="{seg[1]}" x2="{seg[2]}" y2="{seg[3]}" '
                     'stroke="#000" stroke-opacity="0" stroke-width="9" stroke-linecap="round" style="cursor:pointer"/>')
    return _inject(svg, lines), segs


def card_svg(card, unit: float = 16.0) -> str:
    """One Zangle card's shape in its colour (a Z card as a large Z)."""
    from ..games.zangle.cards import PAINT
    from ..shapes.render import svg_shape

    if card.shape is None:
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40">'
                '<text x="20" y="31" font-size="30" font-weight="bold" text-anchor="middle" '
                'font-family="sans-serif" fill="#555">Z</text></svg>')
    svg = svg_shape(card.shape.normalized(), fill=PAINT.get(card.colour, "#999999"), unit=unit)
    return re.sub(r'<rect [^>]*fill="#ffffff"/>', "", svg, count=1)  # no background: the card shows


def zangle_places(st) -> list[dict]:
    """The face-up cards a Zangle may use, by their place numbers (the action encoding's)."""
    from ..games.zangle.solo import MIDDLE as SOLO_MIDDLE, SoloGame

    e = st.engine
    out = []
    for place, card in sorted(st._places().items()):
        if isinstance(e, SoloGame):
            where = f"middle {place}" if place < SOLO_MIDDLE else f"pile {place - SOLO_MIDDLE}"
        else:
            where = f"middle {place}" if place < 4 else f"own {place - 4}"
        out.append({"place": place, "card": card.id, "where": where, "svg": card_svg(card)})
    return out


def _esc(t: str) -> str:
    return str(t).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def zangle_table_html(st, places: list[dict] | None = None) -> str:
    """The Zangle table as HTML cards: the middle, each pile's face-up top with the number of
    face-down cards under it, the draw pile's size; face-up cards carry their place number."""
    from ..games.zangle.solo import MIDDLE as SOLO_MIDDLE, SoloGame

    e = st.engine
    places = zangle_places(st) if places is None else places
    by_place = {p["place"]: p for p in places}

    def card(p: dict | None, where: str, note: str = "") -> str:
        if p is None:
            return (f'<div class="slot"><div class="where">{_esc(where)}</div><div class="card empty">empty</div>'
                    f'<div class="note">{_esc(note)}</div></div>')
        return (f'<div class="slot"><div class="where">{_esc(where)}</div>'
                f'<div class="card" data-place="{p["place"]}" data-card="{_esc(p["card"])}">{p["svg"]}'
                f'<div class="cid">{_esc(p["card"])}</div></div><div class="note">{_esc(note)}</div></div>')

    rows = []
    if isinstance(e, SoloGame):
        rows.append('<div class="zrow">' + "".join(card(by_place.get(i), f"middle {i}") for i in range(SOLO_MIDDLE))
                    + f'<div class="slot"><div class="where">draw pile</div><div class="card back">{len(e.draw)}'
                    f'<div class="cid">cards</div></div></div></div>')
        rows.append('<div class="zrow">' + "".join(
            card(by_place.get(SOLO_MIDDLE + i) if pile else None, f"pile {i}",
                 f"{len(pile) - 1} face down" if len(pile) > 1 else "")
            for i, pile in enumerate(e.piles)) + "</div>")
        state = "solved" if st.is_terminal() and st.returns()[0] > 0 else ("game over" if st.is_terminal() else
                                                                          f"{e.phase} phase")
        rows.append(f'<div class="small">{sum(len(p) for p in e.piles)} cards left in the piles; {state}</div>')
    else:
        rows.append('<div class="zrow">' + "".join(card(p, p["where"]) for p in places) + "</div>")
        rows.append(f'<pre class="small">{_esc(st.observation_string(max(st.current_player(), 0)))}</pre>')
    return '<div class="ztable">' + "".join(rows) + "</div>"


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
    from ..solver.bots import hint as solver_hint

    st = s.state
    if s.finished():
        return {"action": None, "move": None, "hint": "the game is over"}
    if not s.human_to_move():
        return {"action": None, "move": None, "hint": "not a person's turn"}
    h = solver_hint(st)
    if h.action is None:
        return {"action": None, "move": None, "hint": h.text}
    return {"action": h.action, "move": st.action_to_string(h.action), "hint": h.text}


# --- the catalogue of games and generators ---------------------------------------------------
def catalog() -> dict:
    from ..games import game_names
    from ..generators.tanglung import GRADES
    from ..generators.zangle import DIFFICULTIES

    gens = [
        {"generator": "tanglung-solo", "title": "Tanglung solo challenge", "choices": list(GRADES),
         "id": "tanglung:solo,{choice}#{seed}"},
        {"generator": "zangle-solo", "title": "Zangle solo challenge (5 piles)", "choices": list(DIFFICULTIES),
         "id": "zangle:solo,piles=5,{choice}#{seed}"},
        {"generator": "qango-puzzle", "title": "QANGO win-in-k puzzle (6x6 board)", "choices": ["k2", "k3", "k4"],
         "id": "qango:6:{choice}#{seed}"},
        {"generator": "tangle-puzzle", "title": "Tangle best-turn puzzle", "choices": ["normal", "hard"],
         "id": "tangle:min_points=10,min_chain=2{hard}#{seed}"},
    ]
    return {"games": game_names(), "generators": gens, "check": ["zangle", "tanglung", "qango"]}


def generator_id(generator: str, choice: str, seed: int) -> str:
    """The seed-form ID a generator link opens."""
    for g in catalog()["generators"]:
        if g["generator"] == generator:
            if choice not in g["choices"]:
                raise BadRequest(f"{generator}: choose one of {', '.join(g['choices'])}, not {choice!r}")
            return g["id"].format(choice=choice, seed=seed, hard=",hard=1" if choice == "hard" else "")
    raise BadRequest(f"no generator {generator!r}")

"""The check pages' answers: a deal or position entered by clicking, solved by the same library
calls as the CLI (same JSON keys), with the solver's line as pictures and the shareable ID."""

from __future__ import annotations

from .session import BadRequest

ZANGLE_TIME = 20.0  # seconds the solo solver may search for the check page
QANGO_TIME = 5.0  # seconds the QANGO solver may search (then "unknown")
QANGO_LINE_TIME = 2.0  # per position of the animated line


def zangle_deck() -> dict:
    """Every card of the default deck with its picture (the check page's deck)."""
    from ..games.zangle.cards import default_deck
    from .session import card_svg

    deck = default_deck()
    return {"deck": deck.name, "cards": [{"card": c.id, "colour": c.colour, "svg": card_svg(c, 9.0)}
                                         for c in deck.cards]}


def _ids(v, what: str) -> tuple[str, ...]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise BadRequest(f"{what} must be a list of card ids")
    return tuple(v)


def check_zangle(body: dict) -> dict:
    """``zangle solo solve``'s JSON (solvable, line, states) for a solo deal of card ids, plus
    its ``id`` and a picture after every action of the winning line."""
    from ..games import load_game
    from ..solver.bots import zangle_action
    from ..solver.zangle_solo import SoloDeal, solve_deal
    from .session import zangle_table_html

    if not isinstance(body, dict):
        raise BadRequest("send {\"middle\": [...], \"draw\": [...], \"piles\": [[...], ...]}")
    piles = body.get("piles")
    if not isinstance(piles, list) or not piles:
        raise BadRequest("piles must be a list of piles (lists of card ids, bottom to top)")
    if any(not p for p in piles):
        raise BadRequest("every pile needs at least one card")
    deal = SoloDeal(_ids(body.get("middle", []), "middle"), _ids(body.get("draw", []), "draw"),
                    tuple(_ids(p, "a pile") for p in piles))
    if len(deal.middle) != 3:
        raise BadRequest(f"the middle holds 3 cards, not {len(deal.middle)}")
    res = solve_deal(deal, max_states=2_000_000, time_limit=ZANGLE_TIME)
    out = res.to_json()
    out["complete"] = res.solvable is not None
    out["id"] = deal.share_id()
    out["line_text"] = [str(a) for a in res.line]
    opts = deal.options.to_json()
    opts.pop("max_turns", None)
    st = load_game("zangle-solo", **opts).new_initial_state_from(deal)
    frames = [{"caption": "the deal", "svg": zangle_table_html(st)}]
    for k, a in enumerate(res.line, 1):
        st.apply_action(zangle_action(st, a))
        frames.append({"caption": f"{k}. {a}", "svg": zangle_table_html(st)})
    out["frames"] = frames
    return out


def check_tanglung(body: dict) -> dict:
    """``tanglung solo solve``'s JSON (solvable, moves, start, path, optimal_tours) for a layout,
    plus its ``id`` and the optimal tour step by step."""
    from ..games import load_game
    from ..games.tanglung.ids import id_params
    from ..generators.ids import format_params, make_descriptive
    from ..games.tanglung.layout import Layout
    from ..games.tanglung.rules import TanglungOptions
    from ..solver.tanglung_solo import solve_solo

    text = body.get("layout") if isinstance(body, dict) else None
    if not isinstance(text, str):
        raise BadRequest('send {"layout": "CRBF/HDFR/BHFB/RHDC"}')
    lay = Layout.parse(text)
    sol = solve_solo(lay)
    out = sol.to_json()
    out["layout"] = str(lay)
    flags, values = id_params(None, TanglungOptions(), None)
    out["id"] = make_descriptive("tanglung", format_params(*flags, **values), str(lay))
    frames = []
    if sol.solvable:
        st = load_game("tanglung-solo").new_initial_state_from({"layout": str(lay), "starts": [list(divmod(sol.start, 4))]})
        frames.append({"caption": f"start on {sol.start // 4},{sol.start % 4}", "svg": st.to_svg()})
        for k, cell in enumerate(sol.path[1:], 1):
            st.apply_action(cell)
            frames.append({"caption": f"{k}. {cell // 4},{cell % 4}", "svg": st.to_svg()})
    out["frames"] = frames
    return out


def check_qango(body: dict) -> dict:
    """``qango solve``'s JSON (value, best_move, plies, nodes) for a position, plus an ID (a
    win-in-k puzzle ID when the side to move wins) and the best line step by step."""
    from ..games import load_game
    from ..games.qango import parse_position
    from ..games.qango.position import QangoOptions
    from ..solver.bots import native_action
    from ..solver.qango_solve import QangoSolver

    if not isinstance(body, dict) or not isinstance(body.get("position"), str):
        raise BadRequest('send {"board": "6", "position": "X...../......"}')
    board_name = str(body.get("board", "6"))
    if board_name not in ("6", "7", "7plus"):
        raise BadRequest(f"board must be 6, 7 or 7plus, not {board_name!r}")
    b, allowed = QangoOptions(board=board_name).resolve()
    pos = parse_position(body["position"], b, allowed).validate()
    solver = QangoSolver(pos.board, pos.allowed_first, tt_bits=20)
    res = solver.solve(pos, time_limit=QANGO_TIME)
    out = res.to_json()
    out["complete"] = res.value != "unknown"
    out["position"] = pos.to_text()
    out["to_move"] = 0 if pos.to_move == "X" else 1  # players from 0, as in `qango solve --json`
    out["side"] = pos.to_move
    out["counters"] = (res.plies + 1) // 2 if res.value in ("win", "loss") and res.plies is not None else None
    tag = {"6": "6", "7": "7", "7plus": "7plus"}[board_name]
    if res.value == "win" and res.plies is not None:
        out["id"] = f"qango:{tag}:k{(res.plies + 1) // 2}:{pos.to_text()}"
    else:
        out["id"] = None
    st = load_game("qango", board=board_name).new_initial_state_from(pos)
    frames = [{"caption": "the position", "svg": st.to_svg()}]
    line = []
    if res.value in ("win", "loss") and res.best_move is not None:
        k = 0
        while not st.is_terminal() and k < 60:
            p = st.engine.position
            r = solver.solve(p, time_limit=QANGO_LINE_TIME)
            if r.best_move is None or r.value == "unknown":
                break
            a = native_action(st, r.best_move)
            k += 1
            name = f"{p.to_move} {st.action_to_string(a)}"
            line.append(name)
            st.apply_action(a)
            frames.append({"caption": f"{k}. {name}", "svg": st.to_svg()})
    out["line_text"] = line
    out["frames"] = frames
    return out


CHECKS = {"zangle": check_zangle, "tanglung": check_tanglung, "qango": check_qango}


# --- pictures of what is being entered --------------------------------------------------------
def draw_tanglung(body: dict) -> dict:
    """The grid being entered (``.`` for a cell not yet placed), every cell clickable."""
    from ..games.tanglung.cards import KINDS, default_card_set
    from ..games.tanglung.layout import Layout
    from ..games.tanglung.render import svg_grid
    from .session import _tanglung_hotspots

    text = body.get("layout", "") if isinstance(body, dict) else ""
    lay = Layout.parse(text or "..../..../..../....")
    svg, _ = _tanglung_hotspots(svg_grid(lay, labels=True), [])
    cs = default_card_set()
    placed = {k: sum(1 for i in range(16) if lay[i] == k) for k in KINDS}
    return {"layout": str(lay), "svg": svg,
            "cards": [{"letter": k, "name": KINDS[k], "count": cs.count(k), "placed": placed[k]} for k in KINDS]}


def draw_qango(body: dict) -> dict:
    """The board being entered with its counters, every cell clickable; the position text."""
    from ..games.qango.board import load_board
    from ..games.qango.svg import board_svg
    from .session import _qango_hotspots

    board_name = str(body.get("board", "6")) if isinstance(body, dict) else "6"
    if board_name not in ("6", "7", "7plus"):
        raise BadRequest(f"board must be 6, 7 or 7plus, not {board_name!r}")
    b = load_board(board_name)
    cells = body.get("cells") or {}
    if not isinstance(cells, dict):
        raise BadRequest('cells must be {"CELL": "X" or "O"}')
    x = o = 0
    for k, v in cells.items():
        try:
            c = int(k)
        except ValueError:
            raise BadRequest(f"bad cell {k!r}") from None
        if c not in b.cells:
            raise BadRequest(f"cell {c} is not on the board")
        if v == "X":
            x |= 1 << c
        elif v == "O":
            o |= 1 << c
    rows = []
    for r in range(b.height):
        row = ""
        for q in range(b.width):
            c = r * b.width + q
            row += "#" if c not in b.cells else "X" if x >> c & 1 else "O" if o >> c & 1 else "."
        rows.append(row)
    svg, _ = _qango_hotspots(board_svg(b, x, o, title=b.title), b, [])
    return {"board": board_name, "position": "/".join(rows), "svg": svg}


DRAWS = {"tanglung": draw_tanglung, "qango": draw_qango}

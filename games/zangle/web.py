"""Zangle's web pages: the table as HTML cards, the tiling of the last Zangle, the check page."""

from __future__ import annotations

import re

from ...errors import FormatError, TanglekitError
from ...shapes.render import svg_shape, svg_tiling
from ...solver.tiling import solve_tiling
from ..picture import attr, named
from ..plugin import load_game
from .cards import PAINT, default_deck
from .solo import MIDDLE as SOLO_MIDDLE
from .solo import SoloGame
from .solo_search import SoloDeal, solve_deal

ZANGLE_TIME = 20.0  # seconds the solo solver may search for the check page


def zangle_tiling(deck, action) -> dict | None:
    """A picture of how a Zangle's pieces tile its target (the exact-cover tiler finds one)."""
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
    return {"text": f"{action.target}: {key}{z}",
            "svg": named(svg, f"how the pieces of the last Zangle tile {action.target} (named beside it)")}


def card_svg(card, unit: float = 16.0) -> str:
    """One Zangle card's shape in its colour (a Z card as a large Z), hidden from screen readers:
    the card's id is written under it."""
    if card.shape is None:
        return ('<svg xmlns="http://www.w3.org/2000/svg" aria-hidden="true" width="40" height="40" viewBox="0 0 40 40">'
                # a Z drawn as a stroke, not as text: the card's name is the id written under it
                '<path d="M9 8 H31 L9 32 H31" fill="none" stroke="#555" stroke-width="5" '
                'stroke-linejoin="round" stroke-linecap="round"/></svg>')
    svg = svg_shape(card.shape.normalized(), fill=PAINT.get(card.colour, "#999999"), unit=unit)
    svg = svg.replace("<svg ", '<svg aria-hidden="true" ', 1)
    return re.sub(r'<rect [^>]*fill="#ffffff"/>', "", svg, count=1)  # no background: the card shows


def zangle_places(st) -> list[dict]:
    """The face-up cards a Zangle may use, by their place numbers (the action encoding's)."""
    e = st.engine
    out = []
    for place, card in sorted(st.places().items()):
        if isinstance(e, SoloGame):
            where = f"middle {place}" if place < SOLO_MIDDLE else f"pile {place - SOLO_MIDDLE}"
        else:
            where = f"middle {place}" if place < 4 else f"own {place - 4}"
        out.append({"place": place, "card": card.id, "where": where, "svg": card_svg(card)})
    return out


def _esc(t: str) -> str:
    return str(t).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def zangle_table_html(st, places: list[dict] | None = None, buttons: bool = True) -> str:
    """The Zangle table as HTML cards: the middle, each pile's face-up top with the number of
    face-down cards under it, the draw pile's size; face-up cards carry their place number (and,
    with ``buttons``, the role of a button named by the place and card, for screen readers)."""
    e = st.engine
    places = zangle_places(st) if places is None else places
    by_place = {p["place"]: p for p in places}

    def role(where: str, p: dict) -> str:
        return f' role="button" aria-label="{attr(where)}: {attr(p["card"])}"' if buttons else ""

    def card(p: dict | None, where: str, note: str = "") -> str:
        if p is None:
            return (f'<div class="slot"><div class="where">{_esc(where)}</div><div class="card empty">empty</div>'
                    f'<div class="note">{_esc(note)}</div></div>')
        return (f'<div class="slot"><div class="where">{_esc(where)}</div>'
                f'<div class="card" data-place="{p["place"]}" data-card="{_esc(p["card"])}"{role(where, p)}>{p["svg"]}'
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
        for side in ("middle", "own"):  # the middle's cards, then the person's own
            row = [card(p, p["where"]) for p in places if p["where"].split()[0] == side]
            if row:
                rows.append('<div class="zrow">' + "".join(row) + "</div>")
        rows.append(f'<pre class="small">{_esc(st.observation_string(max(st.current_player(), 0)))}</pre>')
    return '<div class="ztable">' + "".join(rows) + "</div>"


PILE_CHOICES = (5, 6)


def _zones(piles: int) -> list[dict]:
    """The check page's zones of a solo deal with ``piles`` piles: where each zone's cards go in
    the check's body (``key``, and ``index`` in a list of lists), how many it needs."""
    return ([{"name": "middle", "title": "middle (3 cards)", "key": "middle", "min": 3, "max": 3}]
            + [{"name": f"pile {i}", "title": f"pile {i} (bottom to top)", "key": "piles", "index": i, "min": 1}
               for i in range(piles)]
            + [{"name": "draw", "title": "draw pile (next card first)", "key": "draw", "min": 0}])


def zangle_deck() -> dict:
    """What the check page needs first: its title, how to enter a deal, every card of the default
    deck with its picture, the zones for each number of piles."""
    deck = default_deck()
    return {"title": "Check a Zangle solo deal", "solve_label": "solvable?", "entry": "deck",
            "how": "Choose a zone (the middle, a pile, the draw pile), then cards of the deck to put there, "
                   "in order: piles bottom to top, the draw pile next card first. Choose a placed card to "
                   "take it back.",
            "rules_game": "zangle-solo",  # the rules panel: this game, with the piles chosen
            "selects": [{"name": "piles", "label": "piles", "param": "piles",
                         "options": [{"value": str(n), "label": f"{n} piles"} for n in PILE_CHOICES]}],
            "zone_select": "piles", "zones": {str(n): _zones(n) for n in PILE_CHOICES},
            "deck": deck.name, "cards": [{"card": c.id, "colour": c.colour, "svg": card_svg(c, 9.0)}
                                         for c in deck.cards]}


def _ids(v, what: str) -> tuple[str, ...]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise FormatError(f"{what} must be a list of card ids")
    return tuple(v)


def check_zangle(body: dict) -> dict:
    """``zangle solo solve``'s JSON (solvable, line, states) for a solo deal of card ids, plus
    its ``id`` and a picture after every action of the winning line."""
    if not isinstance(body, dict):
        raise FormatError("send {\"middle\": [...], \"draw\": [...], \"piles\": [[...], ...]}")
    piles = body.get("piles")
    if not isinstance(piles, list) or not piles:
        raise FormatError("piles must be a list of piles (lists of card ids, bottom to top)")
    if any(not p for p in piles):
        raise FormatError("every pile needs at least one card")
    deal = SoloDeal(_ids(body.get("middle", []), "middle"), _ids(body.get("draw", []), "draw"),
                    tuple(_ids(p, "a pile") for p in piles))
    if len(deal.middle) != 3:
        raise FormatError(f"the middle holds 3 cards, not {len(deal.middle)}")
    res = solve_deal(deal, max_states=2_000_000, time_limit=ZANGLE_TIME)
    out = res.to_json()
    out["complete"] = res.solvable is not None
    out["id"] = deal.share_id()
    out["line_text"] = [str(a) for a in res.line]
    opts = deal.options.to_json()
    opts.pop("max_turns", None)
    st = load_game("zangle-solo", **opts).new_initial_state_from(deal)
    frames = [{"caption": "the deal", "svg": zangle_table_html(st, buttons=False)}]
    for k, a in enumerate(res.line, 1):
        st.apply_action(st.action_of(a))
        frames.append({"caption": f"{k}. {a}", "svg": zangle_table_html(st, buttons=False)})
    out["frames"] = frames
    n, st_ = len(res.line), f"{res.states:,} state{'s' if res.states != 1 else ''}"
    out["answer"] = (f"unknown: the solver stopped after {st_}" if res.solvable is None else
                     f"solvable: a winning line of {n} action{'s' if n != 1 else ''} ({st_} searched)"
                     if res.solvable else f"not solvable ({st_} searched)")
    return out

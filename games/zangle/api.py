"""Zangle in the common game API: ``zangle-solo``, ``zangle-turn`` and ``zangle-speed``.

Actions (ints): ``draw`` 0, ``pass`` 1, ``discard`` 2, ``skip`` 3, ``wait`` 4, ``false_call`` 5;
``fill pile D from pile S`` = 16 + 16 * S + D; a Zangle = 1024 + T + 128 * M, where the cards
on the table have places (solo: middle 0..2, then pile i's top at 3 + i; turn and speed: middle
0..3, then the player's own face-up card j at 4 + j), T is the target card's place and M the bit
mask of the places of every card used (target included). Text: the engine's notation,
``zangle T5-c-1 <= T3-a-2 + T2-1 + Z-1``, ``fill pile 2 from pile 0``, ``draw``...

Shuffles come from the seed (the engines deal from it), so there are no chance nodes; the face-
down cards are hidden information (``observation_string``).
"""

from __future__ import annotations

import re
from typing import Any

from ...errors import FormatError, IllegalMoveError, InvalidMoveError, RuleError, TanglekitError
from ..api import ChanceMode, EngineState, Game, GameMeta, Information, Utility, replay_from_json, split_params
from .cards import Card, Deck, default_deck, load_deck
from .engine import Action, GameState, RoundScoredGame
from .moves import MAX_CARDS
from .rules import ZangleOptions
from .solo import DRAW_PILE, MIDDLE, SoloGame
from .solo import MIDDLE as SOLO_MID
from .solo import MIDDLE as SOLO_MIDDLE
from .speed import SpeedGame
from .svg import state_svg
from .turn import MIDDLE as TURN_MID
from .turn import MIDDLE as TURN_MIDDLE
from .turn import TurnGame

#: the engine of a Zangle state: one per game
ZangleEngine = SoloGame | TurnGame | SpeedGame

SIMPLE = {"draw": 0, "pass": 1, "discard": 2, "skip": 3, "wait": 4, "false_call": 5}
SIMPLE_NAMES = {v: k for k, v in SIMPLE.items()}
FILL_BASE = 16
ZANGLE_BASE = 1024
_PLACE_BITS = 128
_MAX_PLACES = 16  # places a Zangle action can name (the encoding's mask bits in use)


def place_name(place: int, solo: bool) -> str:
    """A table place in words: ``middle 1``, ``pile 2`` (solo), ``own card 0`` (turn, speed)."""
    mid = SOLO_MID if solo else TURN_MID
    if place < mid:
        return f"middle {place}"
    return f"pile {place - mid}" if solo else f"own card {place - mid}"


_FILL_RE = re.compile(r"fill pile ([0-9]{1,3}) from pile ([0-9]{1,3})")


def explain_zangle(places: dict[int, Card], action: int, legal_zangles: list[int], solo: bool) -> str | None:
    """Why the Zangle action ``action`` (target and cards by their places) is not legal with the
    face-up cards ``places`` (place -> Card): "card T5 does not fit ...", or None."""
    t = (action - ZANGLE_BASE) % _PLACE_BITS
    mask = (action - ZANGLE_BASE) // _PLACE_BITS
    if t >= _MAX_PLACES or mask >> _MAX_PLACES:
        return f"no such action: {action}"
    chosen = [p for p in range(mask.bit_length()) if mask >> p & 1]
    missing = [p for p in [t, *chosen] if p not in places]
    if missing:
        return f"no card lies face up at {place_name(missing[0], solo)} (a Zangle uses only face-up cards)"
    if not mask >> t & 1:
        return f"no such action: {action} (the target's place is not among the cards used)"
    target = places[t]
    pieces = [places[p] for p in chosen if p != t]
    if not pieces:
        return f"a Zangle needs cards that fill the target {target.id}"
    if target.shape is None:
        return f"{target.id} is a Z card: it cannot be the target"
    shaped = [c for c in pieces if c.shape is not None]
    zs = [c for c in pieces if c.shape is None]
    if not shaped:
        return f"Z cards alone cover nothing: choose cards that fill the target {target.id}"
    if len(shaped) == 1 and not zs:
        return "a Zangle needs two or more pieces, or one piece and a Z card"
    if solo:
        if not any(p < MIDDLE for p in chosen) or not any(p >= MIDDLE for p in chosen):
            return "a solo Zangle uses at least one middle card and at least one pile top"
    area = sum(c.shape.area for c in shaped if c.shape is not None)  # (all of them: narrows the type)
    names = " + ".join(c.id for c in shaped)
    one = len(shaped) == 1
    if area != target.shape.area:
        return (f"{names} cover{'s' if one else ''} {area} triangle{'s' if area != 1 else ''}; the target "
                f"{target.id} has {target.shape.area}, so {'it does' if one else 'they do'} not fit")
    if not any((a - ZANGLE_BASE) % _PLACE_BITS == t for a in legal_zangles):
        return f"no Zangle fills {target.id} now: {names} do{'es' if one else ''} not fit it"
    if one:
        return f"card {names} does not fit {target.id}: not congruent to it"
    def shaped_ids(a: int) -> set[str]:
        m = (a - ZANGLE_BASE) // _PLACE_BITS
        return {places[p].id for p in range(m.bit_length())
                if m >> p & 1 and p in places and places[p].shape is not None}

    want = {c.id for c in shaped} | {target.id}
    if any((a - ZANGLE_BASE) % _PLACE_BITS == t and shaped_ids(a) == want for a in legal_zangles):
        return (f"{names} fill {target.id}, but with other Z cards (the rule option z_cards decides which "
                "Z cards a Zangle takes)")
    return f"{names} do not fit {target.id}: the pieces cannot be arranged to fill it exactly"


def _action_key(a: Action) -> tuple[Any, ...]:
    return (a.kind, a.target, frozenset(a.pieces), frozenset(a.z), a.src, a.dst)


class ZangleState(EngineState):
    """A Zangle game (the engine is a ``SoloGame``, ``TurnGame`` or ``SpeedGame``)."""

    engine: ZangleEngine
    _table_cache: tuple[int, dict[int, Action], GameState] | None

    # -- places of the cards on the table ----------------------------------------------------
    def _places(self) -> dict[int, Card]:
        e = self.engine
        if isinstance(e, SoloGame):
            out = {i: c for i, c in enumerate(e.middle)}
            out.update({SOLO_MIDDLE + i: p[-1] for i, p in enumerate(e.piles) if p})
            return out
        me = self.current_player()
        out = {i: c for i, c in enumerate(e.middle)}
        if me >= 0:
            out.update({TURN_MIDDLE + j: c for j, c in enumerate(e.own[me])})
        return out

    def _encode(self, a: Action, where: dict[str, int]) -> int:
        if a.kind == "zangle":
            mask = 0
            for cid in (a.target, *a.pieces, *a.z):
                mask |= 1 << where[cid]
            return ZANGLE_BASE + where[a.target] + _PLACE_BITS * mask
        if a.kind == "fill":
            return FILL_BASE + 16 * a.src + a.dst
        return SIMPLE[a.kind]

    def _table(self) -> dict[int, Action]:
        """Legal actions by their ints (cached with the legal list)."""
        cache: tuple[int, dict[int, Action], GameState] | None = getattr(self, "_table_cache", None)
        if cache is not None and cache[0] == len(self._actions) and cache[2] is self.engine:
            return cache[1]
        where = {c.id: i for i, c in self._places().items()}
        table: dict[int, Action] = {}
        for a in self.engine.legal_actions():
            k = self._encode(a, where)
            if k in table:  # two actions with one code would make the encoding ambiguous
                raise RuleError(f"Zangle action code clash: {table[k]} and {a}")
            table[k] = a
        self._table_cache = (len(self._actions), table, self.engine)
        return table

    def places(self) -> dict[int, Card]:
        """The face-up cards a Zangle may use now, by place number (the action encoding's)."""
        return self._places()

    def action_table(self) -> dict[int, Action]:
        """The legal actions now by their ints, as engine actions."""
        return dict(self._table())

    def action_of(self, native: Action) -> int:
        """The int of legal engine action ``native`` (a Zangle matched by its cards, in any order)."""
        want = _action_key(native)
        for k, a in self._table().items():
            if _action_key(a) == want:
                return k
        raise RuleError(f"{native} is not a legal action here")

    # -- state machine ---------------------------------------------------------------------
    def current_player(self) -> int:
        return self.engine.current_player()

    def is_terminal(self) -> bool:
        return self.engine.is_terminal()

    def returns(self) -> list[float]:
        return [float(r) for r in self.engine.returns()]

    def _legal(self) -> list[int]:
        return list(self._table())

    def _apply(self, action: int) -> None:
        self.engine.apply(self._table()[action])

    def _copy_engine(self, engine: ZangleEngine) -> GameState:
        return engine.clone()

    def clone(self) -> "ZangleState":
        new = super().clone()
        new._table_cache = None
        return new

    def action_to_string(self, action: int) -> str:
        a = self._table().get(action)
        if a is not None:
            return str(a)
        if action in SIMPLE_NAMES:
            return SIMPLE_NAMES[action]
        if FILL_BASE <= action < ZANGLE_BASE:
            s, d = divmod(action - FILL_BASE, 16)
            return str(Action("fill", src=s, dst=d))
        if action >= ZANGLE_BASE:
            places = self._places()
            t, mask = (action - ZANGLE_BASE) % _PLACE_BITS, (action - ZANGLE_BASE) // _PLACE_BITS
            used = [places.get(i) for i in range(mask.bit_length()) if mask >> i & 1]
            if t in places and None not in used and mask >> t & 1:
                rest = [c for c in used if c is not None and c is not places[t]]
                return str(Action("zangle", places[t].id, tuple(c.id for c in rest if not c.is_z),
                                  tuple(c.id for c in rest if c.is_z)))
        raise RuleError(f"no such Zangle action here: {action}")

    def _parse_action(self, text: str) -> int:
        """The action written ``text`` (legal now or not); a Zangle's cards may be listed in any
        order, and must lie face up on the table to be named by an action."""
        words = " ".join(str(text).split())
        shown = repr(words if len(words) <= 60 else words[:57] + "...")
        low = words.lower()
        if low.replace(" ", "_") in SIMPLE:
            return SIMPLE[low.replace(" ", "_")]
        m = _FILL_RE.fullmatch(low)
        if m:
            dst, src = int(m.group(1)), int(m.group(2))
            if dst > 15 or src > 15:
                raise InvalidMoveError(f"bad Zangle move {shown}: piles are numbered 0..15 at most")
            return FILL_BASE + 16 * src + dst
        if not low.startswith("zangle ") or "<=" not in words:
            raise InvalidMoveError(f"bad Zangle move {shown}: e.g. 'zangle T5 <= T3 + T2', "
                                   f"'fill pile 2 from pile 0', 'draw', 'discard'")
        target, _, rest = words[len("zangle "):].partition("<=")
        ids = [target.strip()] + [c.strip() for c in rest.split("+")]
        if not all(ids) or len(set(ids)) != len(ids):
            raise InvalidMoveError(f"bad Zangle move {shown}: name the target, then each card once, joined by +")
        deck = self.engine.deck.by_id
        unknown = [c for c in ids if c not in deck]
        if unknown:
            raise InvalidMoveError(f"bad Zangle move {shown}: no card {unknown[0][:40]!r} in the deck")
        where = {c.id: i for i, c in self._places().items()}
        away = [c for c in ids if c not in where]
        if away:
            raise IllegalMoveError(f"{shown} is not legal now: card {away[0]} is not face up where a Zangle "
                                   f"may use it ({self._where_text()})")
        mask = 0
        for c in ids:
            mask |= 1 << where[c]
        return ZANGLE_BASE + where[ids[0]] + _PLACE_BITS * mask

    def _where_text(self) -> str:
        e = self.engine
        if isinstance(e, SoloGame):
            return "the middle cards and the pile tops"
        return f"the middle cards and player {self.current_player()}'s own face-up cards"

    def _why_illegal(self, action: int) -> str | None:
        e = self.engine
        solo = isinstance(e, SoloGame)
        if action in SIMPLE_NAMES:
            return self._why_simple(SIMPLE_NAMES[action])
        if FILL_BASE <= action < ZANGLE_BASE:
            src, dst = divmod(action - FILL_BASE, 16)
            if src > 15:
                return f"no such action: {action}"
            if not isinstance(e, SoloGame):
                return "filling a pile is a move of solo Zangle only"
            n = len(e.piles)
            if src >= n or dst >= n:
                return f"there is no pile {max(src, dst)} (piles 0..{n - 1})"
            if e.phase != "fill":
                return "no pile is to be filled now (a fill follows a Zangle that empties a pile)"
            if e.piles[dst]:
                return f"pile {dst} is not empty"
            if len(e.piles[src]) < 2:
                return f"pile {src} has no card under its top (a fill moves the top of a pile with cards below it)"
            return None
        if action >= ZANGLE_BASE:
            t, mask = (action - ZANGLE_BASE) % _PLACE_BITS, (action - ZANGLE_BASE) // _PLACE_BITS
            if t >= _MAX_PLACES or mask >> _MAX_PLACES or not mask >> t & 1:
                return f"no such action: {action}"
            if isinstance(e, SoloGame) and e.phase == "fill":
                return "an empty pile must be filled first (or the fill skipped)"
            pending = None if solo else getattr(e, "false_pending", None)
            if pending and pending[self.current_player()]:
                return f"player {self.current_player()} must first take the false call's penalty (false_call)"
            return explain_zangle(self._places(), action, [a for a in self.legal_actions() if a >= ZANGLE_BASE],
                                  solo)
        return f"no such action: {action}"  # 6..15

    def _why_simple(self, kind: str) -> str | None:
        e = self.engine
        n_z = sum(1 for a in self.legal_actions() if a >= ZANGLE_BASE)
        if isinstance(e, SoloGame):
            if kind == "discard":
                if e.phase == "fill":
                    return "an empty pile must be filled first (or the fill skipped)"
                if not e.draw:
                    return "the draw pile is empty: there is nothing to draw after a discard"
                if n_z:
                    return (f"{n_z} Zangle{'s are' if n_z != 1 else ' is'} possible: the middle may be discarded "
                            "only when none is (rule option voluntary_discard is off)")
                return None
            if kind == "skip":
                if e.phase != "fill":
                    return "there is no empty pile to fill, so nothing to skip"
                return "an emptied pile must be filled (rule option fill_empty_pile is 'must')"
            return f"'{kind}' is not a move of solo Zangle (draw, pass, wait are moves of the turn and speed games)"
        me = self.current_player()
        if isinstance(e, TurnGame):
            if kind in ("discard", "skip"):
                return f"'{kind}' is a move of solo Zangle only"
            if kind in ("wait", "false_call"):
                return f"'{kind}' is a move of speed Zangle only"
            if n_z:
                return (f"{n_z} Zangle{'s are' if n_z != 1 else ' is'} possible: player {me} must build one "
                        f"(see the legal moves)")
            if kind == "draw":
                return ("player {} has drawn this turn already".format(me) if e.phase != "turn"
                        else "the middle pile is empty")
            return "player {} must draw a card first (pass only when nothing can be drawn)".format(me)
        # speed
        if kind in ("discard", "skip", "pass"):
            return f"'{kind}' is not a move of speed Zangle"
        if e.false_pending[me]:
            return f"player {me} must first take the false call's penalty (false_call)"
        if kind == "false_call":
            return f"player {me} has made no false call"
        if kind == "draw":
            return "the middle pile is empty"
        return None

    def _snapshot(self) -> Any:
        return self.engine.to_json()

    def _termination(self) -> str:
        e = self.engine
        if isinstance(e, SoloGame):
            return "tableau cleared" if e.outcome == "win" else "stuck"
        assert isinstance(e, RoundScoredGame)
        return "bonus round" if e.bonus is not None else "fewest points"

    def _winners(self, returns: tuple[float, ...]) -> tuple[int, ...]:
        e = self.engine
        if not isinstance(e, RoundScoredGame):
            return super()._winners(returns)
        return tuple(sorted(e.winners))  # a tie that no bonus round can break: several winners

    def observation_string(self, player: int) -> str:
        """The face-up cards and the sizes of the face-down piles (what every player sees)."""
        e = self.engine
        if isinstance(e, SoloGame):
            piles = " | ".join(f"{p[-1].id} (+{len(p) - 1})" if p else "-" for p in e.piles)
            return (f"middle: {' '.join(c.id for c in e.middle) or '-'}; draw pile {len(e.draw)}; "
                    f"piles: {piles}")
        lines = [f"middle: {' '.join(c.id for c in e.middle) or '-'}; middle pile {len(e.middle_pile)}"]
        for p in range(e.players):
            lines.append(f"player {p}: {' '.join(c.id for c in e.own[p]) or '-'}; own pile {len(e.own_pile[p])}")
        return "\n".join(lines)

    def __str__(self) -> str:
        e = self.engine
        if isinstance(e, SoloGame):
            return str(e)
        head = f"round {e.round_no + 1}" + (" (bonus)" if e.bonus is not None else "")
        if e.over:
            head = f"game over, winner(s) {', '.join(map(str, e.winners))}"
        else:
            head += f", player {e.current_player()} to move"
        totals = e.totals()
        return head + f"; points {totals}\n" + self.observation_string(0)

    def to_svg(self) -> str:
        return state_svg(self.engine)


class _ZangleGame(Game):
    setup_params: dict[str, Any] = {"deck": None}
    engine_class: type[ZangleEngine] = SoloGame

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        setup, opts = split_params(params, self.setup_params)
        self.setup = setup
        self.options = ZangleOptions.from_json(opts)
        deck = setup["deck"]
        self.deck: Deck = deck if isinstance(deck, Deck) else load_deck(deck) if deck else default_deck()

    def _kwargs(self) -> dict[str, Any]:
        return {k: v for k, v in self.setup.items() if k != "deck"}

    def _start(self, seed: int, start: Any) -> ZangleState:
        kw = self._kwargs()
        if start is not None:
            kw[self.start_key] = start
        try:
            engine = self.engine_class(seed=seed, options=self.options, deck=self.deck, **kw)
        except TanglekitError:
            raise
        except (AttributeError, TypeError, KeyError, ValueError, IndexError) as e:
            # a hand-edited or hostile state file: its start is not a position of this game
            raise FormatError(f"{self.name} state: not a valid start position ({type(e).__name__})") from None
        return ZangleState(self, engine, seed, start)

    start_key = "layout"

    def new_initial_state(self, seed: int | None = None) -> ZangleState:
        return self._start(int(seed or 0), None)

    def state_from_json(self, data: dict[str, Any]) -> ZangleState:
        return replay_from_json(self, data, self._start)


def zangle_codes(places: int) -> int:
    """Action ints below this bound, with at most ``places`` card places on the table."""
    return ZANGLE_BASE + (places - 1) + _PLACE_BITS * ((1 << places) - 1) + 1


class ZangleSolo(_ZangleGame):
    """Solo Zangle: clear the tableau (returns 1.0 for a win, 0.0 for a loss)."""

    name = "zangle-solo"
    terminations = ("tableau cleared", "stuck")

    def num_players(self) -> int:
        return 1

    def _meta(self) -> GameMeta:
        # The seeded deal: DRAW_PILE cards (MIDDLE of them face up) and piles of 1..p cards.
        # Every Zangle takes at least two cards out of play, a "skip" follows a Zangle, a discard
        # uses up at least one of the DRAW_PILE - MIDDLE face-down draw cards, and a fill moves a
        # card from height >= 1 of its pile to height 0 (heights never grow), so fills are at
        # most the sum of the heights at the start: p(p+1)(p-1)/6.
        p = self.options.piles
        cards = DRAW_PILE + p * (p + 1) // 2
        length = 2 * (cards // 2) + (DRAW_PILE - SOLO_MIDDLE) + (p - 1) * p * (p + 1) // 6
        return GameMeta(
            name=self.name, num_players=1, num_distinct_actions=zangle_codes(SOLO_MIDDLE + p),
            max_game_length=length, utility=Utility.GENERAL_SUM, min_utility=0.0, max_utility=1.0,
            chance_mode=ChanceMode.SAMPLED, information=Information.IMPERFECT, terminations=self.terminations,
            length_bound="rules: each Zangle takes 2+ cards, a skip follows a Zangle, a discard uses a draw "
                         "card, a fill lowers a card in its pile")

    def new_initial_state_from(self, instance: Any) -> ZangleState:
        """From a solo layout ``{"middle": [ids], "draw": [ids], "piles": [[ids], ...]}`` (or any
        object with those attributes, like a solver ``SoloDeal``)."""
        if not isinstance(instance, dict):
            try:
                instance = {k: list(getattr(instance, k)) for k in ("middle", "draw")} | {
                    "piles": [list(p) for p in instance.piles]}
            except AttributeError:
                raise FormatError("a Zangle solo instance needs middle, draw and piles") from None
        layout = {"middle": [_cid(c) for c in instance.get("middle", [])],
                  "draw": [_cid(c) for c in instance.get("draw", [])],
                  "piles": [[_cid(c) for c in p] for p in instance.get("piles", [])]}
        return self._start(0, layout)


def _round_meta(game: _ZangleGame, n: int, length: int, how: str) -> GameMeta:
    """Metadata of the turn and speed games: a Zangle's places are the middle and the player's
    own face-up cards, at most every card of the deck and at most the finder's MAX_CARDS."""
    return GameMeta(
        name=game.name, num_players=n, num_distinct_actions=zangle_codes(min(len(game.deck), MAX_CARDS)),
        max_game_length=length, utility=Utility.GENERAL_SUM, min_utility=-1.0, max_utility=1.0,
        chance_mode=ChanceMode.SAMPLED, information=Information.IMPERFECT, terminations=game.terminations,
        length_bound=how)


def _cid(c: Any) -> str:
    return c.id if isinstance(c, Card) else str(c)


class ZangleTurn(_ZangleGame):
    """Turn-based Zangle: 3 rounds, fewest points wins (returns +1 winners, -1 others)."""

    name = "zangle-turn"
    setup_params = {"deck": None, "players": 2, "rounds": 3}
    engine_class = TurnGame
    start_key = "position"
    terminations = ("fewest points", "bonus round")

    def num_players(self) -> int:
        return int(self.setup["players"])

    def _meta(self) -> GameMeta:
        # A turn is at most 2 actions (draw, then Zangle or pass) and a round ends after
        # max_turns turns (the engine's cap). With stalemate_end the rules bound a round too:
        # at most D turns draw (D = cards in the deck), at most Z = D // 2 turns build a Zangle
        # (each takes 2+ cards), and the other turns pass with the middle pile empty: fewer than
        # one cycle (n turns) of them in a row, or the round ends, so at most (Z + 1) * n.
        # Rounds: `rounds` plus one bonus round on a tie.
        n, deck = self.num_players(), len(self.deck)
        per_round = 2 * self.options.max_turns
        how = f"engine cap: max_turns={self.options.max_turns} turns of <= 2 actions per round"
        if self.options.stalemate_end:
            rules = 2 * deck + deck // 2 + (deck // 2 + 1) * n
            if rules < per_round:
                per_round, how = rules, "rules: draws <= deck, Zangles <= deck/2, < n passes in a row"
        rounds = int(self.setup["rounds"]) + 1
        return _round_meta(self, n, rounds * per_round, f"{how}; {rounds - 1} rounds + a bonus round")

    def new_initial_state_from(self, instance: Any) -> ZangleState:
        """From a deal (a ``Deal`` or deal-file JSON: ``own`` is player 0, then ``others``); the
        first round starts there, later rounds are shuffled from seed 0."""
        data = instance.to_json() if hasattr(instance, "to_json") else instance
        if not isinstance(data, dict):
            raise FormatError("a Zangle turn instance is a deal (JSON object)")
        players = 1 + len(data.get("others", []))
        if players != self.num_players():
            raise RuleError(f"this deal has {players} players, the game {self.num_players()}")
        return self._start(0, data)


class ZangleSpeed(_ZangleGame):
    """Speed Zangle with simulated finding times (5 rounds; returns +1 winners, -1 others)."""

    name = "zangle-speed"
    setup_params = {"deck": None, "players": 2, "rounds": 5, "skills": None, "model": None}
    engine_class = SpeedGame
    terminations = ("fewest points", "bonus round")

    def num_players(self) -> int:
        return int(self.setup["players"])

    def _meta(self) -> GameMeta:
        # "wait" is always legal, so only the engine's cap ends a round of waiting: a round ends
        # after max_turns events (actions); `rounds` rounds plus one bonus round on a tie.
        rounds = int(self.setup["rounds"]) + 1
        return _round_meta(self, self.num_players(), rounds * self.options.max_turns,
                           f"engine cap: max_turns={self.options.max_turns} actions per round; "
                           f"{rounds - 1} rounds + a bonus round")

    def _kwargs(self) -> dict[str, Any]:
        return {k: v for k, v in self.setup.items() if k != "deck" and v is not None}

    def new_initial_state_from(self, instance: Any) -> ZangleState:
        raise RuleError("the speed game deals from its seed only (use new_initial_state(seed))")

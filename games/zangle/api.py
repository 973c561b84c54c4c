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

from ...errors import FormatError, RuleError, TanglekitError
from ..api import ChanceMode, EngineState, Game, GameMeta, Information, Utility, replay_from_json, split_params
from .cards import Card, Deck, default_deck, load_deck
from .engine import Action, GameState, RoundScoredGame
from .rules import ZangleOptions
from .solo import DRAW_PILE, MIDDLE as SOLO_MIDDLE, SoloGame
from .speed import SpeedGame
from .turn import MIDDLE as TURN_MIDDLE, TurnGame

SIMPLE = {"draw": 0, "pass": 1, "discard": 2, "skip": 3, "wait": 4, "false_call": 5}
SIMPLE_NAMES = {v: k for k, v in SIMPLE.items()}
FILL_BASE = 16
ZANGLE_BASE = 1024
_PLACE_BITS = 128


class ZangleState(EngineState):
    """A Zangle game (the engine is a ``SoloGame``, ``TurnGame`` or ``SpeedGame``)."""

    engine: GameState

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
        cache = getattr(self, "_table_cache", None)
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

    def _copy_engine(self, engine: GameState) -> GameState:
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
                rest = [c for c in used if c is not places[t]]
                return str(Action("zangle", places[t].id, tuple(c.id for c in rest if not c.is_z),
                                  tuple(c.id for c in rest if c.is_z)))
        raise RuleError(f"no such Zangle action here: {action}")

    def string_to_action(self, text: str) -> int:
        """The legal action written ``text``; a Zangle's cards may be listed in any order."""
        words = " ".join(str(text).split())
        if not words.lower().startswith("zangle "):
            return super().string_to_action(words)
        target, _, rest = words[len("zangle "):].partition("<=")
        want = (target.strip(), frozenset(c.strip() for c in rest.split("+") if c.strip()))
        for k, a in self._table().items():
            if a.kind == "zangle" and (a.target, frozenset((*a.pieces, *a.z))) == want:
                return k
        raise RuleError(f"no legal Zangle {text!r} now")

    def _snapshot(self):
        return self.engine.to_json()

    def _termination(self) -> str:
        e = self.engine
        if isinstance(e, SoloGame):
            return "tableau cleared" if e.outcome == "win" else "stuck"
        assert isinstance(e, RoundScoredGame)
        return "bonus round" if e.bonus is not None else "fewest points"

    def _winners(self, returns) -> tuple[int, ...]:
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
        from .svg import state_svg

        return state_svg(self.engine)


class _ZangleGame(Game):
    setup_params: dict = {"deck": None}
    engine_class: type = SoloGame

    def __init__(self, **params):
        super().__init__(**params)
        setup, opts = split_params(params, self.setup_params)
        self.setup = setup
        self.options = ZangleOptions.from_json(opts)
        deck = setup["deck"]
        self.deck: Deck = deck if isinstance(deck, Deck) else load_deck(deck) if deck else default_deck()

    def _kwargs(self) -> dict:
        return {k: v for k, v in self.setup.items() if k != "deck"}

    def _start(self, seed: int, start) -> ZangleState:
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

    def state_from_json(self, data: dict) -> ZangleState:
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

    def new_initial_state_from(self, instance) -> ZangleState:
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
    from .moves import MAX_CARDS

    return GameMeta(
        name=game.name, num_players=n, num_distinct_actions=zangle_codes(min(len(game.deck), MAX_CARDS)),
        max_game_length=length, utility=Utility.GENERAL_SUM, min_utility=-1.0, max_utility=1.0,
        chance_mode=ChanceMode.SAMPLED, information=Information.IMPERFECT, terminations=game.terminations,
        length_bound=how)


def _cid(c) -> str:
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

    def new_initial_state_from(self, instance) -> ZangleState:
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

    def _kwargs(self) -> dict:
        return {k: v for k, v in self.setup.items() if k != "deck" and v is not None}

    def new_initial_state_from(self, instance) -> ZangleState:
        raise RuleError("the speed game deals from its seed only (use new_initial_state(seed))")

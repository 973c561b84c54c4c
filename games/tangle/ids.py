"""Tangle's part of the shareable IDs: the set-up as PARAMS and a position as its move list.

PARAMS (``key=value``, comma-separated) name everything that changes the game: ``players``,
``board`` and ``pieces`` (a built-in name, or ``z.`` followed by the file's JSON compressed with
zlib in URL-safe base 64, so a custom board or piece set round-trips too) and every rule option
that is not at its default. The puzzle generator adds its own parameters (``min_points``,
``min_chain``, ``hard``). The description of a position is its move log: placement indices in
base 36 joined by ``.``, ``-`` for a pass (``.`` alone for no move).
"""

from __future__ import annotations

import base64
import json
import re
import zlib

from ...errors import FormatError, RuleError
from ...jsonio import is_ascii_digits
from .board import DATA, load_board, load_pieces
from .engine import PASS, TangleGame, TangleState, cached_game
from .rules import TangleOptions

_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"
INLINE = "z."  # prefix of an inline (compressed) board or piece set; built-in names have no '.'
MAX_INLINE = 20_000  # characters of one inline file in an ID
SETUP_KEYS = ("players", "board", "pieces")


def b36(n: int) -> str:
    """A placement index in base 36 (``-`` for a pass)."""
    if n == PASS:
        return "-"
    s = ""
    while True:
        n, r = divmod(n, 36)
        s = _B36[r] + s
        if n == 0:
            return s


def encode_moves(moves: list[int]) -> str:
    return ".".join(b36(p) for p in moves) or "."


def _inline(data: dict) -> str:
    raw = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    return INLINE + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def _from_inline(text: str, what: str) -> dict:
    body = text[len(INLINE):]
    if len(body) > MAX_INLINE:
        raise FormatError(f"the inline {what} in the ID is longer than {MAX_INLINE} characters")
    try:
        raw = zlib.decompressobj().decompress(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)), 1 << 20)
        data = json.loads(raw)
    except (ValueError, zlib.error):
        raise FormatError(f"the inline {what} in the ID is damaged (not compressed JSON)") from None
    if not isinstance(data, dict):
        raise FormatError(f"the inline {what} in the ID is not a JSON object")
    return data


def setup_params(game: TangleGame) -> list[str]:
    """``key=value`` parts naming the game's players, board, pieces and non-default options."""
    spec = game.spec()
    parts = [f"players={game.n_players}"]
    for what in ("board", "pieces"):
        v = spec[what]
        parts.append(f"{what}={v if isinstance(v, str) else _inline(v)}")
    default = TangleOptions().to_json()
    for k, v in game.options.to_json().items():
        if default[k] != v:
            parts.append(f"{k}={'on' if v is True else 'off' if v is False else v}")
    return parts


def game_from_params(values: dict[str, str]) -> TangleGame:
    """The game named by PARAMS values (setup keys and rule options; other keys already removed)."""
    kv = dict(values)
    players_text = kv.pop("players", "2")
    if not is_ascii_digits(players_text) or len(players_text) > 2 or not 2 <= int(players_text) <= 4:
        raise FormatError(f"players must be 2, 3 or 4, not {players_text[:10]!r}")
    spec = {"players": int(players_text)}
    for what, loader, suffix in (("board", load_board, "board"), ("pieces", load_pieces, "pieces")):
        v = kv.pop(what, "tangle-default")
        if v.startswith(INLINE):
            spec[what] = loader(_from_inline(v, what)).to_json()
        elif re.fullmatch(r"[A-Za-z0-9_\-]+", v) and (DATA / f"{v}.{suffix}.json").is_file():
            spec[what] = v
        else:
            raise FormatError(f"{what} {v[:40]!r} is not a built-in {what} (IDs name built-in data or carry it inline)")
    try:
        options = TangleOptions.from_dict(kv)
    except RuleError as e:
        raise FormatError(str(e)) from None
    spec["options"] = options.to_json()
    return cached_game(spec)


def position_from_moves(game: TangleGame, text: str) -> TangleState:
    """Replay a description (base-36 placement indices); FormatError naming a bad or illegal move."""
    s = game.new_state()
    if text != "." and not re.fullmatch(r"[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*", text):
        raise FormatError("the ID's moves must be base-36 placement indices or '-' joined by '.' "
                          "('.' alone for none), with no empty one")
    for n, tok in enumerate((t for t in text.split(".") if t), 1):
        if len(tok) > 8 or not all(c in _B36 for c in tok.lower()) and tok != "-":
            raise FormatError(f"move {n} of the ID ({tok[:10]!r}) is not a base-36 placement index or '-'")
        p = PASS if tok == "-" else int(tok, 36)
        if p != PASS and p >= game.n_placements:
            raise FormatError(f"move {n} of the ID ({tok!r}) names no placement of this board")
        if not s.is_legal(p):
            raise FormatError(f"move {n} of the ID ({tok!r}) is illegal in its position")
        s._apply(p)
    return s

"""The one registry of games: a :class:`GamePlugin` per game family is the only per-game entry point.

A plugin lives beside its game (``games/<family>/plugin.py`` defines ``PLUGIN``) and is found
there by :func:`plugins`; a game defined elsewhere (a test's toy game, a third-party package)
calls :func:`register_plugin`. Everything outside a game's own package (the CLI, play sessions,
bots, ``match``, IDs, the web app, the demo) reaches the game only through its plugin and the
common game API (``games/api.py``), never by its name or its engine.

A plugin module must stay cheap to import (``tanglekit --help`` lists the games' command groups):
its methods import the game's heavy modules when they are called.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, cast

from ..errors import BotError, FormatError, RuleError

if TYPE_CHECKING:  # types only: the generic play layer sits above this module
    from ..generators.ids import Instance, ParsedId
    from ..play.bots import Bot, Hint
    from ..play.start import Start
    from .api import Game, State

__all__ = ["BotSpec", "GamePlugin", "Picture", "bot_table", "family_of", "game_names", "load_game", "plugin",
           "plugin_of", "plugins", "register_plugin", "unregister_plugin"]


@dataclass(frozen=True)
class BotSpec:
    """One bot strength of a game: a line saying how it plays, and ``make(seed) -> Bot``."""

    description: str
    make: Callable[[int], "Bot"]


@dataclass
class Picture:
    """What a play page draws for a state: the SVG (or HTML) with hot spots (elements carrying
    ``data-action``), the actions the hot spots cover (no button is drawn for those), and
    game-specific view fields the page's generic widgets read (``places``, ``sides``, ...)."""

    svg: str
    hot: set[int] = field(default_factory=set)
    extra: dict[str, Any] = field(default_factory=dict)
    #: per action, extra fields for its button (e.g. the board sides a placement covers)
    button_extra: Callable[[int], dict[str, Any]] | None = None


class GamePlugin:
    """A game family (one rulebook): its API games, bots, IDs, starts, pictures, pages and CLI.

    Subclasses set the class attributes and override the methods their game has; the defaults
    say "this game has none" (no IDs, no hint, plain picture...)."""

    #: the family name: ID prefix (``qango:...``) and CLI command group (``tanglekit qango``)
    family: str = ""
    #: the game's name as printed (``QANGO``)
    title: str = ""
    #: place in listings (built-in games 10, 20, ...)
    order: int = 100
    #: API game name -> the ``Game`` subclass or ``"module:Class"`` (imported on first use)
    games: "dict[str, type[Game] | str]" = {}
    #: ``"module:app"`` of the game's typer command group, or None
    cli: str | None = None
    #: whether the game has shareable IDs (``family:params:description`` and ``family:params#seed``)
    has_ids: bool = False
    #: instance kind -> its title in messages ("QANGO puzzle")
    kinds: dict[str, str] = {}
    #: the one instance kind every ID of this game stands for (None: several kinds)
    one_kind: str | None = None
    #: instance kinds an ID or file of this game may start a play session from
    playable_kinds: tuple[str, ...] = ()
    #: format tags of instance files that start a play session
    file_formats: tuple[str, ...] = ()
    #: the web app's check page (a deal or position entered by clicking), or None
    check_page: str | None = None
    #: generators linked from the web app's index: dicts with generator, title, choices, id
    web_generators: tuple[dict[str, Any], ...] = ()
    #: where the plugin's functions live, imported on first call (a plugin module stays cheap):
    #: hook name (``bots``, ``hint``, ``resolve_id``, ``check``, ``draw``, ``check_data``) ->
    #: ``"module:function"``, the module relative to the plugin's package
    hooks: dict[str, str] = {}

    def _hook(self, name: str) -> Callable[..., Any] | None:
        """The function of hook ``name`` (None when the game has none)."""
        where = self.hooks.get(name)
        if where is None:
            return None
        module, attr = where.split(":")
        package = type(self).__module__.rsplit(".", 1)[0]
        fn: Callable[..., Any] = getattr(importlib.import_module(module, package), attr)
        return fn

    # -- bots ------------------------------------------------------------------------------
    def bots(self, game_name: str) -> dict[str, BotSpec]:
        """The bot strengths of ``game_name``, weakest first (none: ``random`` and ``strong`` both
        play a random legal action)."""
        fn = self._hook("bots")
        return {} if fn is None else cast("dict[str, BotSpec]", fn(game_name))

    def hint(self, state: "State") -> "Hint | None":
        """The next move of a winning line with why, or None to fall back on the strongest bot."""
        fn = self._hook("hint")
        return None if fn is None else cast("Hint | None", fn(state))

    # -- IDs and starts ---------------------------------------------------------------------
    def resolve_id(self, parsed: "ParsedId") -> "Instance":
        """The instance an ID of this game stands for (``FormatError`` if it stands for none)."""
        fn = self._hook("resolve_id")
        if fn is None:
            raise FormatError(f"{self.family} has no shareable IDs")
        return cast("Instance", fn(parsed))

    def start(self, inst: "Instance", spec: str, params: dict[str, Any]) -> "Start":
        """A play session's start from an instance of one of ``playable_kinds``."""
        raise RuleError(f"{inst.kind} cannot be played")

    def start_from_file(self, data: Any, where: str, spec: str) -> "Start":
        """A play session's start from an instance file of one of ``file_formats``."""
        raise FormatError(f"{where}: not a file a {self.family} game starts from")

    def load_formats(self) -> None:
        """Import the modules that register this game's file formats (``jsonio.register_format``)."""

    def turn_points(self, initial: "State", state: "State", player: int) -> int:
        """Points ``player`` scored between ``initial`` and ``state`` (one-turn puzzles)."""
        return 0

    # -- pictures and pages ------------------------------------------------------------------
    def picture(self, state: "State", legal: list[int], humans: list[int]) -> Picture:
        """The play page's picture of ``state`` with hot spots for the ``legal`` actions of a
        person (``humans``: the seats people play)."""
        return Picture(state.to_svg())

    def check(self, body: Any) -> dict[str, Any]:
        """The check page's answer for a deal or position entered by clicking."""
        fn = self._hook("check")
        if fn is None:
            raise RuleError(f"no check page for {self.family}")
        return cast("dict[str, Any]", fn(body))

    def draw(self, body: Any) -> dict[str, Any]:
        """The check page's picture of what is being entered (every cell clickable)."""
        fn = self._hook("draw")
        if fn is None:
            raise RuleError(f"no picture for {self.family}")
        return cast("dict[str, Any]", fn(body))

    def check_data(self) -> dict[str, Any]:
        """Whatever the check page loads before the first answer (a deck of cards...)."""
        fn = self._hook("check_data")
        return {} if fn is None else cast("dict[str, Any]", fn())

    # -- CLI ----------------------------------------------------------------------------------
    def demo(self, out: str, seed: int) -> list[list[str]]:
        """``tanglekit demo``'s steps for this game: argv lists, writing into folder ``out``."""
        return []

    def __repr__(self) -> str:
        return f"<{self.family} plugin: {', '.join(self.games)}>"


# -- the registry --------------------------------------------------------------------------------
_PLUGINS: dict[str, GamePlugin] = {}
# API game name -> its Game subclass, or "module:Class" (relative to this package) until first use
_GAMES: "dict[str, type[Game] | str]" = {}
_FOUND = False


def register_plugin(p: GamePlugin) -> GamePlugin:
    """Add a game family (replacing one of the same name) and its games to the registry."""
    if not p.family or not p.family.replace("-", "").isalnum() or not p.family.islower():
        raise RuleError(f"a plugin's family is a lower-case word, not {p.family!r}")
    for name in p.games:
        if name != p.family and not name.startswith(p.family + "-"):
            raise RuleError(f"game {name!r} of plugin {p.family!r} must be named {p.family} or {p.family}-...")
    _discover()
    unregister_plugin(p.family)
    _PLUGINS[p.family] = p
    _GAMES.update(p.games)
    return p


def unregister_plugin(family: str) -> None:
    """Remove a game family and its games (tests' toy games clean up after themselves)."""
    p = _PLUGINS.pop(family, None)
    for name in p.games if p is not None else ():
        _GAMES.pop(name, None)


def _discover() -> None:
    """Register the plugin of every game package beside this module (``<package>/plugin.py``)."""
    global _FOUND
    if _FOUND:
        return
    _FOUND = True
    from . import __path__ as here  # start-up: the plugin module stays cheap to import

    found: list[GamePlugin] = []
    for info in pkgutil.iter_modules(list(here)):
        name = f"{__package__}.{info.name}.plugin"
        if info.ispkg and importlib.util.find_spec(name) is not None:
            found.append(importlib.import_module(name).PLUGIN)
    for p in sorted(found, key=lambda p: (p.order, p.family)):
        register_plugin(p)


def plugins() -> list[GamePlugin]:
    """Every registered game family, in listing order."""
    _discover()
    return sorted(_PLUGINS.values(), key=lambda p: (p.order, p.family))


def plugin(family: str) -> GamePlugin:
    """The plugin of a family name (``FormatError`` listing the families if there is none)."""
    _discover()
    p = _PLUGINS.get(family)
    if p is None:
        raise FormatError(f"unknown game {family!r}: expected one of {', '.join(q.family for q in plugins())}")
    return p


def game_names() -> list[str]:
    """Names of every registered API game, in listing order."""
    return [name for p in plugins() for name in p.games]


def family_of(game_name: str) -> str | None:
    """The family of an API game name (None if no plugin has it)."""
    _discover()
    return next((p.family for p in _PLUGINS.values() if game_name in p.games), None)


def plugin_of(game_name: str) -> GamePlugin:
    """The plugin of an API game name (``RuleError`` listing the games if unknown)."""
    fam = family_of(game_name)
    if fam is None:
        raise RuleError(f"unknown game {game_name!r}: expected one of {', '.join(game_names())}")
    return _PLUGINS[fam]


def load_game(name: str, **params: Any) -> "Game":
    """The game ``name`` (see ``game_names()``) with rule options / set-up ``params``."""
    _discover()
    factory = _GAMES.get(name)
    if factory is None:
        raise RuleError(f"unknown game {name!r}: expected one of {', '.join(game_names())}")
    if isinstance(factory, str):
        module, attr = factory.split(":")
        cls: type[Game] = getattr(importlib.import_module(module, __package__), attr)
        _GAMES[name] = factory = cls
    return factory(**params)


def bot_table(game_name: str) -> dict[str, BotSpec]:
    """The bots of ``game_name`` (``BotError`` if the game is unknown)."""
    fam = family_of(game_name)
    if fam is None:
        raise BotError(f"unknown game {game_name!r}: expected one of {', '.join(game_names())}")
    return _PLUGINS[fam].bots(game_name)

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
import importlib.resources
import importlib.util
import pkgutil
import re
from dataclasses import dataclass, field, fields, is_dataclass
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
    #: the file beside the plugin module with the game's rules for its pages' rules panel
    #: (markdown; ``## Section {game-a game-b}`` limits a section to those API games), or None
    rules_doc: str | None = None
    #: a line saying what the game is about, for the rules panel of a game with no ``rules_doc``
    summary: str = ""

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

    # -- the rules panel -------------------------------------------------------------------------
    def rule_options(self, game: "Game") -> Any:
        """The rule options in force in ``game`` (an options dataclass made with
        ``games.options.option``), or None when the game has none."""
        return getattr(game, "options", None)

    def rules_text(self) -> str:
        """The game's rules as its pages show them (markdown), or "" when it ships none."""
        if self.rules_doc is None:
            return ""
        package = type(self).__module__.rsplit(".", 1)[0]
        return importlib.resources.files(package).joinpath(self.rules_doc).read_text(encoding="utf-8")

    def rules(self, game: "Game | None" = None, goal: str = "") -> dict[str, Any]:
        """The rules panel of a play or check page: ``title``, ``summary`` (markdown), the
        ``sections`` of ``rules_doc`` that apply to ``game`` (``title`` and markdown ``text``),
        the rule ``options`` in force in ``game`` (name, value, default, values, meaning) and the
        ``anchor`` of the game's part of docs/rules.md. ``game``: the game a page shows (None: the
        family's first game with default options); ``goal``: the goal of the position shown."""
        if game is None:
            game = load_game(next(iter(self.games)))
        summary, sections = parse_rules(self.rules_text(), game.name)
        if not summary and not sections:  # a game that ships no rules: its title and goal
            doc = (type(game).__doc__ or "").strip().split("\n\n")[0]
            summary = self.summary or " ".join(doc.replace("``", "`").split()) or f"{self.title or self.family}."
        if goal:
            sections.insert(0, {"title": "Goal", "text": goal})
        return {"family": self.family, "game": game.name, "title": self.title or self.family, "summary": summary,
                "sections": sections, "options": option_rows(self.rule_options(game)),
                "anchor": slug(self.title or self.family)}

    # -- CLI ----------------------------------------------------------------------------------
    def demo(self, out: str, seed: int) -> list[list[str]]:
        """``tanglekit demo``'s steps for this game: argv lists, writing into folder ``out``."""
        return []

    def __repr__(self) -> str:
        return f"<{self.family} plugin: {', '.join(self.games)}>"


# -- the rules panel's pieces ---------------------------------------------------------------------
_SECTION = re.compile(r"^##\s+(.*?)\s*(?:\{([a-z0-9 ,-]*)\})?\s*$")


def parse_rules(text: str, game_name: str) -> tuple[str, list[dict[str, str]]]:
    """A rules document split into its summary (the text before the first ``## `` heading, the
    ``# `` title left out) and its ``## `` sections that apply to ``game_name`` (a heading ending
    in ``{game-a game-b}`` applies to those games only, any other to every game)."""
    summary: list[str] = []
    sections: list[dict[str, Any]] = []
    for line in text.splitlines():
        m = _SECTION.match(line)
        if m:
            games = (m.group(2) or "").replace(",", " ").split()
            sections.append({"title": m.group(1), "lines": [], "for": games})
        elif sections:
            sections[-1]["lines"].append(line)
        elif not line.startswith("# "):
            summary.append(line)
    out = [{"title": s["title"], "text": "\n".join(s["lines"]).strip()}
           for s in sections if not s["for"] or game_name in s["for"]]
    return "\n".join(summary).strip(), out


def _shown(value: Any, shown: str | None = None) -> str:
    """An option value as the docs write it: ``on``/``off``, ``shown`` for None, else its text."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return shown or "none"
    return str(value)


def option_rows(options: Any) -> list[dict[str, Any]]:
    """One row per declared rule option of ``options`` (a dataclass whose fields are made with
    ``games.options.option``): ``name``, ``value`` and ``default`` as written (on/off...), their
    JSON values ``json`` and ``default_json``, the allowed ``values``, the one-line ``meaning``,
    whether it is ``changed`` from its default and whether it is a safety ``cap`` (not a rule)."""
    if options is None or not is_dataclass(options):
        return []
    rows: list[dict[str, Any]] = []
    for f in fields(options):
        meta = f.metadata
        if "doc" not in meta:
            continue
        value, default = getattr(options, f.name), f.default
        if meta.get("choices"):
            values = ", ".join(map(str, meta["choices"]))
        elif isinstance(default, bool):
            values = "on, off"
        elif meta.get("minimum") is not None:
            lo, hi = meta["minimum"], meta.get("maximum")
            values = f"{lo:,} to {hi:,}" if hi is not None else f"from {lo:,}"
        else:
            values = ""
        rows.append({"name": f.name, "value": _shown(value, meta.get("shown")),
                     "default": _shown(default, meta.get("shown")), "json": value, "default_json": default,
                     "values": values, "meaning": meta["doc"], "changed": value != default,
                     "cap": not meta.get("rulebook", True)})
    return rows


def slug(title: str) -> str:
    """A heading's anchor as GitHub makes it (lower case, punctuation dropped, spaces to ``-``)."""
    text = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return text.replace(" ", "-")


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

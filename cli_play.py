"""`tanglekit play`, `match`, `replay` and `bots`: every game through the common game API.

Imports only typer at load time; the library is loaded inside the commands.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from .cli_common import parse_options, print_json, progress, write_text
from .errors import FormatError
from .jsonio import check_text_arg, is_ascii_digits, short
from .limits import check_count, check_number

_OPTION_HELP = "Rule option or set-up value NAME=VALUE (repeatable), e.g. players=3, board=7."


def _params(pairs) -> dict:
    """--option pairs; whole numbers become ints (players=3), everything else stays text."""
    out = {}
    for k, v in parse_options(pairs).items():
        if len(k) > 40:
            raise FormatError(f"--option {k[:40]}...: an option name is a short word")
        check_text_arg(v, f"--option {k[:40]}", 10_000)
        out[k] = int(v) if is_ascii_digits(v, signed=True) and len(v) <= 18 else v
    return out


def _split(values: Optional[List[str]]) -> list[str]:
    out: list[str] = []
    for v in values or []:
        out += [x.strip() for x in v.split(",") if x.strip()]
    if len(out) > 64 or any(len(x) > 40 for x in out):
        raise FormatError("bots: at most 64 seats, each a short bot name (see `tanglekit bots`)")
    return out


def play(
    game: str = typer.Argument(..., help="A game (see `tanglekit bots`), a challenge/puzzle ID, or a state or log file."),
    bots: Optional[List[str]] = typer.Option(None, "--bots", help="Seats in order: human or a bot strength, comma-separated (the last repeats)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the deal, chance and bots."),
    log: Optional[Path] = typer.Option(None, "--log", help="Write the move log as JSON (replay it with `tanglekit replay`)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=_OPTION_HELP),
    max_list: int = typer.Option(30, "--list", help="How many numbered moves to show each turn."),
    as_json: bool = typer.Option(False, "--json", help="Print the move log as JSON at the end (and no board)."),
) -> None:
    """Play any game in the terminal: a drawn board, numbered moves or the game's notation,
    `undo`, `hint`, `moves`, `quit`. Example: tanglekit play qango --bots human,strong."""
    from .play.session import PlaySession, default_seats  # start-up: loaded when the command runs
    from .play.start import resolve_start  # start-up: loaded when the command runs

    seed = check_number("--seed", seed, minimum=0, maximum=2**63 - 1, integer=True, allow_none=False)
    max_list = check_count(max_list, "--list", maximum=10_000)
    start = resolve_start(game, _params(option), seed)
    seats = default_seats(start, _split(bots))
    run_session(PlaySession(start, seats, seed, max_list=max_list), log, as_json)


def run_session(s, log: Optional[Path] = None, as_json: bool = False) -> None:
    """Drive a PlaySession on stdin/stdout to the end (or 'quit' / end of input); the per-game
    play commands call this too."""
    start, max_list = s.start, s.max_list
    say = (lambda *a, **k: None) if as_json else typer.echo
    if start.goal:
        say(f"goal: {start.goal}" + (f" ({start.optimum_note}: {start.optimum})" if start.optimum is not None else ""))
    say(f"{start.game}: " + ", ".join(f"player {i} {n}" for i, n in enumerate(s.seats)))
    for line in s.advance():
        say(line)
    while not s.finished() and not s.done:
        typer.echo(s.board())
        typer.echo(s.moves_text(max_list))
        typer.echo(s.prompt() + "> ", nl=False)
        try:
            text = input()
        except EOFError:
            typer.echo("")
            break
        for line in s.handle(text):
            typer.echo(line)
    if not as_json:
        typer.echo(s.board())
        typer.echo(s.result() if s.finished() else "game left unfinished")
    if log is not None:
        write_text(log, json.dumps(s.log(), indent=1), "log")
    if as_json:
        d = s.log()
        d["result"] = s.result() if s.finished() else None
        print_json(d)


def match(
    game: str = typer.Argument(..., help="Game name (see `tanglekit bots`)."),
    bots: List[str] = typer.Argument(..., help="Bot strengths, one per seat (the last repeats to fill)."),
    games: int = typer.Option(10, "--games", help="Number of games (seats rotate; each block of games shares a deal)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the deals, chance and bots."),
    fixed: bool = typer.Option(False, "--fixed-seats", help="Keep bot i on seat i in every game (no rotation)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=_OPTION_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print {game, bots, games, wins, losses, draws, mean_returns, ...}."),
) -> None:
    """Bot against bot over N seeded games: wins, draws and mean returns per bot.
    Example: tanglekit match qango strong random --games 20 --json."""
    from .games import game_names  # start-up: loaded when the command runs
    from .play.match import run_match  # start-up: loaded when the command runs

    games = check_count(games, "--games", maximum=100_000)
    seed = check_number("--seed", seed, minimum=0, maximum=2**63 - 1, integer=True, allow_none=False)
    if game not in game_names():
        raise FormatError(f"unknown game {short(game)} (games: {', '.join(game_names())})")
    with progress(games, f"{game}: {' v '.join(bots)}", enabled=not as_json) as advance:
        res = run_match(game, _split(bots), games, seed, _params(option), rotate=not fixed, progress=advance)
    if as_json:
        print_json(res.to_json())
    else:
        typer.echo(res.text())


def replay(
    log: Path = typer.Argument(..., help="A move log written by `tanglekit play --log`."),
    as_json: bool = typer.Option(False, "--json", help="Print {game, moves, over, returns}."),
) -> None:
    """Replay a play log, checking every move with the engine; prints the final position."""
    from .play.start import read_log, replay_log  # start-up: loaded when the command runs

    data, where = read_log(str(log))
    st = replay_log(data, where)
    over = st.is_terminal()
    out = {"game": data.get("game"), "moves": len(data.get("moves") or []), "over": over,
           "returns": st.returns() if over else None}
    if as_json:
        print_json(out)
        return
    typer.echo(str(st))
    typer.echo(f"{out['moves']} moves replayed, all legal; " + (f"game over: {_verdict(st)}" if over else "game not over"))


def _verdict(st) -> str:
    """The end in words (players from 0), not the returns vector: winners, or the game's own
    sentence (Zinga: who won and why, who is out and why)."""
    if hasattr(st, "outcome_text"):
        return st.outcome_text()
    from .play.match import is_cooperative, winners_of  # start-up: loaded when the command runs

    w = winners_of(st.returns(), is_cooperative(st.get_game()))
    if st.num_players() == 1 or is_cooperative(st.get_game()):
        return "won" if w else "lost"
    return "a draw" if not w else "winner: " + ", ".join(f"player {p}" for p in w)


def bots_cmd(
    game: Optional[str] = typer.Argument(None, help="A game name (default: every game)."),
    as_json: bool = typer.Option(False, "--json", help="Print {game: {strength: description}}."),
) -> None:
    """The games and their bot strengths. Example: tanglekit bots qango."""
    from .games import game_names  # start-up: loaded when the command runs
    from .play.bots import strengths  # start-up: loaded when the command runs

    names = [game] if game else game_names()
    table = {g: strengths(g) for g in names}
    if as_json:
        print_json(table if game is None else table[game])
        return
    for g, t in table.items():
        typer.echo(g)
        for k, d in t.items():
            typer.echo(f"  {k:12} {d}")


def register(app: typer.Typer) -> None:
    """Add the commands to the root app."""
    app.command("play")(play)
    app.command("match")(match)
    app.command("replay")(replay)
    app.command("bots")(bots_cmd)

"""Write the example files that README.md and docs/*.md name (`examples/...`), made by the library
from fixed seeds: `python examples/make_examples.py` (from the repository root, tanglekit
installed). tests/test_docs_commands.py checks that the shipped files equal what this writes.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _cli(*args: str) -> str:
    """Run a tanglekit command in-process and return its stdout (exit code 0 asserted)."""
    import contextlib
    import io

    from tanglekit.cli import app
    from tanglekit.cli_common import execute

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = execute(app, list(args))
    if code != 0:
        raise SystemExit(f"tanglekit {' '.join(args)} failed with exit code {code}")
    return out.getvalue()


def zangle_deal() -> dict:
    """A three-player turn-game table (first round) where every player can go out."""
    return json.loads(_cli("zangle", "turn", "generate", "--players", "3", "--seed", "1",
                           "--property", "all_can_go_out"))


def zangle_solo() -> dict:
    """A winnable solo deal (the README's doctest deal, seed 2), as a solo deal file."""
    from tanglekit.games.zangle.solo_search import SoloDeal

    return SoloDeal.from_seed(2).to_json()


def qango_proof() -> str:
    """The proof tree of a QANGO 6 puzzle position (the side to move wins in 5 plies), as
    `qango solve --proof` writes it."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "proof.json"
        _cli("qango", "solve", "..OO.X/....XO/...XO./XXO..O/O.XOXO/XX....", "--proof", str(path))
        return path.read_text(encoding="utf-8")


def tanglung_state() -> dict:
    """A two-player Tanglung match position after six seeded random actions (all cards known)."""
    from tanglekit.games.tanglung.duel import Match
    from tanglekit.games.tanglung.layout import Layout

    m = Match(Layout.parse("HBRC/RDFB/DFRH/CHFB"))
    rng = random.Random(1)
    for _ in range(6):
        m.apply(rng.choice(m.legal_actions()))
    return m.to_json()


def tangle_state() -> dict:
    """A Tangle position on the default board after a seeded opening of 12 placements, with a
    two-placement capture chain (10 points) on offer for the player to move."""
    from tanglekit.games.tangle import TangleGame, TangleOptions, load_board, load_pieces
    from tanglekit.games.tangle.bots import random_opening

    game = TangleGame(load_board("tangle-default"), load_pieces("tangle-default"), TangleOptions(), 2)
    s = game.new_state()
    for p in random_opening(game, 12, seed=2):
        s.push(p)
    return s.to_json()


EXAMPLES = {
    "deal.json": zangle_deal,
    "solo.json": zangle_solo,
    "proof.json": qango_proof,
    "tanglung-state.json": tanglung_state,
    "tangle-state.json": tangle_state,
}


def render(name: str) -> str:
    """The text of one example file (a JSON document; kept as written when a command wrote it)."""
    made = EXAMPLES[name]()
    return made if isinstance(made, str) else json.dumps(made, indent=1) + "\n"


def main(folder: Path = HERE) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in EXAMPLES:
        (folder / name).write_text(render(name), encoding="utf-8")
        print(f"wrote {folder / name}", file=sys.stderr)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)

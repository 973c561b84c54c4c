"""Printable sheets and booklets: what a player needs is on the page (labels matching the answer
notation, legends, goals, card ids), and answers agree with the verified solutions."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from tanglekit.cli import app
from tanglekit.generators.booklet import BookletPage, booklet_html


def test_qango_puzzle_sheet_and_answer():
    from tanglekit.games.qango.svg import O_FILL, X_FILL
    from tanglekit.games.qango.generate import generate_puzzle

    puz = generate_puzzle("6", 2, 3, "standard")
    svg = puz.svg()
    pos = puz.position
    # every counter is drawn on its cell, X dark and O light
    drawn = {int(c): f for f, c in re.findall(r'fill="(#[0-9a-f]+)"[^>]*data-cell="(\d+)"', svg)}
    assert len(drawn) == pos.n_counters
    for c, fill in drawn.items():
        assert fill == (X_FILL if pos.x >> c & 1 else O_FILL)
    assert "X first player" in svg and "O second player" in svg
    assert f"wins in {puz.k}" in svg
    # row and column labels 0..5 as moves are written
    for k in range(6):
        assert f'text-anchor="middle" fill="#444">{k}</text>' in svg
        assert f'text-anchor="end" fill="#444">{k}</text>' in svg
    r, c = puz.board.rc(puz.key_move)
    assert f"row {r}, col {c} ({r},{c})" in puz.answer_svg()


def test_tanglung_sheet_gives_goal_start_and_answer():
    from tanglekit.games.tanglung.generate import generate_challenge

    ch = generate_challenge("easy", 3)
    svg = ch.svg()
    r, c = divmod(ch.start, 4)
    assert f"in {ch.moves} moves" in svg and f"row {r}, col {c}" in svg and "START" in svg
    ans = ch.answer_svg()
    steps = re.findall(r"(\d+):(\d),(\d)", ans)
    assert [(int(r), int(c)) for _, r, c in steps] == [divmod(p, 4) for p in ch.path]
    assert len(steps) == ch.moves + 1


def test_zangle_sheet_prints_every_card_id_the_answer_names():
    from tanglekit.games.zangle.generate import challenge_answer_svg, challenge_svg, generate_challenge

    ch = generate_challenge(seed=4, difficulty="any")
    sheet = challenge_svg(ch)
    deal = ch.deal.to_json()
    ids = deal["middle"] + deal["draw"] + [c for p in deal["piles"] for c in p]
    printed = re.findall(r'font-weight="bold" fill="#000000">([^<]+)</text>', sheet)
    assert sorted(printed) == sorted(ids)
    answer = challenge_answer_svg(ch)
    named = set(re.findall(r"\b(?:T\d[\w-]*|Z-\d+)", answer))
    assert named and named <= set(ids)
    assert len(re.findall(r">\d+\. ", answer)) == len(ch.solution)


def test_tangle_sheet_has_coordinates_legend_and_answer():
    from tanglekit.games.tangle.engine import TangleGame
    from tanglekit.games.tangle.generate import generate_puzzle, puzzle_answer_svg, puzzle_svg

    g = TangleGame()
    p = generate_puzzle(g, seed=4)
    sheet = puzzle_svg(g, p)
    labels = set(re.findall(r'fill="#5c5547">(\d+,\d+)</text>', sheet))
    assert len(labels) == len(g.board.tiles)
    assert "Player 0 (red)" in sheet and "Player 1 (blue)" in sheet and "pieces left" in sheet
    answer = puzzle_answer_svg(g, p)
    for text in p["solution_text"]:
        assert text in answer
        # every tile the answer names is labelled on the sheet
        for tile in re.findall(r"(\d+,\d+):\d", text):
            assert tile in labels


def test_booklet_puts_answers_after_all_puzzles():
    pages = [BookletPage(f"p{k}", f"<svg>P{k}</svg>", f"<?xml version='1.0'?><svg>A{k}</svg>") for k in range(3)]
    html = booklet_html("Test", pages)
    order = re.findall(r"<svg>([PA]\d)</svg>", html)
    assert order == ["P0", "P1", "P2", "A0", "A1", "A2"]
    assert html.count('class="page puzzle"') == 3 and html.count('class="page answer"') == 3


@pytest.mark.parametrize("args", [
    ["qango", "puzzle", "generate", "-k", "2", "--count", "2", "--seed", "3"],
    ["tanglung", "solo", "generate", "--difficulty", "easy", "--count", "2", "--seed", "3"],
])
def test_booklet_option_writes_one_page_per_instance(tmp_path, args):
    out = tmp_path / "b.html"
    res = CliRunner().invoke(app, args + ["--booklet", str(out)])
    assert res.exit_code == 0, res.output
    html = out.read_text()
    assert html.count('class="page puzzle"') == 2 and html.count('class="page answer"') == 2

"""Pictures people read: every label of the Zangle state picture (``State.to_svg``, Jupyter) lies
inside the drawing and overlaps no other label (issue 26: "middle 0: T4-triangle-3" labels
centred in 62 px columns overlapped and were cut off)."""

import random
import re

import pytest

from tanglekit.games import load_game

TEXT = re.compile(r"<text ([^>]*)>([^<]*)</text>")
ATTR = re.compile(r'([\w-]+)="([^"]*)"')
VIEW = re.compile(r'viewBox="0 0 ([\d.]+) ([\d.]+)"')


def label_boxes(svg: str) -> list[tuple[float, float, float, float, str]]:
    """(x0, y0, x1, y1, text) of every text element: a character at most 0.62 em wide (monospace
    is 0.6), ascent 0.8 em and descent 0.2 em."""
    out = []
    for attrs, text in TEXT.findall(svg):
        a = dict(ATTR.findall(attrs))
        x, y, size, anchor = float(a["x"]), float(a["y"]), float(a["font-size"]), a.get("text-anchor", "start")
        width = 0.62 * size * len(text.replace("&amp;", "&"))
        x0 = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
        out.append((x0, y - 0.8 * size, x0 + width, y + 0.2 * size, text))
    return out


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("name", ["zangle-solo", "zangle-turn", "zangle-speed"])
def test_zangle_state_labels_are_readable(name):
    game = load_game(name)
    for seed in range(4):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 12)):  # some positions along a random game
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        svg = state.to_svg()
        w, h = map(float, VIEW.search(svg).groups())
        boxes = label_boxes(svg)
        assert len(boxes) >= 2 * 3  # place and card id of every face-up card
        for b in boxes:
            assert 0 <= b[0] and b[2] <= w and 0 <= b[1] and b[3] <= h, (name, seed, b)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert not overlaps(a, b), (name, seed, a, b)


def test_the_label_check_can_fail():
    svg = ('<svg viewBox="0 0 10 4"><text x="2" y="1" font-size="0.4" text-anchor="middle">middle 0: T4-triangle-3</text>'
           '<text x="4" y="1" font-size="0.4" text-anchor="middle">middle 1: T4-bar-6</text></svg>')
    a, b = label_boxes(svg)
    assert overlaps(a, b) and a[0] < 0  # the old layout: the first label runs off the left edge


@pytest.mark.parametrize("name", ["tanglung-solo", "tanglung-coop", "tanglung-duel"])
def test_tanglung_terminal_board_has_a_key(name):
    """The terminal board says what its letters, cases and marks mean."""
    from tanglekit.games.tanglung.cards import KINDS

    text = str(load_game(name).new_initial_state(2))
    key = text.splitlines()[-1]
    assert key.startswith("key: ") and "upper case lit, lower case dark" in key
    assert all(f"{k} {v}" in key for k, v in KINDS.items()) and "matchbox" in key

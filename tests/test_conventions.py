"""One set of conventions on every surface (docs/json.md, "Conventions"): players and piles from 0
in text as in JSON, move counts with their units, results in words; and the two move errors with
the reason why a move is illegal (``State.explain_illegal``) for every game."""

from __future__ import annotations

import random
import re

import pytest
from typer.testing import CliRunner

from tanglekit.cli import app
from tanglekit.errors import FormatError, IllegalMoveError, InvalidMoveError, RuleError
from tanglekit.games import game_names, load_game

GENERIC = ("is not one of the", "is not a legal move now")


def cli(*args: str) -> str:
    r = CliRunner().invoke(app, list(args))
    assert r.exit_code == 0, (r.output, r.exception)
    return r.output


# --- errors --------------------------------------------------------------------------------------
def test_the_two_move_errors_are_subclasses_of_the_earlier_ones():
    assert issubclass(InvalidMoveError, FormatError) and issubclass(IllegalMoveError, RuleError)
    assert not issubclass(InvalidMoveError, RuleError) and not issubclass(IllegalMoveError, FormatError)


def _start(name: str):
    """A state of ``name`` a few actions in, so that some well-formed moves are illegal."""
    st = load_game(name).new_initial_state(seed=1)
    rng = random.Random(0)
    for _ in range(4):
        if st.is_terminal():
            break
        if st.is_chance_node():
            st.apply_action(st.chance_outcomes()[0][0])
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    return st


# per game: a well-formed move that is illegal in _start's position (None: found from the actions)
WELL_FORMED = {"zangle-solo": "draw", "zangle-turn": "fill pile 1 from pile 0", "zangle-speed": "skip",
               "tanglung-duel": "place 9,9", "zinga": "bonus skip"}


@pytest.mark.parametrize("name", game_names())
def test_garbage_is_invalid_and_a_well_formed_illegal_move_is_illegal(name):
    st = _start(name)
    for garbage in ("hello world", "", "zz 1,2,3", "claim purple 99"):
        with pytest.raises(InvalidMoveError):
            st.string_to_action(garbage)
    legal = set(st.legal_actions())
    text = WELL_FORMED.get(name)
    if name == "tanglung-duel":  # a cell off the grid does not parse; a legal-looking place does
        with pytest.raises(InvalidMoveError):
            st.string_to_action(text)
        text = None
    if text is None:  # the first nameable action that is not legal now
        for a in range(0, 5000):
            if a in legal:
                continue
            try:
                text = st.action_to_string(a)
            except Exception:  # noqa: BLE001 - no name for this number here
                continue
            break
    with pytest.raises(IllegalMoveError) as e:
        st.string_to_action(text)
    assert "is not legal now: " in str(e.value) and not any(g in str(e.value) for g in GENERIC)
    before = st.history()
    with pytest.raises(IllegalMoveError) as e:
        st.apply_action(9999)
    assert "no such action" in str(e.value) or "9999" in str(e.value)
    assert st.history() == before


# --- explain_illegal -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", game_names())
def test_explain_illegal_gives_a_reason_for_illegal_actions_and_none_for_legal_ones(name):
    rng = random.Random(3)
    game = load_game(name)
    reasons = 0
    for seed in range(2):
        st = game.new_initial_state(seed=seed)
        for _ in range(12 if name == "tangle" else 25):
            if st.is_terminal():
                break
            legal = st.legal_actions()
            for a in legal:
                assert st.explain_illegal(a) == "", (name, a)
            top = max(legal) + 40
            for a in rng.sample(range(top), min(top, 25)):
                if a in legal:
                    continue
                why = st.explain_illegal(a)
                assert why and not any(g in why for g in GENERIC), (name, a, why)
                reasons += 1
            assert st.explain_illegal(10**7).startswith("no such action")
            assert st.explain_illegal(-3).startswith("no such action")
            if st.is_chance_node():
                st.apply_action(rng.choice(st.chance_outcomes())[0])
            else:
                st.apply_action(rng.choice(legal))
    assert reasons > 20


def test_explain_illegal_says_why_in_the_games_words():
    q = load_game("qango").new_initial_state()
    q.apply_string("2,3")
    assert q.explain_illegal(q.string_to_action("2,2")) == ""
    with pytest.raises(IllegalMoveError, match=r"cell 2,3 is taken \(by X\)"):
        q.apply_string("2,3")
    with pytest.raises(InvalidMoveError, match="off the QANGO 6 board"):
        q.string_to_action("9,9")

    t = load_game("tangle").new_initial_state()
    first = t.legal_actions()[0]
    t.apply_action(first)
    assert re.match(r"sides? \S+ (is|are) taken \(by player 0\)", t.explain_illegal(first))

    z = load_game("zinga").new_initial_state()
    while z.is_chance_node():
        z.apply_action(z.chance_outcomes()[0][0])
    from tanglekit.games.zinga.rules import name_of

    off = next(name_of(c) for c in range(60) if c not in z.engine.game.sheets[z.current_player()].codes)
    with pytest.raises(IllegalMoveError, match=f"player 0 cannot claim {off} now: {off} is not on their sheet"):
        z.apply_string(f"claim {off}")
    with pytest.raises(IllegalMoveError, match="'take' is a move of getting ready"):
        z.apply_string("take")

    s = load_game("tanglung-solo").new_initial_state_from("RHHC/FRBF/FBBD/CHRD")
    assert s.explain_illegal(15).startswith(  # 3,3
        "the matchbox on 0,3 (Rooster) cannot move to 3,3: a Rooster steps")


def test_web_refusals_quote_the_reason():
    from tanglekit.web.session import explain_illegal

    st = load_game("zinga").new_initial_state()
    assert explain_illegal(st, 9999) == "no such action: 9999"
    assert "is not a legal move now" not in explain_illegal(st, 205)


# --- conventions on each surface -----------------------------------------------------------------
def test_qango_counts_carry_counters_and_plies():
    pos = ".X.OOX/O....O/XO.X../..XO../X...../....X."  # O to move wins in 2 counters (3 plies)
    out = cli("qango", "solve", pos)
    assert "O to move: win in 2 counters (3 plies)" in out
    assert "counters (" in out and "plies)" in out
    import json

    d = json.loads(cli("qango", "solve", pos, "--json"))
    assert (d["plies"], d["counters"], d["to_move"], d["side"]) == (3, 2, 1, "O")
    rows = cli("qango", "explore", pos, "--time-limit", "0.2").splitlines()
    assert rows[0].endswith("win in 2 counters (3 plies)") and "loss: X wins in" in rows[-1]

    from tanglekit.games.qango.position import value_text

    assert value_text("loss", 14, "X") == "loss: O wins in 7 counters (14 plies)"
    assert value_text("win", 1, "O") == "win in 1 counter (1 ply)"


def test_zangle_cli_moves_and_the_sheet_number_piles_alike(tmp_path):
    out = cli("zangle", "solo", "generate", "--difficulty", "hard", "--seed", "1", "--svg", str(tmp_path))
    fills = re.findall(r"fill pile (\d) from pile (\d)", out)
    assert fills
    answer = next(tmp_path.glob("*-answer.svg")).read_text(encoding="utf-8")
    moved = re.findall(r"from pile (\d) to the empty pile (\d)", answer)
    assert moved == [(src, dst) for dst, src in fills]  # same numbers: piles from 0 on both
    sheet = next(p for p in tmp_path.glob("*.svg") if "answer" not in p.name).read_text(encoding="utf-8")
    assert ">pile 0.1<" in sheet and ">middle 0<" in sheet and "Piles are numbered 0..4" in sheet


def test_tangle_page_and_text_number_players_alike(tmp_path):
    import json

    from tanglekit.games.tangle.engine import cached_game
    from tanglekit.games.tangle.generate import puzzle_svg

    st = load_game("tangle").new_initial_state()
    st.apply_action(st.legal_actions()[0])  # player 1 (blue) to move
    text, svg = str(st), st.to_svg()
    assert "player 1 to move" in text and "player 1 to move" in svg and "Player 1 (blue)" in svg
    assert "Player 2" not in svg
    out = cli("tangle", "puzzle", "generate", "--seed", "4", "--out", str(tmp_path / "p.json"),
              "--svg", str(tmp_path / "p.svg"))
    puzzle = json.loads((tmp_path / "p.json").read_text(encoding="utf-8"))
    me, colour = puzzle["to_move"], ("red", "blue", "green", "yellow")[puzzle["to_move"]]
    want = f"Player {me} ({colour}) to move: score {puzzle['points']} points this turn."
    assert want in out and puzzle["question"] == want
    page = (tmp_path / "p.svg").read_text(encoding="utf-8")
    assert want in page and f"Player {me} ({colour}), score" in page
    # a file written before players were numbered from 0 on sheets: its question is written again
    puzzle["question"] = f"Player {me + 1} ({colour}) to move: score {puzzle['points']} points this turn."
    page = puzzle_svg(cached_game(puzzle), puzzle)
    assert want in page and f"Player {me + 1} ({colour})" not in page


def test_zinga_end_is_a_sentence_not_a_vector():
    st = load_game("zinga").new_initial_state()
    rng = random.Random(1)
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(rng.choice(st.chance_outcomes())[0])
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    end = st.outcome_text()
    assert re.match(r"(player \d wins after \d+ rolls?: they |a draw)", end), end
    assert "[" not in end and "1.0" not in end and "returns" not in end
    assert str(st).splitlines()[0] == end

    from tanglekit.play.session import PlaySession
    from tanglekit.play.start import Start

    s = PlaySession(Start("zinga", st), ["random", "random"], 0)
    assert s.result().startswith("game over: ") and "returns" not in s.result() and "[" not in s.result()

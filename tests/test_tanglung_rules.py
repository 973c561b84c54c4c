"""Tanglung rules engine: layout notation, validation, card sets, options, movement, solo engine."""

import json
import random

import pytest
from tanglekit.errors import FormatError, RuleError
from tanglekit.games.tanglung import Layout, SoloGame, TanglungOptions, default_card_set, load_card_set, random_layout
from tanglekit.games.tanglung.layout import (
    DIAGONAL_SYMMETRIES,
    SYMMETRIES,
    count_standard_layouts,
    rank_standard_layout,
    unrank_standard_layout,
)
from tanglekit.games.tanglung.moves import destinations

EXAMPLE = "CRBF/HDFR/BHFB/RHDC"


def test_default_card_set_is_the_assumed_one():
    cs = default_card_set()
    assert cs.as_dict() == {"C": 2, "R": 3, "B": 3, "F": 3, "H": 3, "D": 2}
    assert cs.assumed and len(cs.multiset()) == 16


def test_card_set_inline_file_and_errors(tmp_path):
    assert load_card_set("C2R4B2F4H2D2").as_dict()["R"] == 4
    p = tmp_path / "mine.json"
    p.write_text(json.dumps({"cards": {"rooster": 2, "rabbit": 14}}))
    assert load_card_set(str(p)).as_dict() == {"C": 2, "R": 14}
    with pytest.raises(FormatError, match="16"):
        load_card_set("C2R3")
    with pytest.raises(FormatError):
        load_card_set("C2X14")


def test_layout_round_trip_and_forms():
    rng = random.Random(3)
    for _ in range(50):
        lay = random_layout(rng)
        assert Layout.parse(str(lay)) == lay
        assert Layout.parse(str(lay).replace("/", "")) == lay
        assert Layout.parse(str(lay).lower()) == lay
        assert Layout.parse(str(lay).replace("/", "\n")) == lay
    assert str(Layout.parse(EXAMPLE)) == EXAMPLE


@pytest.mark.parametrize("bad", ["CRBF/HDFR/BHFB", "CRBF/HDFR/BHFB/RHDX", "CRBFF/HDFR/BHFB/RHD", ""])
def test_layout_parse_errors(bad):
    with pytest.raises(FormatError):
        Layout.parse(bad)


def test_layout_validation():
    Layout.parse(EXAMPLE).validate()
    Layout.parse("FRBC/HDFR/BHFB/CHDR").validate()  # anti-diagonal corners
    with pytest.raises(RuleError, match="opposite corners"):
        Layout.parse("RCBF/HDFR/BHFB/CHDR").validate()
    Layout.parse("RCBF/HDFR/BHFB/CHDR").validate(options=TanglungOptions(not_so_zen=True))
    with pytest.raises(RuleError, match="rabbit"):
        Layout.parse("CRRF/HDFR/BHFB/RHDC").validate()
    with pytest.raises(RuleError, match="empty"):
        Layout.parse("CRBF/HDFR/BHFB/.HDC").validate()
    Layout.parse("CRBF/HDFR/BHFB/.HDC").validate(allow_empty=True)


def test_options_from_strings_and_errors():
    o = TanglungOptions.from_dict({"literal_blocking": "true", "roosters_start_lit": "off", "max_turns": "50"})
    assert o.literal_blocking and not o.roosters_start_lit and o.max_turns == 50
    assert TanglungOptions.from_dict(o.to_json()) == o
    with pytest.raises(RuleError, match="unknown"):
        TanglungOptions.from_dict({"litral_blocking": "1"})
    with pytest.raises(RuleError):
        TanglungOptions.from_dict({"literal_blocking": "maybe"})
    with pytest.raises(RuleError):
        TanglungOptions(horse_fan_route="none")


def test_symmetries_and_ranking():
    assert len(set(SYMMETRIES)) == 8
    for p in DIAGONAL_SYMMETRIES:
        assert {p[0], p[15]} == {0, 15}
    assert count_standard_layouts() == 33_633_600  # 14! / (3!^4 * 2!)
    rng = random.Random(1)
    for _ in range(30):
        r = rng.randrange(count_standard_layouts())
        lay = unrank_standard_layout(r)
        lay.validate()
        assert rank_standard_layout(lay) == r
    assert str(unrank_standard_layout(0)) == "CRRR/BBBF/FFHH/HDDC"


# --- movement -------------------------------------------------------------------------------
def test_hand_checked_moves_full_grid():
    cells = Layout.parse(EXAMPLE).cells
    assert destinations(cells, 0, "C") == [1, 4]
    assert destinations(cells, 1, "R") == [0, 2, 3, 5, 9, 13]  # rook slides over cards
    assert destinations(cells, 2, "B") == [5, 7, 8]
    assert destinations(cells, 3, "F") == [2, 6, 7]
    assert destinations(cells, 4, "H") == [2, 10, 13]
    assert destinations(cells, 5, "D") == [0, 1, 2, 4, 6, 7, 8, 9, 10, 13, 15]
    lit = TanglungOptions(literal_blocking=True)
    assert destinations(cells, 1, "R", lit) == [0, 2, 5]
    assert destinations(cells, 2, "B", lit) == [5, 7]
    assert destinations(cells, 5, "D", lit) == destinations(cells, 5, "D")  # Dragon unaffected


def test_blocking_by_gaps_matchboxes_and_fan():
    cells = list("RRRR" "R.RR" "RRRR" "RRRR")
    # Rabbit on (1,0) cannot cross the gap at (1,1); Dragon can
    assert destinations(cells, 4, "R") == [0, 8, 12]
    assert destinations(cells, 4, "D") == sorted([0, 8, 12, 6, 7, 1, 9, 14])
    # another matchbox on (2,0): the Rabbit may land there but not cross it
    assert destinations(cells, 4, "R", others={8}) == [0, 8]
    assert 12 in destinations(cells, 4, "D", others={8})
    # the Fan on (2,0): nothing lands on or crosses it
    assert destinations(cells, 4, "R", fan=8) == [0]
    assert destinations(cells, 4, "D", fan=8) == sorted([0, 6, 7, 1, 9, 14])
    # Butterfly cannot cross a gap, Fish just steps
    cells2 = list("BRRR" "R.RR" "RRRR" "RRRR")
    assert destinations(cells2, 0, "B") == []
    assert destinations(cells2, 0, "F") == [1, 4]


def test_horse_and_fan_routes():
    cells = list("H" * 16)
    # jump (0,0) -> (1,2): routes via {(0,1),(0,2)} or {(1,0),(1,1)}
    assert 6 in destinations(cells, 0, "H", fan=1)
    assert 6 not in destinations(cells, 0, "H", TanglungOptions(horse_fan_route="both"), fan=1)
    assert 6 not in destinations(cells, 0, "H", fan=6)
    assert destinations(cells, 0, "H") == [6, 9]


def test_moves_commute_with_symmetries():
    rng = random.Random(7)
    for opts in (TanglungOptions(), TanglungOptions(literal_blocking=True)):
        for _ in range(10):
            lay = random_layout(rng, not_so_zen=True)
            cells = list(lay.cells)
            cells[rng.randrange(16)] = "."
            for perm in SYMMETRIES:
                t = [None] * 16
                for i, ch in enumerate(cells):
                    t[perm[i]] = ch
                for p in range(16):
                    if cells[p] == ".":
                        continue
                    a = sorted(perm[q] for q in destinations(cells, p, cells[p], opts))
                    assert destinations(t, perm[p], cells[p], opts) == a


# --- solo engine ----------------------------------------------------------------------------
def test_solo_flip_rule_by_hand():
    g = SoloGame(Layout.parse(EXAMPLE))
    assert g.lit == (1 << 0) | (1 << 15) and g.positions == [0]
    g.play((1, 0))  # Rooster -> Horse (dark): lit
    assert g.lit >> 4 & 1
    g.play((0, 2))  # Horse jumps to Butterfly (dark): lit
    g.play((1, 1))  # Butterfly -> Dragon
    g.play((0, 0))  # Dragon -> Rooster (lit): the Dragon card is flipped dark
    assert not g.lit >> 5 & 1 and g.lit >> 2 & 1
    g.play((1, 0))  # Rooster -> Horse (lit): a Rooster never flips
    assert g.lit >> 0 & 1
    g.undo()
    g.undo()
    assert g.lit >> 5 & 1 and g.positions == [5]
    with pytest.raises(RuleError, match="illegal"):
        g.play((3, 2))  # not on a queen line from (1,1)


def test_solo_roosters_dark_option():
    g = SoloGame(Layout.parse(EXAMPLE), TanglungOptions(roosters_start_lit=False), starts=(15,))
    assert g.lit == 0
    g.play(14)
    assert g.lit == 1 << 14  # the starting Rooster stays dark until revisited
    g.play(15)  # Dragon -> the dark Rooster: lights it, no flip (destination was dark)
    assert g.lit == (1 << 14) | (1 << 15)


def test_solo_start_must_be_rooster_and_cooperative_blocking():
    with pytest.raises(RuleError, match="Rooster"):
        SoloGame(Layout.parse(EXAMPLE), starts=(5,))
    g = SoloGame(Layout.parse("CRRR/RRRR/RRRR/RRRC"), starts=(0, 15), card_set=load_card_set("C2R14"))
    assert g.cooperative
    g.play(1)  # box 1 -> (0,1)
    assert g.to_move == 1 and g.legal_moves() == [11, 14]  # box 2's Rooster steps
    g.play(14)  # box 2 -> (3,2)
    g.play(13)  # box 1 slides down its column to (3,1), next to box 2
    # box 2 (Rabbit at (3,2)) cannot land on or cross box 1 at (3,1)
    assert 13 not in g.legal_moves() and 12 not in g.legal_moves()
    assert 15 in g.legal_moves() and 2 in g.legal_moves()

"""Zangle cards, deck files and deal files: composition, validation errors, round trips."""

import json
from collections import Counter

import pytest

from tanglekit.errors import FormatError, ShapeError
from tanglekit.games.zangle import default_deck, load_deal, load_deck, parse_deal
from tanglekit.games.zangle.cards import deck_from_json, free_polyiamonds


def test_default_deck_composition():
    d = default_deck()
    assert len(d) == 120 and d.assumed
    assert Counter(c.size for c in d) == {0: 4, 1: 24, 2: 24, 3: 24, 4: 24, 5: 20}
    assert Counter(c.colour for c in d) == {
        "white": 4, "blue": 24, "red": 24, "purple": 24, "yellow": 24, "green": 20
    }
    # 8 of each of the 3 free tetriamonds, 5 of each of the 4 free pentiamonds
    by_key = Counter(c.key for c in d if c.size >= 4)
    assert sorted(by_key.values()) == [5, 5, 5, 5, 8, 8, 8]
    assert {p.key("free") for p in free_polyiamonds(4)} | {p.key("free") for p in free_polyiamonds(5)} == set(by_key)
    assert all(c.shape.is_connected() for c in d if not c.is_z)
    assert len({c.id for c in d}) == 120
    assert len(d.shapes) == 10


def test_polyiamond_counts():
    assert [len(free_polyiamonds(n)) for n in range(1, 8)] == [1, 1, 1, 3, 4, 12, 24]


def test_deck_round_trip(tmp_path):
    d = default_deck()
    f = tmp_path / "deck.json"
    f.write_text(json.dumps(d.to_json()))
    d2 = load_deck(f)
    assert [(c.id, c.colour, c.cells) for c in d2] == [(c.id, c.colour, c.cells) for c in d]


def test_toml_deck(tmp_path):
    f = tmp_path / "deck.toml"
    f.write_text(
        'name = "tiny"\ntotal = 3\n[[cards]]\nid = "Z"\ncolour = "white"\ncells = []\n'
        '[[cards]]\nid = "mono"\ncolour = "blue"\ncells = [[0, 0]]\ncount = 2\n'
    )
    d = load_deck(f)
    assert [c.id for c in d] == ["Z", "mono-1", "mono-2"]


@pytest.mark.parametrize(
    "entry, total, error, words",
    [
        ({"id": "x", "colour": "red", "cells": [[0, 0]]}, None, FormatError, ["'x'", "red", "1 triangles"]),
        ({"id": "x", "colour": "blue", "cells": [[0, 0], [0, 0]]}, None, ShapeError, ["'x'", "duplicate"]),
        ({"id": "x", "colour": "blue", "cells": [[0, "a"]]}, None, FormatError, ["cards[0].cells[0][1]", "integer"]),
        ({"id": "x", "colour": "blue", "cells": [[0, 0]], "count": 0}, None, FormatError, ["cards[0].count", "greater than or equal to 1"]),
        ({"id": "x", "colour": "blue", "cells": [[0, 0]], "count": 2}, 3, FormatError, ["add up to 2"]),
        ({"id": "x", "cells": [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0]]}, None, FormatError,
         ["'x'", "no colour", "6 triangles"]),
        ({"colour": "blue", "cells": [[0, 0]]}, None, FormatError, ["cards[0].id", "missing"]),
            ({"id": "x", "colour": "red", "cells": [[0, 0], [2, 0]]}, None, ShapeError, ["'x'", "not edge-connected"]),
            ({"id": "x", "colour": "blue", "cells": [[10**6, 0]]}, None, FormatError, ["cards[0].cells[0][0]", "1000"]),
    ],
)
def test_bad_deck_errors(entry, total, error, words):
    data = {"name": "bad", "cards": [entry]}
    if total is not None:
        data["total"] = total
    with pytest.raises(error) as e:
        deck_from_json(data, "bad.json")
    msg = str(e.value)
    assert "bad.json" in msg and "\n" not in msg
    for w in words:
        assert w in msg


def test_custom_colours_and_disconnected_shape():
    d = deck_from_json({
        "name": "c", "colours": {"6": "orange"},
        "cards": [
            {"id": "hex", "colour": "orange", "cells": [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]]},
            {"id": "split", "colour": "red", "cells": [[0, 0], [4, 0]]},
        ],
        "allow_disconnected": True,
    })
    assert d.cards[0].size == 6 and not d.cards[1].shape.is_connected()
    assert deck_from_json(d.to_json()).allow_disconnected  # the flag is written back
    # without the deck's explicit flag a disconnected card is refused, naming the card
    with pytest.raises(ShapeError, match="card 'split': the cells are not edge-connected"):
        deck_from_json({"cards": [{"id": "split", "colour": "red", "cells": [[0, 0], [4, 0]]}]})


def test_deal_parsing(tmp_path):
    f = tmp_path / "deal.json"
    f.write_text(json.dumps({
        "middle": ["T4-bar", "T2", [[0, 0]], []],
        "own": ["T2-7", {"cells": [[1, 0], [2, 0]]}, "T4-bar", "Z-2"],
        "middle_pile": ["T3"],
    }))
    deal = load_deal(f)
    assert [c.id for c in deal.middle] == ["T4-bar-1", "T2-1", "middle[2]", "middle[3]"]
    assert deal.middle[3].is_z and deal.middle[2].colour == "blue"
    assert [c.id for c in deal.own] == ["T2-7", "own[1]", "T4-bar-2", "Z-2"]
    assert deal.extra["middle_pile"][0].id == "T3-1"
    again = parse_deal(json.loads(json.dumps(deal.to_json())))
    assert [c.cells for c in again.own] == [c.cells for c in deal.own]


@pytest.mark.parametrize(
    "data, words",
    [
        ({"middle": ["T2-1"], "own": ["T2-1"]}, ["own[0]", "'T2-1'", "twice"]),
        ({"middle": ["nope"], "own": []}, ["middle[0]", "'nope'"]),
        ({"middle": [], "own": ["T5-a"] * 6}, ["own[5]", "more 'T5-a'"]),
        ({"middle": []}, ["at own", "missing"]),
        ({"middle": [], "own": [], "bogus": 1}, ["at bogus", "unknown field"]),
        ({"middle": [[[0, 0], [2, 0]]], "own": []}, ["middle[0]", "not edge-connected"]),
        ({"middle": [[[10**18, 0]]], "own": []}, ["middle[0]", "within"]),
        ({"middle": [], "draw": [], "piles": [["T1-1"]]}, ["Zangle solo deal file, expected a Zangle deal"]),
        ({"middle": [[[0, 0], [0, 0]]], "own": []}, ["middle[0]", "duplicate"]),
    ],
)
def test_bad_deals(data, words):
    with pytest.raises((FormatError, ShapeError)) as e:
        parse_deal(data, source="d.json")
    for w in words:
        assert w in str(e.value)

"""Zinga sheets: validation errors, JSON / compact / ID round trips, the shipped assumed set."""

import json
import re

import pytest

from tanglekit.errors import FormatError, RuleError
from tanglekit.games.zinga.rules import ZingaOptions, code_of
from tanglekit.games.zinga.sheet import (Sheet, load_sheet, load_sheets, save_sheets,
                                         sheet_set_id, sheets_from_json)

ROWS = [["yellow 6", "blue 3", "red 2", "orange 3", "green 10"],
        ["green 4", "red 9", "orange 9", "yellow 10", "blue 8"],
        ["orange 1", "green 1", "blue 9", "red 7", "yellow 7"],
        ["blue 5", "orange 5", "yellow 2", "green 11", "red 11"],
        ["red 12", "yellow 12", "green 8", "blue 6", "orange 4"]]


def rows_with(r, c, value):
    rows = [list(x) for x in ROWS]
    rows[r][c] = value
    return rows


def test_valid_sheet_and_cell_forms():
    s = Sheet.from_json({"rows": ROWS, "name": "A"})
    assert s.cell(2, 2) == ("blue", 9) and s.name == "A"
    alt = [[["yellow", 6]] + ROWS[0][1:]] + ROWS[1:]
    alt[1] = [{"colour": "green", "number": 4}] + ROWS[1][1:]
    assert Sheet.from_json(alt).codes == s.codes


@pytest.mark.parametrize("rows,msg", [
    (rows_with(0, 0, "blue 3"), "blue 3 appears twice (row 1 column 1 and row 1 column 2)"),
    (rows_with(2, 2, "red 5"), "centre must be blue 9"),
    (rows_with(1, 1, "purple 4"), "unknown colour"),
    (rows_with(1, 1, "red 13"), "out of range 1..12"),
    (rows_with(1, 1, "red 0"), "out of range 1..12"),
    (rows_with(1, 1, "red"), "must be 'colour number'"),
    (rows_with(1, 1, "red x"), "is not an integer"),
    (ROWS[:4], "expected 5 rows, got 4"),
    ([ROWS[0][:4]] + ROWS[1:], "row 1 must have 5 cells, got 4"),
])
def test_validation_errors_are_clear(rows, msg):
    with pytest.raises(FormatError, match=re.escape(msg)):
        Sheet.from_json({"rows": rows})


def test_error_names_position():
    with pytest.raises(FormatError, match="row 2 column 2"):
        Sheet.from_json({"rows": rows_with(1, 1, "white 4")})


def test_round_trips(tmp_path):
    s = Sheet.from_json({"rows": ROWS}, "A")
    assert Sheet.from_json(s.to_json()).codes == s.codes
    assert Sheet.from_compact(s.compact).codes == s.codes
    t = Sheet(tuple(reversed(s.codes[:12])) + (s.codes[12],) + tuple(reversed(s.codes[13:])), "B")
    sid = sheet_set_id([s, t])
    assert sid.startswith("zinga:sheets2:")
    assert [x.codes for x in load_sheets(sid)] == [s.codes, t.codes]
    f = tmp_path / "set.json"
    save_sheets([s, t], f)
    assert [x.codes for x in load_sheets(f)] == [s.codes, t.codes]
    one = tmp_path / "one.json"
    one.write_text(json.dumps(s.to_json()))
    assert load_sheet(one).codes == s.codes


def test_bad_files_and_ids(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(FormatError, match="not valid JSON"):
        load_sheets(bad)
    bad.write_text(json.dumps({"format": "zinga-sheets", "sheets": []}))
    with pytest.raises(FormatError, match="at sheets: List should have at least 1 item"):
        load_sheets(bad)
    with pytest.raises(FormatError, match="25 characters"):
        load_sheets("zinga:sheets1:abc")
    with pytest.raises(FormatError, match="announces 3 sheets"):
        load_sheets("zinga:sheets3:" + Sheet.from_json({"rows": ROWS}).compact)
    with pytest.raises(FormatError):
        sheets_from_json(42)


def test_default_set_is_valid_and_balanced_by_construction():
    sheets = load_sheets()
    assert len(sheets) == 4
    assert len({s.codes for s in sheets}) == 4
    for s in sheets:
        nums = s.numbers()
        assert all(nums.count(n) == (3 if n == 9 else 2) for n in range(1, 13))
        assert sorted(c // 12 for c in s.codes) == sorted(k for k in range(5) for _ in range(5))  # 5 of each
        for line in s.lines():
            assert sorted(c // 12 for c in line) == [0, 1, 2, 3, 4]  # every colour once per line
    assert len({frozenset(s.codes) for s in sheets}) == 1  # same 25 cells, different places


def test_options_from_dict():
    o = ZingaOptions.from_dict({"table_by_role": "off", "max_turns": "50"})
    assert o.table_by_role is False and o.max_turns == 50
    with pytest.raises(RuleError, match="unknown Zinga rule option"):
        ZingaOptions.from_dict({"nope": "1"})
    with pytest.raises(RuleError, match="true/false"):
        ZingaOptions.from_dict({"stop_any_call": "maybe"})
    with pytest.raises(RuleError):
        ZingaOptions(max_turns=0)
    assert code_of("Blue", 9) == 56

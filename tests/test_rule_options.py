"""Rule options are declared once (games/<game>/rules.py with ``option()``): validated by the
shared base, and the README's rule-options table is generated from the declarations."""

from pathlib import Path

import pytest

from tanglekit.errors import RuleError
from tanglekit.games.options import options_markdown
from tanglekit.games.qango.position import QangoOptions
from tanglekit.games.tangle.rules import TangleOptions
from tanglekit.games.tanglung.rules import TanglungOptions
from tanglekit.games.zangle.rules import ZangleOptions
from tanglekit.games.zinga.rules import ZingaOptions

CLASSES = [ZangleOptions, TanglungOptions, QangoOptions, ZingaOptions, TangleOptions]
README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.GAME)
def test_readme_rows_are_the_declarations(cls):
    for row in options_markdown([cls]).splitlines()[2:]:
        assert row in README, f"README rule-options table is missing or differs: {row}"


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.GAME)
def test_every_choice_and_range_is_checked(cls):
    from dataclasses import fields

    for f in fields(cls):
        meta = f.metadata
        assert "doc" in meta, f"{cls.GAME}.{f.name} is not declared with option()"
        if meta["choices"]:
            with pytest.raises(RuleError):
                cls.from_dict({f.name: "no-such-choice"})
            for c in meta["choices"]:
                assert getattr(cls.from_dict({f.name: c}), f.name) == c
        if meta["minimum"] is not None:
            with pytest.raises(RuleError):
                cls.from_dict({f.name: str(meta["minimum"] - 1)})
        if meta["maximum"] is not None:
            with pytest.raises(RuleError):
                cls.from_dict({f.name: str(meta["maximum"] + 1)})
        if isinstance(f.default, bool):
            assert getattr(cls.from_dict({f.name: "off" if f.default else "on"}), f.name) is not f.default
    with pytest.raises(RuleError):
        cls.from_dict({"no_such_option": 1})
    assert cls.from_json(cls().to_json()) == cls()

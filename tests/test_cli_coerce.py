"""Command-line values converted without pydantic (cli_coerce) give typer's own answers: every
value the light path accepts converts exactly as typer's pydantic path does, and every other
value (errors included) is left to typer."""

import enum
from pathlib import Path
from typing import List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

typer_coercion = pytest.importorskip("typer._coercion")

from tanglekit import cli_coerce  # noqa: E402
from tanglekit.cli_common import execute  # noqa: E402  (installs the light path)


class Colour(str, enum.Enum):
    red = "red"
    dark_blue = "dark-blue"


def _typer(annotation, value):
    """(True, value) or (False, error text) from typer's own runtime param."""
    import typer.core as core
    from typer.models import OptionInfo

    original = getattr(core.build_runtime_param, "original", core.build_runtime_param)
    desc = typer_coercion.resolve_type_descriptor(annotation, OptionInfo())
    try:
        return True, original(desc)._coerce_value(value, param=None, ctx=None)
    except Exception as e:  # noqa: BLE001
        return False, str(e)


def _light(kind, annotation, value):
    from typer.models import OptionInfo

    return cli_coerce.convert(kind, value, OptionInfo(), annotation)


NUMBERS = st.one_of(
    st.text(alphabet="0123456789+-._eE xinfatyINF", max_size=12),
    st.integers().map(str),
    st.floats(allow_nan=False).map(repr),
    st.sampled_from(["1_000", "5.", ".5", "5.0", "5.00", "-0", "+7", " 8 ", "1e3", "1E400", "nan", "-Infinity",
                     "٣", "１２", "0x10", "", "_1", "1__0", "1_", "5.0_0", "inf"]),
)


@settings(max_examples=400, deadline=None)
@given(NUMBERS)
def test_numbers_convert_as_typer_does(text):
    for kind, annotation in (("int", int), ("float", float)):
        ok, value = _light(kind, annotation, text)
        if ok:
            want_ok, want = _typer(annotation, text)
            assert want_ok, (kind, text)
            assert type(value) is type(want) and (value == want or (value != value and want != want)), (kind, text)


@pytest.mark.parametrize("value", ["red", "dark-blue", Colour.red, "Red", "blue", ""])
def test_enum_values(value):
    ok, got = _light("enum", Colour, value)
    want_ok, want = _typer(Colour, value)
    assert ok == want_ok
    if ok:
        assert got is want


@pytest.mark.parametrize("value", ["out.svg", "a/b/c.json", Path("x"), "-", " spaced name "])
def test_paths_and_strings(value):
    ok, got = _light("path", Path, value)
    want_ok, want = _typer(Path, value)
    assert ok and want_ok and got == want and type(got) is type(want)
    if isinstance(value, str):
        assert _light("str", str, value) == (True, value) == _typer(str, value)


def test_lists_and_left_alone():
    assert _light("list_str", List[str], ("a", "b")) == (True, ["a", "b"])
    assert _typer(List[str], ("a", "b")) == (True, ["a", "b"])
    assert _light("path", Path, "")[0] is False  # typer decides
    assert _light("int", int, "5.5")[0] is False and _typer(int, "5.5")[0] is False


def test_errors_are_typers_messages(capsys):
    from tanglekit.cli import app

    assert execute(app, ["tanglung", "solo", "solve", "CRBF/HDFR/BHFB/RHDC", "--time-limit", "abc"]) == 2
    err = capsys.readouterr().err
    assert "Invalid value for '--time-limit'" in err and "valid number" in err

"""Issue 25, IDs: one ASCII grammar for every ID kind (docs/ids.md). Any character outside
printable ASCII, anywhere in an ID of any game, is refused with one line (a FormatError naming
the ID), never read as a look-alike (an Arabic-Indic or fullwidth digit as an ASCII one) and
never an internal error (a superscript seed digit passed ``str.isdigit`` and crashed ``int()``);
ASCII spaces around an ID are ignored. Descriptions are as strict: no trailing or doubled
separator. The web app's ``/api/state?id=...`` answers such IDs with 400.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tanglekit.errors import FormatError
from tanglekit.generators.ids import resolve, split_id

# Valid IDs of every game and kind that resolve fast (seed forms only where regenerating is cheap).
IDS = [
    "tanglung:solo,easy:RHHC/FRBF/FBBD/CHRD",
    "tanglung:solo,easy#1",
    "qango:6,k3#1",
    "qango:6:....../....../..XO../..OX../....../......",
    "qango:board,w=6,h=6#4",
    "zangle:solo,piles=5,hard#2",
    "zangle:solo,piles=5,easy:2h2a0r.061z18382t0v0q.0w.013b.0h0b34.1l2b1y21.19321a0p0g",
    "zangle:turn,players=3#1",
    "zinga:sheets2:" + ".".join(["J8pPetg0LSdCUr7XwhaH6WElo"] * 2),
    "tangle:players=2,board=tangle-default,pieces=tangle-default,min_points=10,min_chain=2#4",
]

_RESOLVED: dict[str, str] = {}


def _instance_id(text: str) -> str:
    """The canonical ID of what ``text`` stands for (cached: seed IDs run a generator)."""
    if text not in _RESOLVED:
        _RESOLVED[text] = resolve(text).id
    return _RESOLVED[text]


# Characters an ID must refuse: look-alike digits, Unicode spaces and marks, controls, emoji...
LOOKALIKES = ["¹", "²", "³", "٣", "۴", "१", "１", "９", "𝟏", "Ⅻ", "½", "\u3000", "\u00a0", "\u2028", "\u200b",
              "\ufeff", "\u0301", "İ", "ı", "K", "ﬁ", "é", "Ａ", "＃", "：", "／", "\x85", "\x7f", "🙂"]
non_ascii = st.one_of(st.sampled_from(LOOKALIKES),
                      st.characters(min_codepoint=0x80, blacklist_categories=("Cs",)))
ascii_space = st.sampled_from([" ", "\t", "\r\n", "  "])


def test_valid_ids_resolve():
    for i in IDS:
        assert _instance_id(i).split(":")[0] == i.split(":")[0]


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(IDS), st.data())
def test_unicode_inside_or_around_an_id_is_refused_in_one_line(text, data):
    """Anything non-ASCII inserted anywhere: a one-line FormatError naming the ID, never
    another exception and never another instance."""
    bad = data.draw(st.text(non_ascii, min_size=1, max_size=3))
    # anywhere, with a bias to the seed or the description's end (where digits are read)
    where = data.draw(st.one_of(st.integers(0, len(text)), st.integers(max(0, len(text) - 2), len(text))))
    mutated = text[:where] + bad + text[where:]
    with pytest.raises(FormatError) as e:
        resolve(mutated)
    msg = str(e.value)
    assert "\n" not in msg and len(msg) < 400, msg


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(IDS), ascii_space, ascii_space)
def test_ascii_spaces_around_an_id_are_the_same_instance(text, before, after):
    assert resolve(before + text + after).id == _instance_id(text)


@settings(deadline=None)
@given(st.sampled_from(IDS), st.sampled_from(LOOKALIKES[:11]))
def test_seed_digits_are_ascii(text, digit):
    """The reported cases: a seed of look-alike digits was an internal error or read as ASCII."""
    game_params = text.split("#")[0].split(":")[0] + ":" + text.split(":")[1].split("#")[0]
    with pytest.raises(FormatError) as e:
        split_id(f"{game_params}#{digit}")
    assert "ASCII" in str(e.value) or "seed" in str(e.value)


@pytest.mark.parametrize("text", [
    "tanglung:solo:CRBF/HDFR/BHFB/RHDC/",  # a trailing '/' after a layout
    "tanglung:solo:CRBF//HDFR/BHFB/RHDC",
    "tanglung:solo:/CRBF/HDFR/BHFB/RHDC",
    "tanglung:solo:CRBF,HDFR,BHFB,RHDC",
    "tanglung:solo:CRBFHDFRBHFBRHDC",
    "qango:6:....../....../..XO../..OX../....../....../",
    "qango:6:....../....../..XO..//..OX../....../......",
    "tangle:players=2,board=tangle-default,pieces=tangle-default:qk..2tg",
    "tangle:players=2,board=tangle-default,pieces=tangle-default:qk.",
    "zinga:sheets1:J8pPetg0LSdCUr7XwhaH6WElo.",
    "zangle:solo,piles=5,easy:2h2a0r.061z18382t0v0q.0w.013b.0h0b34.1l2b1y21.19321a0p0g.",
    "tanglung:solo,,easy#1",  # an empty parameter
    "tanglung:solo,easy,#1",
    "tanglung:solo,easy#+1",  # seeds: ASCII digits only, no sign, '_' or spaces
    "tanglung:solo,easy#1_0",
    "tanglung:solo,easy# 1",
    "qango:6,k3,max=+30#1",
    "qango:6,k3,max=3_0#1",
    "zangle:solo,piles=+5#1",
    "zinga:sheets4,attempts=1_0#1",
    "zinga:sheets4,effort=1_0#1",
    "tangle:players=+2#4",
])
def test_ascii_grammar_is_strict(text):
    with pytest.raises(FormatError) as e:
        resolve(text)
    assert "\n" not in str(e.value)


# --- the web app ---------------------------------------------------------------------------------
def _state(base, **q):
    url = f"{base}/api/state?{urlencode(q)}"
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=st.sampled_from(IDS[:3] + IDS[4:5]), bad=st.text(non_ascii, min_size=1, max_size=2), data=st.data())
def test_api_state_answers_400_for_non_ascii_ids(base, text, bad, data):
    where = data.draw(st.integers(0, len(text)))
    code, body = _state(base, id=text[:where] + bad + text[where:])
    assert code == 400, (code, body)
    assert "\n" not in body["error"] and "internal" not in body["error"].lower(), body


@pytest.mark.parametrize("q", [{"id": "tanglung:solo,easy#¹"}, {"id": "tanglung:solo,easy#١"},
                               {"id": "tanglung:solo,easy#1", "seed": "١"},
                               {"id": "tanglung:solo,easy#1", "moves": "١"},
                               {"id": "tanglung:solo,easy#1", "moves": "+1"},
                               {"id": "\u3000tanglung:solo,easy#1"}])
def test_api_state_reported_cases(base, q):
    code, body = _state(base, **q)
    assert code == 400 and "\n" not in body["error"], (code, body)


# --- every other number a user types: move notation, move numbers, --option values ---------------
_LOOKALIKE_DIGITS = [str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"), str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"),
                     str.maketrans("0123456789", "０１２３４５６７８９"), str.maketrans("0123456789", "߀߁߂߃߄߅߆߇߈߉")]


def _move_texts():
    """(state, texts of legal moves that hold digits) of every game, chance nodes played through."""
    from tanglekit.games import game_names
    from tanglekit.games.plugin import load_game

    out = []
    for name in game_names():
        st_ = load_game(name).new_initial_state(seed=1)
        for _ in range(50):
            if not st_.is_chance_node():
                break
            st_.apply_action(st_.legal_actions()[0])
        texts = [st_.action_to_string(a) for a in st_.legal_actions()[:40]]
        out.append((name, st_, [t for t in texts if any(c.isdigit() for c in t)][:3]))
    return out


def test_move_notation_reads_ascii_digits_only():
    """A legal move with its digits written as look-alikes is no move (qango '٠,٠', tanglung
    '０,１' and zinga 'claim red ١' were read as the ASCII move)."""
    from tanglekit.errors import InvalidMoveError

    for name, state, texts in _move_texts():
        for t in texts:
            assert state.action_to_string(state.string_to_action(t)) == t  # the ASCII text reads
            for table in _LOOKALIKE_DIGITS:
                with pytest.raises(InvalidMoveError) as e:
                    state.string_to_action(t.translate(table))
                assert "\n" not in str(e.value), (name, t)


@pytest.mark.parametrize("typed", ["١", "²", "１", "1_0", "+1", " ٣ "])
def test_play_move_numbers_and_option_values_are_ascii(typed):
    from tanglekit.cli_play import _params
    from tanglekit.errors import RuleError, TanglekitError
    from tanglekit.play.session import PlaySession
    from tanglekit.play.start import resolve_start

    s = PlaySession(resolve_start("qango"), ["human", "human"], 0)
    with pytest.raises(TanglekitError) as e:  # a move number is ASCII digits; anything else is notation
        s.parse_move(typed)
    assert isinstance(e.value, (RuleError, FormatError)) and "\n" not in str(e.value)
    assert isinstance(_params([f"players={typed}"])["players"], str)  # text, not a number: the game refuses it

"""`--batch` input (issue 25): the input is a stream of lines split on ``\\n`` only (``\\r\\n``
tolerated, a BOM at the start skipped), a line that cannot be read is one error line and every
good line is answered under its own number; only regular files and ``-`` are read; JSON lines
are read inline (the output is the same run to run); `tile` lines are checked against the
command's option types and never write files."""

from __future__ import annotations

import io
import json
import os
import random

import pytest
from budget import examples
from hostile import assert_refused, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tanglekit.cli_batch import LineError, _Item, iter_batch, iter_lines

FAST = settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
MAX = 40  # the line cap in the property tests (the real one, 1 MiB, in the CLI tests)

# characters other tools take for line breaks (str.splitlines, Unicode): here, part of the line
ODD = "\u2028\u2029\x0c\x0b\x85\x1c\x1d\x1e\r\t "
good_text = st.text(alphabet=st.characters(blacklist_characters="\n\x00", blacklist_categories=("Cs",)) |
                    st.sampled_from(ODD), max_size=25).filter(lambda t: len(t.encode("utf-8")) <= MAX)
line_kinds = st.one_of(
    st.tuples(st.just("good"), good_text),
    st.tuples(st.just("blank"), st.sampled_from(["", " ", "\t", "\r", " \u2028 "])),
    st.tuples(st.just("latin1"), st.sampled_from(["caf\xe9", "\xff", "x\xe9y\xe9"])),
    st.tuples(st.just("nul"), st.sampled_from(["\x00", "a\x00b"])),
    st.tuples(st.just("long"), st.integers(MAX + 1, 3 * MAX)),
)


def _encode(kind: str, value) -> bytes:
    if kind in ("good", "blank"):
        return value.encode("utf-8")
    if kind == "latin1":
        return value.encode("latin-1")
    if kind == "nul":
        return value.encode("utf-8")
    return b"x" * value


class _Trickle:
    """A stream that hands out its bytes in the chunk sizes it is given (lines cut anywhere)."""

    def __init__(self, data: bytes, sizes: list[int]) -> None:
        self.data, self.sizes, self.pos = data, sizes or [7], 0

    def read(self, n: int) -> bytes:
        k = min(n, self.sizes[self.pos % len(self.sizes)] if self.pos < 10_000 else n)
        out, self.data = self.data[:k], self.data[k:]
        self.pos += 1
        return out


def _build(lines, seps, bom: bool, final_newline: bool) -> tuple[bytes, dict[int, tuple[str, str]]]:
    """The input bytes and what each line number must give: (kind, stripped text)."""
    parts, want = [], {}
    for i, (kind, value) in enumerate(lines):
        parts.append(_encode(kind, value))
        if kind == "good" and value.strip():
            want[i + 1] = ("text", value.strip())
        elif kind in ("latin1", "nul", "long"):
            want[i + 1] = ("error", kind)
    data = b"".join(p + (seps[i % len(seps)] if (i < len(parts) - 1 or final_newline) else b"")
                    for i, p in enumerate(parts))
    return (b"\xef\xbb\xbf" if bom else b"") + data, want


def _check(got: dict[int, str], want: dict[int, tuple[str, str]]) -> None:
    assert sorted(got) == sorted(want)
    for n, (kind, value) in want.items():
        if kind == "text":
            assert got[n] == value and not isinstance(got[n], LineError), n
        else:
            assert isinstance(got[n], LineError), (n, got[n])
            assert {"latin1": "UTF-8", "nul": "NUL", "long": "longer"}[value] in got[n]


@FAST
@given(lines=st.lists(line_kinds, max_size=12), seps=st.lists(st.sampled_from([b"\n", b"\r\n"]), min_size=1, max_size=3),
       bom=st.booleans(), final_newline=st.booleans(), sizes=st.lists(st.integers(1, 50), max_size=5))
def test_lines_are_numbered_by_newlines_only(lines, seps, bom, final_newline, sizes):
    """Odd separators (U+2028, form feed, U+0085, \\r\\n), a BOM, bytes that are not UTF-8, NULs
    and over-long lines, read in chunks cut anywhere: each line keeps its number, a bad line is
    one error, every good line comes through."""
    data, want = _build(lines, seps, bom, final_newline)
    got = dict(iter_lines(_Trickle(data, sizes), max_line=MAX))
    _check(got, want)


def _echo(text=None, as_json=False, batch=None):
    """A stand-in command: prints its input back (the batch machinery alone, no solver)."""
    if text == "boom":
        raise ValueError("boom")
    print(json.dumps({"t": text}))


def _echo_item():
    return _Item(_echo, {"text": None, "as_json": False}, "text", "as_json", {"batch": None, "as_json": True}, False)


@FAST
@given(lines=st.lists(line_kinds | st.just(("good", "boom")), max_size=12), bom=st.booleans(),
       sizes=st.lists(st.integers(1, 50), max_size=5))
def test_every_good_line_is_answered_under_its_number(lines, bom, sizes):
    data, want = _build(lines, [b"\n", b"\r\n"], bom, True)
    out = [json.loads(s) for s in iter_batch(_echo_item(), iter_lines(_Trickle(data, sizes), max_line=MAX), workers=1)]
    assert [o["line"] for o in out] == sorted(want)
    for o in out:
        kind, value = want[o["line"]]
        if kind == "text" and value != "boom":
            assert o == {"line": o["line"], "result": {"t": value}}
        else:
            assert set(o) == {"line", "error"}


def test_streamed_input_over_the_pool_keeps_order(monkeypatch):
    """More lines than the read-ahead: the rest is streamed to a forked pool a few chunks ahead
    of the output, in order."""
    import tanglekit.cli_batch as cb

    monkeypatch.setattr(cb, "_AHEAD_LINES", 7)
    r = random.Random(5)
    texts = [r.choice(["a", "b c", "", "boom", "\u2028", "caf\xe9"]) for _ in range(300)]
    data = b"\n".join(t.encode("latin-1" if t == "caf\xe9" else "utf-8") for t in texts)
    out = [json.loads(s) for s in iter_batch(_echo_item(), iter_lines(io.BytesIO(data)), workers=2, chunk_size=4)]
    want = [i + 1 for i, t in enumerate(texts) if t.strip()]
    assert [o["line"] for o in out] == want
    assert all(("error" in o) == (texts[o["line"] - 1] in ("boom", "caf\xe9")) for o in out)


def test_utf16_input_is_refused_in_one_line(tmp_path):
    f = tmp_path / "in.txt"
    f.write_bytes("CRBF/HDFR/BHFB/RHDC\n".encode("utf-16"))
    msg = assert_refused(["tanglung", "solo", "solve", "--batch", str(f)], tmp_path)
    assert "UTF-16" in msg


@pytest.mark.parametrize("kind", ["fifo", "device", "folder", "missing"])
def test_batch_file_must_be_a_regular_file(kind, tmp_path):
    path = {"device": "/dev/zero", "folder": str(tmp_path), "missing": str(tmp_path / "none.txt"),
            "fifo": str(tmp_path / "pipe")}[kind]
    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)
    elif kind == "device" and not os.path.exists(path):
        pytest.skip("no /dev/zero")
    msg = assert_refused(["tanglung", "solo", "solve", "--batch", path], tmp_path)  # and never hangs
    assert ("regular file" in msg) if kind != "missing" else ("cannot read batch file" in msg)


LAY = ["CRBF/HDFR/BHFB/RHDC", "RBFC/HDFR/BHFB/CHDR", "CBFR/HDFR/BHFB/RHDC"]


def _mixed_input() -> tuple[bytes, dict[int, str]]:
    """A batch file with every trap at once; line number -> "ok" or the start of its error."""
    lines = [
        (b"\xef\xbb\xbf" + LAY[0].encode(), "ok"),             # 1: a BOM before the first layout
        (("\u2028" + LAY[1] + "\x0c").encode(), "ok"),         # 2: U+2028 and a form feed around it
        (b"caf\xe9", "the line is not UTF-8"),                  # 3: Latin-1
        (b"\xc2\x85" + LAY[2].encode() + b"\r", "ok"),          # 4: U+0085 before, \r\n after
        (b"", None),                                           # 5: blank
        (b"x" * (1024 * 1024 + 1), "the line is longer"),      # 6: over the 1 MiB cap
        (json.dumps({"layout": LAY[1]}).encode(), "ok"),       # 7: a JSON challenge, inline
        (b'{"layout": 5}', "inline challenge"),                # 8: a bad one: named inline, no temp file
        (b"nonsense", "nonsense"),                             # 9
        (LAY[0].encode(), "ok"),                               # 10, no final newline
    ]
    return b"\n".join(b for b, _ in lines), {i + 1: w for i, (_, w) in enumerate(lines) if w}


def _drop_seconds(o: dict) -> dict:
    return {**o, "result": {k: v for k, v in o["result"].items() if k != "seconds"}} if "result" in o else o


def test_mixed_batch_file_answers_each_line_and_twice_the_same(tmp_path):
    data, want = _mixed_input()
    f = tmp_path / "in.txt"
    f.write_bytes(data)
    runs = []
    for _ in range(2):
        code, out, err = run_cli(["tanglung", "solo", "solve", "--batch", str(f)])
        assert code == 0, err
        runs.append([json.loads(s) for s in out.splitlines()])
    assert [_drop_seconds(o) for o in runs[0]] == [_drop_seconds(o) for o in runs[1]]  # no temp names, no drift
    got = {o["line"]: o for o in runs[0]}
    assert sorted(got) == sorted(want)
    for n, w in want.items():
        if w == "ok":
            assert got[n]["result"]["solvable"] is True, n
        else:
            assert got[n]["error"].startswith(w) or w in got[n]["error"], (n, got[n])
            assert "tmp" not in got[n]["error"] and "tanglekit-batch" not in got[n]["error"]
    # standard input (a text stream here) gives the same answers as the file
    code, out, _ = run_cli(["tanglung", "solo", "solve", "--batch", "-"], stdin=data.decode("utf-8", "surrogateescape"))
    assert code == 0
    assert [_drop_seconds(json.loads(s)) for s in out.splitlines()] == [_drop_seconds(o) for o in runs[0]]


def _tile(lines: list[str], cwd) -> list[dict]:
    code, out, err = run_cli(["tile", "--pieces", "pentominoes", "--batch", "-"], cwd=cwd, stdin="\n".join(lines) + "\n")
    assert code == 0, err
    return [json.loads(s) for s in out.splitlines()]


def test_tile_batch_lines_are_typed_and_never_write_files(tmp_path):
    # run in tmp_path: a checkpoint a line asked for would land there
    base = '"region": "rect:5x4", "each": "any", "count": true'
    out = _tile([
        "{%s, \"no_mirror\": \"false\"}" % base,     # a string is not a boolean
        "{%s, \"no_mirror\": false}" % base,
        "{%s, \"no-mirror\": true}" % base,
        '{"region": "rect:5x4", "count": "yes"}',  # was a TypeError
        '{"region": "rect:5x4", "all": true, "limit": 2.0}',
        '{"region": "rect:5x4", "all": true, "limit": true}',
        '{"region": "rect:5x4", "each": 3}',
        '{"region": 5}',
        "{%s, \"checkpoint\": \"cp.json\"}" % base,  # batch lines never write files
        "{%s, \"svg\": \"x.svg\"}" % base,
        "{%s, \"workers\": 2}" % base,               # fixed by the batch
        "{%s, \"json\": false}" % base,
        "{%s, \"nonsense\": 1}" % base,
        '{"region": "rect:5x4", "time_limit": 1e999}',
        '["rect:5x4"]',
    ], tmp_path)
    assert [o["line"] for o in out] == list(range(1, 16))
    errors = {o["line"]: o.get("error", "") for o in out}
    assert "expected true or false" in errors[1] and "expected true or false" in errors[4]
    assert "whole number" in errors[5] and "whole number" in errors[6]
    assert "one of exactly, at-most, any" in errors[7] and "expected text" in errors[8]
    assert "writes a file" in errors[9] and "writes a file" in errors[10]
    assert all("unknown or fixed key" in errors[n] for n in (11, 12, 13))
    assert "out of range" in errors[14] and "unknown region" in errors[15]
    assert not any("TypeError" in e or "internal" in e for e in errors.values())
    mirror, no_mirror = out[1]["result"], out[2]["result"]
    single = run_cli(["tile", "--region", "rect:5x4", "--pieces", "pentominoes", "--each", "any", "--count",
                      "--json"])[1]
    assert mirror["count"] == json.loads(single)["count"] > no_mirror["count"] > 0
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("opt", [["--checkpoint", "cp.json"], ["--svg", "x.svg"]])
def test_batch_command_line_refuses_output_options(opt, tmp_path):
    msg = assert_refused(["tile", "--pieces", "pentominoes", "--count", *opt, "--batch", "-"], tmp_path,
                         stdin="rect:5x4\n")
    assert "cannot be used with --batch" in msg


def test_a_long_line_is_skipped_without_being_held():
    """50 MiB without a newline (``head -c 50M /dev/zero | ... --batch -``) is one error line,
    read in bounded memory, and the line after it is still answered."""
    import tracemalloc

    class Zeros:
        def __init__(self, n: int) -> None:
            self.left = n

        def read(self, n: int) -> bytes:
            if self.left <= 0:
                return b"\nafter\n" if self.left == 0 and not setattr(self, "left", -1) else b""
            k = min(n, self.left)
            self.left -= k
            return b"\0" * k

    tracemalloc.start()
    try:
        got = list(iter_lines(Zeros(50 << 20)))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got == [(1, "the line is longer than 1,048,576 bytes"), (2, "after")]
    assert isinstance(got[0][1], LineError) and peak < 4 << 20, peak

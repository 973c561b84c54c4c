"""Outputs never destroy inputs (issue 25): every command's output options are refused, before
the work, when they name a file the same command reads (the same path, a symlink or a hard
link); every write is atomic (an interrupted or failed write keeps the old file); missing
folders are created for every output; and every file tanglekit writes goes through the one
output layer (``outputs.py``)."""

from __future__ import annotations

import ast
import gzip
import json
import os
from pathlib import Path

import pytest
from hostile import assert_refused, run_cli

from tanglekit import outputs
from tanglekit.cli_common import OUTPUT_FLAGS
from tanglekit.errors import TanglekitError

ROOT = Path(__file__).resolve().parents[1]

# the parameters that name a file a command reads (shown as the CLI shows them)
INPUTS = {"GAME", "--region", "--pieces", "SHAPE", "DEAL", "--deck", "--cards", "STATE", "LAYOUT", "POSITION",
          "--board", "BOARD", "--sheets", "PATH", "SHEETS", "--from"}
# commands with an output option and no file input
NO_INPUTS = {"shapes enumerate", "demo", "bench", "qango board generate", "zinga sheets generate"}
# a harmless value for a required argument that is not the input under test
FILLER = {"GAME": "qango", "SHAPE": "#", "STATE": "x", "POSITION": "empty", "BOARD": "6", "PATH": "x", "SHEETS": "x",
          "LAYOUT": "CRBF/HDFR/BHFB/RHDC", "N": "3", "NAME": "zinga", "MODE": "turn", "DEAL": "{}"}


def _shown(p) -> str:
    return p.opts[0] if getattr(p, "param_type_name", "") == "option" else str(p.name).upper()


def _commands():
    """(command words, click command) of every leaf command, the game groups included."""
    from tanglekit.cli import _game_groups, app
    from tanglekit.cli_common import click_command

    root = click_command(app)
    stack = [([], root)]
    while stack:
        path, cmd = stack.pop()
        subs = dict(getattr(cmd, "commands", None) or {})
        if cmd is root:
            subs.update({n: root.load(n) for n in _game_groups()})
        if subs:
            stack.extend((path + [n], c) for n, c in subs.items())
        else:
            yield path, cmd


def _cases():
    out = []
    for path, cmd in _commands():
        flags = [p.opts[0] for p in cmd.params if getattr(p, "param_type_name", "") == "option"
                 and OUTPUT_FLAGS.intersection(p.opts)]
        if not flags:
            continue
        ins = [_shown(p) for p in cmd.params if _shown(p) in INPUTS]
        required = [_shown(p) for p in cmd.params if getattr(p, "param_type_name", "") == "argument"
                    and (p.required or _shown(p) in INPUTS)]
        out.append((" ".join(path), flags, ins, required))
    return sorted(out)


CASES = _cases()


def test_every_command_with_an_output_is_covered():
    """A new command with an output option must say which of its parameters are inputs."""
    assert {c for c, _, ins, _ in CASES if not ins} == NO_INPUTS
    assert len(CASES) >= 25


def _argv(command: str, required: list[str], inp: str, value: str) -> list[str]:
    argv = command.split()
    for r in required:
        argv.append(value if r == inp else FILLER[r])
    if inp.startswith("--"):
        argv += [inp, value]
    return argv


PAIRS = [(c, f, i, req) for c, flags, ins, req in CASES for f in flags for i in ins]


@pytest.mark.parametrize("command,flag,inp,required", PAIRS, ids=[f"{c} {i} {f}" for c, f, i, _ in PAIRS])
def test_output_onto_an_input_is_refused_before_the_work(command, flag, inp, required, tmp_path):
    f = tmp_path / "in.json"
    f.write_text('{"keep": "me"}')
    msg = assert_refused(_argv(command, required, inp, "in.json") + [flag, "in.json"], tmp_path)
    assert "would overwrite an input" in msg and inp in msg and flag in msg, msg
    assert f.read_text() == '{"keep": "me"}'


@pytest.mark.parametrize("how", ["symlink", "hardlink", "dotted"])
def test_links_to_an_input_count(how, tmp_path):
    f = tmp_path / "layout.txt"
    f.write_text("CRBF/HDFR/BHFB/RHDC\n")
    out = {"symlink": "link.svg", "hardlink": "hard.svg", "dotted": "./sub/../layout.txt"}[how]
    if how == "symlink":
        (tmp_path / out).symlink_to(f)
    elif how == "hardlink":
        os.link(f, tmp_path / out)
    else:
        (tmp_path / "sub").mkdir()
    code, _, err = run_cli(["tanglung", "solo", "solve", "layout.txt", "--svg", out], cwd=tmp_path)
    assert code == 2 and err.count("\n") == 1 and "would overwrite" in err, err
    assert f.read_text() == "CRBF/HDFR/BHFB/RHDC\n"


def test_an_input_read_by_other_means_is_refused_at_write(tmp_path):
    """The writer's own check: ``@layout.txt`` names the file only once it is read (the input
    layer records it), and the picture is then refused, the layout intact."""
    f = tmp_path / "layout.txt"
    f.write_text("CRBF/HDFR/BHFB/RHDC\n")
    msg = assert_refused(["tanglung", "solo", "solve", "@layout.txt", "--svg", "layout.txt"], tmp_path)
    assert "is an input of this command" in msg
    assert f.read_text() == "CRBF/HDFR/BHFB/RHDC\n"


def test_the_record_of_inputs_belongs_to_one_command(tmp_path):
    from tanglekit.jsonio import read_bytes

    f = tmp_path / "a.json"
    f.write_text("{}")
    read_bytes(f)  # outside a command: nothing recorded, nothing refused
    outputs.write_text(f, "{}")
    with outputs.command_scope():
        read_bytes(f)
        with pytest.raises(TanglekitError, match="input of this command"):
            outputs.write_text(tmp_path / "sub" / ".." / "a.json", "x")
        with outputs.command_scope():  # a command run inside another keeps its own record
            outputs.write_text(f, "{}")
        with pytest.raises(TanglekitError):
            outputs.write_text(f, "x")
        read_bytes(tmp_path / "a.json", state=True)  # a checkpoint read back is no input
    assert f.read_text() == "{}"


def _old(tmp_path) -> Path:
    f = tmp_path / "out.svg"
    f.write_text("old picture")
    os.chmod(f, 0o640)
    return f


def test_a_failed_replace_leaves_the_old_file(tmp_path, monkeypatch):
    f = _old(tmp_path)

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    code, out, err = run_cli(["tanglung", "solo", "solve", "CRBF/HDFR/BHFB/RHDC", "--svg", "out.svg"], cwd=tmp_path)
    assert code == 2 and err.strip().splitlines() == ["error: cannot write picture to out.svg: No space left on device"]
    assert f.read_text() == "old picture" and sorted(os.listdir(tmp_path)) == ["out.svg"]  # no temporary file left


def test_an_interrupted_write_leaves_the_old_file(tmp_path, monkeypatch):
    f = _old(tmp_path)
    real_write = os.write

    def half(fd, data):
        real_write(fd, bytes(data[: len(data) // 2]))
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "write", half)
    with pytest.raises(KeyboardInterrupt):
        outputs.write_text(f, "<svg>" + "x" * 10_000 + "</svg>")
    monkeypatch.undo()
    assert f.read_text() == "old picture" and sorted(os.listdir(tmp_path)) == ["out.svg"]
    outputs.write_text(f, "new")  # a replaced file keeps its mode
    assert f.read_text() == "new" and (f.stat().st_mode & 0o777) == 0o640


def test_a_read_only_folder_leaves_the_old_file(tmp_path, monkeypatch):
    f = _old(tmp_path)
    if os.geteuid() != 0:  # a real read-only folder (root writes anyway)
        os.chmod(tmp_path, 0o555)
        try:
            code, _, err = run_cli(["tanglung", "solo", "solve", "CRBF/HDFR/BHFB/RHDC", "--svg", str(f)])
        finally:
            os.chmod(tmp_path, 0o755)
        assert code == 2 and "Permission denied" in err and err.count("\n") == 1
    import tempfile

    def denied(*a, **k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", denied)
    code, _, err = run_cli(["tanglung", "solo", "solve", "CRBF/HDFR/BHFB/RHDC", "--svg", str(f)])
    assert code == 2 and "Permission denied" in err and err.count("\n") == 1
    assert f.read_text() == "old picture"


def test_writes_to_a_device_and_into_missing_folders(tmp_path):
    outputs.write_text("/dev/null", "nothing")  # not a regular file: written in place
    assert os.path.exists("/dev/null") and not Path("/dev/null").is_file()
    with pytest.raises(TanglekitError, match="is a folder"):
        outputs.write_text(tmp_path, "x")
    outputs.write_bytes(tmp_path / "a" / "b" / "c.bin", b"\x00\x01")
    assert (tmp_path / "a" / "b" / "c.bin").read_bytes() == b"\x00\x01"
    mode = (tmp_path / "a" / "b" / "c.bin").stat().st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask


@pytest.mark.parametrize("name", ["p.json", "p.json.gz"])
def test_proofs_create_missing_folders_either_way(name, tmp_path):
    board = "qango:board:aaa/bbb/ccc@yro"  # a 3x3 board: a proof in a second
    code, _, err = run_cli(["qango", "solve", "empty", "--board", board, "--proof", f"new/sub/{name}"], cwd=tmp_path)
    assert code == 0, err
    p = tmp_path / "new" / "sub" / name
    data = p.read_bytes()
    doc = json.loads(gzip.decompress(data) if name.endswith(".gz") else data)
    assert isinstance(doc, dict)
    code, out, err = run_cli(["qango", "verify-proof", str(p)])
    assert code == 0 and "valid" in out, err


# --- every write goes through the output layer --------------------------------------------------
# writers outside outputs.py that are allowed, with why
ALLOWED = {
    "benchmarks/batch.py": "benchmark input files in its own temporary folder",
    "benchmarks/_table.py": "a pipe to a child process",
    "benchmarks/exact_cover.py": "/proc/self/clear_refs, a kernel control file",
    "examples/make_examples.py": "regenerates the examples folder of the repository",
    "outputs.py": "the output layer itself",
}


def _writes(tree: ast.AST) -> list[int]:
    """Lines that write a file other than through ``outputs``: ``open``/``gzip.open``/``fdopen``
    with a writing mode, ``Path.write_text``/``write_bytes``, ``os.replace``/``rename``."""
    bad = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        owner = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else ""
        if name in ("open", "fdopen"):
            modes = [a for a in node.args[1:2]] + [k.value for k in node.keywords if k.arg == "mode"]
            if any(isinstance(m, ast.Constant) and isinstance(m.value, str) and set(m.value) & set("wax+")
                   for m in modes):
                bad.append(node.lineno)
        elif name in ("write_text", "write_bytes") and isinstance(f, ast.Attribute) and owner not in ("outputs",):
            bad.append(node.lineno)
        elif name in ("replace", "rename") and owner == "os":
            bad.append(node.lineno)
    return bad


def test_every_file_is_written_through_the_output_layer():
    found = {}
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT).as_posix()
        top = path.relative_to(ROOT).parts[0]
        # not the package's own code: tests, and what `pip install .` leaves beside it (build/)
        if top in ("tests", "build", "dist") or top.startswith(".") or top.endswith(".egg-info") or rel in ALLOWED:
            continue
        text = path.read_text(encoding="utf-8")
        if not any(w in text for w in ("open(", "write_text(", "write_bytes(", "replace(", "rename(")):
            continue  # cheap: only files that might write are parsed
        lines = _writes(ast.parse(text))
        if lines:
            found[rel] = lines
    assert found == {}, f"write through tanglekit.outputs (or cli_common.write_text): {found}"
